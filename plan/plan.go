package plan

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"headroom/kernel"
	"headroom/model"
	"headroom/units"
)

// Roles: which direction the host's streams carry data.
const (
	RoleReceiver = "receiver"
	RoleSender   = "sender"
	RoleBoth     = "both"
)

// Input describes the link, the traffic and the host a plan is for. Zero values of MTUBytes,
// PageSizeBytes and Role take the defaults 1500, 4096 and "both".
type Input struct {
	BandwidthBitsPerSec float64       `json:"bandwidth_bits_per_sec"` // link or share to fill
	RTT                 time.Duration `json:"rtt_ns"`
	// RTTMax is the upper end of an RTT range (--rtt 0.5ms-50ms): the buffers cover it.
	// 0 = RTT × RTTMarginFactor.
	RTTMax  time.Duration `json:"rtt_max_ns,omitempty"`
	Streams int           `json:"streams"` // 0 = not given: 1 is assumed, and the plan says so
	// StreamsAssumed is set by Compute when Streams was not given (0) and 1 was assumed.
	StreamsAssumed      bool              `json:"streams_assumed,omitempty"`
	Role                string            `json:"role"` // RoleReceiver, RoleSender, RoleBoth
	MTUBytes            int               `json:"mtu_bytes"`
	MemoryBytes         int64             `json:"memory_bytes"`            // MemTotal
	LowmemBytes         int64             `json:"lowmem_bytes"`            // 0 when the kernel has no HighMem split (64-bit)
	PageSizeBytes       int               `json:"page_size_bytes"`         // 4096 unless told
	KernelVersion       string            `json:"kernel_version"`          // "6.18.44", "2.6.13"; "" = unknown
	Arch                string            `json:"arch"`                    // "x86_64", "i686", "armv5tel", ...
	RateLimitBitsPerSec float64           `json:"rate_limit_bits_per_sec"` // 0 = none
	Current             map[string]string `json:"current,omitempty"`       // current sysctl values by key
	NICs                []NIC             `json:"nics,omitempty"`          // for ring sizing / min_free; may be empty
	// CPUs is the number of CPUs (0 = unknown, counted as 1): every CPU has its own input
	// backlog and softirq round, so their memory is budgeted per CPU.
	CPUs int `json:"cpus,omitempty"`

	// RateLimitDevice and RateLimitDestination place the HTB rate limit: the egress device
	// ("" = the first NIC, else "DEV") and an optional destination (IPv4 address or CIDR) to
	// limit; without one, all traffic on the device is limited.
	RateLimitDevice      string `json:"rate_limit_device,omitempty"`
	RateLimitDestination string `json:"rate_limit_destination,omitempty"`
	// WindowRatio is a receive-window share of tcp_rmem measured on the target host
	// (0 = derive it from the kernel version; see ReceiveWindowRatio).
	WindowRatio float64 `json:"window_ratio,omitempty"`
	// KswapdReaction overrides DefaultKswapdReaction.
	KswapdReaction time.Duration `json:"kswapd_reaction_ns,omitempty"`
	// MemInfoKB is the target host's /proc/meminfo (kB, by field), when known: what its
	// memory holds that reclaim cannot free, which the free-memory reserve must fit beside
	// (fitReserve). nil: unknown, and the reserve keeps 1/ReserveShareDenominator of the basis.
	MemInfoKB map[string]int64 `json:"meminfo_kb,omitempty"`
	// FQ is whether the target kernel has the fq qdisc (sch_fq), which paces every TCP flow
	// at its sk_pacing_rate; "" when nothing said (kernel.QdiscAvailability).
	FQ kernel.Availability `json:"fq,omitempty"`
}

// NIC is one receiving interface. Zero ring sizes mean unknown.
type NIC struct {
	Name      string `json:"name"`
	SpeedMbps int64  `json:"speed_mbps"`
	RxRing    int64  `json:"rx_ring"`
	RxRingMax int64  `json:"rx_ring_max"`
	DropsSeen bool   `json:"drops_seen"`
}

// Plan is the computed result. Settings are ordered as a reader would apply them.
type Plan struct {
	Input    Input  `json:"input"`
	Kernel   string `json:"kernel"`    // parsed version, or "unknown"
	WordBits int    `json:"word_bits"` // 32 or 64

	StreamBitsPerSec      float64        `json:"stream_bits_per_sec"`       // bandwidth ÷ streams
	BDPBytesPerStream     int64          `json:"bdp_bytes_per_stream"`      // receive side
	SendBDPBytesPerStream int64          `json:"send_bdp_bytes_per_stream"` // send side (lower with a rate limit)
	WindowRatio           float64        `json:"window_ratio"`              // window share of tcp_rmem
	WindowRatioWhy        string         `json:"window_ratio_why"`
	SetsockoptRatio       float64        `json:"setsockopt_window_ratio"` // window share of an SO_RCVBUF buffer
	WorstRTT              time.Duration  `json:"worst_rtt_ns"`            // the RTT the buffer maxima cover
	CoverBytesPerStream   int64          `json:"cover_bytes_per_stream"`  // window the receive maxima hold
	Defaults              KernelDefaults `json:"kernel_defaults"`         // the target kernel's boot defaults

	RcvBufBytes           int64   `json:"rcvbuf_bytes"`              // planned tcp_rmem[2]
	SndBufBytes           int64   `json:"sndbuf_bytes"`              // planned tcp_wmem[2]
	CoreRmemMaxBytes      int64   `json:"core_rmem_max_bytes"`       // planned net.core.rmem_max
	CoreWmemMaxBytes      int64   `json:"core_wmem_max_bytes"`       // planned net.core.wmem_max
	StreamReachBitsPerSec float64 `json:"stream_reach_bits_per_sec"` // one stream with the planned limits

	Budget Budget `json:"budget"`
	// Numbers are the figures the settings are chosen from (step 1 of Compute), each with
	// how it was derived; every setting's reason cites them.
	Numbers  []Number       `json:"numbers,omitempty"`
	Settings []model.Change `json:"settings"`
	Notes    []string       `json:"notes"`
	// Warnings: every value planned below the host's current value or the kernel default,
	// with the budget numbers that force it.
	Warnings []string `json:"warnings,omitempty"`
	Guides   []Guide  `json:"guides"`
	// Target is the host shape the plan is for, with where each fact came from (set by the
	// caller that knows: `headroom plan`); tune refuses a plan for another shape.
	Target *TargetHost `json:"target_host,omitempty"`
}

// Budget is the check of the worst case against memory.
type Budget struct {
	Basis            string `json:"basis"`             // "lowmem" or "MemTotal"
	BasisBytes       int64  `json:"basis_bytes"`       //
	BasisWhy         string `json:"basis_why"`         // where the basis comes from
	ShareDenominator int64  `json:"share_denominator"` // budget = basis ÷ this
	BudgetBytes      int64  `json:"budget_bytes"`
	PerStreamBytes   int64  `json:"per_stream_bytes"` // worst case one stream may hold, as planned
	WantedBytes      int64  `json:"wanted_bytes"`     // streams × what fills the link
	WorstCaseBytes   int64  `json:"worst_case_bytes"` // streams × per-stream, as planned
	// FlowsBytes is what the streams hold when each fills its share of the link, at most its
	// planned maxima: what tcp_mem's pressure threshold is sized from.
	FlowsBytes      int64   `json:"flows_bytes"`
	Fits            bool    `json:"fits"` // WantedBytes ≤ BudgetBytes
	ReachBitsPerSec float64 `json:"reach_bits_per_sec"`
	Why             string  `json:"why"`
}

