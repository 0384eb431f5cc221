package artifact

import (
	"strings"
	"testing"
)

// The classes the held-out batch g19 found (corpus 673-692), each on a minimal snippet
// written for the class (not the case's words); every test failed before its change.

// /proc/net/netstat pasted with its value line cut short (corpus 674: 54 values under 81
// names). Before: the header line was prose and the value line "could not be read", so
// ListenOverflows was lost.
func TestProcNetStatValuesCut(t *testing.T) {
	const text = "$ cat /proc/net/netstat\n" +
		"TcpExt: SyncookiesSent SyncookiesRecv SyncookiesFailed EmbryonicRsts PruneCalled ListenOverflows ListenDrops TCPBacklogDrop TCPMemoryPressures\n" +
		"TcpExt: 0 0 12 3 1 4411 4411\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Samples) != 1 {
		t.Fatalf("samples %+v; unparsed %+v", tl.Samples, tl.Unparsed)
	}
	g := tl.Samples[0].NetStat
	if v, ok := g.Get("TcpExt", "ListenOverflows"); !ok || v != 4411 {
		t.Errorf("ListenOverflows %d %v", v, ok)
	}
	// The names after the cut are absent, not zero.
	for _, name := range []string{"TCPBacklogDrop", "TCPMemoryPressures"} {
		if v, ok := g.Get("TcpExt", name); ok {
			t.Errorf("%s read as %d from a cut line", name, v)
		}
	}
	if len(tl.Unparsed) != 1 || !strings.Contains(tl.Unparsed[0].Why, "TCPBacklogDrop onwards") {
		t.Errorf("the cut is not said: %+v", tl.Unparsed)
	}
	// Counter-cases: a value line of another group, and a value line wrapped onto the next
	// line (its values go on) are no cut line.
	for _, text := range []string{
		"TcpExt: SyncookiesSent SyncookiesRecv SyncookiesFailed ListenOverflows\nIpExt: 0 0 12\n",
		"TcpExt: SyncookiesSent SyncookiesRecv SyncookiesFailed ListenOverflows ListenDrops\nTcpExt: 0 0 12\n4411 4411\n",
	} {
		for _, s := range ParseString(text, "p", Options{}).Samples {
			if v, ok := s.NetStat.Get("TcpExt", "SyncookiesFailed"); ok {
				t.Errorf("%q: read SyncookiesFailed %d", text, v)
			}
		}
	}
}

// A paste of /sys/class/net/IF/statistics merged with a driver's ethtool -S counters, one
// "name: value" a line, no "NIC statistics:" line (corpus 681). Before: the names that are no
// NIC loss counter made the bare-ethtool reader refuse the list, whose lines then became an
// unstamped kernel log; rx_dropped was never an interface counter.
func TestSysfsStatisticsList(t *testing.T) {
	const text = "Counters of eth1 (/sys/class/net/eth1/statistics plus ethtool -S):\n" +
		"alloc_rx_buff_failed: 0\ncollisions: 0\nmulticast: 310\nrx_bytes: 8812004\nrx_crc_errors: 0\n" +
		"rx_dropped: 912\nrx_errors: 0\nrx_missed_errors: 0\nrx_no_buffer_count: 0\nrx_packets: 70215\n" +
		"tx_bytes: 51200\ntx_dropped: 0\ntx_packets: 402\n"
	tl := ParseString(text, "p", Options{})
	var dev, nic bool
	for _, s := range tl.Samples {
		for _, nd := range s.NetDev {
			v, ok := nd.Counters.Get("rx_dropped")
			dev = dev || (ok && v == 912 && nd.Name == "eth1")
			if nd.Counters.Has("alloc_rx_buff_failed") {
				t.Errorf("a driver counter among the interface's: %+v", nd)
			}
		}
		for _, n := range s.NICStats {
			if n.Stats != nil {
				v, ok := n.Stats.Get("rx_no_buffer_count")
				nic = nic || (ok && v == 0)
			}
		}
	}
	if !dev || !nic {
		t.Errorf("interface counters %v, NIC statistics %v: %+v", dev, nic, tl.Samples)
	}
	// Counter-case: a few such names in another program's key-value output are not the
	// interface's statistics directory.
	tl = ParseString("rx_packets: 70215\nrx_dropped: 912\nworkers: 4\nqueue: 12\n", "p", Options{})
	for _, s := range tl.Samples {
		if len(s.NetDev) > 0 {
			t.Errorf("read as interface counters: %+v", s.NetDev)
		}
	}
}
