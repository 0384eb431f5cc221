package main

// The contract every subcommand keeps (issue 32): -h/--help prints usage, flags, examples and
// the exit codes to standard output and exits 0; a usage error names the flag, points to -h
// and exits 3; a numeric flag given explicitly is validated the same way everywhere; an
// interrupt prints "interrupted" and exits 130 after the command cleaned up (main.go).

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"time"
)

// exitInterrupted is the exit status after SIGINT/SIGTERM/SIGHUP, as a shell reports a
// command killed by SIGINT (128+2), so that scripts tell "stopped" from "failed".
const exitInterrupted = 130

// exitCodes is the table printed by every -h, the man pages and the README.
var exitCodes = []struct {
	code int
	what string
}{
	{exitOK, "healthy, or the command did what was asked"},
	{exitWarning, "doctor, check, plan, lab: warnings only, a problem, or the budget lowered the plan"},
	{exitCritical, "doctor: at least one critical finding (check: unknown)"},
	{exitFailure, "could not run: a usage error, unreadable input, no permission"},
	{exitInterrupted, "interrupted (SIGINT, SIGTERM or SIGHUP) after cleaning up"},
}

// examples are shown by each command's -h and in its man page; every registered command
// has at least two (TestEveryCommandHelp).
var examples = map[string][]string{
	"doctor": {
		"headroom doctor                          # this host, sampled for 3 s",
		"dmesg | headroom doctor --format markdown  # pasted text, for a ticket",
		"headroom doctor --from host.txtar --format json",
	},
	"record": {
		"headroom record -o /var/log/headroom/host.jsonl.gz   # until ^C",
		"headroom record -o r.jsonl.gz --duration 10m --interval 5s",
	},
	"tune": {
		"headroom doctor --format json > d.json && headroom tune --from d.json   # dry run",
		"headroom tune --from d.json --apply --verify 30s",
		"headroom tune --rollback",
	},
	"report": {
		"headroom report r.jsonl.gz -o report.html",
		"headroom report --format markdown host.txtar > ticket.md",
	},
	"watch": {
		"headroom watch",
		"headroom watch --interval 5s --duration 10m",
	},
	"capture": {
		"headroom capture -o host.txtar",
		"headroom capture --redact -o - | gzip > host.txtar.gz",
	},
	"check": {
		"headroom check                     # lists the checks",
		"headroom check page-allocation-failure --within 10m",
	},
	"explain": {
		"headroom explain list",
		"headroom explain alloc-fail-fragmented",
	},
	"plan": {
		"headroom plan --bandwidth 1Gbit --rtt 50ms",
		"headroom plan --bandwidth 10Gbit --rtt 0.5ms-80ms --streams 8 --format sysctl > /etc/sysctl.d/90-headroom.conf",
	},
	"lab": {
		"headroom lab list",
		"sudo headroom lab compare long-fat-pipe --streams 8",
	},
	"lab list": {
		"headroom lab list",
		"headroom lab list | grep failure",
	},
	"lab run": {
		"sudo headroom lab run long-fat-pipe --settings fermilab",
		"sudo headroom lab run flood-recovery --format json",
	},
	"lab compare": {
		"sudo headroom lab compare long-fat-pipe",
		"sudo headroom lab compare long-fat-pipe --rate 1Gbit --streams 8",
	},
	"serve": {
		"headroom serve --listen :9109",
		"headroom serve --once      # one exposition on stdout",
	},
	"recovery": {
		"headroom recovery --target 127.0.0.1:8080",
		"headroom recovery --target 127.0.0.1:8080 --repeat 2 --idle 30s --format json",
	},
	"version": {
		"headroom --version",
		"headroom version --format json",
	},
}

// synopsis is the usage line of the commands that do not write their own fs.Usage.
var synopsis = map[string]string{
	"capture": "-o FILE.txtar|- [--root DIR] [--redact]",
	"check": "[NAME] [--root DIR | --host-root DIR] [--interval D] [--matches N --within D]\n" +
		"One present state for node-problem-detector: exit 0 ok, 1 problem, 2 unknown. Without NAME: the list of checks.",
	"explain":     "RULE-ID | list\nPrints the documentation page of a rule; 'list' lists the rules.",
	"version":     "[--format text|json]",
	"lab list":    "",
	"lab run":     "SCENARIO [--settings NAME|FILE] [flags]   (root; see headroom lab -h)",
	"lab compare": "SCENARIO [flags]   (root; see headroom lab -h)",
}

