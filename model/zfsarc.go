package model

// ZFSARC is ZFS's adaptive replacement cache as a text shows it: the kstat file
// /proc/spl/kstat/zfs/arcstats (module/os/linux/spl/spl-kstat.c prints each named row as
// "%-31s %-4d " then the value) or arc_summary's "ARC size (current):" block. Figures are
// bytes; 0 is not shown. The ARC's buffers are kernel memory outside the page cache's LRU
// lists (ABD pages, SPL slabs), so MemAvailable and an OOM report's Mem-Info do not count
// them as reclaimable: the ARC gives memory back only through its own shrinker and arc_evict,
// toward c_min, as fast as its eviction runs.
type ZFSARC struct {
	SizeBytes   int64 `json:"size_bytes,omitempty"`   // arcstats size, arc_summary "ARC size (current)"
	TargetBytes int64 `json:"target_bytes,omitempty"` // c, "Target size (adaptive)"
	CMinBytes   int64 `json:"c_min_bytes,omitempty"`  // c_min, "Min size (hard limit)"
	CMaxBytes   int64 `json:"c_max_bytes,omitempty"`  // c_max (zfs_arc_max), "Max size (high water)"
	// MemoryAllBytes is arcstats' memory_all_bytes (the RAM ZFS sizes itself against).
	MemoryAllBytes int64 `json:"memory_all_bytes,omitempty"`
	// MemoryAvailableBytes is arcstats' memory_available_bytes (arc_available_memory: free
	// memory above the ARC's low-water mark; below zero the ARC must shrink), read when
	// HasAvailable.
	MemoryAvailableBytes int64 `json:"memory_available_bytes,omitempty"`
	HasAvailable         bool  `json:"has_available,omitempty"`
	// ThrottleCount is arcstats' memory_throttle_count (arc_memory_throttle: writes held
	// back for want of free memory; arc_summary's "Memory throttle count"), NoGrow its
	// arc_no_grow (1: the ARC may not grow, memory is short), read when HasThrottle, HasNoGrow.
	ThrottleCount int64  `json:"memory_throttle_count,omitempty"`
	HasThrottle   bool   `json:"has_throttle,omitempty"`
	NoGrow        int64  `json:"arc_no_grow,omitempty"`
	HasNoGrow     bool   `json:"has_no_grow,omitempty"`
	Form          string `json:"form"`   // "arcstats", "arc_summary"
	Source        string `json:"source"` // "lines 3-14"
	FirstLine     int    `json:"first_line"`
	LastLine      int    `json:"last_line"`
}
