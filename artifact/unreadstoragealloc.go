package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// fix41c: another program's allocator and huge page lines, in a text where nothing else was
// read (statedFiguresUnread's forms, for prose lines and other programs' log lines). Each is
// evidence of the program's own state in a form no reader takes; a paste of only such lines
// exited 3 ("nothing is evidence"), and none of them is the kernel's page allocator.
//
//   - Ceph's BlueFS and BlueStore allocators (src/os/bluestore/BlueFS.cc _allocate: dout(1)
//     "unable to allocate 0x%x on bdev %d, allocator name %s, allocator type %s, capacity
//     0x%x, block size 0x%x, free 0x%x, fragmentation %f, allocated 0x%x"; "failed to
//     allocate 0x%x on bdev %d, free 0x%x; fallback to bdev %d" in older releases; dout(-1)
//     "allocation failed, needed 0x%x"; _flush_range's "allocated: 0x.. offset: 0x..
//     length: 0x.."; BlueStore.cc _do_alloc_write's "failed to allocate 0x%x allocated 0x%x
//     min_alloc_size 0x%x available 0x%x"). Their sizes are bytes of the OSD's block device
//     in hex, their "fragmentation" the allocator's share of free space in extents too
//     small (Allocator::get_fragmentation, 0..1): a disk that is full, or whose free extents
//     are smaller than BlueFS's allocation unit. Not a page allocation failure (no order, no
//     GFP mode, no zone), not /proc/buddyinfo's fragmentation.
//   - DPDK's EAL reading the kernel's huge page pools at start (lib/eal/linux/
//     eal_hugepage_info.c hugepage_info_init): "No free hugepages reported in hugepages-NkB"
//     (up to 18.02), "No available hugepages reported in hugepages-NkB" (18.05 to 21.08),
//     "No available N kB hugepages reported" and "No free N kB hugepages reported on node
//     N" (21.11 on), each under RTE_LOG's "EAL: " prefix: that page size's pool has no
//     pages (a size the host never reserved, usually 1 GiB beside a 2 MiB pool).
//   - SPDK applications' own reading of the pool (Mayastor's main.rs and io-engine.rs:
//     "free_pages: N nr_pages: N", "free_pages 2MB: N nr_pages 2MB: N"; "Failed to read the
//     number of [free ]pages at /sys/kernel/mm/hugepages/hugepages-NkB" when a size has no
//     sysfs directory): free_hugepages and nr_hugepages of one size.
//
// Huge pages are a pool reserved out of RAM (nr_hugepages); what is free in it is not the
// kernel's free memory, and no rule of headroom's reads the pool (meminfo's HugePages_Total
// and HugePages_Free are read as counters, but these lines are no meminfo). So the lines are
// named, with what they hold, and nothing is diagnosed from them.

var (
	// The allocator's status words as BlueFS prints them (the order is the format's).
	reCephAllocStatus = lazyre.New(`\ballocator type \S+, capacity 0x[0-9a-f]+, block size 0x[0-9a-f]+, free 0x[0-9a-f]+, fragmentation [0-9.e+-]+`)
	// BlueFS's and BlueStore's own allocation messages: a hex size and the device.
	reCephAllocMsg = lazyre.New(`\b(?:unable|failed) to allocate 0x[0-9a-f]+ on bdev \d+\b|\bbluefs _\w+ (?:allocation failed, needed 0x[0-9a-f]+|allocated: 0x[0-9a-f]+ offset: 0x[0-9a-f]+ length: 0x[0-9a-f]+)|\bbluestore\(\S*\) _do_alloc_write failed to allocate 0x[0-9a-f]+`)
	// DPDK EAL's pool lines, every release's form, under the "EAL: " prefix.
	reEALHugepages = lazyre.New(`(?:^|[\s>` + "`" + `'"])EAL:\s+No (?:free|available) (?:hugepages reported in hugepages-\d+[kKmMgG]B|\d+ [kKmMgG]B hugepages reported(?: on node \d+)?)\s*[` + "`" + `'".]?\s*$`)
	// An SPDK application's free_hugepages and nr_hugepages of a size.
	reSPDKHugepages = lazyre.New(`\bfree_pages(?: \d+[KMG]B)?: \d+ nr_pages(?: \d+[KMG]B)?: \d+\s*$|\bFailed to read the number of (?:free )?pages at /sys/kernel/mm/hugepages/hugepages-\d+kB\b`)
)

