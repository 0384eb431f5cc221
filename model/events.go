package model

import (
	"time"

	"headroom/kernel"
)

// Event kinds.
const (
	EventAllocFailure = "alloc_failure"
	EventOOMKill      = "oom_kill"
	EventSlabFailure  = "slab_failure"
	EventAllocStall   = "alloc_stall"
)

// Event is a structured kernel report found in the log: an allocation failure with its
// show_mem dump, an OOM kill, a SLUB allocation failure.
type Event struct {
	Kind       string    `json:"kind"`
	Time       time.Time `json:"time,omitzero"`
	UptimeUsec int64     `json:"uptime_usec,omitempty"`
	Source     string    `json:"source"` // "lines 12-80", "/dev/kmsg seq 100-140"
	FirstLine  int       `json:"first_line,omitempty"`
	LastLine   int       `json:"last_line,omitempty"`

	AllocFailure *AllocFailure `json:"alloc_failure,omitempty"`
	OOMKill      *OOMKill      `json:"oom_kill,omitempty"`
	SlabFailure  *SlabFailure  `json:"slab_failure,omitempty"`
	AllocStall   *AllocStall   `json:"alloc_stall,omitempty"`
}

// AllocStall is a "page allocation stalls for 10060ms, order:1, mode:0x15080c0(...)"
// warning: mm/page_alloc.c __alloc_pages_slowpath of 4.1x kernels called warn_alloc once a
// request that may reclaim had spent stall_timeout (10 s, then every further 10 s) in the
// slow path, retrying direct reclaim and compaction; later kernels dropped the warning
// ("mm: don't warn about allocations which stall for too long"). The request had not failed
// when this was printed: StallMS is time the task lost to reclaim. Request holds the header,
// task and trace in the form of a failure report.
type AllocStall struct {
	StallMS int64        `json:"stall_ms"`
	Request AllocFailure `json:"request"`
}

// AllocFailure is a "page allocation failure" report (mm/page_alloc.c warn_alloc, formerly
// __alloc_pages' printk) with the show_mem dump that follows it. Field names follow the JSON
// schema of DESIGN.md.
type AllocFailure struct {
	Process   string `json:"process"`
	Order     int    `json:"order"`
	Mode      string `json:"mode"`       // as printed: "0x20", "0x2080020(GFP_ATOMIC)"
	ModeValue uint64 `json:"mode_value"` // the number
	// GFPFlags are the decoded flag names for the kernel era in force; empty when the era is
	// unknown, in which case GFPCandidates lists each era's decoding.
	GFPFlags      []string              `json:"gfp_flags"`
	GFPCandidates []kernel.GFPCandidate `json:"gfp_candidates,omitempty"`
	GFPNote       string                `json:"gfp_note,omitempty"`
	Nodemask      string                `json:"nodemask,omitempty"`
	Kernel        string                `json:"kernel,omitempty"` // as printed in the report or the text
	KernelSource  string                `json:"kernel_source,omitempty"`
	Atomic        *bool                 `json:"atomic,omitempty"` // no direct reclaim allowed; nil when undecidable
	Zones         []ZoneReport          `json:"zones"`
	CallTrace     []string              `json:"call_trace"`
	InInterrupt   bool                  `json:"in_interrupt,omitempty"` // the trace passed through <IRQ> or a softirq
	MemInfo       *kernel.Counters      `json:"mem_info,omitempty"`     // the global "active:.. inactive:.. free:.." line, pages
	FreeSwapKB    *int64                `json:"free_swap_kb,omitempty"`
	PagesRAM      *int64                `json:"pages_ram,omitempty"`
	// HighMemPages is the footer "N pages HighMem/MovableOnly" (lib/show_mem.c __show_mem): the
	// present pages of zones for which is_highmem() holds, which is never true without
	// CONFIG_HIGHMEM, so more than 0 proves a 32-bit kernel with HighMem even when the dump
	// lists no HighMem zone (6.x prints only the zones the request could use).
	HighMemPages *int64 `json:"highmem_pages,omitempty"`
	Count        int    `json:"count,omitempty"` // identical headers folded into this one (repeated failures)
}

// Reports is the number of failure reports a stands for: Count when identical headers
// were folded into it, else 1: what serve's headroom_page_allocation_failures_total adds
// for a report and what doctor's allocation-failure evidence counts.
func (a *AllocFailure) Reports() int { return max(a.Count, 1) }

// ZoneReport is one zone of a show_mem dump: "Normal free:12248kB min:32768kB low:40960kB
// high:49152kB ... present:901120kB", its lowmem_reserve[] line and its buddy line.
type ZoneReport struct {
	Node          int              `json:"node"`
	Zone          string           `json:"zone"`
	FreeKB        int64            `json:"free_kb"`
	MinKB         int64            `json:"min_kb"`
	LowKB         int64            `json:"low_kb"`
	HighKB        int64            `json:"high_kb"`
	PresentKB     int64            `json:"present_kb"`
	ManagedKB     *int64           `json:"managed_kb,omitempty"` // 3.8+
	Fields        *kernel.Counters `json:"fields,omitempty"`     // every key:value of the zone line, kB where printed so
	LowmemReserve []int64          `json:"lowmem_reserve,omitempty"`
	// FreeBlocks is the count of free blocks per order from the buddy line, index = order;
	// nil when the dump had no buddy line for the zone.
	FreeBlocks []int64 `json:"free_blocks"`
	// MigrateTypes are the letters printed after each order's count on 2.6.24+ kernels
	// ("UME"), index = order; nil when not printed.
	MigrateTypes     []string `json:"migrate_types,omitempty"`
	AllUnreclaimable *bool    `json:"all_unreclaimable,omitempty"`
}

