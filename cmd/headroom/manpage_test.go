package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var updateReference = flag.Bool("update-reference", false, "rewrite docs/man/*.1 and docs/cli.md from the commands")

// manDate is the date the pages carry: fixed, so that regenerating them changes nothing
// unless a command changed.
var manDate = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

// TestReference: every flag has its text, and docs/man and docs/cli.md are what the
// commands print now.
func TestReference(t *testing.T) {
	cs := collectHelp()
	want := map[string][]byte{"docs/cli.md": cliMarkdown(cs), "docs/man/headroom.1": manIndex(cs, manDate)}
	for _, c := range cs {
		for _, fs := range c.flags {
			fs.VisitAll(func(f *flag.Flag) {
				if _, text := flag.UnquoteUsage(f); len(text) < 3 {
					t.Errorf("headroom %s --%s has no usage text", fs.Name(), f.Name)
				}
			})
		}
		if len(c.flags) == 0 {
			t.Errorf("headroom %s -h made no flag set: its man page would have no options", c.name)
		}
		want["docs/man/headroom-"+c.name+".1"] = manPage(c, manDate)
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
