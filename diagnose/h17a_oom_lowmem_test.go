package diagnose

import (
	"strings"
	"testing"
)

// h17a: an OOM report is the allocator's failure path; on a 32-bit kernel with HighMem, a
// request that could not use HighMem failing with lowmem short while HighMem had memory is
// alloc-fail-lowmem (corpus 1904's shape, mm/oom_kill.c dump_header + show_mem of 2.6.18).

const h17aLowmemZones = `Mem-info:
DMA free:3396kB min:3452kB low:4312kB high:5176kB active:1228kB inactive:1268kB present:745464kB pages_scanned:150129 all_unreclaimable? yes
lowmem_reserve[]: 0 0 0 19760
DMA32 free:0kB min:0kB low:0kB high:0kB active:0kB inactive:0kB present:0kB pages_scanned:0 all_unreclaimable? no
lowmem_reserve[]: 0 0 0 19760
Normal free:0kB min:0kB low:0kB high:0kB active:0kB inactive:0kB present:0kB pages_scanned:0 all_unreclaimable? no
lowmem_reserve[]: 0 0 0 158080
HighMem free:8913576kB min:512kB low:21588kB high:42664kB active:9123456kB inactive:1234567kB present:20232248kB pages_scanned:0 all_unreclaimable? no
lowmem_reserve[]: 0 0 0 0
DMA: 1*4kB 0*8kB 4*16kB 3*32kB 2*64kB 2*128kB 1*256kB 1*512kB 0*1024kB 1*2048kB 0*4096kB = 3396kB
DMA32: empty
Normal: empty
HighMem: 134889*4kB 27382*8kB 1314*16kB 122*32kB 95*64kB 88*128kB 23*256kB 0*512kB 1*1024kB 0*2048kB 0*4096kB = 807796kB
Free swap  = 6976136kB
Total swap = 8385824kB
5244928 pages of RAM
5058562 pages of HIGHMEM
`

// h17aPrefix puts prefix before every line of text (quoteLines with any prefix).
func h17aPrefix(text, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n"+prefix) + "\n"
}

func TestH17aOOMLowmem(t *testing.T) {
	report := "oracle invoked oom-killer: gfp_mask=0xd0, order=0, oomkilladj=0\n" + h17aLowmemZones +
		"Out of memory: Killed process 7919, UID 504, (oracle).\n"
	for name, text := range map[string]string{
		"bare":   report,
		"syslog": h17aPrefix(report, "Oct 27 18:00:02 db1 kernel: "),
		"mail":   h17aPrefix(report, "> "),
	} {
		f := mustFire(t, run(t, "alloc-fail-lowmem", parseText19b(t, text)), Critical)
		if !evidenceHas(f, "OOM reports", "oracle") || !evidenceHas(f, "GFP mode", "0xd0") ||
			!evidenceHas(f, "zone DMA", "free 3396 kB, min 3452 kB") || !evidenceHas(f, "zone HighMem", "free 8913576 kB") {
			t.Errorf("%s: %+v", name, f.Evidence)
		}
	}
	// 1904's own shape: the kill line without its header, the zone lines quoted apart, the
	// HighMem line cut before its low watermark.
	split := "kernel: Normal: empty\nkernel: HighMem: 134889*4kB 27382*8kB 1314*16kB 122*32kB 95*64kB 88*128kB 23*256kB 0*512kB 1*1024kB 0*2048kB 0*4096kB = 807796kB\nkernel: Free swap = 6976136kB\nkernel: Total swap = 8385824kB\n" +
		"kernel: 5244928 pages of RAM\nkernel: 5058562 pages of HIGHMEM\n" +
		"kernel: Out of memory: Killed process 7919, UID 504 oracle\n" +
		"The message log of Xen guest shows the following:\n" +
		"kernel: DMA free:3396kB min:3452kB low:4312kB high:5176kB active:1228kB inactive:1268kB present:745464kB pages_scanned:150129 all_unreclaimable? yes\n" +
		"kernel: lowmem_reserve[]: 0 0 0 19760\n" +
		"kernel: HighMem free:8913576kB min:512kB low:2"
	// The cut line is the paste's last, or followed by what came after the cut (a closing tag,
	// a prompt): its "low:2" lost the unit every watermark is printed with.
	for _, text := range []string{split, split + "\n</details>\n", split + "\n$ \n"} {
		f := mustFire(t, run(t, "alloc-fail-lowmem", parseText19b(t, text)), Critical)
		if !evidenceHas(f, "GFP mode", "not in the input") || !evidenceHas(f, "zone DMA", "free 3396 kB, min 3452 kB") || !evidenceHas(f, "zone HighMem", "free 8913576 kB") {
			t.Errorf("split %q: %+v", text[len(text)-12:], f.Evidence)
		}
	}
}

