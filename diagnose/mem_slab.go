package diagnose

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// slab-unreclaimable-growth: kernel memory that reclaim cannot free (SUnreclaim in
// /proc/meminfo, 2.6.19+; NR_SLAB_UNRECLAIMABLE_B) is large or growing. Every such page is a
// page the receive path's reserve cannot count on: on a 64-bit host it narrows the memory
// above the watermarks, on a 32-bit HighMem host it comes straight out of lowmem, where socket
// buffers live. A steady rise on an idle host is a leak (kmemleak, /proc/slabinfo or slabtop
// name the cache).
func init() {
	Register(Rule{
		ID:     "slab-unreclaimable-growth",
		Title:  "unreclaimable slab (kernel memory) large or growing",
		Family: FamilyMemory,
		Check:  checkSlabUnreclaimable,
	})
}

// Thresholds. Of all memory: 10% warns (an idle 6.x host holds well under 1%: this machine
// 31 MB of 24 GB), 25% is critical. Of lowmem on a 32-bit HighMem kernel: 25% warns, 50% is
// critical — slab shares lowmem with socket buffers and page tables. Growth: at least 3
// samples over 60 s or more, never falling, +10% and at least 16 MiB.
const (
	sunreclaimWarnShare     = 0.10
	sunreclaimCritShare     = 0.25
	sunreclaimLowWarnShare  = 0.25
	sunreclaimLowCritShare  = 0.50
	sunreclaimGrowthMinKB   = 16 << 10
	sunreclaimGrowthMinFrac = 0.10
	sunreclaimGrowthMinSec  = 60
	// sunreclaimAbsWarnKB: SUnreclaim this large is a leak or a runaway table on any host,
	// judged when the input gives no memory size: 16 GiB is the TCP and socket-inode slab
	// objects of 5.2 million sockets (2368 + 832 bytes each, /proc/slabinfo on 6.18).
	sunreclaimAbsWarnKB = 16 << 20
	// sunreclaimBootKB: no share judges SUnreclaim at or below what a booted kernel holds of
	// its own whatever the memory: Debian 6.1 with a busybox userspace holds 6.8 MB
	// (amd64) and 3.5 MB (686-pae) at 96, 128 and 256 MiB alike (measured in the lab's
	// guests), so on a 28 MiB router a kernel's own 3.5 MiB is 12% and says nothing.
	sunreclaimBootKB = 8 << 10
	// fix67j: readings without times (a reproducer's meminfo "before" and "after", g283's
	// 6503 and 6516) say nothing of a rate, but a jump of unreclaimable slab to twice its
	// size or more, by at least sunreclaimJumpMinKB, that stays (the last reading holds at
	// least sunreclaimJumpKeep of the peak), is kernel memory that was not given back: what a
	// steady series shows, between two readings. 512 MiB is more than a busy host's socket
	// and conntrack objects change between two looks (a million conntrack entries hold about
	// 320 MB).
	sunreclaimJumpRatio = 2.0
	sunreclaimJumpMinKB = 512 << 10
	sunreclaimJumpKeep  = 0.9
)

