package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"headroom/diagnose"
	"headroom/internal/testkit"
	"headroom/kernel"
	"headroom/model"
	"headroom/record"
)

var watchT0 = time.Date(2026, 3, 1, 14, 2, 0, 0, time.UTC)

var watchCounters = testkit.Counters

// watchSample is sample i of a made-up live run (testkit.SwapRampSample).
func watchSample(i int) model.Sample { return testkit.SwapRampSample(watchT0, i) }

func watchHeaderFor() record.Header {
	h := record.Header{Source: model.SourceInfo{Kind: model.SourceLive, Name: "watch-test"}, Started: watchT0, Interval: record.Duration(time.Second), Tool: "test"}
	h.Host.Kernel = "6.6.15-amd64"
	h.Host.Arch = "x86_64"
	h.Host.SetPageSize(4096)
	return h
}

// A test rule that fires on a window with swap-out: the live view must flag it when it
// starts and stops. It looks only at this test's source, so the seeds' stories and goldens in
// this package never see it.
func init() {
	diagnose.Register(diagnose.Rule{ID: "test-watch-swap-window", Title: "test", Family: diagnose.FamilyMemory, Check: func(tl *model.Timeline) diagnose.Result {
		if tl.Source.Name != "watch-test" {
			return diagnose.Healthy("not the watch test")
		}
		for _, s := range tl.Samples {
			if v, ok := s.Rates[model.RateSwapOutKBPerSec]; ok && v > 0 {
				return diagnose.Fired(diagnose.Finding{Severity: diagnose.Warning, Title: "swapping"})
			}
		}
		return diagnose.Healthy("no swap-out")
	}})
}

// The live view prints one plain line per interval and flags a rule when it starts and
// stops firing on its window.
func TestWatchFlagsRules(t *testing.T) {
	var out bytes.Buffer
	w := NewWatch(WatchOptions{Out: &out, Window: 3})
	h := watchHeaderFor()
	h.Host.Sysctls = map[string]string{"net.ipv4.tcp_mem": "1000 2000 3000"}
	if err := w.Begin(h); err != nil {
		t.Fatal(err)
	}
	for i := 15; i < 40; i++ {
		s := watchSample(i)
		s.Zones = []kernel.Zone{{Node: 0, Name: "Normal", Fields: *watchCounters("free", 12800, "min", 10000, "low", 12500, "high", 15000, "present", 262144)}}
		var ss kernel.Groups
		ss = append(ss, kernel.Group{Name: "TCP", Counters: *watchCounters("inuse", 3, "orphan", 0, "tw", 1, "alloc", 4, "mem", 500)})
		s.SockStat = ss
		w.Sample(&s)
		if err := w.EndInterval(); err != nil {
			t.Fatal(err)
		}
	}
	text := out.String()
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if len(lines) != 2+25 {
		t.Fatalf("%d lines:\n%s", len(lines), text)
	}
	if !strings.HasPrefix(lines[1], "time ") {
		t.Errorf("header: %q", lines[1])
	}
	// Normal: 12800 pages = 50 MiB free against low 12500 pages = 49 MiB; order 4 is the
	// highest with a free block; TCP memory 500 pages = 25% of the pressure threshold.
	if !strings.Contains(lines[2], "Normal   50M/49M") || !strings.Contains(lines[2], "  4 ") || !strings.Contains(lines[2], "25.0") {
		t.Errorf("first line: %q", lines[2])
	}
	var started, stopped int
	for i, l := range lines {
		if strings.Contains(l, "+test-watch-swap-window(w)") {
			started = i
		}
		if strings.Contains(l, "-test-watch-swap-window") {
			stopped = i
		}
	}
	// Swap-out runs from sample 21 to 30 (lines 6..15 here); with a window of 3 samples the
	// rule starts when 21 arrives and stops two samples after 30.
	if started != 2+21-15 || stopped != 2+33-15 {
		t.Errorf("started at line %d, stopped at line %d:\n%s", started, stopped, text)
	}
	if strings.Contains(text, "\033[") {
		t.Error("ANSI escapes without Color")
	}
}
