package plan

// FactSource says where a plan's fact about its target host came from.
type FactSource string

const (
	// FactGiven: a flag of `headroom plan` (--memory, --kernel, --arch, --page-size, --lowmem).
	FactGiven FactSource = "given"
	// FactRead: read from the host `headroom plan` ran on.
	FactRead FactSource = "read"
	// FactAssumed: neither given nor read; plan's default (4096 B pages with --arch, the
	// arch's lowmem split).
	FactAssumed FactSource = "assumed"
)

// TargetHost is the shape of the host a plan was computed for, each fact with where it came
// from. Every number of the plan scales with it (tcp_mem is counted in pages and budgeted
// against memory, the defaults and keys follow the kernel), so `headroom tune` compares it
// with the host it runs on and refuses a plan for another shape (docs/tune.md).
type TargetHost struct {
	MemoryBytes   int64      `json:"memory_bytes"` // MemTotal
	MemoryFrom    FactSource `json:"memory_from"`
	LowmemBytes   int64      `json:"lowmem_bytes,omitempty"` // 32-bit HighMem kernels only
	LowmemFrom    FactSource `json:"lowmem_from,omitempty"`
	Kernel        string     `json:"kernel"` // release as given or read
	KernelFrom    FactSource `json:"kernel_from"`
	Arch          string     `json:"arch"` // uname -m
	ArchFrom      FactSource `json:"arch_from"`
	WordBits      int        `json:"word_bits"`
	PageSizeBytes int        `json:"page_size_bytes"`
	PageSizeFrom  FactSource `json:"page_size_from"`
	// CPUs is the number of CPUs; 0 when the plan does not know it (a plan for another
	// host: plan has no flag for it and this host's count says nothing about that one).
	CPUs     int        `json:"cpus,omitempty"`
	CPUsFrom FactSource `json:"cpus_from,omitempty"`
	// ReadFrom is the hostname of the host the facts marked "read" were read from.
	ReadFrom string `json:"read_from,omitempty"`
}

// TargetSources is what the caller of Compute knows and Input does not: where each fact
// came from, and the CPUs.
type TargetSources struct {
	Memory, Lowmem, Kernel, Arch, PageSize FactSource
	CPUs                                   int
	CPUsFrom                               FactSource
	ReadFrom                               string
}

// NewTargetHost is the target of a computed plan: its facts as Compute used them (p.Input
// after defaults, p.WordBits) with their sources.
func NewTargetHost(p Plan, s TargetSources) TargetHost {
	in := p.Input
	t := TargetHost{
		MemoryBytes: in.MemoryBytes, MemoryFrom: s.Memory,
		Kernel: in.KernelVersion, KernelFrom: s.Kernel,
		Arch: in.Arch, ArchFrom: s.Arch, WordBits: p.WordBits,
		PageSizeBytes: in.PageSizeBytes, PageSizeFrom: s.PageSize,
		CPUs: s.CPUs, CPUsFrom: s.CPUsFrom, ReadFrom: s.ReadFrom,
	}
	if in.LowmemBytes > 0 {
		t.LowmemBytes, t.LowmemFrom = in.LowmemBytes, s.Lowmem
	}
	if t.CPUs <= 0 {
		t.CPUs, t.CPUsFrom = 0, ""
	}
	return t
}
