package plan

import (
	"fmt"
	"math"
	"strconv"

	"headroom/kernel"
	"headroom/units"
)

// Number is one figure plan derived before choosing any setting: its value in its unit, the
// text the settings' reasons print it as, and how it was derived. Plan.Numbers lists them in
// the order they are computed, so a reader can follow every reason back to its arithmetic.
type Number struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"` // "bytes", "bit/s", "s", "ratio", "pages", "kB", "packets/s", "packets", "µs", "ms"
	Text  string  `json:"text"` // the value as the reasons print it
	How   string  `json:"how"`
}

// numbers is step 1 of Compute: every figure the settings are chosen from, computed from the
// Input alone. Step 2 (Plan.addSettings) only compares these with the current values and
// writes each setting with its reason.
type numbers struct {
	in       Input
	kver     kernel.KernelVersion
	cur      currentMap
	page     int64
	streams  int64
	dirs     string // "receive", "send", "receive + send": the buffers the budget counts
	basisKB  int64
	basisLbl string

	sendStreamBitsPerSec float64
	rcvCover, sndCover   int64
	want                 bufSet // what fills the link: tcp_rmem/tcp_wmem max, rmem_max, wmem_max
	floor                bufSet // the current values, else the kernel defaults
	floorSrc             [4]string
	limits               bufSet // as planned, within the budget
	shareText            string
	lowered              string // the reach suffix when the budget lowered the limits

	tcpNeedPages, tcpBudgetPages, tcpDefaultMaxPages int64
	tcpFlowPages, tcpIdlePages                       int64

	minFreeKB, minFreeCapKB, minFreeDefaultKB int64
	reserveBudgetKB                           int64
	reserve                                   reserveBudget
	fit                                       reserveFit // known only with the host's meminfo
	minFreeWhy                                string
	burst                                     rxBurst
	wsf                                       int64
	wsfWhy                                    string
	wsfOK                                     bool

	lineBitsPerSec, pps float64
	backlog             int64
	budgetUsecs         int64
	budgetUsecsSrc      string
	netdevBudget        int64
	cpus                int64     // Input.CPUs, 1 when unknown
	backlogCap          int64     // the per-CPU backlog whose buffers, on every CPU, fit the reserve share
	plannedMinFreeKB    int64     // vm.min_free_kbytes as planned (addMinFree)
	nicPPS              []float64 // per Input.NICs entry

	notsentLowat int64

	// Many flows through one bottleneck (docs/plan.md, section 9): the flows' share of the
	// link's BDP in segments, BBR's fixed cwnd surplus over all of them, and whether that
	// surplus makes BBR's standing queue the flows' problem (manyFlows).
	mssBytes          int64
	linkBDPBytes      int64
	streamBDPSegments float64
	bbrSurplusBytes   int64
	manyFlows         bool
	loneReach         float64

	list []Number
}

func (n *numbers) add(name string, value float64, unit, text, how string) {
	n.list = append(n.list, Number{Name: name, Value: value, Unit: unit, Text: text, How: how})
}

func (n *numbers) bytes(name string, v int64, how string) {
	n.add(name, float64(v), "bytes", units.FormatBytes(v), how)
}

func (n *numbers) rate(name string, v float64, how string) {
	n.add(name, v, "bit/s", units.FormatBitsPerSec(v), how)
}