// Guide is what a published tuning guide would set, checked against the same budget.
type Guide struct {
	Name           string         `json:"name"`
	Source         string         `json:"source"`
	Settings       []model.Change `json:"settings"`
	WorstCaseBytes int64          `json:"worst_case_bytes"`
	FitsBudget     bool           `json:"fits_budget"`
	Why            string         `json:"why"`
}

// Budget shares: socket buffers may take 1/4 of lowmem on a HighMem kernel and 1/8 of RAM
// otherwise.
//
// Lowmem also holds every slab object (dentries, inodes and buffer heads for the page cache
// that lives in HighMem: seed 004's dump shows slab:130154 pages, 508 MiB), page tables,
// kernel stacks and the min_free reserve; seed 004 found under 600 MB of its 880 MB lowmem
// usable. A quarter of lowmem (224 MiB of 896 MiB) is about 40% of that.
//
// Without HighMem the kernel's own tcp_mem default stops TCP at 9.4% of free buffer pages
// (tcp_init_mem); 1/8 (12.5%) leaves a dedicated transfer host a little more while keeping
// 7/8 for page cache, applications and the free reserve.
const (
	maxWindowBytes         = 65535 << 14
	lowmemShareDenominator = 4
	memoryShareDenominator = 8
)

func withDefaults(in Input) Input {
	if in.MTUBytes == 0 {
		in.MTUBytes = 1500
	}
	if in.PageSizeBytes == 0 {
		in.PageSizeBytes = 4096
	}
	if in.Role == "" {
		in.Role = RoleBoth
	}
	if in.Streams == 0 {
		in.Streams, in.StreamsAssumed = 1, true
	}
	return in
}

// budgetBasis is the memory buffers come from: lowmem when the kernel has a HighMem split,
// else MemTotal. Input.LowmemBytes must already be resolved (see resolveLowmem).
func budgetBasis(in Input) (bytes int64, name string) {
	if in.LowmemBytes > 0 && in.LowmemBytes < in.MemoryBytes {
		return in.LowmemBytes, "lowmem"
	}
	return in.MemoryBytes, "MemTotal"
}

// validate checks an Input after defaults.
func validate(in Input) error {
	var errs []error
	if math.IsNaN(in.BandwidthBitsPerSec) || math.IsInf(in.BandwidthBitsPerSec, 0) || in.BandwidthBitsPerSec <= 0 {
		errs = append(errs, fmt.Errorf("bandwidth must be a positive rate, got %v bit/s", in.BandwidthBitsPerSec))
	}
	if in.RTT <= 0 {
		errs = append(errs, fmt.Errorf("rtt must be greater than zero, got %v", in.RTT))
	}
	if in.RTTMax != 0 && in.RTTMax < in.RTT {
		errs = append(errs, fmt.Errorf("rtt range %v-%v: the upper end must not be below the lower", in.RTT, in.RTTMax))
	}
	if in.Streams < 1 {
		errs = append(errs, fmt.Errorf("streams must be at least 1, got %d", in.Streams))
	}
	switch in.Role {
	case RoleReceiver, RoleSender, RoleBoth:
	default:
		errs = append(errs, fmt.Errorf("role %q: want receiver, sender or both", in.Role))
	}
	if in.MTUBytes < 68 || in.MTUBytes > 65536 {
		errs = append(errs, fmt.Errorf("mtu %d bytes: want 68..65536", in.MTUBytes))
	}
	if in.PageSizeBytes < 4096 || in.PageSizeBytes&(in.PageSizeBytes-1) != 0 {
		errs = append(errs, fmt.Errorf("page size %d bytes: want a power of two, at least 4096", in.PageSizeBytes))
	}
	if in.MemoryBytes <= 0 {
		errs = append(errs, fmt.Errorf("memory size unknown or not positive (%d bytes)", in.MemoryBytes))
	}
	if in.LowmemBytes < 0 || (in.MemoryBytes > 0 && in.LowmemBytes > in.MemoryBytes) {
		errs = append(errs, fmt.Errorf("lowmem %d bytes must be between 0 and the memory size %d", in.LowmemBytes, in.MemoryBytes))
	}
	if math.IsNaN(in.RateLimitBitsPerSec) || math.IsInf(in.RateLimitBitsPerSec, 0) || in.RateLimitBitsPerSec < 0 {
		errs = append(errs, fmt.Errorf("rate limit must be zero (none) or a positive rate, got %v", in.RateLimitBitsPerSec))
	}
	if in.WindowRatio < 0 || in.WindowRatio > 1 || math.IsNaN(in.WindowRatio) {
		errs = append(errs, fmt.Errorf("window ratio %v: want 0 (derive) or 0 < ratio ≤ 1", in.WindowRatio))
	}
	if in.CPUs < 0 {
		errs = append(errs, fmt.Errorf("cpus %d must not be negative", in.CPUs))
	}
	if in.KswapdReaction < 0 {
		errs = append(errs, fmt.Errorf("kswapd reaction %v must not be negative", in.KswapdReaction))
	}
	for _, n := range in.NICs {
		if n.SpeedMbps < 0 || n.RxRing < 0 || n.RxRingMax < 0 {
			errs = append(errs, fmt.Errorf("nic %q: negative speed or ring", n.Name))
		}
	}
	return errors.Join(errs...)
}

// resolveLowmem fills Input.LowmemBytes for a 32-bit kernel whose memory exceeds what it can
// map permanently, and says what it did.
func resolveLowmem(in *Input, wordBits int) (note string, err error) {
	if wordBits == 64 {
		if in.LowmemBytes > 0 && in.LowmemBytes < in.MemoryBytes {
			note = fmt.Sprintf("lowmem %s ignored: a 64-bit kernel has no HighMem split", units.FormatBytes(in.LowmemBytes))
		}
		in.LowmemBytes = 0
		return note, nil
	}
	if in.LowmemBytes > 0 {
		return "", nil
	}
	limit, why, err := LowmemLimitBytes(in.Arch)
	if err != nil {
		return "", err
	}
	if in.MemoryBytes <= limit {
		return "", nil // all memory is lowmem
	}
	in.LowmemBytes = limit
	return fmt.Sprintf("lowmem not given: %s RAM on a 32-bit %s kernel exceeds what it maps permanently, so it is split into lowmem %s (%s) and HighMem %s; socket buffers, slab and page tables come from lowmem only",
		units.FormatBytes(in.MemoryBytes), in.Arch, units.FormatBytes(limit), why, units.FormatBytes(in.MemoryBytes-limit)), nil
}

func (in Input) receives() bool { return in.Role == RoleReceiver || in.Role == RoleBoth }
func (in Input) sends() bool    { return in.Role == RoleSender || in.Role == RoleBoth }

