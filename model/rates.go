package model

import (
	"slices"
	"sort"
	"strings"
	"time"

	"headroom/kernel"
)

// Rates are per-second values (and CPU shares in percent) for one interval, by key. A key is
// present only when both ends of the interval had the counter; there are no fake zeros.
type Rates map[string]float64

// Get returns a rate and whether it is present.
func (r Rates) Get(key string) (float64, bool) { v, ok := r[key]; return v, ok }

// Rate keys. Names say the unit. Live and recorded timelines compute them from counters;
// pasted vmstat and top rows fill the ones their tools print.
const (
	RateCtxtPerSec      = "ctxt_per_sec"
	RateIntrPerSec      = "intr_per_sec"
	RateCPUUserPct      = "cpu_user_pct" // user + nice
	RateCPUSystemPct    = "cpu_system_pct"
	RateCPUIdlePct      = "cpu_idle_pct"
	RateCPUIOWaitPct    = "cpu_iowait_pct"
	RateCPUIRQPct       = "cpu_irq_pct"
	RateCPUSoftIRQPct   = "cpu_softirq_pct"
	RateCPUStealPct     = "cpu_steal_pct"
	RateRunnable        = "procs_runnable" // gauge: vmstat r, procs_running
	RateBlocked         = "procs_blocked"  // gauge: vmstat b
	RateSwapInKBPerSec  = "swap_in_kb_per_sec"
	RateSwapOutKBPerSec = "swap_out_kb_per_sec"
	RateBlockInPerSec   = "block_in_per_sec" // vmstat bi (1 KiB blocks/s in procps)
	// RateIntervalSec is not a rate: the seconds a pasted row's rates are a mean over, when
	// the text states it (the delay of the `vmstat N` command line above the table, fix57b;
	// the gap between two sar rows, sarinterval.go).
	// A row that is a mean over N seconds weighs as N one-second samples of its rate.
	RateIntervalSec          = "interval_sec"
	RateBlockOutPerSec       = "block_out_per_sec"
	RatePgscanKswapdPerSec   = "pgscan_kswapd_per_sec"
	RatePgscanDirectPerSec   = "pgscan_direct_per_sec"
	RatePgstealKswapdPerSec  = "pgsteal_kswapd_per_sec"
	RatePgstealDirectPerSec  = "pgsteal_direct_per_sec"
	RateAllocstallPerSec     = "allocstall_per_sec"
	RateCompactStallPerSec   = "compact_stall_per_sec"
	RateCompactFailPerSec    = "compact_fail_per_sec"
	RateTLBShootdownPerSec   = "tlb_shootdown_per_sec"
	RateKswapdCPUPct         = "kswapd_cpu_pct" // all kswapd threads, % of one CPU
	RateKcompactdCPUPct      = "kcompactd_cpu_pct"
	RateKsoftirqdCPUPct      = "ksoftirqd_cpu_pct"
	RateSoftnetDropPerSec    = "softnet_dropped_per_sec"
	RateSoftnetSqueezePerSec = "softnet_time_squeeze_per_sec"
	RateTCPRetransPerSec     = "tcp_retrans_segs_per_sec"
	RateTCPOutSegsPerSec     = "tcp_out_segs_per_sec"
	RateRxBytesPerSec        = "rx_bytes_per_sec" // all non-loopback interfaces
	RateTxBytesPerSec        = "tx_bytes_per_sec"
	RateRxPacketsPerSec      = "rx_packets_per_sec"
	// RateNICRxDropPerSec: received frames dropped for lack of room, at the NIC or in the
	// stack (kernel.RxDropNetDevCounters), all non-loopback interfaces.
	RateNICRxDropPerSec = "nic_rx_dropped_per_sec"
	// RateNICRxFIFOPerSec: receive FIFO overruns (rx_fifo_errors: the NIC's buffer or
	// ring had no room), all non-loopback interfaces; sar -n EDEV's rxfifo/s.
	RateNICRxFIFOPerSec = "nic_rx_fifo_per_sec"
	// RateNICRxRingLossPerSec: frames a NIC dropped for want of a receive descriptor, per
	// second, as a watch tool printed ethtool -S's ring-loss counters as rates ("rx_nodesc_drop_cnt:
	// 451.3k/s"): a rate, not a since-boot counter.
	RateNICRxRingLossPerSec = "nic_rx_ring_loss_per_sec"
	// RateSocketDropPerSec: packets dropped at a socket (SocketDropCounters).
	RateSocketDropPerSec = "socket_dropped_per_sec"
	// Only in a sample stated in the text (artifact/stated.go): the longest freeze the
	// author states in seconds ("freeze for like 4-5 seconds"), and 1 when the text states
	// that the NIC overruns ("resulting in packet overruns").
	RateStatedStallSec = "stated_stall_sec"
	// RateStatedReclaimStall is 1 when the text says this host stalls in reclaim without a
	// duration ("the server is thrashing", "freezes while reclaiming memory", "all
	// processes waiting on memory reclaim"; artifact/statedthrash.go, h31b).
	RateStatedReclaimStall = "stated_reclaim_stall"
	// RateDaemonMemPSIPct is a memory PSI average, in %, as a userspace OOM daemon logged the
	// value it acts on (nohang's "PSI avg: %s" of its psi_metrics read from psi_path, by
	// default full_avg10 of /proc/pressure/memory; the line names neither). Whichever of the
	// six averages it is, memory "some" avg10-avg300 is at least that high over the window
	// (some >= full, kernel/sched/psi.c), so it is judged as "some", never as "full".
	RateDaemonMemPSIPct = "daemon_mem_psi_pct"
	// RateStatedMemPSIPct is the highest memory PSI percentage the text states as measured
	// on this host ("97% PSI memory stall"; artifact/fix59b_statedpsi.go), judged as "some"
	// for the same reason as RateDaemonMemPSIPct.
	RateStatedMemPSIPct = "stated_mem_psi_pct"
	// RateTracedReclaimLongestMS is the longest direct reclaim a tracer timed (bcc drsnoop's
	// LAT(ms), mm_vmscan_direct_reclaim_begin to _end; artifact/drsnoop.go), and
	// RateTracedReclaims how many it traced in that run.
	RateTracedReclaimLongestMS = "traced_reclaim_longest_ms"
	RateTracedReclaims         = "traced_reclaims"
	// RateStatedCommitPct is the highest sar %commit the text states as measured on this
	// host ("`%commit` 180~205%"; artifact/fix61_statedcommit.go): Committed_AS over MemTotal
	// + SwapTotal, in percent.
	RateStatedCommitPct = "stated_commit_pct"
	RateStatedRxOverrun = "stated_rx_overruns"
	// RateLoggedRxFIFOOverflows counts kernel log records in which a network driver (CAN;
	// fix40b: ftgmac100's NO_RXBUF and RPKT_LOST) reports its controller's receive FIFO or ring overflowed (kernel.IsDriverRxFIFOOverflow):
	// each is a loss the driver also counts in rx_over_errors (or rx_fifo_errors).
	RateLoggedRxFIFOOverflows = "logged_rx_fifo_overflows"
	// RateCaptureIfDrops is libpcap's ps_ifdrop as tcpdump prints it at exit ("N packets
	// dropped by interface", tcpdump.c info()): on Linux the interface's rx_missed_errors +
	// rx_fifo_errors since the capture began (pcap-linux.c linux_if_drops), the NIC's own
	// ring or FIFO losses, summed.
	RateCaptureIfDrops = "capture_ifdrop"
	// RateStatedRxDroppedPerSec is an interface's rx_dropped growth the author states
	// ("190 micropackets per second", Munin's unit for its drop graph; "drops 50 packets/s").
	RateStatedRxDroppedPerSec = "stated_rx_dropped_per_sec"
	// RateStatedKswapdBusy is 1 when the text says kswapd runs hot without a figure
	// ("kswapd0 is consuming a large amount of CPU", "kswapd loops forever"); a stated
	// percentage is RateKswapdCPUPct.
	RateStatedKswapdBusy = "stated_kswapd_busy"
	// RateStatedSwapping is 1 when the text says this host swaps without a rate ("crawls
	// because of the swapping", "eats all the swap"); a stated rate is RateSwapIn/OutKBPerSec.
	RateStatedSwapping = "stated_swapping"
	// RateStatedOOM is 1 when the text says the host ran out of memory or the OOM killer
	// killed ("crashes frequently from OOM") and no kernel report of it is read.
	RateStatedOOM = "stated_oom"
	// RateStatedNoOOMKill is 1 when the author says the kernel's log (syslog, kern.log, dmesg,
	// the journal) shows no OOM kill: "Nothing's getting oom killed according to syslog or
	// kernel.log". The author's reading of a log the text does not hold (fix19a).
	RateStatedNoOOMKill = "stated_no_oom_kill"
	// RateStatedConntrackFull is 1 when the text says the host's connection tracking table
	// filled ("heavy churn managed to fill up the conntrack table") and quotes no count.
	RateStatedConntrackFull = "stated_conntrack_full"
	// RateStatedRetransPct: the share of TCP segments retransmitted, in %, as the author
	// states it ("a lot of (30%) TCP retransmission in tcpdump").
	RateStatedRetransPct = "stated_tcp_retrans_pct"
	// RateStatedRetransSeen is 1 when the text says this host's connections show many
	// retransmissions without a share ("Wireshark shows excessive retransmissions").
	RateStatedRetransSeen = "stated_tcp_retrans_seen"
	// RateIperfRetransSegs and RateIperfSegsSent are one iperf3 run's test flow: the sender's
	// retransmitted segments (its Retr column, TCP_INFO's tcpi_total_retrans) and the segments
	// it sent, estimated from the bytes it moved at the flow's MSS when iperf3 -d prints it,
	// else 1448 bytes (Ethernet's 1500-byte MTU less IP, TCP and timestamp headers);
	// artifact/iperf.go.
	RateIperfRetransSegs = "iperf_retrans_segs"
	RateIperfSegsSent    = "iperf_segs_sent_est"
	RateIperfMSS         = "iperf_mss_bytes" // the MSS the segments were counted at
	// UDP datagrams dropped at full socket receive buffers as the text states them: the
	// count a netdata alarm quotes for its window ("1m ipv4 udp receive buffer errors | 23650
	// errors"; 1 when the alarm is named without a value) and a rate the author gives
	// ("RcvBufErrors ... peak at about 700/events per second").
	// RateStatedUDPLossCuredByRcvbuf is 1 when the author says UDP loss went away once the
	// socket receive buffer (net.core.rmem_default, rmem_max, SO_RCVBUF) was raised
	// (artifact/statedudploss.go, fix57a).
	RateStatedUDPLossCuredByRcvbuf = "stated_udp_loss_cured_by_rcvbuf"
	RateStatedUDPRcvbufAlarm       = "stated_udp_rcvbuf_errors_alarm"
	RateStatedUDPRcvbufPerSec      = "stated_udp_rcvbuf_errors_per_sec"
	// A monitoring agent's alarm on a kernel counter's growth, raised on this host
	// (artifact/statedalarm.go): Netdata's listen-queue alarms (TcpExt ListenDrops,
	// ListenOverflows) and its netdev backlog alarm (softnet_stat dropped). An alarm is
	// computed over a window of the counter's growth, so one that fired says the counter grew
	// in that window. The *AlarmSec key is present when such an alarm fired and holds its
	// window in seconds (0: the window is not said); the *PerSec key holds the growth per
	// second when the alarm's value is quoted ("1m ipv4 tcp listen drops = 0.55 drops").
	RateStatedListenAlarmSec       = "stated_listen_drops_alarm_window_sec"
	RateStatedListenDropsPerSec    = "stated_listen_drops_per_sec"
	RateStatedSoftnetDropAlarmSec  = "stated_softnet_dropped_alarm_window_sec"
	RateStatedSoftnetDroppedPerSec = "stated_softnet_dropped_per_sec"
	// Netdata's SYN-queue alarms (fix57a): 1m_tcp_syn_queue_cookies and
	// 1m_tcp_syn_queue_drops on ip.tcp_syn_queue average the growth of TcpExt
	// TCPReqQFullDoCookies and TCPReqQFullDrop, the SYNs a listener met with a full SYN
	// queue (answered with a cookie, or dropped). Window and rate as above.
	RateStatedSynQueueAlarmSec = "stated_syn_queue_full_alarm_window_sec"
	RateStatedSynQueuePerSec   = "stated_syn_queue_full_per_sec"
	// RateStatedListenRising is 1 when the text names TcpExt ListenOverflows or ListenDrops
	// (or netstat -s's words for them) and says they grew, with no figure
	// (artifact/statedlisten.go).
	RateStatedListenRising = "stated_listen_overflows_rising"
	// RateStatedAcceptQueueFull is 1 when the author states a listener's accept queue full
	// by its Recv-Q: at or above its backlog in figures, or piled up in a text about a
	// listener (artifact/statedlisten.go, fix57a).
	RateStatedAcceptQueueFull = "stated_accept_queue_full"
	// RateStatedUDPRcvbufRising is 1 when the text names the counter and says it grew,
	// with no figure ("the UDP RcvbufErrors skyrocketed when load goes up");
	// RateStatedUDPRcvbufDropPct the share of datagrams dropped at full receive buffers, in
	// %, as the author measured it ("9.4 % UDP receive-buffer drop rate").
	RateStatedUDPRcvbufRising = "stated_udp_rcvbuf_errors_rising"
	// RateStatedUDPSndbufRising is 1 when the text says Udp SndbufErrors grew, by that name
	// or netstat -su's "send buffer errors", with no figure; RateStatedUDPSocketDrops is 1
	// when it says sockets' drops grew in /proc/net/udp's drops column (sk_drops).
	// Slab growth the author states for this host (artifact/statedslabgrowth.go): from a
	// size in kB (0 when only the size reached is stated) or an object count to another over
	// RateStatedSlabGrowthSec seconds.
	RateStatedSlabGrowthFromKB   = "stated_slab_growth_from_kb"
	RateStatedSlabGrowthToKB     = "stated_slab_growth_to_kb"
	RateStatedSlabGrowthFromObjs = "stated_slab_growth_from_objs"
	RateStatedSlabGrowthToObjs   = "stated_slab_growth_to_objs"
	RateStatedSlabGrowthSec      = "stated_slab_growth_sec"

	RateStatedUDPSndbufRising = "stated_udp_sndbuf_errors_rising"
	// RateStatedUDPSendENOBUFS counts a program's own records of a UDP send refused with
	// ENOBUFS (rsyslog's omfwd, a tunnel daemon's "write UDPv4: No buffer space available"):
	// udp_sendmsg counts each such return in Udp SndbufErrors (net/ipv4/udp.c), so the records
	// are that counter's increments as the program saw them. The last sample holds the count.
	RateStatedUDPSendENOBUFS = "stated_udp_send_enobufs_records"
	RateStatedUDPSocketDrops = "stated_udp_socket_drops_rising"
	// RateStatedUDPSkmemDrops is a UDP socket's drop count (ss -m skmem's d field, sk_drops)
	// as the text quotes it ("`ss -m` → `d370` against an `rb212992` buffer").
	RateStatedUDPSkmemDrops = "stated_udp_skmem_drops"
	// RateStatedUDPDropwatchDrops: the drops dropwatch counted at the UDP socket-queue drop
	// site (udp_queue_rcv_skb and its variants: the datagram freed because the socket's
	// receive queue was full, where Udp RcvbufErrors is charged), in the session's window.
	RateStatedUDPDropwatchDrops = "stated_udp_dropwatch_queue_drops"
	RateStatedUDPRcvbufDropPct  = "stated_udp_rcvbuf_drop_pct"
	// RateStatedUDPRcvbufRequested and RateStatedUDPRcvbufObtained: a log receiver's own
	// warning that the kernel gave its UDP socket a smaller receive buffer than it asked for
	// (Logstash's UDP input "Requested R but obtained O bytes", syslog-ng's so_rcvbuf='R',
	// so_rcvbuf_set='O'), in bytes; set only when O < R.
	RateStatedUDPRcvbufRequested = "stated_udp_rcvbuf_requested_bytes"
	RateStatedUDPRcvbufObtained  = "stated_udp_rcvbuf_obtained_bytes"
	// A socket-buffer demand the author computes ("20 connections x 16MBytes x 2 =
	// 640MBytes"): the connections, and the bytes each may hold (both directions).
	RateStatedFlows           = "stated_flows"
	RateStatedFlowBufferBytes = "stated_flow_buffer_bytes"
	// A path's rate (bits/s), its round-trip time (seconds) and the socket buffers an
	// application sets (setSendBufferSize, SO_SNDBUF, SO_RCVBUF: bytes), as the text states
	// them: a bandwidth-delay product judged without a socket dump.
	RateStatedPathBps        = "stated_path_bits_per_sec"
	RateStatedRTTSec         = "stated_rtt_sec"
	RateStatedAppSndBufBytes = "stated_app_sndbuf_bytes"
	RateStatedAppRcvBufBytes = "stated_app_rcvbuf_bytes"
)

