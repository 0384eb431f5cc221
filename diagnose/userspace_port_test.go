package diagnose

import (
	"slices"
	"strings"
	"testing"
)

// A port that a user-space driver owns (DPDK) is not on the kernel's receive path: the story
// must not blame the kernel's ring, softnet or allocator for its loss, must not ask the host
// for ethtool -g or a capture, and must say its counters run from the port's start.
func TestUserSpacePortLossHasNoKernelCause(t *testing.T) {
	// l2fwd's periodic statistics (examples/l2fwd/main.c print_stats), two readings.
	const dpdk = `Port statistics ====================================
Statistics for port 1 ------------------------------
Packets sent:                  1000
Packets received:              90000
Packets dropped:                  0
Aggregate statistics ===============================

Port statistics ====================================
Statistics for port 1 ------------------------------
Packets sent:                  2000
Packets received:              180000
Packets dropped:                  0
imissed:             4100      ierrors:                0
Aggregate statistics ===============================
`
	tl := pasteTimeline(t, strings.Replace(dpdk, "Packets dropped:                  0\nAggregate", "Packets dropped:                  0\nimissed:             1100      ierrors:                0\nAggregate", 1))
	d := Run(tl, nil)
	f := findingOf(d, "nic-rx-overruns")
	if f == nil {
		t.Fatalf("no nic-rx-overruns on a DPDK port's imissed growth: %+v", d.Findings)
	}
	if !f.Facts.UserSpacePort {
		t.Errorf("finding does not know the port is a user-space driver's")
	}
	if !evidenceHas(*f, "rx_missed_errors", "4100 since the port started, +3000 between the readings") {
		t.Errorf("evidence should count from the port's start and between the readings: %+v", f.Evidence)
	}
	for _, e := range f.Evidence {
		if e.Source == "/proc/net/dev" {
			t.Errorf("a DPDK port's evidence cites /proc/net/dev: %+v", e)
		}
	}
	s := d.Story
	if u := strings.Join(s.Undecided, " "); !strings.Contains(u, "user space (DPDK)") || strings.Contains(u, "softnet-squeeze could not be checked") {
		t.Errorf("undecided should name the user-space port, not the kernel's causes: %v", s.Undecided)
	}
	if nextHas(s, "ethtool -g") || nextHas(s, "softnet_stat") || nextHas(s, "headroom capture") {
		t.Errorf("next evidence asks the kernel about a user-space port: %+v", s.NextEvidence)
	}
	if !nextHas(s, "show rxq info") {
		t.Errorf("next evidence should ask the application for its RX descriptors: %+v", s.NextEvidence)
	}
}

// The same loss on a kernel driver's interface keeps the kernel's questions: the difference
// above is the port's owner, not the counter.
func TestKernelPortLossKeepsKernelCauses(t *testing.T) {
	const two = `$ ip -s -s link show eth0
2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP mode DEFAULT group default qlen 1000
    link/ether 00:11:22:33:44:55 brd ff:ff:ff:ff:ff:ff
    RX: bytes  packets  errors  dropped missed  mcast
    9000000    90000    0       0       MISSED  0
    RX errors: length   crc     frame   fifo    overrun
               0        0       0       0       0
    TX: bytes  packets  errors  dropped carrier collsns
    100000     1000     0       0       0       0
`
	text := strings.Replace(two, "MISSED", "1100", 1) + "\n" + strings.Replace(strings.Replace(two, "MISSED", "4100", 1), "90000 ", "180000", 1)
	d := Run(pasteTimeline(t, text), nil)
	f := findingOf(d, "nic-rx-overruns")
	if f == nil {
		t.Fatalf("no nic-rx-overruns on a kernel interface's missed growth: %+v", d.Findings)
	}
	if f.Facts.UserSpacePort {
		t.Errorf("a kernel interface taken for a user-space port")
	}
	if !nextHas(d.Story, "ethtool -g") {
		t.Errorf("a kernel interface's loss should ask for its ring: %+v", d.Story.NextEvidence)
	}
}

// The edges: no kernel cause links to a user-space port's loss, even when the host shows it.
func TestUserSpacePortTakesNoKernelEdge(t *testing.T) {
	for _, user := range []bool{false, true} {
		s := Tell([]Finding{
			{ID: "softnet-squeeze", Severity: Warning},
			{ID: "nic-rx-overruns", Severity: Warning, Facts: Facts{UserSpacePort: user}},
		})
		linked := slices.ContainsFunc(s.Chains, func(c Chain) bool {
			return c.Root == "softnet-squeeze" && slices.ContainsFunc(c.Links, func(l Link) bool { return l.ID == "nic-rx-overruns" })
		})
		if linked == user {
			t.Errorf("user-space port %v: softnet-squeeze explains the loss = %v", user, linked)
		}
	}
}
