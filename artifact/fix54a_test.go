package artifact

import (
	"strings"
	"testing"
)

// fix54a: a code block rendered as a table of two cells (a blog's "td.gutter" beside
// "td.code") and copied as text: the gutter's numbers come first, one a line, and the last
// one is glued to the code's first line (corpus 4451, a hexo blog).
const fix54aColumn = "1\n2\n3\n4[ 7952.524958] Normal free:16852kB boost:0kB min:11584kB low:41940kB high:72296kB reserved_highatomic:4096KB active_anon:1350360kB inactive_anon:3246732kB active_file:162768kB inactive_file:160608kB unevictable:59088kB writepending:1004kB present:7847744kB managed:7589764kB mlocked:59084kB bounce:0kB free_pcp:1628kB local_pcp:244kB free_cma:0kB\n" +
	"[ 7952.524965] lowmem_reserve[]: 0 0 0 0\n" +
	"[ 7952.524983] Normal: 128*4kB (UMEH) 800*8kB (UMH) 297*16kB (UMEH) 98*32kB (UME) 13*64kB (UE) 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 15632kB\n"

func TestFix54aGutterColumn(t *testing.T) {
	want := fix54aColumn[len("1\n2\n3\n4"):]
	if got := stripLineGutters(fix54aColumn); got != want {
		t.Errorf("column of 3 and a glued 4:\n got %q\nwant %q", got, want)
	}
	two := "1\n2[ 7952.524950] Node 0 active_anon:1350916kB\n"
	if got := stripLineGutters(two); got != "[ 7952.524950] Node 0 active_anon:1350916kB\n" {
		t.Errorf("column of 1 and a glued 2: %q", got)
	}
	syslog := "intro\n1\n2\n3Dec  2 05:00:01 host kernel: x\n"
	if got := stripLineGutters(syslog); got != "intro\nDec  2 05:00:01 host kernel: x\n" {
		t.Errorf("syslog glued after a column: %q", got)
	}
	z, ok := fix52cZone(t, fix54aColumn)
	if !ok || z.Name != "Normal" {
		t.Fatalf("zone not read after the column: %v %+v", ok, z)
	}
	if v, _ := z.Fields.Get("min"); v != 11584/4 {
		t.Errorf("Normal min = %d pages, want %d", v, 11584/4)
	}
	// Counter-cases: numbers a line that are output (seq, a sysctl value), a number line
	// above a line that starts with another number, a list's "2nd", a count that is not
	// the next number, a glued letter after one number line only, a column from 0.
	for _, in := range []string{
		"1\n2\n3\n",
		"1\n1961936 pages RAM\n",
		"1\n2nd try: the same\n",
		"1\n2\n3\n5[ 1.000000] x\n",
		"1\n2\n3 packets dropped\n",
		"1\n2x\n",
		"1\n2\n03[ 1.0] x\n",
		"   1\n   2[ 1.0] x\n",
	} {
		if got := stripLineGutters(in); got != in {
			t.Errorf("%q: stripped to %q", in, got)
		}
	}
}

