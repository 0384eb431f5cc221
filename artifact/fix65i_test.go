package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// g258 (acrn-kernel PR 173): a warn_alloc report in a commit message wrapped at 72 columns.
// The header's "nodemask=(null)" and the release cut from the task line stay in the report,
// the 4.x cpuset line names the allocating task, and the call trace is read.
func TestFix65iWrappedAllocHeader(t *testing.T) {
	const rep = `page allocation failure: order:9, mode:0x6000c0(GFP_KERNEL),
nodemask=(null)
mevent cpuset=/ mems_allowed=0
CPU: 0 PID: 537 Comm: mevent Tainted: G     U  WC
4.19.8-1901020539.iot-lts2018-sos #1
Call Trace:
 dump_stack+0x8e/0xca
 warn_alloc.cold.125+0x62/0xe3
 ? __alloc_pages_direct_compact+0x51/0x100
 __alloc_pages_slowpath+0xde1/0xe10
 __get_free_pages+0x15/0x40
 intel_vgpu_init_mmio+0x38/0xa0
`
	af := allocOf(t, rep)
	if af.Process != "mevent" || af.Order != 9 {
		t.Errorf("process %q order %d, want mevent 9", af.Process, af.Order)
	}
	if !strings.Contains(strings.Join(af.CallTrace, " "), "intel_vgpu_init_mmio") {
		t.Errorf("call trace %v", af.CallTrace)
	}
	// The header's own comm wins over a cpuset line; a cpuset line after the trace names no one.
	if af := allocOf(t, "kworker/0:1: page allocation failure: order:3, mode:0x20\nmevent cpuset=/ mems_allowed=0\n"); af.Process != "kworker/0:1" {
		t.Errorf("header comm replaced: %q", af.Process)
	}
	late := "page allocation failure: order:3, mode:0x20\nCall Trace:\n dump_stack+0x8e/0xca\nmevent cpuset=/ mems_allowed=0\n"
	if af := allocOf(t, late); af.Process == "mevent" {
		t.Errorf("a cpuset line after the trace named the task")
	}
}

func allocOf(t *testing.T, text string) *model.AllocFailure {
	t.Helper()
	tl := ParseString(text, "p", Options{})
	for _, ev := range tl.Events {
		if ev.AllocFailure != nil {
			return ev.AllocFailure
		}
	}
	t.Fatalf("no allocation failure in %q", text)
	return nil
}

// g262 (calico kube-controllers 375): a unit's ".service" syslog identifier is its program's
// tag: the kubelet's eviction manager under "kubelet.service[111916]:" is read.
func TestFix65lServiceTag(t *testing.T) {
	text := "May  1 21:00:28 worker-9002 kubelet.service[111916]: W0501 21:00:28.176199  111916 eviction_manager.go:344] eviction manager: attempting to reclaim memory\n" +
		"May  1 21:00:28 worker-9002 kubelet.service[111916]: I0501 21:00:28.176266  111916 eviction_manager.go:358] eviction manager: must evict pod(s) to reclaim memory\n"
	tl := ParseString(text, "p", Options{})
	if !hasArtifactKind(tl, KindKubeletEviction) {
		t.Errorf("kubelet.service lines not read: %v", kindsOf(tl))
	}
	if got := unitTag(".service"); got != ".service" {
		t.Errorf("unitTag(.service) = %q", got)
	}
}

// g261 (lkml 2006, a 1 GB VIA EPIA box): a 32-bit kernel built with HIGHMEM prints an empty
// HighMem zone; the host has no HighMem. A HighMem zone that holds memory still says so.
func TestFix65oEmptyHighMemZone(t *testing.T) {
	dump := "Normal free:9656kB min:3756kB low:4692kB high:5632kB active:593312kB inactive:116408kB present:901120kB pages_scanned:37 all_unreclaimable? no\n" +
		"lowmem_reserve[]: 0 0 0 0\n" +
		"HighMem free:0kB min:128kB low:128kB high:128kB active:0kB inactive:0kB present:0kB pages_scanned:0 all_unreclaimable? no\n" +
		"lowmem_reserve[]: 0 0 0 0\n" +
		"Normal: 1910*4kB 106*8kB 61*16kB 0*32kB 1*64kB 1*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 9656kB\n" +
		"HighMem: empty\n"
	if h := ParseString(dump, "p", Options{}).Host; h.HighMem != nil && *h.HighMem {
		t.Errorf("an empty HighMem zone made the host HighMem")
	}
	held := strings.Replace(dump, "HighMem free:0kB", "HighMem free:1200kB", 1)
	held = strings.Replace(held, "present:0kB", "present:131072kB", 1)
	if h := ParseString(held, "p", Options{}).Host; h.HighMem == nil || !*h.HighMem {
		t.Errorf("a HighMem zone with 128 MiB present did not make the host HighMem")
	}
}
