package kernel

import "testing"

func TestNodeExporterMetric(t *testing.T) {
	cases := []struct {
		name   string
		labels map[string]string
		want   NodeMetric
		ok     bool
	}{
		{"node_memory_MemFree_bytes", nil, NodeMetric{File: "meminfo", Name: "MemFree", Scale: 1024}, true},
		{"node_memory_Active_anon_bytes", nil, NodeMetric{File: "meminfo", Name: "Active(anon)", Scale: 1024}, true},
		{"node_memory_HugePages_Total", nil, NodeMetric{File: "meminfo", Name: "HugePages_Total", Scale: 1}, true},
		// node_exporter < 0.16: the same bytes without the _bytes suffix (corpus 512).
		{"node_memory_Active_anon", nil, NodeMetric{File: "meminfo", Name: "Active(anon)", Scale: 1024}, true},
		{"node_memory_AnonHugePages", nil, NodeMetric{File: "meminfo", Name: "AnonHugePages", Scale: 1024}, true},
		{"node_vmstat_pgscan_kswapd", nil, NodeMetric{File: "vmstat", Name: "pgscan_kswapd", Scale: 1}, true},
		{"node_netstat_TcpExt_PruneCalled", nil, NodeMetric{File: "netstat", Group: "TcpExt", Name: "PruneCalled", Scale: 1}, true},
		{"node_softnet_times_squeezed_total", map[string]string{"cpu": "3"}, NodeMetric{File: "softnet", Group: "3", Name: "time_squeeze", Scale: 1}, true},
		{"node_network_receive_fifo_total", map[string]string{"device": "eth0"}, NodeMetric{File: "netdev", Group: "eth0", Name: "rx_fifo_errors", Scale: 1}, true},
		{"node_network_receive_fifo_total", nil, NodeMetric{}, false},
		{"node_softnet_dropped_total", map[string]string{"cpu": "x"}, NodeMetric{}, false},
		{"node_load1", nil, NodeMetric{}, false},
		{"node_memory__bytes", nil, NodeMetric{}, false},
	}
	for _, c := range cases {
		got, ok := NodeExporterMetric(c.name, c.labels)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("%s %v: %+v %v, want %+v %v", c.name, c.labels, got, ok, c.want, c.ok)
		}
	}
}
