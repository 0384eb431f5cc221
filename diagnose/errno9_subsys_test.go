package diagnose

import (
	"strings"
	"testing"

	"headroom/model"
)

// Pre-round 6 (errno9, class a): a subsystem's or a driver's own words for a failed
// allocation (kernel.ParseSubsysAllocFailure) are allocation failures of the host whose
// order, mode and zones are unsaid: no rule of the alloc-fail family may call the log clean
// (before: "no page allocation failure among 2 kernel log records"), and none fires a cause
// it cannot show. A line that is no failure of memory (an IRQ vector) leaves them healthy.
func TestAllocFailSubsystemWordsAreNotClean(t *testing.T) {
	for _, msgs := range [][]string{
		{"libceph: osd3 10.0.0.3:6800 failed to allocate message: -12"},
		{"LNetError: 2345:0:(lib-move.c:1234:lnet_post_send_locked()) LNET: out of memory at lib-move.c:1234 (tried to alloc 'msg' = 4096)"},
		{"ath10k_pci 0000:02:00.0: failed to refill rx ring: -12"},
		{"iwlwifi 0000:03:00.0: Failed to alloc_pages with GFP_ATOMIC. Only 0 free buffers remaining."},
		{"mlx5_core 0000:3b:00.0 eth0: __netdev_alloc_skb failed"},
		{"RPC: xprt_alloc_slot: failed to allocate request"},
	} {
		for _, id := range allocClasses {
			tl := memTextTimeline()
			for i, m := range msgs {
				tl.Log.Append(model.LogRecord{Message: m}.WithSource("line " + string(rune('1'+i))))
			}
			mustNotCheck(t, run(t, id, tl), "own words")
		}
	}
	for _, id := range allocClasses {
		tl := memTextTimeline()
		tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "nvme nvme0: failed to allocate IRQ vectors"}.WithSource("line 1")})
		mustBeHealthy(t, run(t, id, tl))
	}
}

// Class b: kills by other killers (model.OOMScopeLowMemKiller) are reported as theirs, never
// as the kernel's OOM killer: no host/cgroup scope for the story, the title names the killer;
// Android's kills of cached apps (oom_score_adj ≥ 900) are the phone freeing memory by
// design (Info, no alarm); a kill of a foreground app or by systemd-oomd is a Warning. With
// the kernel's own report in the input, that report decides the title and scope.
func TestLowMemKillerKillsAreNotTheKernels(t *testing.T) {
	adj := func(v int) *int { return &v }
	lmk := func(victim string, a *int, reporter string) model.RuntimeOOM {
		return model.RuntimeOOM{Scope: model.OOMScopeLowMemKiller, Reporter: reporter, Victim: victim, PID: 42, OOMScoreAdj: a, Count: 1, Source: "line 1"}
	}
	tl := memTextTimeline()
	tl.RuntimeOOMs = []model.RuntimeOOM{lmk("com.example.cached", adj(906), "Android's lmkd")}
	f := mustFire(t, run(t, "oom-kill", tl), Info)
	if f.Facts.OOM != "" || !strings.Contains(f.Title, "lmkd") {
		t.Errorf("cached app: scope %q title %q", f.Facts.OOM, f.Title)
	}
	tl.RuntimeOOMs = append(tl.RuntimeOOMs, lmk("com.example.foreground", adj(0), "Android's lmkd"))
	f = mustFire(t, run(t, "oom-kill", tl), Warning)
	if f.Facts.OOM != "" || !strings.Contains(f.Title, "not the kernel's OOM killer") {
		t.Errorf("foreground app: scope %q title %q", f.Facts.OOM, f.Title)
	}
	tl.RuntimeOOMs = []model.RuntimeOOM{lmk("/user.slice/app.scope", nil, "systemd-oomd (memory pressure)")}
	f = mustFire(t, run(t, "oom-kill", tl), Warning)
	if f.Facts.OOM != "" || !strings.Contains(f.Title, "systemd-oomd") {
		t.Errorf("oomd: scope %q title %q", f.Facts.OOM, f.Title)
	}
}

// TestBoardsPoolExhaustionIsNotChecked (pre-round 8, boards): a CMA area, the atomic DMA
// coherent pool or the swiotlb bounce buffer that ran out leaves the alloc-fail family not
// checked, naming the pool, never healthy (before: the DMA pool's and swiotlb's lines left it
// healthy) and never a buddy-allocator cause; usbnet's deferred RX refill (kevent 2) is a
// receive-path failure in the driver's words.
func TestBoardsPoolExhaustionIsNotChecked(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{"cma: cma_alloc: alloc failed, req-size: 8192 pages, ret: -12", "CMA area"},
		{"Failed to get suitable pool for fe300000.mmcnr", "atomic DMA coherent pool"},
		{"nvme 0000:01:00.0: swiotlb buffer is full (sz: 65536 bytes), total 32768 (slots), used 32700 (slots)", "swiotlb bounce buffer"},
		{"smsc95xx 1-1.1:1.0 eth0: kevent 2 may have been dropped", "receive path"},
		// Pre-round 16 (h16b): Xen's netback frames and a domain's grant table.
		{"xen_net: Memory squeeze in netback driver.", "Xen machine frames for netback"},
		{"xen:grant_table: xen/grant-table: max_grant_frames reached cur=32 extra=1 limit=32 gnttab_free_count=0 req_entries=24", "max_grant_frames"},
	} {
		for _, id := range allocClasses {
			tl := memTextTimeline()
			tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: c.msg}.WithSource("line 1")})
			r := run(t, id, tl)
			mustNotCheck(t, r, c.want)
		}
	}
	for _, id := range allocClasses {
		tl := memTextTimeline()
		tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "lan78xx 1-1.1.1:1.0 eth0: kevent 4 may have been dropped"}.WithSource("line 1")})
		mustBeHealthy(t, run(t, id, tl))
	}
}