// directions is how many buffers a stream has: 2 for both roles, else 1.
func (in Input) directions() int64 {
	if in.Role == RoleBoth {
		return 2
	}
	return 1
}

// Compute builds the plan for in. It returns an error naming every invalid field.
//
// It works in two steps: computeNumbers derives every figure from the Input (rates, BDP,
// cover, the budget, the limits that fit it, tcp_mem pages, the RX burst, packet rates, …)
// and records them in Plan.Numbers; addSettings then compares them with the current values
// and writes each setting with a reason that cites those numbers.
func Compute(in Input) (Plan, error) {
	p, n, err := computeNumbers(in)
	if err != nil {
		return Plan{}, err
	}
	p.addSettings(n)
	p.dropAbsentSettings(n.kver)
	if err := p.Check(); err != nil {
		return Plan{}, fmt.Errorf("plan: an invariant is broken (a bug in plan; please report it with the flags): %w", err)
	}
	return p, nil
}

// addSettings is step 2 of Compute: the settings, in the order a reader applies them, each
// chosen from the numbers and the current values, with its reason.
func (p *Plan) addSettings(n *numbers) {
	in, cur, page := n.in, n.cur, n.page
	v, want, floor, floorSrc := n.limits, n.want, n.floor, n.floorSrc
	add := func(kind, key, recommended, why string) {
		p.Settings = append(p.Settings, model.Change{Kind: kind, Key: key, Current: cur.raw(key), Recommended: recommended, Why: why, Rule: "plan"})
	}
	bdpText := fmt.Sprintf("cover %s (max(2 × BDP at %v, BDP at the worst RTT %v) for %s)", units.FormatBytes(n.rcvCover), in.RTT, p.WorstRTT, units.FormatBitsPerSec(p.StreamBitsPerSec))
	sendBDPText := fmt.Sprintf("cover %s (max(2 × BDP at %v, BDP at the worst RTT %v) for %s)", units.FormatBytes(n.sndCover), in.RTT, p.WorstRTT, units.FormatBitsPerSec(n.sendStreamBitsPerSec))
	// limitWhy explains a limit that is not simply what the link needs: held up by its floor
	// (the current value or the kernel default), or lowered from it for the budget.
	limitWhy := func(need string, got, want, fl int64, src string) string {
		switch {
		case got == fl && got > want && p.Budget.WorstCaseBytes > p.Budget.BudgetBytes:
			return fmt.Sprintf("keep %s: %s, ≥ the %s needed; a maximum is a cap autotuning reaches only for a flow that needs it, so plan never lowers it for the flow count (tcp_mem bounds the streams' sum); %s", units.FormatBytes(got), src, units.FormatBytes(want), need)
		case got == fl && got > want:
			return fmt.Sprintf("keep %s: %s, ≥ the %s needed, and the worst case still fits the budget; %s", units.FormatBytes(got), src, units.FormatBytes(want), need)
		case got > want:
			return fmt.Sprintf("%s: lowered from %s %s only as far as the budget forces (see the warnings), still ≥ the %s needed; %s",
				units.FormatBytes(got), src, units.FormatBytes(fl), units.FormatBytes(want), need)
		case got < fl:
			return fmt.Sprintf("%s%s; below %s %s only because the budget forces it (see the warnings)", need, n.lowered, src, units.FormatBytes(fl))
		}
		return need + n.lowered
	}

	if in.receives() {
		tr := cur.bufferTriplet("net.ipv4.tcp_rmem", page, p.Defaults.TCPRmem[1], v.r)
		why := limitWhy(fmt.Sprintf("max: %s ÷ window ratio %.3g = %s lets one stream fill its share", bdpText, p.WindowRatio, units.FormatBytes(want.r)), v.r, want.r, floor.r, floorSrc[0])
		add(model.ChangeSysctl, "net.ipv4.tcp_rmem", fmt.Sprintf("%d %d %d", tr[0], tr[1], tr[2]), why)
	}
	if in.sends() {
		tw := cur.bufferTriplet("net.ipv4.tcp_wmem", page, p.Defaults.TCPWmem[1], v.w)
		why := limitWhy(fmt.Sprintf("max: %s ÷ %.3g (send queue charged at truesize) = %s", sendBDPText, p.WindowRatio, units.FormatBytes(want.w)), v.w, want.w, floor.w, floorSrc[1])
		add(model.ChangeSysctl, "net.ipv4.tcp_wmem", fmt.Sprintf("%d %d %d", tw[0], tw[1], tw[2]), why)
	}
	if in.receives() {
		why := limitWhy(fmt.Sprintf("SO_RCVBUF is doubled, window ratio %.3g for such sockets on this kernel: %s ÷ (2 × %.3g) = %s; never below %d", p.SetsockoptRatio, bdpText, p.SetsockoptRatio, units.FormatBytes(want.cr), CoreMemMaxFloor), v.cr, max(want.cr, CoreMemMaxFloor), floor.cr, floorSrc[2])
		add(model.ChangeSysctl, "net.core.rmem_max", strconv.FormatInt(v.cr, 10), why)
	}
	if in.sends() {
		why := limitWhy(fmt.Sprintf("SO_SNDBUF is doubled: half of the %s send limit = %s; never below %d", units.FormatBytes(want.w), units.FormatBytes(want.cw), CoreMemMaxFloor), v.cw, max(want.cw, CoreMemMaxFloor), floor.cw, floorSrc[3])
		add(model.ChangeSysctl, "net.core.wmem_max", strconv.FormatInt(v.cw, 10), why)
	}
	p.addTCPMem(n, add)
	p.addMinFree(n, add)
	p.addNetdev(n, add)
	p.addSenderSettings(n, add)
	p.addRateLimit(in, add)
	p.Guides = guides(in, *p, cur)
	if in.Role != RoleReceiver && in.Role != RoleBoth {
		p.Notes = append(p.Notes, "role sender: tcp_rmem and net.core.rmem_max are left alone")
	}
	if in.Role == RoleReceiver {
		p.Notes = append(p.Notes, "role receiver: tcp_wmem and net.core.wmem_max are left alone (a receiver sends only ACKs)")
	}
}

func streams2reach(streams, bufBytes int64, rtt time.Duration, ratio float64) float64 {
	return float64(streams) * ThroughputBitsPerSec(bufBytes, rtt, ratio)
}

// streamsNote answers "how many more streams keep the throughput" honestly: at the lowered
// per-stream limit each stream carries less, so more streams are needed for the bandwidth,
// but their worst case is the same total, because what must be buffered is the bytes in
// flight (bandwidth × RTT ÷ ratio), however they are split.
func streamsNote(in Input, p Plan, r, w int64) string {
	var perStream float64
	switch in.Role {
	case RoleReceiver:
		perStream = ThroughputBitsPerSec(r, p.WorstRTT, p.WindowRatio)
	case RoleSender:
		perStream = ThroughputBitsPerSec(w, p.WorstRTT, p.WindowRatio)
	default:
		perStream = math.Min(ThroughputBitsPerSec(r, p.WorstRTT, p.WindowRatio), ThroughputBitsPerSec(w, p.WorstRTT, p.WindowRatio))
	}
	need := int64(math.Ceil(in.BandwidthBitsPerSec / perStream))
	return fmt.Sprintf("at the lowered limits one stream carries %s at the worst RTT, so %s takes %d streams instead of %d (%d more); but those %d streams' worst case is %s, again over the budget %s: buffered bytes follow bandwidth × RTT ÷ ratio however the streams split them. To fill the link: more lowmem/RAM (a 64-bit kernel), a shorter RTT, or accept %s",
		units.FormatBitsPerSec(perStream), units.FormatBitsPerSec(in.BandwidthBitsPerSec), need, in.Streams, need-int64(in.Streams),
		need, units.FormatBytes(need*p.Budget.PerStreamBytes), units.FormatBytes(p.Budget.BudgetBytes), units.FormatBitsPerSec(p.Budget.ReachBitsPerSec))
}