// SocketDropCounters are the /proc/net/netstat and snmp counters of packets dropped at a
// socket: receive queue or backlog full, queue pruned, accept queue full, UDP buffer full.
var SocketDropCounters = [][2]string{{"TcpExt", "TCPRcvQDrop"}, {"TcpExt", "TCPBacklogDrop"}, {"TcpExt", "RcvPruned"}, {"TcpExt", "ListenOverflows"}, {"Udp", "RcvbufErrors"}}

// userHZ is USER_HZ, the unit of /proc/stat and /proc/PID/stat times. It has been 100 on
// every architecture Linux exports to userspace (include/asm-generic/param.h); sysconf
// (_SC_CLK_TCK) would say otherwise if it ever changed.
const userHZ = 100

// DeriveRates fills Rates of every sample from its predecessor's counters, leaving samples
// that already carry rates (pasted rows) alone. pageSizeBytes converts page counters.
func (t *Timeline) DeriveRates() {
	pageKB := float64(t.Host.PageSizeBytes) / 1024
	if pageKB <= 0 {
		pageKB = 4
	}
	netdevWidth := t.Host.NetDevCounterWidth()
	for i := 1; i < len(t.Samples); i++ {
		cur, prev := &t.Samples[i], &t.Samples[i-1]
		if len(cur.Rates) > 0 || cur.Time.IsZero() || prev.Time.IsZero() || slices.Contains(t.Breaks, i) || slices.Contains(t.OtherHost, i) {
			continue
		}
		dt := cur.Time.Sub(prev.Time).Seconds()
		if dt <= 0 {
			continue
		}
		cur.Rates = deriveRates(prev, cur, dt, pageKB, netdevWidth)
	}
}

