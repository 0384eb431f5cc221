package model

import (
	"strconv"
	"strings"

	"headroom/kernel"
)

// Host holds the facts of a host that do not change while it is sampled. Fields that the
// source did not tell are zero values with their meaning documented: "" for unknown text,
// 0 for unknown sizes, nil for unknown tri-states.
type Host struct {
	Hostname      string `json:"hostname,omitempty"`
	BootID        string `json:"boot_id,omitempty"` // kernel.random.boot_id: tells one boot from the next
	Kernel        string `json:"kernel"`            // release as printed: "6.18.44-fc-v669", "2.6.30-1"
	Arch          string `json:"arch"`              // uname machine: "x86_64", "i686", "armv5tel"
	WordBits      int    `json:"word_bits,omitempty"`
	HighMem       *bool  `json:"highmem,omitempty"` // a HighMem zone or LowTotal in meminfo
	PageSize      int    `json:"page_size"`
	PageSizeBytes int    `json:"-"` // same as PageSize; kept so code reads with units
	MemTotalKB    int64  `json:"mem_total_kb"`
	LowTotalKB    int64  `json:"low_total_kb,omitempty"` // 32-bit HighMem kernels only
	CPUs          int    `json:"cpus,omitempty"`

	NICs []kernel.NIC `json:"nics,omitempty"`

	// Sysctls holds the values read from /proc/sys (live) or from a `sysctl -a` paste, by
	// dotted key; SysctlSource says where each came from when not /proc/sys.
	Sysctls      map[string]string `json:"sysctls,omitempty"`
	SysctlSource map[string]string `json:"-"`
}

// SetPageSize sets both page size fields.
func (h *Host) SetPageSize(b int) { h.PageSize, h.PageSizeBytes = b, b }

// Is32Bit reports whether the host is known to run a 32-bit kernel.
func (h *Host) Is32Bit() bool {
	if h.WordBits != 0 {
		return h.WordBits == 32
	}
	return ArchWordBits(h.Arch) == 32
}

// ArchWordBits returns 32 or 64 for a uname machine string, 0 when unknown.
func ArchWordBits(arch string) int {
	switch {
	case arch == "":
		return 0
	case arch == "x86_64" || arch == "aarch64" || arch == "arm64" || arch == "ppc64" ||
		arch == "ppc64le" || arch == "s390x" || arch == "riscv64" || arch == "mips64" ||
		arch == "loongarch64" || arch == "sparc64":
		return 64
	case arch == "i386" || arch == "i486" || arch == "i586" || arch == "i686" ||
		strings.HasPrefix(arch, "armv") || arch == "arm" || arch == "ppc" || arch == "mips" ||
		arch == "riscv32":
		return 32
	}
	return 0
}

// KernelVersion is a parsed kernel release: 2.6.30-1 → {2, 6, 30}.
type KernelVersion struct{ Major, Minor, Patch int }

// ParseKernelVersion reads the leading numbers of a release string. ok is false when the
// string does not start with "N.N".
func ParseKernelVersion(release string) (v KernelVersion, ok bool) {
	parts := strings.SplitN(release, ".", 4)
	if len(parts) < 2 {
		return v, false
	}
	num := func(s string) (int, bool) {
		end := 0
		for end < len(s) && s[end] >= '0' && s[end] <= '9' {
			end++
		}
		if end == 0 {
			return 0, false
		}
		n, err := strconv.Atoi(s[:end])
		return n, err == nil
	}
	var ok1, ok2 bool
	if v.Major, ok1 = num(parts[0]); !ok1 {
		return v, false
	}
	if v.Minor, ok2 = num(parts[1]); !ok2 {
		return v, false
	}
	if len(parts) > 2 {
		v.Patch, _ = num(parts[2])
	}
	return v, true
}

// AtLeast reports whether v >= major.minor.
func (v KernelVersion) AtLeast(major, minor int) bool {
	return v.Major > major || (v.Major == major && v.Minor >= minor)
}

// Kernel returns the parsed kernel version of the host.
func (h *Host) KernelVersion() (KernelVersion, bool) { return ParseKernelVersion(h.Kernel) }