type addFunc func(kind, key, recommended, why string)

// TCPMemBandRatio is the least tcp_mem max ÷ pressure plan writes: TCP moderates buffers
// between the two (tcp_enter_memory_pressure, net/ipv4/tcp.c; sk_under_memory_pressure), and
// a max equal to pressure leaves no moderation zone, so the first flow over pressure meets
// the hard limit and allocations fail. The kernel's own proportions (tcp_init_mem, net/ipv4/
// tcp.c: min = ¾ limit, pressure = limit, max = 1½ limit, so pressure ÷ min = 4/3 and max ÷
// min = 2) give 1.5; 1.25 is the least plan keeps when the budget is tight.
const (
	tcpMemBandNum = 5
	tcpMemBandDen = 4
)

// addTCPMem plans net.ipv4.tcp_mem (pages, ip-sysctl.rst): max is the global ceiling for all
// TCP buffers, pressure is where TCP starts to moderate (shrinking windows, collapsing
// queues), min is what TCP may hold before it regulates at all. The flow count sizes it:
// pressure at or above what the planned streams hold when each fills its share of the link
// (Budget.FlowsBytes), so they never meet pressure; max at least TCPMemBandRatio × pressure
// and within the budget; min at least one page per stream and direction (what idle sockets
// are guaranteed). Otherwise the proportions follow the kernel's own (min = ½ max,
// pressure = ⅔ max), from the current max or the kernel's default.
func (p *Plan) addTCPMem(n *numbers, add addFunc) {
	kver, cur, page := n.kver, n.cur, n.page
	needPages, budgetPages, idlePages := n.tcpFlowPages, n.tcpBudgetPages, n.tcpIdlePages
	share := fmt.Sprintf("1/%d of %s", p.Budget.ShareDenominator, p.Budget.Basis)
	c, haveCur := cur.triplet("net.ipv4.tcp_mem")
	var ref int64
	var refText string
	defKnown := kver.AtLeast(4, 0, 0) || !kver.Known
	switch {
	case haveCur && (!defKnown || IsKernelDefaultTCPMemMax(c[2], n.tcpDefaultMaxPages)):
		// A current max that is the kernel's own default is kept as it is.
		ref, refText = c[2], fmt.Sprintf("the current max %d", c[2])
	case defKnown:
		// Never below the kernel's own default: a current max under it is raised to it.
		ref = n.tcpDefaultMaxPages
		refText = fmt.Sprintf("the kernel default max ≈ %d (tcp_init_mem: 3/32 of free pages)", ref)
		if haveCur {
			refText += fmt.Sprintf(", raised from the current max %d", c[2])
		}
	default:
		ref, refText = budgetPages, ""
	}
	maxPages := ref
	if up := ceilDiv(needPages*tcpMemBandNum, tcpMemBandDen); up > ref {
		// The planned streams need more than the reference allows: raise max so that
		// pressure sits at their need with a moderation band above it.
		maxPages = up
		refText = fmt.Sprintf("%d/%d × the streams' need %d pages (above %s)", tcpMemBandNum, tcpMemBandDen, needPages, strings.TrimPrefix(refText, "the "))
		if ref == budgetPages && !haveCur {
			refText = fmt.Sprintf("%d/%d × the streams' need %d pages", tcpMemBandNum, tcpMemBandDen, needPages)
		}
	}
	if maxPages > budgetPages && ref <= budgetPages {
		refText = fmt.Sprintf("the budget (%s would be %d pages)", refText, maxPages)
	}
	maxPages = min(maxPages, budgetPages)
	// The free-memory reserve comes first on a host whose memory is mostly unreclaimable:
	// TCP's cap is memory plan can take back for it (fitReserve), down to 5/4 × what the
	// streams hold filling the link, so they still never meet pressure.
	var reserveWarn string
	if f := n.fit; f.known && f.tcpCapPages < maxPages {
		reserveWarn = fmt.Sprintf("net.ipv4.tcp_mem max lowered from %d to %d pages (%s): the free-memory reserve the receive path needs (%d kB) must fit beside the %d kB reclaim cannot free on %s %d kB; TCP could otherwise hold %s more that reclaim cannot free either (docs/plan.md, \"The reserve on a small host\")",
			maxPages, f.tcpCapPages, units.FormatBytes(f.tcpCapPages*page), f.wantKB, f.unreclaimKB, n.basisLbl, n.basisKB, units.FormatBytes((maxPages-f.tcpCapPages)*page))
		refText = fmt.Sprintf("lowered from %d pages for the free-memory reserve: what reclaim cannot free (%d kB) + TCP's cap + the reserve must fit in %s", maxPages, f.unreclaimKB, n.basisLbl)
		maxPages = f.tcpCapPages
	}
	bandTop := maxPages * tcpMemBandDen / tcpMemBandNum
	pressure := min(max(needPages, maxPages*2/3), bandTop)
	low := min(max(maxPages/2, idlePages), pressure)
	why := fmt.Sprintf("max %d pages (%s) = %s, within the budget %d pages; pressure ≥ the streams' need %d pages (%s: each filling its share of the link), so they never meet memory pressure; max ≥ %d/%d × pressure; min ≥ %d pages (a page per stream and direction) (%d B pages)",
		maxPages, units.FormatBytes(maxPages*page), refText, budgetPages, needPages, units.FormatBytes(needPages*page), tcpMemBandNum, tcpMemBandDen, idlePages, page)
	if refText == "" {
		why = fmt.Sprintf("max = the budget %d pages (%s = %s; %s's boot default is not modelled); pressure ≥ the streams' need %d pages (%s); max ≥ %d/%d × pressure (%d B pages)",
			maxPages, units.FormatBytes(maxPages*page), share, kver, needPages, units.FormatBytes(needPages*page), tcpMemBandNum, tcpMemBandDen, page)
	}
	if ref > budgetPages {
		why = fmt.Sprintf("max lowered from %s to the budget %d pages (%s = %s); pressure ≥ the streams' need %d pages, max ≥ %d/%d × pressure (%d B pages)",
			refText, budgetPages, units.FormatBytes(budgetPages*page), share, needPages, tcpMemBandNum, tcpMemBandDen, page)
		p.Warnings = append(p.Warnings, fmt.Sprintf("net.ipv4.tcp_mem max lowered from %s (%s) to %d pages (%s): the budget is %s of %s",
			refText, units.FormatBytes(ref*page), budgetPages, units.FormatBytes(budgetPages*page), share, units.FormatBytes(p.Budget.BasisBytes)))
	}
	if needPages > pressure {
		why = strings.Replace(why, "so they never meet memory pressure", fmt.Sprintf("except that the budget leaves pressure at most %d/%d of max %d, so at full rate they meet memory pressure", tcpMemBandDen, tcpMemBandNum, maxPages), 1)
		why = strings.Replace(why, fmt.Sprintf("pressure ≥ the streams' need %d pages", needPages), fmt.Sprintf("pressure as near the streams' need %d pages as the band allows", needPages), 1)
		p.Notes = append(p.Notes, fmt.Sprintf("tcp_mem: the streams filling the link would hold %s, more than %d/%d of the budget %s: TCP moderates their buffers under memory pressure before they fill it (the budget, not tcp_mem, is what limits them)",
			units.FormatBytes(needPages*page), tcpMemBandDen, tcpMemBandNum, units.FormatBytes(budgetPages*page)))
	}
	if haveCur && c[2] == maxPages && c[1] >= needPages && c[0] <= c[1] && c[1] <= c[2] &&
		c[2]*tcpMemBandDen >= c[1]*tcpMemBandNum && c[0] >= min(idlePages, c[1]) {
		low, pressure = c[0], c[1]
		why = fmt.Sprintf("keep: max %d pages (%s) is within the budget %d pages (%s), pressure %d ≥ the streams' need %d pages (%s), max ≥ %d/%d × pressure (%d B pages)",
			c[2], units.FormatBytes(c[2]*page), budgetPages, share, c[1], needPages, units.FormatBytes(needPages*page), tcpMemBandNum, tcpMemBandDen, page)
	}
	if reserveWarn != "" {
		p.Warnings = append(p.Warnings, reserveWarn)
	}
	add(model.ChangeSysctl, "net.ipv4.tcp_mem", fmt.Sprintf("%d %d %d", low, pressure, maxPages), why)
	if p.Budget.Basis == "lowmem" {
		p.Notes = append(p.Notes, fmt.Sprintf("on this kernel every page tcp_mem counts is lowmem (skb data comes from kmalloc); Fermilab found 2.6.13's default ≈1.6 GB on an 8 GB 32-bit host with under 600 MB lowmem usable and cut it by 4; this plan caps it at %s (1/%d of lowmem)",
			units.FormatBytes(budgetPages*page), p.Budget.ShareDenominator))
	}
}

