package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix52a: snippets written from the programs' format strings (uWSGI core/master_checks.c,
// 2.4's __alloc_pages printk, mm/memcontrol.c mem_cgroup_print_oom_meminfo, V8
// src/heap/gc-tracer.cc); none copied whole from a case.

func readInPart(tl *model.Timeline, no int, word string) bool {
	for _, u := range tl.ReadInPart {
		if u.FirstLine <= no && no <= u.LastLine && strings.Contains(u.Why, word) {
			return true
		}
	}
	return false
}

func listedUnread(tl *model.Timeline, no int) bool {
	left := tl.Unparsed
	if len(tl.ReadInPart) > 0 {
		left = tl.UnparsedLeft
	}
	for _, u := range left {
		if u.FirstLine <= no && no <= u.LastLine {
			return true
		}
	}
	return false
}

// A line a reader took evidence from is read, even when a reader also named it unread: what
// could not be read in it becomes a remark (ReadInPart), and the line account agrees.
func TestFix52aCitedUnreadLineIsRead(t *testing.T) {
	for _, c := range []struct {
		text, word string
		no, read   int
	}{
		// uWSGI's own line: read as the program's listen-queue record, its meaning the remark.
		{"The server stops accepting connections.\nLog: pi uwsgi[1878]: Mon Aug 13 19:05:49 2018 - *** uWSGI listen queue of socket \"127.0.0.1:43429\" (fd: 3) full !!! (101/100) ***\n", "accept queue", 2, 1},
		// two 2.4 allocation-failure headers flattened on one line, the second cut: the
		// first is read, the second named in the remark.
		{"Look for this in /var/log/messages:\nOct 05 10:21:43 www kernel: __alloc_pages: 0-order allocation failed (gfp=0x1d2/0) Oct 05 10:21:44 www kernel: __alloc_pages: 0-order allocation failed (gfp=0x1f0\n", "allocation failure header", 2, 1},
	} {
		tl := ParseString(c.text, "t", Options{})
		checkAccount(t, tl)
		if listedUnread(tl, c.no) || !readInPart(tl, c.no, c.word) {
			t.Errorf("%q: line %d unread %+v, remarks %+v: want it read with a remark naming %q", c.text, c.no, tl.Unparsed, tl.ReadInPart, c.word)
		}
		if tl.Lines.Read < c.read || tl.Lines.Unparsed != 0 {
			t.Errorf("%q: lines %+v, want %d read and none unread", c.text, *tl.Lines, c.read)
		}
	}
	// Counter-cases: lines named unread that no reader took anything from stay unread, with
	// no remark: V8's GC trace, Node's heap limit.
	for _, s := range []string{
		"[30813:0x3f29ab0]    61422 ms: Mark-sweep 2016.0 (2051.1) -> 2015.1 (2051.1) MB, 1890.1 / 0.1 ms  (average mu = 0.188, current mu = 0.099) allocation failure scavenge might not succeed\n",
		"FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n",
	} {
		tl := ParseString(s, "t", Options{})
		checkAccount(t, tl)
		if !listedUnread(tl, 1) || len(tl.ReadInPart) != 0 || tl.Lines.Read != 0 {
			t.Errorf("%q: unread %+v remarks %+v lines %+v: want it unread, no remark", s, tl.Unparsed, tl.ReadInPart, *tl.Lines)
		}
	}
}

// readCitedUnread splits an entry: only the cited lines become remarks, the rest stay unread.
func TestFix52aSplitKeepsTheRestUnread(t *testing.T) {
	d := &doc{tl: &model.Timeline{Unparsed: []model.Unparsed{{FirstLine: 3, LastLine: 9, Why: "w"}, {FirstLine: 12, LastLine: 12, Why: "v"}}}}
	d.recCited = map[int]bool{5: true, 6: true, 9: true}
	moved := d.readCitedUnread()
	want := []model.Unparsed{{FirstLine: 3, LastLine: 4, Why: "w"}, {FirstLine: 7, LastLine: 8, Why: "w"}, {FirstLine: 12, LastLine: 12, Why: "v"}}
	if len(d.tl.UnparsedLeft) != len(want) || len(d.tl.Unparsed) != 2 {
		t.Fatalf("unread %+v (all %+v), want %+v", d.tl.UnparsedLeft, d.tl.Unparsed, want)
	}
	for k := range want {
		if d.tl.UnparsedLeft[k] != want[k] {
			t.Errorf("unread %+v, want %+v", d.tl.UnparsedLeft, want)
		}
	}
	if len(d.tl.ReadInPart) != 2 || d.tl.ReadInPart[0] != (model.Unparsed{FirstLine: 5, LastLine: 6, Why: "w"}) || d.tl.ReadInPart[1] != (model.Unparsed{FirstLine: 9, LastLine: 9, Why: "w"}) {
		t.Errorf("remarks %+v", d.tl.ReadInPart)
	}
	if len(moved) != 3 || !moved[5] || !moved[6] || !moved[9] {
		t.Errorf("moved %v", moved)
	}
}

