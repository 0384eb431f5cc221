package plan

import (
	"errors"
	"fmt"
	"strings"

	"headroom/kernel"
)

// ErrUnknownArch is returned for an architecture name headroom does not know.
var ErrUnknownArch = errors.New("unknown architecture")

// wordBits returns the kernel's word size for a uname -m string (kernel.ArchWordBits), or an
// error the caller can show. The size decides whether a HighMem split can exist (32-bit only).
func wordBits(arch string) (int, error) {
	if strings.TrimSpace(arch) == "" {
		return 0, fmt.Errorf("architecture not given: %w", ErrUnknownArch)
	}
	if b := kernel.ArchWordBits(arch); b != 0 {
		return b, nil
	}
	return 0, fmt.Errorf("architecture %q: %w", arch, ErrUnknownArch)
}

// LowmemLimitBytes is the most memory a 32-bit kernel maps permanently (ZONE_DMA+ZONE_NORMAL)
// with the default 3G/1G split; RAM above it is HighMem, which the kernel cannot use for
// socket buffers, slab or page tables. The second result says where the number comes from.
func LowmemLimitBytes(arch string) (int64, string, error) {
	family := ""
	if kernel.ArchWordBits(arch) == 32 {
		family = kernel.ArchFamily(arch)
	}
	switch family {
	case "x86":
		// 1 GiB of kernel address space less __VMALLOC_RESERVE (128 MiB) gives MAXMEM =
		// 896 MiB (arch/x86/include/asm/pgtable_32_types.h). Seed 004's zone dump matches:
		// DMA present 16384 kB + Normal present 901120 kB = 917504 kB = 896 MiB.
		return 896 << 20, "x86-32: 1 GiB kernel space − 128 MiB vmalloc reserve", nil
	case "arm":
		// arch/arm/mm/mmu.c: vmalloc_min = VMALLOC_END − 240 MiB − VMALLOC_OFFSET, which
		// leaves 760 MiB of lowmem with the default vmalloc size.
		return 760 << 20, "ARM: 240 MiB default vmalloc area (arch/arm/mm/mmu.c vmalloc_min)", nil
	case "powerpc":
		// CONFIG_LOWMEM_SIZE defaults to 0x30000000 (arch/powerpc/Kconfig).
		return 768 << 20, "PowerPC-32: CONFIG_LOWMEM_SIZE default 768 MiB", nil
	case "mips":
		// KSEG0 maps the first 512 MiB of physical memory; above it is HighMem.
		return 512 << 20, "MIPS-32: KSEG0 maps 512 MiB", nil
	}
	return 0, "", fmt.Errorf("lowmem limit of %q not known; give the lowmem size: %w", arch, ErrUnknownArch)
}