// addMinFree plans vm.min_free_kbytes and, where the kernel has it, vm.watermark_scale_factor,
// together within the reserve budget: the high watermark they give, min + 2 × gap
// (ReserveKB), stays within 1/ReserveShareDenominator of the basis. A current value above
// what is needed is kept while the reserve fits; past it the gap is narrowed first, then
// min_free_kbytes lowered, never below the kernel's default, each with a warning.
func (p *Plan) addMinFree(n *numbers, add addFunc) {
	in, cur := n.in, n.cur
	kb, why := n.minFreeKB, n.minFreeWhy
	basisName, basisKB, budgetKB := n.basisLbl, n.basisKB, n.reserveBudgetKB
	f, fwhy, hasWSF := n.wsf, n.wsfWhy, n.wsfOK
	curKB, haveCurKB := cur.int("vm.min_free_kbytes")
	if haveCurKB && curKB > kb {
		why = fmt.Sprintf("keep %d kB: above the %d kB needed (%s)", curKB, kb, why)
		kb = curKB
	}
	curF, haveCurF := cur.int("vm.watermark_scale_factor")
	if hasWSF {
		if haveCurF && curF >= f {
			fwhy = fmt.Sprintf("keep %d: ≥ the %d needed (%s)", curF, f, fwhy)
			f = curF
		} else if f <= 10 {
			fwhy += "; the default 10 already covers it"
			f = 10
		}
	}
	factor := func() int64 {
		if hasWSF {
			return f
		}
		return 0
	}
	budgetText := fmt.Sprintf("the reserve budget %d kB, %s (min_free_kbytes + 2 × the watermark gap: the high watermark kswapd keeps free)", budgetKB, n.reserve.why)
	if hasWSF && ReserveKB(kb, f, basisKB) > budgetKB {
		// Narrow the gap first: it only moves kswapd's start, min_free_kbytes is the
		// reserve atomic allocations live on.
		fit := max((budgetKB-kb)/2*10000/max(basisKB, 1), 10)
		if fit < f {
			if haveCurF && fit < curF {
				p.Warnings = append(p.Warnings, fmt.Sprintf("vm.watermark_scale_factor lowered from the current %d to %d: min_free_kbytes %d kB + 2 × the gap must stay within %s", curF, fit, kb, budgetText))
			}
			fwhy += fmt.Sprintf("; %d would put the reserve at %d kB, over %s: %d", f, ReserveKB(kb, f, basisKB), budgetText, fit)
			f = fit
		}
	}
	if ReserveKB(kb, factor(), basisKB) > budgetKB {
		gap := basisKB * factor() / 10000
		fit := max(min(budgetKB*2/3, budgetKB-2*gap), n.minFreeDefaultKB)
		if fit < kb {
			if haveCurKB && fit < curKB {
				p.Warnings = append(p.Warnings, fmt.Sprintf("vm.min_free_kbytes lowered from the current %d kB to %d kB: the reserve must stay within %s; every kB above it is taken from the page cache and applications",
					curKB, fit, budgetText))
			}
			why += fmt.Sprintf("; lowered to %d kB to keep the reserve within %s", fit, budgetText)
			kb = fit
		}
	}
	reserve := ReserveKB(kb, factor(), basisKB)
	if fit := n.fit; fit.known && reserve > budgetKB {
		// Not even the kernel's own reserve fits beside what this host cannot reclaim: no
		// setting of plan's does, and a larger reserve would only hand the OOM killer the
		// service. Plan keeps the kernel's default and says what the host needs.
		short := reclaimNeededKB(max(fit.minReserveKB, reserve), fit.dirty) - fit.reclaimKB
		p.Warnings = append(p.Warnings, fmt.Sprintf("vm.min_free_kbytes: no reserve fits this host: %d kB of %s %d kB cannot be reclaimed (%s) and TCP's cap takes %d kB, which leaves %d kB for the page cache and the reserve; the kernel's own reserve (%d kB) already takes more than the clean cache can give back. Add %s of memory, or cap the service's memory (a cgroup's memory.max) by as much; a larger reserve would only make the OOM killer end the service",
			fit.unreclaimKB, basisName, basisKB, fit.unreclaimWhy, fit.tcpCapPages*n.page/1024, fit.reclaimKB, reserve, units.FormatBytes(short*1024)))
	} else if reserve > budgetKB {
		p.Notes = append(p.Notes, fmt.Sprintf("reserve %d kB is above %s because the kernel's own default min_free_kbytes (%d kB) already takes that much: plan never goes below it",
			reserve, budgetText, n.minFreeDefaultKB))
	}
	add(model.ChangeSysctl, "vm.min_free_kbytes", strconv.FormatInt(kb, 10), why)
	n.plannedMinFreeKB = kb
	b := n.burst
	// What the reserve covers: atomic allocations may use low − 3/8 min after kswapd wakes
	// (MinFreeKBytes), i.e. 5/8 min + gap. Say what the link asked for when it is less.
	gapKB := max(kb/4, basisKB*factor()/10000)
	coverKB := kb*5/8 + gapKB
	burstKB := ceilDiv(b.burstBytes+b.ringBytes, 1024)
	if fit := n.fit; fit.known && coverKB < burstKB && reserve <= budgetKB {
		short := reclaimNeededKB(fit.minReserveKB, fit.dirty) - fit.reclaimKB
		p.Warnings = append(p.Warnings, fmt.Sprintf("vm.min_free_kbytes: the reserve that fits this host does not cover the receive burst: atomic allocations need %d kB after kswapd wakes (%s × %v + rings), the reserve that fits beside the %d kB reclaim cannot free (%s) gives %d kB (5/8 × min_free_kbytes %d kB + the gap %d kB). Add %s of memory, or cap the service's memory (a cgroup's memory.max) by as much, or receive at a lower rate; a larger reserve here would make the OOM killer end the service",
			burstKB, units.FormatBitsPerSec(b.lineBitsPerSec), b.reaction, fit.unreclaimKB, fit.unreclaimWhy, coverKB, kb, gapKB, units.FormatBytes(max(short, 0)*1024)))
	}
	if coverKB < burstKB {
		ms := float64(b.reaction.Milliseconds()) * float64(coverKB) / float64(max(burstKB, 1))
		p.Notes = append(p.Notes, fmt.Sprintf("reserve budget: the link asks for %s of free memory ahead of its receive burst (%s × %v kswapd reaction + rings), but min_free_kbytes %d kB and the watermark gap %d kB cover %d kB: the reserve (%d kB) is held to %s, so kswapd's head start covers %.0f ms at line rate instead of %v; more memory or a lower line rate closes it",
			units.FormatBytes(burstKB*1024), units.FormatBitsPerSec(b.lineBitsPerSec), b.reaction, kb, gapKB, coverKB, reserve, budgetText, ms, b.reaction))
	}
	if b.order > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("MTU %d needs %d-byte receive buffers, order-%d allocations: free memory must exist as contiguous %d KiB blocks, which min_free_kbytes alone does not guarantee on a fragmented host (the SheevaPlug NAS report's order:2 failures)",
			in.MTUBytes, b.bufferBytes, b.order, b.bufferBytes/1024))
	}
	p.Notes = append(p.Notes, fmt.Sprintf("vm.min_free_kbytes compared: kernel default %d kB for this %s; the SheevaPlug NAS report's expert used 20000 kB (1 Gbit/s, 512 MB NAS); Fermilab's used 65536 kB (8 GB 32-bit servers); plan: %d kB",
		n.minFreeDefaultKB, basisName, kb))
	if hasWSF {
		add(model.ChangeSysctl, "vm.watermark_scale_factor", strconv.FormatInt(f, 10), fwhy)
	}
}

