package lab

import (
	"slices"
	"testing"
	"time"
)

// TestDropReasonsOnDebian61 runs drop-reasons: doctor --trace inside Debian's 6.1 guest must
// count FULL_RING (an unread tun's ring) and SOCKET_RCVBUFF (a 4 KiB UDP buffer) as the
// guest kernel's own counters count them, cite each in its finding, and leave no tracing
// behind; the guest's reason table must lack PFMEMALLOC (6.17+) and hold NOMEM and
// FULL_RING. 74-79 s under TCG on the shared 2-CPU machine (boot 36 s of it). Needs root,
// QEMU and the kernel (make vmkernels).
func TestDropReasonsOnDebian61(t *testing.T) {
	sc := guestScenario(t, "drop-reasons", "debian-6.1-amd64", "qemu-system-x86_64")
	rep := runGuestChecked(t, sc, "debian-6.1-amd64", 5*time.Minute)
	t.Logf("boot %.1f s, run %.1f s under %s", rep.BootSec, rep.RunSec, rep.Accel)
	for _, s := range rep.Summary {
		t.Log(s)
	}
	d := rep.Details.(*DropReasonsDetails)
	h := d.Helper
	full, rcv := d.Counted["FULL_RING"], d.Counted["SOCKET_RCVBUFF"]
	if full < 1000 || float64(full) < 0.9*float64(h.TunTxDropped) || full > h.TunTxDropped {
		t.Errorf("FULL_RING traced %d; the tun's tx_dropped says %d", full, h.TunTxDropped)
	}
	if rcv < 1000 || float64(rcv) < 0.9*float64(h.RcvbufErrors) || rcv > h.RcvbufErrors {
		t.Errorf("SOCKET_RCVBUFF traced %d; Udp RcvbufErrors grew by %d", rcv, h.RcvbufErrors)
	}
	for _, w := range dropReasonsWant {
		if !d.Cited[w.reason] {
			t.Errorf("%s's first evidence does not cite the %d %s drops (findings %v)", w.finding, d.Counted[w.reason], w.reason, d.Findings)
		}
	}
	if !slices.Contains(d.Absent, "PFMEMALLOC") || slices.Contains(d.Absent, "NOMEM") || slices.Contains(d.Absent, "FULL_RING") {
		t.Errorf("6.1's reason table: absent %v; want PFMEMALLOC alone of PFMEMALLOC, NOMEM, FULL_RING", d.Absent)
	}
	if !d.HistTriggers {
		t.Errorf("Debian's 6.1 has hist triggers (CONFIG_HIST_TRIGGERS=y), but kfree_skb has no hist file")
	}
	if !d.Restored {
		t.Errorf("doctor --trace left an instance or kfree_skb enabled in the guest")
	}
	if !rep.OK {
		t.Errorf("not ok: %v", rep.Summary)
	}
}
