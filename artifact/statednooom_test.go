package artifact

import (
	"testing"

	"headroom/model"
)

// The author's reading of the kernel's log stated as no OOM kill (php-src #15161's reply):
// neither a stated kill nor nothing; counter-cases keep their reading.
func TestFix19aStatedNoOOMKill(t *testing.T) {
	for _, c := range []struct {
		text         string
		none, killed float64
	}{
		{"@arnaud-lb , Nothing's getting oom killed according to syslog or kernel.log. The instances have loads of free memory.\n", 1, 0},
		{"None of the workers got OOM killed, dmesg is clean.\n", 1, 0},
		// counter-cases: a kill stated; a negation that names no log; a question; advice
		{"Our workers are getting oom killed every night according to syslog.\n", 0, 1},
		{"Nothing changed, but mysqld keeps getting OOM killed.\n", 0, 1},
		{"Nothing's getting oom killed as far as I can tell.\n", 0, 0},
		{"Is nothing getting oom killed according to syslog?\n", 0, 0},
		// h31b: the negation and the OOM in one phrase, naming the log (reNoOOMWord); no
		// log named, a question, a kill beside another negation
		{"There is no OOM in dmesg.\n", 1, 0},
		{"- dmesg: no OOM, no page allocation failures\n", 1, 0},
		{"> I checked journalctl -k, there is no sign of the OOM killer.\n", 1, 0},
		{"no OOM here\n", 0, 0},
		{"Is there no OOM in dmesg?\n", 0, 0},
		{"dmesg shows the OOM killer killed mysqld, no other errors.\n", 0, 1},
	} {
		if got := statedRate(t, c.text, model.RateStatedNoOOMKill); got != c.none {
			t.Errorf("%q: stated no kill %v, want %v", c.text, got, c.none)
		}
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.killed {
			t.Errorf("%q: stated kill %v, want %v", c.text, got, c.killed)
		}
	}
}