// GrowthRates are the per-second rates of /proc/vmstat counters of which only the growth over
// an interval of seconds is known, not their values (a test report's growth over its run):
// the rates deriveRates would give for two readings that far apart.
func GrowthRates(growth *kernel.Counters, seconds, pageKB float64) Rates {
	zero := &kernel.Counters{}
	for i := range growth.Len() {
		n, _ := growth.At(i)
		zero.Set(n, 0)
	}
	return deriveRates(&Sample{VMStat: zero}, &Sample{VMStat: growth}, seconds, pageKB, Width64)
}

// NetDevCounterWidth is the width of the /proc/net/dev counters: unsigned long until 2.6.36
// (32 bits on a 32-bit kernel, so rx_bytes wrapped every 4 GiB), u64 since dev_get_stats
// returns rtnl_link_stats64 (commit 28172739f0a2, 2.6.36).
func (h *Host) NetDevCounterWidth() int {
	if v, ok := h.KernelVersion(); ok && h.Is32Bit() && !v.AtLeast(2, 6, 36) {
		return Width32
	}
	return Width64
}

func deriveRates(prev, cur *Sample, dt, pageKB float64, netdevWidth int) Rates {
	r := Rates{}
	// rate sets a rate from a delta of Delta: a wrapped counter still gives its growth; a
	// reset gives none (the count since the reset started at an unknown time).
	rate := func(key string, d int64, kind DeltaKind, scale float64) {
		if kind != DeltaReset {
			r[key] = float64(d) * scale / dt
		}
	}
	per := func(key string, a, b int64, okA, okB bool, scale float64) {
		if okA && okB {
			d, kind := Delta(a, b, Width64)
			rate(key, d, kind, scale)
		}
	}
	vm := func(key, name string, scale float64) {
		a, okA := prev.VM(name)
		b, okB := cur.VM(name)
		per(key, a, b, okA, okB, scale)
	}
	// Before 4.8 reclaim counters were per zone (pgscan_kswapd_normal, ...), and allocstall
	// is per zone since: kernel.SumZoned covers both layouts (mm/vmstat.c vmstat_text).
	vmSum := func(key, base string, scale float64) {
		a, okA := kernel.SumZoned(prev.VMStat, base)
		b, okB := kernel.SumZoned(cur.VMStat, base)
		per(key, a, b, okA, okB, scale)
	}
	vm(RateSwapInKBPerSec, "pswpin", pageKB)
	vm(RateSwapOutKBPerSec, "pswpout", pageKB)
	vmSum(RatePgscanKswapdPerSec, "pgscan_kswapd", 1)
	vmSum(RatePgscanDirectPerSec, "pgscan_direct", 1)
	vmSum(RatePgstealKswapdPerSec, "pgsteal_kswapd", 1)
	vmSum(RatePgstealDirectPerSec, "pgsteal_direct", 1)
	vmSum(RateAllocstallPerSec, "allocstall", 1)
	vm(RateCompactStallPerSec, "compact_stall", 1)
	vm(RateCompactFailPerSec, "compact_fail", 1)

	if prev.Stat != nil && cur.Stat != nil {
		a, okA := prev.Stat.Scalars.Get("ctxt")
		b, okB := cur.Stat.Scalars.Get("ctxt")
		per(RateCtxtPerSec, a, b, okA, okB, 1)
		a, okA = prev.Stat.Scalars.Get("intr")
		b, okB = cur.Stat.Scalars.Get("intr")
		per(RateIntrPerSec, a, b, okA, okB, 1)
		cpuShares(r, prev.Stat.Total.Fields, cur.Stat.Total.Fields)
		if v, ok := cur.Stat.Scalars.Get("procs_running"); ok {
			r[RateRunnable] = float64(v)
		}
		if v, ok := cur.Stat.Scalars.Get("procs_blocked"); ok {
			r[RateBlocked] = float64(v)
		}
	}
	if prev.Interrupts != nil && cur.Interrupts != nil {
		a, okA := prev.Interrupts.Total("TLB")
		b, okB := cur.Interrupts.Total("TLB")
		per(RateTLBShootdownPerSec, a, b, okA, okB, 1)
	}
	if len(prev.Threads) > 0 && len(cur.Threads) > 0 {
		// Ticks of USER_HZ per second of wall time, as a percentage of one CPU.
		for _, t := range KernelThreadRates {
			a, okA := threadTicks(prev.Threads, t.Prefix)
			b, okB := threadTicks(cur.Threads, t.Prefix)
			per(t.Rate, a, b, okA, okB, 100.0/userHZ)
		}
	}
	if len(prev.Softnet) > 0 && len(cur.Softnet) > 0 {
		// Per CPU, each column a u32 that wraps (SoftnetDeltas); a CPU that went offline
		// and back resets its row.
		if t := SoftnetTotals(SoftnetDeltas(prev.Softnet, cur.Softnet)); !t.Reset {
			rate(RateSoftnetDropPerSec, t.Dropped, DeltaGrew, 1)
			rate(RateSoftnetSqueezePerSec, t.TimeSqueeze, DeltaGrew, 1)
		}
	}
	{
		a, okA := prev.NetStat.Get("Tcp", "RetransSegs")
		b, okB := cur.NetStat.Get("Tcp", "RetransSegs")
		per(RateTCPRetransPerSec, a, b, okA, okB, 1)
		a, okA = prev.NetStat.Get("Tcp", "OutSegs")
		b, okB = cur.NetStat.Get("Tcp", "OutSegs")
		per(RateTCPOutSegsPerSec, a, b, okA, okB, 1)
		// Each counter's growth on its own (unsigned long MIB counters, Width64); a reset of
		// any makes the sum unknown.
		var sum int64
		kind, found := DeltaGrew, false
		for _, k := range SocketDropCounters {
			a, okA := prev.NetStat.Get(k[0], k[1])
			b, okB := cur.NetStat.Get(k[0], k[1])
			if okA && okB {
				d, dk := Delta(a, b, Width64)
				sum, kind, found = sum+d, max(kind, dk), true
			}
		}
		if found {
			rate(RateSocketDropPerSec, sum, kind, 1)
		}
	}
	if len(prev.NetDev) > 0 && len(cur.NetDev) > 0 {
		for key, name := range map[string]string{RateRxBytesPerSec: "rx_bytes", RateTxBytesPerSec: "tx_bytes", RateRxPacketsPerSec: "rx_packets"} {
			if d, kind, ok := netDevDelta(prev.NetDev, cur.NetDev, name, netdevWidth); ok {
				rate(key, d, kind, 1)
			}
		}
		var sum int64
		kind, found := DeltaGrew, false
		for _, name := range kernel.RxDropNetDevCounters {
			if d, k, ok := netDevDelta(prev.NetDev, cur.NetDev, name, netdevWidth); ok {
				sum, kind, found = sum+d, max(kind, k), true
			}
		}
		if found {
			rate(RateNICRxDropPerSec, sum, kind, 1)
		}
	}
	return r
}

