package artifact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"headroom/model"
)

// parseWhole is what Parse did before it streamed: the segmenter's loop over a Line for
// every line of the text. ParseString must give the same Timeline (stream.go).
func parseWhole(text, name string, opt Options) *model.Timeline {
	text = stripLineGutters(undoubleSpace(unquoteLiteralLines(uncommentDataLines(openDataLiterals(decodeQuotedPrintable(flattenJournalRecords(text))))))) // the text's form, undone before either loop (ParseString)
	d := &doc{opt: opt, tl: &model.Timeline{Source: model.SourceInfo{Kind: model.SourceText, Name: name}}}
	d.ls = SplitLines(text)
	d.used = make([]bool, len(d.ls))
	d.text, d.pos, d.rewind = text, len(text), -1
	d.gutDone = true // stripped above
	d.unwrapAll()
	d.run(0) // d.text is empty: the window is the whole text and never grows
	d.finish()
	d.afterParse(text)
	return d.tl
}

// sameAsWhole fails the test when the streamed parse of text differs from parseWhole's,
// naming the first line of their JSON that differs. It compares them three times: as
// parsed, with windows read 256 lines at a time (windowChunk), so that every text longer
// than a few lines slides its window as a 50 MB paste does, and with blocks cut after a few
// lines (maxBlockLines) as well.
func sameAsWhole(t testing.TB, name, text string) {
	t.Helper()
	sameAsWholeOnce(t, name, text)
	defer func(c, b int) { windowChunk, maxBlockLines = c, b }(windowChunk, maxBlockLines)
	// A text shorter than a variant's sizes parses as it did above: not run again.
	lines := strings.Count(text, "\n")
	windowChunk = 256
	if lines > windowChunk {
		sameAsWholeOnce(t, name+" (windows of 256 lines)", text)
	}
	maxBlockLines = 24
	if lines > maxBlockLines {
		sameAsWholeOnce(t, name+" (windows of 256 lines, blocks of 24)", text)
	}
}