func TestH17aOOMLowmemCounterCases(t *testing.T) {
	quiet := map[string]string{
		// 64-bit: no HighMem, every zone short: an ordinary OOM.
		"64-bit": "java invoked oom-killer: gfp_mask=0x201da, order=0, oom_score_adj=0\nMem-Info:\n" +
			"Node 0 DMA free:15908kB min:128kB low:160kB high:192kB present:15992kB managed:15908kB all_unreclaimable? yes\n" +
			"lowmem_reserve[]: 0 2967 7945 7945\n" +
			"Node 0 DMA32 free:44360kB min:24900kB low:31124kB high:37348kB present:3129216kB managed:3040620kB all_unreclaimable? yes\n" +
			"lowmem_reserve[]: 0 0 4978 4978\n" +
			"Node 0 Normal free:41184kB min:41784kB low:52228kB high:62676kB present:5242880kB managed:5098136kB all_unreclaimable? yes\n" +
			"lowmem_reserve[]: 0 0 0 0\n" +
			"Out of memory: Kill process 1234 (java) score 900 or sacrifice child\nKilled process 1234 (java) total-vm:9000000kB, anon-rss:7000000kB, file-rss:0kB\n",
		// A HighMem-capable user page fault (GFP_HIGHUSER: __GFP_HIGHMEM) with Normal above min.
		"highuser fault": "httpd invoked oom-killer: gfp_mask=0x201d2, order=0, oomkilladj=0\n" +
			strings.Replace(h17aLowmemZones, "DMA free:3396kB min:3452kB", "DMA free:9396kB min:3452kB", 1) +
			"Out of memory: Killed process 4321 (httpd).\n",
		// The same mode with lowmem short: the request could have used HighMem.
		"highuser lowmem short": "httpd invoked oom-killer: gfp_mask=0x201d2, order=0, oomkilladj=0\n" + h17aLowmemZones +
			"Out of memory: Killed process 4321 (httpd).\n",
		// A lowmem-only mode with HighMem short too: the whole machine was out of memory.
		"highmem short too": "oracle invoked oom-killer: gfp_mask=0xd0, order=0, oomkilladj=0\n" +
			strings.Replace(h17aLowmemZones, "HighMem free:8913576kB", "HighMem free:500kB", 1) +
			"Out of memory: Killed process 7919, UID 504, (oracle).\n",
		// A memory cgroup's OOM: its limit, not the zones.
		"memcg": "oracle invoked oom-killer: gfp_mask=0xd0, order=0, oom_score_adj=0\n" +
			"memory: usage 524288kB, limit 524288kB, failcnt 12\n" + h17aLowmemZones +
			"Memory cgroup out of memory: Killed process 7919 (oracle)\n",
		// Corpus 1903's zone lines: every zone above its min (DMA all_unreclaimable but with room).
		"1903 zones": "DMA free:2832kB min:76kB low:92kB high:112kB active_anon:0kB inactive_anon:0kB present:16256kB slab_unreclaimable:7344kB pages_scanned:0 all_unreclaimable? yes\n" +
			"lowmem_reserve[]: 0 698 2016 2016\n" +
			"Normal free:180036kB min:3340kB low:4172kB high:5008kB active_anon:0kB inactive_anon:0kB present:693240kB slab_unreclaimable:385960kB pages_scanned:0 all_unreclaimable? no\n" +
			"lowmem_reserve[]: 0 0 10540 10540\n" +
			"HighMem free:829152kB min:512kB low:2132kB high:3756kB active_anon:181880kB inactive_anon:64204kB present:1357380kB pages_scanned:0 all_unreclaimable? no\n" +
			"lowmem_reserve[]: 0 0 0 0\n",
	}
	quiet["1903 zones with a kill line"] = quiet["1903 zones"] + "Out of memory: Killed process 2345 (xapi).\n"
	for name, text := range quiet {
		res := run(t, "alloc-fail-lowmem", parseText19b(t, text))
		if len(res.Findings) > 0 {
			t.Errorf("%s: fired: %+v", name, res.Findings[0].Evidence)
		}
	}
}
