package diagnose

import (
	"fmt"

	"headroom/model"
	"headroom/units"
)

// zfsARCAtKill cites ZFS's ARC beside a host's OOM kill when the input shows it (arcstats,
// arc_summary; model.ZFSARC). The ARC's buffers are kernel memory outside the LRU lists
// (ABD pages and SPL slabs): the OOM report's Mem-Info counts them in no reclaimable line,
// MemAvailable leaves them out, and the killer cannot free them; the ARC shrinks only through
// its own shrinker and arc_evict, toward c_min, and on a host of VMs it can hold what the
// guests' RAM needs (c_max defaults to half of RAM before OpenZFS 2.3 on Linux, most of it
// since). When it holds a quarter of RAM or more (or over 1 GiB where RAM is not in the
// input) the change is to cap it (zfs_arc_max).
func zfsARCAtKill(tl *model.Timeline, f *Finding) {
	e, large, ok := zfsARCEvidence(tl, "kernel memory the OOM report counts in no reclaimable line and the killer cannot free; the ARC gives it back only through its own eviction, toward c_min")
	if !ok {
		return
	}
	f.Evidence = append(f.Evidence, e)
	if !large {
		return
	}
	a := tl.ZFSARC
	rec := "cap ZFS's ARC below what the host's processes and guests need: options zfs zfs_arc_max=BYTES in /etc/modprobe.d/zfs.conf (update-initramfs -u when the root is on ZFS), or echo BYTES > /sys/module/zfs/parameters/zfs_arc_max at once"
	if a.CMinBytes > 0 {
		rec += fmt.Sprintf("; keep zfs_arc_min (%s) below it", units.FormatBytes(a.CMinBytes))
	}
	f.Changes = append(f.Changes, model.Change{Kind: model.ChangeOther, Key: "zfs_arc_max", Recommended: rec,
		Why: "the ARC held a large share of RAM at the kill and is not reclaimable as page cache is: the VMs' and processes' memory plus the ARC's c_max must fit in RAM"})
}

// zfsARCEvidence is the ARC's figures as one evidence (size, its share of RAM, c_max, c_min,
// memory_available_bytes, arc_no_grow, memory_throttle_count), what the caller says of it
// last; large when it holds a quarter of RAM or more (over 1 GiB where RAM is not in the
// input). ok is false when the input states no ARC size.
func zfsARCEvidence(tl *model.Timeline, tail string) (e Evidence, large, ok bool) {
	a := tl.ZFSARC
	if a == nil || a.SizeBytes <= 0 {
		return Evidence{}, false, false
	}
	ram, ramFrom := a.MemoryAllBytes, "memory_all_bytes"
	if ram <= 0 {
		if kb, _, ok := memTotalKB(tl); ok {
			ram, ramFrom = kb*1024, "MemTotal"
		}
	}
	v := "size " + units.FormatBytes(a.SizeBytes)
	if ram > 0 {
		v += fmt.Sprintf(" (%.0f%% of %s %s)", 100*float64(a.SizeBytes)/float64(ram), ramFrom, units.FormatBytes(ram))
	}
	if a.CMaxBytes > 0 {
		v += ", c_max " + units.FormatBytes(a.CMaxBytes)
	}
	if a.CMinBytes > 0 {
		v += ", c_min " + units.FormatBytes(a.CMinBytes)
	}
	if a.HasAvailable {
		v += ", memory_available_bytes " + fmt.Sprint(a.MemoryAvailableBytes)
		if a.MemoryAvailableBytes < 0 {
			v += " (below zero: the ARC was told to shrink)"
		}
	}
	if a.HasNoGrow && a.NoGrow != 0 {
		v += ", arc_no_grow 1 (memory is short: the ARC may not grow)"
	}
	if a.HasThrottle && a.ThrottleCount > 0 {
		v += fmt.Sprintf(", memory_throttle_count %d (writes held back for want of free memory)", a.ThrottleCount)
	}
	v += ": " + tail
	large = ram > 0 && a.SizeBytes*4 >= ram || ram <= 0 && a.SizeBytes >= 1<<30
	return Evidence{What: "ZFS ARC (" + a.Form + ")", Value: v, Source: a.Source}, large, true
}
