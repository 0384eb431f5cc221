package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestNormMode(t *testing.T) {
	for in, want := range map[string]string{"0x20": "0x20", "0x020": "0x20", "0×20": "0x20", " 0X4020 ": "0x4020", "0x0": "0x0"} {
		if got := normMode(in); got != want {
			t.Errorf("normMode(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMatchHeadersUsesEachOnce(t *testing.T) {
	truth := []header{{"swapper", 1, "0x20"}, {"swapper", 1, "0x20"}, {"sshd", 0, ""}}
	out := []header{{"swapper", 1, "0x20"}, {"sshd", 0, "0x4020"}}
	if got := matchHeaders(truth, out); got != 2 {
		t.Fatalf("matched %d, want 2 (one swapper report missing; a truth without a mode matches any)", got)
	}
	if got := matchHeaders([]header{{"swapper", 1, "0x20"}}, []header{{"swapper", 2, "0x20"}}); got != 0 {
		t.Fatalf("a wrong order matched")
	}
}

func TestMatchZonesCountsFacts(t *testing.T) {
	tz := zone{Node: 0, Name: "Normal", KB: map[string]float64{"free_kb": 10, "min_kb": 5}, Buddy: []float64{1, 2}}
	ok := zone{Node: 0, Name: "Normal", KB: map[string]float64{"free_kb": 10, "min_kb": 6}, Buddy: []float64{1, 2, 0, 0}}
	other := zone{Node: 1, Name: "Normal", KB: map[string]float64{"free_kb": 10, "min_kb": 5}, Buddy: []float64{1, 2}}
	if got := matchZones([]zone{tz}, []zone{other, ok}); got != 2 {
		t.Fatalf("matched %d facts, want 2 (free and buddy; min differs; node 1 is another zone)", got)
	}
}

func TestTruthNumbersSkipsDerived(t *testing.T) {
	truth := map[string]any{"a": 12.0, "b": 3.0, "derived": map[string]any{"x": 99.0}, "rx_missed_pct": 42.0,
		"total_mb_derived": 2048.0, "hit_ratio": 55.0}
	got := truthNumbers(truth)
	if len(got) != 1 || got[0] != 12 {
		t.Fatalf("truthNumbers = %v, want [12]", got)
	}
}

// TestCorpusLabelsNameRules keeps a typo in a label from passing as a miss: every id a
// label names has a rule page, and the corpus loads (each case has its text, facts, source).
func TestCorpusLabelsNameRules(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "corpus")
	cases, err := loadCorpus(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 30 {
		t.Fatalf("%d cases, want the corpus (≥ 30)", len(cases))
	}
	for _, c := range cases {
		for _, id := range append(append([]string(nil), c.Label.Must...), c.Label.May...) {
			if _, err := os.Stat(filepath.Join("..", "..", "docs", "rules", id+".md")); err != nil {
				t.Errorf("%s names %q, which is not a rule (no docs/rules/%s.md)", c.Stem, id, id)
			}
		}
	}
}

// hasNumberToken finds a number where a person wrote it, not inside a longer one.
func TestHasNumberToken(t *testing.T) {
	for _, c := range []struct {
		line string
		n    float64
		want bool
	}{
		{"node 0: slabs: 854, objs: 42320, free: 0", 854, true},
		{"free:98085 free_pcp:4475", 4475, true},
		{"Mem:  1055760384 1041887232", 1055760384, true},
		{"total 12,345 kB", 12345, true},
		{"rtt:34.249/16.545", 34.249, true},
		{"10554 pages", 554, false},
		{"1.5", 15, false},
		{"version 2.6.32", 6, false},
	} {
		if got := hasNumberToken(c.line, c.n); got != c.want {
			t.Errorf("hasNumberToken(%q, %v) = %v, want %v", c.line, c.n, got, c.want)
		}
	}
}

// findMisses names the numbers no artifact carries, with their line and the artifact
// covering it.
func TestFindMisses(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.txt")
	if err := os.WriteFile(p, []byte("head\nfree:98085 free_pcp:4475\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := corpusCase{Stem: "x", TextPath: p, Truth: map[string]any{"summary": map[string]any{"free": 98085.0, "free_pcp": 4475.0}}}
	r := doctorRun{Report: map[string]any{"artifacts": []any{
		map[string]any{"kind": "show_mem", "first_line": 2.0, "last_line": 2.0, "data": map[string]any{"free": 98085.0}},
	}}}
	ms := findMisses(c, r)
	if len(ms) != 1 || ms[0].Value != 4475 || ms[0].Key != "summary.free_pcp" || ms[0].Line != 2 || ms[0].Kind != "show_mem" {
		t.Fatalf("misses %+v", ms)
	}
}

func TestNewestBatchByNumber(t *testing.T) {
	if got := batchOf("testdata/corpus/labels-g10.json"); got != "g10" {
		t.Fatalf("batchOf = %q, want g10", got)
	}
	if got := batchOf("labels.json"); got != "" {
		t.Fatalf("batchOf(labels.json) = %q, want empty", got)
	}
	cases := []corpusCase{{Batch: ""}, {Batch: "g9"}, {Batch: "g10"}, {Batch: "g2"}}
	if got := newestBatch(cases); got != "g10" {
		t.Fatalf("newestBatch = %q, want g10 (numbers, not strings: g10 > g9)", got)
	}
	if got := newestBatch([]corpusCase{{Batch: ""}}); got != "" {
		t.Fatalf("newestBatch without batches = %q, want empty", got)
	}
}

// An OOM invoker written in a label without a type is no allocation-failure header; a
// failure with its mode is.
func TestTruthHeadersSkipOOMInvoker(t *testing.T) {
	truth := map[string]any{
		"oom":     map[string]any{"invoker": map[string]any{"process": "systemd-journal", "gfp_mask": "0x800d0", "order": float64(0)}},
		"failure": map[string]any{"process": "swapper/0", "order": float64(2), "mode": "0x20"},
	}
	hs := truthHeaders(truth)
	if len(hs) != 1 || hs[0].Process != "swapper/0" || hs[0].Order != 2 || hs[0].Mode != "0x20" {
		t.Fatalf("truthHeaders = %+v, want only the swapper/0 failure", hs)
	}
	// The invoker written with "gfp" or with its oom_score_adj (corpus 1567) is the OOM
	// killer's header too; a failure printed with its mode beside a gfp field stays one.
	truth = map[string]any{
		"invoker":  map[string]any{"process": "sshd-session", "pid": float64(1405), "gfp": "0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP)", "order": float64(0), "oom_score_adj": float64(0)},
		"invoker2": map[string]any{"process": "mysqld", "order": float64(0), "oom_score_adj": float64(0)},
		"failure":  map[string]any{"process": "kswapd0", "order": float64(3), "gfp": "0x20", "mode": "0x20"},
	}
	hs = truthHeaders(truth)
	if len(hs) != 1 || hs[0].Process != "kswapd0" || hs[0].Order != 3 {
		t.Fatalf("truthHeaders = %+v, want only the kswapd0 failure", hs)
	}
	// fix39c (corpus 3352): the invoker's gfp_mask written as "mode" beside oom_adj and
	// oom_score_adj, which only the OOM killer's header prints, is no failure header; the
	// failure beside it with its own mode and no adjustment stays one.
	truth = map[string]any{
		"oom_invocation": map[string]any{"process": "nginx", "pid": float64(1535), "order": float64(0), "mode": "0x280da", "oom_adj": float64(0), "oom_score_adj": float64(0)},
		"failure":        map[string]any{"process": "java", "order": float64(4), "mode": "0x20"},
	}
	hs = truthHeaders(truth)
	if len(hs) != 1 || hs[0].Process != "java" || hs[0].Order != 4 || hs[0].Mode != "0x20" {
		t.Fatalf("truthHeaders = %+v, want only the java failure", hs)
	}
}

// A healthy text of nothing but output headroom cannot read (corpus 820) runs: exit 0 with
// its lines listed as unparsed is a run, clean, and counts its unparsed entries; the same
// text refused (exit 3, no JSON) is no run.
func TestScoreUnreadOnlyRun(t *testing.T) {
	c := corpusCase{Stem: "820-x", Label: label{Healthy: true}, Truth: map[string]any{"port_buffer_size": 262016.0}}
	r := doctorRun{Exit: 0, Report: map[string]any{
		"schema":    1.0,
		"artifacts": []any{},
		"findings":  []any{},
		"unparsed": []any{
			map[string]any{"first_line": 5.0, "last_line": 15.0, "why": "output of `cat /sys/class/net/eth1/qos/buffer_size`: no reader for it"},
		},
	}}
	s := score(c, r)
	if !s.Ran || len(s.FalseAlarms) != 0 || s.lost() || s.Unparsed != 1 || s.Values != 1 || s.ValueHit != 0 {
		t.Fatalf("score %+v: want a clean run with one unparsed entry and its value not found", s)
	}
	s = score(c, doctorRun{Exit: 3, Err: "nothing in x is evidence headroom reads"})
	if s.Ran || !s.lost() {
		t.Fatalf("score of a refused text %+v: want no run", s)
	}
}

func TestMatchHeadersPlaceholderBrackets(t *testing.T) {
	// The reader keeps "[some_app]" as printed; a label that drops the poster's brackets
	// names the same process.
	out := []header{{"[some_app]", 4, "0x2040d0"}}
	if got := matchHeaders([]header{{"some_app", 4, "0x2040d0"}}, out); got != 1 {
		t.Errorf("bracketed placeholder vs bare name: %d, want 1", got)
	}
	if got := matchHeaders([]header{{"[some_app]", 4, "0x2040d0"}}, out); got != 1 {
		t.Errorf("same bracketed name: %d, want 1", got)
	}
	// Counter-cases: brackets inside a name are the name's; another process stays another.
	if got := matchHeaders([]header{{"runc:2:INIT", 0, ""}}, []header{{"runc:[2:INIT]", 0, ""}}); got != 0 {
		t.Errorf("inner brackets dropped: %d, want 0", got)
	}
	if got := matchHeaders([]header{{"other_app", 4, ""}}, out); got != 0 {
		t.Errorf("another process matched: %d, want 0", got)
	}
}
