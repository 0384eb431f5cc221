package main

import (
	"context"
	"fmt"

	"headroom/diagnose"
	"headroom/docs"
)

func init() {
	register("explain", "print the documentation of a rule (headroom explain RULE-ID; 'list' for all)", runExplain)
}

func runExplain(_ context.Context, args []string, stdio IO) int {
	fs := newFlagSet("explain", stdio)
	if _, code, ok := parseFlags(fs, stdio, args, false); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stdio.Stderr, "usage: headroom explain RULE-ID | list")
		return exitFailure
	}
	id := fs.Arg(0)
	if id == "list" {
		for _, r := range diagnose.Rules() {
			fmt.Fprintf(stdio.Stdout, "%-30s %-8s %s\n", r.ID, r.Family, r.Title)
		}
		return exitOK
	}
	page, err := docs.Rule(id)
	if err != nil {
		if _, ok := diagnose.Lookup(id); ok {
			fmt.Fprintf(stdio.Stderr, "headroom explain: rule %s has no documentation page (a bug)\n", id)
		} else {
			fmt.Fprintf(stdio.Stderr, "headroom explain: no rule %q; 'headroom explain list' shows them\n", id)
		}
		return exitFailure
	}
	stdio.Stdout.Write(page)
	return exitOK
}
