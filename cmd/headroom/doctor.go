package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"headroom/artifact"
	"headroom/diagnose"
	"headroom/input"
	"headroom/judge"
	"headroom/kernel"
	"headroom/model"
	"headroom/report"
	"headroom/source"
	"headroom/tune"
)

func init() {
	register("doctor", "diagnose this host now, a capture, a recording, or pasted text", runDoctor)
}

type doctorFlags struct {
	format   string
	duration time.Duration
	interval time.Duration
	from     string
	root     string
	kernel   string
	skip     string
	verbose  bool
	checks   bool
	pagetype bool
	logSince time.Duration
	hostRoot string
	netns    string
	pid      int
	kubelet  string
	stateDir string
	trace    time.Duration
	traceHow string
}

func runDoctor(ctx context.Context, args []string, stdio IO) int {
	fs := newFlagSet("doctor", stdio)
	var f doctorFlags
	fs.StringVar(&f.format, "format", "text", "output format: text, json, or markdown (the ticket format of headroom report)")
	fs.DurationVar(&f.duration, "duration", 3*time.Second, "live: how long to sample (rates need two samples; 0: one sample, no rates)")
	fs.DurationVar(&f.interval, "interval", time.Second, "live: time between samples")
	fs.StringVar(&f.from, "from", "", "diagnose a capture (.txtar), a captured directory, or a recording (.jsonl.gz)")
	fs.StringVar(&f.root, "root", "", "read the kernel files under this directory instead of /")
	fs.StringVar(&f.kernel, "kernel", "", "text: the kernel release the text came from, when it does not say (decodes GFP flags)")
	fs.StringVar(&f.skip, "skip", "", "comma-separated rule ids not to run")
	fs.BoolVar(&f.verbose, "verbose", false, "list every rule's result")
	fs.BoolVar(&f.checks, "checks", false, "list each rule that could not check and what it needs (by default one line for all)")
	fs.BoolVar(&f.pagetype, "pagetypeinfo", false, "live: also read /proc/pagetypeinfo (takes the zone lock)")
	fs.StringVar(&f.hostRoot, "host-root", "", "live: the host's / is mounted here (a container with hostPath /): sample it, and read the host's network through its proc/1/net")
	fs.StringVar(&f.netns, "netns", "", "live: also read this network namespace's TCP settings and counters (a name under /run/netns, or a path) and compare them with the host's")
	fs.StringVar(&f.kubelet, "kubelet-config", "", "the kubelet's configuration file (KubeletConfiguration), to check its memory eviction threshold against vm.min_free_kbytes; live hosts find a running kubelet's by themselves")
	fs.IntVar(&f.pid, "pid", 0, "live: as --netns, for the network namespace of this process (a pod's container)")
	fs.DurationVar(&f.logSince, "log-since", time.Hour, "live, captures and recordings: kernel log records within 5 min before sampling or while sampled are the present; older ones back to this are the recent past (a warning at most, with their age), older still history (info)")
	fs.StringVar(&f.stateDir, "state-dir", tune.DefaultStateDir, "live: the journal of headroom tune, checked for settings that drifted (settings-drifted)")
	fs.DurationVar(&f.trace, "trace", 0, "live: also trace the kernel for this long (sampling as long): packet drops by the kernel's reason and location, direct reclaim and compaction stalls; needs root and tracefs, restores every tracing setting after (0: off)")
	fs.StringVar(&f.traceHow, "trace-mechanism", source.TraceMechanismRaw, "live, with --trace: read the events as raw (per-CPU binary buffers) or text (trace_pipe; slower, kept for measurement)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: headroom doctor [flags]              diagnose this host (samples --duration at --interval)")
		fmt.Fprintln(fs.Output(), "       headroom doctor [flags] FILE... | -  diagnose pasted text: dmesg, vmstat, a forum post")
		fmt.Fprintln(fs.Output(), "       headroom doctor < FILE, CMD | headroom doctor: the text on standard input (a terminal, /dev/null or an empty pipe: this host)")
		fmt.Fprintln(fs.Output(), "       headroom doctor --from CAPTURE|DIR|ARCHIVE")
		fmt.Fprintln(fs.Output(), "Exit status: 0 no finding (the verdict says whether anything could be checked), 1 warnings, 2 critical findings, 3 could not run.")
		fs.PrintDefaults()
	}
	files, code, ok := parseFlags(fs, stdio, args, true)
	if !ok {
		return code
	}
	if f.format != "text" && f.format != "json" && f.format != "markdown" {
		fmt.Fprintf(stdio.Stderr, "headroom doctor: unknown --format %q (text, json or markdown)\n", f.format)
		return exitFailure
	}
	if len(files) == 0 && f.from == "" && f.root == "" && f.hostRoot == "" && f.netns == "" && f.pid == 0 {
		// `doctor < file`, `cat file | headroom doctor`: the text on standard input.
		r, isText, note := input.StdinText(stdio.Stdin, input.StdinWait)
		if isText {
			files, stdio.Stdin = []string{"-"}, r
		} else if note != "" {
			fmt.Fprintln(stdio.Stderr, note)
		}
	}
	var tracer *source.Tracer
	var traceNA *model.Unavailable
	if f.trace > 0 {
		if len(files) > 0 || f.from != "" || (f.root != "" && f.root != "/") || f.hostRoot != "" {
			fmt.Fprintln(stdio.Stderr, "headroom doctor: --trace traces this host's kernel: not with text, --from, --root or --host-root")
			return exitFailure
		}
		durSet := false
		fs.Visit(func(fl *flag.Flag) { durSet = durSet || fl.Name == "duration" })
		if !durSet {
			f.duration = f.trace // the counters cover the traced window
		}
		var err error
		if tracer, traceNA, err = source.StartTraceNoting(source.TraceOptions{Mechanism: f.traceHow}); err != nil {
			return failed(stdio, "doctor", err)
		}
		// Every exit path restores: a return (a signal cancels ctx, and the sampling returns)
		// and a panic run this; a SIGKILL leaves it to the trace guard.
		defer func() {
			if tracer != nil {
				tracer.Stop()
			}
		}()
	}
	tl, err := loadTimeline(ctx, f, files, stdio)
	if err != nil {
		return failed(stdio, "doctor", err)
	}
	if tracer != nil {
		err := tracer.FinishInto(ctx, tl, f.trace-f.duration)
		tracer = nil
		if err != nil {
			return failed(stdio, "doctor", err)
		}
	}
	if traceNA != nil {
		tl.NotAvailable = append(tl.NotAvailable, *traceNA)
	}
	if refuseNothingRead(stdio, "doctor", tl, files) {
		return exitFailure
	}
	if f.netns != "" || f.pid != 0 {
		if tl.Source.Kind != model.SourceLive {
			fmt.Fprintln(stdio.Stderr, "headroom doctor: --netns and --pid read a live namespace: not with text, --from or --root")
			return exitFailure
		}
		procDir := "/proc"
		if f.hostRoot != "" {
			procDir = filepath.Join(f.hostRoot, "proc")
		}
		ns, err := source.ReadNetns(source.NetnsTarget{Name: f.netns, PID: f.pid, ProcDir: procDir})
		if err != nil {
			return failed(stdio, "doctor", err)
		}
		tl.Netns = ns
	}
	if err := source.AddKubelet(tl, doctorRoot(f), f.kubelet); err != nil {
		return failed(stdio, "doctor", err)
	}
	d := diagnose.Run(tl, splitSet(f.skip))
	// The journal is this host's: under another --root only with a --state-dir of its own,
	// so a captured tree is never compared with this host's journal.
	stateDirSet := false
	fs.Visit(func(fl *flag.Flag) { stateDirSet = stateDirSet || fl.Name == "state-dir" })
	if len(files) == 0 && f.from == "" && !splitSet(f.skip)["settings-drifted"] && (f.root == "" || f.root == "/" || stateDirSet) {
		doctorSettingsDrifted(ctx, &d, f.stateDir, f.root)
	}
	judge.PlaceFindings(tl, &d)
	d.Retell(tl)
	switch f.format {
	case "json":
		err = report.WriteJSON(stdio.Stdout, tl, d)
	case "markdown":
		err = report.WriteMarkdown(stdio.Stdout, tl, d)
	default:
		err = report.WriteText(stdio.Stdout, tl, d, report.TextOptions{Verbose: f.verbose, Checks: f.checks})
	}
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "headroom doctor: writing the report: %v\n", err)
		return exitFailure
	}
	return exitCodeFor(d)
}

