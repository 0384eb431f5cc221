package export

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"headroom/diagnose"
	"headroom/internal/buildinfo"
	"headroom/kernel"
	"headroom/model"
)

// metricDef is one metric family: its descriptor and type, and what the exposition writes
// for it, rendered once.
type metricDef struct {
	desc   *prometheus.Desc
	typ    prometheus.ValueType
	name   string
	help   string
	labels []string // as declared: the order of label values in add
	// byName lists the label indexes in label-name order, the order of the exposition
	// (client_golang sorts label pairs by name, and a family's series by their values).
	byName []int
	rank   int // position in name order: families are written sorted by name

	textHead, omHead string // # HELP and # TYPE lines of the text format and of OpenMetrics
}

var allDescs []*metricDef

func def(name string, typ prometheus.ValueType, help string, labels ...string) *metricDef {
	d := &metricDef{desc: prometheus.NewDesc(name, help, labels, nil), typ: typ, name: name, help: help, labels: labels}
	d.byName = make([]int, len(labels))
	for i := range d.byName {
		d.byName[i] = i
	}
	sort.SliceStable(d.byName, func(a, b int) bool { return labels[d.byName[a]] < labels[d.byName[b]] })
	d.textHead, d.omHead = familyHeads(name, typ, help)
	allDescs = append(allDescs, d)
	return d
}

func init() {
	byName := slices.Clone(allDescs)
	slices.SortFunc(byName, func(a, b *metricDef) int { return strings.Compare(a.name, b.name) })
	for i, d := range byName {
		d.rank = i
	}
}

// build is this binary's build, read once (headroom_build_info).
var build = buildinfo.Get()

const (
	counter = prometheus.CounterValue
	gauge   = prometheus.GaugeValue
)

// MetricNames lists the names of every metric family the collector can expose (the
// _total suffix included), sorted. Tests check the alert rules and the dashboard against it.
func MetricNames() []string {
	out := make([]string, 0, len(allDescs))
	for _, d := range allDescs {
		out = append(out, d.name)
	}
	sort.Strings(out)
	return out
}