// addNetdev plans the input backlog, the softirq packet budget and RX rings from the packet
// rate, each budgeted per CPU and against memory: every CPU has its own backlog
// (softnet_data.input_pkt_queue, net/core/dev.c enqueue_to_backlog) and its own
// net_rx_action() round, and both hold receive buffers.
func (p *Plan) addNetdev(n *numbers, add addFunc) {
	in, cur, pps, backlog := n.in, n.cur, n.pps, n.backlog
	buf := n.burst.bufferBytes
	cpus := n.cpus
	cpusText := plural(int(cpus), "CPU")
	if in.CPUs == 0 {
		cpusText = "1 CPU (CPUs unknown: give --cpus)"
	}
	bwhy := fmt.Sprintf("%s at MTU %d = %.0f packets/s × %v drain interval = %d packets per CPU (one flow, or one RX queue, lands on one CPU)", units.FormatBitsPerSec(n.lineBitsPerSec), in.MTUBytes, pps, BacklogDrainInterval, backlog)
	base := int64(1000)
	if c, ok := cur.int("net.core.netdev_max_backlog"); ok {
		base = c
	}
	if backlog > n.backlogCap {
		bwhy += fmt.Sprintf("; capped at %d packets: a full backlog on each of %s holds %d × %d B buffers, and all of them together stay within 1/%d of %s (%s), so it covers %.0f ms at line rate",
			max(n.backlogCap, base), cpusText, max(n.backlogCap, base), buf, ReserveShareDenominator, n.basisLbl, units.FormatBytes(n.basisKB*1024/ReserveShareDenominator), float64(max(n.backlogCap, base))/pps*1000)
		backlog = n.backlogCap
	}
	if backlog <= base {
		bwhy = fmt.Sprintf("keep %d: ≥ %s", base, bwhy)
		backlog = base
	}
	add(model.ChangeSysctl, "net.core.netdev_max_backlog", strconv.FormatInt(backlog, 10), bwhy)

	usecs, usecsSrc, budget := n.budgetUsecs, n.budgetUsecsSrc, n.netdevBudget
	gwhy := fmt.Sprintf("%.0f packets/s × a %d µs softirq round (netdev_budget_usecs, %s) = %d packets per round, per CPU", pps, usecs, usecsSrc, budget)
	gbase := int64(300)
	if c, ok := cur.int("net.core.netdev_budget"); ok {
		gbase = c
	}
	// Each packet of a round is replaced by an atomic RX refill; one round on every CPU at
	// once must be served from the atomic part of min_free_kbytes (7/8 of it, MinFreeKBytes).
	if limit := kernel.AtomicUsable(n.plannedMinFreeKB*1024) / max(cpus*buf, 1); budget > limit {
		gwhy += fmt.Sprintf("; capped at %d: a round's refills on each of %s (%d × %d B) must fit the atomic reserve, 7/8 of min_free_kbytes %d kB",
			max(limit, gbase), cpusText, max(limit, gbase), buf, n.plannedMinFreeKB)
		budget = limit
	}
	if budget <= gbase {
		gwhy = fmt.Sprintf("keep %d: ≥ %s", gbase, gwhy)
		budget = gbase
	}
	add(model.ChangeSysctl, "net.core.netdev_budget", strconv.FormatInt(budget, 10), gwhy)

	for i, nic := range in.NICs {
		if nic.Name == "" || nic.RxRing <= 0 {
			continue
		}
		nicBits := float64(nic.SpeedMbps) * 1e6
		if nicBits <= 0 {
			nicBits = in.BandwidthBitsPerSec
		}
		npps := n.nicPPS[i]
		key := nic.Name + " rx"
		if nic.DropsSeen && nic.RxRingMax > nic.RxRing {
			p.Settings = append(p.Settings, model.Change{Kind: model.ChangeEthtool, Key: key, Current: strconv.FormatInt(nic.RxRing, 10),
				Recommended: strconv.FormatInt(nic.RxRingMax, 10), Rule: "plan",
				Why: fmt.Sprintf("drops seen: ring %d lasts %.1f ms at %s, the preset maximum %d lasts %.1f ms (ethtool -G %s rx %d)",
					nic.RxRing, RingMillis(nic.RxRing, npps), units.FormatBitsPerSec(nicBits), nic.RxRingMax, RingMillis(nic.RxRingMax, npps), nic.Name, nic.RxRingMax)})
			continue
		}
		note := fmt.Sprintf("%s: RX ring %d lasts %.1f ms at %s", nic.Name, nic.RxRing, RingMillis(nic.RxRing, npps), units.FormatBitsPerSec(nicBits))
		if nic.RxRingMax > nic.RxRing {
			note += fmt.Sprintf("; no drops seen, so it stays (the preset maximum %d would last %.1f ms)", nic.RxRingMax, RingMillis(nic.RxRingMax, npps))
		}
		p.Notes = append(p.Notes, note)
	}
}

