package diagnose

import (
	"testing"

	"headroom/kernel"
	"headroom/model"
)

// The rule sides of the format classes held-out batches g14-g17 found (corpus 563-652);
// each test failed before its change.

// udp-rcvbuf-errors judges a pasted /proc/net/udp table's per-socket drops when the Udp
// counters are not in the input (corpus 621). Before: not checked.
func TestUDPSocketTableDrops(t *testing.T) {
	tl := timeline(1)
	tl.UDPSockets = []model.UDPSocketTable{{Source: "lines 8-16 (/proc/net/udp)", Rows: []kernel.UDPSocketRow{
		{LocalPort: 42852, Inode: 1233745615, HasDrops: true},
		{LocalPort: 9002, Inode: 1326199616, RxQueue: 1073741760, Drops: 1875166813, HasDrops: true},
	}}}
	f := mustFire(t, run(t, "udp-rcvbuf-errors", tl), Warning)
	if !evidenceHas(f, "port 9002", "1875166813 datagrams dropped") {
		t.Errorf("evidence %+v", f.Evidence)
	}
	tl.UDPSockets[0].Rows[1].Drops = 0
	mustBeHealthy(t, run(t, "udp-rcvbuf-errors", tl))
	// A pre-2.6.27 table has no drops column: nothing to judge.
	tl.UDPSockets[0].Rows = []kernel.UDPSocketRow{{LocalPort: 514}}
	mustNotCheck(t, run(t, "udp-rcvbuf-errors", tl), "RcvbufErrors")
}

// overcommit-exposed judges Committed_AS against RAM + swap when CommitLimit is not in the
// input (sar -r prints kbcommit and shares, corpus 642). Before: not checked.
func TestOvercommitWithoutCommitLimit(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].MemInfo = &kernel.Counters{}
	tl.Samples[0].MemInfo.Set("Committed_AS", 4407680)
	tl.Samples[0].MemInfo.Set("MemTotal", 1006940)
	tl.Samples[0].MemInfo.Set("SwapTotal", 0)
	f := mustFire(t, run(t, "overcommit-exposed", tl), Info)
	if !evidenceHas(f, "Committed_AS", "4.2 GiB") {
		t.Errorf("evidence %+v", f.Evidence)
	}
	tl.Samples[0].MemInfo.Set("Committed_AS", 900000)
	mustBeHealthy(t, run(t, "overcommit-exposed", tl))
}

// 4.12-5.12's "vmalloc: allocation failure: N bytes" is __vmalloc_node_range finding no
// address range (5.13 renamed it "vm_struct allocation failed"): an address-space failure.
// Before: the line was not among the not-physical needles and nothing was judged.
func TestVmallocAddressSpaceLineOld(t *testing.T) {
	tl := memTextTimeline()
	tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "insmod: vmalloc: allocation failure: 4194304 bytes, mode:0x24000c2(GFP_KERNEL|__GFP_HIGHMEM)"}.WithSource("line 2")})
	f := mustFire(t, run(t, classNotPhysical, tl), Warning)
	if !evidenceHas(f, "address-space failures", "vmalloc: allocation failure") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
}

// SUnreclaim of 1 GiB or more without the memory size is named (info), as a slab table's
// kmalloc caches are (corpus 580: 12.8 GiB from a health check). Before: not checked below
// 16 GiB.
func TestSlabUnreclaimableNamedWithoutMemorySize(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].MemInfo = &kernel.Counters{}
	tl.Samples[0].MemInfo.Set("SUnreclaim", 13424716)
	f := mustFire(t, run(t, "slab-unreclaimable-growth", tl), Info)
	if !evidenceHas(f, "without the memory size", "12.8 GiB") {
		t.Errorf("evidence %+v", f.Evidence)
	}
	tl.Samples[0].MemInfo.Set("SUnreclaim", 500000)
	mustNotCheck(t, run(t, "slab-unreclaimable-growth", tl), "memory size")
}

// A negative memory.available from an observation line has no threshold; the evidence says
// so instead of naming an empty one.
func TestKubeletNegativeObservationWithoutThreshold(t *testing.T) {
	tl := timeline(1)
	b := int64(-2097758044639028 * 1024)
	tl.KubeletSignals = []model.KubeletSignal{{Signal: "memory.available", Observed: "-2097758044639028Ki", ObservedBytes: &b, Source: "kubelet log line 3"}}
	f := mustFire(t, run(t, "kubelet-eviction-signal", tl), Warning)
	if !evidenceHas(f, "memory.available", "without its threshold") {
		t.Errorf("evidence %+v", f.Evidence)
	}
}