// The metrics. HELP says what the number is, where it comes from and, where it matters, the
// kernel version that changed it. docs/serve.md has the same list with the root-only ones.
var (
	mSourceAvailable = def("headroom_source_available", gauge,
		"1 when the newest sample could read this kernel interface, 0 when not (missing on this kernel, or needs root: /proc/pagetypeinfo since 5.4, /dev/kmsg with kernel.dmesg_restrict=1).",
		"source")
	mSamples = def("headroom_samples_total", counter,
		"Samples taken. A scrape within --min-interval of the previous sample reuses it, so this grows slower than the scrape count when several scrapers share headroom.")
	mSampleSeconds = def("headroom_sample_duration_seconds", gauge,
		"Wall time of the newest sample: reading and parsing every source, ethtool and the kernel log.")
	mDiagnosisSeconds = def("headroom_diagnosis_duration_seconds", gauge,
		"Wall time of the last run of the rules over the window. They run at most once per --rules-interval (default 15 s), and at the first sample after a new kernel-log event.")
	mWindowSamples = def("headroom_diagnosis_window_samples", gauge,
		"Samples in the window the last run of the rules saw (rates need two).")
	mPageSize = def("headroom_page_size_bytes", gauge,
		"Page size of the kernel: multiply the _pages metrics by it for bytes.")
	mBuildInfo = def("headroom_build_info", gauge,
		"1, with the headroom build in its labels: version (git describe of the release, \"devel\" otherwise), VCS revision, Go version, OS and architecture, as node_exporter's node_exporter_build_info.",
		"version", "revision", "goversion", "goos", "goarch")
	mKernelInfo = def("headroom_kernel_info", gauge,
		"1, with the kernel release as uname prints it, the version headroom compares (major.minor.patch, by which it picks GFP tables and per-kernel defaults; \"unknown\" when unreadable) and the word size from the machine name (0 when unknown).",
		"release", "version", "word_bits")

	mNetworkView = def("headroom_network_view_info", gauge,
		"1, with the directory the per-namespace network files (/proc/net/*) are read from: /proc/net is this process's network namespace (the host's with hostNetwork), <host-root>/proc/1/net the host's when serve runs with --host-root.",
		"files")

	mZoneFree = def("headroom_zone_free_pages", gauge,
		"Free pages in the zone (/proc/zoneinfo \"pages free\").",
		"node", "zone")
	mZoneWatermark = def("headroom_zone_watermark_pages", gauge,
		"Zone watermark in pages (/proc/zoneinfo min, low, high; since 5.0 the printed values include watermark_boost). Below low kswapd is woken; below min only allocations that may use the reserve (GFP_ATOMIC) succeed.",
		"node", "zone", "watermark")
	mZoneManaged = def("headroom_zone_managed_pages", gauge,
		"Pages the buddy allocator manages in the zone (/proc/zoneinfo managed, 3.8+).",
		"node", "zone")
	mZoneFreeBlocks = def("headroom_zone_free_blocks", gauge,
		"Free blocks of 2^order pages in the zone (/proc/buddyinfo). An allocation of that order needs one block of at least that order; atomic ones cannot compact to make one.",
		"node", "zone", "order")
	mZoneFreeBlocksType = def("headroom_zone_free_blocks_by_migratetype", gauge,
		"Free blocks of 2^order pages per migrate type (/proc/pagetypeinfo: root only since 5.4; only with --pagetypeinfo). Counts above 100000 are printed as >100000 since 5.4 and exported as 100000.",
		"node", "zone", "migratetype", "order")

	mReclaimScanned = def("headroom_reclaim_scanned_pages_total", counter,
		"Pages scanned by reclaim (/proc/vmstat pgscan_<reclaimer>; the per-zone pgscan_*_<zone> counters of older kernels are summed).",
		"reclaimer")
	mReclaimStolen = def("headroom_reclaim_reclaimed_pages_total", counter,
		"Pages reclaimed (/proc/vmstat pgsteal_<reclaimer>; per-zone counters of older kernels summed). reclaimed/scanned is reclaim efficiency.",
		"reclaimer")
	mAllocstall = def("headroom_direct_reclaim_stalls_total", counter,
		"Times an allocating task entered direct reclaim because the zones were at their min watermark (/proc/vmstat allocstall, or the sum of allocstall_<zone> on kernels that split it per zone).")
	mCompactStall = def("headroom_compaction_stalls_total", counter,
		"Times an allocating task compacted memory itself to make a high-order block (/proc/vmstat compact_stall, 2.6.35+).")
	mCompactFail = def("headroom_compaction_failures_total", counter,
		"Direct compactions that did not produce the block (/proc/vmstat compact_fail).")
	mCompactSuccess = def("headroom_compaction_successes_total", counter,
		"Direct compactions that produced the block (/proc/vmstat compact_success).")
	mKcompactdWake = def("headroom_kcompactd_wakeups_total", counter,
		"Wake-ups of the background compaction thread (/proc/vmstat compact_daemon_wake, 4.6+).")
	mSwapIn = def("headroom_swap_in_pages_total", counter,
		"Pages read in from swap (/proc/vmstat pswpin).")
	mSwapOut = def("headroom_swap_out_pages_total", counter,
		"Pages written out to swap (/proc/vmstat pswpout).")

	mTCPMem = def("headroom_tcp_memory_pages", gauge,
		"Memory charged to TCP sockets, in pages (/proc/net/sockstat TCP mem, sk_memory_allocated), the unit of net.ipv4.tcp_mem. Since 6.0 the kernel updates it in per-CPU batches.")
	mTCPMemLimit = def("headroom_tcp_mem_limit_pages", gauge,
		"net.ipv4.tcp_mem in pages: below min TCP does not regulate; above pressure it stops growing buffers and trims them; at max new allocations fail (net/ipv4/tcp.c, net/core/sock.c __sk_mem_raise_allocated).",
		"threshold")
	mTCPPressure = def("headroom_tcp_memory_pressure", gauge,
		"1 while TCP is in memory pressure (/proc/net/protocols TCP \"press\" column, tcp_memory_pressure), else 0, as of the last window sample (at most --window-interval old; headroom_tcp_memory_pressure_entered_total counts every entry).")
	mTCPPressures = def("headroom_tcp_memory_pressure_entered_total", counter,
		"Times TCP entered memory pressure (/proc/net/netstat TcpExt TCPMemoryPressures).")
	mTCPPressureSeconds = def("headroom_tcp_memory_pressure_seconds_total", counter,
		"Time TCP spent in memory pressure (/proc/net/netstat TcpExt TCPMemoryPressuresChrono, counted in milliseconds by tcp_leave_memory_pressure; absent on kernels without it).")
	mTCPAbortMem = def("headroom_tcp_aborts_on_memory_total", counter,
		"Connections reset because TCP was out of memory or orphans were over the limit (/proc/net/netstat TcpExt TCPAbortOnMemory, tcp_check_oom).")
	mTCPOrphans = def("headroom_tcp_orphan_sockets", gauge,
		"TCP sockets closed by their application and not yet finished (/proc/net/sockstat TCP orphan).")
	mTCPMaxOrphans = def("headroom_tcp_max_orphans", gauge,
		"net.ipv4.tcp_max_orphans. An orphan is reset when orphans << shift exceed it, shift growing for peers that keep their window shut or send ICMP errors: the effective limit is 1/2 or 1/4 of it (net/ipv4/tcp_timer.c tcp_out_of_resources).")
	mTCPTimeWait = def("headroom_tcp_time_wait_sockets", gauge,
		"TCP sockets in TIME_WAIT (/proc/net/sockstat TCP tw).")
	mTCPAlloc = def("headroom_tcp_allocated_sockets", gauge,
		"TCP sockets allocated, in any state (/proc/net/sockstat TCP alloc).")
	mSocketsInUse = def("headroom_sockets_in_use", gauge,
		"Sockets in use per protocol (/proc/net/sockstat and sockstat6 inuse).",
		"protocol")
	mTCPSockets = def("headroom_tcp_sockets", gauge,
		"TCP sockets per state from a sock_diag dump (only with --sockets).",
		"state")
	mTCPSocketMem = def("headroom_tcp_socket_memory_bytes", gauge,
		"Memory held by the TCP sockets of a state, rmem_alloc + wmem_queued + fwd_alloc + backlog from a sock_diag dump (only with --sockets).",
		"state")
	mTCPSocketSendQ = def("headroom_tcp_socket_send_queue_bytes", gauge,
		"Bytes in the send queues of the TCP sockets of a state from a sock_diag dump (only with --sockets). Large in FIN_WAIT1 means orphans hoarding memory.",
		"state")

	mSoftnetProcessed = def("headroom_softnet_processed_total", counter,
		"Packets taken from the per-CPU backlog or a NAPI poll (/proc/net/softnet_stat column 1). The kernel counter is 32 bits and wraps; Prometheus sees a wrap as a reset.",
		"cpu")
	mSoftnetDropped = def("headroom_softnet_dropped_total", counter,
		"Packets dropped because the per-CPU input backlog was full (net.core.netdev_max_backlog; /proc/net/softnet_stat column 2, 32 bits).",
		"cpu")
	mSoftnetSqueezed = def("headroom_softnet_times_squeezed_total", counter,
		"Times net_rx_action stopped with work left because net.core.netdev_budget or netdev_budget_usecs ran out (/proc/net/softnet_stat column 3, 32 bits).",
		"cpu")
	mSoftnetFlowLimit = def("headroom_softnet_flow_limit_total", counter,
		"Packets dropped by the per-flow backlog limit (/proc/net/softnet_stat column 11, 3.11+).",
		"cpu")
	mSoftnetBacklog = def("headroom_softnet_backlog_packets", gauge,
		"Packets waiting in the CPU's input backlog (/proc/net/softnet_stat column 12, 5.10+).",
		"cpu")

	mNICLoss = def("headroom_nic_loss_total", counter,
		"Frames lost or damaged on a physical NIC by where they were lost: link (wire, PHY/MAC), ring (no RX descriptor or FIFO room), refill (driver RX buffer allocation failures; counts allocations), queue (a paravirtual driver's per-queue software drop), stack (dropped by the kernel after the driver). source=netdev is /proc/net/dev, whose drop column adds rx_missed_errors and whose frame column adds rx_over_errors; source=ethtool is the driver's statistics. Do not sum across sources.",
		"device", "source", "counter", "direction", "layer")
	mNICRing = def("headroom_nic_ring_descriptors", gauge,
		"Current ring size of a physical NIC in descriptors (ethtool -g).",
		"device", "ring")
	mNICRingMax = def("headroom_nic_ring_max_descriptors", gauge,
		"Pre-set maximum ring size of a physical NIC in descriptors (ethtool -g).",
		"device", "ring")

	mPSI = def("headroom_psi_stalled_seconds_total", counter,
		"Time some (at least one) or all non-idle tasks stalled on the resource (/proc/pressure/<resource> total, 4.20+ with CONFIG_PSI). System-wide cpu full is always 0 (defined for cgroups only).",
		"resource", "scope")

	mAllocFailures = def("headroom_page_allocation_failures_total", counter,
		"\"page allocation failure\" reports in the kernel log (/dev/kmsg; needs root or CAP_SYSLOG when kernel.dmesg_restrict=1) since the oldest record the log buffer held when headroom started, by order and GFP class (atomic, nowait, kernel, user, unknown: see docs/serve.md). Series for atomic exist from the start for every order the buddy allocator has.",
		"order", "gfp_class")
	mLogLost = def("headroom_kernel_log_lost_records_total", counter,
		"Kernel log records overwritten in the ring buffer before headroom read them: failures among them are not counted.")

	mCgroupSock = def("headroom_cgroup_socket_memory_bytes", gauge,
		"Socket memory charged to a memory cgroup, for the 10 largest (cgroup v2 memory.stat sock; v1 memory.kmem.tcp.usage_in_bytes, counted only in cgroups with a TCP limit). A v1 parent includes its children. Re-read every minute.",
		"cgroup", "version")
	mCgroupTCPLimit = def("headroom_cgroup_tcp_memory_limit_bytes", gauge,
		"cgroup v1 memory.kmem.tcp.limit_in_bytes of the cgroups in headroom_cgroup_socket_memory_bytes that have one.",
		"cgroup")
	mCgroupTCPFailures = def("headroom_cgroup_tcp_memory_failures_total", counter,
		"cgroup v1 memory.kmem.tcp.failcnt: TCP memory charges refused at the cgroup's limit since it was created, for the cgroups in headroom_cgroup_socket_memory_bytes.",
		"cgroup")

	mFinding = def("headroom_finding", gauge,
		"1 for each rule with an active finding in the window at the last run of the rules (at most --rules-interval ago), with the highest severity among its findings. The rule's page is docs/rules/<id>.md (also served at /docs/rules/<id>.md).",
		"id", "severity")
	// Issue 19: one alert can name the root cause instead of four alerts firing on its
	// consequences.
	mRootCause = def("headroom_root_cause", gauge,
		"1 for each root cause of the rules' last run (a finding no other finding present explains; docs/json-diagnosis.md); main=\"true\" for the one the diagnosis leads with.",
		"id", "severity", "main")
	mFindingRoot = def("headroom_finding_root_cause", gauge,
		"1 for each finding (id) and the root cause (root_cause) whose chain explains it; a root cause is its own.",
		"id", "root_cause")
	mRuleChecked = def("headroom_rule_checked", gauge,
		"1 when the rule had the data it needs in the window (healthy or firing), 0 when it could not check (not healthy: not known).",
		"id")
)