// cpuShares sets the CPU split in percent of all CPU time over the interval.
func cpuShares(r Rates, a, b []int64) {
	if len(a) < 4 || len(b) < 4 {
		return
	}
	n := min(len(a), len(b))
	// guest and guest_nice (fields 8, 9) are already counted in user and nice
	// (kernel/sched/cputime.c account_guest_time), so the total stops at steal.
	n = min(n, 8)
	d := make([]float64, n)
	var total float64
	for i := 0; i < n; i++ {
		d[i] = float64(b[i] - a[i])
		if d[i] < 0 {
			return
		}
		total += d[i]
	}
	if total <= 0 {
		return
	}
	pct := func(i int) float64 { return 100 * d[i] / total }
	r[RateCPUUserPct] = pct(0) + pct(1)
	r[RateCPUSystemPct] = pct(2)
	r[RateCPUIdlePct] = pct(3)
	if n > 4 {
		r[RateCPUIOWaitPct] = pct(4)
	}
	if n > 5 {
		r[RateCPUIRQPct] = pct(5)
	}
	if n > 6 {
		r[RateCPUSoftIRQPct] = pct(6)
	}
	if n > 7 {
		r[RateCPUStealPct] = pct(7)
	}
}

func threadTicks(ts []kernel.TaskStat, prefix string) (int64, bool) {
	var sum int64
	found := false
	for _, t := range ts {
		if strings.HasPrefix(t.Comm, prefix) {
			sum += t.UTimeTicks + t.STimeTicks
			found = true
		}
	}
	return sum, found
}

