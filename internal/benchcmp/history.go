package main

import (
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The summary line of every run is kept in docs/performance.md, one line per run with its
// date, load, steal and revision (issue 33 item 4), between the two markers below; each run
// prints the lines before it and its own, and names a figure that is worse than the median
// of the last historyWindow runs by more than regressionShare, so that a regression shows
// the day it lands rather than when someone compares tables by hand.
const (
	historyBegin    = "<!-- bench-history: make bench appends one line per run; keep the markers -->"
	historyEnd      = "<!-- /bench-history -->"
	historyWindow   = 5
	regressionShare = 0.25
)

// historyLine is one run: "2026-11-29 05:10 UTC load 0.42→0.61 steal 0.0% rev 21eddab
// sampler/floor=1.08x serve/node_exporter=0.20x parse=293MB/s parse/grep=15.2x".
func historyLine(started time.Time, load0, load1 string, steal float64, stealOK bool, rev, summary string) string {
	st := "steal ?"
	if stealOK {
		st = fmt.Sprintf("steal %.1f%%", steal)
	}
	return fmt.Sprintf("%s load %s→%s %s rev %s %s", started.UTC().Format("2006-01-02 15:04 MST"),
		firstField(load0), firstField(load1), st, rev, summary)
}

func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return "?"
}

// readHistory returns the lines between the markers of the file at path; a file without
// them has no history yet (nil, nil).
func readHistory(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s := string(b)
	i := strings.Index(s, historyBegin)
	if i < 0 {
		return nil, nil
	}
	rest := s[i+len(historyBegin):]
	j := strings.Index(rest, historyEnd)
	if j < 0 {
		return nil, fmt.Errorf("%s: %q without %q", path, historyBegin, historyEnd)
	}
	var out []string
	for _, l := range strings.Split(rest[:j], "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "```") {
			out = append(out, l)
		}
	}
	return out, nil
}

// appendHistory adds line before the end marker (and its code fence) of the file at path.
func appendHistory(path, line string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(b)
	i := strings.Index(s, historyBegin)
	if i < 0 {
		return fmt.Errorf("%s has no %q: add the markers where the history goes", path, historyBegin)
	}
	j := strings.Index(s[i:], historyEnd)
	if j < 0 {
		return fmt.Errorf("%s: %q without %q", path, historyBegin, historyEnd)
	}
	j += i
	at := j
	// The lines sit in a fenced block: the new one goes before its closing fence.
	if k := strings.LastIndex(s[i:j], "```"); k >= 0 && k > strings.Index(s[i:j], "```") {
		at = i + k
	}
	out := s[:at] + line + "\n" + s[at:]
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(out), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// summaryFigures reads the key=value figures of a history or summary line ("parse/grep=15.2x",
// "parse=293MB/s"); n/a is left out.
func summaryFigures(line string) map[string]float64 {
	out := map[string]float64{}
	for _, f := range strings.Fields(line) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			continue
		}
		v = strings.TrimSuffix(strings.TrimSuffix(v, "x"), "MB/s")
		if n, err := strconv.ParseFloat(v, 64); err == nil {
			out[k] = n
		}
	}
	return out
}

// higherIsBetter names the summary figures where more is better (the others are ratios to
// a floor or a peer: less is better).
var higherIsBetter = map[string]bool{"parse": true}

// regressions names each figure of current that is worse than the median of the same figure
// over the last historyWindow lines of history by more than regressionShare.
func regressions(history []string, current map[string]float64) []string {
	keys := make([]string, 0, len(current))
	for k := range current {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		var past []float64
		for i := len(history) - 1; i >= 0 && len(past) < historyWindow; i-- {
			if v, ok := summaryFigures(history[i])[k]; ok {
				past = append(past, v)
			}
		}
		if len(past) == 0 {
			continue
		}
		sort.Float64s(past)
		med := past[len(past)/2]
		if len(past)%2 == 0 {
			med = (past[len(past)/2-1] + past[len(past)/2]) / 2
		}
		cur := current[k]
		worse := cur > med*(1+regressionShare)
		if higherIsBetter[k] {
			worse = cur < med*(1-regressionShare)
		}
		if worse {
			out = append(out, fmt.Sprintf("%s=%g against a median of %g over the last %d runs", k, cur, med, len(past)))
		}
	}
	return out
}

// gitRevision is the short revision of the tree measured, "?" outside git; "+" marks
// uncommitted changes.
func gitRevision(repo string) string {
	out, err := exec.Command("git", "-C", repo, "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "?"
	}
	rev := strings.TrimSpace(string(out))
	// The history itself is not a change to the code measured.
	if st, err := exec.Command("git", "-C", repo, "status", "--porcelain", "--untracked-files=no", "--", ".", ":!docs/performance.md").Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 {
		rev += "+"
	}
	return rev
}
