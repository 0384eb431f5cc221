package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"time"

	"headroom/diagnose"
	"headroom/input"
	"headroom/judge"
	"headroom/model"
	"headroom/report"
)

func init() {
	register("report", "render a recording, capture or pasted text as one HTML file (or Markdown for a ticket)", runReport)
}

func runReport(ctx context.Context, args []string, stdio IO) int {
	fs := newFlagSet("report", stdio)
	out := fs.String("o", "-", "output file; - for standard output")
	format := fs.String("format", "html", "html or markdown")
	kernelRel := fs.String("kernel", "", "text: the kernel release the text came from, when it does not say")
	skip := fs.String("skip", "", "comma-separated rule ids not to run")
	title := fs.String("title", "", "title of the HTML page")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: headroom report ARCHIVE.jsonl.gz|CAPTURE.txtar|DIR|FILE... [-o report.html] [--format html|markdown]")
		fmt.Fprintln(fs.Output(), "Pasted text (vmstat tables, buddyinfo series, dmesg, a forum post) is charted per table.")
		fs.PrintDefaults()
	}
	files, code, ok := parseFlags(fs, stdio, args, true)
	if !ok {
		return code
	}
	if len(files) == 0 {
		fs.Usage()
		return exitFailure
	}
	if *format != "html" && *format != "markdown" {
		fmt.Fprintf(stdio.Stderr, "headroom report: unknown --format %q (html or markdown)\n", *format)
		return exitFailure
	}
	tl, err := loadReportInput(ctx, files, *kernelRel, stdio)
	if err != nil {
		return failed(stdio, "report", err)
	}
	if refuseNothingRead(stdio, "report", tl, files) {
		return exitFailure
	}
	d := diagnose.Run(tl, splitSet(*skip))
	judge.PlaceFindings(tl, &d)
	d.Retell(tl)
	var buf bytes.Buffer
	if *format == "markdown" {
		err = report.WriteMarkdown(&buf, tl, d)
	} else {
		err = report.WriteHTML(&buf, tl, d, report.HTMLOptions{Title: *title, Generator: "headroom report"})
	}
	if err != nil {
		return failed(stdio, "report", err)
	}
	if *out == "-" {
		stdio.Stdout.Write(buf.Bytes())
		return exitOK
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return failed(stdio, "report", err)
	}
	fmt.Fprintf(stdio.Stderr, "headroom report: wrote %s (%d bytes, %d findings)\n", *out, buf.Len(), len(d.Findings))
	return exitOK
}

// loadReportInput reads a recording, a capture or a captured directory (one argument, as
// doctor --from does), or pasted text files.
func loadReportInput(ctx context.Context, args []string, kernelRel string, stdio IO) (*model.Timeline, error) {
	opt := input.Options{Kernel: kernelRel, Stdin: stdio.Stdin, LogSince: time.Hour}
	if len(args) == 1 {
		return input.Open(ctx, args[0], opt) // input.Auto: by what the path is
	}
	opt.Kind = input.Text
	return input.OpenAll(ctx, args, opt)
}
