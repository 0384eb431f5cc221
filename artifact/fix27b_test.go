package artifact

import (
	"testing"

	"headroom/model"
)

// fix27b: an OOM kill stated in the passive ("gets reaped by the OOM-killer", corpus 2349), as
// the kill messages received ("I was getting OOM messages on the console", corpus 2351), and
// "killed by the kernel" with the victim's memory in the clause (corpus 2353). Counter-cases:
// a question, a condition, advice, a fear, a negation, a kill by the kernel not for memory,
// a program's own out-of-memory error.
func TestFix27bStatedOOMGot(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"I have observed a memory leak in production where SoftEther steadily eats more and more memory until it eventually gets reaped by the OOM-killer. With almost 1000 users at any time connected, such an event occurs roughly every month on a server with 8GB RAM.\n", 1},
		{"Yep, I'm sure the problem was RAM.  I was getting OOM messages on the console.\n", 1},
		{"I upgraded and restarted headscale, and started getting OOMs.\n", 1},
		{"I used a tester to test VPN throughput and found that charon's memory usage was high and was killed by the kernel.\n", 1},
		{"Our worker was killed by the OOM killer last night.\n", 1},
		// Counter-cases.
		{"Is it getting reaped by the OOM killer?\n", 0},
		{"If the daemon gets reaped by the OOM-killer, dmesg shows it.\n", 0},
		{"To avoid being killed by the OOM killer, set a memory limit.\n", 0},
		{"I'm afraid it could be killed by the kernel when memory runs low.\n", 0},
		{"The process was not killed by the OOM killer.\n", 0},
		{"Are you getting OOM messages on the console?\n", 0},
		{"Check whether you were getting OOM messages on the console.\n", 0},
		{"The daemon segfaulted and was killed by the kernel with SIGSEGV.\n", 0},
		{"Was charon killed by the kernel because of its memory?\n", 0},
		{"The JVM keeps throwing OutOfMemoryError: Java heap space, the heap is full.\n", 0},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.want {
			t.Errorf("stated OOM %v, want %v: %q", got, c.want, c.text)
		}
	}
}

// fix27b (corpus 2343): UDP buffer errors the author keeps getting, with no figure: the send
// side's key for "send buffer errors". Counter-cases: a question, a condition, the words
// without UDP, a negation.
func TestFix27bStatedUDPBufGetting(t *testing.T) {
	for _, c := range []struct {
		text string
		key  string
		want float64
	}{
		{"Despite a lot of tweaking to sysctl.conf, I keep getting regular UDP send buffer errors under even the lowest of loads.\n", model.RateStatedUDPSndbufRising, 1},
		{"We are getting UDP receive buffer errors on the collector.\n", model.RateStatedUDPRcvbufRising, 1},
		{"Despite a lot of tweaking to sysctl.conf, I keep getting regular UDP send buffer errors under even the lowest of loads.\n", model.RateStatedUDPRcvbufRising, 0},
		// Counter-cases.
		{"Are you getting UDP send buffer errors too?\n", model.RateStatedUDPSndbufRising, 0},
		{"If you keep getting UDP send buffer errors, raise wmem_max.\n", model.RateStatedUDPSndbufRising, 0},
		{"I keep getting send buffer errors from the application's logger.\n", model.RateStatedUDPSndbufRising, 0},
		{"I was not getting UDP send buffer errors before the upgrade.\n", model.RateStatedUDPSndbufRising, 0},
	} {
		if got := statedRate(t, c.text, c.key); got != c.want {
			t.Errorf("%s %v, want %v: %q", c.key, got, c.want, c.text)
		}
	}
}
