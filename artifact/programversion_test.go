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

// A bare release of a series no paste's host ran (2.0, 2.1, 2.3) is a program's: "tried to
// upgrade to 2.0.0" after "1.x version of actix-web" (corpus 3455) read as kernel 2.0.0. The
// series hosts ran stay read bare, and a 2.0 kernel named as one is still the kernel.
func TestBareOldSeriesNotKernel(t *testing.T) {
	line := "Tue May 31 13:51:28 2022 - *** uWSGI listen queue of socket \":3030\" (fd: 4) full !!! (101/100) ***\n"
	for _, c := range []struct{ text, want string }{
		{"I have since tried to upgrade to 2.0.0 to see if it solves the problem, but it's the same thing.\n", ""},
		{"Same leak after moving to 2.1.3 last week.\n", ""},
		{"We run on 2.3.1 now.\n", ""},
		// counter-cases
		{"Same leak after moving to 2.4.21 last week.\n", "2.4.21"},
		{"It was tested on 2.5.66 only.\n", "2.5.66"},
		{"The router runs kernel 2.0.36 from the vendor.\n", "2.0.36"},
		{"Linux 2.0.36 on a 486.\n", "2.0.36"},
	} {
		tl := ParseString(c.text+line, "t", Options{})
		if got := tl.Host.Kernel; got != c.want {
			t.Errorf("%q: kernel %q, want %q", c.text, got, c.want)
		}
	}
}

// A machine name in a link is not the host's: a Zulip topic URL naming riscv64 in a post
// about arm64 (corpus 3460) set the architecture to riscv64. Named in the sentence, it is read.
func TestArchInLinkNotHost(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"This came up on the [Zulip](https://example.zulipchat.com/#narrow/topic/pool.20on.20riscv64/near/1) and I think I got a fix.\n", ""},
		{"see https://github.com/x/y/issues?q=aarch64 for more\n", ""},
		// counter-cases
		{"The board runs riscv64 with 2 GB (see https://example.org/).\n", "riscv64"},
		{"Linux box 6.1.0-18-amd64 #1 SMP x86_64 GNU/Linux\n", "x86_64"},
	} {
		tl := ParseString(c.text, "t", Options{})
		if got := tl.Host.Arch; got != c.want {
			t.Errorf("%q: arch %q, want %q", c.text, got, c.want)
		}
	}
}
