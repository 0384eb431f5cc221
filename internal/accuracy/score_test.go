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
	truth := map[string]any{"a": 12.0, "b": 3.0, "derived": map[string]any{"x": 99.0}, "rx_missed_pct": 42.0}
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
