package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"

	"headroom/lab"
	"headroom/lab/netlab"
	"headroom/units"
)

func init() {
	register("lab", "prove settings in a network-namespace lab on this kernel (needs root)", runLab)
}

func labUsage(w io.Writer) {
	fmt.Fprint(w, `usage:
  headroom lab list
  headroom lab run SCENARIO [--settings NAME|FILE] [flags]
  headroom lab compare SCENARIO [flags]
  headroom lab cleanup
  headroom lab kernels [--fetch] [--format json]

run applies one settings set (default: headroom); compare runs every set on every case and
prints them side by side. Progress goes to stderr, results to stdout. cleanup removes what
killed runs left behind (namespaces hr-*, cgroups, zram swap, scratch files, global sysctls
they changed, unless someone changed them since) and prints what the guardians of runs
killed with SIGKILL restored by themselves.

Failure scenarios (lab list marks them) reproduce a failure, run doctor live against it and
measure the fix: lab run SCENARIO [--format json] [--allow-global] [--timeout D]
[--observe D] [--repeat N] [--variant NAME]. Their exit status is 0 when doctor reported an
expected finding and the fix met its margin, 1 otherwise, 3 when the run failed.
`)
}

func runLab(ctx context.Context, args []string, stdio IO) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) == 0 {
			labUsage(stdio.Stderr)
			return exitFailure
		}
		labUsage(stdio.Stdout)
		printExamples(stdio.Stdout, "lab")
		return exitOK
	}
	switch args[0] {
	case "list":
		return labList(args[1:], stdio)
	case "run":
		return labRun(ctx, args[1:], stdio, false)
	case "compare":
		return labRun(ctx, args[1:], stdio, true)
	case "kernels":
		return labKernels(ctx, args[1:], stdio)
	case "cleanup":
		if err := lab.Cleanup(stdio.Stdout); err != nil {
			fmt.Fprintf(stdio.Stderr, "headroom lab cleanup: %v\n", err)
			return exitFailure
		}
		return exitOK
	}
	fmt.Fprintf(stdio.Stderr, "headroom lab: unknown subcommand %q\n", args[0])
	labUsage(stdio.Stderr)
	return exitFailure
}

func labList(args []string, stdio IO) int {
	fs := newFlagSet("lab list", stdio)
	if _, code, ok := parseFlags(fs, stdio, args, false); !ok {
		return code
	}
	lab.WriteList(stdio.Stdout)
	return exitOK
}

// rateFlag, sizeFlag: flag.Value wrappers over plan's unit parsers, so the lab reads rates
// and sizes exactly as `headroom plan` does.
type rateFlag struct{ bps uint64 }

func (r *rateFlag) String() string {
	if r.bps == 0 {
		return ""
	}
	return lab.FormatRate(r.bps)
}
func (r *rateFlag) Set(s string) error {
	v, err := units.ParseBandwidth(s)
	if err != nil {
		return err
	}
	r.bps = uint64(math.Round(v))
	return nil
}

type sizeFlag struct{ bytes int64 }

func (f *sizeFlag) String() string { return "" }
func (f *sizeFlag) Set(s string) error {
	v, err := units.ParseSize(s)
	if err != nil {
		return err
	}
	f.bytes = v
	return nil
}

