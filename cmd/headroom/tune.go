package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"time"

	"headroom/input"
	"headroom/model"
	"headroom/tune"
)

func init() {
	register("tune", "apply, persist or roll back the changes of a doctor run or a plan, with a journal", runTune)
}

// tuneFlags are the flags that choose the flow; the rest go straight into tune.Command.
type tuneFlags struct {
	from                        string
	rollback, print, listBounds bool
	to                          int
	status                      bool
	bootRoot, statusFormat      string
}

func runTune(ctx context.Context, args []string, stdio IO) int {
	fs := newFlagSet("tune", stdio)
	var f tuneFlags
	c := &tune.Command{Stdout: stdio.Stdout, Stderr: stdio.Stderr}
	fs.StringVar(&f.from, "from", "", "read changes from FILE (- for standard input): a plan, a doctor report (--format json), or a JSON array of changes; without it, diagnose this host first")
	fs.BoolVar(&c.Apply, "apply", false, "apply the changes (the default is a dry run that changes nothing)")
	fs.BoolVar(&c.Persist, "persist", false, "with --apply: also write a sysctl.d drop-in so the changes survive a reboot")
	fs.BoolVar(&c.NIC, "nic", false, "with --apply: also apply ethtool ring sizes and tc rate limits, which can briefly reset a link")
	fs.StringVar(&c.Netns, "netns", "", "apply inside the network namespace NAME (/run/netns/NAME); global keys are listed with the command for the host")
	fs.BoolVar(&c.AllowLower, "allow-lower", false, "with --apply: also apply changes that lower a buffer, queue, reserve or memory limit the host has raised (tcp_max_orphans and tcp_mem never go below what the host uses now)")
	fs.BoolVar(&c.AllOrNothing, "all-or-nothing", false, "with --apply: change nothing unless every change can be applied")
	fs.StringVar(&c.Format, "format", "text", "text (dry run), or render without touching the host: shell, sysctl, tuned")
	fs.StringVar(&c.Out, "o", "", "with --format tuned: write the TuneD profile directory DIR (DIR/tuned.conf); otherwise print tuned.conf")
	fs.BoolVar(&f.rollback, "rollback", false, "restore from the journal, newest entry first")
	fs.IntVar(&f.to, "to", 0, "with --rollback: stop after journal entry ID")
	fs.BoolVar(&f.print, "print", false, "with --rollback: print the equivalent sysctl -w (and ethtool, tc) lines instead of running them")
	fs.BoolVar(&c.ForThisHost, "for-this-host", false, "with --from: accept changes derived from pasted text, from a report whose host facts (hostname, boot id, kernel, MemTotal) are not this host's, or from a plan computed for another host shape (memory, kernel, arch, page size, CPUs)")
	fs.BoolVar(&f.listBounds, "list-bounds", false, "list the sysctls headroom will write, with their scope and safety bound")
	fs.StringVar(&c.StateDir, "state-dir", tune.DefaultStateDir, "directory of the journal")
	fs.StringVar(&c.SysctlDir, "sysctl-dir", tune.DefaultSysctlDir, "directory of the --persist drop-in ("+tune.DropInName+")")
	fs.StringVar(&c.ProcSysDir, "proc-sys", "/proc/sys", "read and write sysctls under this directory (tests, captured trees)")
	fs.BoolVar(&f.status, "status", false, "for each key the journal applied: the value now, who changed it when that can be known, and which files set it at the next boot (sysctl.d order, TuneD) and whether headroom's drop-in wins")
	fs.StringVar(&f.bootRoot, "boot-root", "/", "with --status: read the boot configuration (/etc/sysctl.d, /run/sysctl.d, /usr/lib/sysctl.d, /etc/sysctl.conf, /etc/tuned) under this directory (tests, captured trees)")
	fs.StringVar(&f.statusFormat, "status-format", "text", "with --status: text or json")
	fs.DurationVar(&c.Verify, "verify", 0, "with --apply: measure each change's guard figures for DURATION before and DURATION after, and roll the change back automatically when a guard is worse beyond noise, a loss exceeds 25 %, a large change stays inside the noise (undecided), or nothing was measured")
	fs.DurationVar(&c.VerifyInterval, "verify-interval", time.Second, "with --verify: time between samples of the guard figures")
	fs.DurationVar(&c.VerifyMax, "verify-max", 0, "with --verify: the longest after window while a figure is undecided (default 3 × --verify)")
	fs.BoolVar(&c.Policy.KeepUndecided, "keep-undecided", false, "with --verify: keep a change whose large gain stays inside the noise margin (a loss over 25 % is rolled back even so)")
	fs.BoolVar(&c.Policy.KeepUnmeasured, "keep-unmeasured", false, "with --verify: keep a change none of whose guards measured anything (no traffic on its path, or its figures unreadable)")
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
		tune.WriteBounds(stdio.Stdout)
		return exitOK
	case f.status && (c.Apply || f.rollback || set["from"] || set["netns"] || set["format"]):
		return fail("--status takes only --state-dir, --proc-sys, --sysctl-dir, --boot-root and --status-format")
	case f.status:
		held, err := tune.ShowStatus(ctx, c.StateDir, c.ProcSysDir, c.SysctlDir, f.bootRoot, f.statusFormat, stdio.Stdout)
		return tuneExit(stdio, held, err)
	case (set["boot-root"] || set["status-format"]) && !f.status:
		return fail("--boot-root and --status-format go with --status")
	case set["verify"] && (!c.Apply || c.Verify <= 0):
		return fail("--verify DURATION goes with --apply and needs a positive duration")
	case (set["verify-interval"] || set["verify-max"] || c.Policy.KeepUndecided || c.Policy.KeepUnmeasured) && !set["verify"]:
		return fail("--verify-interval, --verify-max, --keep-undecided and --keep-unmeasured go with --verify")
	case set["verify-max"] && c.VerifyMax < c.Verify:
		return fail("--verify-max %s is shorter than the --verify window %s", c.VerifyMax, c.Verify)
	case f.rollback && (c.Apply || set["from"] || set["format"] || c.Persist || c.NIC || set["netns"]):
		return fail("--rollback takes only --to, --print, --state-dir and --proc-sys: each journal entry knows its namespace and drop-in")
	case !f.rollback && (set["to"] || f.print):
		return fail("--to and --print go with --rollback")
	case (c.Persist || c.NIC || c.AllOrNothing) && !c.Apply:
		return fail("--persist, --nic and --all-or-nothing go with --apply")
	case c.Apply && set["format"] && c.Format != "text":
		return fail("--format renders without applying; drop --apply, or drop --format")
	case set["netns"] && set["proc-sys"]:
		return fail("--netns and --proc-sys exclude each other")
	case set["o"] && c.Format != "tuned":
		return fail("-o goes with --format tuned")
	case c.ForThisHost && !set["from"]:
		return fail("--for-this-host goes with --from")
	case set["netns"] && !tune.ValidNetnsName(c.Netns):
		return fail("--netns %q is not a valid namespace name", c.Netns)
	}
	if f.rollback {
		return tuneExit(stdio, false, tune.Rollback(ctx, f.to, f.print, c.StateDir, c.ProcSysDir, stdio.Stdout, stdio.Stderr))
	}
	switch c.Format {
	case "text", "shell", "sysctl", "tuned":
	default:
		return fail("--format %q: want text, shell, sysctl or tuned", c.Format)
	}
	changes, origin, code := tuneChanges(ctx, f, c, stdio)
	if changes == nil {
		return code
	}
	c.Changes, c.Origin = changes, origin
	held, err := c.Run(ctx)
	return tuneExit(stdio, held, err)
}

// tuneExit is the exit status of a tune flow: a failure (said on stderr), something asked
// for not in effect (1), or 0.
func tuneExit(stdio IO, held bool, err error) int {
	switch {
	case err != nil:
		return failed(stdio, "tune", err)
	case held:
		return exitWarning
	}
	return exitOK
}

// tuneChanges reads the changes from --from, or from a doctor run (cmd.DiagnoseHost), with the origin a
// doctor report names (nil for a plan, an array or this host's own diagnosis). A nil slice
// means stop with the returned code.
func tuneChanges(ctx context.Context, f tuneFlags, cmd *tune.Command, stdio IO) ([]model.Change, *tune.Origin, int) {
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
	default:
		c, err := cmd.DiagnoseHost(ctx)
		if err != nil {
			fmt.Fprintf(stdio.Stderr, "headroom tune: diagnosing this host: %v\n", err)
			return nil, nil, exitFailure
		}
		changes = c
	}
	if len(changes) == 0 {
		fmt.Fprintln(stdio.Stdout, "nothing to change: no changes recommended")
		return nil, nil, exitOK
	}
	return changes, origin, exitOK
}