const (
	whyCephAllocator = "Ceph's BlueFS or BlueStore allocator (src/os/bluestore/BlueFS.cc _allocate: \"unable to allocate 0x... on bdev N, allocator name, allocator type, capacity 0x.., block size 0x.., free 0x.., fragmentation F, allocated 0x..\"; \"allocation failed, needed 0x..\"): bytes of the OSD's block device in hex, its free space and the share of it in extents too small to use: a full disk or a fragmented one, another program's storage allocator; not the kernel's page allocator (no order, GFP mode or zone), not /proc/buddyinfo's fragmentation; no rule of headroom's reads it"
	whyEALHugepages  = "DPDK's EAL reading the kernel's huge page pools at start (lib/eal/linux/eal_hugepage_info.c: \"No available hugepages reported in hugepages-NkB\"; \"No free ...\" up to 18.02, \"No available N kB hugepages reported\" from 21.11): that page size's pool (/sys/kernel/mm/hugepages/hugepages-NkB) has no pages, usually a size the host never reserved (1 GiB beside a 2 MiB pool); huge pages are a reserved pool, not the kernel's free memory; no allocation failure, and no rule of headroom's reads the pool"
	whySPDKHugepages = "an SPDK application's reading of the huge page pool at start (Mayastor io-engine: \"free_pages 2MB: N nr_pages 2MB: N\", free_hugepages and nr_hugepages under /sys/kernel/mm/hugepages/hugepages-NkB; \"Failed to read the number of pages\" when that size has no pool): how many huge pages of a size are reserved and how many are free; a pool reserved out of RAM, not the kernel's free memory; no shortage unless free is below the program's need, and no rule of headroom's reads it"
)

// cephAllocatorLine: t is one of BlueFS's or BlueStore's allocator lines (or quotes one in a
// sentence), not a question.
func cephAllocatorLine(t string) bool {
	if len(t) > maxErrnoLineBytes || !strings.Contains(t, "0x") || strings.HasSuffix(strings.TrimSpace(t), "?") {
		return false
	}
	if strings.Contains(t, "allocator type ") && reCephAllocStatus.MatchString(t) {
		return true
	}
	return strings.Contains(t, "allocat") && reCephAllocMsg.MatchString(t)
}

// ealHugepagesLine: t is DPDK EAL's "no pages in this pool" line.
func ealHugepagesLine(t string) bool {
	return len(t) <= maxErrnoLineBytes && strings.Contains(t, "EAL:") && strings.Contains(t, "hugepages reported") && reEALHugepages.MatchString(t)
}

// spdkHugepagesLine: t is an SPDK application's reading of the huge page pool.
func spdkHugepagesLine(t string) bool {
	return len(t) <= maxErrnoLineBytes && (strings.Contains(t, "nr_pages") || strings.Contains(t, "/sys/kernel/mm/hugepages/")) && reSPDKHugepages.MatchString(t)
}

// The forms come first: statesDomainFigure would name the lines with no reason of their own.
func init() {
	forms := []figureForm{
		{cephAllocatorLine, whyCephAllocator},
		{ealHugepagesLine, whyEALHugepages},
		{spdkHugepagesLine, whySPDKHugepages},
	}
	otherLineForms = append(append([]figureForm{}, forms...), otherLineForms...)
	proseLineForms = append(append([]figureForm{}, forms...), proseLineForms...)
}
