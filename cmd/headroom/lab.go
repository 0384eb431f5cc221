package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"headroom/lab"
	"headroom/lab/netlab"
	"headroom/lab/vm"
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
		removed, err := netlab.CleanupAll(netlab.NamePrefix)
		for _, n := range removed {
			fmt.Fprintln(stdio.Stdout, netlab.SweepLine(n))
		}
		if err != nil {
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
	fmt.Fprintln(stdio.Stdout, "scenarios:")
	for _, s := range lab.Scenarios() {
		kind := "compare"
		if s.Failure != nil {
			kind = "failure"
			if s.Failure.Global {
				kind = "failure, --allow-global"
			}
		}
		if s.Guest != nil {
			kind = "guest, --kernel"
		}
		fmt.Fprintf(stdio.Stdout, "  %-26s [%s] %s\n", s.Name, kind, s.Summary)
	}
	fmt.Fprintln(stdio.Stdout, "settings sets:")
	for _, s := range lab.SettingsSets() {
		fmt.Fprintf(stdio.Stdout, "  %-26s %s\n", s.Name(), s.Summary)
	}
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
	settingsSet := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "settings" {
			settingsSet = true
		}
	})
	if compare && settingsSet {
		fmt.Fprintf(stdio.Stderr, "headroom lab compare: --settings does not apply; compare runs every set\n")
		return exitFailure
	}
	sc, err := lab.LookupScenario(positional[0])
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "headroom %s: %v\n", name, err)
		return exitFailure
	}
	if sc.Guest != nil || *kernelName != "" {
		if compare {
			fmt.Fprintf(stdio.Stderr, "headroom lab compare: %s: guest scenarios run with headroom lab run %s --kernel NAME\n", sc.Name, sc.Name)
			return exitFailure
		}
		if other := flagsSetBesides(fs, "format", "timeout", "kernel", "trace"); len(other) > 0 {
			fmt.Fprintf(stdio.Stderr, "headroom lab run: %s runs in a QEMU guest: %s do not apply\n", sc.Name, strings.Join(other, ", "))
			return exitFailure
		}
		return labRunGuest(ctx, sc, lab.GuestOptions{Kernel: *kernelName, Timeout: *timeout, Trace: *traceWin}, *format, stdio)
	}
	if sc.Failure != nil {
		if compare {
			fmt.Fprintf(stdio.Stderr, "headroom lab compare: %s is a failure scenario: use headroom lab run %s\n", sc.Name, sc.Name)
			return exitFailure
		}
		if matrixFlags := flagsSetBesides(fs, "format", "allow-global", "timeout", "observe", "repeat", "variant", "trace"); len(matrixFlags) > 0 {
			fmt.Fprintf(stdio.Stderr, "headroom lab run: %s is a failure scenario: %s do not apply\n", sc.Name, strings.Join(matrixFlags, ", "))
			return exitFailure
		}
		return labRunFailure(ctx, sc, lab.FailureOptions{AllowGlobal: *allowGlobal, Timeout: *timeout, Observe: *observe, Repeat: *repeat, Variant: *variant, Trace: *traceWin}, *format, stdio)
	}
	if *traceWin {
		fmt.Fprintf(stdio.Stderr, "headroom %s: --trace traces the doctor windows of failure scenarios; %s runs no doctor\n", name, sc.Name)
		return exitFailure
	}
	cases, err := sc.Cases(lab.Overrides{
		RateBitsPerSec: rate.bps, RTT: *rtt, Streams: *streams, Warmup: *warmup, Measure: *measure,
		CongestionControl: *cc, LossFraction: *loss, MemoryBytes: memory.bytes,
		SndBufBytes: int(sndbuf.bytes), RcvBufBytes: int(rcvbuf.bytes),
		Shaper: netlab.Shaper(*shaper), Delay: netlab.DelayBackend(*delay),
	})
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "headroom %s: %v\n", name, err)
		return exitFailure
	}
	var sets []lab.Settings
	if compare {
		for _, s := range lab.SettingsSets() {
			sets = append(sets, s)
		}
	} else {
		s, err := lab.SettingsByNameOrFile(*settings)
		if err != nil {
			fmt.Fprintf(stdio.Stderr, "headroom %s: %v\n", name, err)
			return exitFailure
		}
		sets = []lab.Settings{s}
	}
	opts := lab.RunOptions{
		AllowGlobal: *allowGlobal,
		Timeout:     *timeout,
		Progress:    func(msg string) { fmt.Fprintf(stdio.Stderr, "%s %s\n", time.Now().Format("15:04:05"), msg) },
	}
	rep, err := lab.RunScenario(ctx, sc, cases, sets, opts)
	if len(rep.Runs) > 0 || err == nil {
		if *format == "json" {
			enc := json.NewEncoder(stdio.Stdout)
			enc.SetIndent("", "  ")
			if e := enc.Encode(rep); e != nil {
				fmt.Fprintf(stdio.Stderr, "headroom %s: %v\n", name, e)
				return exitFailure
			}
		} else {
			if e := lab.WriteTable(stdio.Stdout, rep); e != nil {
				fmt.Fprintf(stdio.Stderr, "headroom %s: %v\n", name, e)
				return exitFailure
			}
		}
	}
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "headroom %s: %v\n", name, err)
		if errors.Is(err, netlab.ErrNeedRoot) {
			fmt.Fprintf(stdio.Stderr, "headroom %s: the lab creates network namespaces: run it as root\n", name)
		}
		return exitFailure
	}
	return exitOK
}

