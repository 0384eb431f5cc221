package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"headroom/input"
	"headroom/kernel"
	"headroom/model"
	"headroom/plan"
	"headroom/tune"
)

func init() {
	register("tune", "apply, persist or roll back the changes of a doctor run or a plan, with a journal", runTune)
}

// tuneDiagnose gives `headroom tune` without --from the changes of a doctor run on this
// host. The doctor command sets it; while it is nil, tune asks for --from.
var tuneDiagnose func(ctx context.Context) ([]model.Change, error)

type tuneFlags struct {
	from, netns, format, out        string
	apply, persist, nic             bool
	allowLower, allOrNothing        bool
	rollback, print, listBounds     bool
	forThisHost                     bool
	to                              int
	stateDir, sysctlDir, procSysDir string
	status                          bool
	bootRoot, statusFormat          string
	verify, verifyInterval          time.Duration
	verifyMax                       time.Duration
	keepUndecided, keepUnmeasured   bool
}

func runTune(ctx context.Context, args []string, stdio IO) int {
	fs := newFlagSet("tune", stdio)
	var f tuneFlags
	fs.StringVar(&f.from, "from", "", "read changes from FILE (- for standard input): a plan, a doctor report (--format json), or a JSON array of changes; without it, diagnose this host first")
	fs.BoolVar(&f.apply, "apply", false, "apply the changes (the default is a dry run that changes nothing)")
	fs.BoolVar(&f.persist, "persist", false, "with --apply: also write a sysctl.d drop-in so the changes survive a reboot")
	fs.BoolVar(&f.nic, "nic", false, "with --apply: also apply ethtool ring sizes and tc rate limits, which can briefly reset a link")
	fs.StringVar(&f.netns, "netns", "", "apply inside the network namespace NAME (/run/netns/NAME); global keys are listed with the command for the host")
	fs.BoolVar(&f.allowLower, "allow-lower", false, "with --apply: also apply changes that lower a buffer, queue, reserve or memory limit the host has raised (tcp_max_orphans and tcp_mem never go below what the host uses now)")
	fs.BoolVar(&f.allOrNothing, "all-or-nothing", false, "with --apply: change nothing unless every change can be applied")
	fs.StringVar(&f.format, "format", "text", "text (dry run), or render without touching the host: shell, sysctl, tuned")
	fs.StringVar(&f.out, "o", "", "with --format tuned: write the TuneD profile directory DIR (DIR/tuned.conf); otherwise print tuned.conf")
	fs.BoolVar(&f.rollback, "rollback", false, "restore from the journal, newest entry first")
	fs.IntVar(&f.to, "to", 0, "with --rollback: stop after journal entry ID")
	fs.BoolVar(&f.print, "print", false, "with --rollback: print the equivalent sysctl -w (and ethtool, tc) lines instead of running them")
	fs.BoolVar(&f.forThisHost, "for-this-host", false, "with --from: accept changes derived from pasted text, from a report whose host facts (hostname, boot id, kernel, MemTotal) are not this host's, or from a plan computed for another host shape (memory, kernel, arch, page size, CPUs)")
	fs.BoolVar(&f.listBounds, "list-bounds", false, "list the sysctls headroom will write, with their scope and safety bound")
	fs.StringVar(&f.stateDir, "state-dir", tune.DefaultStateDir, "directory of the journal")
	fs.StringVar(&f.sysctlDir, "sysctl-dir", tune.DefaultSysctlDir, "directory of the --persist drop-in ("+tune.DropInName+")")
	fs.StringVar(&f.procSysDir, "proc-sys", "/proc/sys", "read and write sysctls under this directory (tests, captured trees)")
	fs.BoolVar(&f.status, "status", false, "for each key the journal applied: the value now, who changed it when that can be known, and which files set it at the next boot (sysctl.d order, TuneD) and whether headroom's drop-in wins")
	fs.StringVar(&f.bootRoot, "boot-root", "/", "with --status: read the boot configuration (/etc/sysctl.d, /run/sysctl.d, /usr/lib/sysctl.d, /etc/sysctl.conf, /etc/tuned) under this directory (tests, captured trees)")
	fs.StringVar(&f.statusFormat, "status-format", "text", "with --status: text or json")
	fs.DurationVar(&f.verify, "verify", 0, "with --apply: measure each change's guard figures for DURATION before and DURATION after, and roll the change back automatically when a guard is worse beyond noise, a loss exceeds 25 %, a large change stays inside the noise (undecided), or nothing was measured")
	fs.DurationVar(&f.verifyInterval, "verify-interval", time.Second, "with --verify: time between samples of the guard figures")
	fs.DurationVar(&f.verifyMax, "verify-max", 0, "with --verify: the longest after window while a figure is undecided (default 3 × --verify)")
	fs.BoolVar(&f.keepUndecided, "keep-undecided", false, "with --verify: keep a change whose large gain stays inside the noise margin (a loss over 25 % is rolled back even so)")
	fs.BoolVar(&f.keepUnmeasured, "keep-unmeasured", false, "with --verify: keep a change none of whose guards measured anything (no traffic on its path, or its figures unreadable)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: headroom tune [--from FILE|-] [--apply [--persist] [--nic] [--allow-lower] [--all-or-nothing]] [--netns NAME] [--format text|shell|sysctl|tuned [-o DIR]]")
		fmt.Fprintln(fs.Output(), "       headroom tune --rollback [--to ID] [--print]")
		fmt.Fprintln(fs.Output(), "       headroom tune --apply --verify DURATION [--verify-max D] [--keep-undecided] [--keep-unmeasured] [--from FILE|-] [--netns NAME]")
		fmt.Fprintln(fs.Output(), "       headroom tune --status [--status-format json]")
		fs.PrintDefaults()
	}
	if _, code, ok := parseFlags(fs, stdio, args, false); !ok {
		return code
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stdio.Stderr, "headroom tune: "+format+"\n", a...)
		return exitFailure
	}
	if fs.NArg() != 0 {
		return fail("unexpected argument %q (changes come with --from)", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	switch {
	case f.listBounds:
		return tuneListBounds(stdio)
	case f.status && (f.apply || f.rollback || set["from"] || set["netns"] || set["format"]):
		return fail("--status takes only --state-dir, --proc-sys, --sysctl-dir, --boot-root and --status-format")
	case f.status:
		return tuneStatus(ctx, f, stdio)
	case (set["boot-root"] || set["status-format"]) && !f.status:
		return fail("--boot-root and --status-format go with --status")
	case set["verify"] && (!f.apply || f.verify <= 0):
		return fail("--verify DURATION goes with --apply and needs a positive duration")
	case (set["verify-interval"] || set["verify-max"] || f.keepUndecided || f.keepUnmeasured) && !set["verify"]:
		return fail("--verify-interval, --verify-max, --keep-undecided and --keep-unmeasured go with --verify")
	case set["verify-max"] && f.verifyMax < f.verify:
		return fail("--verify-max %s is shorter than the --verify window %s", f.verifyMax, f.verify)
	case f.rollback && (f.apply || set["from"] || set["format"] || f.persist || f.nic || set["netns"]):
		return fail("--rollback takes only --to, --print, --state-dir and --proc-sys: each journal entry knows its namespace and drop-in")
	case !f.rollback && (set["to"] || f.print):
		return fail("--to and --print go with --rollback")
	case (f.persist || f.nic || f.allOrNothing) && !f.apply:
		return fail("--persist, --nic and --all-or-nothing go with --apply")
	case f.apply && set["format"] && f.format != "text":
		return fail("--format renders without applying; drop --apply, or drop --format")
	case set["netns"] && set["proc-sys"]:
		return fail("--netns and --proc-sys exclude each other")
	case set["o"] && f.format != "tuned":
		return fail("-o goes with --format tuned")
	case f.forThisHost && !set["from"]:
		return fail("--for-this-host goes with --from")
	case set["netns"] && !tune.ValidNetnsName(f.netns):
		return fail("--netns %q is not a valid namespace name", f.netns)
	}
	if f.rollback {
		return tuneRollback(ctx, f, stdio)
	}

	switch f.format {
	case "text", "shell", "sysctl", "tuned":
	default:
		return fail("--format %q: want text, shell, sysctl or tuned", f.format)
	}
	changes, origin, code := tuneChanges(ctx, f, stdio)
	if changes == nil {
		return code
	}
	limits, err := tune.ReadLimits(kernel.HostRoot())
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "headroom tune: %v: bounds that depend on RAM will refuse their keys\n", err)
	}
	if f.format != "text" {
		return tuneRenderFormat(f, changes, limits, stdio)
	}
	// Changes derived elsewhere are refused before anything is read or written: their
	// values were computed from another host's memory, NICs and settings.
	var notHere []string
	if origin != nil && !f.forThisHost {
		facts, err := tune.ReadThisHost(kernel.HostRoot())
		if err != nil {
			return fail("reading this host's facts to compare with the report's: %v", err)
		}
		notHere = origin.Mismatch(facts)
	}
	if len(notHere) > 0 && f.apply {
		return fail("refusing to apply: %s, nothing was changed:\n  %s\n(if they are meant for this host anyway, pass --for-this-host)", origin.NotFor(), strings.Join(notHere, "\n  "))
	}
	var sysfs tune.SysctlFS = tune.ProcSys{Dir: f.procSysDir}
	if f.netns != "" {
		n, err := tune.OpenNetns(f.netns)
		if err != nil {
			return fail("%v", err)
		}
		defer n.Close()
		sysfs = n
	}
	// What the host uses now of tcp_max_orphans and tcp_mem: both are host-wide, so the
	// host's /proc/net/sockstat is the one to read, also for --netns.
	usage, err := tune.ReadUsage(kernel.HostRoot())
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "headroom tune: %v: lowering tcp_max_orphans or tcp_mem will be refused\n", err)
	}
	a := &tune.Applier{FS: sysfs, Runner: tune.ExecRunner{Netns: f.netns}, Netns: f.netns, NIC: f.nic,
		Limits: limits, Log: tuneLogger(stdio.Stderr), AllowLower: f.allowLower, AllOrNothing: f.allOrNothing, Usage: usage}
	if !f.apply {
		items := a.Preview(ctx, changes)
		if err := tune.WritePreview(stdio.Stdout, items); err != nil {
			return fail("%v", err)
		}
		if len(notHere) > 0 {
			fmt.Fprintf(stdio.Stdout, "REFUSED, every change: %s:\n  %s\n(if they are meant for this host anyway, pass --for-this-host)\n", origin.NotFor(), strings.Join(notHere, "\n  "))
			return fail("dry run, nothing changed: --apply would refuse these changes")
		}
		// A change --apply would refuse (out of bounds, no bound, unreadable, below use) is
		// not a clean result, as it is not on --apply (exit 1). Changes held back until a
		// flag asks for them (--nic, --allow-lower) are the user's choice, like advice.
		refused := 0
		for _, it := range items {
			if it.Action == tune.ActionRefused {
				refused++
			}
		}
		if refused > 0 {
			fmt.Fprintf(stdio.Stderr, "headroom tune: dry run, nothing changed: --apply would refuse %d change(s) (REFUSED above) and apply the rest (none with --all-or-nothing)\n", refused)
			return exitWarning
		}
		fmt.Fprintln(stdio.Stderr, "headroom tune: dry run, nothing changed; apply with --apply (undo with --rollback)")
		return exitOK
	}
	if f.persist {
		a.Persist = &tune.PersistOptions{Dir: f.sysctlDir}
	}
	j, err := tune.OpenJournal(f.stateDir)
	if err != nil {
		return fail("%v", err)
	}
	defer j.Close()
	a.Journal = j
	// An earlier --apply --verify killed in its after window left a change that nothing
	// showed to help: it does not stay.
	unverified, err := tuneRollbacker(f, j, a.Limits, stdio).RollbackUnverified(ctx)
	for _, u := range unverified {
		fmt.Fprintf(stdio.Stdout, "journal entry %d %s: its --verify run ended before the after window was measured\n", u.ID, u.State)
	}
	if err != nil {
		return fail("rolling back an unverified entry: %v", err)
	}
	var e *tune.Entry
	var items []tune.Item
	var ver *tune.Verification
	if f.verify > 0 {
		e, items, ver, err = tuneVerified(ctx, f, a, changes)
	} else {
		e, items, err = a.Apply(ctx, changes)
	}
	var skipped []tune.Item
	held := false
	for _, it := range items {
		if it.Action != tune.ActionApply {
			skipped = append(skipped, it)
		}
		// needs-nic is opt-in like advice; the others were asked for and are not in effect.
		held = held || (it.Action.Blocks() && it.Action != tune.ActionNeedsNIC)
	}
	if err != nil {
		// What was not applied whatever the failure is still said.
		writeNotApplied(stdio.Stdout, skipped)
		return fail("%v", err)
	}
	if e == nil {
		fmt.Fprintln(stdio.Stdout, "nothing to change")
	} else {
		for _, r := range e.Changes {
			fmt.Fprintf(stdio.Stdout, "%s: %s → %s  (%s)\n", tune.ChangeName(r.Kind, r.Key), tune.NormalizeValue(r.Old), r.New, strings.TrimSuffix(r.Why+", "+r.Rule, ", "))
		}
		if e.Persist != nil {
			fmt.Fprintf(stdio.Stdout, "persisted in %s\n", e.Persist.Path)
		}
		if e.State == tune.StateApplied {
			fmt.Fprintf(stdio.Stdout, "journal entry %d %s; undo with: headroom tune --rollback --to %d\n", e.ID, e.State, e.ID)
		} else {
			fmt.Fprintf(stdio.Stdout, "journal entry %d %s\n", e.ID, e.State)
		}
	}
	if ver != nil {
		writeTuneVerification(stdio.Stdout, ver)
		if ver.Decision != "kept" {
			held = true
		}
	}
	writeNotApplied(stdio.Stdout, skipped)
	if held {
		// Some changes that were asked for are not in effect: say so in the exit code too.
		return exitWarning
	}
	return exitOK
}