// flagSetHook, when set (manpage generation, tests), receives every flag set a command makes.
var flagSetHook func(*flag.FlagSet)

// newFlagSet is how a subcommand makes its flags. Errors go to stderr; -h to stdout
// (parseFlags).
func newFlagSet(name string, stdio IO) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stdio.Stderr)
	fs.Usage = func() {
		syn := synopsis[name]
		if syn == "" {
			syn = "[flags]"
		}
		fmt.Fprintf(fs.Output(), "usage: headroom %s %s\n", name, syn)
		fs.PrintDefaults()
	}
	if flagSetHook != nil {
		flagSetHook(fs)
	}
	return fs
}

// parseFlags parses args (flags before and after the positional arguments when
// interspersed). ok false: return code, -h was answered or a usage error was printed.
func parseFlags(fs *flag.FlagSet, stdio IO, args []string, interspersed bool) (pos []string, code int, ok bool) {
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard) // the flag package's own message and usage: replaced below
	fs.Usage = func() {}
	var err error
	if interspersed {
		pos, err = parseInterspersed(fs, args)
	} else {
		err = fs.Parse(args)
		pos = fs.Args()
	}
	fs.SetOutput(out)
	fs.Usage = usage
	switch {
	case errors.Is(err, flag.ErrHelp):
		printHelp(stdio.Stdout, fs)
		return nil, exitOK, false
	case err != nil:
		fmt.Fprintf(out, "headroom %s: %v\nRun 'headroom %s -h' for its flags.\n", fs.Name(), err, fs.Name())
		return nil, exitFailure, false
	}
	if err := validateNumbers(fs); err != nil {
		fmt.Fprintf(out, "headroom %s: %v\n", fs.Name(), err)
		return nil, exitFailure, false
	}
	return pos, exitOK, true
}

// printHelp is -h: the command's usage and flags, its examples and the exit codes.
func printHelp(w io.Writer, fs *flag.FlagSet) {
	out := fs.Output()
	fs.SetOutput(w)
	fs.Usage()
	fs.SetOutput(out)
	printExamples(w, fs.Name())
}

func printExamples(w io.Writer, name string) {
	if ex := examples[name]; len(ex) > 0 {
		fmt.Fprintln(w, "\nExamples:")
		for _, e := range ex {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
	fmt.Fprintln(w, "\nExit status:")
	for _, e := range exitCodes {
		fmt.Fprintf(w, "  %-3d %s\n", e.code, e.what)
	}
}

// usageError prints a usage error of a command that has parsed its flags and returns 3.
func usageError(fs *flag.FlagSet, stdio IO, format string, a ...any) int {
	fmt.Fprintf(stdio.Stderr, "headroom %s: %s\nRun 'headroom %s -h' for its flags.\n", fs.Name(), fmt.Sprintf(format, a...), fs.Name())
	return exitFailure
}

// Numeric flags given explicitly must be positive: 0 and negative values are refused with
// the flag's name, except where the flag's text gives 0 (or a negative value) a meaning.
// Before, `plan --streams 0` silently meant "not given" while -5 was refused.
var (
	zeroOK = map[string]bool{
		"record.duration": true, "watch.duration": true, // 0: until interrupted
		"serve.rules-interval": true, "serve.window-interval": true,
		"plan.window-ratio": true,                          // 0: from the kernel version
		"tune.verify":       true,                          // 0: no verification
		"doctor.log-since":  true, "serve.log-since": true, // 0: no recent past, only the present
		"doctor.duration": true, // 0: one sample, no rates
		// check answers node-problem-detector, whose contract is 0 ok, 1 problem, 2 unknown:
		// nodecheck refuses --matches 0 itself, with 2.
		"check.matches": true,
		"lab run.loss":  true, "lab compare.loss": true, // 0: no loss
	}
	negativeOK = map[string]bool{"serve.window-interval": true} // negative: every sample
)

func validateNumbers(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		g, ok := f.Value.(flag.Getter)
		if err != nil || !ok {
			return
		}
		var sign int
		switch v := g.Get().(type) {
		case int:
			sign = cmpZero(float64(v))
		case int64:
			sign = cmpZero(float64(v))
		case float64:
			sign = cmpZero(v)
		case time.Duration:
			sign = cmpZero(float64(v))
		case uint, uint64:
			if f.Value.String() == "0" {
				sign = 0
			} else {
				sign = 1
			}
		default:
			return
		}
		key := fs.Name() + "." + f.Name
		switch {
		case sign < 0 && !negativeOK[key]:
			err = fmt.Errorf("--%s %s: must not be negative", f.Name, f.Value)
		case sign == 0 && !zeroOK[key]:
			err = fmt.Errorf("--%s %s: must be more than 0 (leave the flag out for its default)", f.Name, f.Value)
		}
	})
	return err
}

