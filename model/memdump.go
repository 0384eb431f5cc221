package model

import "headroom/kernel"

// MemDump is a show_mem dump (the kernel's "Mem-Info:" block, lib/show_mem.c and
// mm/show_mem.c show_free_areas) that stands alone in a text: no allocation-failure or OOM
// header before it took it as its own. The kernel prints one for a page allocation failure
// (warn_alloc), for a host-wide OOM (dump_header: never for a memory cgroup's, which prints
// the cgroup's counters instead), for SysRq-m and for a few panics; a paste often keeps the
// dump and cuts the header. Its zones are also a zone reading (a Sample); this keeps what
// says whether anything was left to reclaim, for the rule that asks what printed it
// (oom-kill, mem_oom_dump.go).
type MemDump struct {
	Source string `json:"source"`
	// FirstLine and LastLine are the dump's lines in the text (0 when not from a text).
	FirstLine int `json:"first_line,omitempty"`
	LastLine  int `json:"last_line,omitempty"`
	// FileKB is the page cache the dump shows, kB: the Mem-Info line's active_file +
	// inactive_file, else the zones' own, else the footer's "N total pagecache pages";
	// nil when none of them was printed. FileFrom says which.
	FileKB   *int64 `json:"file_kb,omitempty"`
	FileFrom string `json:"file_from,omitempty"`
	// AnonKB is active_anon + inactive_anon as the same source printed them, kB.
	AnonKB *int64 `json:"anon_kb,omitempty"`
	// FreeSwapKB and TotalSwapKB are the footer's "Free swap = NkB" and "Total swap = NkB".
	FreeSwapKB  *int64 `json:"free_swap_kb,omitempty"`
	TotalSwapKB *int64 `json:"total_swap_kb,omitempty"`
	// NodeUnreclaimable: a node line printed "all_unreclaimable? yes" (4.11+:
	// pgdat->kswapd_failures reached MAX_RECLAIM_RETRIES).
	NodeUnreclaimable bool `json:"node_unreclaimable,omitempty"`
	// Zones are the dump's zone lines.
	Zones []ZoneReport `json:"zones,omitempty"`
	// MemInfo is the dump's Mem-Info line's counters (pages: "slab_unreclaimable:N"), nil
	// when the dump has none (fix65n: slab-unreclaimable-growth reads them).
	MemInfo *kernel.Counters `json:"meminfo,omitempty"`
}
