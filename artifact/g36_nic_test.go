package artifact

import (
	"testing"
)

// The nic classes held-out batches g36-g39 found (corpus 1009-1080), each on a minimal
// snippet written for the class. Every test failed before its change.

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