func checkSlabUnreclaimable(tl *model.Timeline) Result {
	type point struct {
		kb  int64
		idx int
	}
	if parts := slabMachines(tl); parts != nil {
		rs := make([]Result, len(parts))
		for i, p := range parts {
			rs[i] = checkSlabUnreclaimable(p)
		}
		return slabWorst(rs)
	}
	var pts []point
	lastDerived := false
	for i := range tl.Samples {
		if tl.Samples[i].MemInfo == nil {
			continue
		}
		if v, derived, ok := kernel.MemInfoSUnreclaimKB(*tl.Samples[i].MemInfo); ok {
			pts = append(pts, point{v, i})
			lastDerived = derived
		}
	}
	total, totalSrc, haveTotal := memTotalKB(tl)
	low, lowSrc, haveLow := memLowmemKB(tl)
	highmem := haveLow && !memIs64Bit(tl) && (tl.Host.HighMem == nil || *tl.Host.HighMem)

	if len(pts) < 3 {
		// A growth the author states says more than one or two readings ("SUnreclaim grew
		// from 1.2 GB to 3.5 GB in 6 hours" is also read as one stated SUnreclaim).
		if r, ok := slabStatedGrowth(tl); ok && len(r.Findings) > 0 {
			return r
		}
	}
	if len(pts) == 0 {
		return slabFromDump(tl, low, lowSrc, highmem)
	}
	last := pts[len(pts)-1]
	src := memSampleWhere(tl, last.idx, "/proc/meminfo")
	what := "SUnreclaim"
	if lastDerived {
		what = "SUnreclaim (Slab − SReclaimable: the dump prints no SUnreclaim line)"
	}
	ev := []Evidence{{What: what, Value: memKB(last.kb), Source: src}}
	sev, fired := Info, false
	raise := func(s Severity) {
		fired = true
		sev = max(sev, s)
	}
	basis, basisName, basisSrc := total, "MemTotal", totalSrc
	warn, crit := sunreclaimWarnShare, sunreclaimCritShare
	if highmem {
		basis, basisName, basisSrc = low, "lowmem", lowSrc
		warn, crit = sunreclaimLowWarnShare, sunreclaimLowCritShare
	}
	share := -1.0
	if (haveTotal || highmem) && basis > 0 {
		share = float64(last.kb) / float64(basis)
		ev = append(ev, Evidence{What: "SUnreclaim share of " + basisName, Value: fmt.Sprintf("%.1f%% of %s", 100*share, memKB(basis)), Source: basisSrc})
		switch {
		case last.kb <= sunreclaimBootKB:
			ev = append(ev, Evidence{What: "SUnreclaim against a kernel's own", Value: fmt.Sprintf("%s is within the %s a booted kernel holds at any memory size: its share of a small memory is no growth", memKB(last.kb), memKB(sunreclaimBootKB)), Source: src})
		case share >= crit:
			raise(Critical)
		case share >= warn:
			raise(Warning)
		}
	}
	grew := false
	if len(pts) >= 3 {
		first := pts[0]
		a, b := &tl.Samples[first.idx], &tl.Samples[last.idx]
		secs := 0.0
		if !a.Time.IsZero() && !b.Time.IsZero() {
			secs = b.Time.Sub(a.Time).Seconds()
		}
		monotone := true
		for i := 1; i < len(pts); i++ {
			if pts[i].kb < pts[i-1].kb {
				monotone = false
			}
		}
		d := last.kb - first.kb
		if monotone && secs >= sunreclaimGrowthMinSec && d >= sunreclaimGrowthMinKB && float64(d) >= sunreclaimGrowthMinFrac*float64(first.kb) {
			grew = true
			raise(Warning)
			ev = append(ev, Evidence{What: "SUnreclaim growth", Value: fmt.Sprintf("%s → %s (+%s) over %.0f s, never falling (%.1f MiB/h)",
				memKB(first.kb), memKB(last.kb), memKB(d), secs, float64(d)/1024/secs*3600), Source: memSampleWhere(tl, first.idx, "/proc/meminfo") + " to " + src})
		}
	}
	if !grew && len(pts) >= 2 {
		first := pts[0]
		peak := first
		for _, p := range pts[1:] {
			if p.kb > peak.kb {
				peak = p
			}
		}
		timed := !tl.Samples[first.idx].Time.IsZero() && !tl.Samples[last.idx].Time.IsZero()
		if d := peak.kb - first.kb; !timed && d >= sunreclaimJumpMinKB && float64(peak.kb) >= sunreclaimJumpRatio*float64(first.kb) &&
			float64(last.kb) >= sunreclaimJumpKeep*float64(peak.kb) {
			grew = true
			raise(Warning)
			ev = append(ev, Evidence{What: "SUnreclaim growth between readings", Value: fmt.Sprintf("%s → %s (+%s, %.1f×), still %s at the last of %d readings; their times are not in the input, so no rate",
				memKB(first.kb), memKB(peak.kb), memKB(d), float64(peak.kb)/float64(first.kb), memKB(last.kb), len(pts)), Source: memSampleWhere(tl, first.idx, "/proc/meminfo") + " to " + src})
		}
	}
	switch {
	case grew && share < 0 && last.kb < slabTableKmallocMinKB:
		// The growth between the readings is the finding; the size alone says nothing.
	case share < 0 && len(pts) < 3 && last.kb < sunreclaimAbsWarnKB:
		if last.kb < slabTableKmallocMinKB {
			return NotChecked("SUnreclaim %s but neither the memory size nor a series to judge it against", memKB(last.kb))
		}
		// No memory size, and less than no workload explains: named (info), as a slab
		// table's kmalloc caches of that size are, rather than left unchecked (corpus 580:
		// 12.8 GiB quoted by a health check that took the node offline for it).
		raise(Info)
		ev = append(ev, Evidence{What: "SUnreclaim without the memory size", Value: fmt.Sprintf("%s ≥ %s: the memory size is not in the input, so its share (warning at %.0f%% of MemTotal) is not known", memKB(last.kb), memKB(slabTableKmallocMinKB), 100*sunreclaimWarnShare), Source: src})
	case share < 0 && len(pts) < 3:
		// No memory size to share it by, but a size no workload explains (corpus 470: 41 GiB
		// after 100 days).
		raise(Warning)
		ev = append(ev, Evidence{What: "SUnreclaim without the memory size", Value: fmt.Sprintf("%s ≥ %s: the kernel objects of more than five million open TCP sockets (slab TCP 2368 B + sock_inode_cache 832 B each on 6.18); the memory size is not in the input, so its share is not known", memKB(last.kb), memKB(sunreclaimAbsWarnKB)), Source: src})
	}
	if !fired {
		msg := fmt.Sprintf("SUnreclaim %s", memKB(last.kb))
		if share >= 0 {
			msg += fmt.Sprintf(" = %.1f%% of %s (warning at %.0f%%)", 100*share, basisName, 100*warn)
		}
		if len(pts) >= 3 {
			msg += "; not growing steadily over the samples"
		}
		return Healthy("%s", msg)
	}
	f := Finding{
		Severity: sev,
		Title:    "unreclaimable kernel memory (SUnreclaim) is large",
		Evidence: ev,
		Explanation: "Unreclaimable slab is kernel objects that reclaim cannot free: sockets, skb heads, conntrack entries, " +
			"kmalloc buffers, and leaks. It shrinks the memory kswapd can make free for atomic receive allocations" +
			map[bool]string{true: ", and on this 32-bit kernel it comes out of lowmem, the same memory socket buffers need.", false: "."}[highmem] +
			" Find the cache with `slabtop -s c` or /proc/slabinfo; a network cache growing with connections points at socket " +
			"buffers or conntrack (net.netfilter.nf_conntrack_max), a cache growing on an idle host at a leak (kmemleak).",
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "the growing slab cache",
			Recommended: "identify it (slabtop -s c) and bound its owner: connection limits, conntrack size, socket buffer budget (`headroom plan`), or a kernel fix for a leak",
			Why:         "no sysctl reclaims unreclaimable slab; only its owner can stop allocating"}},
	}
	if grew {
		f.Title = "unreclaimable kernel memory (SUnreclaim) keeps growing"
	}
	if share >= 0 {
		f.Facts.Memory, f.Facts.Share = MemoryAll, share
		if highmem {
			f.Facts.Memory = MemoryLowmem
		}
	}
	return Fired(f)
}

