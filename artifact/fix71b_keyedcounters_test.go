package artifact

import "testing"

// fix71b (corpus 7159, 7101): an interface's counters as an object's keys. OpenWrt's ubus
// device status holds eth1's sysfs statistics in a "stats" object beside its "name"; a
// telegraf test's Go map literal holds an sfc port's ethtool -S names under eth1Stat. The
// first becomes eth1's counters and NIC statistics, the second its NIC statistics only; an
// object of settings or of a program's own counts is not an interface's.
func TestKeyedInterfaceCounters(t *testing.T) {
	ubus := "\t\t\"eth1\": {\n\t\t\t\"name\": \"eth1\",\n\t\t\t\"mtu\": 1500,\n\t\t\t\"stats\": {\n" +
		"\t\t\t\t\"rx_bytes\": 13126132,\n\t\t\t\t\"tx_bytes\": 2324850,\n\t\t\t\t\"tx_errors\": 0,\n\t\t\t\t\"rx_errors\": 0,\n" +
		"\t\t\t\t\"tx_packets\": 10741,\n\t\t\t\t\"rx_packets\": 17065,\n\t\t\t\t\"multicast\": 85,\n" +
		"\t\t\t\t\"collisions\": 0,\n\t\t\t\t\"rx_dropped\": 42,\n\t\t\t\t\"tx_dropped\": 0\n\t\t\t},\n"
	gomap := "\teth1Stat := map[string]uint64{\n\t\t\"interface_up\":                   1,\n" +
		"\t\t\"port_rx_bytes\":                  893460472634,\n\t\t\"port_rx_dp_di_dropped_packets\":  2772680304,\n" +
		"\t\t\"port_rx_nodesc_drops\":           0,\n\t\t\"port_rx_overflow\":               0,\n" +
		"\t\t\"port_rx_packets\":                3045991334,\n\t\t\"rx_noskb_drops\":                 0,\n\t}\n"
	settings := "{\n  \"mtu\": 1500,\n  \"qlen\": 1000,\n  \"ifindex\": 3,\n  \"type\": 1,\n  \"speed\": 1000,\n  \"duplex\": 1,\n}\n"
	for _, tc := range []struct {
		name, text, iface, counter string
		value                      int64
		netdev                     bool
	}{
		{"ubus stats", ubus, "eth1", "rx_dropped", 42, true},
		{"go map of ethtool -S", gomap, "eth1", "port_rx_packets", 3045991334, false},
		{"settings", settings, "", "", 0, false},
	} {
		tl := ParseString(tc.text, "t", Options{})
		var got, gotDev bool
		for _, s := range tl.Samples {
			for _, st := range s.NICStats {
				if v, ok := st.Stats.Get(tc.counter); ok && v == tc.value && st.Name == tc.iface {
					got = true
				}
			}
			for _, nd := range s.NetDev {
				if v, ok := nd.Counters.Get(tc.counter); ok && v == tc.value && nd.Name == tc.iface {
					gotDev = true
				}
			}
		}
		if tc.iface == "" {
			if len(tl.Samples) > 0 {
				t.Errorf("%s: %d samples, want none", tc.name, len(tl.Samples))
			}
			continue
		}
		if !got || gotDev != tc.netdev {
			t.Errorf("%s: NIC stats %s %s=%d read %v, as its counters %v (want %v)", tc.name, tc.iface, tc.counter, tc.value, got, gotDev, tc.netdev)
		}
	}
}
