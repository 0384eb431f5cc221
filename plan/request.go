package plan

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"headroom/kernel"
	"headroom/model"
	"headroom/units"
)

// Request is `headroom plan`'s flags as the user wrote them (rates and sizes as text):
// cmd/headroom reads the flags into it, source reads this host's facts (ThisHost), and
// Input turns the two into the Input of Compute and the sources of the target's facts.
type Request struct {
	Bandwidth, RTT                            string
	Streams, MTU, CPUs                        int
	Role                                      string
	Memory, Lowmem, Kernel, Arch, PageSize    string
	RateLimit, RateLimitDevice, RateLimitDest string
	NICSpeed                                  string
	WindowRatio                               float64
	KswapdReaction                            time.Duration
}

// ForThisHost: none of --memory, --lowmem, --kernel, --arch given, so the plan describes
// the host it runs on, whose current settings, NICs and meminfo it then reads.
func (r Request) ForThisHost() bool {
	return r.Memory == "" && r.Lowmem == "" && r.Kernel == "" && r.Arch == ""
}

// ThisHost is what plan needs of the host it runs on, read by source (source.ReadPlanHost)
// with the readers doctor uses.
type ThisHost struct {
	Host model.Host
	// NICs are the receiving NICs (ReceivingNICs).
	NICs []NIC
	// MemInfoKB is /proc/meminfo, read only for a plan of this host (nil when unreadable).
	MemInfoKB map[string]int64
	// FQ is whether this host's kernel can create the fq qdisc (kernel.QdiscAvailability).
	FQ kernel.Availability
	// Err says why the host facts could not be read (no MemTotal).
	Err error
}

// CurrentSysctlKeys are the sysctls plan reads as "current" values.
var CurrentSysctlKeys = []string{
	"net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem", "net.ipv4.tcp_mem", "net.ipv4.tcp_adv_win_scale",
	"net.core.rmem_max", "net.core.wmem_max", "vm.min_free_kbytes", "vm.watermark_scale_factor", "vm.dirty_ratio",
	"net.core.netdev_max_backlog", "net.core.netdev_budget", "net.core.netdev_budget_usecs",
	"net.ipv4.tcp_notsent_lowat", "net.ipv4.tcp_congestion_control",
	"net.ipv4.tcp_available_congestion_control", "net.core.default_qdisc",
}

// Input parses the request and fills what its flags leave open from this host: the
// memory, lowmem, kernel, arch and page size; for a plan of this host (ForThisHost) also
// the current settings, the NICs, the CPUs and meminfo. The errors name the flag.
func (r Request) Input(h ThisHost) (Input, TargetSources, error) {
	if r.Bandwidth == "" {
		return Input{}, TargetSources{}, errors.New("--bandwidth is required (e.g. --bandwidth 1Gbit)")
	}
	rttLo, rttHi, err := units.ParseRTTRange(r.RTT)
	if err != nil {
		return Input{}, TargetSources{}, fmt.Errorf("--rtt must be greater than zero (e.g. --rtt 125ms or --rtt 0.5ms-50ms): %v", err)
	}
	in := Input{RTT: rttLo, RTTMax: rttHi, Streams: r.Streams, Role: r.Role, MTUBytes: r.MTU, WindowRatio: r.WindowRatio,
		KswapdReaction: r.KswapdReaction, RateLimitDevice: r.RateLimitDevice, RateLimitDestination: r.RateLimitDest}
	fail := func(format string, a ...any) (Input, TargetSources, error) {
		return Input{}, TargetSources{}, fmt.Errorf(format, a...)
	}
	if in.BandwidthBitsPerSec, err = units.ParseBandwidth(r.Bandwidth); err != nil {
		return fail("--bandwidth: %v", err)
	}
	if r.RateLimit != "" {
		if in.RateLimitBitsPerSec, err = units.ParseBandwidth(r.RateLimit); err != nil {
			return fail("--rate-limit: %v", err)
		}
	}
	if r.Memory != "" {
		if in.MemoryBytes, err = units.ParseSize(r.Memory); err != nil {
			return fail("--memory: %v", err)
		}
	}
	if r.Lowmem != "" {
		if in.LowmemBytes, err = units.ParseSize(r.Lowmem); err != nil {
			return fail("--lowmem: %v", err)
		}
	}
	if r.PageSize != "" {
		ps, err := units.ParseSize(r.PageSize)
		if err != nil {
			return fail("--page-size: %v", err)
		}
		in.PageSizeBytes = int(ps)
	}
	in.KernelVersion, in.Arch = r.Kernel, r.Arch

	host := h.Host
	if h.Err != nil && (in.MemoryBytes == 0 || in.KernelVersion == "" || in.Arch == "") {
		return fail("host facts not given by flags and %v", h.Err)
	}
	if in.MemoryBytes == 0 {
		in.MemoryBytes = host.MemTotalKB * 1024
		if in.LowmemBytes == 0 && r.Arch == "" {
			in.LowmemBytes = host.LowTotalKB * 1024 // LowTotal exists only with CONFIG_HIGHMEM
		}
	}
	if in.KernelVersion == "" {
		if in.KernelVersion = host.Kernel; in.KernelVersion == "" {
			return fail("--kernel not given and kernel.osrelease is unreadable")
		}
	}
	if in.Arch == "" {
		if in.Arch = host.Arch; in.Arch == "" {
			return fail("--arch not given and this host's machine type is unknown")
		}
	}
	if in.PageSizeBytes == 0 {
		in.PageSizeBytes = 4096
		if r.Arch == "" && host.PageSize > 0 {
			in.PageSizeBytes = host.PageSize
		}
	}
	target := r.targetSources(in, host)
	if r.ForThisHost() {
		in.Current = map[string]string{}
		for _, k := range CurrentSysctlKeys {
			if v, ok := host.Sysctls[k]; ok && v != "" {
				in.Current[k] = v
			}
		}
		in.NICs = h.NICs
		in.CPUs = host.CPUs
		in.FQ = h.FQ
		// What this host's memory holds: the reserve must fit beside what reclaim cannot free.
		in.MemInfoKB = h.MemInfoKB
	}
	if r.CPUs != 0 {
		in.CPUs = r.CPUs
	}
	if r.NICSpeed != "" {
		bps, err := units.ParseBandwidth(r.NICSpeed)
		if err != nil {
			return fail("--nic-speed: %v", err)
		}
		in.NICs = []NIC{{SpeedMbps: int64(bps / 1e6)}}
	}
	return in, target, nil
}

