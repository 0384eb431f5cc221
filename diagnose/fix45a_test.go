package diagnose

import (
	"strings"
	"testing"
)

// fix45a (corpus 3764): mm/vmalloc.c __vmalloc_node_range refuses a request larger than all
// of RAM before it asks for a page ("vmalloc error: size %lu, exceeds total pages", through
// warn_alloc, 5.15+): an impossible size, alloc-fail-not-physical, never a zone short of pages.
func TestFix45aVmallocExceedsTotalPages(t *testing.T) {
	text := "Mar  9 07:50:47 Global-Dynamics kernel: tdarr-ffmpeg: vmalloc error: size 34359493648, exceeds total pages, mode:0xcc0(GFP_KERNEL), nodemask=(null),cpuset=f4c80627fd7c,mems_allowed=0\n" +
		"Mar  9 07:50:47 Global-Dynamics kernel: CPU: 22 PID: 9399 Comm: tdarr-ffmpeg Tainted: P        W  O      5.19.17-Unraid #2\n" +
		"Mar  9 07:50:47 Global-Dynamics kernel: Hardware name: Supermicro Super Server/X10SRL-F, BIOS 2.0 12/17/2015\n"
	tl := pasteTimeline(t, text)
	f := mustFire(t, run(t, classNotPhysical, tl), Warning)
	if !evidenceHas(f, "vmalloc requests larger than all of RAM", "size 34359493648, exceeds total pages") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	for _, id := range []string{"alloc-fail-fragmented", "alloc-fail-lowmem", "alloc-fail-reserve", "alloc-fail-zone-restricted", "oom-kill"} {
		if res := run(t, id, tl); len(res.Findings) > 0 {
			t.Errorf("%s fired on a vmalloc larger than RAM: %+v", id, res.Findings)
		}
	}
	// Counter-cases: vmalloc's page failure of the same prefix is a failure of pages (read
	// as an allocation report, not as this message), and a sentence naming the message in
	// prose is no kernel log.
	tl = pasteTimeline(t, "Jul 05 16:50:19 sumu kernel: crawl_27272_520: vmalloc error: size 14680064, page order 9, failed to allocate pages, mode:0xcc2(GFP_KERNEL|__GFP_HIGHMEM), nodemask=(null),cpuset=/,mems_allowed=0\n")
	for _, f := range run(t, classNotPhysical, tl).Findings {
		if evidenceHas(f, "vmalloc requests larger than all of RAM", "") {
			t.Errorf("page order failure named as larger than RAM: %+v", f.Evidence)
		}
	}
	tl = pasteTimeline(t, "What does \"vmalloc error: size N, exceeds total pages\" mean? Is my RAM too small?\n")
	if res := run(t, classNotPhysical, tl); len(res.Findings) > 0 {
		t.Errorf("a question fired: %+v", res.Findings)
	}
	if strings.Contains(vmallocOverRAM, "vmalloc error: size") {
		t.Errorf("vmallocOverRAM %q would match every vmalloc error", vmallocOverRAM)
	}
}
