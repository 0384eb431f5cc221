package diagnose

import "testing"

// Pre-round 25 hardening (h25a), blind to round 25's batches: router firmwares' kernel lines
// under their syslogds' forms (AsusWRT-Merlin's syslogd -S without a host, BusyBox's
// "kern.warn kernel:" with a host), from the kernel's and Broadcom's format strings.

func TestH25aBroadcomPktGetReachesAllocFamily(t *testing.T) {
	for _, text := range []string{
		"Nov 30 08:01:22 kernel: dhd_prot_rxbuf_post: PKTGET failed\nNov 30 08:01:22 kernel: dhd_prot_rxbuf_post: PKTGET failed\n",
		"Jan  1 00:02:11 DD-WRT kern.err kernel: [  131.220000] dhd_prot_rxbuf_post: PKTGET failed\n",
	} {
		tl := pasteTimeline(t, text)
		mustNotCheck(t, run(t, "alloc-fail-reserve", tl), "PKTGET failed")
	}
	// A PCI BAR the kernel could not place is no memory shortage: the family stays clean.
	tl := pasteTimeline(t, "[    0.812345] pci 0000:00:00.0: BAR 8: failed to assign [mem size 0x00200000]\n[    0.812360] pci 0000:00:00.0: BAR 8: no space for [mem size 0x00200000]\n")
	mustBeHealthy(t, run(t, "alloc-fail-reserve", tl))
}

func TestH25aConntrackTableVsExpectation(t *testing.T) {
	tl := pasteTimeline(t, "Nov 30 10:12:01 kernel: nf_conntrack: table full, dropping packet\nNov 30 10:12:06 kernel: nf_conntrack: table full, dropping packet\n")
	f := mustFire(t, run(t, "conntrack-full", tl), Critical)
	if !evidenceHas(f, "", "2×") {
		t.Errorf("conntrack-full evidence %+v, want the 2 drops", f.Evidence)
	}
	// The helpers' expectation table is another table (nf_conntrack_expect_max): no
	// conntrack-full.
	tl = pasteTimeline(t, "Jun 23 21:33:47 kernel: nf_conntrack: expectation table full\nJun 23 21:33:52 kernel: nf_conntrack: expectation table full\n")
	if res := run(t, "conntrack-full", tl); len(res.Findings) != 0 {
		t.Errorf("expectation table full fired conntrack-full: %+v", res.Findings)
	}
}