func boolGauge(ok bool) float64 {
	if ok {
		return 1
	}
	return 0
}

// buildPoints turns the newest sample (sm, owned by the collector: read it here only) and
// the snapshot's other figures into the snapshot's points.
func buildPoints(b *pointBuf, s *Snapshot, sm *model.Sample, host *model.Host, phys []kernel.NIC) {
	for _, src := range s.Sources {
		b.add(mSourceAvailable, boolGauge(src.Available), src.Source)
	}
	b.add(mSamples, float64(s.SamplesTaken))
	b.add(mSampleSeconds, s.SampleDuration.Seconds())
	b.add(mDiagnosisSeconds, s.DiagnosisDuration.Seconds())
	b.add(mWindowSamples, float64(s.DiagnosisWindow))
	if host.PageSize > 0 {
		b.add(mPageSize, float64(host.PageSize))
	}
	b.add(mBuildInfo, 1, build.Version, build.Revision, build.GoVersion, build.OS, build.Arch)
	if host.Kernel != "" {
		l := kernelInfo(host)
		b.add(mKernelInfo, 1, l.release, l.version, l.wordBits)
	}
	if s.netFiles != "" {
		b.add(mNetworkView, 1, s.netFiles)
	}

	memoryMetrics(b, sm)
	tcpMetrics(b, sm, host)
	softnetMetrics(b, sm)
	nicMetrics(b, sm, phys)
	for _, p := range sm.PSI {
		if p.Some != nil {
			b.add(mPSI, float64(p.Some.TotalUsec)/1e6, p.Resource, "some")
		}
		if p.Full != nil {
			b.add(mPSI, float64(p.Full.TotalUsec)/1e6, p.Resource, "full")
		}
	}
	allocMetrics(b, s, sm)
	if src := sourceOK(s.Sources, "/dev/kmsg"); src {
		b.add(mLogLost, float64(s.LogLost))
	}
	cgroupMetrics(b, s.cgroups)
	traceMetrics(b, &s.trace)
	findingMetrics(b, s.Diagnosis)
}

