package artifact

import (
	"testing"

	"headroom/model"
)

// The classes held-out batch g10 found (corpus 496-521), each on a minimal snippet of its
// case; every test failed before its change.

// A memory cgroup's one-value files read with cat, the value on the next line (corpus 501:
// a pod's cgroup v1 directory). Before: exit 3, "nothing is evidence".
func TestCgroupMemoryFilesByCat(t *testing.T) {
	text := "sh-4.2$ cat memory.usage_in_bytes\n501346304\nsh-4.2$ cat memory.max_usage_in_bytes\n524292096\n```\n```\nsh-4.2$ cat memory.limit_in_bytes\n524288000\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.CgroupMemory) != 1 || tl.CgroupMemory[0].Files == nil {
		t.Fatalf("cgroups %+v unparsed %+v", tl.CgroupMemory, tl.Unparsed)
	}
	c := tl.CgroupMemory[0]
	for name, want := range map[string]int64{"memory.usage_in_bytes": 501346304, "memory.max_usage_in_bytes": 524292096, "memory.limit_in_bytes": 524288000} {
		if v, ok := c.Files.Get(name); !ok || v != want {
			t.Errorf("%s = %d %v, want %d", name, v, ok, want)
		}
	}
	if c.Version != 1 {
		t.Errorf("version %d, want 1", c.Version)
	}
	// v2's "max" is no limit: nothing recorded to compare.
	tl = ParseString("$ cat /sys/fs/cgroup/app.slice/memory.max\nmax\n", "p", Options{})
	if len(tl.CgroupMemory) != 0 {
		t.Errorf("unlimited memory.max recorded: %+v", tl.CgroupMemory)
	}
}

// The kill line read by its fields when its words are not the kernel's (corpus 505: a page
// run through a browser's translation, "Out of memory: Process stopped 2953 (python)
// total-vm:..."). Before: the report held no victim.
func TestOOMKillLineReworded(t *testing.T) {
	text := `[Tue Feb 20 19:15:36 2024] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task=python,pid= 2953 , liquid=999
[Tue Feb 20 19:15:36 2024] Out of memory: Process stopped 2953 (python) total-vm:8142876kB, anon-rss:6719676kB, file-rss:4kB, shmem-rss:0kB, UID:999 pgtables: 13660kB oom_score_adj:0
`
	tl := ParseString(text, "p", Options{})
	var o *model.OOMKill
	for _, e := range tl.Events {
		if e.OOMKill != nil {
			o = e.OOMKill
		}
	}
	if o == nil {
		t.Fatalf("no OOM event: %+v", tl.Events)
	}
	if o.KilledPID != 2953 || o.KilledComm != "python" || o.TotalVMKB != 8142876 || o.AnonRSSKB != 6719676 {
		t.Errorf("kill %+v", o)
	}
	// oom_reaper's line has no total-vm: it is no kill line.
	if reOOMKilledShape.MatchString("oom_reaper: reaped process 4254 (python3), now anon-rss:0kB, file-rss:0kB") {
		t.Error("oom_reaper line read as a kill")
	}
}

// iperf3 -J output pasted as a fragment of its intervals array (corpus 509). Before: exit 3.
func TestIperf3JSONFragment(t *testing.T) {
	text := "```\n" + `                                        "end":  8.000106,
                                        "bytes":        328990720,
                                        "bits_per_second":      2631880894.5148187,
                                        "retransmits":  173,
                                        "snd_cwnd":     590784,
                                        "rtt":  1127,
                                        "sender":       true
                                }],
                        "sum":  {
                                "start":        7.000089,
                                "end":  8.000106,
                                "bytes":        328990720,
                                "bits_per_second":      2631880894.5148187,
                                "retransmits":  173,
                                "sender":       true
                        }
`
	tl := ParseString(text, "p", Options{})
	as := artifactsOf(tl, KindIperf)
	if len(as) != 1 {
		t.Fatalf("iperf artifacts %+v unparsed %+v", as, tl.Unparsed)
	}
	d := as[0].Data.(IperfData)
	if len(d.Intervals) != 2 {
		t.Fatalf("intervals %+v", d.Intervals)
	}
	s := d.Intervals[0]
	if s.Bytes != 328990720 || s.BitsPerSec != 2631880894.5148187 || s.Retransmits == nil || *s.Retransmits != 173 ||
		s.CwndBytes == nil || *s.CwndBytes != 590784 || s.RTTUsec == nil || *s.RTTUsec != 1127 {
		t.Errorf("stream %+v", s)
	}
	if d.Intervals[1].Stream != "SUM" || d.Intervals[1].Start != 7.000089 {
		t.Errorf("sum %+v", d.Intervals[1])
	}
	// Another program's JSON is not iperf's.
	if as := artifactsOf(ParseString("\"name\": \"x\",\n\"size\": 12,\n", "p", Options{}), KindIperf); len(as) != 0 {
		t.Errorf("read as iperf: %+v", as)
	}
}