// The kernel release read from a prose line is a host fact: its line is read.
func TestFix52aKernelReleaseLineRead(t *testing.T) {
	const text = "Check /var/log/messages.\nThis is on kernel 2.4.23.\nOct 05 10:21:43 www kernel: __alloc_pages: 0-order allocation failed (gfp=0x1d2/0)\n"
	tl := ParseString(text, "t", Options{})
	checkAccount(t, tl)
	if tl.Host.Kernel != "2.4.23" || tl.Host.KernelLine != 2 {
		t.Fatalf("kernel %q at line %d, want 2.4.23 at line 2", tl.Host.Kernel, tl.Host.KernelLine)
	}
	if tl.Lines.Read != 2 || tl.Lines.Prose != 1 {
		t.Errorf("lines %+v: want the release's line and the log line read, one prose", *tl.Lines)
	}
	// Counter-cases: a release given with --kernel is no line of the text; prose without a
	// release keeps its line prose.
	tl = ParseString(text, "t", Options{Kernel: "2.6.32"})
	if tl.Host.KernelLine != 0 || tl.Lines.Read != 1 || tl.Lines.Prose != 2 {
		t.Errorf("--kernel: kernel line %d, lines %+v: want 0, one read, two prose", tl.Host.KernelLine, *tl.Lines)
	}
	tl = ParseString("Check /var/log/messages.\nIf you see this:\nOct 05 10:21:43 www kernel: __alloc_pages: 0-order allocation failed (gfp=0x1d2/0)\n", "t", Options{})
	if tl.Host.KernelLine != 0 || tl.Lines.Read != 1 || tl.Lines.Prose != 2 {
		t.Errorf("no release: kernel line %d, lines %+v", tl.Host.KernelLine, *tl.Lines)
	}
}

