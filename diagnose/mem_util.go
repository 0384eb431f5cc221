package diagnose

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"headroom/kernel"
	"headroom/model"
	"headroom/plan"
	"headroom/units"
)

// Helpers shared by the memory rules (mem_*.go).

// memZoneRank orders zones as the kernel declares them (enum zone_type, include/linux/mmzone.h):
// an allocation may use its highest allowed zone and every zone below it. Unknown names rank
// -1 and are never eligible.
func memZoneRank(name string) int {
	switch strings.ToLower(name) {
	case "dma":
		return 0
	case "dma32":
		return 1
	case "normal":
		return 2
	case "highmem":
		return 3
	case "movable":
		return 4
	case "device":
		return 5
	}
	return -1
}

// memKernelOf returns the kernel release that applies to an event: the one printed in or near
// the report, else the host's.
func memKernelOf(tl *model.Timeline, af *model.AllocFailure) (kernel.KernelVersion, string, bool) {
	if af != nil && af.Kernel != "" {
		if v, err := kernel.ParseKernelVersion(af.Kernel); err == nil && v.Known {
			return v, af.Kernel, true
		}
	}
	v, ok := tl.Host.KernelVersion()
	return v, tl.Host.Kernel, ok
}

func memMentionSource(m model.SettingMention) string {
	switch {
	case m.Source != "":
		return m.Source
	case m.Line > 0:
		return fmt.Sprintf("line %d", m.Line)
	}
	return "the text"
}

// memDescribeMentions prints the values a text names for a key: `20248 (sysctl-w, line 3,
// written vm.min_kbytes_free)`; the key as written is shown when it is not the real one.
func memDescribeMentions(ms []model.SettingMention, key string) string {
	var parts []string
	for _, m := range ms {
		p := fmt.Sprintf("%s (%s, %s", m.Value, m.Form, memMentionSource(m))
		if m.Key != key {
			p += ", written " + m.Key
		}
		parts = append(parts, p+")")
	}
	return strings.Join(parts, "; ")
}

// memTotalKB is the host's memory size and its source (model.Timeline.Memory, the one home of
// that derivation).
func memTotalKB(tl *model.Timeline) (kb int64, source string, ok bool) {
	m := tl.Memory()
	return m.TotalKB, m.TotalSource, m.TotalKB > 0
}

// memLowmemKB is the memory a 32-bit HighMem kernel maps permanently and its source
// (model.Timeline.Memory); ok is false when there is no split or it is unknown.
func memLowmemKB(tl *model.Timeline) (kb int64, source string, ok bool) {
	m := tl.Memory()
	return m.LowmemKB, m.LowmemSource, m.LowmemKB > 0
}

// memIs64Bit reports whether the host is known to run a 64-bit kernel.
func memIs64Bit(tl *model.Timeline) bool { return tl.Memory().Is64Bit() }

// memPhysicalNICs returns the host's non-virtual NICs with a known link speed, and the names of
// the others (speed unknown) for the not-checked reason.
func memPhysicalNICs(tl *model.Timeline) (known []plan.NIC, mtu int, unknown []string) {
	for _, n := range tl.Host.NICs {
		if n.Name == "lo" || n.Virtual {
			continue
		}
		if n.SpeedMbps <= 0 {
			unknown = append(unknown, n.Name)
			continue
		}
		pn := plan.NIC{Name: n.Name, SpeedMbps: n.SpeedMbps}
		for _, st := range tl.AllNICStats() {
			if st.Name == n.Name && st.Ring != nil {
				pn.RxRing, pn.RxRingMax = int64(st.Ring.Rx), int64(st.Ring.RxMax)
			}
		}
		known = append(known, pn)
		if int(n.MTU) > mtu {
			mtu = int(n.MTU)
		}
	}
	return known, mtu, unknown
}

