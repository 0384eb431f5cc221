package main

import (
	"context"
	"encoding/json"
	"fmt"

	"headroom/internal/buildinfo"
)

func init() {
	register("version", "print the version, VCS revision and time, Go version and OS/arch of this build (also --version)", runVersion)
}

func runVersion(_ context.Context, args []string, stdio IO) int {
	fs := newFlagSet("version", stdio)
	format := fs.String("format", "text", "text or json")
	if _, code, ok := parseFlags(fs, stdio, args, false); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(fs, stdio, "unexpected argument %q", fs.Arg(0))
	}
	in := buildinfo.Get()
	switch *format {
	case "text":
		fmt.Fprintln(stdio.Stdout, in)
	case "json":
		b, _ := json.MarshalIndent(in, "", "  ")
		fmt.Fprintf(stdio.Stdout, "%s\n", b)
	default:
		return usageError(fs, stdio, "--format %q: want text or json", *format)
	}
	return exitOK
}
