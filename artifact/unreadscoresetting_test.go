package artifact

import "testing"

// fix29a: round 24's corpus 2497 (dstat --top-oom score in prose) and 2511 (zeekctl node.cfg
// buffer size), lines from the cases, and counter-cases that must not be read as the class.
func TestFix29aClasses(t *testing.T) {
	for _, c := range []struct {
		line string
		f    func(string) bool
		want bool
	}{
		{"I think you're right. I didn't see anything in journal, but dstat --top-oom put rtorrent as the top (only) member of the list with a 'score' of 465. Thanks for the reply.", statedOOMScore, true},
		{"its oom_score is 812", statedOOMScore, true},
		{"cat /proc/1234/oom_score showed oom_score: 97 for mysqld.", statedOOMScore, true},
		// counter-cases: no figure, a setting, a question, a condition, advice, out of range
		{"The OOM killer kills the process with the highest oom_score", statedOOMScore, false},
		{"I set oom_score_adj 1000 on the worker", statedOOMScore, false},
		{"What does an oom_score of 465 mean?", statedOOMScore, false},
		{"if the oom score is 900 the process goes first", statedOOMScore, false},
		{"dstat --top-oom shows the process with the highest score, 3 columns wide", statedOOMScore, false},
		{"the team's score of 465 in the game", statedOOMScore, false},
		{"oom_score 4096", statedOOMScore, false},

		{"af_packet_buffer_size=1*1024*1024*1024", bufferSizeSetting, true},
		{"  buffer_size = 67108864", bufferSizeSetting, true},
		{"ring_size=4096", bufferSizeSetting, true},
		// counter-cases: another setting, a comment, a sentence, no number, a count
		{"lb_procs=50", bufferSizeSetting, false},
		{"# af_packet_buffer_size=1*1024*1024*1024", bufferSizeSetting, false},
		{"set af_packet_buffer_size=1*1024*1024*1024 on each worker", bufferSizeSetting, false},
		{"buffer_size=large", bufferSizeSetting, false},
		{"max_buffer_retries=3", bufferSizeSetting, false},
		{"keyring=1", bufferSizeSetting, false},
		{"pin_cpus=4,5,6,7", bufferSizeSetting, false},
	} {
		if got := c.f(c.line); got != c.want {
			t.Errorf("%q: got %v, want %v", c.line, got, c.want)
		}
	}
}

// A tcpdump summary counter within 2^24 of 2^32 is a wrapped negative difference; a count
// below the window, and 2^32 itself (which a u_int cannot hold), are read as written.
func TestFix29aU32Wrap(t *testing.T) {
	for _, c := range []struct {
		v    int64
		want bool
	}{{4294965006, true}, {4294967295, true}, {1<<32 - 1<<24, true}, {1<<32 - 1<<24 - 1, false}, {18234, false}, {1 << 32, false}, {0, false}} {
		if got := u32WrappedDifference(c.v); got != c.want {
			t.Errorf("u32WrappedDifference(%d) = %v, want %v", c.v, got, c.want)
		}
	}
}
