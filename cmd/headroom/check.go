package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"headroom/nodecheck"
)

func init() {
	register("check", "one present state for node-problem-detector's custom plugin monitor: exit 0 ok, 1 problem, 2 unknown, one short line (headroom check NAME; no NAME lists them)", runCheck)
}

// runCheck speaks NPD's plugin protocol: the verdict is the exit code and stdout is one
// line of at most nodecheck.MaxMessage bytes. A usage error exits 3, which NPD reads as
// unknown like 2, and explains itself on stderr, which NPD does not read.
func runCheck(ctx context.Context, args []string, stdio IO) int {
	name := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	o := nodecheck.DefaultOptions
	fs := newFlagSet("check", stdio)
	root := fs.String("root", "/", "read the kernel files under this directory once, as a capture (its kernel log is the text file dev/kmsg)")
	hostRoot := fs.String("host-root", "", "the host's / is mounted here, as in a container: its /proc read live, its network through proc/1/net, the kernel log from /dev/kmsg")
	fs.DurationVar(&o.Interval, "interval", o.Interval, "softnet-dropping: time between the two readings")
	fs.IntVar(&o.Matches, "matches", o.Matches, "kernel-log checks: a problem at this many records")
	fs.DurationVar(&o.Within, "within", o.Within, "kernel-log checks: ... logged within this long")
	if _, code, ok := parseFlags(fs, stdio, args, false); !ok {
		return code
	}
	if name == "" && fs.NArg() == 1 {
		name = fs.Arg(0)
	} else if fs.NArg() > 0 {
		fmt.Fprintf(stdio.Stderr, "headroom check: unexpected arguments %q\n", fs.Args())
		return exitFailure
	}
	st, err := nodecheck.Command(ctx, name, *root, *hostRoot, o, stdio.Stdout)
	switch {
	case errors.Is(err, nodecheck.ErrNoCheck):
		if name != "" {
			fmt.Fprintf(stdio.Stderr, "headroom check: no check %q\n", name)
		}
		fmt.Fprintln(stdio.Stderr, "usage: headroom check NAME [--root DIR | --host-root DIR] [--interval D] [--matches N --within D]")
		for _, c := range nodecheck.Checks() {
			fmt.Fprintf(stdio.Stderr, "  %-24s %s\n", c.Name, c.Summary)
		}
		return exitFailure
	case err != nil:
		fmt.Fprintf(stdio.Stderr, "headroom check: %v\n", err)
		return exitFailure
	}
	return int(st)
}