// slabFromDump reads slab from an allocation-failure report's memory line when no meminfo
// series exists: "slab_unreclaimable:N" (pages, 2.6.19+) or, before the split, "slab:N"
// (reclaimable and unreclaimable together).
func slabFromDump(tl *model.Timeline, low int64, lowSrc string, highmem bool) Result {
	psz, psKnown := pageSize(tl)
	for _, d := range slabDumps(tl) {
		e, af := d.e, d.af
		name, combined, where := "slab_unreclaimable", false, d.where
		var pages int64
		ok := false
		if af.MemInfo != nil {
			pages, ok = af.MemInfo.Get(name)
			if !ok {
				if pages, ok = af.MemInfo.Get("slab"); ok {
					name, combined = "slab", true
				}
			}
		}
		if !ok {
			// Only the zone lines survived (no Mem-Info line): 2.6.32+ prints each
			// zone's slab_unreclaimable in kB; their sum is the report's figure.
			if kb, zok := zonesSlabUnreclaimableKB(af.Zones); zok {
				pages, ok, where = kb*1024/psz, true, "the report's zone lines (summed)"
			}
		}
		if !ok {
			continue
		}
		slabKB := pages * psz / 1024
		if !highmem && !memAllocHighMem(af) {
			total, _, ok := memTotalKB(tl)
			if !ok && d.presentKB > 0 && d.presentKB >= memInfoFloorKB(af.MemInfo, psz) {
				total, ok = d.presentKB, true
			}
			if !ok || total <= 0 {
				if f, fired := slabDumpAbsolute(name, pages, slabKB, psKnown, combined, where, d.at, memEventSource(e)); fired {
					return Fired(f)
				}
				return NotChecked("%s %s in the report at %s but the memory size is unknown", name, memKB(slabKB), memEventSource(e))
			}
			share := float64(slabKB) / float64(total)
			if share < sunreclaimWarnShare || slabKB <= sunreclaimBootKB {
				return Healthy("%s %s = %.1f%% of memory at %s (%s)", name, memKB(slabKB), 100*share, d.at, memEventSource(e))
			}
			sev, title := Warning, "unreclaimable slab was large at "+d.at
			expl := "Unreclaimable slab narrows the memory reclaim can free for the receive path's atomic allocations."
			facts := Facts{Memory: MemoryAll, Share: share}
			if combined {
				// Before 2.6.19 the report's one "slab:" figure holds the reclaimable caches
				// too: an upper bound of the unreclaimable part, so it is named, not weighed,
				// and it carries no share to make it the failure's cause (fix57b: it was
				// called healthy at any share).
				sev, title, facts = Info, fmt.Sprintf("slab held %.0f%% of memory at %s", 100*share, d.at), Facts{}
				expl += " This kernel prints reclaimable and unreclaimable slab as one figure (the split came in 2.6.19), so the unreclaimable part is at most this: dentry and inode caches are reclaimable and are in it."
			}
			return Fired(Finding{Severity: sev, Title: title,
				Evidence:    []Evidence{{What: name + " in " + where, Value: fmt.Sprintf("%d pages = %s, %.1f%% of memory", pages, memKB(slabKB), 100*share), Source: memEventSource(e)}},
				Explanation: expl,
				Facts:       facts})
		}
		if low <= 0 {
			return NotChecked("%s %s in the report at %s but the lowmem size is unknown", name, memKB(slabKB), memEventSource(e))
		}
		share := float64(slabKB) / float64(low)
		ev := []Evidence{
			{What: name + " in " + where, Value: fmt.Sprintf("%d pages = %s", pages, memKB(slabKB)), Source: memEventSource(e)},
			{What: "share of lowmem", Value: fmt.Sprintf("%.0f%% of %s", 100*share, memKB(low)), Source: lowSrc},
		}
		if share < sunreclaimLowWarnShare {
			return Healthy("%s %s = %.0f%% of lowmem at %s (%s)", name, memKB(slabKB), 100*share, d.at, memEventSource(e))
		}
		sev := Warning
		if share >= sunreclaimLowCritShare {
			sev = Critical
		}
		expl := "All slab lives in lowmem on a 32-bit HighMem kernel, beside socket buffers and page tables."
		if combined {
			// Before 2.6.19 the memory line has one slab figure: dentries and inodes of the
			// page cache in HighMem are in it and are reclaimable, so this is an upper bound.
			sev = Info
			expl += " This kernel prints reclaimable and unreclaimable slab as one figure (the split came in 2.6.19), so the unreclaimable part is at most this: dentry and inode caches for the page cache held in HighMem are reclaimable and are in it."
		}
		return Fired(Finding{Severity: sev, Title: fmt.Sprintf("slab held %.0f%% of lowmem at %s", 100*share, d.at), Evidence: ev, Explanation: expl,
			Changes: []model.Change{{Kind: model.ChangeOther, Key: "lowmem consumers", Recommended: "a 64-bit kernel; meanwhile bound socket buffers and caches that live in lowmem",
				Why: "lowmem cannot grow on a 32-bit kernel; only its consumers can shrink"}},
			Facts: Facts{Memory: MemoryLowmem, Share: share}})
	}
	// A kernel before 2.6.19 prints one "Slab:" line in /proc/meminfo. On a 32-bit HighMem
	// kernel all of it is in lowmem, so its share of LowTotal bounds the unreclaimable part.
	if s := tl.LastWith(func(s *model.Sample) bool { _, ok := s.Mem("Slab"); return ok }); s != nil && highmem && low > 0 {
		slabKB, _ := s.Mem("Slab")
		share := float64(slabKB) / float64(low)
		src := sampleSource(s, "/proc/meminfo")
		if share < sunreclaimLowWarnShare {
			return Healthy("Slab %s = %.0f%% of lowmem (%s; no SUnreclaim line on this kernel)", memKB(slabKB), 100*share, src)
		}
		return Fired(Finding{Severity: Info, Title: fmt.Sprintf("slab holds %.0f%% of lowmem (reclaimable and unreclaimable together)", 100*share),
			Evidence: []Evidence{
				{What: "Slab (this kernel prints no SUnreclaim)", Value: memKB(slabKB), Source: src},
				{What: "share of lowmem", Value: fmt.Sprintf("%.0f%% of %s", 100*share, memKB(low)), Source: lowSrc},
			},
			Explanation: "All slab lives in lowmem on a 32-bit HighMem kernel, beside socket buffers and page tables. Before 2.6.19 /proc/meminfo has one Slab figure; its reclaimable part (dentries and inodes) is in it, so the unreclaimable part is at most this. `slabtop` or /proc/slabinfo tells which caches hold it.",
			Changes: []model.Change{{Kind: model.ChangeOther, Key: "lowmem consumers", Recommended: "a 64-bit kernel; meanwhile find the caches in /proc/slabinfo and bound what fills them",
				Why: "lowmem cannot grow on a 32-bit kernel; only its consumers can shrink"}},
			Facts: Facts{Memory: MemoryLowmem, Share: share}})
	}
	if r, ok := slabFromZones(tl, low, lowSrc, highmem); ok {
		return r
	}
	if r, ok := slabFromTables(tl); ok {
		return r
	}
	if r, ok := slabStatedGrowth(tl); ok {
		return r
	}
	return NotChecked("no SUnreclaim in /proc/meminfo samples, no slab figure in an allocation-failure report, and no slabtop or /proc/slabinfo table")
}