// tuneChanges reads the changes from --from, or from a doctor run, with the origin a
// doctor report names (nil for a plan, an array or this host's own diagnosis). A nil slice
// means stop with the returned code.
func tuneChanges(ctx context.Context, f tuneFlags, stdio IO) ([]model.Change, *tune.Origin, int) {
	var changes []model.Change
	var origin *tune.Origin
	switch {
	case f.from != "":
		// Through input: a FIFO or standard input that never delivers still ends on SIGINT
		// or SIGTERM; tune.ParseChanges then applies its own size limit.
		data, err := input.ReadFile(ctx, f.from, stdio.Stdin, input.DefaultMaxTextBytes)
		if err != nil {
			fmt.Fprintf(stdio.Stderr, "headroom tune: %v\n", err)
			return nil, nil, exitFailure
		}
		c, o, err := tune.ParseInput(bytes.NewReader(data))
		if err != nil {
			name := f.from
			if name == "-" {
				name = "standard input"
			}
			fmt.Fprintf(stdio.Stderr, "headroom tune: %s: %v\n", name, err)
			return nil, nil, exitFailure
		}
		changes, origin = c, o
	case tuneDiagnose != nil:
		c, err := tuneDiagnose(ctx)
		if err != nil {
			fmt.Fprintf(stdio.Stderr, "headroom tune: diagnosing this host: %v\n", err)
			return nil, nil, exitFailure
		}
		changes = c
	default:
		fmt.Fprintln(stdio.Stderr, "headroom tune: no changes to work on: pass --from FILE or --from - with a plan, a doctor report or a JSON array of changes,")
		fmt.Fprintln(stdio.Stderr, "  e.g.  headroom plan --bandwidth 1Gbit --rtt 125ms --streams 20 --format json | headroom tune --from -")
		return nil, nil, exitFailure
	}
	if len(changes) == 0 {
		fmt.Fprintln(stdio.Stdout, "nothing to change: no changes recommended")
		return nil, nil, exitOK
	}
	return changes, origin, exitOK
}