// computeNumbers is step 1 of Compute: it validates in, resolves the kernel and lowmem, and
// derives every figure, filling the Plan's figure fields, its budget and the notes and
// warnings that explain the budget.
func computeNumbers(in Input) (Plan, *numbers, error) {
	in = withDefaults(in)
	if err := validate(in); err != nil {
		return Plan{}, nil, fmt.Errorf("plan: %w", err)
	}
	kver, err := kernel.ParseKernelVersion(in.KernelVersion)
	if err != nil {
		return Plan{}, nil, fmt.Errorf("plan: %w", err)
	}
	wordBits, err := wordBits(in.Arch)
	if err != nil {
		return Plan{}, nil, fmt.Errorf("plan: %w", err)
	}
	lowNote, err := resolveLowmem(&in, wordBits)
	if err != nil {
		return Plan{}, nil, fmt.Errorf("plan: %w", err)
	}

	p := Plan{Input: in, Kernel: kver.String(), WordBits: wordBits}
	if lowNote != "" {
		p.Notes = append(p.Notes, lowNote)
	}
	if !kver.Known {
		p.Notes = append(p.Notes, "kernel version unknown: formulas assume a current (6.6+) kernel")
	}
	if in.StreamsAssumed {
		// The flow count sizes tcp_mem and divides the link among the buffers: a plan must
		// say what it assumed, most of all for a host that talks to many peers.
		note := fmt.Sprintf("flow count not given (--streams): plan assumed 1 flow carrying all of %s, and sized tcp_mem for it", units.FormatBitsPerSec(in.BandwidthBitsPerSec))
		if in.RTTMax > in.RTT {
			note += fmt.Sprintf("; an RTT range (%v-%v) usually means many peers, as on an internet-facing host, whose flows share the link: give --streams with the flows the host carries at once", in.RTT, in.RTTMax)
		}
		p.Notes = append([]string{note}, p.Notes...)
	}
	n := &numbers{in: in, kver: kver, cur: currentValues(in.Current), page: int64(in.PageSizeBytes), streams: int64(in.Streams)}
	page, cur := n.page, n.cur

	// Per-stream rates. A sender behind an HTB limit never sends faster than the limit.
	p.StreamBitsPerSec = in.BandwidthBitsPerSec / float64(in.Streams)
	n.sendStreamBitsPerSec = p.StreamBitsPerSec
	if in.RateLimitBitsPerSec > 0 && in.RateLimitBitsPerSec < in.BandwidthBitsPerSec {
		n.sendStreamBitsPerSec = in.RateLimitBitsPerSec / float64(in.Streams)
	}
	p.BDPBytesPerStream = BDPBytes(p.StreamBitsPerSec, in.RTT)
	p.SendBDPBytesPerStream = BDPBytes(n.sendStreamBitsPerSec, in.RTT)

	adv, hasAdv := cur.int("net.ipv4.tcp_adv_win_scale")
	p.WindowRatio, p.WindowRatioWhy = ReceiveWindowRatio(kver, int(adv), hasAdv, in.WindowRatio)
	p.SetsockoptRatio = SetsockoptWindowRatio(kver, int(adv), hasAdv, in.WindowRatio)

	// What fills the link. The send queue holds every unacknowledged byte for one RTT and is
	// charged at skb truesize like the receive queue, so the same ratio bounds it (TSO-sized
	// send skbs waste less; the kernel's own tcp_sndbuf_expand() asks for 2× cwnd).
	// SO_RCVBUF/SO_SNDBUF values are doubled by the kernel ("we double it on the way in to
	// account for struct sk_buff etc. overhead", sock_setsockopt(), net/core/sock.c), so an
	// application that asks for BDP ÷ (2 × ratio) gets a full window.
	//
	// The maxima cover more than one nominal BDP (docs/plan.md, "Invariants"): the worst RTT
	// the flows see (the upper end of an --rtt range, else RTTMarginFactor × the RTT: a full
	// bottleneck queue sized at one BDP doubles the RTT), and the 2× headroom autotuning asks
	// for above what it measured (tcp_rcv_space_adjust(): rcvwin = 2 × copied per RTT;
	// tcp_sndbuf_expand(): 2 × cwnd), whichever is larger.
	p.WorstRTT = WorstRTT(in)
	n.rcvCover = CoverBytes(p.StreamBitsPerSec, in.RTT, p.WorstRTT)
	n.sndCover = CoverBytes(n.sendStreamBitsPerSec, in.RTT, p.WorstRTT)
	p.CoverBytesPerStream = n.rcvCover
	rcvWant := roundUpBytes(int64(math.Ceil(float64(n.rcvCover)/p.WindowRatio)), page)
	sndWant := roundUpBytes(int64(math.Ceil(float64(n.sndCover)/p.WindowRatio)), page)
	coreRWant := roundUpBytes(int64(math.Ceil(float64(n.rcvCover)/(2*p.SetsockoptRatio))), page)
	// One stream cannot use more: the largest window TCP can advertise is 65535 << 14 bytes
	// (RFC 7323 window scale 14), and the sysctls are C ints.
	if limit := min(int64(math.MaxInt32), int64(float64(maxWindowBytes)/p.WindowRatio)) / page * page; rcvWant > limit || sndWant > limit {
		p.Notes = append(p.Notes, fmt.Sprintf("one stream needs %s of buffer, beyond what one TCP connection can use (a %s window, 65535 << 14, or the sysctls' int range): buffers capped at %s; use at least %d streams",
			units.FormatBytes(max(rcvWant, sndWant)), units.FormatBytes(maxWindowBytes), units.FormatBytes(limit), int64(math.Ceil(float64(max(rcvWant, sndWant))/float64(limit)))*int64(in.Streams)))
		rcvWant, sndWant = min(rcvWant, limit), min(sndWant, limit)
	}
	coreRWant = min(coreRWant, int64(math.MaxInt32)/2/page*page)
	coreWWant := roundUpBytes(ceilDiv(sndWant, 2), page)
	n.want = bufSet{rcvWant, sndWant, coreRWant, coreWWant}

	b := Budget{ShareDenominator: memoryShareDenominator}
	b.BasisBytes, b.Basis = budgetBasis(in)
	b.BasisWhy = "MemTotal"
	if b.Basis == "lowmem" {
		b.ShareDenominator = lowmemShareDenominator
		b.BasisWhy = "lowmem of a 32-bit HighMem kernel: socket buffers cannot live in HighMem"
	} else if wordBits == 32 {
		b.BasisWhy = "MemTotal: all of this 32-bit host's memory is lowmem"
	}
	b.BudgetBytes = b.BasisBytes / b.ShareDenominator
	n.basisKB, n.basisLbl = b.BasisBytes/1024, b.Basis

	streams := n.streams
	fits := func(v bufSet) bool { return streams*n.perStream(v) <= b.BudgetBytes }
	n.floor, n.floorSrc = bufferFloors(kver, b.BasisBytes, cur)
	p.Defaults = KernelDefaultBuffers(kver, b.BasisBytes)
	b.WantedBytes = streams * n.perStream(n.want)
	b.Fits = b.WantedBytes <= b.BudgetBytes
	// The flow count may lower the maxima towards the budget, but never below the target
	// kernel's own defaults: a maximum is a cap that autotuning reaches only for a flow that
	// needs it, so many flows do not make a default cap dangerous (tcp_mem bounds their sum,
	// and it is sized from the flow count below); a cap below the default only slows the one
	// flow that needs it (issue 27: 10 000 flows gave tcp_rmem max 420 KiB).
	hard := bufSet{p.Defaults.TCPRmem[2], p.Defaults.TCPWmem[2], max(p.Defaults.RmemMax, CoreMemMaxFloor), max(p.Defaults.WmemMax, CoreMemMaxFloor)}
	v := fitBuffers(n.want, n.floor, hard, page, fits)
	n.limits = v
	r, w := v.r, v.w
	p.RcvBufBytes, p.SndBufBytes, p.CoreRmemMaxBytes, p.CoreWmemMaxBytes = v.r, v.w, v.cr, v.cw
	b.PerStreamBytes = n.perStream(v)
	b.WorstCaseBytes = streams * b.PerStreamBytes

	rcvReach := streams2reach(streams, r, p.WorstRTT, p.WindowRatio)
	sndReach := streams2reach(streams, w, p.WorstRTT, p.WindowRatio)
	switch in.Role {
	case RoleReceiver:
		b.ReachBitsPerSec = rcvReach
		p.StreamReachBitsPerSec = ThroughputBitsPerSec(r, p.WorstRTT, p.WindowRatio)
	case RoleSender:
		b.ReachBitsPerSec = sndReach
		p.StreamReachBitsPerSec = ThroughputBitsPerSec(w, p.WorstRTT, p.WindowRatio)
	default:
		b.ReachBitsPerSec = math.Min(rcvReach, sndReach)
		p.StreamReachBitsPerSec = math.Min(ThroughputBitsPerSec(r, p.WorstRTT, p.WindowRatio), ThroughputBitsPerSec(w, p.WorstRTT, p.WindowRatio))
	}
	n.shareText = fmt.Sprintf("1/%d of %s %s", b.ShareDenominator, b.Basis, units.FormatBytes(b.BasisBytes))
	n.dirs = map[string]string{RoleReceiver: "receive", RoleSender: "send", RoleBoth: "receive + send"}[in.Role]
	switch {
	case b.Fits && b.WorstCaseBytes > b.BudgetBytes:
		b.Why = fmt.Sprintf("filling %s needs %s × %s = %s, within the budget %s (%s); at their maxima (the kernel's defaults or above, which plan never lowers for the flow count) %s would hold %s, which tcp_mem's max bounds: only flows that need their maxima reach them",
			units.FormatBitsPerSec(in.BandwidthBitsPerSec), plural(in.Streams, "stream"), units.FormatBytes(b.WantedBytes/streams), units.FormatBytes(b.WantedBytes),
			units.FormatBytes(b.BudgetBytes), n.shareText, plural(in.Streams, "stream"), units.FormatBytes(b.WorstCaseBytes))
	case b.Fits:
		b.Why = fmt.Sprintf("worst case %s × %s (%s buffers) = %s fits the budget %s (%s)",
			plural(in.Streams, "stream"), units.FormatBytes(b.PerStreamBytes), n.dirs, units.FormatBytes(b.WorstCaseBytes), units.FormatBytes(b.BudgetBytes), n.shareText)
	default:
		b.Why = fmt.Sprintf("filling %s needs %s × %s = %s, over the budget %s (%s): per-stream limits lowered to %.0f%%, reaching %s at the worst RTT %v",
			units.FormatBitsPerSec(in.BandwidthBitsPerSec), plural(in.Streams, "stream"), units.FormatBytes(b.WantedBytes/streams), units.FormatBytes(b.WantedBytes),
			units.FormatBytes(b.BudgetBytes), n.shareText, 100*float64(b.BudgetBytes)/float64(b.WantedBytes), units.FormatBitsPerSec(b.ReachBitsPerSec), p.WorstRTT)
		if b.WorstCaseBytes > b.BudgetBytes {
			b.Why += fmt.Sprintf("; at the kernel's default maxima (which plan never goes below for the flow count) the worst case is %s, so tcp_mem's max is what holds the host to the budget",
				units.FormatBytes(b.WorstCaseBytes))
		}
		n.lowered = fmt.Sprintf("; lowered to fit the budget, one stream now reaches %s at %v", units.FormatBitsPerSec(p.StreamReachBitsPerSec), p.WorstRTT)
	}
	p.Budget = b
	if !b.Fits {
		p.Notes = append(p.Notes, streamsNote(in, p, r, w))
	}
	p.Warnings = append(p.Warnings, n.budgetWarnings(b)...)

	// tcp_mem counts pages (ip-sysctl.rst): the planned worst case and the budget in pages,
	// and the kernel's own default max (tcp_init_mem(): 3/32 of the free buffer pages).
	n.tcpNeedPages = ceilDiv(b.WorstCaseBytes, page)
	// What the flows hold when each fills its share of the link (at most its planned
	// maxima): the flow count sizes tcp_mem's pressure threshold from this, not from the
	// maxima, which only the flows that need them reach. And what the flows are guaranteed
	// even under pressure: one page each way (tcp_rmem[0], tcp_wmem[0]: between pressure and
	// max, __sk_mem_raise_allocated, net/core/sock.c, still lets a socket below them charge,
	// "guarantee minimum buffer size under pressure"), which tcp_mem's min should hold.
	lo := func(a, b, _ int64) int64 { return min(a, b) }
	p.Budget.FlowsBytes = streams * n.perStream(n.want.each(lo, v, bufSet{}))
	n.tcpFlowPages = ceilDiv(p.Budget.FlowsBytes, page)
	n.tcpIdlePages = streams * in.directions()
	n.tcpBudgetPages = b.BudgetBytes / page
	n.tcpDefaultMaxPages = KernelDefaultTCPMemPages(b.BasisBytes / page)[2]

	// The free-memory reserve for atomic RX refills while kswapd catches up.
	// Its budget: 1/20 of the basis, or, when the host's meminfo says what its memory holds,
	// what fits beside the memory reclaim cannot free and TCP's cap, which is lowered as far
	// as the reserve needs (fitReserve, addTCPMem).
	n.reserve = shareReserveBudget(in)
	tcpRef := max(n.tcpDefaultMaxPages, ceilDiv(n.tcpFlowPages*tcpMemBandNum, tcpMemBandDen))
	if c, ok := cur.triplet("net.ipv4.tcp_mem"); ok {
		tcpRef = max(tcpRef, c[2])
	}
	tcpRef = min(tcpRef, n.tcpBudgetPages)
	tcpFloor := max(ceilDiv(n.tcpFlowPages*tcpMemBandNum, tcpMemBandDen), n.tcpIdlePages)
	if n.fit = fitReserve(in, cur, page, tcpRef, tcpFloor); n.fit.known {
		n.reserve = n.fit.budget(n.basisLbl, n.basisKB, page)
	}
	n.minFreeKB, n.minFreeWhy = minFreeKBytesWithin(in, n.reserve)
	n.minFreeCapKB, _ = minFreeCapKB(n.reserve, kver, in.MemoryBytes/1024)
	n.reserveBudgetKB = n.reserve.kb
	n.minFreeDefaultKB = KernelDefaultMinFreeKBytesForVersion(n.basisKB, kver)
	n.burst = computeRxBurst(in)
	n.wsf, n.wsfWhy, n.wsfOK = watermarkScaleFactorWithin(in, n.reserve, n.minFreeKB)

	// The packet rate the input path must absorb, and the softirq round it drains in.
	n.lineBitsPerSec = lineRateBitsPerSec(in)
	n.pps = PacketsPerSec(n.lineBitsPerSec, in.MTUBytes)
	n.backlog = NetdevMaxBacklogPackets(n.pps)
	n.budgetUsecs, n.budgetUsecsSrc = int64(DefaultNetdevBudgetUsecs), "default"
	if ok, _ := kernel.SysctlExists("net.core.netdev_budget_usecs", kver, kver.Known); !ok {
		n.budgetUsecsSrc = "before 4.12 the limit was 2 jiffies, 2 ms at HZ=1000"
	}
	if c, ok := cur.int("net.core.netdev_budget_usecs"); ok && c > 0 {
		n.budgetUsecs, n.budgetUsecsSrc = c, "current"
	}
	n.netdevBudget = NetdevBudgetPackets(n.pps, n.budgetUsecs)
	n.cpus = int64(max(in.CPUs, 1))
	n.backlogCap = b.BasisBytes / ReserveShareDenominator / (n.cpus * n.burst.bufferBytes)
	for _, nic := range in.NICs {
		bits := float64(nic.SpeedMbps) * 1e6
		if bits <= 0 {
			bits = in.BandwidthBitsPerSec
		}
		n.nicPPS = append(n.nicPPS, PacketsPerSec(bits, in.MTUBytes))
	}

	// The writer is woken when unsent data drops below the mark; it must refill before the
	// socket runs dry. Allow it NotsentRefill at the stream's rate.
	n.notsentLowat = NotsentLowatBytes(n.sendStreamBitsPerSec, in.PageSizeBytes)

	// Many flows sharing the bottleneck: what BBR's fixed per-flow cwnd additions put in
	// flight beyond twice the link's BDP, against that BDP (ManyFlows).
	sendLink := n.sendStreamBitsPerSec * float64(in.Streams)
	n.mssBytes = MSSBytes(in.MTUBytes)
	n.linkBDPBytes = BDPBytes(sendLink, in.RTT)
	n.streamBDPSegments = float64(p.SendBDPBytesPerStream) / float64(n.mssBytes)
	n.bbrSurplusBytes = streams * BBRFixedCwndSegments * n.mssBytes
	n.manyFlows = ManyFlows(in.Streams, n.linkBDPBytes, n.mssBytes)
	// A flow that finds the link to itself: what the planned send maximum lets it reach.
	n.loneReach = math.Min(sendLink, ThroughputBitsPerSec(n.limits.w, p.WorstRTT, p.WindowRatio))

	n.listNumbers(p)
	p.Numbers = n.list
	return p, n, nil
}