// cgroupTop bounds the cgroup series: a node runs hundreds of pods, and the largest
// consumers are the ones worth a series.
const cgroupTop = 10

func cgroupMetrics(b *pointBuf, cgs []kernel.CgroupSock) {
	for i, c := range cgs {
		if i == cgroupTop {
			break
		}
		b.addInt(mCgroupSock, c.Bytes, c.Path, itoa(c.Version))
		if c.LimitBytes > 0 && c.Version == 1 {
			b.addInt(mCgroupTCPLimit, c.LimitBytes, c.Path)
		}
		if c.HasFailcnt {
			b.addInt(mCgroupTCPFailures, c.Failcnt, c.Path)
		}
	}
}

// kernelInfoLabels are the labels of headroom_kernel_info, kept between scrapes: the host's
// release and machine do not change while serve runs, so they are parsed once.
type kernelInfoLabels struct{ release, arch, version, wordBits string }

var lastKernelInfo atomic.Pointer[kernelInfoLabels]

func kernelInfo(host *model.Host) *kernelInfoLabels {
	if l := lastKernelInfo.Load(); l != nil && l.release == host.Kernel && l.arch == host.Arch {
		return l
	}
	kv, _ := host.KernelVersion()
	l := &kernelInfoLabels{release: host.Kernel, arch: host.Arch, version: kv.String(), wordBits: itoa(kernel.ArchWordBits(host.Arch))}
	lastKernelInfo.Store(l)
	return l
}