// tuneRenderFormat renders --format shell, sysctl or tuned from the changes that pass the
// bounds --apply checks; the others are listed on stderr and make the exit non-zero, so a
// rendered file never carries a value headroom would refuse to write.
func tuneRenderFormat(f tuneFlags, changes []model.Change, limits plan.Limits, stdio IO) int {
	ok, refused := tune.Renderable(changes, limits)
	var err error
	switch f.format {
	case "shell":
		err = tune.RenderShell(stdio.Stdout, ok, f.netns)
	case "sysctl":
		err = tune.RenderSysctl(stdio.Stdout, ok, f.netns, filepath.Join(f.sysctlDir, tune.DropInName))
	case "tuned":
		if f.out == "" {
			err = tune.RenderTuned(stdio.Stdout, ok)
			break
		}
		if err = tune.WriteTunedProfile(f.out, ok); err == nil {
			fmt.Fprintf(stdio.Stderr, "headroom tune: wrote TuneD profile %s; install it as /etc/tuned/%s and run: tuned-adm profile %s\n",
				filepath.Join(f.out, "tuned.conf"), tune.TunedProfileName, tune.TunedProfileName)
		}
	}
	if err != nil {
		return failed(stdio, "tune", err)
	}
	if len(refused) > 0 {
		fmt.Fprintf(stdio.Stderr, "headroom tune: left out of the --format %s output, refused as --apply would refuse them:\n", f.format)
		for _, it := range refused {
			fmt.Fprintf(stdio.Stderr, "  %s %s: %s\n", it.Change.Kind, it.Change.Key, it.Reason)
		}
		return exitFailure
	}
	return exitOK
}