// perStream is the worst case one stream may hold with limits v: the larger of what
// autotuning may reach (tcp_[rw]mem max) and what a setsockopt may ask for (twice the
// net.core cap: the kernel doubles SO_RCVBUF/SO_SNDBUF), for each direction the role uses.
func (n *numbers) perStream(v bufSet) int64 {
	var s int64
	if n.in.receives() {
		s += max(v.r, 2*v.cr)
	}
	if n.in.sends() {
		s += max(v.w, 2*v.cw)
	}
	return s
}

// budgetWarnings: every limit planned below what the host has now (or, without a current
// value, the target kernel's default) is lowered for the budget: say so, with the numbers.
func (n *numbers) budgetWarnings(b Budget) []string {
	var out []string
	v := n.limits
	for i, l := range []struct {
		key        string
		on         bool
		got, floor int64
		src        string
	}{
		{"net.ipv4.tcp_rmem max", n.in.receives(), v.r, n.floor.r, n.floorSrc[0]},
		{"net.ipv4.tcp_wmem max", n.in.sends(), v.w, n.floor.w, n.floorSrc[1]},
		{"net.core.rmem_max", n.in.receives(), v.cr, n.floor.cr, n.floorSrc[2]},
		{"net.core.wmem_max", n.in.sends(), v.cw, n.floor.cw, n.floorSrc[3]},
	} {
		if !l.on || l.got >= l.floor {
			continue
		}
		with := v
		*[]*int64{&with.r, &with.w, &with.cr, &with.cw}[i] = l.floor
		out = append(out, fmt.Sprintf("%s lowered below %s %d to %d: keeping %d, %s × %s would hold %s, over the budget %s (%s)",
			l.key, l.src, l.floor, l.got, l.floor, plural(n.in.Streams, "stream"), units.FormatBytes(n.perStream(with)), units.FormatBytes(n.streams*n.perStream(with)),
			units.FormatBytes(b.BudgetBytes), n.shareText))
	}
	return out
}

