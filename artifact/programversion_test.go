package artifact

import "testing"

func TestFix19aProgramVersionNotKernel(t *testing.T) {
	line := "Tue May 31 13:51:28 2022 - *** uWSGI listen queue of socket \":3030\" (fd: 4) full !!! (101/100) ***\n"
	for _, c := range []struct{ text, want string }{
		{"Ubuntu 20.04 on an OpenStack VM.  Apache 2.4.  Uwsgi 2.0.20.\n", ""},
		{"We run nginx 2.0.1 in front.\n", ""},
		// counter-cases: a bare old kernel release is still read
		{"The box runs 2.6.32-431.el6 and drops packets.\n", "2.6.32-431.el6"},
		{"Linux 2.6.18 on a Kirkwood.\n", "2.6.18"},
	} {
		tl := ParseString(c.text+line, "t", Options{})
		if got := tl.Host.Kernel; got != c.want {
			t.Errorf("%q: kernel %q, want %q", c.text, got, c.want)
		}
	}
}

// A package's version named by how it came onto the machine: nixpkgs' "init at" title, a
// version "installed ... via opkg". A kernel installed with no package manager named, and
// a release after "upgraded to", keep their reading.
func TestPackageVersionNotKernel(t *testing.T) {
	line := "Tue May 31 13:51:28 2022 - *** uWSGI listen queue of socket \":3030\" (fd: 4) full !!! (101/100) ***\n"
	for _, c := range []struct{ text, want string }{
		{"# pleroma: init at 2.3.50\n", ""},
		{"Got similar error with 2.0.18 installed on router via opkg. But only if mosquitto_sub used.\n", ""},
		{"I have 2.0.18 installed using apt.\n", ""},
		// counter-cases
		{"The server runs 2.4.21 installed from the RH 8 CD.\n", "2.4.21"},
		{"We went back to 2.6.18 installed on all nodes.\n", "2.6.18"},
		{"Upgraded to 2.6.32 and it still drops; apt is not involved.\n", "2.6.32"},
	} {
		tl := ParseString(c.text+line, "t", Options{})
		if got := tl.Host.Kernel; got != c.want {
			t.Errorf("%q: kernel %q, want %q", c.text, got, c.want)
		}
	}
}