func sourceOK(srcs []SourceStatus, name string) bool {
	for _, s := range srcs {
		if s.Source == name {
			return s.Available
		}
	}
	return false
}

func memoryMetrics(b *pointBuf, sm *model.Sample) {
	for i := range sm.Zones {
		z := model.ZoneView(sm.Zones[i], nil)
		if !z.Populated() {
			// Unpopulated zones (Movable, Device on most hosts) print watermarks over no
			// memory: "free 0 < min 32" would look like exhaustion.
			continue
		}
		node := itoa(z.Node)
		if z.HasFree {
			b.addInt(mZoneFree, z.Free, node, z.Zone)
		}
		if z.HasWatermarks {
			b.addInt(mZoneWatermark, z.Min, node, z.Zone, "min")
			b.addInt(mZoneWatermark, z.Low, node, z.Zone, "low")
			b.addInt(mZoneWatermark, z.High, node, z.Zone, "high")
		}
		if z.HasManaged {
			b.addInt(mZoneManaged, z.Managed, node, z.Zone)
		}
	}
	for _, z := range sm.Buddy {
		node := itoa(z.Node)
		for order, n := range z.Free {
			b.addInt(mZoneFreeBlocks, n, node, z.Zone, itoa(order))
		}
	}
	if pt := sm.PageTypes; pt != nil {
		for _, f := range pt.Free {
			node := itoa(f.Node)
			for order, n := range f.Free {
				b.addInt(mZoneFreeBlocksType, n, node, f.Zone, f.Type, itoa(order))
			}
		}
	}
	if sm.VMStat == nil {
		return
	}
	vm := sm.VMStat
	for _, r := range reclaimers {
		if v, ok := kernel.SumZoned(vm, r.scan); ok {
			b.addInt(mReclaimScanned, v, r.name)
		}
		if v, ok := kernel.SumZoned(vm, r.steal); ok {
			b.addInt(mReclaimStolen, v, r.name)
		}
	}
	if v, ok := kernel.SumZoned(vm, "allocstall"); ok {
		b.addInt(mAllocstall, v)
	}
	for _, c := range vmCounters {
		if v, ok := vm.Get(c.name); ok {
			b.addInt(c.d, v)
		}
	}
}

