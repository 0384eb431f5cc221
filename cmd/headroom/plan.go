package main

import (
	"context"
	"fmt"
	"sort"

	"headroom/kernel"
	"headroom/model"
	"headroom/plan"
	"headroom/source"
	"headroom/units"
)

func init() {
	register("plan", "compute buffer, memory and queue settings for a link from its BDP, budgeted against RAM", runPlan)
}

// planSysctlKeys are the sysctls plan reads as "current" values.
var planSysctlKeys = []string{
	"net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem", "net.ipv4.tcp_mem", "net.ipv4.tcp_adv_win_scale",
	"net.core.rmem_max", "net.core.wmem_max", "vm.min_free_kbytes", "vm.watermark_scale_factor", "vm.dirty_ratio",
	"net.core.netdev_max_backlog", "net.core.netdev_budget", "net.core.netdev_budget_usecs",
	"net.ipv4.tcp_notsent_lowat", "net.ipv4.tcp_congestion_control",
	"net.ipv4.tcp_available_congestion_control", "net.core.default_qdisc",
}

func runPlan(ctx context.Context, args []string, stdio IO) int {
	fs := newFlagSet("plan", stdio)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), `usage: headroom plan --bandwidth RATE --rtt DURATION[-DURATION] [flags]

Computes TCP buffer limits from the bandwidth-delay product, budgets them against memory
(lowmem on a 32-bit HighMem kernel), and sizes the free-page reserve and packet queues.
Host facts not given by flags (memory, kernel, arch, page size) are read from this host;
current sysctl values, NICs and /proc/meminfo are read only when the plan describes this
host (none of --memory, --lowmem, --kernel, --arch given): the free-page reserve is then
kept within what fits beside the memory reclaim cannot free, and tcp_mem lowered to make
room when it must. Exit 0: the plan fills the link within the budget; 1: the budget forced
lower buffers; 3: bad input.

Rates: 1Gbit, 400mbit, 100Mbps (bits), 125MB/s (bytes). Sizes: 8GiB, 512MiB, 512MB (10^6).`)
		fs.PrintDefaults()
	}
	bandwidth := fs.String("bandwidth", "", "rate to fill, e.g. 1Gbit (required)")
	rtt := fs.String("rtt", "", "round-trip time, e.g. 125ms, or the range the flows see, e.g. 0.5ms-50ms: buffers cover the upper end (one value: twice it) (required)")
	streams := fs.Int("streams", 0, "parallel TCP streams sharing the bandwidth (not given: 1 is assumed, and the plan says so)")
	memory := fs.String("memory", "", "RAM (MemTotal), e.g. 8GiB; default: this host")
	lowmem := fs.String("lowmem", "", "lowmem of a 32-bit HighMem kernel; default: this host's LowTotal, or the arch's split")
	role := fs.String("role", plan.RoleBoth, "receiver, sender or both")
	mtu := fs.Int("mtu", 1500, "path MTU in bytes")
	kernelVer := fs.String("kernel", "", "kernel release, e.g. 2.6.13; default: this host")
	arch := fs.String("arch", "", "uname -m, e.g. i686, x86_64; default: this host")
	pageSize := fs.String("page-size", "", "page size; default: this host's, or 4096 with --arch")
	rateLimit := fs.String("rate-limit", "", "cap the sender with HTB at this rate, e.g. 400mbit")
	rateDev := fs.String("rate-limit-dev", "", "device for --rate-limit (default: first NIC)")
	rateDst := fs.String("rate-limit-dst", "", "limit only traffic to this IPv4 address or CIDR")
	nicSpeed := fs.String("nic-speed", "", "receive line rate (all NICs, e.g. 2Gbit for a bonded pair); default: this host's NICs or --bandwidth")
	windowRatio := fs.Float64("window-ratio", 0, "receive-window share of tcp_rmem measured on the target (0 = from the kernel version)")
	reaction := fs.Duration("kswapd-reaction", 0, "time free memory must last before kswapd frees pages (default 100ms)")
	cpus := fs.Int("cpus", 0, "CPUs of the host (each has its own input backlog and softirq round); default: this host's when the plan describes it")
	format := fs.String("format", "text", "text, json or sysctl (a sysctl.d drop-in)")
	if _, code, ok := parseFlags(fs, stdio, args, false); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stdio.Stderr, "headroom plan: unexpected argument %q\n", fs.Arg(0))
		return exitFailure
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stdio.Stderr, "headroom plan: "+format+"\n", a...)
		return exitFailure
	}
	switch *format {
	case "text", "json", "sysctl":
	default:
		return fail("--format %q: want text, json or sysctl", *format)
	}
	if *bandwidth == "" {
		return fail("--bandwidth is required (e.g. --bandwidth 1Gbit)")
	}
	rttLo, rttHi, err := units.ParseRTTRange(*rtt)
	if err != nil {
		return fail("--rtt must be greater than zero (e.g. --rtt 125ms or --rtt 0.5ms-50ms): %v", err)
	}

	in := plan.Input{RTT: rttLo, RTTMax: rttHi, Streams: *streams, Role: *role, MTUBytes: *mtu, WindowRatio: *windowRatio,
		KswapdReaction: *reaction, RateLimitDevice: *rateDev, RateLimitDestination: *rateDst}
	if in.BandwidthBitsPerSec, err = units.ParseBandwidth(*bandwidth); err != nil {
		return fail("--bandwidth: %v", err)
	}
	if *rateLimit != "" {
		if in.RateLimitBitsPerSec, err = units.ParseBandwidth(*rateLimit); err != nil {
			return fail("--rate-limit: %v", err)
		}
	}
	if *memory != "" {
		if in.MemoryBytes, err = units.ParseSize(*memory); err != nil {
			return fail("--memory: %v", err)
		}
	}
	if *lowmem != "" {
		if in.LowmemBytes, err = units.ParseSize(*lowmem); err != nil {
			return fail("--lowmem: %v", err)
		}
	}
	if *pageSize != "" {
		ps, err := units.ParseSize(*pageSize)
		if err != nil {
			return fail("--page-size: %v", err)
		}
		in.PageSizeBytes = int(ps)
	}
	in.KernelVersion, in.Arch = *kernelVer, *arch

	// Fill what the flags left open from this host, through the same readers as doctor.
	thisHost := *memory == "" && *lowmem == "" && *kernelVer == "" && *arch == ""
	host, nics, err := planHostFacts(planRoot)
	if err != nil && (in.MemoryBytes == 0 || in.KernelVersion == "" || in.Arch == "") {
		return fail("host facts not given by flags and %v", err)
	}
	if in.MemoryBytes == 0 {
		in.MemoryBytes = host.MemTotalKB * 1024
		if in.LowmemBytes == 0 && *arch == "" {
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
		if *arch == "" && host.PageSize > 0 {
			in.PageSizeBytes = host.PageSize
		}
	}
	target := planTargetSources(in, host, *memory, *lowmem, *kernelVer, *arch, *pageSize, thisHost)
	if thisHost {
		in.Current = map[string]string{}
		for _, k := range planSysctlKeys {
			if v, ok := host.Sysctls[k]; ok && v != "" {
				in.Current[k] = v
			}
		}
		in.NICs = nics
		in.CPUs = host.CPUs
		in.FQ, _ = kernel.QdiscAvailability(planRoot, host.Kernel, "fq")
		// What this host's memory holds: the reserve must fit beside what reclaim cannot free.
		if mi, err := kernel.ReadMemInfo(planRoot); err == nil {
			in.MemInfoKB = map[string]int64{}
			for i := 0; i < mi.Len(); i++ {
				k, v := mi.At(i)
				in.MemInfoKB[k] = v
			}
		}
	}
	if *cpus != 0 {
		in.CPUs = *cpus
	}
	if *nicSpeed != "" {
		bps, err := units.ParseBandwidth(*nicSpeed)
		if err != nil {
			return fail("--nic-speed: %v", err)
		}
		in.NICs = []plan.NIC{{SpeedMbps: int64(bps / 1e6)}}
	}

	p, err := plan.Compute(in)
	if err != nil {
		return fail("%v", err)
	}
	t := plan.NewTargetHost(p, target)
	p.Target = &t
	switch *format {
	case "json":
		err = plan.WriteJSON(stdio.Stdout, p)
	case "sysctl":
		err = plan.WriteSysctl(stdio.Stdout, p)
	default:
		err = plan.WriteText(stdio.Stdout, p)
	}
	if err != nil {
		return fail("%v", err)
	}
	if !p.Budget.Fits {
		return exitWarning
	}
	return exitOK
}

