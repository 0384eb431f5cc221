package kernel

import (
	"strconv"
	"strings"
)

// Prometheus node_exporter re-exports the kernel's counters under its own names
// (collector/meminfo.go, vmstat.go, netstat.go, softnet.go, netdev_linux.go in
// prometheus/node_exporter). This is the one map from those names back to the kernel's, so a
// pasted exposition feeds the same counters as /proc does:
//
//	node_memory_MemFree_bytes 1.234e+06         /proc/meminfo MemFree, bytes (meminfo's kB × 1024)
//	node_memory_HugePages_Total 0               /proc/meminfo HugePages_Total, a count
//	node_vmstat_pgscan_kswapd 1.49e+06          /proc/vmstat pgscan_kswapd
//	node_netstat_TcpExt_PruneCalled 3           /proc/net/netstat TcpExt PruneCalled
//	node_softnet_dropped_total{cpu="0"} 12      /proc/net/softnet_stat column 2 of CPU 0
//	node_network_receive_fifo_total{device="eth0"} 7   /proc/net/dev eth0 rx_fifo_errors

// NodeMetric is where one node_exporter sample belongs.
type NodeMetric struct {
	File  string // "meminfo", "vmstat", "netstat", "softnet", "netdev", "ethtool"
	Group string // netstat: "TcpExt"; netdev, ethtool: the device; softnet: the CPU number
	Name  string // the kernel's counter name
	Scale int64  // divide the exported value by this (bytes → kB for meminfo)
}

// nodeNetDev maps node_network_{receive,transmit}_X_total to /proc/net/dev's columns.
var nodeNetDev = map[string]string{
	"receive_bytes": "rx_bytes", "receive_packets": "rx_packets", "receive_errs": "rx_errors",
	"receive_drop": "rx_dropped", "receive_fifo": "rx_fifo_errors", "receive_frame": "rx_frame_errors",
	"receive_compressed": "rx_compressed", "receive_multicast": "multicast",
	"transmit_bytes": "tx_bytes", "transmit_packets": "tx_packets", "transmit_errs": "tx_errors",
	"transmit_drop": "tx_dropped", "transmit_fifo": "tx_fifo_errors", "transmit_colls": "collisions",
	"transmit_carrier": "tx_carrier_errors", "transmit_compressed": "tx_compressed",
}

// nodeSoftnet maps node_softnet_X_total to the softnet_stat columns SoftnetCPU names.
var nodeSoftnet = map[string]string{"processed": "processed", "dropped": "dropped", "times_squeezed": "time_squeeze"}

// NodeExporterMetric says which kernel counter a node_exporter metric is, from its name and
// labels; ok is false for metrics headroom has no kernel counter for.
func NodeExporterMetric(name string, labels map[string]string) (m NodeMetric, ok bool) {
	switch {
	case strings.HasPrefix(name, "node_memory_"):
		n := strings.TrimPrefix(name, "node_memory_")
		if b, cut := strings.CutSuffix(n, "_bytes"); cut {
			// node_exporter turns "Active(anon)" into Active_anon: meminfo's own names.
			return NodeMetric{File: "meminfo", Name: nodeMeminfoName(b), Scale: 1024}, b != ""
		}
		if strings.HasPrefix(n, "HugePages_") {
			// The only meminfo fields that are counts, not kB (fs/proc/meminfo.c,
			// hugetlb_report_meminfo): exported as they are.
			return NodeMetric{File: "meminfo", Name: n, Scale: 1}, true
		}
		// node_exporter before 0.16 named the same byte values without the _bytes suffix
		// ("node_memory_Active_anon 1.5227904e+09", corpus 512): every other meminfo field is
		// kB, exported ×1024 under either name.
		return NodeMetric{File: "meminfo", Name: nodeMeminfoName(n), Scale: 1024}, n != ""
	case strings.HasPrefix(name, "node_vmstat_"):
		n := strings.TrimPrefix(name, "node_vmstat_")
		return NodeMetric{File: "vmstat", Name: n, Scale: 1}, n != ""
	case strings.HasPrefix(name, "node_netstat_"):
		g, n, found := strings.Cut(strings.TrimPrefix(name, "node_netstat_"), "_")
		return NodeMetric{File: "netstat", Group: g, Name: n, Scale: 1}, found && g != "" && n != ""
	case strings.HasPrefix(name, "node_softnet_"):
		n := nodeSoftnet[strings.TrimSuffix(strings.TrimPrefix(name, "node_softnet_"), "_total")]
		cpu, err := strconv.Atoi(labels["cpu"])
		return NodeMetric{File: "softnet", Group: strconv.Itoa(cpu), Name: n, Scale: 1}, n != "" && err == nil
	case CloudAllowanceMetric(name) != "":
		return NodeMetric{File: "ethtool", Group: cloudAllowanceDevice(name, labels), Name: CloudAllowanceMetric(name), Scale: 1}, true
	case strings.HasPrefix(name, "node_network_"):
		n := nodeNetDev[strings.TrimSuffix(strings.TrimPrefix(name, "node_network_"), "_total")]
		dev := labels["device"]
		return NodeMetric{File: "netdev", Group: dev, Name: n, Scale: 1}, n != "" && dev != ""
	}
	return NodeMetric{}, false
}

