package main

import (
	"bytes"
	"context"
	"fmt"
	"os"

	"headroom/kernel"
	"headroom/source"
)

func init() {
	register("capture", "write every kernel file the readers use to one txtar (a small sosreport)", runCapture)
}

func runCapture(_ context.Context, args []string, stdio IO) int {
	fs := newFlagSet("capture", stdio)
	out := fs.String("o", "", "output file (.txtar); - for standard output")
	rootDir := fs.String("root", "", "capture the files under this directory instead of /")
	if _, code, ok := parseFlags(fs, stdio, args, false); !ok {
		return code
	}
	if *out == "" || fs.NArg() != 0 {
		fmt.Fprintln(stdio.Stderr, "usage: headroom capture -o FILE.txtar [--root DIR]")
		return exitFailure
	}
	root := kernel.HostRoot()
	if *rootDir != "" {
		root = kernel.DirRoot(*rootDir)
	}
	var buf bytes.Buffer
	missing, err := source.Capture(root, &buf)
	if err != nil {
		return failed(stdio, "capture", err)
	}
	for _, m := range missing {
		fmt.Fprintf(stdio.Stderr, "headroom capture: not captured: %s\n", m)
	}
	if *out == "-" {
		stdio.Stdout.Write(buf.Bytes())
		return exitOK
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return failed(stdio, "capture", err)
	}
	fmt.Fprintf(stdio.Stderr, "headroom capture: wrote %s (%d bytes)\n", *out, buf.Len())
	return exitOK
}