// memPlanInput builds plan's host description from the timeline. missing names what plan needs
// and the timeline lacks (memory size, NIC speed); an Input with missing set must not be
// used for a number.
func memPlanInput(tl *model.Timeline) (in plan.Input, missing []string) {
	if kb, _, ok := memTotalKB(tl); ok {
		in.MemoryBytes = kb * 1024
	} else {
		missing = append(missing, "the memory size (MemTotal)")
	}
	// Lowmem matters only on a 32-bit kernel; a HighMem zone in a report proves one even
	// when the text does not name the architecture (plan keeps a given lowmem when the
	// architecture is unknown).
	if kb, _, ok := memLowmemKB(tl); ok && !memIs64Bit(tl) {
		in.LowmemBytes = kb * 1024
		if in.MemoryBytes > 0 && in.LowmemBytes > in.MemoryBytes {
			in.LowmemBytes = in.MemoryBytes
		}
	}
	psz, _ := pageSize(tl)
	in.PageSizeBytes = int(psz)
	in.Arch = tl.Host.Arch
	in.KernelVersion = tl.Host.Kernel
	nics, mtu, unknown := memPhysicalNICs(tl)
	in.NICs = nics
	in.MTUBytes = mtu
	if len(nics) == 0 {
		if len(unknown) > 0 {
			missing = append(missing, "the NIC speed ("+strings.Join(unknown, ", ")+" report none)")
		} else {
			missing = append(missing, "the NIC speed (no physical NIC with a link speed in the input)")
		}
	}
	for _, s := range []string{"vm.min_free_kbytes", "vm.watermark_scale_factor"} {
		if v, ok := currentSetting(tl, s); ok && v.Host {
			if in.Current == nil {
				in.Current = map[string]string{}
			}
			in.Current[s] = v.Value
		}
	}
	return in, missing
}

// memMinFreeChange is the vm.min_free_kbytes change of a memory finding: plan's number when the
// timeline has what plan needs, else advice naming what is missing. The text's own values
// are cited as context, never used as the number.
func memMinFreeChange(tl *model.Timeline, cur setting, haveCur bool) (model.Change, bool) {
	ch := model.Change{Key: "vm.min_free_kbytes"}
	if haveCur {
		ch.Current = cur.Value
		if !cur.Host {
			ch.Current += " (the text's words)"
		}
	}
	in, missing := memPlanInput(tl)
	ctx := ""
	if ms := settingMentions(tl, "vm.min_free_kbytes"); len(ms) > 0 {
		ctx = "; the text names " + memDescribeMentions(ms, "vm.min_free_kbytes")
	}
	// The reserve is sized from the line rate; the memory size only caps it at a share of
	// RAM. Without it the number is still plan's, uncapped, and the reason says so.
	uncapped := len(missing) == 1 && in.MemoryBytes == 0 && len(in.NICs) > 0
	if len(missing) > 0 && !uncapped {
		ch.Kind = model.ChangeOther
		ch.Recommended = "run `headroom plan --bandwidth LINK --rtt RTT --memory RAM`: the input lacks " + strings.Join(missing, " and ")
		ch.Why = "min_free_kbytes must cover the atomic receive allocations made at line rate before kswapd catches up (plan.MinFreeKBytes)" + ctx
		return ch, true
	}
	kb, why := plan.MinFreeKBytes(in)
	if c, ok := settingInt(cur); haveCur && ok && c >= kb {
		return ch, false
	}
	ch.Kind = model.ChangeSysctl
	ch.Recommended = strconv.FormatInt(kb, 10)
	ch.Why = why + ctx + "; risk: the reserve is memory the page cache and applications cannot use, and kswapd starts reclaiming (and swapping) earlier"
	if uncapped {
		ch.Why += "; the input does not give the memory size, so the value is not checked against a share of RAM: confirm with `headroom plan --bandwidth LINK --rtt RTT --memory RAM` on the host"
	}
	return ch, true
}