// nodeMeminfoName restores meminfo's parenthesised names: node_exporter writes
// "Active(anon)" as Active_anon and "Inactive(file)" as Inactive_file.
func nodeMeminfoName(n string) string {
	for _, base := range []string{"Active_", "Inactive_"} {
		if rest, ok := strings.CutPrefix(n, base); ok && (rest == "anon" || rest == "file") {
			return strings.TrimSuffix(base, "_") + "(" + rest + ")"
		}
	}
	return n
}

// Exporters re-export AWS ENA's allowance counters (ethtool -S names, CloudAllowanceLimit)
// as metric series under three namings:
//
//	node_ethtool_bw_in_allowance_exceeded{device="eth0"} 0     node_exporter's ethtool collector
//	    (collector/ethtool_linux.go buildEthtoolFQName: "node_ethtool_" + the stat's name,
//	    lowercased, rx/tx words spelled received/transmitted, which these names hold none of)
//	ethtool_bw_in_allowance_exceeded{driver="ena",interface="eth0"} 0   telegraf's ethtool
//	    input (plugins/inputs/ethtool: measurement "ethtool", tags interface and driver, one
//	    field per stat) through its Prometheus output (measurement_field)
//	bw_in_allowance_exceeded{eni="eni-0a1",instance_id="i-0b2"} 0   the names bare, as AWS's
//	    network-flow-monitor-agent exports them (nfm-controller/src/open_metrics/providers/
//	    system_metrics_provider.rs: IntGaugeVec per counter, labels instance_id, eni and, on
//	    Kubernetes, node)
//
// All three are the driver's counters read by ethtool's ioctl, so they feed the same
// NICStats as a pasted ethtool -S; only the allowance counters (and conntrack_allowance_
// available) are mapped, the names no other exporter's metric shares.

// CloudAllowanceMetric returns the ethtool -S name a metric re-exports, "" when it is none of
// the allowance counters.
func CloudAllowanceMetric(name string) string {
	n := strings.TrimSuffix(name, "_total")
	for _, p := range []string{"node_ethtool_", "ethtool_", ""} {
		stat, ok := strings.CutPrefix(n, p)
		if !ok {
			continue
		}
		if _, ok := CloudAllowanceLimit(stat); ok || stat == CloudConntrackAvailable {
			return stat
		}
	}
	return ""
}

// cloudAllowanceDevice names the interface of an allowance series: node_exporter's device,
// telegraf's interface, the agent's eni (the ENI is the interface the driver reports for).
func cloudAllowanceDevice(name string, labels map[string]string) string {
	for _, l := range []string{"device", "interface", "eni"} {
		if v := labels[l]; v != "" {
			return v
		}
	}
	return "(the exporter's interface, not labelled)"
}