// addSenderSettings plans tcp_notsent_lowat, congestion control and pacing.
func (p *Plan) addSenderSettings(n *numbers, add addFunc) {
	in, kver, cur, sendStreamBitsPerSec := n.in, n.kver, n.cur, n.sendStreamBitsPerSec
	if in.sends() {
		if ok, _ := kernel.SysctlExists("net.ipv4.tcp_notsent_lowat", kver, kver.Known); ok {
			lowat := n.notsentLowat
			why := fmt.Sprintf("%s × %v writer refill time = %s of unsent data per socket instead of up to tcp_wmem max (a stalled peer then pins in-flight + %s, not the whole send buffer)",
				units.FormatBitsPerSec(sendStreamBitsPerSec), NotsentRefill, units.FormatBytes(lowat), units.FormatBytes(lowat))
			// Unsent data lives in the send buffer: a mark above tcp_wmem's max could never
			// be reached, and would only mislead a reader (invariant: lowat ≤ send maximum).
			if lowat > p.SndBufBytes {
				why += fmt.Sprintf("; capped at the tcp_wmem max %d", p.SndBufBytes)
				lowat = p.SndBufBytes
			}
			add(model.ChangeSysctl, "net.ipv4.tcp_notsent_lowat", strconv.FormatInt(lowat, 10), why)
		} else {
			p.Notes = append(p.Notes, "tcp_notsent_lowat exists from 3.12: on this kernel a stalled peer can pin a full tcp_wmem max per socket (Fermilab's FIN_WAIT1 sockets with full send queues)")
		}
	}

	avail := cur.raw("net.ipv4.tcp_available_congestion_control")
	hasBBR := avail == "" || containsWord(avail, "bbr")
	hasCubic := avail == "" || containsWord(avail, "cubic")
	many := n.manyFlows && in.sends()
	manyWhy := ""
	if many {
		manyWhy = fmt.Sprintf("%s share the link, %s of BDP each (%.1f segments of %d B); BBR keeps up to 2 × its BDP estimate + %d segments in flight per flow (bbr_quantization_budget(), tcp_bbr.c), %s over all %d, ≥ %.1f%% of the link's BDP %s, and with many flows each flow's bandwidth estimate (the max of its own probes over 10 rounds) sums above the link, so the cwnd cap binds and leaves more than a BDP standing at the bottleneck, where BBR (v1, the kernel's) does not back off on the loss it causes",
			plural(in.Streams, "stream"), units.FormatBytes(p.SendBDPBytesPerStream), n.streamBDPSegments, n.mssBytes, BBRFixedCwndSegments,
			units.FormatBytes(n.bbrSurplusBytes), in.Streams, 100*ManyFlowsSurplusShare, units.FormatBytes(n.linkBDPBytes))
	}
	// Below two segments a flow cannot go (tcp_cubic.c and Reno keep ssthresh ≥ 2; BBR's
	// floor is 4): when the flows' floors alone exceed the link's BDP, the excess stands in
	// the bottleneck's queue whatever the congestion control.
	if floor := int64(in.Streams) * 2 * n.mssBytes; many && floor > n.linkBDPBytes {
		p.Notes = append(p.Notes, fmt.Sprintf("%s of 2 segments each, the least a TCP flow sends per round trip, hold %s against the link's BDP %s: at least %s stands in the bottleneck's queue whatever the congestion control, and a shallower buffer drops; fewer flows, or a bottleneck buffer above that, avoid it",
			plural(in.Streams, "stream"), units.FormatBytes(floor), units.FormatBytes(n.linkBDPBytes), units.FormatBytes(floor-n.linkBDPBytes)))
	}
	switch {
	case many && (!kver.Known || kver.AtLeast(2, 6, 19)) && hasCubic:
		why := manyWhy + fmt.Sprintf("; cubic backs off on loss (× 0.7, tcp_cubic.c beta), and one flow's backoff costs the link 0.3 ÷ %d of its rate", in.Streams)
		add(model.ChangeSysctl, "net.ipv4.tcp_congestion_control", "cubic", why)
		p.addLossBasedPacing(n, add)
	case (!kver.Known || kver.AtLeast(4, 9, 0)) && hasBBR:
		why := "BBR (4.9+) paces at its bottleneck-bandwidth estimate and is not driven by loss, so one random loss on a long path does not halve the window"
		if avail == "" {
			why += "; check tcp_available_congestion_control (modprobe tcp_bbr)"
		}
		add(model.ChangeSysctl, "net.ipv4.tcp_congestion_control", "bbr", why)
		if many {
			p.Warnings = append(p.Warnings, manyWhy+"; this kernel offers no cubic (tcp_available_congestion_control: "+avail+"): expect retransmits at a shallow bottleneck")
		}
		if kver.Known && !kver.AtLeast(4, 13, 0) {
			add(model.ChangeSysctl, "net.core.default_qdisc", "fq",
				"BBR before 4.13 relies on the fq qdisc for pacing; 4.13 added TCP-internal pacing (commit 218af599fa63)")
		} else {
			p.Notes = append(p.Notes, "pacing: BBR paces inside TCP since 4.13, so the fq qdisc is not required (this lab kernel has none); with cubic, fq or SO_MAX_PACING_RATE smooths the bursts a long fat path otherwise sends into shallow switch buffers")
		}
	case !kver.Known || kver.AtLeast(2, 6, 19):
		add(model.ChangeSysctl, "net.ipv4.tcp_congestion_control", "cubic",
			"cubic (default since 2.6.19) regrows the window in time independent of RTT; bbr is absent here")
		if many {
			p.addLossBasedPacing(n, add)
		}
	case kver.AtLeast(2, 6, 13):
		add(model.ChangeSysctl, "net.ipv4.tcp_congestion_control", "bic",
			"bic is this kernel's default (2.6.8–2.6.18) and built for long fat paths; ESnet advised htcp on 2.6.18 where bic/cubic had bugs")
	default:
		p.Notes = append(p.Notes, "congestion control is not pluggable before 2.6.13")
	}
}