// targetSources says where each of the plan's host facts came from: a flag, this host, or
// plan's default. The CPUs are this host's only when the plan is for this host: plan has no
// flag for them, and this host's count says nothing of another.
func (r Request) targetSources(in Input, host model.Host) TargetSources {
	from := func(flag string) FactSource {
		if flag != "" {
			return FactGiven
		}
		return FactRead
	}
	s := TargetSources{Memory: from(r.Memory), Kernel: from(r.Kernel), Arch: from(r.Arch), PageSize: from(r.PageSize)}
	switch {
	case r.Lowmem != "":
		s.Lowmem = FactGiven
	case r.Memory == "" && r.Arch == "" && in.LowmemBytes > 0:
		s.Lowmem = FactRead // LowTotal
	default:
		s.Lowmem = FactAssumed // the arch's split (LowmemLimitBytes)
	}
	if r.PageSize == "" && (r.Arch != "" || host.PageSize <= 0) {
		s.PageSize = FactAssumed
	}
	if r.ForThisHost() {
		s.CPUs, s.CPUsFrom = host.CPUs, FactRead
	}
	if r.Memory == "" || r.Kernel == "" || r.Arch == "" || s.PageSize == FactRead || s.CPUsFrom == FactRead {
		s.ReadFrom = host.Hostname
	}
	return s
}

// ReceivingNICs are the NICs that receive traffic (physical, or with a known speed; lo,
// ifb, bridges and speedless veth peers are skipped), by name, each with its ring sizes and
// whether it has lost frames (rx_missed/fifo/over errors above zero).
func ReceivingNICs(nics []kernel.NIC, devs []kernel.NetDev, stats []kernel.NICStats) []NIC {
	var out []NIC
	for _, f := range nics {
		if f.Name == "lo" || (f.Virtual && f.SpeedMbps <= 0) {
			continue
		}
		n := NIC{Name: f.Name}
		if f.SpeedMbps > 0 {
			n.SpeedMbps = f.SpeedMbps
		}
		for _, d := range devs {
			if d.Name != f.Name {
				continue
			}
			for _, c := range kernel.RxOverrunNetDevCounters {
				if v, ok := d.Counters.Get(c); ok && v > 0 {
					n.DropsSeen = true
				}
			}
		}
		for _, st := range stats {
			if st.Name == f.Name && st.Ring != nil {
				n.RxRing, n.RxRingMax = st.Ring.Rx, st.Ring.RxMax
			}
		}
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
