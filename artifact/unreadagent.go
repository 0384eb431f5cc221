package artifact

import "strings"

// Two families of pasted lines that carry host evidence in another program's words, written
// from the programs' sources before round 8 (docs/accuracy.md, "Pre-round 8 hardening:
// monitoring agents and data stores (h8a)"). Neither is read as a kernel number: a
// monitoring agent's alarm or metric is a rate, a share or a sum over the agent's own window,
// not the counter the rules compare, and a data store's error is mostly its own limit. Each
// line is listed as unread with what it is and what it does not prove, so a paste of nothing
// else no longer exits 3 ("nothing is evidence") and every rule that would have needed the
// counter says "not checked".

// agentMetric is a metric or alarm name as a monitoring agent prints it and what it is.
type agentMetric struct {
	name string // as printed: a Netdata alarm or chart, a Zabbix item key's head, a metric
	why  string
	// alarm: a name other tools print too (oom_kill is /proc/vmstat's field, tcp_memory and
	// used_swap are common words of scripts): taken only on a line that reads as an alarm's
	// (netdataAlarmContext).
	alarm bool
}

// agentMetrics: the names of this domain, each checked in the agent's source.
var agentMetrics = []agentMetric{
	// Netdata's stock alarms (netdata src/health/health.d/*.conf; notifications by
	// src/health/notifications/alarm-notify.sh.in: "${host} ${status_message}, ${chart},
	// ${alarm}" with alarm "${summary} = ${value_string}", syslog "${status} on ${host} at
	// ${date}: ${chart} ${value_string}").
	{alarm: true, name: "ram_in_use", why: "Netdata alarm ram_in_use (ram.conf): used*100/(used+cached+free+buffers) of system.ram, a share every 10s, not MemAvailable"},
	{alarm: true, name: "ram_available", why: "Netdata alarm ram_available (ram.conf): MemAvailable as a % of RAM every 10s"},
	{alarm: true, name: "oom_kill", why: "Netdata alarm oom_kill (ram.conf): OOM kills summed over the last 30 minutes of mem.oom_kill (vmstat oom_kill), no victim, no constraint"},
	{alarm: true, name: "used_swap", why: "Netdata alarm used_swap (swap.conf): swap used as a % of swap every 10s"},
	{name: "30min_ram_swapped_out", why: "Netdata alarm 30min_ram_swapped_out (swap.conf): swap-out over 30 minutes as a % of RAM"},
	{alarm: true, name: "tcp_memory", why: "Netdata alarm tcp_memory (tcp_mem.conf): sockstat TCP mem as a % of tcp_mem's high (third) value"},
	{alarm: true, name: "tcp_orphans", why: "Netdata alarm tcp_orphans (tcp_orphans.conf): orphaned TCP sockets as a % of tcp_max_orphans"},
	{alarm: true, name: "tcp_connections", why: "Netdata alarm tcp_connections (tcp_conn.conf): IPv4 TCP sockets as a % of the configured maximum"},
	{name: "1m_tcp_accept_queue_overflows", why: "Netdata alarm 1m_tcp_accept_queue_overflows (tcp_listen.conf): TcpExt ListenOverflows per second, averaged over 60s"},
	{name: "1m_tcp_accept_queue_drops", why: "Netdata alarm 1m_tcp_accept_queue_drops (tcp_listen.conf): TcpExt ListenDrops per second, averaged over 60s"},
	{name: "1m_tcp_syn_queue_drops", why: "Netdata alarm 1m_tcp_syn_queue_drops (tcp_listen.conf): TcpExt TCPReqQFullDrop per second, averaged over 60s"},
	{name: "1m_tcp_syn_queue_cookies", why: "Netdata alarm 1m_tcp_syn_queue_cookies (tcp_listen.conf): TcpExt TCPReqQFullDoCookies per second, averaged over 60s"},
	// 10min_netdev_backlog_exceeded and 10min_netdev_budget_ran_outs were these alarms'
	// names in softnet.conf from 2017 (35fd21781a) to 2019 (ef721290f0), the window the same
	// minute; 1m_ipv4_tcp_resets_sent was tcp_resets.conf's name from 2017 to 2023.
	{name: "_netdev_backlog_exceeded", why: "Netdata alarm 1min_netdev_backlog_exceeded (softnet.conf; 10min_ before 2019): softnet_stat dropped (netdev_max_backlog) per second, averaged over 1 minute"},
	{name: "_netdev_budget_ran_outs", why: "Netdata alarm 1min_netdev_budget_ran_outs (softnet.conf; 10min_ before 2019): softnet_stat time_squeeze per second, averaged over 1 minute"},
	{name: "inbound_packets_dropped_ratio", why: "Netdata alarm inbound_packets_dropped_ratio (net.conf): an interface's inbound drops as a % of its packets over 10 minutes (0 under 10000 packets)"},
	{name: "outbound_packets_dropped_ratio", why: "Netdata alarm outbound_packets_dropped_ratio (net.conf): an interface's outbound drops as a % of its packets over 10 minutes"},
	{name: "interface_inbound_errors", why: "Netdata alarm interface_inbound_errors (net.conf): an interface's inbound errors summed over 10 minutes"},
	{name: "interface_outbound_errors", why: "Netdata alarm interface_outbound_errors (net.conf): an interface's outbound errors summed over 10 minutes"},
	{name: "10min_fifo_errors", why: "Netdata alarm 10min_fifo_errors (net.conf): an interface's FIFO errors summed over 10 minutes"},
	{name: "_received_packets_storm", why: "Netdata alarm 10s_received_packets_storm (net.conf): packets received in 10s as a % of the last minute's rate"},
	{name: "_tcp_resets_sent", why: "Netdata alarm 1m/10s_ip_tcp_resets_sent (tcp_resets.conf): Tcp OutRsts per second, averaged over the window"},
	{name: "_tcp_resets_received", why: "Netdata alarm 1m/10s_ip_tcp_resets_received (tcp_resets.conf): Tcp AttemptFails per second, averaged over the window"},
	{name: "netfilter_conntrack_full", why: "Netdata alarm netfilter_conntrack_full (netfilter.conf): conntrack entries as a % of nf_conntrack_max, the max over 10s"},
	{name: "ipv4.sockstat_tcp_mem", why: "Netdata chart ipv4.sockstat_tcp_mem: sockstat TCP mem in the chart's units, a value the notification does not name"},
	{name: "system.softnet_stat", why: "Netdata chart system.softnet_stat: softnet_stat columns as per-second rates"},
	{name: "system.ram", why: "Netdata chart system.ram (a syslog notification names the chart and the alarm's value): the ram_in_use or ram_available share, not MemAvailable"},
	{name: "mem.available", why: "Netdata chart mem.available: MemAvailable, in the ram_available alarm a % of RAM"},
	{name: "ipv4.sockstat_tcp_sockets", why: "Netdata chart ipv4.sockstat_tcp_sockets: in the tcp_orphans alarm orphans as a % of tcp_max_orphans"},
	{name: "ip.tcp_accept_queue", why: "Netdata chart ip.tcp_accept_queue: ListenOverflows and ListenDrops per second"},
	// The charts' names before netdata's 2019 renames, as alarm mails and titles print them
	// (netdata PR #3976: 1m_ipv4_tcp_listen_drops on ipv4.tcplistenissues; issue #9799: the
	// tcp_resets.conf alarms on ipv4.tcphandshake).
	{name: "ipv4.tcplistenissues", why: "Netdata chart ipv4.tcplistenissues (ip.tcp_accept_queue since): ListenOverflows and ListenDrops per second"},
	{name: "ipv4.tcphandshake", why: "Netdata chart ipv4.tcphandshake: Tcp EstabResets, OutRsts, AttemptFails and SynRetrans per second, what tcp_resets.conf's alarms average over 10s or 1m; resets are connections refused or aborted (often by the agent's own restart), not a memory or queue fault"},
	// Zabbix agent item keys (Zabbix manual, "Zabbix agent items": net.if.in[if,<mode>] a
	// counter the server usually stores as a change per second;
	// system.swap.size[<device>,<type>]). vm.memory.size[available] is not one meminfo line:
	// src/libs/zbxsysinfo/linux/memory.c VM_MEMORY_AVAILABLE returns MemAvailable when
	// /proc/meminfo has it and free+buffers+Cached otherwise, and the 2011 agent always
	// returned free+buffers+cached; the value does not say which agent computed it.
	{name: "vm.memory.size[", why: "Zabbix item vm.memory.size[mode]: bytes (or %, for pavailable/pused) as the agent computed them; 'available' is MemAvailable on newer agents but free+buffers+cached on older ones (zbxsysinfo/linux/memory.c), so not /proc/meminfo's line"},
	{name: "system.swap.size[", why: "Zabbix item system.swap.size[device,type]: swap bytes or % (pfree, pused)"},
	{name: "net.if.in[", why: "Zabbix item net.if.in[if,mode]: an interface's inbound counter (bytes, packets, errors, dropped); stored as a change per second unless the item says otherwise"},
	{name: "net.if.out[", why: "Zabbix item net.if.out[if,mode]: an interface's outbound counter; stored as a change per second unless the item says otherwise"},
	// Datadog agent's network and memory checks (integrations-core
	// network/datadog_checks/network/check_linux.py: TcpExt ListenOverflows →
	// system.net.tcp.listen_overflows sent as a rate, with a .count twin; datadog-agent
	// pkg/collector/corechecks/system/memory: system.mem.usable is gopsutil's Available /
	// 1 MiB, system.swap.pct_free a fraction).
	{name: "system.net.packets_in.drop", why: "Datadog metric system.net.packets_in.drop: an interface's rx drops per second"},
	{name: "system.net.packets_in.error", why: "Datadog metric system.net.packets_in.error: an interface's rx errors per second"},
	{name: "system.net.tcp.listen_overflows", why: "Datadog metric system.net.tcp.listen_overflows: TcpExt ListenOverflows per second (the .count twin is a count per interval)"},
	{name: "system.net.tcp.listen_drops", why: "Datadog metric system.net.tcp.listen_drops: TcpExt ListenDrops per second"},
	{name: "system.net.tcp.backlog_drops", why: "Datadog metric system.net.tcp.backlog_drops: TcpExt TCPBacklogDrop per second"},
	{name: "system.net.tcp.rcv_packs_collapsed", why: "Datadog metric system.net.tcp.rcv_packs_collapsed: TcpExt TCPRcvCollapsed per second"},
	{name: "system.mem.usable", why: "Datadog metric system.mem.usable: the agent's available memory (gopsutil: MemAvailable, or its estimate on kernels without it) in MiB"},
	{name: "system.swap.pct_free", why: "Datadog metric system.swap.pct_free: free swap as a fraction of 1"},
	// Metricbeat's system module (fields.asciidoc: system.memory.actual.free bytes,
	// system.network.in.dropped a counter, system.socket.summary.tcp.all.orphan a count).
	{name: "system.memory.actual.free", why: "Metricbeat field system.memory.actual.free: MemAvailable in bytes"},
	{name: "system.network.in.dropped", why: "Metricbeat field system.network.in.dropped: an interface's rx drops since boot"},
	{name: "system.socket.summary.tcp.all.orphan", why: "Metricbeat field system.socket.summary.tcp.all.orphan: orphaned TCP sockets (sockstat orphan)"},
	// A compact Metricbeat event (one JSON line, as `metricbeat -e -d publish` or a Kibana
	// export prints it) nests those fields and names its metricset in ECS event.dataset
	// ("module.metricset"); a pretty-printed one is unreadjson.go's.
	{name: `"dataset":"system.memory"`, why: "a Metricbeat system/memory event (actual.free is MemAvailable in bytes, used.pct a fraction)"},
	{name: `"dataset":"system.network"`, why: "a Metricbeat system/network event (in.dropped, in.errors: an interface's counters since boot)"},
	{name: `"dataset":"system.socket_summary"`, why: "a Metricbeat system/socket_summary event (tcp.all.orphan, tcp.memory: sockstat)"},
	{name: "system.socket.summary.tcp.memory", why: "Metricbeat field system.socket.summary.tcp.memory: sockstat TCP mem in bytes"},
	// collectd's interface and memory plugins (types.db: if_dropped rx:DERIVE tx:DERIVE,
	// memory-free a gauge in bytes).
	{name: "/if_dropped", why: "collectd interface plugin if_dropped: rx and tx drops, a DERIVE (per second once graphed)"},
	{name: "/if_errors", why: "collectd interface plugin if_errors: rx and tx errors, a DERIVE"},
	{name: "memory/memory-", why: "collectd memory plugin: a meminfo quantity in bytes"},
}

