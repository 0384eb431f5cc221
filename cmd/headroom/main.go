// Command headroom diagnoses why a Linux host's network throughput collapses when the kernel
// runs short of memory, computes the settings that fix it, applies them with a journal, and
// proves the fix in a network-namespace lab.
//
// This file only dispatches: each subcommand lives in its own file and registers itself in
// init(), so adding one never edits another's file.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit codes shared by every subcommand; doctor uses all four (and 130, exitInterrupted,
// cli.go).
const (
	exitOK       = 0 // healthy, or the command did what was asked
	exitWarning  = 1 // doctor: warnings only
	exitCritical = 2 // doctor: at least one critical finding
	exitFailure  = 3 // could not run (bad flags, unreadable input, no permission)
)

// IO is what a subcommand may touch of the outside: nothing else prints.
type IO struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdio IO) int
}

var commands = map[string]command{}

// register is called from each subcommand file's init.
func register(name, summary string, run func(ctx context.Context, args []string, stdio IO) int) {
	if _, dup := commands[name]; dup {
		panic("headroom: subcommand registered twice: " + name)
	}
	commands[name] = command{name: name, summary: summary, run: run}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: headroom COMMAND [flags] [args]")
	fmt.Fprintln(w, "       headroom --version")
	fmt.Fprintln(w)
	for _, n := range commandNames() {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'headroom COMMAND -h' for the flags of one command.")
}

func main() {
	os.Exit(run(os.Args[1:], IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}

func run(args []string, stdio IO) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdio.Stdout)
		if len(args) == 0 {
			return exitFailure
		}
		return exitOK
	}
	if args[0] == "--version" || args[0] == "-version" {
		args[0] = "version"
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stdio.Stderr, "headroom: unknown command %q\n\n", args[0])
		usage(stdio.Stderr)
		return exitFailure
	}
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals()...)
	defer stop()
	code := cmd.run(ctx, args[1:], IO{Stdin: stdio.Stdin, Stdout: stdio.Stdout, Stderr: interruptFilter{ctx, stdio.Stderr}})
	if ctx.Err() != nil && (code != exitOK || !untilInterrupted[cmd.name]) {
		// The command returned through its cleanup (a lab restored its sysctls, tune
		// released its lock); what it was doing did not finish.
		fmt.Fprintf(stdio.Stderr, "headroom %s: interrupted\n", cmd.name)
		return exitInterrupted
	}
	return code
}

// stopSignals are the signals that cancel a command's context, so that it ends as on ^C:
// a lab run restores the global sysctls it changed, tune releases its lock, record closes
// its archive. SIGHUP is among them (a dropped ssh session sends it to the foreground
// process group) unless it was ignored when headroom started: signal.Notify would undo the
// SIG_IGN of `nohup headroom record …`.
func stopSignals() []os.Signal {
	sigs := []os.Signal{os.Interrupt, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		sigs = append(sigs, syscall.SIGHUP)
	}
	return sigs
}

// parseInterspersed parses flags given before and after the positional arguments, as
// `headroom report FILE -o r.html` is written ("--" ends the flags).
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
