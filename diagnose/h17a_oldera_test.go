package diagnose

import (
	"strings"
	"testing"
)

// h17a: kernel messages of 2.4-3.x as mailing-list archives hold them (syslog-prefixed,
// quoted "> "), each reaching the finding its cause names.

const h17aSyslog = "Oct 27 18:00:02 host kernel: "

// 2.6.9's OOM report (mm/oom_kill.c "oom-killer: gfp_mask=0x%x", no invoker, no order) with
// its show_free_areas: per-cpu "hot/cold" lines, zone lines with protections[] (2.6.0-2.6.11).
const h17aOOM269 = `oom-killer: gfp_mask=0xd0
Mem-info:
DMA per-cpu:
cpu 0 hot: low 2, high 6, batch 1
cpu 0 cold: low 0, high 2, batch 1
Normal per-cpu:
cpu 0 hot: low 32, high 96, batch 16
cpu 0 cold: low 0, high 32, batch 16
HighMem per-cpu:
cpu 0 hot: low 14, high 42, batch 7
cpu 0 cold: low 0, high 14, batch 7
Free pages:      826208kB (819200kB HighMem)
Active:123456 inactive:12345 dirty:0 writeback:0 unstable:0 free:206552 slab:180000 mapped:100000 pagetables:2000
DMA free:3588kB min:68kB low:84kB high:100kB active:0kB inactive:0kB present:16384kB pages_scanned:0 all_unreclaimable? yes
protections[]: 0 0 0
Normal free:3420kB min:3756kB low:4692kB high:5632kB active:100kB inactive:200kB present:901120kB pages_scanned:12345 all_unreclaimable? yes
protections[]: 0 0 0
HighMem free:819200kB min:512kB low:640kB high:768kB active:400000kB inactive:40000kB present:3276800kB pages_scanned:0 all_unreclaimable? no
protections[]: 0 0 0
DMA: 3*4kB 3*8kB 2*16kB 2*32kB 2*64kB 2*128kB 1*256kB 1*512kB 0*1024kB 1*2048kB 0*4096kB = 3588kB
Normal: 1*4kB 0*8kB 2*16kB 1*32kB 1*64kB 1*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 3420kB
HighMem: 0*4kB 0*8kB 0*16kB 0*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 200*4096kB = 819200kB
Swap cache: add 0, delete 0, find 0/0, race 0+0
Free swap:       2040244kB
1048576 pages of RAM
819200 pages of HIGHMEM
Out of Memory: Killed process 4711 (java).
`

func TestH17aOldEraOOMLowmem(t *testing.T) {
	for name, text := range map[string]string{
		"bare":   h17aOOM269,
		"syslog": h17aPrefix(h17aOOM269, h17aSyslog),
		"mail":   h17aPrefix(h17aPrefix(h17aOOM269, h17aSyslog), "> "),
	} {
		tl := parseText19b(t, text)
		f := mustFire(t, run(t, "alloc-fail-lowmem", tl), Critical)
		if !evidenceHas(f, "GFP mode", "0xd0") || !evidenceHas(f, "zone Normal", "free 3420 kB, min 3756 kB") ||
			!evidenceHas(f, "zone DMA", "all_unreclaimable") || !evidenceHas(f, "zone HighMem", "free 819200 kB") {
			t.Errorf("%s: %+v", name, f.Evidence)
		}
		mustFire(t, run(t, "oom-kill", tl), Critical)
	}
	// The dump alone, without the OOM report: its zones are read (protections[] does not cut
	// it into pieces), and a zone below min is the reserve's finding, not lowmem's.
	dump := strings.SplitN(h17aOOM269, "\n", 2)[1]
	dump = strings.Replace(dump, "Out of Memory: Killed process 4711 (java).\n", "", 1)
	tl := parseText19b(t, dump)
	if len(tl.Samples) == 0 || len(tl.Samples[0].Zones) != 3 {
		t.Fatalf("2.6.9 dump: zones not read: %+v", tl.Samples)
	}
	mustFire(t, run(t, "zone-reserve-low", tl), Critical)
	if res := run(t, "alloc-fail-lowmem", tl); len(res.Findings) > 0 {
		t.Errorf("dump alone: alloc-fail-lowmem fired: %+v", res.Findings[0].Evidence)
	}
	// A HighMem-capable request of the same era (GFP_HIGHUSER 0xd2) is not lowmem's.
	tl = parseText19b(t, strings.Replace(h17aOOM269, "gfp_mask=0xd0", "gfp_mask=0xd2", 1))
	if res := run(t, "alloc-fail-lowmem", tl); len(res.Findings) > 0 {
		t.Errorf("0xd2: alloc-fail-lowmem fired: %+v", res.Findings[0].Evidence)
	}
}

