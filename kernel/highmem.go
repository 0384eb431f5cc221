package kernel

// X86_32LowmemKB is the most memory an x86_32 kernel with the default 3G/1G split maps
// permanently (lowmem): the 1 GiB above PAGE_OFFSET 0xC0000000 less the 128 MiB vmalloc
// reserve (arch/x86/include/asm/pgtable_32_areas.h MAXMEM = VMALLOC_END - PAGE_OFFSET -
// __VMALLOC_RESERVE; arch/x86/mm/init_32.c). A 32-bit x86 kernel that reports more
// MemTotal than this must hold the rest in ZONE_HIGHMEM (CONFIG_HIGHMEM4G/64G): without
// HighMem it would not see it at all.
const X86_32LowmemKB = 896 * 1024