// Syslog records run onto one line, each keeping its prefix (corpus 521: a Mem-Info dump
// flattened by a translated page). Before: one prose-like line, the DMA zone unread.
func TestSyslogRecordsJoinedOnOneLine(t *testing.T) {
	text := "Nov 20 12:42:42 wv2-f302 kernel: active_anon:79945387 inactive_anon:3660742 isolated_anon:0 Nov 20 12:42:42 wv2-f302 kernel: free:12513746 slab_reclaimable:5001 slab_unreclaimable:1759785 Nov 20 12:42:42 wv2-f302 kernel: Node 0 DMA free:15728kB min:0kB low:0kB high:0kB active_anon:0kB\n"
	ls := SplitLines(text)
	if len(ls) != 3 || ls[2].Text != "Node 0 DMA free:15728kB min:0kB low:0kB high:0kB active_anon:0kB" || ls[1].No != 1 {
		t.Fatalf("lines %+v", ls)
	}
	// A prefix quoted inside an ordinary line's prose is not a second record.
	if p := splitJoinedSyslog("see the line \"Nov 20 12:42:42 host kernel: foo\" in the kernel: log, twice kernel: here"); p != nil {
		t.Errorf("split %q", p)
	}
}

// A throughput summary a reporter retyped in a fence is unread output, not prose (corpus
// 519, an iperf3 UDP result). Before: the post exited 3. A sentence naming a rate stays prose.
func TestThroughputSummaryRowUnread(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{`   receiver: 102 Mbit/s, 137290 received, 130585 "lost"`, true},
		{`   sender:   200 Mbit/s, 267876 datagrams`, true},
		{`TCP iperf3 collapses to ~3 Mbit/s with cwnd stuck at 1-3 MSS.`, false},
		{`Note: we reach 940 Mbit/s on the 1000 Mbit/s link most days, as expected by everyone here`, false},
	} {
		if _, got := unreadEvidence(tc.line); got != tc.want {
			t.Errorf("unreadEvidence(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

// A memory-cgroup OOM's counters reach the rules (corpus 506: usage at the 1 GiB limit,
// failcnt 189). Before: only the artifact held them.
func TestMemcgOOMCountersReachTheEvent(t *testing.T) {
	text := `Jan  5 02:12:02 host kernel: Task in /kubepods.slice/a.scope killed as a result of limit of /kubepods.slice/a.scope
Jan  5 02:12:02 host kernel: memory: usage 1048576kB, limit 1048576kB, failcnt 189
Jan  5 02:12:02 host kernel: memory+swap: usage 1048576kB, limit 1048576kB, failcnt 0
Jan  5 02:12:02 host kernel: kmem: usage 0kB, limit 9007199254740988kB, failcnt 0
`
	tl := ParseString(text, "p", Options{})
	var o *model.OOMKill
	for _, e := range tl.Events {
		if e.OOMKill != nil {
			o = e.OOMKill
		}
	}
	if o == nil || len(o.MemcgCounters) != 3 {
		t.Fatalf("oom %+v", o)
	}
	if c := o.MemcgCounters[0]; c.Name != "memory" || c.UsageKB != 1048576 || c.LimitKB != 1048576 || c.Failcnt != 189 {
		t.Errorf("memory counter %+v", c)
	}
}

// An allocation-failure header quoted inside a sentence (corpus 539, g12): the comm starts
// after the opening quotation mark and the closing one is no part of the mode. Before: the
// whole sentence was the process and the mode "0x20\"" was unreadable.
func TestAllocHeaderQuotedInASentence(t *testing.T) {
	for _, tc := range []struct{ line, proc, mode string }{
		{`resolves the problem I have with "kworker/u:0: page allocation failure: order:1, mode:0x20" (with 512MB ram free)`, "kworker/u:0", "0x20"},
		{"we see \u201cjava: page allocation failure. order:0, mode:0x20\u201d every night", "java", "0x20"},
		{"swapper/0: page allocation failure: order:0, mode:0x20", "swapper/0", "0x20"},
	} {
		af, ok := parseAllocHeader(tc.line)
		if !ok || af.Process != tc.proc || af.Mode != tc.mode {
			t.Errorf("parseAllocHeader(%q) = %+v", tc.line, af)
		}
	}
}

// A range's upper end is no stated memory size (corpus 521: "加上 10-20 GB RAM 的緩衝區",
// plus 10-20 GB of RAM in buffers, was read as the host's 20 GB).
func TestStatedRAMNotARangeEnd(t *testing.T) {
	tl := ParseString("加上 10-20 GB RAM 的緩衝區。\n", "p", Options{})
	if tl.Host.MemTotalKB != 0 {
		t.Errorf("memory %d kB from a range", tl.Host.MemTotalKB)
	}
	tl = ParseString("The server has 256 Gb Ram and 40 cores.\n", "p", Options{})
	if tl.Host.MemTotalKB != 256*1024*1024 {
		t.Errorf("memory %d kB, want 256 GiB", tl.Host.MemTotalKB)
	}
}
