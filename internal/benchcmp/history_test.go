package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Each run prints the summary lines before it and appends its own (issue 33 item 4), and a
// figure worse than the recent median by a quarter is named.
func TestHistory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "performance.md")
	doc := "# Performance\n\nintro\n\n" + historyBegin + "\n```\n" +
		"2026-11-27 02:08 UTC load 1.1→0.7 steal ? rev ? sampler/floor=1.08x serve/node_exporter=0.20x parse=293MB/s parse/grep=15.2x\n" +
		"2026-11-28 10:00 UTC load 0.1→0.6 steal 0.0% rev abc sampler/floor=1.15x serve/node_exporter=0.18x parse=101MB/s parse/grep=23.0x\n" +
		"```\n" + historyEnd + "\n\n## After\n"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	line := historyLine(time.Date(2026, 11, 29, 5, 10, 0, 0, time.UTC), "0.42 0.5 0.6 1/200 5", "0.61 0.5 0.6", 0.04, true, "21eddab",
		"sampler/floor=1.10x serve/node_exporter=0.30x parse=n/a parse/grep=n/a")
	if want := "2026-11-29 05:10 UTC load 0.42→0.61 steal 0.0% rev 21eddab sampler/floor=1.10x"; !strings.HasPrefix(line, want) {
		t.Fatalf("line %q, want it to start %q", line, want)
	}
	var out, errs strings.Builder
	showHistory(&out, &errs, path, true, line)
	if errs.Len() > 0 {
		t.Fatal(errs.String())
	}
	got := out.String()
	for _, want := range []string{"rev abc sampler", "<- this run", "REGRESSION? serve/node_exporter=0.3 against a median of 0.19 over the last 2 runs"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "REGRESSION? sampler") || strings.Contains(got, "REGRESSION? parse") {
		t.Errorf("a figure within a quarter of the median, or not measured, named:\n%s", got)
	}
	hist, err := readHistory(path)
	if err != nil || len(hist) != 3 || hist[2] != line {
		t.Fatalf("history after the run: %q, %v", hist, err)
	}
	b, _ := os.ReadFile(path)
	if !strings.HasSuffix(string(b), line+"\n```\n"+historyEnd+"\n\n## After\n") {
		t.Errorf("the line went elsewhere:\n%s", b)
	}
	// A lower parse throughput is the regression there.
	if r := regressions(hist, map[string]float64{"parse": 50, "parse/grep": 30}); len(r) != 2 {
		t.Errorf("regressions %q, want parse and parse/grep", r)
	}
}
