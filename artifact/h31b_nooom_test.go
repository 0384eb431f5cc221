package artifact

import (
	"testing"

	"headroom/model"
)

// The negation and the OOM in one phrase, naming the log looked at (h31b): read as no kill;
// a phrase that names no log, a question and a kill stated beside other negations are not.
func TestH31bNoOOMInTheLog(t *testing.T) {
	for _, c := range []struct {
		text         string
		none, killed float64
	}{
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