// planTargetSources says where each of the plan's host facts came from: a flag, this host,
// or plan's default. The CPUs are this host's only when the plan is for this host: plan has
// no flag for them, and this host's count says nothing of another.
func planTargetSources(in plan.Input, host model.Host, memory, lowmem, kernelVer, arch, pageSize string, thisHost bool) plan.TargetSources {
	from := func(flag string) plan.FactSource {
		if flag != "" {
			return plan.FactGiven
		}
		return plan.FactRead
	}
	s := plan.TargetSources{Memory: from(memory), Kernel: from(kernelVer), Arch: from(arch), PageSize: from(pageSize)}
	switch {
	case lowmem != "":
		s.Lowmem = plan.FactGiven
	case memory == "" && arch == "" && in.LowmemBytes > 0:
		s.Lowmem = plan.FactRead // LowTotal
	default:
		s.Lowmem = plan.FactAssumed // the arch's split (plan.LowmemLimitBytes)
	}
	if pageSize == "" && (arch != "" || host.PageSize <= 0) {
		s.PageSize = plan.FactAssumed
	}
	if thisHost {
		s.CPUs, s.CPUsFrom = host.CPUs, plan.FactRead
	}
	if memory == "" || kernelVer == "" || arch == "" || s.PageSize == plan.FactRead || s.CPUsFrom == plan.FactRead {
		s.ReadFrom = host.Hostname
	}
	return s
}

// planRoot is where plan reads this host's facts; tests point it at a fixture tree.
var planRoot = kernel.HostRoot()

// planHostFacts reads the host facts and receiving NICs of root with the readers doctor
// uses: MemTotal and LowTotal, kernel release, machine and page size, the sysctls, and each
// NIC that receives traffic (physical, or with a known speed; ifb, bridges and speedless veth
// peers are skipped) with its ring sizes and whether it has lost frames
// (rx_missed/fifo/over errors above zero).
func planHostFacts(root kernel.Root) (model.Host, []plan.NIC, error) {
	nicFacts, _ := kernel.ReadNICs(root)
	host, _ := source.ReadHost(root, nicFacts)
	if host.MemTotalKB == 0 {
		return host, nil, fmt.Errorf("/proc/meminfo: no MemTotal")
	}
	devs, _ := kernel.ReadNetDev(root)
	var eth kernel.Ethtool
	if root.IsHost() {
		if e, err := kernel.NewEthtool(); err == nil {
			eth = e
			defer e.Close()
		}
	}
	stats := kernel.ReadNICStats(root, eth, nicFacts)
	var out []plan.NIC
	for _, f := range nicFacts {
		if f.Name == "lo" || (f.Virtual && f.SpeedMbps <= 0) {
			continue
		}
		n := plan.NIC{Name: f.Name}
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
	return host, out, nil
}