// netDevDelta sums the growth of one counter over the non-loopback interfaces present in
// both samples, each device's counter taken with its own wrap; a device whose counter reset
// (re-created, driver reloaded) makes the sum a reset.
func netDevDelta(prev, cur []kernel.NetDev, name string, width int) (int64, DeltaKind, bool) {
	return netDevGrowth(prev, cur, func(dev string) bool { return dev != "lo" }, name, width)
}

// NetDevDelta is the growth of one counter of one interface between two samples, taken with
// the counter's width (Host.NetDevCounterWidth) and its wrap; ok is false when the interface
// or the counter is missing from either. tune --verify judges a NIC change by its own
// interface.
func NetDevDelta(prev, cur []kernel.NetDev, dev, name string, width int) (int64, DeltaKind, bool) {
	return netDevGrowth(prev, cur, func(d string) bool { return d == dev }, name, width)
}

func netDevGrowth(prev, cur []kernel.NetDev, want func(dev string) bool, name string, width int) (int64, DeltaKind, bool) {
	var sum int64
	kind, found := DeltaGrew, false
	for _, d := range cur {
		if !want(d.Name) {
			continue
		}
		b, okB := d.Counters.Get(name)
		i := slices.IndexFunc(prev, func(p kernel.NetDev) bool { return p.Name == d.Name })
		if !okB || i < 0 {
			continue
		}
		a, okA := prev[i].Counters.Get(name)
		if !okA {
			continue
		}
		v, k := Delta(a, b, width)
		sum += v
		kind = max(kind, k)
		found = true
	}
	return sum, kind, found
}

