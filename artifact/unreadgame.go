package artifact

// Game servers' and game engines' own allocation messages (h23a, pre-round 23): a dedicated
// server on a small VPS dies with its engine's or its C library's own words, not the
// kernel's. None is an OOM kill and none measures the host's memory: a paste of only such
// lines held nothing headroom read (exit 3).
//
// Gated with webAppForms (webAppOwnLine: one IndexAny of webAppGate+collabGate+gameGate's
// bytes): every form holds 'M' ("Mem_Alloc", "Z_Malloc"), 'u' or 'y'.
var gameForms = []ownLineForm{
	// Unity's player and dedicated server (MemoryManager): "Could not allocate memory: System
	// out of memory!", then "Trying to allocate: NB with A alignment. MemoryLabel: L".
	{"Could not allocate memory: System out of memory", "", true, "Unity's own allocator gave up on one request (MemoryManager: \"Could not allocate memory: System out of memory! Trying to allocate: NB with A alignment. MemoryLabel: L\"): the engine's malloc or mmap returned NULL (the address space, vm.overcommit_memory's accounting or a memory cgroup refused it) and the player aborted itself: no kill by the kernel's OOM killer, which the kernel's own line (\"Out of memory: Killed process N\") would say"},
	// Quake-family engines (GoldSrc HLDS, Xash3D, Darkplaces): Sys_Error("Mem_Alloc: out of
	// memory (alloc at %s:%i)") when malloc returns NULL; the zone's and hunk's fixed pools
	// ("Z_Malloc: failed on allocation of %i bytes", "Hunk_Alloc: failed on %i bytes") sized
	// by -heapsize / -zone.
	{"Mem_Alloc: out of memory", "", true, "a Quake-family engine's (Xash3D, Darkplaces) own allocator: malloc returned NULL and the engine stopped itself (Sys_Error \"Mem_Alloc: out of memory (alloc at FILE:LINE)\"): the address space, vm.overcommit_memory's accounting or a memory cgroup refused it; no kill by the kernel's OOM killer"},
	{"Z_Malloc: failed on allocation of ", "", true, "a Quake-family engine's zone ran out (Z_Malloc: \"failed on allocation of N bytes\"): the engine's own fixed pool (-zone), or malloc returning NULL; the engine stopped itself, no kill by the kernel's OOM killer and no statement about the host's free memory"},
	{"Hunk_Alloc: failed on ", "", true, "a Quake-family engine's hunk ran out (GoldSrc HLDS: \"Hunk_Alloc: failed on N bytes\"): the engine's own fixed pool, sized by -heapsize at start, not the host's memory: raise -heapsize; no kill by the kernel's OOM killer"},
	// glibc malloc/malloc.c malloc_printerr: the heap's consistency checks ("malloc(): memory
	// corruption", "malloc(): corrupted top size", "double free or corruption (!prev)"), then
	// abort(): SIGABRT, "Aborted (core dumped)", exit 134.
	// The checks' own words, not "malloc(): " alone: another allocator's function name
	// ends the same way (Kamailio's "qm_malloc(): qm_malloc(...); Free fragment not found!").
	{"malloc(): memory corruption", "", false, glibcHeapCheckWhy},
	{"malloc(): corrupted ", "", false, glibcHeapCheckWhy},
	{"malloc(): invalid ", "", false, glibcHeapCheckWhy},
	{"malloc(): unaligned ", "", false, glibcHeapCheckWhy},
	{"malloc(): mismatching ", "", false, glibcHeapCheckWhy},
	{"malloc(): smallbin ", "", false, glibcHeapCheckWhy},
	{"malloc(): unsorted ", "", false, glibcHeapCheckWhy},
	{"malloc(): largebin ", "", false, glibcHeapCheckWhy},
	{"double free or corruption", "", false, "glibc's heap check found a block freed twice or a damaged heap (malloc/malloc.c malloc_printerr: \"double free or corruption (...)\") and aborted the process (SIGABRT, exit 134): a bug in the program or a plugin, not a lack of memory and no kill by the kernel's OOM killer"},
}

// gameGate: gameForms' byte beside webAppGate's and collabGate's.
const gameGate = "M"

// glibcHeapCheckWhy: what a glibc malloc_printerr line proves.
const glibcHeapCheckWhy = "glibc's heap check found the process's own heap damaged (malloc/malloc.c malloc_printerr: \"malloc(): memory corruption\", \"malloc(): corrupted top size\") and aborted it (SIGABRT, exit 134): a bug in the program or a plugin (a write past a buffer, a use after free), not a lack of memory and no kill by the kernel's OOM killer"
