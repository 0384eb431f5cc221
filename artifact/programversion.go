package artifact

import "strings"

// programVersionBefore: the word right before a bare "2.x.y" names a program whose own
// version it is ("Apache 2.4.  Uwsgi 2.0.20.", "nginx 2.0.1"), not the kernel's (fix19a:
// a uWSGI 2.0.x post read as kernel 2.0.20). before is the lower-cased text up to the
// version, trailing blanks removed.
//
// fix25a: any name right before the number is the named product's version, not the
// kernel's: "Production impact on NGF 2.4.2", "Mosquitto 2.0.14", "traefik 2.3.2", "nats
// server 2.1.0", "pytorch 2.1.2", "procps 2.3.3", "Yocto 2.3.1", "(ver 2.1.0)", a tracker
// template's "**Elasticsearch version**: 2.3.0" or a program's "Version:  2.6.6". A bare
// kernel release comes after a word of the sentence ("running 2.6.7", "on 2.4.14-pre6aa1",
// "tested on 2.5.66", "Kernel is plain 2.6.18", "Subject: Re: 2.6.10-rc1"), the kernel's
// own words ("Kernel : 2.6.31", "Not tainted 2.6.32-41-server") or a distribution's
// ("debian squeeze 2.6.32"): kernelWordBefore.
func programVersionBefore(before string) bool {
	w := strings.TrimRight(before, " \t*_`:")
	prefix := "" // the text before the word w
	if k := strings.LastIndexAny(w, " \t(,;:*`[>"); k >= 0 {
		w, prefix = w[k+1:], w[:k+1]
	}
	if w == "is" || w == "was" || w == "=" {
		// "Logstash version is 2.1.0", "version = 2.4.9"
		if p := strings.TrimRight(prefix, " \t*_`:"); strings.HasSuffix(p, "version") || strings.HasSuffix(p, "release") {
			return true
		}
	}
	// nixpkgs' commit title for a new package: "pleroma: init at 2.3.50" (corpus 2711 read
	// it as kernel 2.3.50).
	if w == "at" && strings.HasSuffix(strings.TrimRight(prefix, " \t"), "init") {
		return true
	}
	// fix42c (corpus 3592): a change's title that updates a named program, "Update SABnzbd
	// to 2.2.1", "Bump redis to 2.8.4", "upgraded foo to 2.4.1": the version after "to" is
	// the program's. "upgraded the kernel to 2.6.32" names the kernel (kernelWordBefore).
	if w == "to" {
		p := strings.TrimRight(prefix, " \t")
		name := p
		if k := strings.LastIndexAny(p, " \t(,;:*`[>#"); k >= 0 {
			name, p = p[k+1:], strings.TrimRight(p[:k+1], " \t")
		} else {
			p = ""
		}
		verb := p
		if k := strings.LastIndexAny(p, " \t(,;:*`[>#"); k >= 0 {
			verb = p[k+1:]
		}
		switch verb {
		case "update", "updated", "updates", "updating", "upgrade", "upgraded", "upgrades", "upgrading", "bump", "bumped", "bumps", "bumping":
			if name != "kernel" && name != "linux" && nameWord(name) && !kernelWordBefore[name] {
				return true
			}
		}
	}
	switch w {
	case "uwsgi", "nginx", "apache", "httpd", "haproxy", "gunicorn", "php", "php-fpm", "python",
		"python3", "node", "nodejs", "redis", "mysql", "mariadb", "postgres", "postgresql",
		"squid", "varnish", "docker", "java", "openssl", "frr", "bird", "quagga", "django", "flask",
		"version", "ver", "v", "release":
		return true
	}
	// "X-Operating-System: Linux naboo.gnumonks.org 2.4.9": uname -snr, the host's name
	// between the system's and the release.
	if strings.HasSuffix(prefix, "linux ") {
		return false
	}
	return nameWord(w) && !kernelWordBefore[w]
}

// nameWord: w could name a product: a letter first, then letters, digits, '-', '_', '.'
// or '/', and not one letter alone.
func nameWord(w string) bool {
	if len(w) < 2 || !(w[0] >= 'a' && w[0] <= 'z') {
		return false
	}
	for i := 1; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '/') {
			return false
		}
	}
	return true
}

