package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// Bacula's and Bareos's own socket-layer messages (src/lib/bsock.c, bsock_tcp.cc,
// filed/backup.cc) are named as the program's broken connection: the sizes in them are one
// write's, never a socket buffer, and the text runs (it exited 3 with nothing read).
func TestFix17aBaculaSocketMessages(t *testing.T) {
	for _, c := range []struct {
		text string
		no   int
		word string
	}{
		{"27 | 2024-07-02 06:20:08 | host-fd JobId 202: Error: lib/bsock_tcp.cc:419 Wrote 262144 bytes to Storage daemon:10.0.0.9:9103, but only 229376 accepted.\n", 1, "but only M accepted"},
		{"28 | 2024-07-02 06:20:08 | host-fd JobId 202: Fatal error: filed/backup.cc:1405 Network send error to SD. ERR=Broken pipe\n", 1, "Network send error"},
		{"02-Jul 06:20 host-fd JobId 202: Error: bsock.c:427 Write error sending 65540 bytes to Storage daemon:10.0.0.9:9103: ERR=Connection reset by peer\n", 1, "Write error sending"},
	} {
		tl := ParseString(c.text, "t", Options{})
		if !h12bUnreadLine(tl, c.no, c.word) || statedOOM(tl) {
			t.Errorf("%q: unparsed %+v: want line %d named (%s)", c.text, tl.Unparsed, c.no, c.word)
		}
		checkAccount(t, tl)
	}
	// Counters: a sentence with the words, nmap's cipher message, a write without a figure.
	for _, s := range []string{
		"I wrote to the list, but only one person accepted the patch",
		"warning: 12 ciphers offered but only 3 accepted",
		"Wrote the file to disk, but only after a retry",
		"the network send error to the storage daemon keeps coming back",
		"Write error sending the report to the server",
	} {
		if why, _, ok := serverOwnLine(s); ok {
			t.Errorf("%q named: %s", s, why)
		}
	}
}

// An out-of-memory the author says came with the host's memory free ("Redis OOM crash with
// lots of free memory") is the program's own allocation failing, not the host's; a kill word
// keeps it a kill, and a title without the free memory stays stated.
func TestFix17aOOMWithMemoryFree(t *testing.T) {
	body := "\nIt crashed again tonight, the box is dedicated to it.\n"
	for _, title := range []string{
		"# Redis 3.0.6 OOM crash with lots of free memory",
		"# Out of memory error despite 6 GB free RAM",
	} {
		if tl := ParseString(title+"\n"+body, "t", Options{}); statedOOM(tl) {
			t.Errorf("%q: stated OOM, want none (memory free)", title)
		}
	}
	for _, title := range []string{
		"# Redis 3.0.6 OOM crash on the cache box",
		"# OOM killer kills redis despite lots of free memory",
		"# Out of memory on the backup server, free memory at zero",
	} {
		if tl := ParseString(title+"\n"+body, "t", Options{}); !statedOOM(tl) {
			t.Errorf("counter %q: no stated OOM", title)
		}
	}
}

// A show_mem dump cut from its report, without buddy lines and with a lowmem_reserve[] that
// gives no page size (the zone above grew after boot), is a zone reading when its zones are
// x86-64's (a DMA zone within 16 MiB beside DMA32): 4 kB pages. Corpus 1535's lines.
func TestFix17aX86ZonesPageSize(t *testing.T) {
	dump := "Jun 21 13:18:41 ip-172-26-13-16 kernel: [ 3888.822199] Node 0 DMA free:1904kB min:88kB low:108kB high:132kB active_anon:10612kB inactive_anon:264kB active_file:20kB inactive_file:24kB unevictable:108kB present:15988kB managed:15900kB pages_scanned:572 all_unreclaimable? yes\n" +
		"Jun 21 13:18:41 ip-172-26-13-16 kernel: [ 3888.822204] lowmem_reserve[]: 0 455 455 455 455\n" +
		"Jun 21 13:18:41 ip-172-26-13-16 kernel: [ 3888.822207] Node 0 DMA32 free:2592kB min:2684kB low:3352kB high:4024kB active_anon:394996kB inactive_anon:3944kB active_file:192kB inactive_file:204kB unevictable:3544kB present:507904kB managed:482548kB pages_scanned:20856 all_unreclaimable? yes\n" +
		"Jun 21 13:18:41 ip-172-26-13-16 kernel: [ 3888.822211] lowmem_reserve[]: 0 0 0 0 0\n"
	tl := ParseString(dump, "t", Options{})
	var zones int
	for _, s := range tl.Samples {
		zones += len(s.Zones)
	}
	if zones != 2 {
		t.Fatalf("zones read %d, want 2 (DMA, DMA32 in 4 kB pages)", zones)
	}
	// Counters: arm64's DMA zone is 1 GiB or more (its pages may be 16 or 64 kB); a 32-bit
	// host's DMA beside Normal has no DMA32; DMA32 on another node.
	for _, zs := range [][]model.ZoneReport{
		{{Node: 0, Zone: "DMA", PresentKB: 1048576}, {Node: 0, Zone: "DMA32", PresentKB: 3145728}},
		{{Node: 0, Zone: "DMA", PresentKB: 16384}, {Node: 0, Zone: "Normal", PresentKB: 901120}},
		{{Node: 0, Zone: "DMA", PresentKB: 15988}, {Node: 1, Zone: "DMA32", PresentKB: 507904}},
	} {
		if p := x86ZonesPageKB(zs); p != 0 {
			t.Errorf("%+v: page size %d, want none", zs, p)
		}
	}
	if p := x86ZonesPageKB([]model.ZoneReport{{Node: 0, Zone: "DMA", PresentKB: 15988}, {Node: 0, Zone: "DMA32", PresentKB: 507904}}); p != 4 {
		t.Errorf("x86-64 zones: page size %d, want 4", p)
	}
}

// A page's "<br>" after each line is no column of it: a terminal's hard wrap of kernel lines
// is measured without it and its pieces are joined as they are without the tags.
func TestFix17aHardWrapUnderBr(t *testing.T) {
	line := "[ 3888.822207] Node 0 DMA32 free:2592kB min:2684kB low:3352kB high:4024kB active_anon:394996kB inactive_anon:3944kB active_file:192kB present:507904kB pages_scanned:20856 all_unreclaimable? yes"
	const w = 80
	var text string
	for i := 0; i < 4; i++ {
		for s := line; s != ""; {
			n := min(w, len(s))
			text += s[:n] + "\n"
			s = s[n:]
		}
	}
	plain := ParseString(text, "t", Options{})
	br := ParseString(strings.ReplaceAll(text, "\n", "<br>\n"), "t", Options{})
	pr, bl := plain.Log.Records(), br.Log.Records()
	if len(pr) != 4 || len(bl) != len(pr) {
		t.Fatalf("log records: plain %d, <br> %d: want 4 joined lines in both", len(pr), len(bl))
	}
	for i := range pr {
		if pr[i].Message != bl[i].Message || !strings.HasSuffix(bl[i].Message, "all_unreclaimable? yes") {
			t.Errorf("record %d: <br> %q, plain %q", i, bl[i].Message, pr[i].Message)
		}
	}
}