// doctorRoot is the root doctor reads the kubelet's files under: the mounted host's, a
// captured tree's (--root), or this host's.
func doctorRoot(f doctorFlags) kernel.Root {
	switch {
	case f.hostRoot != "":
		return kernel.MountedHostRoot(f.hostRoot)
	case f.root != "" && f.root != "/":
		return kernel.DirRoot(f.root)
	}
	return kernel.HostRoot()
}

// exitCodeFor maps a diagnosis to doctor's exit status. Info findings do not change it.
// Input that was read but gave no rule its data (Diagnosis.NothingChecked) exits 0 with a
// verdict that says so: exit 3 is for input with nothing readable, and the labelled corpus
// (make accuracy) holds healthy pastes of that kind.
func exitCodeFor(d diagnose.Diagnosis) int {
	switch w, _ := d.Worst(); w {
	case diagnose.Critical:
		return exitCritical
	case diagnose.Warning:
		return exitWarning
	}
	return exitOK
}

// loadTimeline turns doctor's input into a Timeline through input: pasted text when files are
// given, a capture or recording with --from, the live host (or --root) otherwise.
func loadTimeline(ctx context.Context, f doctorFlags, files []string, stdio IO) (*model.Timeline, error) {
	opt := input.Options{Kernel: f.kernel, Stdin: stdio.Stdin, LogSince: f.logSince}
	switch {
	case len(files) > 0:
		if f.from != "" || f.root != "" {
			return nil, errors.New("give either text files or --from/--root, not both")
		}
		opt.Kind = input.Text
		return input.OpenAll(ctx, files, opt)
	case f.from != "":
		opt.Kind = input.Snapshot
		return input.Open(ctx, f.from, opt)
	}
	opt.Kind = input.Live
	if f.hostRoot != "" {
		if f.root != "" {
			return nil, errors.New("give --root or --host-root, not both")
		}
		f.root, opt.MountedHost = f.hostRoot, true
	}
	opt.Duration, opt.Interval, opt.PageTypes = f.duration, f.interval, f.pagetype
	if isTerminal(stdio.Stderr) && (f.root == "" || f.root == "/") {
		opt.Progress = func(i, n int) {
			fmt.Fprintf(stdio.Stderr, "\rsampling %d/%d", i, n)
			if i == n {
				fmt.Fprint(stdio.Stderr, "\r\033[K")
			}
		}
	}
	return input.Open(ctx, f.root, opt)
}

func splitSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			m[p] = true
		}
	}
	return m
}

// isTerminal reports whether w is a terminal (progress goes only there).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

// refuseNothingRead refuses pasted text in which nothing is evidence headroom reads (an
// empty file): nothing to diagnose is not "healthy", so doctor and report say what was read
// instead and exit 3.
func refuseNothingRead(stdio IO, cmd string, tl *model.Timeline, files []string) bool {
	// Lines that hold output headroom cannot read yet are not "nothing": the report lists
	// them (issue 29 item 4). Exit 3 is for evidence-free text.
	// A text from another system (FreeBSD's netstat -sp tcp) is evidence of that system:
	// the report names it rather than calling the text empty.
	if tl.Source.Kind != model.SourceText || !artifact.NothingRead(tl) || len(tl.Unparsed) > 0 || tl.Host.OtherOS != "" {
		return false
	}
	fmt.Fprintf(stdio.Stderr, "headroom %s: nothing in %s is evidence headroom reads (%d lines could not be read).\nIt reads %s.\n",
		cmd, strings.Join(files, ", "), len(tl.Unparsed), artifact.Reads)
	return true
}