// Series returns the values of one rate key across the timeline with their sample indexes,
// skipping samples without it.
func (t *Timeline) Series(key string) (idx []int, vals []float64) {
	for i := range t.Samples {
		if v, ok := t.Samples[i].Rates[key]; ok {
			idx = append(idx, i)
			vals = append(vals, v)
		}
	}
	return idx, vals
}

// Span returns the wall time covered by the samples, zero when unknown.
func (t *Timeline) Span() time.Duration {
	if len(t.Samples) < 2 {
		return 0
	}
	a, b := t.Samples[0].Time, t.Samples[len(t.Samples)-1].Time
	if a.IsZero() || b.IsZero() {
		return 0
	}
	return b.Sub(a)
}

// RateKeys lists the keys present anywhere in the timeline, sorted.
func (t *Timeline) RateKeys() []string {
	seen := map[string]bool{}
	for i := range t.Samples {
		for k := range t.Samples[i].Rates {
			seen[k] = true
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// KernelThreadRates maps the kernel threads whose CPU time shows memory and network pressure
// (kernel.KernelThreadPrefixes, the comm prefixes the live reader samples) to the rate that
// carries their summed share of one CPU. Live sampling, top, pidstat and Android's cpuinfo all
// sum through this one table, so "kswapd" means the same threads whatever the input.
var KernelThreadRates = []struct{ Prefix, Rate string }{
	{kernel.KthreadKswapd, RateKswapdCPUPct},
	{kernel.KthreadKcompactd, RateKcompactdCPUPct},
	{kernel.KthreadKsoftirqd, RateKsoftirqdCPUPct},
}

// KernelThreadRate is the rate a kernel thread's CPU share adds to, by its comm ("kswapd0",
// "ksoftirqd/3", "[kswapd0]" as ps and top bracket kernel threads); ok is false for any other task.
func KernelThreadRate(comm string) (rate string, ok bool) {
	comm = strings.TrimPrefix(comm, "[")
	for _, t := range KernelThreadRates {
		if strings.HasPrefix(comm, t.Prefix) {
			return t.Rate, true
		}
	}
	return "", false
}