// maxAgentLineBytes: a metric, alarm or notification is one line; a paragraph is prose.
const maxAgentLineBytes = 400

// maxAgentJSONBytes: an agent's event printed as one JSON object (a Metricbeat event is
// some hundreds of bytes to a few KiB).
const maxAgentJSONBytes = 8192

// agentMetricLine says why t is a monitoring agent's line with a metric of this domain: a
// line of that kind states a value (a digit).
//
// Each name holds '_', '[' or "mem", "system." or "ipv4." (agentAnchor); the line is asked only for the
// names whose anchor it holds, so a line of prose with a number and a full stop costs three
// byte searches, not a search per name (the table was 2% of BenchmarkParsePastes).
func agentMetricLine(t string) (string, bool) {
	if len(t) > maxAgentLineBytes && !(len(t) <= maxAgentJSONBytes && t[0] == '{') || !hasDigit(t) {
		return "", false
	}
	var has [numAgentAnchors]bool
	has[anchorUnderscore] = strings.IndexByte(t, '_') >= 0
	has[anchorBracket] = strings.IndexByte(t, '[') >= 0
	has[anchorSystem] = strings.Contains(t, "mem") || strings.Contains(t, "system.") || strings.Contains(t, "ipv4.")
	if !has[anchorUnderscore] && !has[anchorBracket] && !has[anchorSystem] {
		return "", false
	}
	for i, m := range agentMetrics {
		if !has[agentAnchors[i]] {
			continue
		}
		k := strings.Index(t, m.name)
		if k < 0 {
			continue
		}
		// A name stands as a word: "ram_in_use", not "xram_in_use_total" of another exporter.
		end := k + len(m.name)
		if m.name[0] != '_' && m.name[0] != '/' && k > 0 && isNameByte(t[k-1]) {
			continue
		}
		if last := m.name[len(m.name)-1]; last != '[' && last != '-' && end < len(t) && isNameByte(t[end]) && t[end] != '.' {
			continue
		}
		if m.alarm && !netdataAlarmContext(t) {
			continue
		}
		return m.why + "; headroom does not read an agent's window or share as the kernel's counter", true
	}
	return "", false
}