// cgroup v2's memory.stat in a memcg OOM report, its first key on a line of its own with the
// timestamp: read into the report's stats and the cgroup's, in every paste form.
func TestFix52aMemcgV2StatsInOOMReport(t *testing.T) {
	const kill = "[44517.301500] Memory cgroup out of memory: Killed process 4242 (node) total-vm:1048576kB, anon-rss:120000kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:400kB oom_score_adj:999\n"
	for _, c := range []struct{ name, text string }{
		{"dmesg, continuation lines", "[529207.647707] Memory cgroup stats for /system.slice/a.service:\n[529207.647720] anon 255795200\n                file 12288\n                sock 8192\n                workingset_refault_file 173425\n                pgscan 1832188\n" + kill},
		{"dmesg, each line stamped", "[44517.301478] Memory cgroup stats for /system.slice/a.service:\n[44517.301490] anon 255795200\n[44517.301490] file 12288\n[44517.301490] sock 8192\n[44517.301490] workingset_refault_file 173425\n[44517.301490] pgscan 1832188\n" + kill},
		{"syslog", "Apr 28 09:20:24 srv kernel: Memory cgroup stats for /system.slice/a.service:\nApr 28 09:20:24 srv kernel: anon 255795200\nApr 28 09:20:24 srv kernel: file 12288\nApr 28 09:20:24 srv kernel: sock 8192\nApr 28 09:20:24 srv kernel: workingset_refault_file 173425\nApr 28 09:20:24 srv kernel: pgscan 1832188\nApr 28 09:20:24 srv kernel: Tasks state (memory values in pages):\n"},
		{"first key joined to the header", "[529207.647707] Memory cgroup stats for /system.slice/a.service: anon 255795200\n[529207.647720] file 12288\n[529207.647720] sock 8192\n[529207.647720] workingset_refault_file 173425\n[529207.647720] pgscan 1832188\n"},
	} {
		tl := ParseString(c.text, "t", Options{})
		checkAccount(t, tl)
		var o *oomArtifact
		for _, a := range tl.Artifacts {
			if a.Kind == KindOOMKill {
				o, _ = a.Data.(*oomArtifact)
				break
			}
		}
		if o == nil {
			t.Fatalf("%s: no OOM report read: %+v", c.name, tl.Artifacts)
		}
		get(t, o.MemcgStats, "anon", 255795200)
		get(t, o.MemcgStats, "file", 12288)
		get(t, o.MemcgStats, "pgscan", 1832188)
		if len(tl.CgroupMemory) != 1 || tl.CgroupMemory[0].Path != "/system.slice/a.service" || tl.CgroupMemory[0].Version != 2 {
			t.Fatalf("%s: cgroups %+v, want the OOM'ing cgroup's memory.stat", c.name, tl.CgroupMemory)
		}
		if v, _ := tl.CgroupMemory[0].Stat.Get("anon"); v != 255795200 {
			t.Errorf("%s: cgroup's anon %d", c.name, v)
		}
		for _, r := range tl.Log.Records() {
			if strings.Contains(r.Message, "anon 255795200") {
				t.Errorf("%s: the first key left as a bare log record: %+v", c.name, r)
			}
		}
	}
	// v1's one-line stats keep their _kb keys; the report ends at the first line after the
	// stats that is no memory.stat line.
	tl := ParseString("[ 1234.567890] Memory cgroup stats for /docker/4f2a: cache:28030012KB rss:3958288KB rss_huge:0KB\n", "t", Options{})
	if o := one(t, tl, KindOOMKill).(*oomArtifact); o.MemcgStats == nil {
		t.Fatal("v1 stats not read")
	} else {
		get(t, o.MemcgStats, "rss_kb", 3958288)
		if _, ok := o.MemcgStats.Get("rss"); ok {
			t.Errorf("v1 stats read as v2's: %+v", o.MemcgStats)
		}
	}
	// Counter-cases: "name value" lines that are not memory.stat's stop the stats (a prose
	// word and a number); a memory.stat pasted without a report stays the pasted file.
	tl = ParseString("[10.000001] Memory cgroup stats for /a:\n[10.000002] anon 4096\n[10.000003] retried 3\n", "t", Options{})
	if o := one(t, tl, KindOOMKill).(*oomArtifact); o.MemcgStats == nil || len(o.MemcgStats.Names()) != 1 {
		t.Errorf("stats %+v: want anon only", o.MemcgStats)
	}
	tl = ParseString("$ cat /sys/fs/cgroup/a/memory.stat\nanon 4096\nfile 8192\nkernel_stack 16384\nsock 0\n", "t", Options{})
	oom := false
	for _, a := range tl.Artifacts {
		oom = oom || a.Kind == KindOOMKill
	}
	if len(tl.CgroupMemory) != 1 || oom {
		t.Errorf("pasted memory.stat: cgroups %+v", tl.CgroupMemory)
	}
	for _, s := range []string{"retried 3", "anonymous 12", "Anon 4096", "errors 12"} {
		if _, _, ok := memcgV2StatLine(s); ok {
			t.Errorf("%q read as a memory.stat line", s)
		}
	}
}

// V8's GC trace lines are named unread in their newer and wrapped forms too; sentences and
// other programs' timings are not.
func TestFix52aV8GCTraceNamed(t *testing.T) {
	for _, s := range []string{
		"[1:0x36ebd0e0] 113143785 ms: Scavenge (reduce) 2047.0 (2050.4) -> 2047.0 MB",
		"[1:0x36ebd0e0] 113143822 ms: Mark-Compact (reduce) 2048.0 -> 2047.9 MB",
		"  Scavenge 1004.6 (1041.8) -> 1002.3 (1042.1) MB, 92.17 ms",
		"[18954:0x1a1d040]   635442 ms: Mark-sweep 1357.6 (1390.2) -> 1356.1 (1377.9) MB, 93.8 / 0.0 ms  (average mu = 0.951, current mu = 0.170) last resort GC in old space requested",
	} {
		why, ok := runtimeOOMLine(s)
		if !ok || !strings.Contains(why, "gc-tracer.cc") || !strings.Contains(why, "not the host's memory") {
			t.Errorf("%q: %q, want V8's GC trace named", s, why)
		}
		tl := ParseString(s+"\n", "t", Options{})
		if !listedUnread(tl, 1) || len(tl.Events) != 0 || statedOOM(tl) {
			t.Errorf("%q: unread %+v events %d: want named unread, no event", s, tl.Unparsed, len(tl.Events))
		}
	}
	for _, s := range []string{
		"took 12 ms: Mark-Compact is slow here",
		"the Scavenge took 2000 ms and freed 12 MB",
		"Scavenge 3 times -> 12 MB",
		"GC: 12 ms: Minor Mark-Compact 10.1 (12.0) -> 9.0 (12.0) MB",
		"the Mark-sweep 2016.0 (2051.1) -> 2015.1 (2051.1) MB line is what I see",
	} {
		if why, ok := runtimeOOMLine(s); ok {
			t.Errorf("%q named as V8's trace: %s", s, why)
		}
	}
}