func labRun(ctx context.Context, args []string, stdio IO, compare bool) int {
	name := "lab run"
	if compare {
		name = "lab compare"
	}
	fs := newFlagSet(name, stdio)
	var (
		rate, memory   = &rateFlag{}, &sizeFlag{}
		sndbuf, rcvbuf = &sizeFlag{}, &sizeFlag{}
		settings       = fs.String("settings", "headroom", "settings set name or file (sysctl.conf lines or plan JSON); run only")
		format         = fs.String("format", "text", "output: text or json")
		rtt            = fs.Duration("rtt", 0, "round-trip time to model (default: the scenario's)")
		streams        = fs.Int("streams", 0, "parallel TCP streams (default: the scenario's)")
		warmup         = fs.Duration("warmup", 0, "sending time excluded from throughput (default: the scenario's)")
		measure        = fs.Duration("measure", 0, "measurement window after the warm-up (default: the scenario's)")
		timeout        = fs.Duration("timeout", 0, "time bound for each run (default: 2 × sending time + 30s)")
		cc             = fs.String("cc", "", "congestion control for every socket (default: the namespace's)")
		loss           = fs.Float64("loss", 0, "fraction of data packets to drop at random, 0..1")
		shaper         = fs.String("shaper", "", "htb or tbf (default htb)")
		delay          = fs.String("delay-backend", "", "auto, netem or delayline (default auto: netem if the kernel has it)")
		allowGlobal    = fs.Bool("allow-global", false, "also apply sysctls that exist only in the initial namespace (restored at the end)")
		observe        = fs.Duration("observe", 0, "failure scenarios: how long orphan-hoard watches the unfixed orphans (default 20s)")
		repeat         = fs.Int("repeat", 0, "failure scenarios: flood/idle/re-measure rounds of flood-recovery (default 2)")
		variant        = fs.String("variant", "", "failure scenarios: run one variant only (flood-recovery: healthy or leaking)")
		traceWin       = fs.Bool("trace", false, "failure scenarios: trace the kernel's drop reasons and reclaim stalls during each doctor window (as doctor --trace); guest failure scenarios: during the before guest's load (record --trace)")
		kernelName     = fs.String("kernel", "", "guest scenarios: the kernel to boot in QEMU (headroom lab kernels)")
	)
	fs.Var(rate, "rate", "link rate to model, e.g. 100Mbit, 1Gbit (default: the scenario's)")
	fs.Var(memory, "memory", "host RAM the memory budget assumes, e.g. 1GiB (default: this machine's)")
	fs.Var(sndbuf, "sndbuf", "fixed SO_SNDBUF per socket, e.g. 4MiB (default: autotuning)")
	fs.Var(rcvbuf, "rcvbuf", "fixed SO_RCVBUF per socket (default: autotuning)")
	// Accept flags after the scenario name too: "lab run long-fat-pipe --rate 1Gbit".
	positional, code, ok := parseFlags(fs, stdio, args, true)
	if !ok {
		return code
	}
	if len(positional) != 1 {
		fmt.Fprintf(stdio.Stderr, "headroom %s: want exactly one scenario, got %d (see headroom lab list)\n", name, len(positional))
		return exitFailure
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stdio.Stderr, "headroom %s: --format %q: want text or json\n", name, *format)
		return exitFailure
	}
	c := &lab.Command{Compare: compare, Scenario: positional[0], Settings: *settings, Format: *format,
		Overrides: lab.Overrides{
			RateBitsPerSec: rate.bps, RTT: *rtt, Streams: *streams, Warmup: *warmup, Measure: *measure,
			CongestionControl: *cc, LossFraction: *loss, MemoryBytes: memory.bytes,
			SndBufBytes: int(sndbuf.bytes), RcvBufBytes: int(rcvbuf.bytes),
			Shaper: netlab.Shaper(*shaper), Delay: netlab.DelayBackend(*delay),
		},
		Failure:     lab.FailureOptions{Observe: *observe, Repeat: *repeat, Variant: *variant, Trace: *traceWin},
		Guest:       lab.GuestOptions{Kernel: *kernelName, Trace: *traceWin},
		AllowGlobal: *allowGlobal, Timeout: *timeout, Stdout: stdio.Stdout, Stderr: stdio.Stderr}
	fs.Visit(func(f *flag.Flag) {
		c.Given = append(c.Given, f.Name)
		c.SettingsGiven = c.SettingsGiven || f.Name == "settings"
	})
	held, err := c.Run(ctx)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "headroom %s: %v\n", name, err)
		if nr := (*lab.NeedRootError)(nil); errors.As(err, &nr) {
			fmt.Fprintf(stdio.Stderr, "headroom %s: %s: run it as root\n", name, nr.Creates)
		}
		return exitFailure
	}
	if held {
		return exitWarning
	}
	return exitOK
}

// labKernels lists the kernels the QEMU lab boots, fetching them first with --fetch.
func labKernels(ctx context.Context, args []string, stdio IO) int {
	fs := flag.NewFlagSet("lab kernels", flag.ContinueOnError)
	fs.SetOutput(stdio.Stderr)
	fetch := fs.Bool("fetch", false, "download and unpack the absent kernels (apt-get download, dpkg-deb -x; never installed)")
	format := fs.String("format", "text", "output: text or json")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || (*format != "text" && *format != "json") {
		fmt.Fprintln(stdio.Stderr, "usage: headroom lab kernels [--fetch] [--format text|json]")
		return exitFailure
	}
	if !lab.Kernels(ctx, *fetch, *format, stdio.Stdout, stdio.Stderr) {
		return exitFailure
	}
	return exitOK
}