// netdataAlarmContext: the line reads as a Netdata alarm's: it names Netdata, states the
// alarm's value after " = " (alarm-notify.sh.in's "${summary} = ${value_string}", the
// dashboard's and older notifications' "name = value"), or carries a status word of the
// notification ("is critical", "needs attention", "recovered"; CRITICAL, WARNING, CLEAR).
func netdataAlarmContext(t string) bool {
	for _, w := range [...]string{" = ", "etdata", "critical", "CRITICAL", "WARNING", "needs attention", "recovered", "CLEAR"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

const (
	anchorUnderscore = iota
	anchorBracket
	anchorSystem
	numAgentAnchors
)

// agentAnchors are agentMetrics' anchors, in its order.
var agentAnchors = func() []int {
	a := make([]int, len(agentMetrics))
	for i, m := range agentMetrics {
		a[i] = agentAnchor(m.name)
	}
	return a
}()

// agentAnchor: the anchor a name holds, '_' before '[' before "mem"/"system."/"ipv4."
// (TestAgentAnchors checks that every name holds its own).
func agentAnchor(name string) int {
	switch {
	case strings.IndexByte(name, '_') >= 0:
		return anchorUnderscore
	case strings.IndexByte(name, '[') >= 0:
		return anchorBracket
	}
	return anchorSystem
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// appHostReasons: a data store's or a runtime's own words for a limit it reached, and what
// the line proves about the host. None is a kernel finding.
var appHostReasons = []struct{ text, why string }{
	// HotSpot's java.nio.Bits.reserveMemory throws it when direct buffers pass
	// -XX:MaxDirectMemorySize (by default the heap's -Xmx): the JVM's limit, not the kernel's.
	{"OutOfMemoryError: Direct buffer memory", "the JVM's direct-buffer limit (-XX:MaxDirectMemorySize, java.nio.Bits.reserveMemory), not the kernel's memory"},
	{"OutOfMemoryError: Java heap space", "the JVM's heap limit (-Xmx), not the kernel's memory"},
	{"OutOfMemoryError: GC overhead limit exceeded", "the JVM's heap limit (-Xmx), not the kernel's memory"},
	// fix38c: a JVM git server's (JGit ReceivePack: Gitblit, Gerrit) unpack status carries
	// the exception's message alone ("unpack error Java heap space"), which the git client
	// prints as "error: unpack failed: error Java heap space".
	{"unpack failed: error Java heap space", "a JVM git server's receive-pack ran out of its Java heap while unpacking the push (JGit's unpack status, relayed by the git client): the JVM's heap limit (-Xmx), not the kernel's memory; nothing was killed"},
	{"unpack failed: error GC overhead limit exceeded", "a JVM git server's receive-pack hit the JVM's GC overhead limit while unpacking the push (JGit's unpack status, relayed by the git client): the JVM's heap limit (-Xmx), not the kernel's memory; nothing was killed"},
	// HotSpot os.hpp OS_NATIVE_THREAD_CREATION_FAILED_MSG ("unable to create native thread:
	// possibly out of memory or process/resource limits reached"; "unable to create new native
	// thread" before JDK 11): pthread_create failed, mostly EAGAIN from RLIMIT_NPROC, the pids
	// cgroup or threads-max; only a stated ENOMEM would be memory.
	{"unable to create native thread", "the JVM could not start a thread (pthread_create: EAGAIN from RLIMIT_NPROC, a pids cgroup or kernel.threads-max, or a thread stack not mapped): not by itself a kernel memory shortage"},
	{"unable to create new native thread", "the JVM could not start a thread (pthread_create: EAGAIN from RLIMIT_NPROC, a pids cgroup or kernel.threads-max, or a thread stack not mapped): not by itself a kernel memory shortage"},
	// fix45c: ZeroC Ice's IceUtil::Thread::start (IceUtil/Thread.cpp) throws
	// ThreadSyscallException (IceUtil/ThreadException.h, a SyscallException: "syscall
	// exception: " and strerror of pthread_create's return) when it cannot start a thread;
	// Ice's logger prints it after "cannot create thread for timer:" or a thread pool's words.
	{"IceUtil::ThreadSyscallException", iceThreadWhy},
	// Seastar (ScyllaDB, Redpanda) takes its memory at start (--memory) and allocates from
	// per-shard pools: std::bad_alloc is that pool's; "Exceptional future ignored" is
	// core/future.cc report_failed_future.
	{"std::bad_alloc", "a C++ allocation failed (operator new threw std::bad_alloc: the program's allocator was refused, by its own pool such as Seastar's per-shard pool in ScyllaDB/Redpanda (sized at start by --memory), by the process's address-space limit, or by the kernel's commit limit under vm.overcommit_memory=2): the program's own memory; no OOM kill, and no statement of the host's free memory"},
	// Seastar reactor.cc: a task ran past blocked_reactor_notify_ms: CPU, not memory.
	{"Reactor stalled for", "a Seastar shard ran one task past its stall threshold (reactor.cc): CPU time, not memory or the network"},
	// ClickHouse MemoryTracker (Code 241): max_server_memory_usage or a query's max_memory_usage.
	{"MEMORY_LIMIT_EXCEEDED", "ClickHouse's own memory limit (MemoryTracker: max_server_memory_usage or max_memory_usage, Code 241), not the kernel's"},
	{"Memory limit (total) exceeded", "ClickHouse's own memory limit (MemoryTracker: max_server_memory_usage, Code 241), not the kernel's"},
	{"Memory limit (for query) exceeded", "ClickHouse's per-query memory limit (max_memory_usage, Code 241), not the kernel's"},
	// etcd server/etcdserver/raft.go and wal/wal.go: a late heartbeat, a slow fdatasync: disk
	// or CPU, not memory.
	{"failed to send out heartbeat on time", "etcd's leader sent a heartbeat late (etcdserver raft.go: a slow disk or a starved CPU), not memory or the kernel's network"},
	{"slow fdatasync", "etcd's WAL fdatasync was slow (wal.go): the disk, not memory"},
	// etcd rafthttp peer.go send: the peer's in-process message queue (a Go channel of
	// streamBufSize/pipelineBufSize messages) is full, "dropped internal Raft message since
	// sending buffer is full (overloaded network)": etcd's own buffer, not a kernel socket
	// buffer; the peer or the path to it did not keep up.
	{"since sending buffer is full", "etcd dropped a Raft message because its own per-peer send queue was full (rafthttp peer.go: an in-process channel, not a kernel socket buffer or a NIC ring): the peer or the path to it did not keep up; no kernel counter or memory figure"},
	// HotSpot's crash file (hs_err_pid<N>.log, vmError.cpp): its native allocation failed and
	// the JVM aborted itself; and os::print_memory_info's line of the host's memory then.
	{"Native memory allocation (", "the JVM's own native allocation failed (HotSpot os::commit_memory or malloc: ENOMEM from the address space, vm.max_map_count or overcommit, not only a lack of pages) and the JVM aborted, writing hs_err_pid<N>.log: no kill by the kernel's OOM killer"},
	{"k page, physical ", "HotSpot's memory line (os::print_memory_info: page size, physical memory and free, swap) of a JVM on another system (Windows, macOS) or not in its exact form: not read; the Linux form is (hserrmem.go)"},
	// h28d: the JDK's FileChannelImpl.map: map0's mmap failed with ENOMEM even after a GC
	// ("java.lang.OutOfMemoryError: Map failed", wrapped as "java.io.IOException: Map
	// failed"), Kafka's and Lucene's index files: the process's count of mappings at
	// vm.max_map_count, or its address space.
	{"OutOfMemoryError: Map failed", mapFailedWhy},
	{"IOException: Map failed", mapFailedWhy},
	// ZooKeeper server/persistence/FileTxnLog.java commit(): "fsync-ing the write ahead log
	// in {} took {}ms which will adversely effect operation latency. File size is {} bytes.
	// See the ZooKeeper troubleshooting guide" (past fsync.warningthresholdms, 1000).
	{"fsync-ing the write ahead log in ", "ZooKeeper's fsync of its transaction log took longer than fsync.warningthresholdms (FileTxnLog: \"fsync-ing the write ahead log in SyncThread:N took Nms which will adversely effect operation latency\"): the disk (or the writeback of other dirty pages ahead of it), not a memory figure; no kernel counter"},
	// Apache Ignite / GridGain LongJVMPauseDetector: "Possible too long JVM pause: N
	// milliseconds." (3.x: "Possible too long JVM pause [duration=Nms]").
	{"Possible too long JVM pause", "Ignite's pause detector woke late (LongJVMPauseDetector: \"Possible too long JVM pause: N milliseconds.\"): the whole JVM stopped (a GC's or safepoint's pause, or the host stalled: swapping, reclaim, a paused VM), cause not stated; no memory figure of the host's"},
	// Cassandra nodetool tpstats (TpStatsPrinter): the "Message type  Dropped" table after
	// the pools: internode messages dropped because they waited past their timeout
	// (read_request_timeout_in_ms, write_request_timeout_in_ms) in the node's own queues.
	{"Message type           Dropped", "Cassandra's nodetool tpstats table of dropped messages (\"Message type  Dropped\"; READ, MUTATION, ...): requests the node itself dropped after they waited past their timeout in its stages (an overloaded node, GC pauses, slow disks), not packets the kernel dropped and no memory figure"},
	// Cassandra gms/FailureDetector.java: its own thread paused more than
	// MAX_LOCAL_PAUSE_IN_NANOS (5 s): a JVM or host pause, cause not stated.
	{"Not marking nodes down due to local pause", "Cassandra's failure detector was paused (FailureDetector.java, nanoseconds > 5000000000): a GC or host stall, cause not stated; no memory figure"},
	// Hazelcast's NioChannelOptions: after setting SO_SNDBUF/SO_RCVBUF it reads the size
	// back and warns once when they differ ("The configured tcp send buffer size conflicts
	// with the value actually being used by the socket ... Configured N bytes, actual M
	// bytes."). The kernel doubles a request, holds it at SOCK_MIN_SNDBUF/SOCK_MIN_RCVBUF
	// from below and net.core.wmem_max/rmem_max from above: actual above configured is that
	// doubling or floor, actual below is the sysctl's cap; a TCP socket's buffer, no drop.
	{"buffer size conflicts with the value actually being used by the socket", "Hazelcast's warning that a TCP socket's buffer read back other than configured (NioChannelOptions: \"Configured N bytes, actual M bytes\"): the kernel doubles a setsockopt request and holds it between SOCK_MIN_SNDBUF/SOCK_MIN_RCVBUF and net.core.wmem_max/rmem_max; actual above configured is the doubling or that floor, below it the sysctl's cap; a per-socket size, no drop and no counter"},
	{"GCInspector", "Cassandra's GCInspector: a JVM garbage collection's pause and heap, the JVM's own memory"},
	// EMFILE: RLIMIT_NOFILE, not memory.
	{"Too many open files", "EMFILE (Too many open files): the process's RLIMIT_NOFILE, not memory"},
}

// clickHouseMmapWhy: ClickHouse src/Common/Allocator.h: throwFromErrno("Allocator: Cannot
// mmap " size, CANNOT_ALLOCATE_MEMORY) (Code 173): the kernel refused the mapping (h28d).
const clickHouseMmapWhy = "ClickHouse's allocator's mmap was refused (Allocator: \"Code: 173. DB::ErrnoException: Allocator: Cannot mmap N GiB., errno: 12, strerror: Cannot allocate memory\"): ENOMEM from the kernel: overcommit accounting (vm.overcommit_memory 2's CommitLimit, or mode 0's heuristic with RAM and swap short), the process's count of mappings at vm.max_map_count, or RLIMIT_AS; not ClickHouse's own max_server_memory_usage (that is Code 241) and no kill by the kernel's OOM killer; overcommit-exposed reads `grep -E 'Committed_AS|CommitLimit' /proc/meminfo` when the text holds it"

// iceThreadWhy: ZeroC Ice could not start a thread (fix45c).
const iceThreadWhy = "ZeroC Ice could not start a thread (IceUtil::Thread::start: pthread_create failed and Ice threw IceUtil::ThreadSyscallException, \"syscall exception: \" and the errno's text; \"Resource temporarily unavailable\" is EAGAIN: the user's process and thread limit (RLIMIT_NPROC, ulimit -u), a pids cgroup's pids.max or kernel.threads-max reached, or a thread's stack not mapped): a count of threads, not by itself a memory shortage; no kill by the kernel's OOM killer and no figure of the host's memory; headroom reads no thread limit"

// mapFailedWhy: the JDK's mmap of a file refused (FileChannelImpl.map, h28d).
const mapFailedWhy = "the JVM could not map a file (FileChannelImpl.map: \"java.lang.OutOfMemoryError: Map failed\", wrapped as \"java.io.IOException: Map failed\"; Kafka's and Lucene's index files): mmap returned ENOMEM even after a GC: most often the process's count of mappings reached vm.max_map_count (a per-process limit, default 65530: `wc -l /proc/PID/maps` against `sysctl vm.max_map_count`), else its address space (RLIMIT_AS, a 32-bit JVM) or overcommit accounting; not the JVM's heap (-Xmx), no kill by the kernel's OOM killer and no figure of the host's free memory; no rule of headroom's compares a process's mappings with vm.max_map_count (overcommit-exposed is the host's Committed_AS, another refusal)"

// appHostLine says why t is a data store's or runtime's line naming one of appHostReasons.
// Gate: one of the few capitals the texts start with, then the search.
func appHostLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes || strings.IndexAny(t, "OuRMsfNGTSm") < 0 {
		return "", false
	}
	for _, r := range appHostReasons {
		if k := strings.Index(t, r.text); k >= 0 {
			if adviceLead(t[:k]) {
				return "", false // "If you see java.io.IOException: Map failed, raise ..." (h28d)
			}
			return r.why + "; headroom has no reader for this log", true
		}
	}
	return "", false
}

// isAgentTag: the syslog tags of the agents and data stores above (their daemons' names as
// their units start them). The syslog path asks only their lines (boringHolding hands them
// to the window): another program's line is the commonest line of a syslog, and the tag is
// the cheap needle (a switch: a compare or two for a tag that is none of them).
func isAgentTag(tag string) bool {
	if isBalloonTag(tag) || isClusterAgentTag(tag) {
		return true // qmemman's; a cluster or configuration-management agent's (clusteragent.go)
	}
	switch tag {
	case "netdata", "alarm-notify.sh", "zabbix_agentd", "zabbix_agent2", "zabbix_server",
		"datadog-agent", "agent", "metricbeat", "collectd",
		"scylla", "etcd", "cassandra", "kafka", "kafka-server-start.sh", "java",
		"clickhouse-server", "clickhouse", "cockroach", "tikv-server", "redpanda",
		"jvb", "jvb.sh", "jicofo", "jicofo.sh", // Jitsi's videobridge and focus, JVMs (h16b)
		"uvm", // Untangle's (Arista Edge Threat Management's) JVM, /usr/share/untangle/bin/uvm (h17c)
		// Log shippers' units (fix26d): Vector's journald tag "vector[PID]", Fluent Bit's,
		// Filebeat's, Fluentd's (td-agent), Promtail's, Logstash's.
		"vector", "fluent-bit", "filebeat", "fluentd", "td-agent", "promtail", "logstash":
		return true
	}
	return false
}

// foreignLogWhy: another program's syslog line, from one of agentTags, that is an agent's
// metric, a data store's limit or an errno of this domain, in that order.
func foreignLogWhy(tag, t string) (string, bool) {
	if isBalloonTag(tag) {
		return balloonLine(t)
	}
	if !isAgentTag(tag) {
		return "", false
	}
	if why, ok := clusterOwnLine(t); ok {
		return why, true // a cluster agent's own line, before its errno (clusteragent.go)
	}
	if why, ok := errnoLogLine(t); ok {
		return why, true
	}
	if why, ok := agentMetricLine(t); ok {
		return why, true
	}
	if why, ok := distDBLine(t); ok {
		return why, true // TiKV's, ScyllaDB's, CockroachDB's, etcd's own (unreaddistdb.go)
	}
	return appHostLine(t)
}

// isBalloonTag: qmemman's loggers (balloonLine).
func isBalloonTag(tag string) bool {
	return len(tag) >= 7 && tag[0] == 'q' && strings.HasPrefix(tag, "qmemman")
}

// balloonLine: a line of Qubes' memory balancer for Xen, qmemman (qubes-core-admin
// qubes/qmemman/systemstate.py; its loggers "qmemman.systemstate", "qmemman.daemon.algo",
// "qmemman.daemon.reqhandler" are the journal's tags), that states memory in figures: "Xen
// free = N too small for satisfy assignments! assigned_but_unused=N, domdict={...}"
// (get_free_xen_memory, logged when the hypervisor's free pages are below what it promised
// to domains plus XEN_FREE_MEM_MIN), "mem-set domain N to N" (the balloon targets it sets).
// The figures are bytes of the hypervisor's free pool and of the domains' balloon targets,
// bookkeeping of Xen's memory, not a kernel's zones, meminfo or allocation failures: named as
// unread, never read as a shortage of the dom0 kernel's. A line without a figure is the
// daemon's chatter.
func balloonLine(t string) (string, bool) {
	if !hasDigit(t) {
		return "", false
	}
	return "Qubes qmemman (the Xen memory balancer in dom0, qubes/qmemman/systemstate.py): the hypervisor's free memory and the domains' balloon targets in bytes, not a kernel's zones or meminfo; headroom does not read Xen's balloon accounting", true
}