func TestH17aSynDropOpenRequest(t *testing.T) {
	lines := "TCP: drop open request from 10.1.2.3/34567\nTCP: drop open request from 10.1.2.4/34568\n"
	for name, text := range map[string]string{
		"syslog": h17aPrefix(lines, h17aSyslog),
		"mail":   h17aPrefix(h17aPrefix(lines, h17aSyslog), "> "),
		"ipv6":   h17aSyslog + "TCP: drop open request from 2001:db8::1/40000\n",
	} {
		f := mustFire(t, run(t, "listen-overflow", parseText19b(t, text)), Warning)
		if !evidenceHas(f, "SYNs dropped", "drop open request from") {
			t.Errorf("%s: %+v", name, f.Evidence)
		}
		if _, ok := changeFor(f, "net.ipv4.tcp_syncookies"); !ok {
			t.Errorf("%s: no tcp_syncookies change: %+v", name, f.Changes)
		}
	}
	quiet := map[string]string{
		"placeholder": h17aSyslog + "TCP: drop open request from X.X.X.X\n",
		"prose":       "Our logs show lots of TCP: drop open request from messages, what do they mean?\n",
	}
	for name, text := range quiet {
		if res := run(t, "listen-overflow", parseText19b(t, text)); len(res.Findings) > 0 {
			t.Errorf("%s: fired: %+v", name, res.Findings[0].Evidence)
		}
	}
}

// "TCP: time wait bucket table overflow" (tcp_minisocks.c tcp_time_wait, 2.4-3.x) is named
// with what it proves, a TIME_WAIT table limit no rule judges: no finding, no exit 3.
func TestH17aTimeWaitOverflowNamed(t *testing.T) {
	for _, text := range []string{
		h17aSyslog + "TCP: time wait bucket table overflow\n" + h17aSyslog + "TCP: time wait bucket table overflow\n",
		"> " + h17aSyslog + "TCP: time wait bucket table overflow\n",
	} {
		tl := parseText19b(t, text)
		named := false
		for _, u := range tl.Unparsed {
			named = named || strings.Contains(u.Why, "tcp_max_tw_buckets")
		}
		if !named {
			t.Errorf("%q: not named: %+v", text, tl.Unparsed)
		}
	}
	tl := parseText19b(t, "net.ipv4.tcp_max_tw_buckets = 180000\n")
	for _, u := range tl.Unparsed {
		if strings.Contains(u.Why, "TIME_WAIT table was full") {
			t.Errorf("a sysctl line named as the overflow: %+v", u)
		}
	}
}

// 2.4's show_free_areas_core: "Zone:NAME freepages: … min: … low: … high:" lines (no
// present:) and zone-less buddy lists; its zones are a reading of the host.
func TestH17a24ZoneLines(t *testing.T) {
	dump := `Mem-info:
Free pages:        1836kB (   524kB HighMem)
( Active: 191053, inactive_dirty: 20000, inactive_clean: 9466, free: 459 (383 766 1149) )
Zone:DMA freepages:   412kB min:   128kB low:   256kB high:   384kB
Zone:Normal freepages:   900kB min:  1020kB low:  2040kB high:  3060kB
Zone:HighMem freepages:   524kB min:   255kB low:   510kB high:   765kB
1*4kB 1*8kB 1*16kB 0*32kB 0*64kB 1*128kB 1*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 412kB)
1*4kB 1*8kB 2*16kB 1*32kB 0*64kB 0*128kB 1*256kB 1*512kB 0*1024kB 0*2048kB 0*4096kB = 900kB)
1*4kB 0*8kB 0*16kB 0*32kB 0*64kB 0*128kB 0*256kB 1*512kB 0*1024kB 0*2048kB 0*4096kB = 524kB)
Swap cache: add 0, delete 0, find 0/0
Free swap:            0kB
`
	for name, text := range map[string]string{"syslog": h17aPrefix(dump, h17aSyslog), "mail": h17aPrefix(h17aPrefix(dump, h17aSyslog), "> ")} {
		f := mustFire(t, run(t, "zone-reserve-low", parseText19b(t, text)), Critical)
		if !evidenceHas(f, "zone", "Normal") {
			t.Errorf("%s: %+v", name, f.Evidence)
		}
	}
	healthy := strings.Replace(dump, "Zone:Normal freepages:   900kB", "Zone:Normal freepages:  2900kB", 1)
	healthy = strings.Replace(healthy, "1*512kB 0*1024kB 0*2048kB 0*4096kB = 900kB)", "1*512kB 0*1024kB 1*2048kB 0*4096kB = 2900kB)", 1)
	if res := run(t, "zone-reserve-low", parseText19b(t, healthy)); len(res.Findings) > 0 {
		t.Errorf("healthy 2.4 dump: fired: %+v", res.Findings[0].Evidence)
	}
}
