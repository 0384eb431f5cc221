package plan

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"headroom/model"

	"headroom/kernel"
)

// Check verifies the invariants every plan keeps (docs/plan.md, "Invariants"); Compute
// refuses to return a plan that breaks one. It returns every broken invariant.
//
//   - no buffer limit below its floor (the host's current value, else the target kernel's
//     default) unless a warning names it; rmem_max and wmem_max never below 212992;
//   - when the wanted buffers fit the budget, the maxima cover the worst RTT and autotuning's
//     2× headroom above one nominal BDP (up to what one TCP window can use), and rmem_max /
//     wmem_max cover what an SO_RCVBUF/SO_SNDBUF user needs;
//   - tcp_notsent_lowat ≤ tcp_wmem max;
//   - tcp_mem ordered, max within the budget, pressure ≥ the planned worst case when it fits;
//   - min_free_kbytes within 1/minFreeShareDenominator of lowmem (MemTotal);
//   - no queue or watermark setting below the current value or the kernel default;
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
		var out []int64
		for _, f := range strings.Fields(c.Recommended) {
			v, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				bad("%s = %q: not integers", key, c.Recommended)
				return nil
			}
			out = append(out, v)
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
	}{
		{"net.ipv4.tcp_rmem", "net.ipv4.tcp_rmem max", in.receives(), floor.r, cover(p.StreamBitsPerSec), p.WindowRatio, capBytes},
		{"net.ipv4.tcp_wmem", "net.ipv4.tcp_wmem max", in.sends(), floor.w, cover(sendRate), p.WindowRatio, capBytes},
		{"net.core.rmem_max", "net.core.rmem_max", in.receives(), floor.cr, cover(p.StreamBitsPerSec), 2 * p.SetsockoptRatio, int64(math.MaxInt32) / 2 / page * page},
		{"net.core.wmem_max", "net.core.wmem_max", in.sends(), floor.cw, cover(sendRate), 2 * p.WindowRatio, capBytes / 2},
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
		needPages := ceilDiv(p.Budget.WorstCaseBytes, page)
		budgetPages := p.Budget.BudgetBytes / page
		if f[0] > f[1] || f[1] > f[2] {
			bad("tcp_mem %v not ordered", f)
		}
		if f[2] > budgetPages {
			bad("tcp_mem max %d above the budget %d pages", f[2], budgetPages)
		}
		if p.Budget.WorstCaseBytes <= p.Budget.BudgetBytes && f[1] < needPages {
			bad("tcp_mem pressure %d below the worst case %d pages", f[1], needPages)
		}
		if c, ok := cur.triplet("net.ipv4.tcp_mem"); ok && f[2] < c[2] && !warned("net.ipv4.tcp_mem") {
			bad("tcp_mem max %d below the current %d without a warning", f[2], c[2])
		}
	} else {
		bad("tcp_mem missing")
	}

	// min_free_kbytes.
	if v, ok := last("vm.min_free_kbytes"); ok {
		basis, _ := budgetBasis(in)
		if capKB := basis / 1024 / minFreeShareDenominator; v > max(capKB, KernelDefaultMinFreeKBytesForVersion(basis/1024, kver)) {
			bad("min_free_kbytes %d above 1/%d of %d kB", v, minFreeShareDenominator, basis/1024)
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
		if v < fl {
			bad("%s %d below %d", key, v, fl)
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
