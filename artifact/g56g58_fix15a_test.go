package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// g56–g58 fixed by class (fix15a): a program's own out-of-memory, a kill line quoted as an
// example or inline, the memory cgroup's counters, and three log-line forms. Each snippet is
// written for its class, none copied from a case.

func statedOOM(tl *model.Timeline) bool {
	return tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateStatedOOM] > 0 }) != nil
}

func f15Kills(tl *model.Timeline) []*model.OOMKill {
	var out []*model.OOMKill
	for _, e := range tl.Events {
		if e.Kind == model.EventOOMKill && e.OOMKill != nil {
			out = append(out, e.OOMKill)
		}
	}
	return out
}

func f15Unread(tl *model.Timeline, word string) bool {
	for _, u := range tl.Unparsed {
		if strings.Contains(u.Why, word) {
			return true
		}
	}
	return false
}

// The Go runtime's own failure under a program's syslog tag is named as unread (not
// "nothing is evidence"), and no OOM is stated or reported.
func TestFix15aGoRuntimeOOMUnread(t *testing.T) {
	text := "Mar 02 10:00:01 pi wallet[771]: starting the index\n" +
		"Mar 02 10:00:02 pi wallet[771]: runtime: out of memory: cannot allocate 67108864-byte block (1048576000 in use)\n" +
		"Mar 02 10:00:02 pi wallet[771]: fatal error: out of memory\n"
	tl := ParseString(text, "t", Options{})
	if !f15Unread(tl, "Go runtime") || statedOOM(tl) || len(f15Kills(tl)) != 0 {
		t.Fatalf("unparsed %+v stated %v kills %d: want the Go runtime's lines unread, no OOM", tl.Unparsed, statedOOM(tl), len(f15Kills(tl)))
	}
	checkAccount(t, tl)
	// Counter: the kernel's kill line in the same syslog is a kill.
	tl = ParseString(text+"Mar 02 10:00:03 pi kernel: Out of memory: Killed process 771 (wallet) total-vm:2048000kB, anon-rss:1024000kB, file-rss:0kB, shmem-rss:0kB\n", "t", Options{})
	if ks := f15Kills(tl); len(ks) != 1 || ks[0].KilledComm != "wallet" {
		t.Fatalf("kills %+v, want the kernel's kill of wallet", ks)
	}
}

// The OCaml runtime's message quoted in a sentence: unread, no stated OOM; a sentence that
// says the host ran out (no program's message) still states it.
func TestFix15aOCamlFatalOutOfMemory(t *testing.T) {
	tl := ParseString("Our streamer exits every few days with `Fatal error: out of memory.` and restarts.\n", "t", Options{})
	if !f15Unread(tl, "OCaml") || statedOOM(tl) {
		t.Fatalf("unparsed %+v stated %v: want the OCaml message unread, no stated OOM", tl.Unparsed, statedOOM(tl))
	}
	tl = ParseString("The server crashed with Fatal error: out of memory, twice this week.\n", "t", Options{})
	if statedOOM(tl) {
		t.Fatalf("a runtime's own message read as the host's OOM")
	}
	tl = ParseString("The server crashed out of memory twice this week.\n", "t", Options{})
	if !statedOOM(tl) {
		t.Fatalf("counter: the author's 'crashed out of memory' no longer stated")
	}
}

// Dovecot's allocator message in a title: no stated OOM, the line unread; a title that
// names an out-of-memory of the host's still states it; "block_alloc(" alone is nothing.
func TestFix15aDovecotBlockAllocTitle(t *testing.T) {
	body := "\nSince the upgrade the client disconnects every time it syncs the big folder.\n"
	tl := ParseString("# imap(user@example.org)<4711><>: Fatal: block_alloc(134217728): Out of memory\n"+body, "t", Options{})
	if statedOOM(tl) || !f15Unread(tl, "vsz_limit") {
		t.Fatalf("stated %v unparsed %+v: want no stated OOM, the Dovecot line unread", statedOOM(tl), tl.Unparsed)
	}
	tl = ParseString("Fatal: master: service(imap): child 4711 returned error 83 (Out of memory (service imap { vsz_limit=256 MB }, you may need to increase it))\n", "t", Options{})
	if !f15Unread(tl, "vsz_limit") || statedOOM(tl) {
		t.Fatalf("unparsed %+v: want the master's vsz_limit line unread", tl.Unparsed)
	}
	tl = ParseString("# Out of memory on the mail server\n"+body, "t", Options{})
	if !statedOOM(tl) {
		t.Fatalf("counter: a title naming the host's out-of-memory no longer stated")
	}
	if _, ok := appOOMLine("we call block_alloc(4096) in a loop, see the out of memory handling"); ok {
		t.Fatalf("block_alloc( without its message read as Dovecot's")
	}
}

