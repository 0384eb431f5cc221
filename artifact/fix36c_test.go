package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix36c: round 31's overlay routers and backup tools (corpus 3051, 3052, 3054, 3119). Lines
// from the cases themselves, and counter-cases that must not be read as the class.
func TestFix36cRelayOwnLine(t *testing.T) {
	for _, c := range []struct {
		line, want string
		oom        bool
	}{
		{"Oct 16 10:45:50.295 [warn] MaxMemInQueues is set to a low value; if your client doesn't work, this may be the reason why.", "MaxMemInQueues", false},
		{"Jan 03 11:02:47.000 [notice] We're low on memory (cell queues total alloc: 1606894976 buffer total alloc: 1942528, tor compress total alloc: 0 (zlib: 0, zstd: 0, lzma: 0), rendezvous cache total alloc: 4903). Killing circuits withover-long queues. (This behavior is controlled by MaxMemInQueues.)", "out-of-memory handler", true},
		{"Jan 03 11:02:47.000 [notice] Removed 1606894976 bytes by killing 1207 circuits; 9818 circuits remain alive. Also killed 0 non-linked directory connections.", "out-of-memory handler", true},
		{"String.c:31 Fatal error: [Out of memory, limit exceeded]", "cjdns's own allocator", true},
		{"BencMessageReader.c:84 Fatal error: [Out of memory, limit exceeded]", "cjdns's own allocator", true},
		{"Fatal error: [Out of memory, malloc() returned NULL]", "malloc", true},
	} {
		why, oom, ok := relayOwnLine(c.line)
		if !ok || !strings.Contains(why, c.want) || oom != c.oom {
			t.Errorf("%q: %q oom=%v ok=%v", c.line, why, oom, ok)
		}
	}
	// counter-cases: the setting named in advice or a torrc line, the words in a list of
	// error kinds, another program's "Fatal error", Tor's words with no figure
	for _, line := range []string{
		"MaxMemInQueues 512 MB",
		"Set MaxMemInQueues to a lower value if your relay runs out of memory.",
		"- Resource operations: out of memory, limit exceeded",
		"PHP Fatal error:  Allowed memory size of 134217728 bytes exhausted",
		"Removed the old circuits by killing tor",
	} {
		if why, _, ok := relayOwnLine(line); ok {
			t.Errorf("%q read as a relay's own line: %s", line, why)
		}
	}
	// The pastes are no longer "nothing headroom reads" (exit 3), and raise no OOM.
	for _, text := range []string{
		"```\nOct 16 10:45:50.294 [notice] Tor 0.4.8.4 running on Darwin.\nOct 16 10:45:50.295 [warn] MaxMemInQueues is set to a low value; if your client doesn't work, this may be the reason why.\nOct 16 10:45:50.296 [notice] Opening Socks listener on 127.0.0.1:0\n```\n",
		"Here are the logs from two of them:\nString.c:31 Fatal error: [Out of memory, limit exceeded]\n",
	} {
		tl := ParseString(text, "p", Options{})
		if len(tl.Unparsed) != 1 {
			t.Errorf("%q: unparsed %+v", text, tl.Unparsed)
		}
		if got := statedRate(t, text, model.RateStatedOOM); got != 0 {
			t.Errorf("%q: stated OOM %v", text, got)
		}
	}
}

// Python's OSError whose strerror text a paste cut: "[Errno 12]" names ENOMEM.
func TestFix36cPythonErrnoNumbered(t *testing.T) {
	for _, line := range []string{
		"OSError: [Errno 12] Cannot allocate m",
		"OSError: [Errno 12]",
		"socket.error: [Errno 105] No buffer",
		"IOError: [Errno 24] Too many open",
	} {
		if _, ok := errnoLogLine(line); !ok {
			t.Errorf("%q: not read as an errno", line)
		}
	}
	// counter-cases: no exception class before it, another text after the number, a
	// number outside the table, a sentence
	for _, line := range []string{
		"I saw [Errno 12] Cannot allocate m in the log",
		"OSError: [Errno 12] Permission denied",
		"OSError: [Errno 2] No such file or directory",
		"the error: [Errno 12] Cannot allocate m",
		"OSError: [Errno 12] Cannot allocate memory in a long sentence that goes on",
	} {
		if why, ok := pythonErrnoNumbered(line); ok {
			t.Errorf("%q read as Python's numbered errno: %s", line, why)
		}
	}
	tl := ParseString("Traceback (most recent call last):\n  File \"/usr/local/bin/duplicity\", line 414, in _attach_fork_exec\n    process.pid = os.fork()\nOSError: [Errno 12] Cannot allocate m\n", "p", Options{})
	if len(tl.Unparsed) != 1 || !strings.Contains(tl.Unparsed[0].Why, "ENOMEM") {
		t.Errorf("unparsed: %+v", tl.Unparsed)
	}
}

// An OOM kill reported as recurring on the writer's machines, "sometimes ... can cause the
// oom-killer to kill Tor", is stated; a manual's possibility is not.
func TestFix36cHabitualOOMKill(t *testing.T) {
	wantStated(t, model.RateStatedOOM, []statedCase{
		{"With the slower computers, sometimes too many attempts to connect to the ORPort can eventually cause Tor to consume more physmem than available and cause the oom-killer to kill Tor.\n", 1},
		{"Occasionally the nightly import can cause the OOM killer to kill postgres.\n", 1},
		// counter-cases: no frequency word, a generic victim, a condition, a question
		{"A flood of connections can eventually cause the oom-killer to kill Tor.\n", 0},
		{"Sometimes a leak can eventually cause the oom-killer to kill a process.\n", 0},
		{"Sometimes, if the load is high, it can cause the oom-killer to kill Tor.\n", 0},
		{"Can a flood sometimes cause the oom-killer to kill Tor?\n", 0},
	})
}