// writeNotApplied lists the changes an apply left out, with why.
func writeNotApplied(w io.Writer, skipped []tune.Item) {
	if len(skipped) > 0 {
		fmt.Fprintln(w, "not applied:")
		tune.WritePreview(w, skipped)
	}
}

func tuneRender(stdio IO, err error) int {
	if err != nil {
		return failed(stdio, "tune", err)
	}
	return exitOK
}

func tuneRollback(ctx context.Context, f tuneFlags, stdio IO) int {
	limits, err := tune.ReadLimits(kernel.HostRoot())
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "headroom tune: %v: bounds that depend on RAM will refuse their keys\n", err)
	}
	if f.print {
		err := tune.CheckStateDir(f.stateDir)
		var jf *tune.JournalFile
		if err == nil {
			jf, err = tune.ReadJournal(filepath.Join(f.stateDir, tune.JournalName))
		}
		if err == nil {
			err = tune.PrintRollback(stdio.Stdout, jf, f.to, limits)
		}
		return tuneRender(stdio, err)
	}
	j, err := tune.OpenJournal(f.stateDir)
	if err != nil {
		return failed(stdio, "tune", err)
	}
	defer j.Close()
	rb := tuneRollbacker(f, j, limits, stdio)
	done, err := rb.Rollback(ctx, f.to)
	for _, e := range done {
		where := ""
		if e.Netns != "" {
			where = " (network namespace " + e.Netns + ")"
		}
		fmt.Fprintf(stdio.Stdout, "journal entry %d%s: %s", e.ID, where, e.State)
		if len(e.Notes) > 0 {
			fmt.Fprintf(stdio.Stdout, ": %s", e.Notes[len(e.Notes)-1])
		}
		fmt.Fprintln(stdio.Stdout)
	}
	if err != nil {
		return failed(stdio, "tune", err)
	}
	if len(done) == 0 {
		fmt.Fprintln(stdio.Stdout, "nothing to roll back")
	}
	return exitOK
}

func tuneListBounds(stdio IO) int {
	for _, k := range plan.BoundedKeys() {
		fmt.Fprintf(stdio.Stdout, "%-34s %-9s %s\n", k, kernel.LookupSysctlScope(k).Scope, plan.BoundSource(k))
	}
	return exitOK
}

// tuneLogger logs one line per change to stderr. The time is left out: the journal has it.
func tuneLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
}
