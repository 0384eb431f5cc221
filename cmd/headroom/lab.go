package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"headroom/lab"
	"headroom/lab/netlab"
	"headroom/plan"
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
	v, err := plan.ParseBandwidth(s)
	if err != nil {
		return err
	}
	r.bps = uint64(math.Round(v))
	return nil
}

type sizeFlag struct{ bytes int64 }

func (f *sizeFlag) String() string { return "" }
func (f *sizeFlag) Set(s string) error {
	v, err := plan.ParseSize(s)
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
	if sc.Failure != nil {
		if compare {
			fmt.Fprintf(stdio.Stderr, "headroom lab compare: %s is a failure scenario: use headroom lab run %s\n", sc.Name, sc.Name)
			return exitFailure
		}
		var matrixFlags []string
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "format", "allow-global", "timeout", "observe", "repeat", "variant":
			default:
				matrixFlags = append(matrixFlags, "--"+f.Name)
			}
		})
		if len(matrixFlags) > 0 {
			fmt.Fprintf(stdio.Stderr, "headroom lab run: %s is a failure scenario: %s do not apply\n", sc.Name, strings.Join(matrixFlags, ", "))
			return exitFailure
		}
		return labRunFailure(ctx, sc, lab.FailureOptions{AllowGlobal: *allowGlobal, Timeout: *timeout, Observe: *observe, Repeat: *repeat, Variant: *variant}, *format, stdio)
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

// labRunFailure runs a failure scenario and prints its report.
func labRunFailure(ctx context.Context, sc *lab.Scenario, opts lab.FailureOptions, format string, stdio IO) int {
	opts.Progress = func(msg string) { fmt.Fprintf(stdio.Stderr, "%s %s\n", time.Now().Format("15:04:05"), msg) }
	rep, err := lab.RunFailure(ctx, sc, opts)
	if rep != nil && (len(rep.Runs) > 0 || err == nil) {
		var werr error
		if format == "json" {
			enc := json.NewEncoder(stdio.Stdout)
			enc.SetIndent("", "  ")
			werr = enc.Encode(rep)
		} else {
			werr = lab.WriteFailureTable(stdio.Stdout, sc, rep)
		}
		if werr != nil {
			fmt.Fprintf(stdio.Stderr, "headroom lab run: %v\n", werr)
			return exitFailure
		}
	}
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "headroom lab run: %v\n", err)
		if errors.Is(err, netlab.ErrNeedRoot) {
			fmt.Fprintf(stdio.Stderr, "headroom lab run: the lab creates network namespaces and cgroups: run it as root\n")
		}
		return exitFailure
	}
	for _, r := range rep.Runs {
		if !r.Metric.OK || (len(r.Expected) > 0 && !r.Diagnosed) {
			return exitWarning
		}
	}
	return exitOK
}
