package diagnose

import (
	"fmt"
	"sort"
	"strings"

	"headroom/model"
)

// allocator-churn: in a kernel profile (readprofile, perf report), the share of non-idle
// ticks spent allocating and freeing memory for packets: the slab allocator (kmalloc, kfree,
// kmem_cache_*), the page allocator, and skb construction and destruction (alloc_skb,
// __kfree_skb, kfree_skbmem, skb_release_data). On 2.4 every received frame cost a
// kmalloc/kfree of its data buffer (alloc_skb → kmalloc, net/core/skbuff.c) plus an skb head
// from a per-CPU hot list of sysctl_hot_list_len (128) heads; seed 001 measured kmalloc/kfree
// "during skb construct/destruct" and replaced them with a fixed-size frame pool. Later kernels
// cut this cost with NAPI per-CPU caches (napi_alloc_skb, 3.19; the skb head cache, 5.12),
// page_pool recycling of RX pages (4.18), build_skb around driver pages, and GRO, which turns
// many frames into one skb.
func init() {
	Register(Rule{
		ID:     "allocator-churn",
		Title:  "a kernel profile spends a large share of its non-idle time allocating and freeing packet memory",
		Family: FamilyNetwork,
		Check:  checkAllocatorChurn,
	})
}

// Thresholds: at 20% of non-idle kernel ticks or more the allocator is a leading cost of
// packet handling (warning); 10% is worth knowing (info). A share needs churnMinTicks
// non-idle ticks to mean anything (readprofile counts clock ticks: 1000 is 10 s of one busy CPU
// at HZ=100).
const (
	churnWarnShare = 0.20
	churnInfoShare = 0.10
	churnMinTicks  = 1000
)

// Symbols of the allocators and of skb construction/destruction, by kernel era. Compiler
// suffixes (".isra.0", ".constprop.0", ".part.0") are stripped before lookup.
var churnAllocSymbols = map[string]bool{
	// slab
	"kmalloc": true, "__kmalloc": true, "__kmalloc_node": true, "__kmalloc_track_caller": true,
	"__kmalloc_node_track_caller": true, "kmalloc_trace": true, "kmalloc_reserve": true, "kfree": true,
	"kmem_cache_alloc": true, "kmem_cache_alloc_node": true, "kmem_cache_alloc_trace": true,
	"kmem_cache_free": true, "kmem_cache_alloc_bulk": true, "kmem_cache_free_bulk": true,
	"__slab_alloc": true, "___slab_alloc": true, "__slab_free": true, "slab_alloc": true,
	"cache_alloc_refill": true, "cache_flusharray": true, "free_block": true, "kmem_cache_alloc_noprof": true,
	"__kmalloc_noprof": true, "__kmalloc_node_track_caller_noprof": true, "kmem_cache_alloc_node_noprof": true,
	// page allocator
	"__alloc_pages": true, "__alloc_pages_nodemask": true, "__alloc_pages_noprof": true,
	"get_page_from_freelist": true, "rmqueue": true, "__rmqueue": true, "rmqueue_bulk": true,
	"__free_pages": true, "free_pages": true, "__free_pages_ok": true, "free_unref_page": true,
	"free_unref_page_commit": true, "free_pcppages_bulk": true, "free_hot_cold_page": true,
	"page_frag_alloc": true, "page_frag_alloc_align": true, "__page_frag_alloc_align": true,
	"page_frag_free": true, "__page_frag_cache_refill": true,
	// skb construction and destruction
	"alloc_skb": true, "__alloc_skb": true, "__netdev_alloc_skb": true, "netdev_alloc_skb": true,
	"__napi_alloc_skb": true, "napi_alloc_skb": true, "build_skb": true, "__build_skb": true,
	"napi_build_skb": true, "__napi_build_skb": true, "skb_clone": true, "__kfree_skb": true,
	"kfree_skb": true, "kfree_skbmem": true, "kfree_skb_reason": true, "sk_skb_reason_drop": true,
	"consume_skb": true, "napi_consume_skb": true, "skb_release_data": true,
	"skb_release_head_state": true, "skb_release_all": true, "skb_free_head": true,
	"dev_kfree_skb_any": true, "__dev_kfree_skb_any": true, "dev_kfree_skb_irq": true,
	"__dev_kfree_skb_irq": true, "napi_skb_cache_get": true, "napi_skb_cache_put": true,
}