// memWatermarkScaleChange is the vm.watermark_scale_factor change (4.6+) from plan, when plan
// can compute it and the current value is below.
func memWatermarkScaleChange(tl *model.Timeline) (model.Change, bool) {
	v, ok := tl.Host.KernelVersion()
	if has, _ := kernel.SysctlExists("vm.watermark_scale_factor", v, ok); !has {
		return model.Change{}, false
	}
	in, missing := memPlanInput(tl)
	if len(missing) > 0 {
		return model.Change{}, false
	}
	f, why, ok := plan.WatermarkScaleFactor(in)
	if !ok {
		return model.Change{}, false
	}
	ch := model.Change{Kind: model.ChangeSysctl, Key: "vm.watermark_scale_factor", Recommended: strconv.FormatInt(f, 10), Why: why + "; wakes kswapd earlier so atomic allocations rarely reach the min reserve (4.6+, commit 795ae7a0de6b)"}
	if cur, ok := currentSetting(tl, "vm.watermark_scale_factor"); ok {
		ch.Current = cur.Value
		if c, ok := settingInt(cur); ok && c >= f {
			return ch, false
		}
	}
	return ch, true
}

// memEventSource names where an event was found.
func memEventSource(e *model.Event) string {
	switch {
	case e.Source != "":
		return e.Source
	case e.FirstLine > 0 && e.LastLine > e.FirstLine:
		return fmt.Sprintf("lines %d-%d", e.FirstLine, e.LastLine)
	case e.FirstLine > 0:
		return fmt.Sprintf("line %d", e.FirstLine)
	}
	return "kernel log"
}

// memLogAvailable says whether the timeline carries a kernel log to search, and why not.
func memLogAvailable(tl *model.Timeline) (ok bool, why string) {
	if tl.Log.Len() > 0 || len(tl.Events) > 0 || tl.LogElsewhere > 0 {
		return true, ""
	}
	for _, u := range tl.NotAvailable {
		if strings.Contains(u.What, "kmsg") || strings.Contains(u.What, "kernel log") {
			return false, "the kernel log could not be read: " + u.Why
		}
	}
	return false, "no kernel log in the input"
}

// memKB prints a kB figure with a binary unit.
func memKB(v int64) string { return units.FormatBytes(v * 1024) }

// memRateStats summarises one rate key over the timeline: samples that have it, the mean, the
// peak and where the peak was.
type memRateStats struct {
	n          int
	mean, peak float64
	peakIdx    int
	over       int // samples at or above the threshold passed to stats
}

func memSeriesStats(tl *model.Timeline, key string, threshold float64) memRateStats {
	idx, vals := tl.Series(key)
	var r memRateStats
	r.peakIdx = -1
	for i, v := range vals {
		if math.IsNaN(v) {
			continue
		}
		r.n++
		r.mean += v
		if r.peakIdx < 0 || v > r.peak {
			r.peak, r.peakIdx = v, idx[i]
		}
		if v >= threshold {
			r.over++
		}
	}
	if r.n > 0 {
		r.mean /= float64(r.n)
	}
	return r
}

// memSampleWhere names a sample for evidence: its source and time.
func memSampleWhere(tl *model.Timeline, i int, file string) string {
	if i < 0 || i >= len(tl.Samples) {
		return file
	}
	s := &tl.Samples[i]
	src := sampleSource(s, file)
	if !s.Time.IsZero() {
		src += " at " + s.Time.UTC().Format(time.TimeOnly)
	}
	return src
}

// memSegmentOf returns the name of the segment holding sample i ("vmstat table at lines
// 52-60"), or "".
func memSegmentOf(tl *model.Timeline, i int) string {
	for _, s := range tl.Segments {
		if i >= s.First && i <= s.Last {
			return s.Name
		}
	}
	return ""
}

// memAllocHighMem reports whether an allocation-failure report shows a HighMem zone: a zone
// line of its dump, or the dump's footer "N pages HighMem/MovableOnly" above 0 (lib/show_mem.c
// __show_mem counts the zones is_highmem() accepts, none without CONFIG_HIGHMEM). The footer
// matters since the dump lists only the zones the failed request could use (__show_mem's
// max_zone_idx, gfp_zone() of the mode, passed by warn_alloc_show_mem): a 6.x 32-bit
// kernel's dump of a lowmem request has DMA and Normal and no HighMem line at all.
func memAllocHighMem(af *model.AllocFailure) bool { return af.ShowsHighMem() }