func sameAsWholeOnce(t testing.TB, name, text string) {
	t.Helper()
	got, err := json.MarshalIndent(ParseString(text, name, Options{}), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.MarshalIndent(parseWhole(text, name, Options{}), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(got, want) {
		return
	}
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for k := 0; k < len(g) && k < len(w); k++ {
		if g[k] != w[k] {
			t.Fatalf("%s: streamed parse differs from the whole-text loop at JSON line %d:\n got  %s\n want %s", name, k+1, g[k], w[k])
		}
	}
	t.Fatalf("%s: streamed parse has %d JSON lines, the whole-text loop %d", name, len(g), len(w))
}

// fixtureTexts are the fixtures and seed reports, by file name.
func fixtureTexts(t testing.TB) map[string]string {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	seedPaths, _ := filepath.Glob(filepath.Join("..", "testdata", "seeds", "*.txt"))
	out := map[string]string{}
	for _, p := range append(paths, seedPaths...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = string(b)
	}
	if len(out) < 30 {
		t.Fatalf("found only %d fixtures and seeds", len(out))
	}
	return out
}

const (
	sysPrefix  = "Aug  4 17:42:34 web1 kernel: "
	dmesgStamp = "[ 1234.567890] "
	daemonLine = "Aug  4 17:42:34 web1 sshd[812]: Accepted publickey for root from 10.1.2.3 port 52113 ssh2"
)

// quietLines are ordinary kernel log lines: the fast path's and the windows' ends.
func quietLines(n int) string {
	var b strings.Builder
	for k := range n {
		fmt.Fprintf(&b, "%s%se1000: eth0: NIC Link is Up 1000 Mbps Full Duplex (%d)\n", sysPrefix, dmesgStamp, k)
	}
	return b.String()
}

func prefixed(prefix, text string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		b.WriteString(prefix + l + "\n")
	}
	return b.String()
}

// The cases that each window rule is there for, between long runs of ordinary lines.
func TestStreamWindowCases(t *testing.T) {
	fx := fixtureTexts(t)
	q := quietLines(40)
	cases := map[string]string{
		// A report in a syslog: header, trace and dump, another program's lines between.
		"report": q + prefixed(sysPrefix+dmesgStamp, strings.Join(strings.Split(fx["alloc_4.4_x86_64.txt"], "\n")[:12], "\n")) +
			daemonLine + "\n" + prefixed(sysPrefix+dmesgStamp, fx["alloc_4.4_x86_64.txt"]) + q,
		// ethtool -g takes "name: value" lines, kernel ones too: the block runs into
		// the quiet lines, and fitCommand must grow the window past it.
		"ethtool into kernel lines": q + fx["ethtool_g_eth0.txt"] + q,
		// /proc/vmstat rows with a dmesg prefix, then one without: the parser wants three
		// rows before it takes any, which the window must hold.
		"vmstat rows": q + prefixed("<4>", fx["proc_vmstat.txt"][:400]) + fx["proc_vmstat.txt"] + q,
		// A table labelled by the prose above it, past a blank line and another program's
		// line: label reads back into the lines the fast path took.
		"label": q + daemonLine + "\nvmstat 1 during the flood:\n\n" + fx["vmstat_a.txt"] + q,
		// sysctl blocks read through '#' lines and give them back.
		"sysctl comments": q + fx["sysctl_conf.txt"] + prefixed(sysPrefix, "# not a comment\n# still not\n") + q,
		// rsyslog #012 escapes: one raw line, several Lines.
		"escapes": q + sysPrefix + "swapper/0: page allocation failure: order:1, mode:0x20#012CPU: 0 PID: 0 Comm: swapper/0 Not tainted 4.4.0 #1#012Call Trace:#012 [<ffffffff8113c8a5>] ? warn_alloc_failed+0xf5/0x150\n" + q,
		// Two CPUs' reports interleaved (CONFIG_PRINTK_CALLER): a report skips the other
		// CPU's lines, which are then logged late and the log is sorted.
		"callers": q + "[  100.000001] [   T10] kworker/0:1: page allocation failure: order:0, mode:0x20\n" +
			"[  100.000002] [   T11] java: page allocation failure: order:2, mode:0x20\n" +
			"[  100.000003] [   T10] Call Trace:\n[  100.000004] [   T11] Call Trace:\n" +
			"[  100.000005] [   T10]  __alloc_pages_nodemask+0x2b5/0x360\n[  100.000006] [   T11]  kmalloc_order+0x1a/0x40\n" + q,
		// A show_mem dump on its own, and a boot banner and a tainted line for host facts.
		"dump and banner": q + prefixed(sysPrefix, "Linux version 3.10.0-1160.el7.x86_64 (mockbuild@x86-vm-26)\nCPU: 1 PID: 2 Comm: x Not tainted 3.10.0 #1") +
			q + prefixed(sysPrefix+dmesgStamp, fx["oom_global_3.10.txt"]) + q,
		// A boot banner that is one only once the no-break space is undone.
		"look-alike banner": q + sysPrefix + "Linux\u00a0version 4.19.0-6-amd64 (debian-kernel@lists.debian.org)\n" + q,
		// Other programs' lines are not quiet: a report goes on past them, and a label
		// reads them.
		"report past daemon lines": q + prefixed(sysPrefix, "afpd: page allocation failure. order:2, mode:0x20\n [<c01403a2>] __alloc_pages+0x2d2/0x3f0") +
			strings.Repeat(daemonLine+"\n", 12) + prefixed(sysPrefix, " [<c0143af1>] __get_free_pages+0x21/0x40\n [<c0158a73>] kmem_getpages+0x33/0xa0") + q,
		"label past daemon lines": q + "see below\n" + strings.Repeat(daemonLine+"\n", 12) + "vmstat 1\n" + fx["vmstat_a.txt"] + q,
		// Non-ASCII look-alikes and Markdown quoting on syslog lines.
		"unicode and quotes": q + "> " + sysPrefix + "java: page allocation failure: order:2, mode:0×20\n" + q,
		// Windows that meet: interesting lines fewer than tailLines apart.
		"close windows": strings.Repeat(fx["netstat_i.txt"]+quietLines(3), 5),
		// The text ends inside a window, and with no newline.
		"ends in window": q + fx["top_33.txt"] + "Kernel Interface table",
	}
	for name, text := range cases {
		sameAsWhole(t, name, text)
	}
}

// Every fixture and seed, alone and between kernel log lines.
func TestStreamFixtures(t *testing.T) {
	q := quietLines(20)
	for name, text := range fixtureTexts(t) {
		sameAsWhole(t, name, text)
		sameAsWhole(t, name+" in a log", q+text+q)
		sameAsWhole(t, name+" prefixed", q+prefixed(sysPrefix, text)+q)
	}
}

// Random pastes: runs of lines from the fixtures, each run with a prefix (syslog, dmesg,
// quoting, none), now and then a cut line, a CR or an rsyslog #012.
func TestStreamMixes(t *testing.T) {
	fx := fixtureTexts(t)
	var files [][]string
	names := make([]string, 0, len(fx))
	for name := range fx {
		names = append(names, name)
	}
	sort.Strings(names) // the mixes are the same on every run
	for _, name := range names {
		files = append(files, strings.Split(fx[name], "\n"))
	}
	prefixes := []string{"", sysPrefix, sysPrefix + dmesgStamp, dmesgStamp, "> ", "<4>",
		"Aug  4 17:42:34 web1 sshd[12]: ", "2024-01-02T03:04:05.123456+00:00 web1 kernel: ", "[    1.000000] [    T123] "}
	seed := int64(1)
	if s := os.Getenv("HEADROOM_MIX_SEED"); s != "" {
		fmt.Sscan(s, &seed)
	}
	rng := rand.New(rand.NewSource(seed))
	// HEADROOM_MIX_DUMP=FILE keeps the text of a failing mix, to debug it.
	var last string
	defer func() {
		if dump := os.Getenv("HEADROOM_MIX_DUMP"); dump != "" && t.Failed() {
			os.WriteFile(dump, []byte(last), 0o644)
		}
	}()
	n := 1500
	if testing.Short() {
		n = 200
	}
	for k := range n {
		var b strings.Builder
		for range 1 + rng.Intn(6) {
			ls := files[rng.Intn(len(files))]
			start := rng.Intn(len(ls))
			end := min(start+1+rng.Intn(60), len(ls))
			p := prefixes[rng.Intn(len(prefixes))]
			for _, l := range ls[start:end] {
				if rng.Intn(50) == 0 {
					b.WriteString(prefixes[rng.Intn(len(prefixes))])
				} else {
					b.WriteString(p)
				}
				if rng.Intn(80) == 0 && len(l) > 2 {
					l = l[:rng.Intn(len(l))]
				}
				if rng.Intn(100) == 0 {
					l += "#012" + ls[rng.Intn(len(ls))]
				}
				b.WriteString(l)
				if rng.Intn(40) == 0 {
					b.WriteString("\r")
				}
				b.WriteString("\n")
			}
			if rng.Intn(3) == 0 {
				b.WriteString("\n")
			}
		}
		last = b.String()
		sameAsWhole(t, fmt.Sprintf("mix %d", k), b.String())
	}
}

// The generated syslog parses the same both ways, and the fast path takes nearly all of its
// lines: windows hold the reports and a few lines around each, not the ordinary lines.
func TestStreamSyslogFastPath(t *testing.T) {
	var buf bytes.Buffer
	if err := GenerateSyslog(&buf, 4<<20, 1); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	sameAsWhole(t, "generated syslog", text)
	d := &doc{tl: &model.Timeline{}}
	d.runText(text)
	lines := strings.Count(text, "\n")
	reports := strings.Count(text, "page allocation failure")
	// A report is 26 lines; its window adds up to ctxLines before and the quiet lines
	// after, which another program's lines can push further out.
	if limit := reports * 100; d.windowLines > limit {
		t.Errorf("windows read %d of %d lines for %d reports, want at most %d", d.windowLines, lines, reports, limit)
	}
	if d.windowLines < reports*26 {
		t.Errorf("windows read %d lines for %d reports of 26 lines", d.windowLines, reports)
	}
	t.Logf("%d of %d lines in windows (%d reports)", d.windowLines, lines, reports)
}

// A command block that takes kernel lines one after another (ethtool -g takes every "name:
// number" line) makes fitCommand grow the window again and again: each try must at least
// double it, or the block is parsed once per quiet stretch, quadratic in its length.
func TestStreamLongBlock(t *testing.T) {
	var b strings.Builder
	b.WriteString("Ring parameters for eth0:\nPre-set maximums:\nRX: 4096\n")
	const n = 20000
	for k := range n {
		fmt.Fprintf(&b, "%s%seth%d: %d\n", sysPrefix, dmesgStamp, k%4, k)
	}
	b.WriteString("\n" + quietLines(20))
	text := b.String()
	sameAsWhole(t, "long ethtool block", text)
	d := &doc{tl: &model.Timeline{}}
	d.runText(text)
	if d.fits > 20 {
		t.Errorf("fitCommand ran the parsers %d times over a block of %d lines", d.fits, n)
	}
	if d.windowLines > n+100 {
		t.Errorf("windows read %d lines of %d", d.windowLines, n+25)
	}
}

// FuzzStream: whatever the text, the streamed parse is the whole-text loop's.
func FuzzStream(f *testing.F) {
	addFixtures(f)
	q := quietLines(10)
	f.Add(q + "NIC statistics:\n" + q)
	f.Add(q + "Ring parameters for eth0:\nPre-set maximums:\n" + q)
	f.Fuzz(func(t *testing.T, s string) {
		sameAsWhole(t, "fuzz", s)
		sameAsWhole(t, "fuzz in a log", q+s+"\n"+q)
	})
}

// Parse reads a file once into a buffer of its size and does not copy it again.
func TestParseReadsOnce(t *testing.T) {
	var buf bytes.Buffer
	if err := GenerateSyslog(&buf, 1<<20, 1); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "syslog")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err := readAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, buf.Bytes()) || cap(data) != buf.Len()+1 {
		t.Errorf("read %d bytes into a buffer of %d for a file of %d", len(data), cap(data), buf.Len())
	}
	// A reader of unknown size is read whole too.
	data, err = readAll(io.MultiReader(bytes.NewReader(buf.Bytes())))
	if err != nil || !bytes.Equal(data, buf.Bytes()) {
		t.Errorf("unsized reader: %d bytes, %v", len(data), err)
	}
}