// kmallocCache reports whether a cache is one of kmalloc's general caches that reclaim cannot
// shrink: "kmalloc-512", "kmalloc-cg-256" (4.x+ memcg-accounted), "dma-kmalloc-1k", SLAB's
// "size-1024". kmalloc-rcl-* (4.20+, __GFP_RECLAIMABLE) are left out: they are reclaimable.
func kmallocCache(name string) bool {
	for _, p := range []string{"kmalloc-cg-", "dma-kmalloc-", "kmalloc-", "size-"} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			rest = strings.TrimSuffix(strings.TrimSuffix(rest, "(DMA)"), "k")
			return rest != "" && kernel.IsDigits(rest)
		}
	}
	return false
}

// slabTableUnreclaimable reports whether a table's cache counts toward the unreclaimable
// slab: kmalloc's general caches, and the slab allocator's own bookkeeping caches
// (kernel.SlabAllocatorCache: kmem_cache, kmem_cache_node), which no shrinker frees and which
// grow by one object per cache created (a per-memcg cache leak: 3.6 million kmem_cache
// objects, corpus 892). Other unreclaimable caches (task_struct, cred_jar, a module's) are
// left out: their size follows the workload, not a leak, and kmalloc stays the lower bound.
func slabTableUnreclaimable(name string) bool {
	return kmallocCache(name) || kernel.SlabAllocatorCache(name)
}

// slabTableKmallocMinKB: with no memory size to judge a share against, kmalloc caches this
// large are named (info) rather than left unchecked: 1 GiB of kmalloc objects is a leak on most
// hosts that paste slabtop, and says nothing on a large server, so it is never more than info.
const slabTableKmallocMinKB = 1 << 20

// A table in which one unreclaimable cache holds at least slabDominantMinKB and ten times
// all the other caches of a table of at least slabDominantMinRows together: a healthy
// host's slab is spread over dentries, inodes and kmalloc, so one cache that outweighs them
// all, which no shrinker frees (kernel.SlabReclaimable), is growing without bound, whatever
// the memory size (corpus 448: nDPI's ndpi_ctinfo, 4.1 million objects, 696 MiB, the other
// eleven caches 5 MiB).
const (
	slabDominantMinKB   = 256 << 10
	slabDominantMinRows = 5
	slabDominantFactor  = 10
)

