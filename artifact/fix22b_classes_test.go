package artifact

import (
	"strings"
	"testing"
)

// A /proc/slabinfo row a mail client wrapped at 72 columns (corpus 1967, LKML 2005: the
// ip_dst_cache row broken after "tunables  120   60", its sharedfactor and slabdata on the
// next line): one row of the table. Before, both lines were left unread.
func TestFix22bSlabinfoWrappedRow(t *testing.T) {
	text := "user@somemachine:~$ cat /proc/slabinfo | grep ip_dst_cache\n" +
		"ip_dst_cache      153870 154530    256   15    1 : tunables  120   60 \n" +
		"  8 : slabdata  10302  10302      0\n"
	tl := ParseString(text, "mail", Options{})
	rows := one(t, tl, KindSlabinfo).([]SlabinfoRow)
	want := SlabinfoRow{Name: "ip_dst_cache", ActiveObjs: 153870, NumObjs: 154530, ObjSize: 256, ObjPerSlab: 15, PagesPerSlab: 1,
		Limit: 120, BatchCount: 60, SharedFactor: 8, ActiveSlabs: 10302, NumSlabs: 10302}
	if len(rows) != 1 || rows[0] != want {
		t.Errorf("rows %+v", rows)
	}
	if len(tl.Unparsed) != 0 {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
	// Wrapped rows among whole ones: each counts once.
	mixed := "dentry            2369308 2369325    192   21    1 : tunables    0    0    0 : slabdata 112825 112825      0\n" +
		"ip_dst_cache      153870 154530    256   15    1 : tunables  120   60\n" +
		"  8 : slabdata  10302  10302      0\n" +
		"kmalloc-1024        33418  33418   1024   32    8 : tunables    0    0    0 : slabdata   1045   1045      0\n"
	if rows := one(t, ParseString(mixed, "mail", Options{}), KindSlabinfo).([]SlabinfoRow); len(rows) != 3 || rows[1].SharedFactor != 8 || rows[2].Name != "kmalloc-1024" {
		t.Errorf("mixed rows %+v", rows)
	}
}

// Counter-cases: a first half followed by a line that is not the rest of a row (another
// program's line, a whole row, or a second half with too many columns) joins nothing.
func TestFix22bSlabinfoWrappedRowCounter(t *testing.T) {
	half := "ip_dst_cache      153870 154530    256   15    1 : tunables  120   60\n"
	for name, next := range map[string]string{
		"prose":      "the numbers above are from last week\n",
		"whole row":  "dentry            2369308 2369325    192   21    1 : tunables    0    0    0 : slabdata 112825 112825      0\n",
		"extra cols": "  8 9 : slabdata  10302  10302      0\n",
	} {
		t.Run(name, func(t *testing.T) {
			tl := ParseString(half+next, "mail", Options{})
			for _, a := range tl.Artifacts {
				if a.Kind != KindSlabinfo {
					continue
				}
				for _, r := range a.Data.([]SlabinfoRow) {
					if r.Name == "ip_dst_cache" {
						t.Errorf("the half row was read: %+v", r)
					}
				}
			}
		})
	}
}

// The route cache counted by lines (corpus 1967): a one-liner of three commands whose two
// counts follow the slabinfo row, each paired with its command in order; the single form too.
func TestFix22bRouteCacheCount(t *testing.T) {
	text := "user@somemachine:~$ cat /proc/slabinfo | grep ip_dst_cache; \\\n" +
		" > cat /proc/net/rt_cache | wc -l; \\\n" +
		" > /sbin/ip ro sh cache | grep cache | wc -l;\n" +
		"ip_dst_cache      153870 154530    256   15    1 : tunables  120   60 \n" +
		"  8 : slabdata  10302  10302      0\n" +
		"2159\n2247\n"
	tl := ParseString(text, "mail", Options{})
	got := tl.RouteCacheCounts
	if len(got) != 2 || got[0].Entries != 2159 || got[1].Entries != 2247 || got[1].Command != "/sbin/ip ro sh cache | grep cache | wc -l" {
		t.Errorf("counts %+v", got)
	}
	if rows := one(t, tl, KindSlabinfo).([]SlabinfoRow); len(rows) != 1 || rows[0].ActiveObjs != 153870 {
		t.Errorf("slabinfo rows %+v", rows)
	}
	// The same block as a form keeps it: the continuation backslashes and PS2's "> " left on
	// the lines (a code block, a quoted mail), or a blank line after every line.
	for name, form := range map[string]string{
		"backslashes": "user@somemachine:~$ cat /proc/slabinfo | grep ip_dst_cache; \\\n" +
			"cat /proc/net/rt_cache | wc -l; \\\n/sbin/ip ro sh cache | grep cache | wc -l;\n" +
			"ip_dst_cache      153870 154530    256   15    1 : tunables  120   60    8 : slabdata  10302  10302      0\n2159\n2247\n",
		"double-spaced": strings.ReplaceAll(text, "\n", "\n\n"),
	} {
		if got := ParseString(form, "mail", Options{}).RouteCacheCounts; len(got) != 2 || got[0].Entries != 2159 || got[1].Entries != 2247 {
			t.Errorf("%s: counts %+v", name, got)
		}
	}
	single := ParseString("# ip -o route ls cache | wc -l\n7893\n", "p", Options{})
	if len(single.RouteCacheCounts) != 1 || single.RouteCacheCounts[0].Entries != 7893 {
		t.Errorf("single %+v", single.RouteCacheCounts)
	}
}

// Counter-cases: a filter that counts a part of the cache, another table counted, a
// block whose other command may print a bare number, numbers that do not pair one to one,
// and the command named in a sentence: no count.
func TestFix22bRouteCacheCountCounter(t *testing.T) {
	for name, text := range map[string]string{
		"filtered":        "$ ip route show cache | grep 10.1.2.3 | wc -l\n12\n",
		"conntrack":       "$ cat /proc/net/nf_conntrack | wc -l\n2159\n",
		"other command":   "$ cat /proc/sys/net/ipv4/route/max_size;\n$ ip route show cache | wc -l\n262144\n2247\n",
		"unpaired":        "$ ip route show cache | wc -l;\n$ cat /proc/net/rt_cache | wc -l\n2247\n",
		"sentence":        "I ran ip route show cache | wc -l and it said 2247 entries\n",
		"no number after": "$ ip route show cache | wc -l\nabout two thousand\n",
	} {
		t.Run(name, func(t *testing.T) {
			if got := ParseString(text, "p", Options{}).RouteCacheCounts; len(got) != 0 {
				t.Errorf("counts %+v", got)
			}
		})
	}
}
