package diagnose

import (
	"fmt"
	"testing"
)

var sprintf = fmt.Sprintf // fix21c

// fix21c (round 16, g81): a show_mem dump of which only the zone lines survive (no report
// header, no Mem-Info line) still states each zone's slab_unreclaimable (2.6.32+); and "had
// OOM-killer fire" states a kill.

const fix21cZones = "kernel: [2091564.79] DMA free:2832kB min:76kB low:92kB high:112kB active_anon:0kB inactive_anon:0kB present:16256kB slab_reclaimable:144kB slab_unreclaimable:7344kB kernel_stack:0kB pages_scanned:0 all_unreclaimable? yes\n" +
	"kernel: [2091564.79] lowmem_reserve[]: 0 698 2016 2016\n" +
	"kernel: [2091564.79] Normal free:180036kB min:3340kB low:4172kB high:5008kB active_anon:0kB inactive_anon:0kB present:693240kB slab_reclaimable:14988kB slab_unreclaimable:%dkB kernel_stack:3568kB pages_scanned:0 all_unreclaimable? no\n" +
	"kernel: [2091564.79] lowmem_reserve[]: 0 0 10540 10540\n" +
	"kernel: [2091564.79] HighMem free:829152kB min:512kB low:2132kB high:3756kB active_anon:181880kB present:1357380kB slab_reclaimable:0kB slab_unreclaimable:0kB kernel_stack:0kB pages_scanned:0 all_unreclaimable? no\n"

func TestFix21cZoneLinesSlabJudged(t *testing.T) {
	d := h16aRun(t, sprintf(fix21cZones, 385960))
	fs := findings(d, "slab-unreclaimable-growth")
	if len(fs) == 0 || fs[0].Severity != Critical {
		t.Fatalf("want a critical slab-unreclaimable-growth from the zone lines, got %+v", fs)
	}
	// The same zones with little slab: judged healthy, not fired.
	d = h16aRun(t, sprintf(fix21cZones, 20000))
	if fs := findings(d, "slab-unreclaimable-growth"); len(fs) != 0 {
		t.Errorf("small slab fired: %+v", fs)
	}
	if c := h16aCheck(d, "slab-unreclaimable-growth"); c.Status != StatusOK {
		t.Errorf("small slab: want healthy, got %+v", c)
	}
}

func TestFix21cOOMKillerFireStated(t *testing.T) {
	for _, text := range []string{
		"We run XenServer and recently had OOM-killer fire and eventually take down one of our blades.\n",
		"Last night the oom killer fired twice on the database host.\n",
	} {
		if fs := findings(h16aRun(t, text), "oom-kill"); len(fs) == 0 {
			t.Errorf("%q: want oom-kill stated", text)
		}
	}
	for _, text := range []string{
		"If the OOM killer fires, it picks the process with the highest score.\n",
		"We never had the OOM killer fire on this host.\n",
		"The OOM killer fires when no memory can be reclaimed.\n",
		"The log helps determine why the OOM-killer was invoked and to identify the task.\n",
	} {
		if fs := findings(h16aRun(t, text), "oom-kill"); len(fs) != 0 {
			t.Errorf("%q: oom-kill fired: %+v", text, fs)
		}
	}
}

// A syslog grep cut to the tag of a kernel without printk stamps (RHEL5): "kernel: DMA
// free:..." is the kernel's show_mem line, wrapped lines and all; the page size an earlier
// dump's buddy line gave reads a later dump of zone lines alone.
func TestFix21cBareKernelTagShowMem(t *testing.T) {
	text := "kernel: HighMem: 134889*4kB 27382*8kB 1314*16kB 0*4096kB = 807796kB\n" +
		"kernel: 5244928 pages of RAM\nkernel: 5058562 pages of HIGHMEM\n" +
		"The log shows:\n" +
		"kernel: DMA free:3396kB min:3452kB\nlow:4312kB high:5176kB active:1228kB inactive:1268kB present:745464kB\n" +
		"pages_scanned:150129 all_unreclaimable? yes\nkernel: lowmem_reserve[]: 0 0 0 19760\n"
	d := h16aRun(t, text)
	if fs := findings(d, "zone-reserve-low"); len(fs) == 0 {
		t.Errorf("want zone-reserve-low from the tag-only zone lines, got %+v", h16aCheck(d, "zone-reserve-low"))
	}
	// The tag before words that are no show_mem line stays unread as a kernel dump.
	for _, text := range []string{
		"kernel: 2.6.18-398.el5xen\nkernel: DMA is the first zone, min is its watermark\n",
	} {
		d := h16aRun(t, text)
		if c := h16aCheck(d, "zone-reserve-low"); c.Status == StatusOK || len(findings(d, "zone-reserve-low")) > 0 {
			t.Errorf("%q: zone-reserve-low judged: %+v", text, c)
		}
	}
}
