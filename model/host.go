package model

import "headroom/kernel"

// Host holds the facts of a host that do not change while it is sampled. Fields that the
// source did not tell are zero values with their meaning documented: "" for unknown text,
// 0 for unknown sizes, nil for unknown tri-states.
type Host struct {
	Hostname      string `json:"hostname,omitempty"`
	BootID        string `json:"boot_id,omitempty"` // kernel.random.boot_id: tells one boot from the next
	Kernel        string `json:"kernel"`            // release as printed: "6.18.44-fc-v669", "2.6.30-1"
	KernelLine    int    `json:"-"`                 // the text's line Kernel was read from: read (fix52a); 0 if none or --kernel
	Arch          string `json:"arch"`              // uname machine: "x86_64", "i686", "armv5tel"
	WordBits      int    `json:"word_bits,omitempty"`
	HighMem       *bool  `json:"highmem,omitempty"` // a HighMem zone or LowTotal in meminfo
	PageSize      int    `json:"page_size"`
	PageSizeBytes int    `json:"-"` // same as PageSize; kept so code reads with units
	MemTotalKB    int64  `json:"mem_total_kb"`
	LowTotalKB    int64  `json:"low_total_kb,omitempty"` // 32-bit HighMem kernels only
	CPUs          int    `json:"cpus,omitempty"`
	// OtherOS names the system a text comes from when it is not Linux ("FreeBSD (seen:
	// kern.ipc.somaxconn)"): headroom's rules read Linux kernels, so none of them applies.
	OtherOS string `json:"other_os,omitempty"`

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
	return kernel.ArchWordBits(h.Arch) == 32
}

// KernelVersion returns the parsed kernel release of the host; ok is false when the release
// is unknown or unreadable.
func (h *Host) KernelVersion() (v kernel.KernelVersion, ok bool) {
	v, err := kernel.ParseKernelVersion(h.Kernel)
	return v, err == nil && v.Known
}
