package artifact

import (
	"strings"
	"testing"
)

// The nic classes held-out batches g36-g39 found (corpus 1009-1080), each on a minimal
// snippet written for the class. Every test failed before its change.

// noInterfaceRead fails when any of the texts gives an interface reading.
func noInterfaceRead(t *testing.T, texts ...string) {
	t.Helper()
	for _, s := range texts {
		for _, sm := range ParseString(s, "p", Options{}).Samples {
			if len(sm.NetDev) > 0 {
				t.Errorf("%q read as an interface: %+v", s, sm.NetDev)
			}
		}
	}
}

func netdevOf(t *testing.T, text, name string) map[string]int64 {
	t.Helper()
	tl := ParseString(text, "p", Options{})
	for _, s := range tl.Samples {
		for _, nd := range s.NetDev {
			if nd.Name == name {
				out := map[string]int64{}
				for _, k := range []string{"rx_packets", "rx_errors", "rx_dropped", "rx_fifo_errors", "rx_missed_errors", "tx_packets", "tx_fifo_errors", "rx_nombuf"} {
					if v, ok := nd.Counters.Get(k); ok {
						out[k] = v
					}
				}
				return out
			}
		}
	}
	t.Fatalf("no interface %q read; artifacts %d, unparsed %+v", name, len(tl.Artifacts), tl.Unparsed)
	return nil
}

// ifconfig of the 1990s (net-tools before 1.60): no colons, "Link encap 10Mbps Ethernet",
// and "overrun" in the singular. Before, the name line was no header and the overruns were
// unread, so nic-rx-overruns called the interface clean.
func TestIfconfigPre160Layout(t *testing.T) {
	text := `lan1      Link encap 10Mbps Ethernet  HWaddr 00:11:22:33:44:55
          inet addr 10.0.0.2 Bcast 10.0.0.255 Mask 255.255.255.0
          UP BROADCAST RUNNING  MTU 1500  Metric 0
          RX packets 5000 errors 40 dropped 3 overrun 12
          TX packets 900 errors 0 dropped 0 overrun 1
`
	c := netdevOf(t, text, "lan1")
	if c["rx_packets"] != 5000 || c["rx_fifo_errors"] != 12 || c["tx_fifo_errors"] != 1 || c["rx_errors"] != 40 {
		t.Errorf("counters %v", c)
	}
	// Counter-case: prose that starts with "Link encap" words is no interface block.
	tl := ParseString("The Link encap field says the link type\n  and more prose here\n", "p", Options{})
	for _, s := range tl.Samples {
		if len(s.NetDev) > 0 {
			t.Errorf("prose read as an interface: %+v", s.NetDev)
		}
	}
}

// A DPDK port's rte_eth_stats as dpvs' dpip prints them: grids of names over values. Before,
// the block was unread and imissed, the NIC's count of frames with no free RX descriptor,
// never reached nic-rx-overruns.
func TestDPDKDpipLinkGrid(t *testing.T) {
	text := `1: vport3: socket 1 mtu 9000 rx-queue 4 tx-queue 4
    UP 25000 Mbps full-duplex auto-nego
    ipackets            opackets            ibytes              obytes
    120000              5000                99000000            400000
    ierrors             oerrors             imissed             rx_nombuf
    2                   0                   333                 7
    mbuf-avail          mbuf-inuse
    65000               1200
`
	for _, in := range []string{"", "    "} { // as pasted, and as a Markdown code block
		var b strings.Builder
		for _, l := range strings.SplitAfter(text, "\n") {
			if l != "" {
				b.WriteString(in + l)
			}
		}
		c := netdevOf(t, b.String(), "vport3")
		if c["rx_packets"] != 120000 || c["rx_missed_errors"] != 333 || c["rx_nombuf"] != 7 || c["rx_errors"] != 2 || c["tx_packets"] != 5000 {
			t.Errorf("indent %q: counters %v", in, c)
		}
	}
}

// testpmd's and l2fwd's per-port statistics: "name: value" pairs, several a line, under a
// "statistics for port N" line. Before, unread.
func TestDPDKPortStatisticsPairs(t *testing.T) {
	text := `  ######################## NIC statistics for port 1  ########################
  RX-packets: 880000     RX-missed: 4410       RX-bytes:  52800000
  RX-errors: 0
  RX-nombuf:  0
  TX-packets: 870000     TX-errors: 0          TX-bytes:  52200000
  ############################################################################
`
	c := netdevOf(t, text, "port1")
	if c["rx_packets"] != 880000 || c["rx_missed_errors"] != 4410 || c["tx_packets"] != 870000 {
		t.Errorf("testpmd counters %v", c)
	}
	l2 := `Statistics for port 2 ------------------------------
Packets sent:                  5000
Packets received:              5100
ipackets:          5100      opackets:          5000      ibytes:       7000000
imissed:             17      ierrors:                0       oerrors:                0
`
	c = netdevOf(t, l2, "port2")
	if c["rx_packets"] != 5100 || c["rx_missed_errors"] != 17 {
		t.Errorf("l2fwd counters %v", c)
	}
	// Counter-cases: prose naming a port's statistics, and a dpip header with no counters,
	// are no interface reading.
	noInterfaceRead(t,
		"The statistics for port 3 are shown below.\nThey look fine to me.\n",
		"1: dpdk0: socket 0 mtu 1500 rx-queue 8 tx-queue 8\n    UP 10000 Mbps full-duplex auto-nego\n",
	)
}