// addLossBasedPacing plans the pacing of loss-based flows (cubic) that share a bottleneck:
// the fq qdisc paces every TCP flow at sk_pacing_rate, which TCP sets to 1.2 × cwnd ÷ srtt
// in congestion avoidance (tcp_pacing_ca_ratio, tcp_update_pacing_rate(), tcp_input.c), so
// a window leaves over the RTT instead of as a burst per ACK train. Without fq nothing paces
// cubic: TCP's internal pacing (4.13+) runs only for sockets whose sk_pacing_status is
// SK_PACING_NEEDED, which BBR's init and SO_MAX_PACING_RATE set (tcp_needs_internal_pacing(),
// tcp_output.c; sock_setsockopt(), net/core/sock.c).
func (p *Plan) addLossBasedPacing(n *numbers, add addFunc) {
	in, kver := n.in, n.kver
	const what = "fq paces each flow at 1.2 × cwnd ÷ srtt (tcp_pacing_ca_ratio, tcp_update_pacing_rate()), so each window leaves over the RTT instead of in ACK-clocked bursts into the bottleneck's queue"
	switch {
	case kver.Known && !kver.AtLeast(3, 12, 0):
		p.Notes = append(p.Notes, "pacing: none for these flows: fq came in 3.12 (sch_fq) and TCP's own pacing in 4.13, for BBR only; each window leaves in ACK-clocked bursts and the bottleneck's buffer absorbs them")
	case in.FQ == kernel.Available:
		add(model.ChangeSysctl, "net.core.default_qdisc", "fq", what+"; this kernel has sch_fq. default_qdisc applies to devices whose root qdisc is created after the change: tc qdisc replace dev DEV root fq (or mq's children) for a running NIC")
	case in.FQ == kernel.Unavailable:
		p.Notes = append(p.Notes, "pacing: none for these flows: this kernel has no fq qdisc (CONFIG_NET_SCH_FQ), and TCP paces by itself only for BBR or SO_MAX_PACING_RATE sockets (tcp_needs_internal_pacing()); each window leaves in ACK-clocked bursts and the bottleneck's buffer absorbs them")
	default:
		p.Notes = append(p.Notes, "pacing: "+what+": set net.core.default_qdisc = fq where the kernel has sch_fq (CONFIG_NET_SCH_FQ, 3.12+; not checked for this plan); without fq these flows are not paced, since TCP paces by itself only for BBR or SO_MAX_PACING_RATE sockets")
	}
}

// NotsentRefill is the time plan allows a writer to refill a socket after it is woken by
// tcp_notsent_lowat: one scheduling period of a busy host (see BacklogDrainInterval's
// reasoning), halved because a writer blocked in send() is already runnable.
const NotsentRefill = 10 * time.Millisecond

// NotsentLowatBytes is ⌈rate × NotsentRefill⌉ rounded up to pages, at least 16 KiB (tcp_wmem's
// default initial buffer). The kernel default is UINT_MAX (no limit); the sysctl exists from
// 3.12 (commit c9bee3b7fdec, "tcp: TCP_NOTSENT_LOWAT socket option").
func NotsentLowatBytes(streamBitsPerSec float64, pageSizeBytes int) int64 {
	b := int64(math.Ceil(streamBitsPerSec / 8 * NotsentRefill.Seconds()))
	return max(roundUpBytes(b, int64(pageSizeBytes)), 16384)
}

// addRateLimit emits the HTB lines that cap a sender (seed 004's 400 Mbit example).
func (p *Plan) addRateLimit(in Input, add addFunc) {
	if in.RateLimitBitsPerSec <= 0 {
		return
	}
	dev := in.RateLimitDevice
	if dev == "" {
		for _, n := range in.NICs {
			if n.Name != "" {
				dev = n.Name
				break
			}
		}
	}
	if dev == "" {
		dev = "DEV"
	}
	rate := units.TCRate(in.RateLimitBitsPerSec)
	undo := fmt.Sprintf("undo: tc qdisc del dev %s root", dev)
	if in.RateLimitDestination == "" {
		// The form package tune applies: key "DEV root htb", value the class parameters; it
		// becomes a root htb qdisc whose default class 1:1 carries them.
		add(model.ChangeTC, dev+" root htb", fmt.Sprintf("rate %s ceil %s", rate, rate),
			fmt.Sprintf("caps everything %s sends at %s: root htb whose default class 1:1 has rate = ceil, so it never borrows (tc reads mbit as 10^6 bit/s; its mbps would be megabytes); %s",
				dev, units.FormatBitsPerSec(in.RateLimitBitsPerSec), undo))
	} else {
		// A destination filter is beyond tune's "DEV root htb" form: give the commands.
		add(model.ChangeOther, dev+" htb dst "+in.RateLimitDestination, strings.Join(HTBCommands(dev, rate, in.RateLimitDestination), "; "),
			fmt.Sprintf("caps traffic to %s at %s (Fermilab's form); other traffic is not classified and passes unlimited; %s",
				in.RateLimitDestination, units.FormatBitsPerSec(in.RateLimitBitsPerSec), undo))
	}
	p.Notes = append(p.Notes, fmt.Sprintf("rate limit %s: the send buffers are sized for the limited rate (%s per stream); Fermilab limited a fast sender so a busy receiver kept up",
		units.FormatBitsPerSec(in.RateLimitBitsPerSec), units.FormatBitsPerSec(in.RateLimitBitsPerSec/float64(in.Streams))))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// HTBCommands are the tc(8) lines for an HTB rate limit on dev: all traffic through default
// class 1:1, or with dst only traffic to that address or prefix (a u32 filter, as in seed
// 004's example).
func HTBCommands(dev, rate, dst string) []string {
	if dst == "" {
		return []string{
			fmt.Sprintf("tc qdisc replace dev %s root handle 1: htb default 1", dev),
			fmt.Sprintf("tc class replace dev %s parent 1: classid 1:1 htb rate %s ceil %s", dev, rate, rate),
		}
	}
	return []string{
		fmt.Sprintf("tc qdisc replace dev %s root handle 1: htb", dev),
		fmt.Sprintf("tc class replace dev %s parent 1: classid 1:1 htb rate %s ceil %s", dev, rate, rate),
		fmt.Sprintf("tc filter add dev %s parent 1: protocol ip prio 1 u32 match ip dst %s flowid 1:1", dev, dst),
	}
}

func containsWord(s, w string) bool {
	for _, f := range strings.Fields(s) {
		if f == w {
			return true
		}
	}
	return false
}

// currentMap reads Input.Current: whitespace-normalised strings, with typed accessors that
// report presence (absent is not zero).
type currentMap map[string]string

func currentValues(m map[string]string) currentMap {
	c := currentMap{}
	for k, v := range m {
		if v = strings.Join(strings.Fields(v), " "); v != "" {
			c[k] = v
		}
	}
	return c
}

func (c currentMap) raw(key string) string { return c[key] }

func (c currentMap) int(key string) (int64, bool) {
	v, err := strconv.ParseInt(c[key], 10, 64)
	return v, err == nil
}

// bufferTriplet is the tcp_rmem or tcp_wmem to write with hi as its maximum: the host's
// min and default as set (the kernel's page and default when key is not read), each lowered
// to stay at or below the next (the kernel reads the three as min ≤ default ≤ max).
func (c currentMap) bufferTriplet(key string, page, def, hi int64) [3]int64 {
	t := [3]int64{page, def, hi}
	if cur, ok := c.triplet(key); ok {
		t[0], t[1] = cur[0], cur[1]
	}
	t[1] = min(t[1], hi)
	t[0] = min(t[0], t[1])
	return t
}

func (c currentMap) triplet(key string) ([3]int64, bool) {
	var t [3]int64
	return t, kernel.SysctlIntsInto(c[key], t[:]) == 3
}