// A kill line introduced as an example is no kill of this host's; one pasted after a lead-in
// that says the log shows it is.
func TestFix15aExampleKillLine(t *testing.T) {
	kill := "Killed process 2210 (indexer) total-vm:1900000kB, anon-rss:900000kB, file-rss:0kB"
	for _, text := range []string{
		"Check the kernel log for something like " + kill + " from the night it stopped.\n",
		"In the journal it would look like " + kill + ", nothing else.\n",
		"A kill is logged e.g. as " + kill + " in dmesg.\n",
	} {
		tl := ParseString(text, "t", Options{})
		if statedOOM(tl) || len(f15Kills(tl)) != 0 {
			t.Errorf("%q: stated %v kills %d, want an example, no kill", text, statedOOM(tl), len(f15Kills(tl)))
		}
	}
	tl := ParseString("Here is what dmesg shows: `"+kill+"`\n", "t", Options{})
	if ks := f15Kills(tl); len(ks) != 1 || ks[0].KilledComm != "indexer" || ks[0].KilledPID != 2210 {
		t.Fatalf("kills %+v, want the pasted kill of indexer", ks)
	}
}

// A kill line quoted in one inline code span after a lead-in ending in ':' is the kernel's
// line; after an example's lead-in, or with more prose after it, it is not.
func TestFix15aInlineKillLine(t *testing.T) {
	tl := ParseString("The daemon got killed with message: `[ 812.5] Killed process 77 (syncd) total-vm:2000000kB, anon-rss:1500000kB, file-rss:0kB, shmem-rss:0kB`\n", "t", Options{})
	if ks := f15Kills(tl); len(ks) != 1 || ks[0].KilledComm != "syncd" || ks[0].KilledPID != 77 {
		t.Fatalf("kills %+v, want syncd's kill", ks)
	}
	for _, text := range []string{
		"It would look like: `Killed process 77 (syncd) total-vm:2000000kB, anon-rss:1500000kB, file-rss:0kB`\n",
		"For example: `Killed process 77 (syncd) total-vm:2000000kB, anon-rss:1500000kB, file-rss:0kB`\n",
	} {
		if ks := f15Kills(tl2(text)); len(ks) != 0 {
			t.Errorf("%q: kills %+v, want none", text, ks)
		}
	}
	if _, ok := inlineKillLine("Message: `Killed process 77 (syncd) total-vm:2000kB, anon-rss:1000kB` and then it came back"); ok {
		t.Errorf("a span with prose after it read as the line")
	}
}

func tl2(text string) *model.Timeline { return ParseString(text, "t", Options{}) }

// The memory cgroup's page counters in a report cut before its constraint line make it a
// memory cgroup's OOM (dump_header prints them only then); cgroup v2's "swap:" counter stays
// in the report.
func TestFix15aMemcgCountersMakeMemcgOOM(t *testing.T) {
	head := "[ 90.1] worker invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0\n"
	tl := tl2(head + "[ 90.1] memory: usage 2097152kB, limit 2097152kB, failcnt 311\n[ 90.1] swap: usage 0kB, limit 1048576kB, failcnt 0\n" +
		"[ 90.1] Tasks state (memory values in pages):\n")
	ks := f15Kills(tl)
	if len(ks) != 1 || ks[0].Constraint != "CONSTRAINT_MEMCG" {
		t.Fatalf("kills %+v, want one memory cgroup OOM", ks)
	}
	if len(ks[0].MemcgCounters) != 2 {
		t.Fatalf("counters %+v, want memory and swap", ks[0].MemcgCounters)
	}
	// Counter: a header with show_mem's lines, no memcg counter, is the host's.
	tl = tl2(head + "[ 90.1] Mem-Info:\n[ 90.1] active_anon:1000 inactive_anon:20 isolated_anon:0\n")
	if ks := f15Kills(tl); len(ks) != 1 || ks[0].Constraint != "CONSTRAINT_NONE" {
		t.Fatalf("kills %+v, want one global OOM", ks)
	}
}

