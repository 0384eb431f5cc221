package artifact

import (
	"encoding/json"
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

// The classes the held-out batch g18 found (corpus 653-672), each on a minimal snippet
// written for the class (not the case's words); every test failed before its change.

// 6.x's SLUB failure names the CPU that tried and its node before the node asked for
// (mm/slub.c slab_out_of_memory: "on CPU %u (of node %d) on node %d"); its lines may sit
// among another report's call trace (corpus 655). Before: no slab failure read.
func TestSlabFailureCPUWording(t *testing.T) {
	text := `[ 5021.100001] SLUB: Unable to allocate memory on CPU 3 (of node 1) on node -1, gfp=0xa20(GFP_ATOMIC)
[ 5021.100002]  __alloc_pages+0x2b1/0x330
[ 5021.100003]   cache: skbuff_head_cache, object size: 232, buffer size: 256, default order: 1, min order: 0
[ 5021.100004]  allocate_slab+0x8c/0x4a0
[ 5021.100005]   node 1: slabs: 912, objs: 29184, free: 0
`
	s, err := ParseSlabFailure(text, "6.8.0")
	if err != nil {
		t.Fatalf("ParseSlabFailure: %v", err)
	}
	if s.Node != -1 || s.Mode != "0xa20(GFP_ATOMIC)" || s.Cache != "skbuff_head_cache" || s.ObjectSize != 232 || s.DefaultOrder != 1 {
		t.Errorf("read %+v, want node -1, mode 0xa20(GFP_ATOMIC), cache skbuff_head_cache (232, order 1)", *s)
	}
	// The older wordings still read.
	for _, h := range []string{
		"SLUB: Unable to allocate memory on node -1 (gfp=0x20)",
		"SLUB: Unable to allocate memory on node 0, gfp=0x820(GFP_ATOMIC)",
	} {
		if _, err := ParseSlabFailure(h+"\n", ""); err != nil {
			t.Errorf("%q: %v", h, err)
		}
	}
}

// A kernel message named first, then said in the same sentence to be in the author's log
// (corpus 667: "'Out of socket memory' is the possible issue here due I see that in dmesg
// when crash happens"). Before: exit 3, nothing read. A possibility, another reader's log,
// a negation and advice stay prose.
func TestMessageSeenAfter(t *testing.T) {
	logged := func(text string) int {
		t.Helper()
		return ParseString(text, "p", Options{}).Log.Len()
	}
	for _, c := range []struct {
		text string
		want int
	}{
		{"Could the stalls be \"Out of socket memory\", since we saw those messages in kern.log right before the proxy died?\n", 1},
		{"My guess is that the too many orphaned sockets warning explains it, as I get it on the console daily.\n", 1},
		{"Is possible SYN flooding on port 443 the cause, given we also see that message in syslog at each stall?\n", 1},
		// counter-cases
		{"Maybe it is \"Out of socket memory\", but I don't see that in dmesg.\n", 0},
		{"The message 'Out of socket memory' means tcp_mem is too low: if you see it in dmesg, raise it.\n", 0},
		{"The kernel prints 'Out of socket memory' from tcp_out_of_resources, and if we see that in dmesg we raise tcp_mem.\n", 0},
		{"The kernel prints 'Out of socket memory' from tcp_check_oom. We have it in the log of the other cluster.\n", 0},
	} {
		if got := logged(c.text); got != c.want {
			t.Errorf("%q: %d log records, want %d", c.text, got, c.want)
		}
	}
}

// The connection tracking table said to have filled (corpus 668: "customer was doing heavy
// churn and managed to fill up the conntrack table"). Before: exit 3, nothing read. A
// title's "protect against", a possibility, a negation and advice state nothing.
func TestStatedConntrackFull(t *testing.T) {
	rate := func(text string) float64 {
		t.Helper()
		v := 0.0
		for _, s := range ParseString(text, "p", Options{}).Samples {
			if !strings.Contains(s.Source, model.ForeignMark) {
				v = max(v, s.Rates[model.RateStatedConntrackFull])
			}
		}
		return v
	}
	for _, c := range []struct {
		text string
		want float64
	}{
		{"During the load test the k8s node filled the nf_conntrack table within minutes and new pods could not resolve DNS.\n", 1},
		{"Since Monday our conntrack table is full every evening and SSH to the gateway times out.\n", 1},
		{"The burst of short UDP flows maxed out the conntrack table on both routers.\n", 1},
		// counter-cases
		{"# Guard the host against a full conntrack table\n\nWe should document how to size it.\n", 0},
		{"If the conntrack table fills up, new connections are dropped.\n", 0},
		{"The churn never filled the conntrack table; drops came from the NIC.\n", 0},
		{"You should raise nf_conntrack_max before a flood can fill the conntrack table.\n", 0},
	} {
		if got := rate(c.text); got != c.want {
			t.Errorf("%q: stated conntrack full %v, want %v", c.text, got, c.want)
		}
	}
}

// A grep of the kill lines, one per kill (corpus 664: `dmesg -T | grep "Out of memory"`): each
// line is a kill of its own, with its victim and score; a report's own choice line and the
// "Killed process" of the child killed in its place stay one kill. Before: one report, the
// last victim.
func TestOOMKillLinesGrepped(t *testing.T) {
	kills := func(text string) []*model.OOMKill {
		t.Helper()
		var out []*model.OOMKill
		for _, e := range ParseString(text, "p", Options{}).Events {
			if e.Kind == model.EventOOMKill && e.OOMKill != nil {
				out = append(out, e.OOMKill)
			}
		}
		return out
	}
	got := kills(`[Tue Jun  4 02:11:09 2019] Out of memory: Kill process 1411 (php-fpm) score 201 or sacrifice child
[Tue Jun  4 02:40:51 2019] Out of memory: Kill process 1502 (php-fpm) score 198 or sacrifice child
[Wed Jun  5 03:02:17 2019] Out of memory: Killed process 2210 (mysqld) total-vm:2411232kB, anon-rss:1203312kB, file-rss:0kB, shmem-rss:0kB
`)
	if len(got) != 3 || got[0].KilledPID != 1411 || got[1].KilledPID != 1502 || got[2].KilledPID != 2210 {
		t.Fatalf("kills %d, want 3 (1411, 1502, 2210)", len(got))
	}
	doc := ParseString("[Tue Jun  4 02:11:09 2019] Out of memory: Kill process 1411 (php-fpm) score 201 or sacrifice child\n", "p", Options{})
	if !artifactHas(t, doc, KindOOMKill, `"score":201`) {
		t.Errorf("the kill line's score not kept")
	}
	// One kill: the choice line and the child killed in its place.
	got = kills(`[  912.100000] Out of memory: Kill process 3000 (httpd) score 640 or sacrifice child
[  912.100050] Killed process 3021 (httpd) total-vm:812000kB, anon-rss:402000kB, file-rss:120kB
`)
	if len(got) != 1 {
		t.Errorf("choice and kill read as %d kills, want 1", len(got))
	}
}

// artifactHas: an artifact of kind whose JSON holds want.
func artifactHas(t *testing.T, tl *model.Timeline, kind, want string) bool {
	t.Helper()
	for _, a := range tl.Artifacts {
		if a.Kind != kind {
			continue
		}
		b, err := json.Marshal(a.Data)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), want) {
			return true
		}
	}
	return false
}

