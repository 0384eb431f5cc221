package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"headroom/internal/manual"
)

var updateReference = flag.Bool("update-reference", false, "rewrite docs/man/*.1 and docs/cli.md from the commands")

// manDate is the date the pages carry: fixed, so that regenerating them changes nothing
// unless a command changed.
var manDate = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

// TestReference: every flag has its text, and docs/man and docs/cli.md are what the
// commands print now.
func TestReference(t *testing.T) {
	cs := collectHelp()
	codes := manualExitCodes()
	want := map[string][]byte{"docs/cli.md": manual.Markdown(cs, codes), "docs/man/headroom.1": manual.Index(cs, codes, manDate)}
	for _, c := range cs {
		for _, fs := range c.Flags {
			fs.VisitAll(func(f *flag.Flag) {
				if _, text := flag.UnquoteUsage(f); len(text) < 3 {
					t.Errorf("headroom %s --%s has no usage text", fs.Name(), f.Name)
				}
			})
		}
		if len(c.Flags) == 0 {
			t.Errorf("headroom %s -h made no flag set: its man page would have no options", c.Name)
		}
		want["docs/man/headroom-"+c.Name+".1"] = manual.Page(c, codes, manDate)
	}
	for name, b := range want {
		path := filepath.Join("../..", name)
		if *updateReference {
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("%s is stale (err %v): go test ./cmd/headroom -run TestReference -update-reference", name, err)
		}
	}
}

// The reference (man pages, docs/cli.md) is generated from the commands themselves
// (internal/manual renders it): each is run with -h while flagSetHook collects the flag sets it makes, so a flag's text exists
// once, in its definition. TestReference fails when the committed pages are stale or a flag
// has no text; `go test ./cmd/headroom -run TestReference -update-reference` rewrites them.

// subcommands are the commands with subcommands of their own flags.
var subcommands = map[string][]string{"lab": {"list", "run", "compare"}}

func collectHelp() []manual.Command {
	var out []manual.Command
	for _, name := range commandNames() {
		var sets []*flag.FlagSet
		var subHelp []string
		flagSetHook = func(fs *flag.FlagSet) { sets = append(sets, fs) }
		var buf bytes.Buffer
		run([]string{name, "-h"}, IO{Stdin: strings.NewReader(""), Stdout: &buf, Stderr: io.Discard})
		for _, sub := range subcommands[name] {
			var sb bytes.Buffer
			run([]string{name, sub, "-h"}, IO{Stdin: strings.NewReader(""), Stdout: &sb, Stderr: io.Discard})
			subHelp = append(subHelp, sb.String())
		}
		flagSetHook = nil
		out = append(out, manual.Command{Name: name, Summary: commands[name].summary, Help: buf.String(), Flags: sets,
			Subcommands: subcommands[name], SubHelp: subHelp})
	}
	return out
}

// manualExitCodes is exitCodes for the manual.
func manualExitCodes() []manual.ExitCode {
	var out []manual.ExitCode
	for _, e := range exitCodes {
		out = append(out, manual.ExitCode{Code: e.code, What: e.what})
	}
	return out
}