// labRunGuest runs a guest scenario (lab/vm) and prints its report: exit 0 when every
// judgement held, 1 when one did not, 3... as the failure scenarios: a run that could not
// complete is a failure too.
// flagsSetBesides lists the flags given on the command line other than allowed, as "--name".
func flagsSetBesides(fs *flag.FlagSet, allowed ...string) []string {
	var out []string
	fs.Visit(func(f *flag.Flag) {
		if !slices.Contains(allowed, f.Name) {
			out = append(out, "--"+f.Name)
		}
	})
	return out
}

func labRunGuest(ctx context.Context, sc *lab.Scenario, opts lab.GuestOptions, format string, stdio IO) int {
	opts.Progress = labProgress(stdio)
	rep, err := lab.RunGuest(ctx, sc, opts)
	if rep != nil && !writeLabReport(stdio, format, rep, func(w io.Writer) error { return lab.WriteGuestReport(w, rep) }) {
		return exitFailure
	}
	if err != nil {
		return labRunError(stdio, err, "the QEMU lab creates a network namespace and a tap")
	}
	if !rep.OK {
		return exitWarning
	}
	return exitOK
}

func labProgress(stdio IO) func(string) {
	return func(msg string) { fmt.Fprintf(stdio.Stderr, "%s %s\n", time.Now().Format("15:04:05"), msg) }
}

// writeLabReport prints a run's report as JSON or as text; false when it could not.
func writeLabReport(stdio IO, format string, rep any, text func(io.Writer) error) bool {
	var err error
	if format == "json" {
		enc := json.NewEncoder(stdio.Stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(rep)
	} else {
		err = text(stdio.Stdout)
	}
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "headroom lab run: %v\n", err)
		return false
	}
	return true
}

// labRunError reports a run that could not complete; needs says what root is needed for.
func labRunError(stdio IO, err error, needs string) int {
	fmt.Fprintf(stdio.Stderr, "headroom lab run: %v\n", err)
	if errors.Is(err, netlab.ErrNeedRoot) {
		fmt.Fprintf(stdio.Stderr, "headroom lab run: %s: run it as root\n", needs)
	}
	return exitFailure
}

// labRunFailure runs a failure scenario and prints its report.
func labRunFailure(ctx context.Context, sc *lab.Scenario, opts lab.FailureOptions, format string, stdio IO) int {
	opts.Progress = labProgress(stdio)
	rep, err := lab.RunFailure(ctx, sc, opts)
	if rep != nil && (len(rep.Runs) > 0 || err == nil) &&
		!writeLabReport(stdio, format, rep, func(w io.Writer) error { return lab.WriteFailureTable(w, sc, rep) }) {
		return exitFailure
	}
	if err != nil {
		return labRunError(stdio, err, "the lab creates network namespaces and cgroups")
	}
	for _, r := range rep.Runs {
		if !r.Metric.OK || (len(r.Expected) > 0 && !r.Diagnosed) {
			return exitWarning
		}
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
	cache := vm.CacheDir()
	failed := false
	if *fetch {
		for _, k := range vm.Kernels() {
			if _, err := vm.Fetch(ctx, k, cache, labProgress(stdio)); err != nil {
				fmt.Fprintf(stdio.Stderr, "headroom lab kernels: %v\n", err)
				failed = true
			}
		}
	}
	st := vm.StatAll(cache)
	if *format == "json" {
		enc := json.NewEncoder(stdio.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{"cache": cache, "kernels": st}); err != nil {
			return exitFailure
		}
	} else {
		fmt.Fprintf(stdio.Stdout, "cache %s (%s)\n", cache, vm.CacheEnv)
		for _, s := range st {
			if s.Present {
				fmt.Fprintf(stdio.Stdout, "  %-20s present  %s %s (%s) %s\n", s.Name, s.Package, s.Version, s.Release, s.Vmlinuz)
			} else {
				fmt.Fprintf(stdio.Stdout, "  %-20s absent   %s\n", s.Name, s.Missing)
			}
		}
	}
	if failed {
		return exitFailure
	}
	return exitOK
}