// An OOM report whose task table is longer than a window (a row per process: thousands on a
// big host) is read whole, as the whole-text loop reads it: with windows of 256 lines the
// streamed parse cut it at the window's end and read the rest, with the kill line, as a
// report of its own without the header (corpus 852, 853). In journalctl's short form (a
// host on every line) and in dmesg's, alone and between other lines.
func TestStreamLongOOMReport(t *testing.T) {
	defer func(c int) { windowChunk = c }(windowChunk)
	windowChunk = 64
	var b strings.Builder
	b.WriteString("chrome invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=300\n")
	b.WriteString("CPU: 2 PID: 4242 Comm: chrome Tainted: P           OE     6.0.11-arch1-1 #1\n")
	b.WriteString("Mem-Info:\nactive_anon:120 inactive_anon:1869521 isolated_anon:0\n")
	b.WriteString("Tasks state (memory values in pages):\n")
	b.WriteString("[  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name\n")
	for k := range 200 {
		fmt.Fprintf(&b, "[ %6d]  1000 %5d   129432      632   323584     6377             0 worker%d\n", 1000+k, 1000+k, k)
	}
	b.WriteString("oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/user.slice,task=chrome,pid=1199,uid=1000\n")
	b.WriteString("Out of memory: Killed process 1199 (worker199) total-vm:517728kB, anon-rss:2528kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:316kB oom_score_adj:0\n")
	report := b.String()
	forms := map[string]string{
		"journalctl": prefixed("Dec 05 22:20:29 peter-x1c kernel: ", report),
		"dmesg":      prefixed(dmesgStamp, report),
	}
	for name, text := range forms {
		for variant, whole := range map[string]string{"alone": text, "in a log": quietLines(20) + text + quietLines(20),
			"after other lines": strings.Repeat(daemonLine+"\n", 30) + text + "Dec 05 22:20:30 peter-x1c systemd[1]: session-2.scope: Killing process 1199 (worker199) with signal SIGKILL.\n"} {
			t.Run(name+", "+variant, func(t *testing.T) {
				sameAsWholeOnce(t, "text", whole)
				var ooms []model.Event
				for _, ev := range ParseString(whole, "text", Options{}).Events {
					if ev.Kind == model.EventOOMKill {
						ooms = append(ooms, ev)
					}
				}
				if len(ooms) != 1 || ooms[0].OOMKill == nil || ooms[0].OOMKill.KilledPID != 1199 {
					t.Errorf("want one OOM kill of pid 1199, got %d: %+v", len(ooms), ooms)
				}
			})
		}
	}

	// Reports pasted over and over, without a line between that ends one: each header ends
	// the report before it, so the window still holds about a report, not the text.
	text := strings.Repeat(prefixed(dmesgStamp, report), 40)
	sameAsWholeOnce(t, "40 reports", text)
	d := &doc{tl: &model.Timeline{}}
	d.runText(text)
	if limit := 2*208 + 4*windowChunk; d.peakWindow > limit {
		t.Errorf("40 reports of 208 lines: a window held %d Lines, want at most %d", d.peakWindow, limit)
	}
	t.Logf("40 reports of 208 lines: at most %d Lines in a window", d.peakWindow)
}

