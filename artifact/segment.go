package artifact

import (
	"strings"
)

// command tries the command-output kinds at line i and returns the lines consumed (0 when
// the line starts none). The first token decides which parsers are tried, so that prose
// lines cost a switch and not twenty parsers.
func (d *doc) command(i int) int {
	t := d.ls[i].Text
	ft := firstField(t)
	if ft == "" {
		return 0
	}
	if strings.Contains(t, "/proc/sys/") || strings.Contains(t, "sysctl -n") || strings.Contains(t, "/sys/class/net/") || strings.Contains(t, "cat ") && strings.Contains(t, "memory.") {
		if n := d.tryCommandValue(i); n > 0 {
			return n
		}
	}
	if ft[0] == '[' && strings.Contains(t, "sec") {
		if n := d.tryIperf(i); n > 0 { // iperf, iperf3, bwctl (iperf.go)
			return n
		}
	}
	if ft[0] == '"' && strings.HasSuffix(ft, ":") {
		if _, _, ok := iperfJSONLine(strings.TrimSpace(t)); ok {
			if n := d.tryIperfJSON(i); n > 0 { // iperf3 -J (iperf.go)
				return n
			}
		}
	}
	if strings.HasPrefix(ft, "node_") || ((ft == "#" || ft == "HELP" || ft == "TYPE") && strings.Contains(t, " node_")) {
		if n := d.tryNodeExporter(i); n > 0 { // node_exporter's exposition (nodeexporter.go)
			return n
		}
	}
	if mentionsDropCounter(t) {
		if n := d.tryCounterTable(i); n > 0 { // a tool's table naming TcpExt counters (countertable.go)
			return n
		}
	}
	try := func(fs ...func(int) int) int {
		for _, f := range fs {
			if n := f(i); n > 0 {
				return n
			}
		}
		return 0
	}
	if len(ft) > 3 && (strings.HasPrefix(ft, "Cpu") || strings.HasPrefix(ft, "CPU") || strings.HasPrefix(ft, "%Cpu")) && isDigits(strings.TrimRight(strings.TrimLeft(ft, "%CPUcpu"), ":")) {
		// top's per-CPU lines on their own: "Cpu15 : 10.3%us, ...", "CPU0 states: ..."
		if n := d.tryTop(i); n > 0 {
			return n
		}
	}
	if strings.HasPrefix(ft, "cpu=") {
		return d.tryConntrackStats(i)
	}
	if ft == "entries" {
		if n := d.tryConntrackStatFile(i); n > 0 { // /proc/net/stat/nf_conntrack (conntrack.go)
			return n
		}
	}
	if strings.Contains(t, ": slabdata") || ft == "slabinfo" || ft == "#" && strings.Contains(t, "<active_objs>") {
		if n := d.trySlabinfo(i); n > 0 {
			return n
		}
	}
	if ft != "" && ft[0] >= '0' && ft[0] <= '9' && strictSlabtopRow(t) {
		// slabtop rows without their header (slabtop.go)
		if n := d.trySlabtop(i); n > 0 {
			return n
		}
	}
	if isKubeCondType(ft) || ft == "Type" {
		// kubectl describe node's Conditions rows (kube.go)
		if n := d.tryKubeNodeConditions(i); n > 0 {
			return n
		}
	}
	if ft == "CPU" || ft == "Resource" {
		if n := d.tryKubeAllocated(i); n > 0 {
			return n
		}
	}
	if isKlogHeader(ft) {
		return d.tryKubeletEviction(i)
	}
	if ft == "cpu" {
		if n := d.trySoftnetTable(i); n > 0 {
			return n
		}
	}
	if ft == "{" {
		if n := d.tryKubeletSummary(i); n > 0 {
			return n
		}
	}
	switch ft {
	case "procs", "r", "--procs--", "--time--":
		return d.tryVMStat(i)
	case "top", "Tasks:", "Threads:", "CPU", "Cpu(s):", "%Cpu(s):", "Mem:", "Swap:", "KiB", "MiB", "GiB", "Load:":
		return d.tryTop(i)
	case "PID":
		return d.tryTopTasks(i)
	case "total", "total:":
		return d.tryFree(i)
	case "RX", "TX":
		return d.tryIfconfigRows(i)
	case "Device", "Device:":
		return d.trySysstat(i)
	case "Active", "Minimum", "OBJS":
		if n := d.trySlabtop(i); n > 0 {
			return n
		}
	case "Proto", "State", "Netid":
		return d.trySockets(i)
	case "Total:":
		return d.trySSSummary(i)
	case "#kernel":
		return d.tryNstat(i)
	case "Kernel", "Iface":
		return d.tryNetstatI(i)
	case "Inter-|":
		return d.tryProcNetDev(i)
	case "NIC", "Ring":
		return d.tryEthtool(i)
	case "sockets:":
		return d.trySockStat(i)
	case "Node":
		return try(d.tryBuddyInfo, d.tryZoneInfo, d.tryBuddyTable)
	case "Page":
		return d.tryPageTypeInfo(i)
	case "samples":
		return d.tryProfile(i)
	case "pages":
		return d.tryZoneInfoHeaderless(i)
	case "#":
		if strings.HasPrefix(strings.TrimSpace(t), "# Samples") || strings.HasPrefix(strings.TrimSpace(t), "# Overhead") ||
			strings.HasPrefix(strings.TrimSpace(t), "# To display") {
			return d.tryProfile(i)
		}
		return 0
	}
	if isSSState(ft) {
		return d.trySockets(i)
	}
	if (ft == "some" || ft == "full" || strings.Contains(ft, "pressure/")) && isPSILine(t) {
		return d.tryPSI(i)
	}
	if strings.HasPrefix(ft, "%Cpu") || strings.HasPrefix(ft, "Cpu(s)") {
		return d.tryTop(i)
	}
	c := ft[0]
	switch {
	case c >= '0' && c <= '9':
		if strings.HasSuffix(ft, "%") {
			return try(d.tryCPUInfo, d.tryProfile)
		}
		if strings.HasSuffix(ft, ":") {
			return d.tryIPLink(i)
		}
		return try(d.trySoftnetDecimal, d.tryVMStatS, d.trySysstat, d.tryVMStatRows, d.tryNetstatSGrep, d.tryTopTaskRows, d.tryProfile, d.trySoftnet, d.tryTop)
	case c >= 'a' && c <= 'f' && len(ft) == 8:
		if n := d.trySoftnet(i); n > 0 {
			return n
		}
	}
	if buddyZoneName(ft) {
		if n := d.tryBuddyYAML(i); n > 0 { // free-list counts as YAML keys (buddy_tables.go)
			return n
		}
	}
	if ft == "vm" || strings.HasSuffix(ft, ":") {
		// zoneinfo pasted from inside a zone's pagesets (zoneinfo_tail.go)
		if n := d.tryZoneInfoTail(i); n > 0 {
			return n
		}
	}
	if strings.HasSuffix(ft, ":") {
		if n := try(d.tryEthtoolBare, d.tryIPLink, d.tryNetstatS, d.tryProcNetStat, d.tryMemInfo, d.trySysstat); n > 0 {
			return n
		}
	}
	if strings.Contains(t, "Link encap:") || strings.Contains(t, "flags=") {
		if n := d.tryIfconfig(i); n > 0 {
			return n
		}
	}
	if c >= 'A' && c <= 'Z' && (strings.HasPrefix(ft, "Ip") || strings.HasPrefix(ft, "Tcp") || strings.HasPrefix(ft, "Udp") ||
		strings.HasPrefix(ft, "Icmp") || strings.HasPrefix(ft, "MPTcp")) {
		if n := d.tryNstat(i); n > 0 {
			return n
		}
	}
	if c >= 'a' && c <= 'z' {
		if strings.IndexByte(ft, '.') > 0 && strings.IndexByte(t, '=') > 0 {
			if n := d.trySysctl(i); n > 0 {
				return n
			}
		}
		if n := d.tryCgroupMemStat(i); n > 0 { // before /proc/vmstat: same shape, bytes not pages
			return n
		}
		if strings.IndexByte(ft, '_') > 0 || strings.HasPrefix(ft, "pg") || strings.HasPrefix(ft, "ps") || vmstatBareNames[ft] {
			if n := d.tryVMStatFile(i); n > 0 {
				return n
			}
		}
		if n := d.tryTop(i); n > 0 { // 2.4 top's "2:47pm up ..." starts with a digit; others do not
			return n
		}
	}
	if c == '-' && strings.IndexByte(t, '=') > 0 { // "- net.ipv4.tcp_mem = ..." in a Markdown list
		return 0
	}
	return 0
}