var (
	reclaimers = []struct{ name, scan, steal string }{
		{"kswapd", "pgscan_kswapd", "pgsteal_kswapd"}, {"direct", "pgscan_direct", "pgsteal_direct"},
		{"khugepaged", "pgscan_khugepaged", "pgsteal_khugepaged"}, {"proactive", "pgscan_proactive", "pgsteal_proactive"},
	}
	vmCounters = []struct {
		d    *metricDef
		name string
	}{
		{mCompactStall, "compact_stall"}, {mCompactFail, "compact_fail"}, {mCompactSuccess, "compact_success"},
		{mKcompactdWake, "compact_daemon_wake"}, {mSwapIn, "pswpin"}, {mSwapOut, "pswpout"},
	}
)

func tcpMetrics(b *pointBuf, sm *model.Sample, host *model.Host) {
	if v, ok := sm.SockStat.Get("TCP", "mem"); ok {
		b.addInt(mTCPMem, v)
	}
	var lim [3]int64
	if sysctlInts(host, "net.ipv4.tcp_mem", lim[:]) == 3 {
		b.addInt(mTCPMemLimit, lim[0], "min")
		b.addInt(mTCPMemLimit, lim[1], "pressure")
		b.addInt(mTCPMemLimit, lim[2], "max")
	}
	for _, p := range sm.Protocols {
		if p.Name == "TCP" && (p.Pressure == "yes" || p.Pressure == "no") {
			b.add(mTCPPressure, boolGauge(p.Pressure == "yes"))
		}
	}
	if v, ok := sm.NetStat.Get("TcpExt", "TCPMemoryPressures"); ok {
		b.addInt(mTCPPressures, v)
	}
	if v, ok := sm.NetStat.Get("TcpExt", "TCPMemoryPressuresChrono"); ok {
		b.add(mTCPPressureSeconds, float64(v)/1000)
	}
	if v, ok := sm.NetStat.Get("TcpExt", "TCPAbortOnMemory"); ok {
		b.addInt(mTCPAbortMem, v)
	}
	if v, ok := sm.SockStat.Get("TCP", "orphan"); ok {
		b.addInt(mTCPOrphans, v)
	}
	if sysctlInts(host, "net.ipv4.tcp_max_orphans", lim[:1]) == 1 {
		b.addInt(mTCPMaxOrphans, lim[0])
	}
	if v, ok := sm.SockStat.Get("TCP", "tw"); ok {
		b.addInt(mTCPTimeWait, v)
	}
	if v, ok := sm.SockStat.Get("TCP", "alloc"); ok {
		b.addInt(mTCPAlloc, v)
	}
	for _, g := range sm.SockStat {
		if strings.HasPrefix(g.Name, "FRAG") || g.Name == "sockets" {
			continue // FRAG inuse counts reassembly queues, not sockets
		}
		if v, ok := g.Counters.Get("inuse"); ok {
			b.addInt(mSocketsInUse, v, g.Name)
		}
	}
	if sm.Sockets != nil {
		// The per-state counts of a sock_diag dump (--sockets). Without it the states that
		// matter here are the sockstat gauges above: orphans, TIME_WAIT and all allocated.
		for st, t := range sm.Sockets.ByState {
			b.addInt(mTCPSockets, t.Count, st)
			b.addInt(mTCPSocketMem, t.MemBytes, st)
			b.addInt(mTCPSocketSendQ, t.SendQ, st)
		}
	}
}

// sysctlInts parses the integers of a sysctl's value into out (kernel.SysctlIntsInto) and
// returns how many there were, or -1 when the sysctl is unknown, not all integers, or more
// than out holds.
func sysctlInts(host *model.Host, key string, out []int64) int {
	v, ok := host.Sysctls[key]
	if !ok {
		return -1
	}
	return kernel.SysctlIntsInto(v, out)
}

// softnet_stat column counts for each field (see kernel.SoftnetCPU).
const (
	softnetRPSColumns     = 10
	softnetFlowColumns    = 11
	softnetBacklogColumns = 13
)

func softnetMetrics(b *pointBuf, sm *model.Sample) {
	for i, c := range sm.Softnet {
		if slices.ContainsFunc(sm.Softnet[:i], func(o kernel.SoftnetCPU) bool { return o.CPU == c.CPU }) {
			continue // a malformed file with a repeated index: keep the first
		}
		cpu := itoa(c.CPU)
		b.addInt(mSoftnetProcessed, c.Processed, cpu)
		b.addInt(mSoftnetDropped, c.Dropped, cpu)
		b.addInt(mSoftnetSqueezed, c.TimeSqueeze, cpu)
		if c.Columns >= softnetFlowColumns {
			b.addInt(mSoftnetFlowLimit, c.FlowLimitCount, cpu)
		}
		if c.Columns >= softnetBacklogColumns {
			b.addInt(mSoftnetBacklog, c.BacklogLen, cpu)
		}
	}
}

