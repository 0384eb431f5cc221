package artifact

import (
	"slices"
	"testing"

	"headroom/model"
)

// fix59c: a paste that compares two machines' netstat -s (a 2003 LKML thread: "First the
// "bad" machine: ... And now the "good" machine:") is two hosts, not two readings of one:
// the second host's smaller count is no reset and the difference no growth.
func TestOtherHostBreaksCounterGrowth(t *testing.T) {
	netstat := func(retrans, overflows string) string {
		return "bash$ netstat -s\nTcp:\n    100 active connections openings\n    383845607 segments send out\n    " + retrans +
			" segments retransmited\nTcpExt:\n    " + overflows + " times the listen queue of a socket overflowed\n"
	}
	for _, c := range []struct {
		name, first, second string
		other               bool
	}{
		{"two machines by quality", "First the \"bad\" machine:\n\n", "And now the \"good\" machine:\n\n", true},
		{"the other server", "On our proxy:\n\n", "On the other server:\n\n", true},
		// Counter-cases: the same machine read twice, or headings naming no machine.
		{"the same machine later", "The bad machine at noon:\n\n", "The bad machine an hour later:\n\n", false},
		{"phases", "Before the test:\n\n", "After the test:\n\n", false},
		{"one machine named once", "On the good machine:\n\n", "Ten minutes later:\n\n", false},
	} {
		text := c.first + netstat("74153475", "8670444") + "\n" + c.second + netstat("74510601", "8590739")
		tl, err := ParseBytes([]byte(text), "t", Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(tl.Samples) != 2 {
			t.Fatalf("%s: %d samples, want 2", c.name, len(tl.Samples))
		}
		if got := slices.Contains(tl.OtherHost, 1); got != c.other {
			t.Errorf("%s: other host at sample 1 = %v, want %v (OtherHost %v)", c.name, got, c.other, tl.OtherHost)
		}
		_, _, grew := tl.CounterDelta(func(s *model.Sample) (int64, bool) { return s.NetStat.Get("TcpExt", "ListenOverflows") })
		if grew == c.other {
			t.Errorf("%s: a growth across the samples = %v, want %v", c.name, grew, !c.other)
		}
	}
}