// Unpopulated reports whether the dump printed the zone with no memory: present:0kB (and
// managed:0kB where printed), as 2.6.18's show_free_areas prints an empty DMA/DMA32 of a
// NUMA node. The allocator's zonelists hold only zones with memory (mm/page_alloc.c
// build_zonerefs_node: populated_zone(), managed_zone() since 4.x), so no request is served
// or refused there, and "free 0 ≤ min 0" is no exhausted reserve. A zone whose line did not
// print present is not known to be empty.
func (z ZoneReport) Unpopulated() bool {
	if z.Fields == nil {
		return false
	}
	if p, ok := z.Fields.Get("present_kb"); !ok || p != 0 {
		return false
	}
	return z.ManagedKB == nil || *z.ManagedKB == 0
}

// OOMKill is an OOM-killer report (mm/oom_kill.c).
type OOMKill struct {
	Invoker     string   `json:"invoker"` // "java invoked oom-killer"
	Order       int      `json:"order"`
	Mode        string   `json:"mode"`
	GFPFlags    []string `json:"gfp_flags,omitempty"`
	Constraint  string   `json:"constraint,omitempty"` // CONSTRAINT_NONE, CONSTRAINT_MEMCG, ...
	Memcg       string   `json:"memcg,omitempty"`      // the cgroup whose limit was hit, for memcg OOM
	KilledPID   int      `json:"killed_pid,omitempty"`
	KilledComm  string   `json:"killed_comm,omitempty"`
	TotalVMKB   int64    `json:"total_vm_kb,omitempty"`
	AnonRSSKB   int64    `json:"anon_rss_kb,omitempty"`
	FileRSSKB   int64    `json:"file_rss_kb,omitempty"`
	ShmemRSSKB  int64    `json:"shmem_rss_kb,omitempty"`
	PgtablesKB  int64    `json:"pgtables_kb,omitempty"` // the victim's page tables (5.x+ kill line)
	OOMScoreAdj int64    `json:"oom_score_adj,omitempty"`
	// MemcgCounters are a memory-cgroup OOM's page counters as the report prints them
	// ("memory: usage 524288kB, limit 524288kB, failcnt 0", then memory+swap and kmem;
	// mm/memcontrol-v1.c mem_cgroup_print_oom_meminfo), for the rules; the oom_kill
	// artifact carries them as printed (memcg_usage).
	MemcgCounters []MemcgCounter `json:"-"`
	// Zones are the report's own show_mem dump (dump_header's show_mem for a host-wide OOM),
	// for the rules: an OOM is the allocator's failure path, and a request that could not use
	// HighMem failing with lowmem short is alloc-fail-lowmem. The oom_kill artifact carries
	// them as printed (zones).
	Zones []ZoneReport `json:"-"`
	// MemInfo is the report's Mem-Info line ("active_anon:.. slab_unreclaimable:.."), pages,
	// for the rules (slab-unreclaimable-growth); the artifact carries it as mem_info.
	MemInfo *kernel.Counters `json:"-"`
	// PagesRAM is the dump's "N pages RAM" footer (show_mem): the host's memory in pages;
	// the artifact carries it as pages_ram.
	PagesRAM *int64 `json:"-"`
	// NodesUnreclaimable is each node whose line in the dump printed "all_unreclaimable?"
	// (4.8+: pgdat's kswapd_failures past MAX_RECLAIM_RETRIES), with its answer; the
	// artifact carries the node lines as nodes.
	NodesUnreclaimable map[int]bool `json:"-"`
}

// MemcgCounter is one page counter of a memory cgroup at its OOM: "memory", "memory+swap",
// "kmem" (v1) or "swap" (v2).
type MemcgCounter struct {
	Name    string `json:"name"`
	UsageKB int64  `json:"usage_kb"`
	LimitKB int64  `json:"limit_kb"`
	Failcnt int64  `json:"failcnt"`
}

// SlabFailure is a SLUB "Unable to allocate memory on node" report (mm/slub.c
// slab_out_of_memory).
type SlabFailure struct {
	Node         int      `json:"node"`
	Mode         string   `json:"mode"`
	GFPFlags     []string `json:"gfp_flags,omitempty"`
	Cache        string   `json:"cache"`
	ObjectSize   int64    `json:"object_size"`
	BufferSize   int64    `json:"buffer_size"`
	DefaultOrder int      `json:"default_order"`
	MinOrder     int      `json:"min_order"`
}