func slabDominantCache(t model.SlabTable) (Finding, bool) {
	if len(t.Caches) < slabDominantMinRows {
		return Finding{}, false
	}
	var top model.SlabCache
	var all int64
	for _, c := range t.Caches {
		all += c.SizeKB
		if c.SizeKB > top.SizeKB {
			top = c
		}
	}
	rest := all - top.SizeKB
	if top.SizeKB < slabDominantMinKB || top.SizeKB < slabDominantFactor*rest || kernel.SlabReclaimable(top.Name) {
		return Finding{}, false
	}
	return Finding{Severity: Warning,
		Title: fmt.Sprintf("slab cache %s holds %s, %d× all the other caches of the table: unreclaimable memory growing without bound", top.Name, memKB(top.SizeKB), top.SizeKB/max(rest, 1)),
		Evidence: []Evidence{
			{What: "cache " + top.Name + " (" + t.Tool + ")", Value: fmt.Sprintf("%s in %d objects", memKB(top.SizeKB), top.Objs), Source: t.Source},
			{What: "the other caches of the table", Value: fmt.Sprintf("%s in %d caches", memKB(rest), len(t.Caches)-1), Source: t.Source},
			{What: "reclaimable", Value: "no: not a cache created with SLAB_RECLAIM_ACCOUNT (dentries, inodes, buffer heads), so no shrinker frees it", Source: "kernel.SlabReclaimable", Role: Background},
		},
		Explanation: "A cache that is not reclaimable is freed only by the code that allocates from it. When one such cache " +
			"outweighs the dentry, inode and kmalloc caches together, its owner keeps objects it no longer needs (a module " +
			"tracking flows that are gone, a driver's per-packet state): the memory is lost to the page allocator until the " +
			"module is unloaded or fixed. Its objects per slab and the owner's own counters (conntrack entries for a " +
			"per-connection cache) show the gap.",
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "the cache's owner", Recommended: "find the module or subsystem that creates the cache (its name; /sys/kernel/slab/<cache>/alloc_calls with slub_debug=U) and update, reconfigure or unload it",
			Why: "no sysctl frees an unreclaimable cache"}},
		Facts: Facts{SlabOwner: slabOwner([]model.SlabCache{top}, top.SizeKB+rest)},
	}, true
}

// slabTableBulk: without the memory size, the caches of a table that no shrinker frees
// (not created with SLAB_RECLAIM_ACCOUNT: kernel.SlabReclaimable) holding sunreclaimAbsWarnKB
// together are judged as SUnreclaim of that size is: a warning on any host (fix62c; corpus
// 5199: a ZFS server's dnode, znode, dmu_buf and ARC-header caches, ~58 GiB). Module caches
// with a shrinker of their own (ZFS's ARC) still count: the kernel accounts them as
// SUnreclaim, and only their owner gives them back.
func slabTableBulk(t model.SlabTable) (Finding, bool) {
	var kb int64
	var top []model.SlabCache
	for _, c := range t.Caches {
		if !kernel.SlabReclaimable(c.Name) {
			kb += c.SizeKB
			top = append(top, c)
		}
	}
	if kb < sunreclaimAbsWarnKB {
		return Finding{}, false
	}
	slices.SortFunc(top, func(a, b model.SlabCache) int { return cmp.Compare(b.SizeKB, a.SizeKB) })
	var names []string
	for _, c := range top[:min(len(top), 4)] {
		names = append(names, c.Name+" "+memKB(c.SizeKB))
	}
	var changes []model.Change
	if owner := slabOwner(top, kb); owner != "" {
		changes = []model.Change{{Kind: model.ChangeOther, Key: "the owner of " + owner, Recommended: "find the module or subsystem that creates " + owner + " (/sys/kernel/slab/" + owner + "/alloc_calls with slub_debug=U) and update, reconfigure or unload it",
			Why: "one cache holds most of it, and no sysctl frees an unreclaimable cache"}}
	}
	return Finding{Severity: Warning,
		Changes: changes,
		Title:   fmt.Sprintf("unreclaimable slab caches hold %s (memory size unknown)", memKB(kb)),
		Evidence: []Evidence{{What: "caches not created reclaimable, in the " + t.Tool + " table", Value: fmt.Sprintf("%s in %d caches: %s", memKB(kb), len(top), strings.Join(names, ", ")), Source: t.Source},
			{What: "threshold without a memory size", Value: memKB(sunreclaimAbsWarnKB) + " (the TCP and socket-inode objects of 5.2 million sockets)", Source: "headroom", Role: Background}},
		Explanation: "Caches created without SLAB_RECLAIM_ACCOUNT are counted as SUnreclaim: kswapd cannot shrink them, " +
			"only the code that owns them (a filesystem's own cache shrinker, a module freeing its objects). This much " +
			"kernel memory is more than any workload's sockets and buffers, and narrows what reclaim can make free for " +
			"atomic allocations. The owner's own limits (a filesystem's metadata cache size) bound it.",
		Facts: Facts{Memory: MemoryAll, UnreclaimableKB: kb, SlabOwner: slabOwner(top, kb)}}, true
}

// slabOwner names the cache of caches (largest first) that holds more than half of total
// kB when the network stack does not allocate from it (isNetworkCache), else "".
func slabOwner(caches []model.SlabCache, total int64) string {
	if len(caches) == 0 || 2*caches[0].SizeKB <= total {
		return ""
	}
	if net, maybe := isNetworkCache(caches[0].Name); net || maybe {
		return ""
	}
	return caches[0].Name
}

