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
	redact := fs.Bool("redact", false, "replace addresses (IPv4, IPv6, MAC), the host name, interface names (eth0 → if1, the same in every file), user names and the kernel log's task names by pseudonyms, so the capture can go to a public ticket")
	if _, code, ok := parseFlags(fs, stdio, args, false); !ok {
		return code
	}
	if *out == "" || fs.NArg() != 0 {
		fmt.Fprintln(stdio.Stderr, "usage: headroom capture -o FILE.txtar [--root DIR] [--redact]")
		return exitFailure
	}
	root := kernel.HostRoot()
	if *rootDir != "" {
		root = kernel.DirRoot(*rootDir)
	}
	var buf bytes.Buffer
	var missing []string
	var red source.Redaction
	var err error
	if *redact {
		missing, red, err = source.CaptureRedacted(root, rootPath(*rootDir), &buf)
	} else {
		missing, err = source.Capture(root, &buf)
	}
	if err != nil {
		return failed(stdio, "capture", err)
	}
	for _, m := range missing {
		fmt.Fprintf(stdio.Stderr, "headroom capture: not captured: %s\n", m)
	}
	if *redact {
		fmt.Fprintf(stdio.Stderr, "headroom capture: redacted %d addresses, %d host names, %d interfaces, %d users, %d task names\n",
			len(red.Addresses), len(red.Hosts), len(red.Interfaces), len(red.Users), len(red.Commands))
	} else {
		fmt.Fprintln(stdio.Stderr, "headroom capture: the capture holds this host's socket addresses, host and interface names and its kernel log; --redact replaces them")
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

// rootPath is the directory a capture reads: / or --root.
func rootPath(dir string) string {
	if dir == "" {
		return "/"
	}
	return dir
}