func cmpZero(v float64) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}

// interruptFilter is a command's stderr: once a signal cancelled the context, the messages
// that only say so ("context canceled", from whatever was waiting) are dropped, since main
// prints "interrupted" for all of them.
type interruptFilter struct {
	ctx context.Context
	w   io.Writer
}

func (f interruptFilter) Write(p []byte) (int, error) {
	if f.ctx.Err() != nil && bytes.Contains(p, []byte(context.Canceled.Error())) {
		return len(p), nil
	}
	return f.w.Write(p)
}

// untilInterrupted are the commands whose normal end is a signal: they exit 0 after it.
var untilInterrupted = map[string]bool{"record": true, "watch": true, "serve": true}

// commandNames lists the registered commands, sorted.
func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// withoutPrivilege says, per command, what needs root or a capability and what still works
// without it: printed under a permission error (EPERM, EACCES), which alone says only
// "operation not permitted".
var withoutPrivilege = map[string]string{
	"doctor": "--netns and --pid enter another network namespace with setns(2), which needs CAP_SYS_ADMIN (root); " +
		"/proc/pagetypeinfo (--pagetypeinfo) is root's since Linux 5.4; /dev/kmsg needs CAP_SYSLOG when kernel.dmesg_restrict=1. " +
		"Without root, doctor still diagnoses this host from its own network namespace, and any capture, recording or pasted text.",
	"tune": "applying, persisting and rolling back need root: writing /proc/sys and the journal in --state-dir (default /var/lib/headroom). " +
		"Without root, tune --from FILE without --apply prints the changes (also --format shell|sysctl|tuned), and tune --status reads a journal it can read.",
	"record":  "the output file must be writable; /proc/pagetypeinfo and /dev/kmsg (with kernel.dmesg_restrict=1) need root or CAP_SYSLOG, everything else is read as any user.",
	"capture": "the output file must be writable; /dev/kmsg needs CAP_SYSLOG when kernel.dmesg_restrict=1 and /proc/pagetypeinfo root since 5.4: without them the capture says what it could not read.",
	"serve":   "a port below 1024 needs CAP_NET_BIND_SERVICE; /dev/kmsg needs CAP_SYSLOG when kernel.dmesg_restrict=1. Everything else serve reads is readable by any user.",
	"plan":    "--rate-limit changes the qdisc, which needs CAP_NET_ADMIN (root); the plan itself needs no privilege.",
}

// failed prints a command's error and returns 3; a permission error also says what needs
// root or which capability, and what works without it.
func failed(stdio IO, cmd string, err error) int {
	fmt.Fprintf(stdio.Stderr, "headroom %s: %v\n", cmd, err)
	if errors.Is(err, os.ErrPermission) { // EPERM and EACCES (syscall.Errno.Is)
		if hint := withoutPrivilege[cmd]; hint != "" {
			fmt.Fprintf(stdio.Stderr, "headroom %s: not permitted as uid %d: %s\n", cmd, os.Geteuid(), hint)
		} else {
			fmt.Fprintf(stdio.Stderr, "headroom %s: not permitted as uid %d: run it as root\n", cmd, os.Geteuid())
		}
	}
	return exitFailure
}