// listNumbers records the figures for Plan.Numbers, each with the text the reasons use.
func (n *numbers) listNumbers(p Plan) {
	in, b := n.in, p.Budget
	n.rate("stream rate", p.StreamBitsPerSec, "bandwidth ÷ streams")
	if n.sendStreamBitsPerSec != p.StreamBitsPerSec {
		n.rate("send stream rate", n.sendStreamBitsPerSec, "rate limit ÷ streams: a sender behind the HTB limit never sends faster")
	}
	if in.RateLimitBitsPerSec > 0 {
		n.rate("rate limit", in.RateLimitBitsPerSec, "given")
	}
	n.bytes("BDP per stream", p.BDPBytesPerStream, "stream rate × RTT ÷ 8")
	if p.SendBDPBytesPerStream != p.BDPBytesPerStream {
		n.bytes("send BDP per stream", p.SendBDPBytesPerStream, "send stream rate × RTT ÷ 8")
	}
	n.add("worst RTT", p.WorstRTT.Seconds(), "s", p.WorstRTT.String(), "the upper end of the RTT range, else RTT × RTTMarginFactor")
	n.add("window ratio", p.WindowRatio, "ratio", strconv.FormatFloat(p.WindowRatio, 'g', 3, 64), p.WindowRatioWhy)
	n.add("setsockopt window ratio", p.SetsockoptRatio, "ratio", strconv.FormatFloat(p.SetsockoptRatio, 'g', 3, 64), "window share of an SO_RCVBUF buffer on this kernel")
	cover := "max(2 × BDP at the RTT, BDP at the worst RTT)"
	n.bytes("receive cover per stream", n.rcvCover, cover)
	if n.sndCover != n.rcvCover {
		n.bytes("send cover per stream", n.sndCover, cover+" at the send stream rate")
	}
	n.bytes("tcp_rmem max needed", n.want.r, "receive cover ÷ window ratio, rounded up to pages, at most what one connection can use")
	n.bytes("tcp_wmem max needed", n.want.w, "send cover ÷ window ratio, rounded up to pages, at most what one connection can use")
	n.bytes("rmem_max needed", n.want.cr, "receive cover ÷ (2 × setsockopt window ratio), rounded up to pages")
	n.bytes("wmem_max needed", n.want.cw, "half the tcp_wmem max needed, rounded up to pages")
	n.bytes("budget basis", b.BasisBytes, b.BasisWhy)
	n.bytes("budget", b.BudgetBytes, fmt.Sprintf("basis ÷ %d", b.ShareDenominator))
	n.bytes("wanted", b.WantedBytes, "streams × per-stream worst case at the needed limits")
	n.bytes("tcp_rmem max planned", n.limits.r, "the needed value and the floor, lowered only as far as the budget forces")
	n.bytes("tcp_wmem max planned", n.limits.w, "the needed value and the floor, lowered only as far as the budget forces")
	n.bytes("rmem_max planned", n.limits.cr, "the needed value and the floor, lowered only as far as the budget forces")
	n.bytes("wmem_max planned", n.limits.cw, "the needed value and the floor, lowered only as far as the budget forces")
	n.bytes("worst case", b.WorstCaseBytes, "streams × per-stream worst case at the planned limits")
	n.rate("stream reach", p.StreamReachBitsPerSec, "one stream with the planned limits at the worst RTT")
	pages := func(name string, v int64, how string) {
		n.add(name, float64(v), "pages", fmt.Sprintf("%d pages", v), how)
	}
	pages("tcp_mem worst case", n.tcpNeedPages, "worst case ÷ page size, rounded up")
	n.bytes("flows' need", b.FlowsBytes, "streams × what each holds filling its share of the link, at most its planned maxima")
	pages("tcp_mem flows' need", n.tcpFlowPages, "flows' need ÷ page size, rounded up: tcp_mem pressure stays at or above it")
	pages("tcp_mem idle floor", n.tcpIdlePages, "one page per stream and direction (tcp_rmem[0], tcp_wmem[0]): tcp_mem min stays at or above it")
	pages("tcp_mem budget", n.tcpBudgetPages, "budget ÷ page size")
	n.add("tcp_mem default max", float64(n.tcpDefaultMaxPages), "pages", strconv.FormatInt(n.tcpDefaultMaxPages, 10), "tcp_init_mem(): 3/32 of the basis' pages")
	kb := func(name string, v int64, how string) {
		n.add(name, float64(v), "kB", fmt.Sprintf("%d kB", v), how)
	}
	n.bytes("RX burst", n.burst.burstBytes, fmt.Sprintf("line rate × %v kswapd reaction, in %d B receive buffers", n.burst.reaction, n.burst.bufferBytes))
	n.bytes("burst + rings", n.burst.burstBytes+n.burst.ringBytes, "RX burst + one refill of every known RX ring")
	kb("min_free_kbytes needed", n.minFreeKB, "(burst + rings) × 8/7, at least the kernel default, at most its share of the reserve budget")
	kb("min_free_kbytes default", n.minFreeDefaultKB, "the kernel's default for the basis")
	if f := n.fit; f.known {
		kb("unreclaimable", f.unreclaimKB, "what reclaim cannot free (meminfo): "+f.unreclaimWhy)
		how := fmt.Sprintf("TCP's cap as planned: the wanted reserve %d kB fits beside it", f.wantKB)
		if f.tcpCapPages < f.tcpRefPages {
			how = fmt.Sprintf("TCP's cap lowered from %d pages, not below %d (5/4 × the flows' need), as far as the wanted reserve %d kB needs", f.tcpRefPages, f.tcpFloorPages, f.wantKB)
		}
		pages("tcp_mem cap beside the reserve", f.tcpCapPages, how)
		kb("reclaimable", f.reclaimKB, "the basis − unreclaimable − TCP's cap")
		kb("reserve budget", n.reserveBudgetKB, fmt.Sprintf("reclaimable × (1 − dirty) ÷ (2 − dirty) with %s: min_free_kbytes + 2 × the watermark gap (the high watermark kswapd keeps free) ≤ the clean page cache left to reclaim it from", f.dirty))
	} else {
		kb("reserve budget", n.reserveBudgetKB, fmt.Sprintf("1/%d of the basis: min_free_kbytes + 2 × the watermark gap (the high watermark kswapd keeps free) stays within it", ReserveShareDenominator))
	}
	kb("min_free_kbytes cap", n.minFreeCapKB, "the share of the reserve budget min_free_kbytes may take (half with watermark_scale_factor, else 2/3)")
	if n.wsfOK {
		n.add("watermark_scale_factor needed", float64(n.wsf), "ratio", strconv.FormatInt(n.wsf, 10), "⌊gap × 10000 ÷ basis⌋, the gap one burst + rings within what the reserve budget leaves")
	}
	n.rate("line rate", n.lineBitsPerSec, "the NICs' summed speed or the bandwidth, whichever is larger")
	n.add("packet rate", n.pps, "packets/s", fmt.Sprintf("%.0f packets/s", n.pps), fmt.Sprintf("line rate ÷ 8 ÷ (MTU %d + %d B framing)", in.MTUBytes, EthernetOverheadBytes))
	n.add("backlog needed", float64(n.backlog), "packets", fmt.Sprintf("%d packets", n.backlog), fmt.Sprintf("packet rate × %v drain interval", BacklogDrainInterval))
	n.add("backlog cap", float64(n.backlogCap), "packets", fmt.Sprintf("%d packets", n.backlogCap), fmt.Sprintf("1/%d of the basis ÷ (%s × the receive buffer): every CPU's backlog full at once", ReserveShareDenominator, plural(int(n.cpus), "CPU")))
	n.add("softirq round", float64(n.budgetUsecs), "µs", fmt.Sprintf("%d µs", n.budgetUsecs), "netdev_budget_usecs, "+n.budgetUsecsSrc)
	n.add("netdev_budget needed", float64(n.netdevBudget), "packets", fmt.Sprintf("%d packets per round", n.netdevBudget), "packet rate × softirq round")
	for i, nic := range in.NICs {
		if nic.Name == "" || nic.RxRing <= 0 {
			continue
		}
		ms := RingMillis(nic.RxRing, n.nicPPS[i])
		n.add(nic.Name+" RX ring time", ms, "ms", fmt.Sprintf("%.1f ms", ms), fmt.Sprintf("ring %d ÷ the NIC's packet rate", nic.RxRing))
	}
	n.bytes("notsent_lowat needed", n.notsentLowat, fmt.Sprintf("send stream rate × %v writer refill time, rounded up to pages, at least 16 KiB", NotsentRefill))
	if in.sends() {
		n.add("BDP per stream in segments", n.streamBDPSegments, "segments", strconv.FormatFloat(n.streamBDPSegments, 'f', 1, 64)+" segments",
			fmt.Sprintf("send BDP per stream ÷ MSS %d B (MTU − 52 B of IPv4, TCP and timestamp headers)", n.mssBytes))
		n.bytes("BBR fixed surplus", n.bbrSurplusBytes, fmt.Sprintf("streams × %d segments: BBR's cwnd above 2 × its BDP estimate in every flow (3 TSO bursts + 2 while probing, tcp_bbr.c)", BBRFixedCwndSegments))
		n.rate("lone stream reach", n.loneReach, "one stream alone on the link with the planned tcp_wmem max at the worst RTT, at most the link")
	}
}