// slabFromTables reads a slabtop or /proc/slabinfo table: the kmalloc caches are memory reclaim
// cannot free (their sum is a lower bound of SUnreclaim: other caches may be unreclaimable
// too, and neither tool says which).
func slabFromTables(tl *model.Timeline) (Result, bool) {
	if len(tl.SlabTables) == 0 {
		return Result{}, false
	}
	t := tl.SlabTables[len(tl.SlabTables)-1]
	var kmallocKB int64
	var top []model.SlabCache
	for _, c := range t.Caches {
		if t.Unreclaimable || slabTableUnreclaimable(c.Name) {
			kmallocKB += c.SizeKB
			top = append(top, c)
		}
	}
	what := "kmalloc and slab-allocator caches"
	if t.Unreclaimable {
		what = "caches no shrinker frees"
	}
	slices.SortFunc(top, func(a, b model.SlabCache) int { return cmp.Compare(b.SizeKB, a.SizeKB) })
	var names []string
	for _, c := range top[:min(len(top), 4)] {
		if c.Objs == 0 { // a table without object counts (an OOM report's Unreclaimable slab info)
			names = append(names, c.Name+" "+memKB(c.SizeKB))
			continue
		}
		names = append(names, fmt.Sprintf("%s %s (%d objects)", c.Name, memKB(c.SizeKB), c.Objs))
	}
	ev := []Evidence{{What: what + " in the " + t.Tool + " table (unreclaimable)", Value: memKB(kmallocKB) + ": " + strings.Join(names, ", "), Source: t.Source}}
	expl := "kmalloc's general caches hold objects the kernel allocated for itself (driver buffers, socket structures, " +
		"per-connection state); reclaim cannot free them, only the code that allocated them. Several kmalloc caches with the " +
		"same object count growing together are one structure set leaking per event. kmemleak, or the allocation sites in " +
		"/sys/kernel/slab/<cache>/alloc_calls (slub_debug=U), name the caller."
	total, totalSrc, haveTotal := memTotalKB(tl)
	if f, ok := routeCacheLeak(tl); ok {
		return Fired(f), true
	}
	grow, grew := slabSeriesGrowth(t)
	if !haveTotal || total <= 0 {
		if f, ok := slabTableBulk(t); ok {
			return Fired(f), true
		}
		if grew && kmallocKB < slabTableKmallocMinKB {
			return Fired(grow), true
		}
		if f, ok := slabDominantCache(t); ok && kmallocKB < slabTableKmallocMinKB {
			return Fired(f), true
		}
		if kmallocKB < slabTableKmallocMinKB {
			return NotChecked("%s hold %s in the %s table (%s), but the memory size is unknown", what, memKB(kmallocKB), t.Tool, t.Source), true
		}
		return Fired(Finding{Severity: Info, Title: fmt.Sprintf("%s hold %s of unreclaimable kernel memory (memory size unknown)", what, memKB(kmallocKB)),
			Evidence: ev, Explanation: expl + " The paste gives no memory size, so the share is not judged."}), true
	}
	share := float64(kmallocKB) / float64(total)
	if share < sunreclaimWarnShare && grew {
		return Fired(grow), true
	}
	if share < sunreclaimWarnShare {
		return Healthy("%s hold %s, %.1f%% of memory (%s table)", what, memKB(kmallocKB), 100*share, t.Tool), true
	}
	if grew {
		ev = append(ev, grow.Evidence[0])
	}
	sev := Warning
	if share >= sunreclaimCritShare {
		sev = Critical
	}
	ev = append(ev, Evidence{What: "share of memory", Value: fmt.Sprintf("at least %.0f%% of %s", 100*share, memKB(total)), Source: totalSrc})
	return Fired(Finding{Severity: sev, Title: fmt.Sprintf("%s hold at least %.0f%% of memory (unreclaimable slab)", what, 100*share),
		Evidence: ev, Explanation: expl, Facts: Facts{Memory: MemoryAll, Share: share}}), true
}

// slabSeriesGrowth: an unreclaimable cache read in several /proc/slabinfo dumps pasted as one
// table (model.SlabSeries) whose memory in use rises by the rule's growth bar (at least 16 MiB
// and +10%) over at least three readings, never falling in the order printed. The dumps' times
// are not in the text, so no rate is claimed; the readings' order is the paste's (a writer's
// `sort` puts them in rising order too), which is why it is not called a leak by itself. A
// single snapshot never passes here: its bar stays the share of memory (slabFromTables).
func slabSeriesGrowth(t model.SlabTable) (Finding, bool) {
	var best model.SlabSeries
	var bestD int64
	for _, s := range t.Series {
		n := len(s.ActiveKB)
		if n < 3 || !slabTableUnreclaimable(s.Name) {
			continue
		}
		rising := true
		for i := 1; i < n; i++ {
			if s.ActiveKB[i] < s.ActiveKB[i-1] {
				rising = false
			}
		}
		d := s.ActiveKB[n-1] - s.ActiveKB[0]
		if rising && d >= sunreclaimGrowthMinKB && float64(d) >= sunreclaimGrowthMinFrac*float64(s.ActiveKB[0]) && d > bestD {
			best, bestD = s, d
		}
	}
	if bestD == 0 {
		return Finding{}, false
	}
	n := len(best.ActiveKB)
	return Finding{Severity: Warning,
		Title: fmt.Sprintf("unreclaimable slab cache %s grew from %s to %s across %d slabinfo readings", best.Name, memKB(best.ActiveKB[0]), memKB(best.ActiveKB[n-1]), n),
		Evidence: []Evidence{{What: "cache " + best.Name + " in use (active_objs × objsize), readings of several /proc/slabinfo dumps in one table",
			Value:  fmt.Sprintf("%d → %d objects, %s → %s (+%s) over %d readings, never falling in the order printed; the dumps' times are not in the text", best.ActiveObjs[0], best.ActiveObjs[n-1], memKB(best.ActiveKB[0]), memKB(best.ActiveKB[n-1]), memKB(bestD), n),
			Source: t.Source}},
		Explanation: "The same kmalloc cache printed by several /proc/slabinfo dumps holds more objects in each: kmalloc's " +
			"general caches hold objects the kernel allocated for itself (driver buffers, per-station or per-connection state), " +
			"which reclaim cannot free, only the code that allocated them. A cache that keeps growing while the load does not " +
			"is a leak; kmemleak, or the allocation sites in /sys/kernel/slab/<cache>/alloc_calls (slub_debug=U), name the caller.",
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "the growing slab cache",
			Recommended: "find its allocation sites (slub_debug=U, /sys/kernel/slab/<cache>/alloc_calls, or kmemleak) and bound or fix their owner",
			Why:         "no sysctl reclaims unreclaimable slab; only its owner can stop allocating"}},
	}, true
}