// fix54a: the in-kernel lowmemorykiller's kill is one printk of several lines; only the
// first has the "lowmemorykiller: " prefix. Its continued lines are the kill's, read with
// it, bare (a mail's quote, corpus 4319) or each with the record's stamp (corpus 4320, a
// vendor tree's longer form).
func TestFix54aLMKContinuedLines(t *testing.T) {
	bare := "> lowmemorykiller: Killing '.networkupgrade' (6924), adj 705,\n" +
		">    to free 20968kB on behalf of 'kswapd0' (543) because\n" +
		">    cache 16240kB is below limit 16384kB for oom_score_adj 529\n" +
		">    Free memory is -2192kB above reserved\n" +
		"\nOK, no memory and OOM starts.\n"
	stamped := "[52794.911008] lowmemorykiller: Killing 'FinalizerDaemon' (17589), adj 904,\n" +
		"[52794.911008] to free 53160kB on behalf of 'kworker/3:4' (18339) because\n" +
		"[52794.911008] cache 199320kB is below limit 221184kB for oom_score_adj 900\n" +
		"[52794.911008] Free memory is 24024kB above reserved.\n" +
		"[52794.911008] Free CMA is 0kB\n" +
		"[52794.911008] Total reserve is 42396kB\n" +
		"[52794.911008] Total free pages is 32556kB\n" +
		"[52794.911008] Total file cache is 234748kB\n" +
		"[52794.911008] Total zcache is 0kB\n" +
		"[52794.911008] GFP mask is 0x24080c0\n"
	dmesg := "[  100.123456] lowmemorykiller: Killing 'x' (12), adj 900,\n" +
		"   to free 1234kB on behalf of 'kswapd0' (45) because\n" +
		"   cache 16240kB is below limit 16384kB for oom_score_adj 529\n" +
		"   Free memory is -1820kB above reserved\n" +
		"[  101.000000] eth0: link up\n"
	syslog := "Dec  2 05:00:01 phone kernel: lowmemorykiller: Killing 'x' (12), adj 900,\n" +
		"Dec  2 05:00:01 phone kernel:    to free 1234kB on behalf of 'kswapd0' (45) because\n" +
		"Dec  2 05:00:01 phone kernel:    cache 16240kB is below limit 16384kB for oom_score_adj 529\n" +
		"Dec  2 05:00:01 phone kernel:    Free memory is -1820kB above reserved\n"
	for name, c := range map[string]struct {
		text                string
		toFree, cache, free int64
		last                int
	}{
		"bare":    {bare, 20968, 16240, -2192, 4},
		"stamped": {stamped, 53160, 199320, 24024, 10},
		"dmesg":   {dmesg, 1234, 16240, -1820, 4},
		"syslog":  {syslog, 1234, 16240, -1820, 4},
	} {
		tl := ParseString(c.text, "t", Options{})
		var k *lmkKernelKill
		for _, a := range tl.Artifacts {
			if v, ok := a.Data.(lmkKernelKill); ok {
				k = &v
				if a.LastLine != c.last {
					t.Errorf("%s: kill's lines end at %d, want %d", name, a.LastLine, c.last)
				}
			}
		}
		if k == nil {
			t.Fatalf("%s: no kill with its figures: %+v", name, tl.Artifacts)
		}
		if k.ToFreeKB == nil || *k.ToFreeKB != c.toFree || k.CacheKB == nil || *k.CacheKB != c.cache ||
			k.FreeAboveReservedKB == nil || *k.FreeAboveReservedKB != c.free || k.OnBehalfOf == "" {
			t.Errorf("%s: figures %+v", name, k)
		}
		if len(tl.RuntimeOOMs) != 1 {
			t.Errorf("%s: %d kills, want 1", name, len(tl.RuntimeOOMs))
		}
		if len(tl.Unparsed) != 0 {
			t.Errorf("%s: unread %+v", name, tl.Unparsed)
		}
	}
	// Counter-cases: a kill whose next line is prose keeps no figure; two kills in a row
	// are two (the second "to free" is the next kill's, not read twice into the first).
	tl := ParseString("lowmemorykiller: Killing 'a' (1), adj 900,\nthen the app restarted and the cache filled up again\n", "t", Options{})
	for _, a := range tl.Artifacts {
		if _, ok := a.Data.(lmkKernelKill); ok {
			t.Errorf("figures read from prose: %+v", a)
		}
	}
	two := "[1.0] lowmemorykiller: Killing 'a' (1), adj 900,\n[1.0]    to free 100kB on behalf of 'kswapd0' (5) because\n" +
		"[2.0] lowmemorykiller: Killing 'b' (2), adj 900,\n[2.0]    to free 200kB on behalf of 'kswapd0' (5) because\n"
	tl = ParseString(two, "t", Options{})
	var got []int64
	for _, a := range tl.Artifacts {
		if k, ok := a.Data.(lmkKernelKill); ok {
			got = append(got, *k.ToFreeKB)
		}
	}
	if len(got) != 2 || got[0] != 100 || got[1] != 200 {
		t.Errorf("two kills: %v", got)
	}
}

