package artifact

import (
	"slices"
	"strings"

	"headroom/kernel"
)

// A format is one place in the registry of command outputs and /proc files a paste may
// hold: which lines can start a block of it and the parser that reads the block. A parser
// can sit at more than one place when its blocks start in more than one way (top's summary,
// its per-CPU lines, 2.4 top's uptime line).
type format struct {
	// kind is the Kind of the artifacts parse adds (parse.go), or what it reads when the
	// kind is shared.
	kind string
	// first, when set, are the only first fields a block starts with: a line with another
	// first field never asks detect, and the lines of prose cost one map look-up for all
	// such formats instead of a test each (formatsFor).
	first []string
	// start, when set, is the test of the first field's first byte that every line of the
	// format passes: a line failing it never asks detect (formatsFor holds one list per
	// first byte).
	start func(c byte) bool
	// detect, when set, is asked of the line's first field ft and its text t.
	detect func(ft, t string) bool
	// parse reads the block that starts at line i and returns the lines it took, 0 when
	// the line does not start one.
	parse func(d *doc, i int) int
	// claims: a detected line is this format's or nothing's, and no later format is tried
	// even when parse took nothing (a "procs" header that vmstat cannot read is not top's).
	claims bool
}

// formats is the registry, in the order the formats are tried: the first that takes a
// line wins. The order matters where formats overlap, and it is this one because
//   - sysctl -n / cat of a /proc/sys or /sys/class/net path, iperf's "[ ID] ... sec" rows,
//     node_exporter's "node_" series and a table naming TcpExt counters are told by what
//     the line holds whatever its first field, so they go before the first-field formats
//     whose first fields they share ("#", "[", a counter name that looks like nstat's);
//   - top's per-CPU lines ("Cpu0 : ...") before the digit and lower-case rows below, and
//     conntrack -S's "cpu=N" before the softnet table's "cpu" header;
//   - /proc/slabinfo and slabtop's bare rows before the digit rows (vmstat, softnet,
//     sysstat), which would take a slab row's numbers;
//   - kubectl's "CPU" (allocated resources) before top's "CPU" header;
//   - the exact first fields (vmstat's "procs" to perf's "# Samples") next: a header names
//     its tool and is never tried by another;
//   - then the shapes that overlap most, narrowest first: ss rows by state, PSI, top's
//     "%Cpu"; a row starting with a number is a CPU share (cpuinfo, profile), an ip link
//     index ("2:") or a table row, tried in the order softnet (decimal), vmstat -s,
//     sysstat, vmstat rows, a netstat -s grep, top's tasks, profile, softnet (hex), top;
//   - /proc/buddyinfo's zone names as YAML keys, zoneinfo's pagesets before the "name:"
//     formats (which would take a pageset's "count: N"), and among those ethtool -S before
//     ip link, netstat -s, /proc/net/netstat, meminfo and sysstat;
//   - ifconfig, nstat's "TcpExt..." counters; last the lower-case names: a sysctl "a.b = c",
//     a cgroup's memory.stat before /proc/vmstat (same shape, bytes not pages), and 2.4
//     top's "2:47pm up ..." line.
//
// A new format goes where its first lines stop overlapping the ones before it; the
// accuracy corpus (make accuracy) and kinds_test.go say whether the place is right.
var formats = []format{
	{kind: KindSetting, detect: isCommandValueLine, parse: (*doc).tryCommandValue},
	// The IPv4 route cache counted by lines (routecache.go): records, takes no line.
	{kind: KindSetting, detect: isRouteCacheCountLine, parse: (*doc).tryRouteCacheCount},
	// PowerDNS's re-export of the kernel's UDP counters (pdnsudp.go): the command's first
	// byte, then "rec_control"; a row's first field looked up.
	{kind: KindNstat, start: byteIn("#$r"), detect: isRecControlGetLine, parse: (*doc).tryRecControlGet},
	{kind: KindNstat, start: byteIn("u"), detect: isPdnsUDPRow, parse: (*doc).tryPdnsUDPRows},
	// dnsdist's dumpStats() and rec_control get-all rows of the daemon's own metrics, after
	// the udp-* rows: named as unread (dnsownfigures.go, fix32a).
	{kind: KindNstat, start: isLower, detect: isPdnsOwnStatsRow, parse: (*doc).tryPdnsOwnStats},
	// dnsdist's showServers() table, its own backend counters named as unread (dnsserver.go).
	{kind: KindNstat, first: []string{"#"}, detect: isDnsdistServersHeader, parse: (*doc).tryDnsdistServers},
	// unbound-control stats, Unbound's own counters named as unread (dnsserver.go).
	{kind: KindNstat, start: byteIn("thmnuirkd"), detect: unboundStatLine, parse: (*doc).tryUnboundStats},
	// iproute2 -j and ethtool --json documents (iproute_json.go): told by their keys, before
	// iperf's "[" rows and the kubelet summary's "{".
	{kind: KindIPLink, start: byteIn("[{"), detect: isToolJSONStart, parse: (*doc).tryToolJSON},
	// OpenVZ's /proc/user_beancounters (beancounters.go): its "Version:" and header lines,
	// or a headerless first row "101: kmemsize ...", before the digit rows ("2:" ip link).
	{kind: KindBeancounters, first: []string{"Version:", "uid"}, parse: (*doc).tryBeancounters},
	{kind: KindBeancounters, start: isDigit, detect: isBeancounterRow, parse: (*doc).tryBeancounters},
	{kind: KindBeancounters, first: []string{"CTID"}, parse: (*doc).tryVzlist},
	{kind: KindBeancounters, first: []string{"CT"}, parse: (*doc).tryVzubc},
	{kind: KindBeancounters, start: byteIn(`"`), detect: isBeancounterJSONKey, parse: (*doc).tryBeancounterJSON},
	{kind: KindBeancounters, first: []string{"ID", "|ID", "|"}, parse: (*doc).tryLveinfo},  // CloudLinux's lveinfo (beancounters.go)
	{kind: KindProgramLimit, first: []string{"|-"}, parse: (*doc).tryYarnProcessTree},      // YARN's process-tree dump (yarntree.go)
	{kind: KindProgramLimit, first: []string{"Limit", "Max"}, parse: (*doc).tryProcLimits}, // /proc/PID/limits (proclimits.go)
	{kind: KindIperf, start: byteIn("["), detect: func(_, t string) bool { return strings.Contains(t, "sec") || strings.HasPrefix(t, "[ ID]") }, parse: (*doc).tryIperf},
	{kind: KindIperf, start: byteIn("\""), detect: isIperfJSONLine, parse: (*doc).tryIperfJSON},
	{kind: KindIperf, start: byteIn("TU"), detect: isIperfWindowLine, parse: (*doc).tryIperfWindow},
	{kind: KindNetperf, first: []string{"Socket"}, parse: (*doc).tryNetperfUDP},
	{kind: KindWrk, start: isDigit, detect: func(_, t string) bool { return strings.Contains(t, " threads and ") }, parse: (*doc).tryWrk},
	{kind: KindNodeExporter, detect: isNodeExporterLine, parse: (*doc).tryNodeExporter},
	{kind: KindNodeExporter, start: byteIn("12"), detect: isCMetricsTextLine, parse: (*doc).tryNodeExporter},
	// CoreDNS's own metrics, after node_exporter's (a mixed scrape is read as node's): named
	// as unread (dnsserver.go).
	{kind: KindNodeExporter, start: byteIn("#cHT"), detect: isCorednsMetricLine, parse: (*doc).tryCorednsMetrics},
	{kind: KindNagios, start: isUpper, detect: isNagiosLine, parse: (*doc).tryNagios},
	// The Datadog agent's status page, told by its banner "Agent (vX.Y.Z)" (fix55b_agentstatus.go).
	{kind: KindAgentStatus, first: []string{"Agent"}, detect: isAgentStatusBanner, parse: (*doc).tryAgentStatus},
	{kind: KindTelegraf, start: isLower, detect: isTelegrafLine, parse: (*doc).tryTelegraf},
	{kind: KindSNMPIf, start: byteIn("Iis.1"), detect: isSNMPIfLine, parse: (*doc).trySNMPIf},
	{kind: KindZabbixIf, detect: isZabbixIfLine, parse: (*doc).tryZabbixIf},
	{kind: KindXenstore, start: byteIn("/"), detect: isXenstoreLine, parse: (*doc).tryXenstore}, // xenstore-ls -f (xenstore.go)
	{kind: KindMunin, detect: isMuninValueLine, parse: (*doc).tryMunin},                         // munin-run's "field.value N" (munin.go)
	{kind: KindNetStatFile, start: isUpper, detect: isDottedCounterLine, parse: (*doc).tryDottedCounters},
	{kind: KindSlabAllocators, detect: isSlabAllocatorsLine, parse: (*doc).trySlabAllocators},
	{kind: KindConntrackEntries, start: byteIn("itudsgc"), detect: isConntrackEntryLine, parse: (*doc).tryConntrackEntries},
	{kind: KindEthtoolS, start: isDigit, detect: isStampedCounterLine, parse: (*doc).tryStampedCounters}, // a loop's clock-stamped NIC loss counters (stampedcounters.go)
	{kind: KindCounterTable, detect: func(_, t string) bool { return mentionsDropCounter(t) }, parse: (*doc).tryCounterTable},
	{kind: KindNHC, detect: func(_, t string) bool { return isNHCLine(t) }, parse: (*doc).tryNHC},
	{kind: KindKubeEvicted, detect: func(_, t string) bool { return isKubeEvictedLine(t) }, parse: (*doc).tryKubeEvicted},
	{kind: KindTop, start: byteIn("C%"), detect: isTopCPULine, parse: (*doc).tryTop},
	{kind: KindConntrackS, start: byteIn("c"), detect: func(ft, _ string) bool { return strings.HasPrefix(ft, "cpu=") }, parse: (*doc).tryConntrackStats, claims: true},
	{kind: KindConntrackS, first: []string{"entries"}, parse: (*doc).tryConntrackStatFile},
	{kind: KindLKPCompare, first: []string{"%stddev"}, parse: (*doc).tryLKPCompare},
	{kind: KindSlabinfo, detect: isSlabinfoLine, parse: (*doc).trySlabinfo},
	{kind: KindSlabtop, start: isDigit, detect: func(_, t string) bool { return strictSlabtopRow(t) }, parse: (*doc).trySlabtop},
	{kind: KindDropwatch, start: isDigit, detect: isDropwatchLine, parse: (*doc).tryDropwatch},
	{kind: KindDropReasons, detect: isDropReasonLine, parse: (*doc).tryDropReasons}, // pwru and skb:kfree_skb lines (dropreasons.go)
	{kind: KindDrsnoop, first: []string{"COMM", "TIME(s)", "UID"}, detect: isDrsnoopHeaderLine, parse: (*doc).tryDrsnoop},
	{kind: KindSwapinBT, first: []string{"#", "$"}, detect: isSwapinBTCommand, parse: (*doc).trySwapinBT},
	{kind: KindTCPRetrans, first: []string{"TIME"}, detect: isTCPRetransHeader, parse: (*doc).tryTCPRetrans},
	{kind: KindSoftirqSlower, first: []string{"TIME"}, detect: isSoftirqSlowerHeader, parse: (*doc).trySoftirqSlower},
	{kind: KindKubeNodeCond, start: isUpper, detect: func(ft, _ string) bool { return isKubeCondType(ft) || ft == "Type" }, parse: (*doc).tryKubeNodeConditions},
	{kind: KindDockerOOM, first: []string{"container", "Type=container"}, parse: (*doc).tryDockerOOM},
	// Elasticsearch's node stats as indented JSON (esnodestats.go).
	{kind: KindESNodeStats, start: byteIn(`"`), detect: isESNodeStatsLine, parse: (*doc).tryESNodeStats},
	// An interface's counters as an object's keys, JSON or a map literal (keyedcounters.go).
	{kind: KindEthtoolS, start: byteIn(`"`), detect: isKeyedCounterLine, parse: (*doc).tryKeyedCounters},
	{kind: KindDockerOOM, start: byteIn("{"), detect: func(_, t string) bool { return strings.Contains(t, `"Action":"oom"`) }, parse: (*doc).tryDockerOOM},
	{kind: KindKubeEvents, first: []string{"Events:", "Type", "LAST", "LASTSEEN", "Normal", "Warning"}, parse: (*doc).tryKubeEvents},
	{kind: KindKubeEventMessage, first: []string{"kubelet", "kubelet,", "System", "-", "*"}, detect: func(_, t string) bool { return isKubeSystemOOMMessage(t) }, parse: (*doc).tryKubeSystemOOMMessage},
	{kind: KindUDPSockets, first: []string{"sl"}, parse: (*doc).tryUDPSockets},
	{kind: KindUDPSockets, start: isDigit, detect: isUDPSocketBareRow, parse: (*doc).tryUDPSocketBareRows}, // headerless rows under their command (procnetudp.go)
	{kind: KindKubeAllocated, first: []string{"CPU", "Resource"}, parse: (*doc).tryKubeAllocated},
	{kind: KindKubeletOOM, start: byteIn("IWEF"), detect: func(ft, t string) bool {
		return isKlogHeader(ft) && (strings.Contains(t, "OOM event") || strings.Contains(t, "oom event"))
	}, parse: (*doc).tryKubeletOOM},
	{kind: KindStated, start: byteIn("IWEF"), detect: func(ft, t string) bool { return isKlogHeader(ft) && isKubeletNodeConfig(t) }, parse: (*doc).tryKubeletNodeConfig},
	{kind: KindKubeletEviction, start: byteIn("IWEF"), detect: func(ft, _ string) bool { return isKlogHeader(ft) }, parse: (*doc).tryKubeletEviction, claims: true},
	{kind: KindSoftnet, first: []string{"cpu", "CPU"}, parse: (*doc).trySoftnetTable},
	{kind: KindKubeletSummary, first: []string{"{"}, parse: (*doc).tryKubeletSummary},
	// softnet.awk's "total packets N" and "000: proc N ..." before free's "total" and ip
	// link's "2:".
	{kind: KindSoftnet, start: byteIn("0123456789t"), detect: isSoftnetAwkRow, parse: (*doc).trySoftnetAwk},

	{kind: KindContainerMem, first: []string{"CONTAINER"}, parse: (*doc).tryDockerStats},
	{kind: KindContainerMem, first: []string{"NAME", "NAMESPACE"}, parse: (*doc).tryKubectlTop},
	{kind: KindContainerMem, detect: isKubectlTopFiltered, parse: (*doc).tryKubectlTopFiltered}, // fix41a
	{kind: KindContainerMem, detect: isDockerStatsBareRow, parse: (*doc).tryDockerStatsBare},    // fix47b
	{kind: KindVMStat, first: []string{"procs", "r", "--procs--", "--time--"}, parse: (*doc).tryVMStat, claims: true},
	// A results table of each run's swap-in and swap-out totals in KB (swaptotals.go).
	{kind: KindStated, detect: isSwapTotalsHeader, parse: (*doc).trySwapTotals},
	// atop's screen: its ATOP header and MEM, SWP, PAG lines (atop.go).
	{kind: KindAtop, first: []string{"ATOP", "MEM", "SWP", "PAG"}, detect: isAtopMemLine, parse: (*doc).tryAtop},
	// vmstat -s under pl_PL: its labels before the figures (vmstat_s_locales.go).
	{kind: KindVMStatS, first: []string{"Pamięć", "Pam.", "Obszar"}, parse: (*doc).tryVMStatS},
	// inxi's swap rows and RAM line, before top's and free's "Mem:" and "Swap:" (inxi.go).
	{kind: KindFree, start: byteIn("SMPI"), detect: isInxiLine, parse: (*doc).tryInxi},
	// LinuxGSM's details: "Mem: total used free cached available" over "Physical:" (free.go).
	{kind: KindFree, first: []string{"Mem:"}, detect: func(_, t string) bool { return lgsmMemHeader(t) != nil }, parse: (*doc).tryFree},
	// HotSpot's "Memory: 4k page, physical Nk(Mk free), swap Sk(Fk free)" (hserrmem.go).
	{kind: KindFree, first: []string{"Memory:"}, detect: isHsErrMemory, parse: (*doc).tryHsErrMemory},
	{kind: KindTop, first: []string{"top", "Tasks:", "Threads:", "CPU", "Cpu(s):", "%Cpu(s):", "Mem:", "Swap:", "KiB", "MiB", "GiB", "Load:", "Tâches:", "Tareas:", "Zadania:", "Tarefas:", "КиБ", "МиБ", "ГиБ", "ТиБ"}, parse: (*doc).tryTop, claims: true},
	{kind: KindTopTasks, first: []string{"PID"}, parse: (*doc).tryTopTasks, claims: true},
	{kind: KindPsTasks, first: []string{"USER"}, parse: (*doc).tryPsAux},
	{kind: KindPsTasks, detect: isPsUCommandLine, parse: (*doc).tryPsAuxUnder}, // ps aux | grep: rows without the header (psaux.go)
	{kind: KindCommRSS, first: []string{"Comm"}, parse: (*doc).tryCommRSS},     // a per-command RSS summary (psaux.go)
	{kind: KindMemInfo, first: []string{"Filename"}, parse: (*doc).trySwaps},   // /proc/swaps, swapon -s (swaps.go)
	{kind: KindMemInfo, first: []string{"NAME"}, parse: (*doc).trySwaponShow},  // swapon --show (swaps.go)
	{kind: KindFree, first: []string{"total", "total:"}, parse: (*doc).tryFree, claims: true},
	// The command and free's header on one line ("# free -h total used free ...", free.go).
	{kind: KindFree, first: []string{"#", "$", "free", "#free", "$free"}, detect: func(_, t string) bool { c, _ := freeHeaderAfterCommand(t); return c != nil }, parse: (*doc).tryFree},
	{kind: KindFree, start: func(c byte) bool { return c >= 0x80 || c == 'g' || c == 'i' || c == 't' || c == 'r' }, detect: isFreeLocalizedHeader, parse: (*doc).tryFree},
	{kind: KindIfconfig, first: []string{"RX", "TX"}, parse: (*doc).tryIfconfigRows, claims: true},
	// ip -s link's statistics rows without their interface line (iplink.go).
	{kind: KindIPLink, first: []string{"RX:", "TX:"}, parse: (*doc).tryIPStatsRows},
	{kind: KindSysstat, first: []string{"Device", "Device:"}, parse: (*doc).trySysstat, claims: true},
	// A sar header whose time the paster cut ("   pgpgin/s pgpgout/s ...") over time-stamped
	// rows (sysstat.go sysstatBareHeader): its first name a rate or a share.
	{kind: KindSysstat, detect: func(ft, _ string) bool { return ft[0] == '%' || strings.HasSuffix(ft, "/s") }, parse: (*doc).trySysstat},
	// ... or cut leaving a 12-hour time's AM or PM ("         AM  pgpgin/s pgpgout/s ...").
	{kind: KindSysstat, first: []string{"AM", "PM"}, parse: (*doc).trySysstat},
	{kind: KindSlabtop, first: []string{"Active", "Minimum", "OBJS"}, parse: (*doc).trySlabtop},
	{kind: KindOOMSlabInfo, first: []string{"Unreclaimable"}, parse: (*doc).tryOOMSlabInfo},
	{kind: KindSockets, first: []string{"Proto", "State", "Netid"}, parse: (*doc).trySockets, claims: true},
	{kind: KindSockets, first: []string{"tcp", "tcp6", "udp", "udp6"}, parse: (*doc).trySockets},
	{kind: KindFree, first: []string{"Total:"}, parse: (*doc).tryVyOSMemory}, // VyOS's `show system memory` (vyosmem.go)
	{kind: KindSSSummary, first: []string{"Total:"}, parse: (*doc).trySSSummary, claims: true},
	{kind: KindNstat, first: []string{"#kernel"}, parse: (*doc).tryNstat, claims: true},
	{kind: KindNetstatI, first: []string{"Kernel", "Iface"}, parse: (*doc).tryNetstatI, claims: true},
	{kind: KindNetstatI, first: []string{"Interface"}, parse: (*doc).tryVyOSCounters}, // VyOS's `show interfaces counters` (netstat_i.go)
	{kind: KindNetDevFile, first: []string{"Inter-|"}, parse: (*doc).tryProcNetDev, claims: true},
	{kind: KindNetDevFile, start: isLower, detect: func(_, t string) bool { return isNetDevBareRow(t) }, parse: (*doc).tryProcNetDevRows},
	// iw's station dump, read by no rule: named as unread (unreadcmd.go tryIwStation).
	{kind: KindNetDevFile, first: []string{"Station"}, parse: (*doc).tryIwStation},
	{kind: KindEthtoolG, first: []string{"NIC", "Ring"}, parse: (*doc).tryEthtool, claims: true},
	{kind: KindEthtoolK, first: []string{"Features"}, parse: (*doc).tryEthtoolFeatures, claims: true},
	{kind: KindSockStat, first: []string{"sockets:"}, parse: (*doc).trySockStat, claims: true},
	{kind: KindSockStat, first: []string{"TCP:"}, parse: (*doc).trySockStatTCP},
	{kind: KindBuddyInfo, first: []string{"Node"}, parse: (*doc).tryBuddyInfo},
	{kind: KindZoneInfo, first: []string{"Node"}, parse: (*doc).tryZoneInfo},
	{kind: KindBuddyInfo, first: []string{"Node"}, parse: (*doc).tryBuddyTable, claims: true},
	{kind: KindBuddyInfo, first: []string{"|"}, detect: func(_, t string) bool { return strings.Contains(t, "Node") }, parse: (*doc).tryBuddyTable},
	{kind: KindPageTypeInfo, first: []string{"Page"}, parse: (*doc).tryPageTypeInfo, claims: true},
	// The tables pasted without the "Page block order" lines: the free lists' first, or the
	// pageblocks' alone (whose "Node 0, zone Normal 10 40 169 1 0" rows are no buddy lists).
	{kind: KindPageTypeInfo, first: []string{"Free", "Number"}, detect: func(_, t string) bool { return pageTypeTableHeader(t) }, parse: (*doc).tryPageTypeInfo},
	{kind: KindPerf, first: []string{"samples"}, parse: (*doc).tryProfile, claims: true},
	{kind: KindZoneInfo, first: []string{"pages"}, parse: (*doc).tryZoneInfoHeaderless, claims: true},
	// perf report's comment header; any other "#" line is no format's (not ifconfig's).
	{kind: KindPerf, first: []string{"#"}, parse: (*doc).tryProfileComment, claims: true},

	// "TIME_WAIT 3979" and "3979 TIME_WAIT" (a count per state) before ss's rows, which
	// start with a state too, and the digit rows.
	// PF_RING's "Duration:" block (pfring.go) before the "Name: value" readers (meminfo).
	{kind: KindPFRing, first: []string{"Duration:"}, parse: (*doc).tryPFRingStats},
	// Boards' own memory status lines (boardstatus.go): tegrastats, Armbian's banner.
	{kind: KindBoardStatus, first: []string{"RAM"}, parse: (*doc).tryTegrastats},
	{kind: KindBoardStatus, first: []string{"Memory"}, parse: (*doc).tryArmbianMotd},

	{kind: KindTCPStates, detect: isTCPStateCountLine, parse: (*doc).tryTCPStateCounts},
	{kind: KindSockets, detect: func(ft, _ string) bool { return isSSState(ft) }, parse: (*doc).trySockets, claims: true},
	{kind: KindPSI, detect: isPSIStart, parse: (*doc).tryPSI, claims: true},
	{kind: KindPSI, detect: isPSIRecordStart, parse: (*doc).tryPSIRecords, claims: true},
	{kind: KindTop, start: byteIn("%C"), detect: func(ft, _ string) bool {
		return strings.HasPrefix(ft, "%Cpu") || strings.HasPrefix(ft, "Cpu(s)") || strings.HasPrefix(ft, "%CPU(s):") || ft == "%CPU:" // de, pt_BR, pl (top_locales.go)
	}, parse: (*doc).tryTop, claims: true},
	{kind: KindTop, start: isDigit, detect: isShareRow, parse: (*doc).tryCPUInfo},
	{kind: KindPerf, start: isDigit, detect: isShareRow, parse: (*doc).tryProfile, claims: true},
	// dpvs' "1: dpdk0: socket 0 ..." is an index row too, so before ip link's.
	{kind: KindDPDK, detect: isDPDKStart, parse: (*doc).tryDPDK},
	{kind: KindIPLink, start: isDigit, detect: isIndexRow, parse: (*doc).tryIPLink, claims: true},
	{kind: KindSoftnet, start: isDigit, detect: isNumberRow, parse: (*doc).trySoftnetDecimal},
	{kind: KindVMStatS, start: isDigit, detect: isNumberRow, parse: (*doc).tryVMStatS},
	{kind: KindSysstat, start: isDigit, detect: isNumberRow, parse: (*doc).trySysstat},
	{kind: KindVMStat, start: isDigit, detect: isNumberRow, parse: (*doc).tryVMStatRows},
	{kind: KindNetstatS, start: isDigit, detect: isNumberRow, parse: (*doc).tryNetstatSGrep},
	{kind: KindTopTasks, start: isDigit, detect: isNumberRow, parse: (*doc).tryTopTaskRows},
	{kind: KindPerf, start: isDigit, detect: isNumberRow, parse: (*doc).tryProfile},
	{kind: KindSoftnet, start: isDigit, detect: isNumberRow, parse: (*doc).trySoftnet},
	{kind: KindTop, start: isDigit, detect: isNumberRow, parse: (*doc).tryTop, claims: true},
	{kind: KindSoftnet, start: byteIn("abcdef"), detect: func(ft, _ string) bool { return len(ft) == 8 }, parse: (*doc).trySoftnet},

	{kind: KindBuddyInfo, start: isUpper, detect: func(ft, _ string) bool { return buddyZoneName(ft) }, parse: (*doc).tryBuddyYAML},
	// A Mem-Info zone line cut before its name (showmemcutzone.go, fix49b): its tail ends in
	// "all_unreclaimable? yes|no", before the "name:" formats take its "key:NkB" pairs.
	{kind: KindShowMem, detect: func(_, t string) bool { return strings.HasSuffix(t, "? yes") || strings.HasSuffix(t, "? no") }, parse: (*doc).tryCutZoneLine},
	{kind: KindZoneInfo, detect: func(ft, _ string) bool { return ft == "vm" || strings.HasSuffix(ft, ":") }, parse: (*doc).tryZoneInfoTail},
	{kind: KindNetstatS, detect: isTcpExtBareCounter, parse: (*doc).tryNetstatSBare},
	{kind: KindEthtoolS, detect: isEthtoolReprintStart, parse: (*doc).tryEthtoolReprint}, // a program's re-print of ethtool -S/-k under its prefix (ethtoolreprint.go)
	{kind: KindEthtoolS, detect: isNameColon, parse: (*doc).trySysfsStatsList},
	{kind: KindEthtoolS, start: isLower, detect: isSysfsGrepLine, parse: (*doc).trySysfsStatsList},
	{kind: KindIfconfig, start: byteIn("/"), detect: isSysfsPathStatLine, parse: (*doc).trySysfsPathGrep},
	{kind: KindEthtoolS, detect: func(ft, _ string) bool { return strings.HasPrefix(ft, "Ethtool(") }, parse: (*doc).tryEthtoolStatsPl}, // ethtoolstatspl.go
	{kind: KindEthtoolS, detect: func(_, t string) bool { return strings.HasSuffix(t, "/s") }, parse: (*doc).tryEthtoolRates},
	{kind: KindEthtoolS, detect: isScriptRateLine, parse: (*doc).tryScriptRates}, // a script's pps with a legend (fix61f_scriptlegend.go)
	{kind: KindEthtoolS, detect: isEthtoolBareStart, parse: (*doc).tryEthtoolBare},
	{kind: KindIPLink, detect: isNameColon, parse: (*doc).tryIPLink},
	{kind: KindNetstatS, detect: isNameColon, parse: (*doc).tryNetstatS},
	{kind: KindNetstatS, first: []string{"udp:"}, parse: (*doc).tryBSDNetstatUDP},
	{kind: KindNetstatS, first: []string{"tcp:"}, parse: (*doc).tryBSDNetstatTCP}, // fix56a_bsdtcp.go
	{kind: KindNetStatFile, detect: isNameColon, parse: (*doc).tryProcNetStat},
	{kind: KindMemInfo, detect: isNameColon, parse: (*doc).tryMemInfo},
	{kind: KindSysstat, detect: isNameColon, parse: (*doc).trySysstat},
	{kind: KindIfconfig, detect: func(_, t string) bool { return strings.Contains(t, "encap") || strings.Contains(t, "flags=") }, parse: (*doc).tryIfconfig},
	{kind: KindNstat, start: isUpper, detect: isNstatCounterName, parse: (*doc).tryNstat},
	{kind: KindSysctl, start: isLower, detect: func(ft, t string) bool {
		return strings.IndexByte(ft, '.') > 0 && strings.IndexByte(t, '=') > 0
	}, parse: (*doc).trySysctl},
	// "key value" settings without the '=' (sysctlbare.go).
	{kind: KindSysctl, start: isLower, detect: isBareSysctlLine, parse: (*doc).tryBareSysctl},
	{kind: KindCgroupMemStat, start: isLower, parse: (*doc).tryCgroupMemStat},
	// /proc/vmstat of several runs side by side, a column a run (vmstatcolumns.go).
	{kind: KindVMStatColumns, start: isLower, detect: isVMStatColumnsRow, parse: (*doc).tryVMStatColumns},
	{kind: KindVMStatFile, start: isLower, detect: isVMStatFileName, parse: (*doc).tryVMStatFile},
	{kind: KindTop, start: isLower, parse: (*doc).tryTop},
	// memory.events flattened onto one line, or after its cat (cgroupmemstat.go).
	{kind: KindCgroupMemEvents, detect: func(_, t string) bool { return strings.Contains(t, "oom") }, parse: (*doc).tryCgroupMemEventsLine},
	// cgroup v2 memory files one a line with their values, grep's or a post's (fix56b_cgroupfile.go).
	{kind: KindCgroupMemFiles, detect: func(ft, _ string) bool { return strings.Contains(ft, "memory.") }, parse: (*doc).tryCgroupFileValues},
}