// Command output inside an inline code span that opens on its first line and closes on its
// last (corpus 672: "`10: bond1: ..." ... "0 `" in a forum post): the lone backticks go, and
// the interface is read. A sentence's `cmd` pair stays. Before: the header unread, the
// counter rows listed as unread.
func TestOpenInlineCode(t *testing.T) {
	text := "Output of ip:\n" +
		"`3: eno2: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP mode DEFAULT group default qlen 1000\n" +
		"    link/ether 3c:ec:ef:10:20:30 brd ff:ff:ff:ff:ff:ff\n" +
		"    RX:  bytes packets errors dropped  missed   mcast\n" +
		"    9127736151 10120411      0    4410       0   20012\n" +
		"    TX:  bytes packets errors dropped carrier collsns\n" +
		"    1311874310  4110233      0       0       0       0 `\n"
	tl := ParseString(text, "p", Options{})
	if !artifactHas(t, tl, KindIPLink, `"rx_dropped":4410`) || !artifactHas(t, tl, KindIPLink, `"tx_packets":4110233`) {
		t.Errorf("ip -s link in an open code span not read: %+v", tl.Artifacts)
	}
	for _, c := range []struct{ in, want string }{
		{"`eth0: flags=4163<UP>  mtu 1500", "eth0: flags=4163<UP>  mtu 1500"},
		{"   0 0 `", "   0 0"},
		{"run `ip -s link` and look at dropped", "run `ip -s link` and look at dropped"},
		{"it's the `ethtool -S output I mean", "it's the `ethtool -S output I mean"},
	} {
		if got := stripOpenCode(c.in); got != c.want {
			t.Errorf("stripOpenCode(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// /proc/zoneinfo filtered by grep to the zones' sizes and protection (corpus 670: `grep -E
// 'Node|protection|present|managed' /proc/zoneinfo`): the zones are read with what the
// grep kept; the watermarks and free pages it left out stay absent, never 0. Before: the
// protection lines listed as unread, no zone read.
func TestZoneinfoGrepped(t *testing.T) {
	text := "$ grep -E 'zone|present|managed|protection' /proc/zoneinfo\n" +
		"Node 0, zone      DMA\n" +
		"        present  3999\n" +
		"        managed  3976\n" +
		"        protection: (0, 1802, 15754, 15754, 15754)\n" +
		"Node 0, zone   Normal\n" +
		"        present  3604480\n" +
		"        managed  3541204\n" +
		"        protection: (0, 0, 0, 0, 0)\n"
	tl := ParseString(text, "p", Options{})
	var zones []kernel.Zone
	for _, s := range tl.Samples {
		zones = append(zones, s.Zones...)
	}
	if len(zones) != 2 || zones[1].Name != "Normal" {
		t.Fatalf("zones %+v, want DMA and Normal", zones)
	}
	if v, ok := zones[1].Fields.Get("managed"); !ok || v != 3541204 {
		t.Errorf("Normal managed %d %v, want 3541204", v, ok)
	}
	if _, ok := zones[1].Fields.Get("min"); ok {
		t.Errorf("Normal min read though the grep left it out")
	}
	if len(zones[0].Protection) != 5 || zones[0].Protection[2] != 15754 {
		t.Errorf("DMA protection %v", zones[0].Protection)
	}
	// A "present" line under a header that is no zone's is not a zoneinfo.
	if tl := ParseString("Node 0, zone list\nNode 0, zone      DMA\n    present at boot: yes\n", "p", Options{}); len(tl.Samples) > 0 && len(tl.Samples[0].Zones) > 0 {
		t.Errorf("prose read as zoneinfo: %+v", tl.Samples[0].Zones)
	}
}

// show_swap_cache_info's "Swap cache stats: add N, delete N, find N/N" in a show_mem dump
// (corpus 665): the swap cache's traffic since boot is kept with the dump's totals. Before:
// the line was consumed and its numbers lost.
func TestShowMemSwapCacheStats(t *testing.T) {
	text := "[ 8812.100001] 120331 total pagecache pages\n" +
		"[ 8812.100002] 40211 pages in swap cache\n" +
		"[ 8812.100003] Swap cache stats: add 512004, delete 471793, find 30120/41876\n" +
		"[ 8812.100004] Free swap  = 0kB\n" +
		"[ 8812.100005] Total swap = 2097148kB\n"
	tl := ParseString(text, "p", Options{})
	for _, want := range []string{`"swap_cache_add":512004`, `"swap_cache_delete":471793`, `"swap_cache_find":30120`, `"swap_cache_find_total":41876`} {
		if !artifactHas(t, tl, KindShowMem, want) {
			t.Errorf("show_mem lacks %s", want)
		}
	}
}