// fix54a: dmesg --time-format iso's stamp behind a list item's marker (a page that rendered
// the paste as a list, corpus 4385 under the bullets forms) is the record's, as behind an
// indent; a list item that starts with a date of another form stays the author's.
func TestFix54aISOStampAfterListMarker(t *testing.T) {
	for _, in := range []string{
		"- 2021-10-16T11:17:37,027005-07:00 Out of memory: Killed process 4242 (lotus-worker) total-vm:1024kB, anon-rss:512kB, file-rss:0kB, shmem-rss:0kB",
		"* 2021-10-16T11:17:37,027005-07:00 Out of memory: Killed process 4242 (lotus-worker) total-vm:1024kB, anon-rss:512kB, file-rss:0kB, shmem-rss:0kB",
		" * 2021-10-16T11:17:37,027005-07:00 Out of memory: Killed process 4242 (lotus-worker) total-vm:1024kB, anon-rss:512kB, file-rss:0kB, shmem-rss:0kB",
	} {
		l, _, _ := parseLine(1, in)
		if !l.Kernel || !strings.HasPrefix(l.Text, "Out of memory: Killed process 4242") {
			t.Errorf("%q: kernel %v text %q", in, l.Kernel, l.Text)
		}
	}
	for _, in := range []string{
		"- 2021-10-16 the worker was restarted by hand",
		"- 2021-10-16T11:17:37 deployed the new worker",
	} {
		if l, _, _ := parseLine(1, in); l.Kernel {
			t.Errorf("%q: read as a kernel record %q", in, l.Text)
		}
	}
}

// fix54a: a patch mail flattened onto one line (corpus 4413 under the flattened form) has
// no sign at a line's start; two of them in their order on the line still make it a patch,
// so its quoted WARN stays the author's reproduction. A flattened post that names one sign
// only, or the sign-off without an address, is a host's log.
func TestFix54aFlattenedPatchMail(t *testing.T) {
	splat := "[ 2171.200049][ T1860] WARNING: CPU: 1 PID: 1860 at mm/page_alloc.c:4713 __alloc_pages_nodemask+0x2f3/0x740 [ 2171.299475][ T1860] kmalloc_order+0x22/0x80 "
	warn := func(text string) bool { return logHolds(text, "mm/page_alloc.c:4713") }
	for _, text := range []string{
		"From: Taehee Yoo <ap420073@gmail.com> Subject: [PATCH net] gtp: use __GFP_NOWARN Splat looks like: " + splat + "Signed-off-by: Taehee Yoo <ap420073@gmail.com> --- drivers/net/gtp.c | 6 +++---\n",
		"gtp: use __GFP_NOWARN Splat looks like: " + splat + "Signed-off-by: Taehee Yoo <ap420073@gmail.com> --- diff --git a/drivers/net/gtp.c b/drivers/net/gtp.c\n",
	} {
		if warn(text) {
			t.Errorf("flattened patch's WARN read as this host's: %.60q", text)
		}
	}
	for _, text := range []string{
		"My box logged this: " + splat + "Is a Signed-off-by: line needed to send a fix?\n",
		"Q: does the [PATCH] from last week fix it? " + splat + "Signed-off-by: me, later\n",
	} {
		if !warn(text) {
			t.Errorf("a host's splat not read: %.60q", text)
		}
	}
}

// logHolds reports whether a kernel log record read from text holds sub.
func logHolds(text, sub string) bool {
	tl := ParseString(text, "p", Options{})
	for _, r := range tl.Log.Records() {
		if strings.Contains(r.Message, sub) {
			return true
		}
	}
	return false
}