// Prefixes that are allocator work in every kernel that has them: seed 001's patched
// alloc_skb_frame, page_pool recycling (4.18+).
var churnAllocPrefixes = []string{"alloc_skb", "page_pool_"}

// Idle symbols: time the CPU had nothing to do (2.4's default_idle and poll_idle, the cpuidle
// drivers of later kernels).
var churnIdleSymbols = map[string]bool{
	"default_idle": true, "cpu_idle": true, "poll_idle": true, "intel_idle": true, "intel_idle_irq": true,
	"acpi_idle_do_entry": true, "acpi_idle_enter": true, "acpi_safe_halt": true, "native_safe_halt": true,
	"pv_native_safe_halt": true, "mwait_idle": true, "mwait_idle_with_hints": true, "cpu_idle_poll": true,
	"cpuidle_enter_state": true, "do_idle": true, "arch_cpu_idle": true, "default_idle_call": true,
	"cpu_startup_entry": true, "cpu_idle_loop": true, "__cpuidle_text_start": true, "amd_e400_idle": true,
}

func churnBase(sym string) string {
	s := strings.TrimSpace(sym)
	if i := strings.IndexByte(s, '.'); i > 0 {
		s = s[:i]
	}
	return s
}

func churnIsAlloc(sym string) bool {
	b := churnBase(sym)
	if churnAllocSymbols[b] {
		return true
	}
	for _, p := range churnAllocPrefixes {
		if strings.HasPrefix(b, p) {
			return true
		}
	}
	return false
}

type churnShare struct {
	prof                 *model.Profile
	total, idle, nonIdle float64
	alloc                float64
	listed               float64
	share                float64
	bySym                map[string]float64
	ticks                bool // weights are tick counts (false: perf percentages)
	enough               bool
	lowerBound           bool
	top                  []string
}

func churnMeasure(p *model.Profile) churnShare {
	a := churnShare{prof: p, bySym: map[string]float64{}}
	weight := func(r model.ProfileRow) float64 { return float64(r.Ticks) }
	a.ticks = false
	for _, r := range p.Rows {
		if r.Ticks > 0 {
			a.ticks = true
			break
		}
	}
	if !a.ticks {
		weight = func(r model.ProfileRow) float64 { return r.Share }
	}
	for _, r := range p.Rows {
		w := weight(r)
		if w <= 0 {
			continue
		}
		a.listed += w
		switch {
		case churnIdleSymbols[churnBase(r.Symbol)]:
			a.idle += w
		case churnIsAlloc(r.Symbol):
			a.alloc += w
			a.bySym[churnBase(r.Symbol)] += w
		}
	}
	a.total = a.listed
	if a.ticks && p.Total > 0 && float64(p.Total) >= a.listed {
		a.total = float64(p.Total)
	}
	if !a.ticks {
		a.total = max(a.listed, 100)
	}
	a.lowerBound = a.total > a.listed
	a.nonIdle = a.total - a.idle
	if a.nonIdle > 0 {
		a.share = a.alloc / a.nonIdle
	}
	a.enough = !a.ticks || a.nonIdle >= churnMinTicks
	syms := make([]string, 0, len(a.bySym))
	for s := range a.bySym {
		syms = append(syms, s)
	}
	sort.Slice(syms, func(i, j int) bool {
		if a.bySym[syms[i]] != a.bySym[syms[j]] {
			return a.bySym[syms[i]] > a.bySym[syms[j]]
		}
		return syms[i] < syms[j]
	})
	for _, s := range syms {
		if a.ticks {
			a.top = append(a.top, fmt.Sprintf("%s %.0f", s, a.bySym[s]))
		} else {
			a.top = append(a.top, fmt.Sprintf("%s %.1f%%", s, a.bySym[s]))
		}
	}
	return a
}