// A syslog line whose date the paste cut ("HH:MM:SS host kernel: ") is the kernel's; uptime's
// and sar's lines that start with a time are not.
func TestFix15aTimeOnlySyslogStamp(t *testing.T) {
	var l Line
	parseLineInto(&l, 1, "07:00:31 nas kernel: memory: usage 6291456kB, limit 6291456kB, failcnt 12", rawFacts{})
	if !l.Kernel || l.Text != "memory: usage 6291456kB, limit 6291456kB, failcnt 12" {
		t.Fatalf("line %+v, want a kernel line", l)
	}
	for _, s := range []string{"07:00:31 up 3 days,  2:03,  1 user,  load average: 0.10, 0.20, 0.30", "07:00:31 AM     all      1.00      0.00"} {
		var l Line
		parseLineInto(&l, 1, s, rawFacts{})
		if l.Kernel || l.Syslog {
			t.Errorf("%q read as a syslog line %+v", s, l)
		}
	}
}

// "kern.warn: [stamp] ..." (facility.level only) is the kernel's line; "kern.warn: text"
// without a stamp is not taken for one.
func TestFix15aFacilityLevelPrefix(t *testing.T) {
	var l Line
	parseLineInto(&l, 1, "kern.warn: [ 346.044071] dnsd invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0", rawFacts{})
	if !l.Kernel || !strings.HasPrefix(l.Text, "dnsd invoked") {
		t.Fatalf("line %+v, want the kernel's line", l)
	}
	if _, ok := stripFacilityLevel("kern.warn: please set the level"); ok {
		t.Fatalf("a prefix without a stamp stripped")
	}
	if _, ok := stripFacilityLevel("kern.ipc.somaxconn: [ 1.0] x"); ok {
		t.Fatalf("a sysctl name taken for a level")
	}
}

// 6.11+'s task line prints the UID: it is read.
func TestFix15aTaskLineUID(t *testing.T) {
	var x reportExtras
	x.addTask("CPU: 2 UID: 853 PID: 4100 Comm: dnsd Tainted: G           O       6.12.9 #0")
	if x.Task == nil || x.Task.UID == nil || *x.Task.UID != 853 || x.Task.PID != 4100 || x.Task.Comm != "dnsd" {
		t.Fatalf("task %+v, want uid 853 pid 4100 dnsd", x.Task)
	}
	x = reportExtras{}
	x.addTask("CPU: 2 PID: 4100 Comm: dnsd Not tainted 5.10.1 #1")
	if x.Task == nil || x.Task.UID != nil || x.Task.PID != 4100 {
		t.Fatalf("task %+v, want pid 4100 without a uid", x.Task)
	}
}

// systemd's unit line that the kernel's OOM killer killed a process of the unit is a kill
// (scope not said); systemd's other lines are not.
func TestFix15aSystemdUnitOOM(t *testing.T) {
	text := "Oct 06 17:55:43 core systemd[1]: indexd.service: A process of this unit has been killed by the OOM killer.\n" +
		"Oct 06 17:55:44 core systemd[1]: indexd.service: Main process exited, code=killed, status=9/KILL\n"
	tl := tl2(text)
	if len(tl.RuntimeOOMs) != 1 || !strings.Contains(tl.RuntimeOOMs[0].Reporter, "indexd.service") || tl.RuntimeOOMs[0].Scope != "" {
		t.Fatalf("runtime OOMs %+v, want one from systemd for indexd.service", tl.RuntimeOOMs)
	}
	tl = tl2("Oct 06 17:55:44 core systemd[1]: indexd.service: Main process exited, code=killed, status=9/KILL\n")
	if len(tl.RuntimeOOMs) != 0 {
		t.Fatalf("runtime OOMs %+v, want none", tl.RuntimeOOMs)
	}
}
