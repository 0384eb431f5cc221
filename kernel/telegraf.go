package kernel

import "strings"

// Telegraf's metrics with a kernel counter behind them, as its inputs write them in InfluxDB
// line protocol (telegraf's plugins/inputs/net, mem; gopsutil reads the /proc files):
//
//	net,interface=eth0 drop_in=0i,err_in=0i,bytes_recv=12872i   /proc/net/dev eth0 rx_dropped, rx_errors, rx_bytes
//	net,interface=all tcp_retranssegs=0i,udp_rcvbuferrors=0i   /proc/net/snmp Tcp RetransSegs, Udp RcvbufErrors
//	mem total=8e9i,available=5e9i,swap_free=0i                 /proc/meminfo MemTotal, MemAvailable, SwapFree (bytes)
//
// The interface=all series is /proc/net/snmp with each name lowered and joined to its
// group by "_" (inputs/net: "fields[strings.ToLower(proto)+"_"+strings.ToLower(stat)]").

// telegrafNetDev maps inputs.net's per-interface fields to /proc/net/dev's columns
// (gopsutil's IOCounters: Errin is the "errs" column, Dropin "drop").
var telegrafNetDev = map[string]string{
	"bytes_recv": "rx_bytes", "packets_recv": "rx_packets", "err_in": "rx_errors", "drop_in": "rx_dropped",
	"bytes_sent": "tx_bytes", "packets_sent": "tx_packets", "err_out": "tx_errors", "drop_out": "tx_dropped",
}

// telegrafMem maps inputs.mem's fields (bytes) to /proc/meminfo's names (kB).
var telegrafMem = map[string]string{
	"total": "MemTotal", "available": "MemAvailable", "free": "MemFree", "buffered": "Buffers",
	"cached": "Cached", "active": "Active", "inactive": "Inactive", "slab": "Slab",
	"sreclaimable": "SReclaimable", "sunreclaim": "SUnreclaim", "swap_total": "SwapTotal",
	"swap_free": "SwapFree", "swap_cached": "SwapCached", "dirty": "Dirty", "write_back": "Writeback",
	"commit_limit": "CommitLimit", "committed_as": "Committed_AS", "low_total": "LowTotal",
	"low_free": "LowFree", "high_total": "HighTotal", "high_free": "HighFree", "page_tables": "PageTables",
	"mapped": "Mapped", "shared": "Shmem",
}

// snmpGroups are /proc/net/snmp's groups by their lowered names (net/ipv4/proc.c snmp_seq_show).
var snmpGroups = map[string]string{"ip": "Ip", "icmp": "Icmp", "icmpmsg": "IcmpMsg", "tcp": "Tcp", "udp": "Udp", "udplite": "UdpLite"}

// snmpNames are /proc/net/snmp's counter names per group (net/ipv4/proc.c: snmp4_ipstats_list,
// icmp_put's In/Out of icmpmibmap, snmp4_tcp_list, snmp4_udp_list), to restore the case a
// lowered name lost.
var snmpNames = map[string][]string{
	"Ip": {"Forwarding", "DefaultTTL", "InReceives", "InHdrErrors", "InAddrErrors", "ForwDatagrams", "InUnknownProtos",
		"InDiscards", "InDelivers", "OutRequests", "OutDiscards", "OutNoRoutes", "ReasmTimeout", "ReasmReqds",
		"ReasmOKs", "ReasmFails", "FragOKs", "FragFails", "FragCreates", "OutTransmits"},
	"Icmp": {"InMsgs", "InErrors", "InCsumErrors", "InDestUnreachs", "InTimeExcds", "InParmProbs", "InSrcQuenchs",
		"InRedirects", "InEchos", "InEchoReps", "InTimestamps", "InTimestampReps", "InAddrMasks", "InAddrMaskReps",
		"OutMsgs", "OutErrors", "OutRateLimitGlobal", "OutRateLimitHost", "OutDestUnreachs", "OutTimeExcds",
		"OutParmProbs", "OutSrcQuenchs", "OutRedirects", "OutEchos", "OutEchoReps", "OutTimestamps",
		"OutTimestampReps", "OutAddrMasks", "OutAddrMaskReps"},
	"Tcp": {"RtoAlgorithm", "RtoMin", "RtoMax", "MaxConn", "ActiveOpens", "PassiveOpens", "AttemptFails",
		"EstabResets", "CurrEstab", "InSegs", "OutSegs", "RetransSegs", "InErrs", "OutRsts", "InCsumErrors"},
	"Udp": {"InDatagrams", "NoPorts", "InErrors", "OutDatagrams", "RcvbufErrors", "SndbufErrors", "InCsumErrors",
		"IgnoredMulti", "MemErrors"},
}

// SNMPName restores the case of a /proc/net/snmp counter written lowered ("tcp",
// "retranssegs" → "Tcp", "RetransSegs"); ok is false for a name the group does not print.
func SNMPName(group, name string) (g, n string, ok bool) {
	g, ok = snmpGroups[strings.ToLower(group)]
	if !ok {
		return "", "", false
	}
	list := snmpNames[g]
	if g == "UdpLite" {
		list = snmpNames["Udp"]
	}
	for _, c := range list {
		if strings.EqualFold(c, name) {
			return g, c, true
		}
	}
	return "", "", false
}

// TelegrafMetric says which kernel counter one field of a telegraf measurement is (the
// measurement, its interface tag, the field's name); ok is false for fields headroom has no
// kernel counter for. NodeMetric's Scale divides the written value (bytes → kB for meminfo).
func TelegrafMetric(measurement, iface, field string) (m NodeMetric, ok bool) {
	switch measurement {
	case "net":
		if iface == "all" {
			proto, stat, found := strings.Cut(field, "_")
			if !found {
				return NodeMetric{}, false
			}
			g, n, ok := SNMPName(proto, stat)
			return NodeMetric{File: "netstat", Group: g, Name: n, Scale: 1}, ok
		}
		n := telegrafNetDev[field]
		return NodeMetric{File: "netdev", Group: iface, Name: n, Scale: 1}, n != "" && iface != ""
	case "mem":
		n := telegrafMem[field]
		return NodeMetric{File: "meminfo", Name: n, Scale: 1024}, n != ""
	}
	return NodeMetric{}, false
}