func (a churnShare) describe() string {
	unit := "ticks"
	if !a.ticks {
		unit = "% of samples"
	}
	v := fmt.Sprintf("%s of non-idle (%.0f of %.0f non-idle %s; idle %.0f of %.0f)", netPct(a.share), a.alloc, a.nonIdle, unit, a.idle, a.total)
	if a.lowerBound {
		v += "; a lower bound: the table lists only the top symbols"
	}
	if len(a.top) > 0 {
		v += "; " + strings.Join(a.top, ", ")
	}
	return v
}

func checkAllocatorChurn(tl *model.Timeline) Result {
	if len(tl.Profiles) == 0 {
		return NotChecked("no kernel profile (readprofile or perf report output) in the input")
	}
	var ms []churnShare
	for i := range tl.Profiles {
		a := churnMeasure(&tl.Profiles[i])
		if a.nonIdle > 0 && a.enough {
			ms = append(ms, a)
		}
	}
	if len(ms) == 0 {
		return NotChecked("the %d profile(s) have fewer than %d non-idle ticks: too few to judge a share", len(tl.Profiles), churnMinTicks)
	}
	worst := ms[0]
	for _, a := range ms[1:] {
		if a.share > worst.share {
			worst = a
		}
	}
	if worst.share < churnInfoShare {
		return Healthy("allocator and skb symbols take %s of non-idle ticks at most (%d profile(s))", netPct(worst.share), len(ms))
	}
	sev := Info
	if worst.share >= churnWarnShare {
		sev = Warning
	}
	var ev []Evidence
	for i, a := range ms {
		what := fmt.Sprintf("profile %d (%s)", i+1, a.prof.Tool)
		if l := strings.Join(strings.Fields(a.prof.Label), " "); l != "" {
			if len(l) > 80 {
				l = l[:77] + "..."
			}
			what += ": " + l
		}
		ev = append(ev, Evidence{What: what + ": allocator and skb construction", Value: a.describe(), Source: a.prof.Source})
	}
	title := fmt.Sprintf("allocation and skb construction take %s of the non-idle kernel time", netPct(worst.share))
	if len(ms) >= 2 {
		first, last := ms[0], ms[len(ms)-1]
		ev = append(ev, Evidence{What: "change between the first and the last profile", Value: fmt.Sprintf("%s → %s (%+.1f points)", netPct(first.share), netPct(last.share), 100*(last.share-first.share)), Source: "computed"})
		var gone []string
		for s := range first.bySym {
			if _, ok := last.bySym[s]; !ok {
				gone = append(gone, s)
			}
		}
		sort.Strings(gone)
		if len(gone) > 0 {
			ev = append(ev, Evidence{What: "allocator symbols absent from the last profile", Value: strings.Join(gone, ", "), Source: "computed"})
		}
		title = fmt.Sprintf("allocation and skb construction take %s of non-idle kernel time (%s in the last profile)", netPct(first.share), netPct(last.share))
	}
	f := Finding{
		Severity: sev,
		Title:    title,
		Evidence: ev,
		Explanation: "Packet handling that allocates and frees every buffer pays the allocator's locks, cache misses " +
			"and (for page-sized buffers) the page allocator per packet; at gigabit rates that is a large share of " +
			"the kernel's work and of the time a received frame waits for a free ring slot (the LKML e1000 report: kmalloc/kfree " +
			"in skb construction at ~7% utilisation, with overruns, until a fixed-size frame pool took its place). " +
			"Current kernels recycle instead: per-CPU NAPI skb caches, page_pool for RX pages, build_skb, and GRO " +
			"merging frames before an skb is built; a driver and kernel that use them, GRO on (`ethtool -k`), " +
			"jumbo frames where the path allows, and interrupt coalescing all cut allocations per byte.",
	}
	return Fired(f)
}