// command tries the registry's formats at line i, in order, and returns the lines the
// first one took (0 when the line starts none).
func (d *doc) command(i int) int {
	t := d.ls[i].Text
	ft := firstField(t)
	if ft == "" {
		return 0
	}
	for _, f := range formatsFor(ft) {
		if f.detect != nil && !f.detect(ft, t) {
			continue
		}
		if n := f.parse(d, i); n > 0 || f.claims {
			return n
		}
	}
	return 0
}

// formatsByFirst holds, for each first field some format names, the formats a line with
// that first field can start: those that name it and those that name none and whose start
// takes its first byte, in registry order. formatsByStart is the same for every other
// first field, by its first byte.
var formatsByFirst, formatsByStart = indexFormats(formats)

func formatsFor(ft string) []*format {
	if fs, ok := formatsByFirst[ft]; ok {
		return fs
	}
	return formatsByStart[ft[0]]
}

func indexFormats(reg []format) (map[string][]*format, *[256][]*format) {
	generic := func(f *format, c byte) bool { return len(f.first) == 0 && (f.start == nil || f.start(c)) }
	by := map[string][]*format{}
	for k := range reg {
		for _, ft := range reg[k].first {
			if _, ok := by[ft]; ok {
				continue
			}
			for j := range reg {
				if f := &reg[j]; slices.Contains(f.first, ft) || generic(f, ft[0]) {
					by[ft] = append(by[ft], f)
				}
			}
		}
	}
	var byStart [256][]*format
	for c := range byStart {
		for j := range reg {
			if f := &reg[j]; generic(f, byte(c)) {
				byStart[c] = append(byStart[c], f)
			}
		}
	}
	return by, &byStart
}