// zonesSlabUnreclaimableKB sums the zone lines' "slab_unreclaimable:NkB" (show_free_areas,
// 2.6.32+); false when no zone printed it.
func zonesSlabUnreclaimableKB(zs []model.ZoneReport) (int64, bool) {
	var sum int64
	found := false
	for _, z := range zs {
		if z.Fields == nil {
			continue
		}
		if v, ok := z.Fields.Get("slab_unreclaimable_kb"); ok {
			sum += v
			found = true
		}
	}
	return sum, found
}

// slabFromZones judges the zones' own unreclaimable slab (nr_slab_unreclaimable, pages: a
// show_mem dump's zone lines without their report's Mem-Info line, or /proc/zoneinfo before
// 4.13) when nothing else gives a slab figure: their sum against lowmem on a 32-bit HighMem
// kernel, else against the memory size.
func slabFromZones(tl *model.Timeline, low int64, lowSrc string, highmem bool) (Result, bool) {
	s := tl.LastWith(func(s *model.Sample) bool {
		for _, z := range s.Zones {
			if _, ok := z.Fields.Get("nr_slab_unreclaimable"); ok {
				return true
			}
		}
		return false
	})
	if s == nil {
		return Result{}, false
	}
	psz, _ := pageSize(tl)
	var pages int64
	for _, z := range s.Zones {
		v, _ := z.Fields.Get("nr_slab_unreclaimable")
		pages += v
	}
	slabKB, src := pages*psz/1024, sampleSource(s, "/proc/zoneinfo")
	basis, basisName, basisSrc := low, "lowmem", lowSrc
	warn, crit := sunreclaimLowWarnShare, sunreclaimLowCritShare
	mem := MemoryLowmem
	if !highmem {
		basis, basisSrc, _ = memTotalKB(tl)
		basisName, warn, crit, mem = "memory", sunreclaimWarnShare, sunreclaimCritShare, MemoryAll
	}
	if basis <= 0 {
		return NotChecked("the zones' slab_unreclaimable %s (%s) but the %s size is unknown", memKB(slabKB), src, basisName), true
	}
	share := float64(slabKB) / float64(basis)
	if share < warn {
		return Healthy("the zones' slab_unreclaimable %s = %.0f%% of %s (%s)", memKB(slabKB), 100*share, basisName, src), true
	}
	sev := Warning
	if share >= crit {
		sev = Critical
	}
	return Fired(Finding{Severity: sev, Title: fmt.Sprintf("unreclaimable slab held %.0f%% of %s", 100*share, basisName),
		Evidence: []Evidence{
			{What: "slab_unreclaimable summed over the zones", Value: fmt.Sprintf("%d pages = %s", pages, memKB(slabKB)), Source: src},
			{What: "share of " + basisName, Value: fmt.Sprintf("%.0f%% of %s", 100*share, memKB(basis)), Source: basisSrc},
		},
		Explanation: "Unreclaimable slab is kernel objects reclaim cannot free (sockets, skb heads, conntrack entries, kmalloc buffers, leaks)" +
			map[bool]string{true: "; on a 32-bit HighMem kernel all of it lives in lowmem, beside socket buffers and page tables.", false: "."}[highmem] +
			" `slabtop -s c` or /proc/slabinfo names the cache.",
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "the growing slab cache",
			Recommended: "identify it (slabtop -s c) and bound its owner; on a 32-bit kernel, a 64-bit kernel",
			Why:         "no sysctl reclaims unreclaimable slab; only its owner can stop allocating"}},
		Facts: Facts{Memory: mem, Share: share}}), true
}

// The IPv4 route cache (before 3.6) frees a dst entry when its last reference drops
// (dst_release, net/core/dst.c); entries the cache no longer lists but something still
// holds stay in ip_dst_cache, which no shrinker frees. routeCacheLeakFactor: the slab's
// objects this many times the entries the cache lists are entries held beyond the cache
// (a healthy router's ip_dst_cache is about its route cache plus the GC's backlog, corpus
// 1967: 153870 objects, 2159 and 2247 entries); at least sunreclaimGrowthMinKB of them.
const routeCacheLeakFactor = 10

