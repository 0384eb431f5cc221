package plan

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"headroom/model"

	"headroom/kernel"
)

// Check verifies the invariants every plan keeps (docs/plan.md, "Invariants"); Compute
// refuses to return a plan that breaks one. It returns every broken invariant.
//
//   - no buffer limit below the target kernel's default, ever (the flow count is no reason:
//     tcp_mem bounds the sum), nor below the host's current value unless a warning names it;
//     rmem_max and wmem_max never below 212992;
//   - when the wanted buffers fit the budget, the maxima cover the worst RTT and autotuning's
//     2× headroom above one nominal BDP (up to what one TCP window can use), and rmem_max /
//     wmem_max cover what an SO_RCVBUF/SO_SNDBUF user needs;
//   - tcp_notsent_lowat ≤ tcp_wmem max;
//   - tcp_mem ordered, max within the budget and ≥ 5/4 × pressure, pressure ≥ what the streams
//     hold filling their shares when that band fits the budget, min ≥ a page per stream and
//     direction;
//   - the reserve, min_free_kbytes + 2 × the watermark gap, within 1/ReserveShareDenominator of
//     lowmem (MemTotal), or, when the host's meminfo is known, within what fits beside the
//     memory reclaim cannot free and the planned tcp_mem max (ReserveFitKB), unless the
//     kernel's default is already more; min_free_kbytes never below the kernel's default;
//   - no queue or watermark setting below the current value or the kernel default;
//   - netdev_max_backlog on every CPU within 1/ReserveShareDenominator of the basis, and one
//     netdev_budget round's refills on every CPU within 7/8 of min_free_kbytes, unless the
//     value is the current one or the kernel default;
//   - every sysctl value within tune's safety bound for this host's RAM.
func (p Plan) Check() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	in := p.Input
	kver, err := kernel.ParseKernelVersion(in.KernelVersion)
	if err != nil {
		return err
	}
	cur := currentValues(in.Current)
	page := int64(in.PageSizeBytes)
	warned := func(key string) bool {
		for _, w := range p.Warnings {
			if strings.HasPrefix(w, key) {
				return true
			}
		}
		return false
	}
	settings := map[string]model.Change{}
	for _, c := range p.Settings {
		if c.Kind == model.ChangeSysctl {
			settings[c.Key] = c
		}
	}
	fields := func(key string) []int64 {
		c, ok := settings[key]
		if !ok {
			return nil
		}
		out, ok := kernel.SysctlInts(c.Recommended)
		if !ok && strings.TrimSpace(c.Recommended) != "" {
			bad("%s = %q: not integers", key, c.Recommended)
		}
		return out
	}
	last := func(key string) (int64, bool) {
		f := fields(key)
		if len(f) == 0 {
			return 0, false
		}
		return f[len(f)-1], true
	}

	// Buffer limits: floors, coverage, SO_RCVBUF.
	floor, src := bufferFloors(kver, p.Budget.BasisBytes, cur)
	def := KernelDefaultBuffers(kver, p.Budget.BasisBytes)
	capBytes := min(int64(math.MaxInt32), int64(float64(maxWindowBytes)/p.WindowRatio)) / page * page
	cover := func(rate float64) int64 { return CoverBytes(rate, in.RTT, p.WorstRTT) }
	sendRate := p.StreamBitsPerSec
	if in.RateLimitBitsPerSec > 0 && in.RateLimitBitsPerSec < in.BandwidthBitsPerSec {
		sendRate = in.RateLimitBitsPerSec / float64(in.Streams)
	}
	for i, l := range []struct {
		key, warnKey string
		on           bool
		fl           int64
		need         int64 // window bytes the limit must hold when the budget fits
		ratio        float64
		cap          int64 // the most the limit may be
		def          int64 // the target kernel's default
	}{
		{"net.ipv4.tcp_rmem", "net.ipv4.tcp_rmem max", in.receives(), floor.r, cover(p.StreamBitsPerSec), p.WindowRatio, capBytes, def.TCPRmem[2]},
		{"net.ipv4.tcp_wmem", "net.ipv4.tcp_wmem max", in.sends(), floor.w, cover(sendRate), p.WindowRatio, capBytes, def.TCPWmem[2]},
		{"net.core.rmem_max", "net.core.rmem_max", in.receives(), floor.cr, cover(p.StreamBitsPerSec), 2 * p.SetsockoptRatio, int64(math.MaxInt32) / 2 / page * page, max(def.RmemMax, CoreMemMaxFloor)},
		{"net.core.wmem_max", "net.core.wmem_max", in.sends(), floor.cw, cover(sendRate), 2 * p.WindowRatio, capBytes / 2, max(def.WmemMax, CoreMemMaxFloor)},
	} {
		v, ok := last(l.key)
		if !l.on {
			if ok {
				bad("%s planned for role %s", l.key, in.Role)
			}
			continue
		}
		if !ok {
			bad("%s missing", l.key)
			continue
		}
		if v < l.fl && !warned(l.warnKey) {
			bad("%s %d is below %s %d without a warning", l.key, v, src[i], l.fl)
		}
		if v < l.def {
			bad("%s %d is below the kernel default %d (%s)", l.key, v, l.def, kver)
		}
		if i >= 2 && v < CoreMemMaxFloor {
			bad("%s %d is below %d", l.key, v, CoreMemMaxFloor)
		}
		if p.Budget.Fits && l.ratio > 0 && float64(v)*l.ratio < float64(min(l.need, int64(float64(l.cap)*l.ratio)))-float64(page) {
			bad("%s %d × %.3g does not hold the %d bytes the worst RTT %v and autotuning need", l.key, v, l.ratio, l.need, p.WorstRTT)
		}
	}
	if p.WorstRTT < in.RTT || (in.RTTMax == 0 && p.WorstRTT < RTTMarginFactor*in.RTT) {
		bad("worst RTT %v does not cover the RTT %v with its margin", p.WorstRTT, in.RTT)
	}

	// tcp_notsent_lowat ≤ the send maximum.
	if lo, ok := last("net.ipv4.tcp_notsent_lowat"); ok {
		w, okw := last("net.ipv4.tcp_wmem")
		if !okw || lo > w {
			bad("tcp_notsent_lowat %d above the tcp_wmem max %d", lo, w)
		}
	}

	// tcp_mem.
	if f := fields("net.ipv4.tcp_mem"); len(f) == 3 {
		needPages := ceilDiv(p.Budget.FlowsBytes, page)
		budgetPages := p.Budget.BudgetBytes / page
		if f[0] > f[1] || f[1] > f[2] {
			bad("tcp_mem %v not ordered", f)
		}
		if f[2] > budgetPages {
			bad("tcp_mem max %d above the budget %d pages", f[2], budgetPages)
		}
		if f[2]*tcpMemBandDen < f[1]*tcpMemBandNum {
			bad("tcp_mem %v: max below %d/%d × pressure (no moderation band)", f, tcpMemBandNum, tcpMemBandDen)
		}
		if ceilDiv(needPages*tcpMemBandNum, tcpMemBandDen) <= budgetPages && f[1] < needPages {
			bad("tcp_mem pressure %d below the streams' need %d pages", f[1], needPages)
		}
		if idle := int64(in.Streams) * in.directions(); f[0] < min(idle, f[1]) {
			bad("tcp_mem min %d below what the idle streams are guaranteed, %d pages", f[0], idle)
		}
		if c, ok := cur.triplet("net.ipv4.tcp_mem"); ok && f[2] < c[2] && !warned("net.ipv4.tcp_mem") {
			bad("tcp_mem max %d below the current %d without a warning", f[2], c[2])
		}
	} else {
		bad("tcp_mem missing")
	}

	// The reserve: min_free_kbytes + 2 × the watermark gap within 1/ReserveShareDenominator
	// of lowmem (MemTotal), unless the kernel's own default min_free_kbytes is already more
	// (a note says so); never below the current values without a warning.
	if v, ok := last("vm.min_free_kbytes"); ok {
		basis, _ := budgetBasis(in)
		basisKB := basis / 1024
		f, _ := last("vm.watermark_scale_factor")
		def := KernelDefaultMinFreeKBytesForVersion(basisKB, kver)
		budgetKB, budgetWhy := basisKB/ReserveShareDenominator, fmt.Sprintf("1/%d of %d kB", ReserveShareDenominator, basisKB)
		_, basisName := budgetBasis(in)
		if u, _, ok := UnreclaimableKB(in.MemInfoKB, basisName == "lowmem"); ok {
			// With the host's memory known: the reserve beside what reclaim cannot free and
			// TCP's planned cap (ReserveFitKB).
			var tcpKB int64
			if t := fields("net.ipv4.tcp_mem"); len(t) == 3 {
				tcpKB = t[2] * page / 1024
			}
			budgetKB = ReserveFitKB(basisKB-u-tcpKB, dirtyShareOf(cur))
			budgetWhy = fmt.Sprintf("what fits beside %d kB unreclaimable and TCP's %d kB", u, tcpKB)
		}
		if r := ReserveKB(v, f, basisKB); r > budgetKB && r > ReserveKB(def, 0, basisKB) {
			bad("reserve %d kB (min_free_kbytes %d + 2 × gap at watermark_scale_factor %d) above %d kB (%s)", r, v, f, budgetKB, budgetWhy)
		}
		if v < def {
			bad("min_free_kbytes %d below the kernel default %d", v, def)
		}
		if c, ok := cur.int("vm.min_free_kbytes"); ok && v < c && !warned("vm.min_free_kbytes") {
			bad("min_free_kbytes %d below the current %d without a warning", v, c)
		}
	}

	// Queues and watermarks: never below the current value or the kernel default.
	for key, def := range map[string]int64{"net.core.netdev_max_backlog": 1000, "net.core.netdev_budget": 300, "vm.watermark_scale_factor": 10} {
		v, ok := last(key)
		if !ok {
			continue
		}
		fl := def
		if c, ok := cur.int(key); ok {
			fl = c
		}
		if v < fl && !(key == "vm.watermark_scale_factor" && warned(key)) {
			bad("%s %d below %d", key, v, fl)
		}
	}

	// The backlogs and the softirq rounds, per CPU and against memory: every CPU's backlog
	// full at once within 1/ReserveShareDenominator of the basis, one round's refills on every
	// CPU within the atomic part (7/8) of min_free_kbytes, unless the value is its floor.
	buf, _ := RxBufferBytes(in.MTUBytes, in.PageSizeBytes)
	cpus := int64(max(in.CPUs, 1))
	floorOf := func(key string, def int64) int64 {
		if c, ok := cur.int(key); ok {
			return c
		}
		return def
	}
	if v, ok := last("net.core.netdev_max_backlog"); ok && v > floorOf("net.core.netdev_max_backlog", 1000) {
		if basis, _ := budgetBasis(in); cpus*v*buf > basis/ReserveShareDenominator {
			bad("netdev_max_backlog %d × %d CPUs × %d B above 1/%d of %d bytes", v, cpus, buf, ReserveShareDenominator, basis)
		}
	}
	if v, ok := last("net.core.netdev_budget"); ok && v > floorOf("net.core.netdev_budget", 300) {
		if mf, ok := last("vm.min_free_kbytes"); ok && cpus*v*buf > kernel.AtomicUsable(mf*1024) {
			bad("netdev_budget %d × %d CPUs × %d B above 7/8 of min_free_kbytes %d kB", v, cpus, buf, mf)
		}
	}

	// tune's bounds, for the host the plan describes.
	lim := Limits{MemTotalKB: uint64(in.MemoryBytes / 1024), PageSizeBytes: uint64(in.PageSizeBytes)}
	for _, c := range p.Settings {
		if c.Kind == model.ChangeSysctl {
			if err := CheckBound(c.Key, c.Recommended, lim); err != nil {
				bad("%v", err)
			}
		}
	}
	return errors.Join(errs...)
}
