package main

import (
	"context"
	"fmt"

	"headroom/kernel"
	"headroom/plan"
	"headroom/source"
)

func init() {
	register("plan", "compute buffer, memory and queue settings for a link from its BDP, budgeted against RAM", runPlan)
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
	var r plan.Request
	fs.StringVar(&r.Bandwidth, "bandwidth", "", "rate to fill, e.g. 1Gbit (required)")
	fs.StringVar(&r.RTT, "rtt", "", "round-trip time, e.g. 125ms, or the range the flows see, e.g. 0.5ms-50ms: buffers cover the upper end (one value: twice it) (required)")
	fs.IntVar(&r.Streams, "streams", 0, "parallel TCP streams sharing the bandwidth (not given: 1 is assumed, and the plan says so)")
	fs.StringVar(&r.Memory, "memory", "", "RAM (MemTotal), e.g. 8GiB; default: this host")
	fs.StringVar(&r.Lowmem, "lowmem", "", "lowmem of a 32-bit HighMem kernel; default: this host's LowTotal, or the arch's split")
	fs.StringVar(&r.Role, "role", plan.RoleBoth, "receiver, sender or both")
	fs.IntVar(&r.MTU, "mtu", 1500, "path MTU in bytes")
	fs.StringVar(&r.Kernel, "kernel", "", "kernel release, e.g. 2.6.13; default: this host")
	fs.StringVar(&r.Arch, "arch", "", "uname -m, e.g. i686, x86_64; default: this host")
	fs.StringVar(&r.PageSize, "page-size", "", "page size; default: this host's, or 4096 with --arch")
	fs.StringVar(&r.RateLimit, "rate-limit", "", "cap the sender with HTB at this rate, e.g. 400mbit")
	fs.StringVar(&r.RateLimitDevice, "rate-limit-dev", "", "device for --rate-limit (default: first NIC)")
	fs.StringVar(&r.RateLimitDest, "rate-limit-dst", "", "limit only traffic to this IPv4 address or CIDR")
	fs.StringVar(&r.NICSpeed, "nic-speed", "", "receive line rate (all NICs, e.g. 2Gbit for a bonded pair); default: this host's NICs or --bandwidth")
	fs.Float64Var(&r.WindowRatio, "window-ratio", 0, "receive-window share of tcp_rmem measured on the target (0 = from the kernel version)")
	fs.DurationVar(&r.KswapdReaction, "kswapd-reaction", 0, "time free memory must last before kswapd frees pages (default 100ms)")
	fs.IntVar(&r.CPUs, "cpus", 0, "CPUs of the host (each has its own input backlog and softirq round); default: this host's when the plan describes it")
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
	in, target, err := r.Input(source.ReadPlanHost(planRoot, r.ForThisHost()))
	if err != nil {
		return fail("%v", err)
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

// planRoot is where plan reads this host's facts; tests point it at a fixture tree.
var planRoot = kernel.HostRoot()