// cannotStartDump rules out only lines that none of the four tests it stands in front of
// takes: every line of the fixtures and seed reports, of a generated syslog, and each of
// them with a byte of a dump's or a table's start put first or last, or blanks around.
func TestCannotStartDump(t *testing.T) {
	var buf bytes.Buffer
	if err := GenerateSyslog(&buf, 1<<20, 3); err != nil {
		t.Fatal(err)
	}
	texts := fixtureTexts(t)
	// Dump lines that start with none of dumpStarts' bytes and end with ':'.
	texts["generated"] = buf.String() + "lowmem_reserve[]:\nDMA32 per-cpu:\ncpu 0 hot:\n  lowmem_reserve[]:\n"
	r := rand.New(rand.NewSource(4))
	edits := []string{"(", "1", "A", "a", "D", "F", "H", "M", "N", "S", "T", "[", "m", "U", ":", " ", "\t", "\v", "\u00a0", "é", "x",
		// dumpSeconds' pairs, and a lone buddy token after '(' (no blank in the line)
		"Ac", "ac", "DM", "De", "Fr", "Hi", "Mo", "Me", "No", "Sw", "Ta", "To", "me", "Un", "(UEM)", "Act", "act"}
	checked, skipped := 0, 0
	for name, text := range texts {
		for _, raw := range strings.Split(text, "\n") {
			l, _, _ := parseLine(1, raw)
			for k := 0; k < 4; k++ {
				s := l.Text
				switch k {
				case 1:
					s = edits[r.Intn(len(edits))] + s
				case 2:
					s += edits[r.Intn(len(edits))]
				case 3:
					s = "  " + s + edits[r.Intn(len(edits))]
				}
				if !cannotStartDump(s) {
					continue
				}
				checked++
				if startsShowMem(s) || mayStartOOMTaskTable(s) || startsMemcgOOMInfo(s) || startsOOMSlabInfo(s) {
					t.Fatalf("%s: cannotStartDump(%q), but a dump or table starts there", name, s)
				}
			}
			skipped++
		}
	}
	if checked < 10000 {
		t.Errorf("only %d lines ruled out (of %d)", checked, skipped)
	}
}