// routeCacheLeak: an ip_dst_cache slab row and a count of the route cache's entries
// (model.RouteCacheCount) of the same text, the objects at least routeCacheLeakFactor times
// the largest count.
func routeCacheLeak(tl *model.Timeline) (Finding, bool) {
	if len(tl.RouteCacheCounts) == 0 {
		return Finding{}, false
	}
	var dst model.SlabCache
	var src string
	for _, t := range tl.SlabTables {
		for _, c := range t.Caches {
			if c.Name == "ip_dst_cache" {
				dst, src = c, t.Source
			}
		}
	}
	rc := tl.RouteCacheCounts[0]
	for _, c := range tl.RouteCacheCounts[1:] {
		if c.Entries > rc.Entries {
			rc = c
		}
	}
	if dst.Objs == 0 || dst.SizeKB < sunreclaimGrowthMinKB || dst.Objs < routeCacheLeakFactor*max(rc.Entries, 1) {
		return Finding{}, false
	}
	return Finding{Severity: Warning,
		Title: fmt.Sprintf("route cache entries held beyond the cache: ip_dst_cache holds %d objects (%s), the route cache lists %d", dst.Objs, memKB(dst.SizeKB), rc.Entries),
		Evidence: []Evidence{
			{What: "slab cache ip_dst_cache (slabinfo)", Value: fmt.Sprintf("%d objects, %s", dst.Objs, memKB(dst.SizeKB)), Source: src},
			{What: "route cache entries (`" + rc.Command + "`)", Value: fmt.Sprintf("%d, %d× fewer", rc.Entries, dst.Objs/max(rc.Entries, 1)), Source: rc.Source},
		},
		Explanation: "The IPv4 route cache (kernels before 3.6) allocates each entry from ip_dst_cache and frees it when its " +
			"last reference drops; the cache's garbage collection only unlinks entries. Objects far beyond the entries the " +
			"cache lists are entries unlinked but still referenced: a reference leak (a driver, netfilter or a tunnel holding " +
			"dsts), memory no shrinker frees, growing until net.ipv4.route.max_size is reached and the kernel logs \"dst cache " +
			"overflow\" and refuses new routes. Raising max_size only postpones it; a flush frees nothing.",
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "the dst reference leak",
			Recommended: "a kernel with the leak fixed (or the module holding the references updated or unloaded); meanwhile watch ip_dst_cache against the route cache",
			Why:         "no sysctl frees referenced dst entries; max_size and gc_thresh only move the point of overflow"}},
	}, true
}

// slabDumpAbsolute judges a dump's unreclaimable slab without the memory size (fix65n) as
// the rule judges SUnreclaim read without it: sunreclaimAbsWarnKB or more is a warning on
// any host, 1 GiB or more is named (info). A page is at least 4 KiB on every Linux
// architecture, so with the page size unknown the pages at 4 KiB are a lower bound, said
// so. Before 2.6.19's split the one "slab:" figure holds the reclaimable caches too: not
// judged here.
func slabDumpAbsolute(name string, pages, slabKB int64, psKnown, combined bool, where, at, src string) (Finding, bool) {
	if combined || slabKB < slabTableKmallocMinKB {
		return Finding{}, false
	}
	size := memKB(slabKB)
	if !psKnown {
		size = "at least " + size + " (4 KiB pages, the smallest any Linux architecture uses)"
	}
	sev, title := Info, fmt.Sprintf("unreclaimable slab held %s at %s (memory size unknown)", memKB(slabKB), at)
	if slabKB >= sunreclaimAbsWarnKB {
		sev = Warning
	}
	return Finding{Severity: sev, Title: title,
		Evidence: []Evidence{{What: name + " in " + where, Value: fmt.Sprintf("%d pages = %s", pages, size), Source: src},
			{What: "thresholds without a memory size", Value: "1 GiB named, " + memKB(sunreclaimAbsWarnKB) + " a warning (the TCP and socket-inode objects of 5.2 million sockets)", Source: "headroom", Role: Background}},
		Explanation: "Unreclaimable slab is kernel memory kswapd cannot free: only the code that allocated it gives it back. " +
			"Without the host's memory size its share is unknown; this much is more than an idle kernel holds, and " +
			"`slabtop -o -s c` or /proc/slabinfo names the caches that hold it.",
		Facts: Facts{Memory: MemoryAll, UnreclaimableKB: slabKB}}, true
}

// memInfoFloorKB is the least memory a Mem-Info line's own counts add up to: the LRU lists,
// slab, page tables and free pages are disjoint, so the memory is at least their sum. A
// dump's zones whose present sizes sum to less printed only some of the zones (a paste cut
// them, or the kernel printed the request's zones only: g260's 5436 shows a 1 TiB host's
// DMA zone), and are no memory size (the share of "memory" was 104% there, 354% in 3483).
func memInfoFloorKB(mi *kernel.Counters, psz int64) int64 {
	if mi == nil {
		return 0
	}
	var pages int64
	for _, k := range []string{"active_anon", "inactive_anon", "active_file", "inactive_file", "unevictable", "slab_reclaimable", "slab_unreclaimable", "pagetables", "free"} {
		if v, ok := mi.Get(k); ok && v > 0 {
			pages += v
		}
	}
	return pages * psz / 1024
}
