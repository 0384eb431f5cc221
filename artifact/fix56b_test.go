package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// systemd-oomd's debug "oomd attempting to kill PID with SIG" lines (systemd's TEST-55-OOMD
// journals) are its kill; with its kill line too it stays one kill; journalctl's
// short-monotonic without a host is read as oomd's lines, not kernel records.
func TestFix56bOomdAttempts(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"Jan 09 14:32:25 H systemd-oomd[70]: oomd attempting to kill 113 with KILL\n" +
			"Jan 09 14:32:25 H systemd-oomd[70]: oomd attempting to kill 118 with KILL\n", 1},
		{"[   77.749597] systemd-oomd[659]: oomd attempting to kill 407 with KILL\n" +
			"[   77.749670] systemd-oomd[659]: Marked /system.slice/systemd-journald.service for killing due to memory pressure for /system.slice being 85.03% > 80.00% for > 2s with reclaim activity\n" +
			"[   77.752252] systemd[1]: systemd-journald.service: systemd-oomd killed 1 process(es) in this unit.\n", 1},
		// counter-cases: the words in prose, another program's tag, oomd's trigger alone
		{"I saw oomd attempting to kill 113 with KILL yesterday\n", 0},
		{"Jan 09 14:32:25 H myapp[70]: oomd attempting to kill 113 with KILL\n", 0},
		{"Jan 09 14:32:25 H systemd-oomd[70]: Memory pressure for /user.slice is 74.23% > 20.00% for > 2s with reclaim activity\n", 0},
	} {
		if got := len(lowMemKills(ParseString(c.text, "p", Options{}))); got != c.want {
			t.Errorf("%q: %d low-memory kills, want %d", c.text, got, c.want)
		}
	}
	// The trigger's pressure is oomd's PSI value; a dmesg systemd line stays the kernel's.
	if v := statedRate(t, "Jan 09 14:32:25 H systemd-oomd[70]: Memory pressure for /user.slice is 74.23% > 20.00% for > 2s with reclaim activity\n", model.RateDaemonMemPSIPct); v != 74.23 {
		t.Errorf("oomd trigger PSI %v, want 74.23", v)
	}
	l, _, _ := parseLine(1, "[    3.123456] systemd[1]: Detected virtualization kvm.")
	if !l.Kernel || l.Tag != "" {
		t.Errorf("dmesg's systemd line: kernel %v tag %q, want a kernel record", l.Kernel, l.Tag)
	}
}

// cgroup v2 memory files listed with their values (grep's "file:value", a post's table):
// "max" is no limit, oom_kill 0 no kill; a sentence naming memory.peak is not read.
func TestFix56bCgroupFileValues(t *testing.T) {
	tl := ParseString("/sys/fs/cgroup/memory.max     max\n/sys/fs/cgroup/memory.current ~2.04 GB\n"+
		"/sys/fs/cgroup/memory.peak    8.31 GB\n/sys/fs/cgroup/memory.events  oom_kill 0\n", "p", Options{})
	var files, events int
	for _, c := range tl.CgroupMemory {
		if c.Files != nil {
			files++
			if v, _ := c.Files.Get("memory.peak"); v < 8<<30 || v > 9<<30 {
				t.Errorf("memory.peak %d", v)
			}
			if c.Files.Has("memory.max") {
				t.Errorf("memory.max 'max' kept as a value")
			}
		}
		if c.Events != nil {
			events++
			if v, ok := c.Events.Get("oom_kill"); !ok || v != 0 {
				t.Errorf("oom_kill %d %v", v, ok)
			}
		}
	}
	if files != 1 || events != 1 || len(tl.RuntimeOOMs) != 0 {
		t.Errorf("files %d events %d kills %d, want 1 1 0", files, events, len(tl.RuntimeOOMs))
	}
	grep := ParseString("/sys/fs/cgroup/pod/memory.events:low 0\n/sys/fs/cgroup/pod/memory.events:oom_kill 3\n/sys/fs/cgroup/pod/memory.max:1073741824\n", "p", Options{})
	if len(grep.CgroupMemory) != 2 {
		t.Errorf("grep form: %d cgroup entries, want 2", len(grep.CgroupMemory))
	}
	for _, s := range []string{"memory.peak 8.31 GB shows the agent used well past 2 GB\n", "memory.events oom_kill was zero\n"} {
		if tl := ParseString(s, "p", Options{}); len(tl.CgroupMemory) != 0 {
			t.Errorf("%q read as a cgroup file", s)
		}
	}
}

// OpenVZ's container kill line broken after "OOM " (a KB page's width) is one record; an
// open kernel line followed by prose is not joined.
func TestFix56bUBKillOpenLine(t *testing.T) {
	text := "Nov 24 12:17:04 hwnode kernel: [758955.653217] OOM killer in rage, 16 tasks killed in ub 1234 and more words\n" +
		"Nov 24 12:17:04 hwnode kernel: [758955.653313] Out of memory in UB 1234: OOM \n" +
		"killed process 21738 (php-cgi) score 0 vm:281988kB, rss:17004kB, swap:0kB\n"
	tl := ParseString(text, "p", Options{})
	n := 0
	for _, e := range tl.Events {
		if e.OOMKill != nil {
			n++
			if e.OOMKill.KilledComm != "php-cgi" || !strings.HasPrefix(e.OOMKill.Memcg, "UB ") {
				t.Errorf("kill %+v", e.OOMKill)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d OOM kills, want 1", n)
	}
	if openKillLine("Out of memory in UB 1234: OOM ", "the container was restarted") ||
		openKillLine("eth0: link up ", "killed process 1 (x)") {
		t.Error("an open line joined to what does not complete a kill line")
	}
}

// "I'd be grateful to be OOM killed" is a wish, not a kill (reHypothetical).
func TestFix56bWouldContracted(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"I'd expect a build in 224M RAM plus 2G of swap to take so long, that I'd be very grateful to be OOM killed.\n", 0},
		{"We'd rather be OOM killed than swap for an hour.\n", 0},
		// counter-case: a kill told
		{"mysqld got OOM killed last night.\n", 1},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.want {
			t.Errorf("%q: stated kill %v, want %v", c.text, got, c.want)
		}
	}
}