func isPhysical(phys []kernel.NIC, name string) bool {
	return slices.ContainsFunc(phys, func(n kernel.NIC) bool { return n.Name == name })
}

func nicMetrics(b *pointBuf, sm *model.Sample, phys []kernel.NIC) {
	for _, d := range sm.NetDev {
		if !isPhysical(phys, d.Name) {
			continue
		}
		for i := 0; i < d.Counters.Len(); i++ {
			name, v := d.Counters.At(i)
			if c, ok := kernel.ClassifyNetDevCounter(name); ok {
				b.addInt(mNICLoss, v, d.Name, "netdev", name, c.Direction, c.Cause)
			}
		}
	}
	for _, st := range sm.NICStats {
		if !isPhysical(phys, st.Name) {
			continue
		}
		if st.Stats != nil {
			// Only non-virtual devices get here; their drivers' own names may still say
			// virtual (virtio_net), as kernel.ClassifyNICStats takes into account (without
			// its slice: this runs on every scrape).
			dev := kernel.NICStatsDeviceOf(*st.Stats, false)
			for i := 0; i < st.Stats.Len(); i++ {
				name, v := st.Stats.At(i)
				if c, ok := dev.Classify(*st.Stats, name); ok {
					b.addInt(mNICLoss, v, st.Name, "ethtool", name, c.Direction, c.Cause)
				}
			}
		}
		if r := st.Ring; r != nil {
			b.addInt(mNICRing, r.Rx, st.Name, "rx")
			b.addInt(mNICRing, r.Tx, st.Name, "tx")
			b.addInt(mNICRingMax, r.RxMax, st.Name, "rx")
			b.addInt(mNICRingMax, r.TxMax, st.Name, "tx")
		}
	}
}

// allocMetrics exports the failure counts. The atomic series of every order the buddy
// allocator has exist from the start at 0, so that increase() sees the first failure
// (a series that appears at 1 has no increase in Prometheus).
func allocMetrics(b *pointBuf, s *Snapshot, sm *model.Sample) {
	if !sourceOK(s.Sources, "/dev/kmsg") && len(s.allocs) == 0 {
		return // unknown, not zero
	}
	orders := 0
	for _, z := range sm.Buddy {
		orders = max(orders, len(z.Free))
	}
	for o := range orders {
		if !slices.ContainsFunc(s.allocs, func(a allocCount) bool { return a.Order == o && a.Class == kernel.GFPClassAtomic }) {
			b.addInt(mAllocFailures, 0, itoa(o), kernel.GFPClassAtomic)
		}
	}
	for _, a := range s.allocs {
		b.addInt(mAllocFailures, a.N, itoa(a.Order), a.Class)
	}
}

func findingMetrics(b *pointBuf, d diagnose.Diagnosis) {
	for i, f := range d.Findings {
		if slices.ContainsFunc(d.Findings[:i], func(o diagnose.Finding) bool { return o.ID == f.ID }) {
			continue // the first finding of an id is written with the worst severity of its id
		}
		sev := f.Severity
		for _, o := range d.Findings[i+1:] {
			if o.ID == f.ID && o.Severity > sev {
				sev = o.Severity
			}
		}
		b.add(mFinding, 1, f.ID, sev.String())
	}
	for _, c := range d.Checks {
		b.add(mRuleChecked, boolGauge(c.Status != diagnose.StatusNotChecked), c.ID)
	}
	for i, c := range d.Story.Causes {
		b.add(mRootCause, 1, c.ID, c.Severity.String(), strconv.FormatBool(i == 0))
	}
	seen := map[[2]string]bool{}
	for _, ch := range d.Story.Chains {
		for _, ls := range [][]diagnose.Link{ch.Links, ch.Also} {
			for _, l := range ls {
				k := [2]string{l.ID, ch.Root}
				if !seen[k] {
					seen[k] = true
					b.add(mFindingRoot, 1, l.ID, ch.Root)
				}
			}
		}
	}
}