// byteIn is a start that takes the bytes of set.
func byteIn(set string) func(byte) bool {
	return func(c byte) bool { return strings.IndexByte(set, c) >= 0 }
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// isCommandValueLine: "sysctl -n ...", "cat /proc/sys/...", "/sys/class/net/..." or a
// memory cgroup's one-value file read with cat (cmdvalue.go).
func isCommandValueLine(_, t string) bool {
	return strings.Contains(t, "/proc/sys/") || strings.Contains(t, "sysctl -n") || strings.Contains(t, "conntrack -C") || strings.Contains(t, "conntrack --count") || strings.Contains(t, "wc -l") && strings.Contains(t, "conntrack") || strings.Contains(t, "/sys/class/net/") || strings.Contains(t, "cat ") && strings.Contains(t, "memory.")
}

// isIperfJSONLine: a key line of iperf3 -J's output (`"sum_received": {`, iperf.go).
func isIperfJSONLine(ft, t string) bool {
	if !strings.HasSuffix(ft, ":") {
		return false
	}
	_, _, ok := iperfJSONLine(strings.TrimSpace(t))
	return ok
}

// isNodeExporterLine: a "node_" series or its "# HELP"/"# TYPE" (nodeexporter.go), or an
// exporter's series of an ENA allowance counter (kernel.CloudAllowanceMetric: node_ethtool_,
// telegraf's ethtool_, AWS's agent's bare names).
func isNodeExporterLine(ft, t string) bool {
	if strings.HasPrefix(ft, "node_") || ((ft == "#" || ft == "HELP" || ft == "TYPE") && strings.Contains(t, " node_")) {
		return true
	}
	if !strings.Contains(t, "allowance_") {
		return false
	}
	name := ft
	if ft == "#" || ft == "HELP" || ft == "TYPE" {
		fs := fields(t)
		for k, f := range fs {
			if (f == "HELP" || f == "TYPE") && k+1 < len(fs) {
				name = fs[k+1]
				break
			}
		}
	}
	if b, _, ok := strings.Cut(name, "{"); ok {
		name = b
	}
	return kernel.CloudAllowanceMetric(name) != ""
}

// isTopCPULine: top's per-CPU lines on their own: "Cpu15 : 10.3%us, ...", "CPU0 states: ...".
func isTopCPULine(ft, _ string) bool {
	return len(ft) > 3 && (strings.HasPrefix(ft, "Cpu") || strings.HasPrefix(ft, "CPU") || strings.HasPrefix(ft, "%Cpu")) &&
		isDigits(strings.TrimRight(strings.TrimLeft(ft, "%CPUcpu"), ":"))
}

// isSlabinfoLine: /proc/slabinfo's rows, its version line or its "# name <active_objs>" header.
func isSlabinfoLine(ft, t string) bool {
	return strings.Contains(t, ": slabdata") || strings.Contains(t, ": tunables") || ft == "slabinfo" || ft == "#" && strings.Contains(t, "<active_objs>")
}

func isPSIStart(ft, t string) bool {
	return (ft == "some" || ft == "full" || strings.Contains(ft, "pressure/")) && isPSILine(t)
}

// isShareRow, isIndexRow and isNumberRow split the rows that start with a digit: "12.5%"
// (a CPU share), "2:" (an ip link index), any other number.
func isShareRow(ft, _ string) bool { return strings.HasSuffix(ft, "%") }
func isIndexRow(ft, _ string) bool { return !strings.HasSuffix(ft, "%") && strings.HasSuffix(ft, ":") }
func isNumberRow(ft, _ string) bool {
	return !strings.HasSuffix(ft, "%") && !strings.HasSuffix(ft, ":")
}

func isNameColon(ft, _ string) bool { return strings.HasSuffix(ft, ":") }

// isSysfsGrepLine: "rx_crc_errors:1165", a line of `grep . *` run in an interface's
// statistics directory (file name, colon, the file's content; g281's 6429).
func isSysfsGrepLine(ft, _ string) bool {
	name, v, ok := strings.Cut(ft, ":")
	return ok && v != "" && isDigits(v) && kernel.SysfsStatNames[name]
}

// isEthtoolBareStart: a counter line of a grepped ethtool -S, also one whose name the driver
// prints in words ("[hw] rx nobuffer discards: 99123" of dpaa2-eth, "Rx DMA Overruns: 3" of
// TI's cpsw): a name, ": " and digits to the line's end. tryEthtoolBare reads a spaced name
// only under the ethtool -S command that vouches for it.
func isEthtoolBareStart(ft, t string) bool {
	if strings.HasSuffix(ft, ":") {
		return true
	}
	c := strings.LastIndex(t, ": ")
	return c > 0 && ft != "" && (ft[0] == '[' || isUpper(ft[0]) || isLower(ft[0])) && isDigits(strings.TrimSpace(t[c+2:]))
}

// isNstatCounterName: nstat's "TcpExtListenDrops 12 0.0" and its kin.
func isNstatCounterName(ft, _ string) bool {
	return (strings.HasPrefix(ft, "Ip") || strings.HasPrefix(ft, "Tcp") || strings.HasPrefix(ft, "Udp") ||
		strings.HasPrefix(ft, "Icmp") || strings.HasPrefix(ft, "MPTcp"))
}

func isVMStatFileName(ft, _ string) bool {
	return (strings.IndexByte(ft, '_') > 0 || strings.HasPrefix(ft, "pg") || strings.HasPrefix(ft, "ps") || vmstatBareNames[ft])
}
