package artifact

import (
	"strings"
	"testing"
)

// Pre-round 13 (h13a): capture sensors' own drop counters (unreadsensor.go) and the
// kernel's network-table messages quoted bare (unreadnettable.go), written from the format
// strings in the programs' and the kernel's source; none copied from a case.

func TestH13aSensorCaptureDropsNamed(t *testing.T) {
	for _, c := range []struct{ text, word string }{
		{"capture.kernel_packets                        | Total                     | 123456789\ncapture.kernel_drops                          | Total                     | 2345678\n", "capture.kernel_drops"},
		{"tcp.segment_memcap_drop                       | Total                     | 5678\n", "memory cap"},
		{"30/11/2026 -- 02:41:10 - <Error> - [ERRCODE: SC_ERR_FLOW_INIT(118)] - preallocating flows failed: max flow memcap reached. Memcap 33554432, Memuse 33554688.\n", "memory cap"},
		{"30/11/2026 -- 02:41:10 - <Notice> - Stats for 'eth0':  pkts: 8123456, drop: 412345 (5.08%), invalid chksum: 0\n", "LiveDeviceListClean"},
		{"30/11/2026 -- 02:41:10 - <Perf> - (RX#01-eth0) Kernel: Packets 8123456, dropped 412345\n", "tp_drops"},
		{"2026-11-30T02:41:10.123456Z stdout F 30/11/2026 -- 02:41:10 - <Notice> - Stats for 'eth0':  pkts: 8123456, drop: 412345 (5.08%), invalid chksum: 0\n", "LiveDeviceListClean"},
		{"Nov 30 02:41:10 sensor1 zeek[900]: 812345678 packets received on interface eth1, 41234 (0.01%) dropped, 0 (0.00%) not processed\n", "get_final_stats"},
		{"Nov 30 02:41:10 sensor1 suricata[2211]: [2211] <Perf> - (W#01-eth0) Kernel: Packets 8123456, dropped 412345\n", "tp_drops"},
		{"1796006400.123456\tCaptureLoss::Too_Much_Loss\tThe capture loss script detected an estimated loss rate above 5.076%\n", "capture-loss.zeek"},
		{"--------------------------------------------------\ndaq\n                    pcaps: 0\n                 received: 8123456\n                 analyzed: 7711111\n                  dropped: 412345\n", "DAQ"},
	} {
		tl := ParseString(c.text, "t", Options{})
		found := false
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, c.word) && strings.Contains(u.Why, "not the NIC's") || strings.Contains(u.Why, c.word) && strings.Contains(u.Why, "not the kernel's memory") || strings.Contains(u.Why, c.word) && strings.Contains(u.Why, "Zeek never saw") {
				found = true
			}
		}
		if !found || NothingRead(tl) && len(tl.Unparsed) == 0 {
			t.Errorf("%q: unparsed %+v: want named (%s) as the sensor's own", c.text, tl.Unparsed, c.word)
		}
		checkAccount(t, tl)
	}
	// Counter-cases: a sentence naming drops, another counter table's row, a stats.log row
	// of another counter, a "dropped:" row under another heading.
	for _, s := range []string{
		"Suricata drops packets when the ring is too small",
		"decoder.pkts                                  | Total                     | 121111111",
		"capture.kernel_drops is the counter to watch",
		"the interface dropped 412345 packets",
	} {
		if why, ok := sensorOwnLine(s); ok {
			t.Errorf("%q named as a sensor's counter: %s", s, why)
		}
	}
	tl := ParseString("udp\n                  dropped: 412345\n", "t", Options{})
	for _, u := range tl.Unparsed {
		if strings.Contains(u.Why, "DAQ") {
			t.Errorf("a dropped: row under another heading named as Snort's DAQ: %+v", u)
		}
	}
}

func TestH13aKernelNetTableQuotedBare(t *testing.T) {
	for _, c := range []struct{ text, word string }{
		{"Our nodes log this all day:\nneighbour: arp_cache: neighbor table overflow!\n", "gc_thresh3"},
		{"neighbour: ndisc_cache: neighbor table overflow!\n", "gc_thresh3"},
		{"IPVS: rr: TCP 10.96.0.10:53 - no destination available\n", "ip_vs_scheduler_err"},
		{"nf_conntrack: expectation table full\n", "nf_conntrack_expect_max"},
		{"Route cache is full: consider increasing sysctl net.ipv6.route.max_size.\n", "route.max_size"},
		{"Nov 30 02:41:10 lb1 kernel: IPVS: ip_vs_conn_new(): no memory\n", "atomic allocation"},
	} {
		tl := ParseString(c.text, "t", Options{})
		if !f15Unread(tl, c.word) {
			t.Errorf("%q: unparsed %+v: want named (%s)", c.text, tl.Unparsed, c.word)
		}
		checkAccount(t, tl)
	}
	// Stamped, they stay kernel log records (the log rules see them) and are listed too: a
	// run of them is one entry. Another stamped record ending in "!" is not listed.
	for _, text := range []string{
		"Nov 30 02:41:10 node3 kernel: [123456.789012] neighbour: arp_cache: neighbor table overflow!\nNov 30 02:41:11 node3 kernel: [123457.789012] neighbour: arp_cache: neighbor table overflow!\n",
		"[Mon Nov 30 02:41:10 2026] IPVS: rr: TCP 10.96.0.10:53 - no destination available\n",
	} {
		tl := ParseString(text, "t", Options{})
		if tl.Log.Len() == 0 || len(tl.Unparsed) != 1 || !strings.Contains(tl.Unparsed[0].Why, "no rule") {
			t.Errorf("%q: log %d unparsed %+v, want a kernel log record, named once", text, tl.Log.Len(), tl.Unparsed)
		}
		checkAccount(t, tl)
	}
	tl := ParseString("Nov 30 02:41:10 node3 kernel: [123456.789012] eth0: link is not ready!\n", "t", Options{})
	if tl.Log.Len() != 1 || len(tl.Unparsed) != 0 {
		t.Errorf("another record: log %d unparsed %+v", tl.Log.Len(), tl.Unparsed)
	}
	for _, s := range []string{
		"raise gc_thresh3 to avoid the neighbor table overflow! messages",
		"the load balancer said no destination available for the pool",
		"there is no destination available, IPVS: see the docs",
		"IPVS: the director said foo(): no memory left",
		"raise nf_conntrack_expect_max when the expectation table is full",
	} {
		if why, ok := kernelNetTableLine(s); ok {
			t.Errorf("%q named as the kernel's message: %s", s, why)
		}
	}
}
