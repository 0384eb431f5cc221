package artifact

import "strings"

// programVersionBefore: the word right before a bare "2.x.y" names a program whose own
// version it is ("Apache 2.4.  Uwsgi 2.0.20.", "nginx 2.0.1"), not the kernel's (fix19a:
// a uWSGI 2.0.x post read as kernel 2.0.20). before is the lower-cased text up to the
// version, trailing blanks removed.
func programVersionBefore(before string) bool {
	w := before
	if k := strings.LastIndexAny(w, " \t(,;:"); k >= 0 {
		w = w[k+1:]
	}
	switch w {
	case "uwsgi", "nginx", "apache", "httpd", "haproxy", "gunicorn", "php", "php-fpm", "python",
		"python3", "node", "nodejs", "redis", "mysql", "mariadb", "postgres", "postgresql",
		"squid", "varnish", "docker", "java", "openssl", "frr", "bird", "quagga", "django", "flask":
		return true
	}
	return false
}