// kernelWordBefore: the words after which a bare "2.x.y" is the kernel's release: the
// sentence's own (a preposition, an article, a verb of running, testing or booting), the
// kernel's (kernel, linux, tainted, kernelversion, uname) and a distribution's or its
// release's name, which a kernel release follows ("debian squeeze 2.6.32", "CentOS 5
// 2.6.18").
var kernelWordBefore = map[string]bool{
	"on": true, "to": true, "in": true, "into": true, "with": true, "from": true, "at": true, "of": true,
	"and": true, "or": true, "is": true, "was": true, "are": true, "were": true, "be": true, "been": true,
	"an": true, "the": true, "this": true, "that": true, "my": true, "our": true, "its": true, "by": true,
	"for": true, "as": true, "than": true, "vs": true, "vs.": true, "under": true, "using": true, "use": true,
	"used": true, "run": true, "runs": true, "running": true, "ran": true, "tested": true, "test": true,
	"testing": true, "booted": true, "boot": true, "booting": true, "built": true, "compiled": true,
	"upgraded": true, "upgrade": true, "updated": true, "installed": true, "switched": true, "moved": true,
	"went": true, "back": true, "try": true, "tried": true, "plain": true, "vanilla": true, "stock": true,
	"clean": true, "latest": true, "current": true, "new": true, "old": true, "older": true, "newer": true,
	"re": true, "subject": true, "kernel": true, "kernels": true, "linux": true, "tainted": true,
	"kernelversion": true, "kernel/cpu": true, "uname": true, "also": true, "still": true, "now": true,
	"here": true, "there": true, "both": true, "only": true, "just": true, "between": true, "like": true,
	"says": true, "said": true, "shows": true, "showed": true, "gives": true, "gave": true, "reports": true,
	"reported": true, "returns": true, "returned": true, "prints": true, "printed": true, "-r": true,
	"debian": true, "ubuntu": true, "centos": true, "rhel": true, "fedora": true, "gentoo": true,
	"suse": true, "opensuse": true, "slackware": true, "mandrake": true, "mandriva": true, "redhat": true,
	"woody": true, "sarge": true, "etch": true, "lenny": true, "squeeze": true, "wheezy": true,
	"dapper": true, "hardy": true, "lucid": true, "breezy": true, "edgy": true, "feisty": true, "gutsy": true,
}

// versionListAfter: between a program's version and the next is only a list's separator
// ("influxdb 2.0.7, 2.1.1 and 2.6.1", "pytorch 2.1.2, 2.3.0"): the next is the program's too.
func versionListAfter(between string) bool {
	switch strings.TrimSpace(between) {
	case ",", "and", "or", ", and", ", or", "/", "&":
		return true
	}
	return false
}

// packageManagers: the tools a reporter installs a program's package with.
var packageManagers = map[string]bool{
	"opkg": true, "apt": true, "apt-get": true, "yum": true, "dnf": true, "pip": true, "pip3": true,
	"npm": true, "brew": true, "snap": true, "flatpak": true, "pacman": true, "zypper": true,
	"apk": true, "conda": true, "cargo": true, "gem": true, "helm": true, "ipkg": true, "entware": true,
}

// installedByPackageManager: the text after a bare "2.x.y" says it was installed with a
// package manager ("with 2.0.18 installed on router via opkg", corpus 2544 read as kernel
// 2.0.18): the version of the package, not the kernel's. A kernel "installed" with no
// package manager named keeps its reading ("kernel 2.4.21 installed, RH 8").
func installedByPackageManager(after string) bool {
	after = strings.ToLower(after)
	rest, ok := strings.CutPrefix(strings.TrimLeft(after, " \t"), "installed")
	if !ok {
		return false
	}
	if i := strings.IndexAny(rest, ".;!?"); i >= 0 && (i+1 == len(rest) || rest[i+1] == ' ') {
		rest = rest[:i] // this sentence only
	}
	prev := ""
	for _, f := range strings.Fields(rest) {
		f = strings.Trim(f, ",()'\"`")
		if packageManagers[f] && (prev == "via" || prev == "with" || prev == "using" || prev == "from" || prev == "through" || prev == "by") {
			return true
		}
		prev = f
	}
	return false
}
