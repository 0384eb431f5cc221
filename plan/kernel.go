package plan

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// KernelVersion is a parsed kernel release. Known is false for "" (unknown kernel).
type KernelVersion struct {
	Major, Minor, Patch int
	Known               bool
}

// ParseKernelVersion reads the leading "major.minor[.patch]" of a release string such as
// "6.18.44-fc-v669" or "2.6.13-2smp". "" gives an unknown version, not an error.
func ParseKernelVersion(s string) (KernelVersion, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return KernelVersion{}, nil
	}
	// Cut at the first character that is neither digit nor dot: "-2smp", "+", "_rc1".
	end := len(s)
	for i, c := range s {
		if (c < '0' || c > '9') && c != '.' {
			end = i
			break
		}
	}
	parts := strings.Split(strings.TrimRight(s[:end], "."), ".")
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
		return KernelVersion{}, fmt.Errorf("kernel version %q: want major.minor[.patch]", s)
	}
	var n [3]int
	for i := 0; i < len(parts) && i < 3; i++ {
		v, err := strconv.Atoi(parts[i])
		if err != nil || v < 0 || v > 1<<20 {
			return KernelVersion{}, fmt.Errorf("kernel version %q: bad component %q", s, parts[i])
		}
		n[i] = v
	}
	return KernelVersion{Major: n[0], Minor: n[1], Patch: n[2], Known: true}, nil
}

// AtLeast reports whether v is a known version >= major.minor.patch.
func (v KernelVersion) AtLeast(major, minor, patch int) bool {
	if !v.Known {
		return false
	}
	if v.Major != major {
		return v.Major > major
	}
	if v.Minor != minor {
		return v.Minor > minor
	}
	return v.Patch >= patch
}

func (v KernelVersion) String() string {
	if !v.Known {
		return "unknown"
	}
	return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
}

// ErrUnknownArch is returned for an architecture name plan does not know.
var ErrUnknownArch = errors.New("unknown architecture")

// WordBits returns the kernel's word size for a uname -m string. The size decides whether a
// HighMem split can exist (32-bit only).
func WordBits(arch string) (int, error) {
	a := strings.ToLower(strings.TrimSpace(arch))
	switch {
	case a == "":
		return 0, fmt.Errorf("architecture not given: %w", ErrUnknownArch)
	case a == "x86_64", a == "amd64", a == "aarch64", a == "arm64", a == "ppc64", a == "ppc64le",
		a == "s390x", a == "riscv64", a == "mips64", a == "mips64el", a == "sparc64",
		a == "loongarch64", a == "alpha", a == "ia64":
		return 64, nil
	case a == "i386", a == "i486", a == "i586", a == "i686", a == "x86",
		strings.HasPrefix(a, "arm"), a == "mips", a == "mipsel", a == "ppc", a == "powerpc",
		a == "riscv32", a == "sh4", a == "m68k", a == "s390", a == "sparc", a == "parisc":
		return 32, nil
	}
	return 0, fmt.Errorf("architecture %q: %w", arch, ErrUnknownArch)
}

// LowmemLimitBytes is the most memory a 32-bit kernel maps permanently (ZONE_DMA+ZONE_NORMAL)
// with the default 3G/1G split; RAM above it is HighMem, which the kernel cannot use for
// socket buffers, slab or page tables. The second result says where the number comes from.
func LowmemLimitBytes(arch string) (int64, string, error) {
	a := strings.ToLower(strings.TrimSpace(arch))
	switch {
	case a == "i386", a == "i486", a == "i586", a == "i686", a == "x86":
		// 1 GiB of kernel address space less __VMALLOC_RESERVE (128 MiB) gives MAXMEM =
		// 896 MiB (arch/x86/include/asm/pgtable_32_types.h). Seed 004's zone dump matches:
		// DMA present 16384 kB + Normal present 901120 kB = 917504 kB = 896 MiB.
		return 896 << 20, "x86-32: 1 GiB kernel space − 128 MiB vmalloc reserve", nil
	case strings.HasPrefix(a, "arm"):
		// arch/arm/mm/mmu.c: vmalloc_min = VMALLOC_END − 240 MiB − VMALLOC_OFFSET, which
		// leaves 760 MiB of lowmem with the default vmalloc size.
		return 760 << 20, "ARM: 240 MiB default vmalloc area (arch/arm/mm/mmu.c vmalloc_min)", nil
	case a == "ppc", a == "powerpc":
		// CONFIG_LOWMEM_SIZE defaults to 0x30000000 (arch/powerpc/Kconfig).
		return 768 << 20, "PowerPC-32: CONFIG_LOWMEM_SIZE default 768 MiB", nil
	case a == "mips", a == "mipsel":
		// KSEG0 maps the first 512 MiB of physical memory; above it is HighMem.
		return 512 << 20, "MIPS-32: KSEG0 maps 512 MiB", nil
	}
	return 0, "", fmt.Errorf("lowmem limit of %q not known; give the lowmem size: %w", arch, ErrUnknownArch)
}
