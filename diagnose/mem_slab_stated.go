package diagnose

import (
	"fmt"

	"headroom/model"
)

// Slab growth the author states for this host (artifact/statedslabgrowth.go, fix24b), judged
// as a series of SUnreclaim is: a size that grew by at least 16 MiB and 10% over the stated
// time, or that reached its size within it (from boot: the growth is at most the size); a
// leak's rate that adds 16 MiB within a day. With the memory size known, the growth must also
// reach the warning share (10% of MemTotal) within a day: 33 MB within 80 minutes is a leak
// on a 405 MB router and an idle boot on a large server. An object count with no object size
// is judged by count: +10% and at least 100,000 objects (a cache's objects are 32 bytes or
// more, so at least 3 MiB; the route cache's 2.6 rtable is 256 bytes).
const (
	slabStatedMinObjs = 100_000
	slabStatedDaySec  = 86400
)

func slabStatedGrowth(tl *model.Timeline) (Result, bool) {
	s := tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateStatedSlabGrowthSec] > 0 })
	if s == nil {
		return Result{}, false
	}
	r := s.Rates
	secs := r[model.RateStatedSlabGrowthSec]
	src := sampleSource(s, "the text")
	var ev []Evidence
	dayShare := 0.0
	switch {
	case r[model.RateStatedSlabGrowthToObjs] > 0:
		a, b := r[model.RateStatedSlabGrowthFromObjs], r[model.RateStatedSlabGrowthToObjs]
		d := b - a
		if d < slabStatedMinObjs || d < sunreclaimGrowthMinFrac*a {
			return Healthy("stated slab growth %.0f → %.0f objects over %s: below +%d objects and +10%%", a, b, statedDuration(secs), slabStatedMinObjs), true
		}
		ev = append(ev, Evidence{What: "slab cache objects (stated)", Value: fmt.Sprintf("%.0f → %.0f (+%.0f, +%.0f%%) over %s; the object size is not stated", a, b, d, 100*d/max(a, 1), statedDuration(secs)), Source: src})
	default:
		a, b := r[model.RateStatedSlabGrowthFromKB], r[model.RateStatedSlabGrowthToKB]
		d := b - a
		perDay := d / secs * slabStatedDaySec
		what := fmt.Sprintf("%s → %s (+%s) over %s", memKB(int64(a)), memKB(int64(b)), memKB(int64(d)), statedDuration(secs))
		if a == 0 {
			what = fmt.Sprintf("%s over %s (a size reached or a rate: the growth is at most this)", memKB(int64(b)), statedDuration(secs))
		}
		if max(d, perDay) < sunreclaimGrowthMinKB || a > 0 && d < sunreclaimGrowthMinFrac*a {
			return Healthy("stated slab growth %s: below +%s and +10%%", what, memKB(sunreclaimGrowthMinKB)), true
		}
		ev = append(ev, Evidence{What: "unreclaimable slab growth (stated)", Value: fmt.Sprintf("%s, %.1f MiB/day", what, perDay/1024), Source: src})
		if total, totalSrc, ok := memTotalKB(tl); ok && total > 0 {
			if perDay < sunreclaimWarnShare*float64(total) {
				return Healthy("stated slab growth %s = %.1f%% of MemTotal a day (warning at %.0f%% a day)", what, 100*perDay/float64(total), 100*sunreclaimWarnShare), true
			}
			dayShare = perDay / float64(total)
			ev = append(ev, Evidence{What: "growth a day, share of MemTotal", Value: fmt.Sprintf("%.0f%% of %s", 100*perDay/float64(total), memKB(total)), Source: totalSrc})
		}
	}
	f := Finding{Severity: Warning, Title: "unreclaimable kernel memory (slab) keeps growing",
		Evidence: ev,
		Explanation: "The text states that a slab cache or the unreclaimable slab grows on this host. Kernel objects that no shrinker " +
			"frees grow until the host runs out of memory: a steady rise is a leak in whatever allocates them (a driver, a " +
			"protocol cache). Find the cache with `slabtop -s c` or /proc/slabinfo taken twice, then kmemleak or the owner's fix.",
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "the growing slab cache",
			Recommended: "identify it (slabtop -s c, /proc/slabinfo over time) and fix or bound its owner (a driver or kernel update for a leak)",
			Why:         "no sysctl reclaims unreclaimable slab; only its owner can stop allocating"}}}
	if dayShare > 0 {
		f.Facts.Memory, f.Facts.DayGrowthShare = MemoryAll, dayShare
	}
	return Fired(f), true
}

// statedDuration prints a stated time span.
func statedDuration(secs float64) string {
	switch {
	case secs >= 86400 && int64(secs)%86400 == 0:
		return fmt.Sprintf("%.0f d", secs/86400)
	case secs >= 3600:
		return fmt.Sprintf("%.3g h", secs/3600)
	case secs >= 60:
		return fmt.Sprintf("%.3g min", secs/60)
	}
	return fmt.Sprintf("%.0f s", secs)
}
