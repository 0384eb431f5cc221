package diagnose

import (
	"strings"
	"testing"
	"time"

	"headroom/kernel"
	"headroom/model"
)

// Issue 18, item 4: only current evidence changes the host.

// The live host of the issue: old "too many orphaned sockets" lines in the kernel log, no
// orphans now, tcp_max_orphans 131072. doctor must report the lines as history with their
// age, and propose no change (tune had proposed tcp_max_orphans 131072 → 753).
func TestOldOrphanLogLinesProposeNoChange(t *testing.T) {
	tl := timeline(2)
	host64(tl)
	tl.Host.Sysctls["net.ipv4.tcp_max_orphans"] = "131072"
	tl.Host.Sysctls["net.ipv4.tcp_wmem"] = "4096 16384 4194304"
	for i := range tl.Samples {
		tl.Samples[i].SockStat = kernel.Groups{group("TCP", "inuse", 40, "orphan", 0)}
	}
	tl.LogCurrentSince = t0.Add(-time.Hour)
	old := t0.Add(-3*24*time.Hour - 5*time.Hour)
	tl.Log = []model.LogRecord{
		{Time: old, Message: "TCP: too many orphaned sockets", Source: "/dev/kmsg seq 10"},
		{Time: old.Add(time.Minute), Message: "TCP: too many orphaned sockets", Source: "/dev/kmsg seq 11"},
	}
	d := Run(tl, nil)
	var f *Finding
	for i := range d.Findings {
		if d.Findings[i].ID == "orphan-send-queues" {
			f = &d.Findings[i]
		}
	}
	if f == nil {
		t.Fatalf("no orphan finding: %+v", d.Findings)
	}
	if f.Severity != Info || len(f.Changes) != 0 {
		t.Errorf("history finding: severity %v, changes %+v", f.Severity, f.Changes)
	}
	// The newest line is 3 d 4 h 59 min older than the first sample.
	if !evidenceHas(*f, "when", "newest line 3d4h59m before the first sample") {
		t.Errorf("evidence lacks the age: %+v", f.Evidence)
	}
	for _, f := range d.Findings {
		for _, c := range f.Changes {
			if c.Key == "net.ipv4.tcp_max_orphans" {
				t.Errorf("%s proposes %s → %s", f.ID, c.Current, c.Recommended)
			}
		}
	}
}

// A current log line without a measured hoard or orphan count is still critical, but it
// proposes no change either: lowering the orphan limit because the limit was hit would only
// reset more connections.
func TestOrphanLogLineAloneProposesNoChange(t *testing.T) {
	tl := timeline(1)
	host64(tl)
	tl.Host.Sysctls["net.ipv4.tcp_max_orphans"] = "131072"
	tl.Host.Sysctls["net.ipv4.tcp_wmem"] = "4096 16384 4194304"
	tl.Log = []model.LogRecord{{Message: "TCP: too many orphaned sockets", Source: "line 9"}}
	f := mustFire(t, run(t, "orphan-send-queues", tl), Critical)
	if len(f.Changes) != 0 {
		t.Errorf("changes from a log line alone: %+v", f.Changes)
	}
}

// Since-boot counters that did not move while sampled never produce a change: RX ring losses
// from long ago do not justify an ethtool -G that resets the link.
func TestNICRingLossesThatDidNotMoveProposeNoChange(t *testing.T) {
	tl := timeline(3)
	tl.Host.NICs = []kernel.NIC{{Name: "eth0", SpeedMbps: 1000, MTU: 1500}}
	for i := range tl.Samples {
		tl.Samples[i].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 1000000+i*1000, "rx_missed_errors", 40)}
		tl.Samples[i].NICStats = []kernel.NICStats{{Name: "eth0", Ring: &kernel.Ring{Rx: 256, RxMax: 4096}}}
	}
	f := mustFire(t, run(t, "nic-ring-below-max", tl), Info)
	if len(f.Changes) != 0 || !evidenceHas(f, "frames lost", "none while sampled") {
		t.Errorf("unmoved losses: changes %+v evidence %+v", f.Changes, f.Evidence)
	}
	// The same losses growing while sampled do.
	tl.Samples[2].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 1003000, "rx_missed_errors", 90)}
	f = mustFire(t, run(t, "nic-ring-below-max", tl), Warning)
	if len(f.Changes) != 1 || !strings.Contains(f.Changes[0].Key, "eth0 rx") {
		t.Errorf("growing losses: changes %+v", f.Changes)
	}
}
