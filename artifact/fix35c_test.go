package artifact

import "testing"

// fix35c: round 30's network labs and artifact registries (corpus 3014, 3019, 3020, 3031).
// Lines from the cases themselves, and counter-cases that must not be read as the class.
func TestFix35cClasses(t *testing.T) {
	for _, c := range []struct {
		line string
		f    func(string) bool
		want bool
	}{
		{" tc qdisc replace dev s1-eth1 root pfifo limit 1000", tcQdiscLimitSet, true},
		{"# tc qdisc add dev eth0 parent 1:1 handle 10: bfifo limit 30000", tcQdiscLimitSet, true},
		{"sudo tc qdisc change dev eth0 root netem delay 100ms limit 5000", tcQdiscLimitSet, true},
		// counter-cases: a show, a delete, a set without a limit, a sentence naming tc
		{"tc qdisc show dev eth0", tcQdiscLimitSet, false},
		{"tc qdisc del dev s1-eth1 root", tcQdiscLimitSet, false},
		{"tc qdisc replace dev eth0 root fq_codel", tcQdiscLimitSet, false},
		{"I used tc qdisc replace with pfifo limit 1000 on the switch", tcQdiscLimitSet, false},

		{"`ERROR: Max number of open files 1024, is too low. Cannot run Artifactory!`", fdLimitTooLow, true},
		{"[1]: max file descriptors [4096] for elasticsearch process is too low, increase to at least [65535]", fdLimitTooLow, true},
		// counter-cases: a question, a condition, no figure, the words without "too low"
		{"Is max number of open files 1024 too low?", fdLimitTooLow, false},
		{"if the max open files 1024 is too low, raise it", fdLimitTooLow, false},
		{"Max number of open files is too low", fdLimitTooLow, false},
		{"Max number of open files 1024", fdLimitTooLow, false},
	} {
		if got := c.f(c.line); got != c.want {
			t.Errorf("%q: got %v, want %v", c.line, got, c.want)
		}
	}
}

// A figure glued to "bytes" beside a network word is a stated figure; without the word, or as
// a program's version, it is not.
func TestFix35cGluedBytes(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"As a work around, I lowered the MTU to 1470bytes on all servers passing traffic through the cloud.", true},
		{"I then discovered it happens when the cloud-uBridge processes packet larger than 1500bytes. ", true},
		// counter-cases: no domain word, a file's size
		{"the file is 1500bytes long", false},
		{"I uploaded a 300bytes picture", false},
	} {
		if got := statesDomainFigure(c.line); got != c.want {
			t.Errorf("%q: got %v, want %v", c.line, got, c.want)
		}
	}
}

// A release glued to a pre-release tag is a program's version, not the host's kernel; a bare
// old release in prose, or one with a dashed -rc, still is.
func TestFix35cPreReleaseNoKernel(t *testing.T) {
	for _, c := range []struct {
		text, want string
	}{
		{"servers with different versions of GNS3 from 153 to 2.0.0rc1. \n", ""},
		{"it broke in 2.1.0beta and 2.0.0b4 too\n", ""},
		// counter-cases: the host's old releases in prose
		{"On 2.4.13 (and 2.4.5) performance drops\n", "2.4.13"},
		{"the box runs 2.6.32-rc1 since monday\n", "2.6.32-rc1"},
		{"Both servers swap constantly, but the 2.4.20aa1 at a 10-fold rate\n", "2.4.20"}, // a 2.4 patch set (corpus 346)
	} {
		tl := ParseString(c.text, "t.txt", Options{})
		if tl.Host.Kernel != c.want {
			t.Errorf("%q: kernel %q, want %q", c.text, tl.Host.Kernel, c.want)
		}
	}
}
