package diagnose

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"headroom/artifact"
)

// corpusLabel is the part of testdata/corpus/labels*.json the root-cause check reads.
type corpusLabel struct {
	Must []string `json:"must"`
}

// TestRootCauseCorpus: on the labelled corpus the root cause named is the first must id of
// the case's label in at least 85% of the cases that have one (issue 19).
func TestRootCauseCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the whole corpus")
	}
	labels := map[string]corpusLabel{}
	files, _ := filepath.Glob("../testdata/corpus/labels*.json")
	if len(files) == 0 {
		t.Fatal("no labels in ../testdata/corpus")
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]corpusLabel{}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for k, v := range m {
			labels[k] = v
		}
	}
	stems := make([]string, 0, len(labels))
	for k := range labels {
		stems = append(stems, k)
	}
	sort.Strings(stems)
	hit, total := 0, 0
	var misses []string
	for _, stem := range stems {
		l := labels[stem]
		if len(l.Must) == 0 {
			continue
		}
		f, err := os.Open("../testdata/corpus/" + stem + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		tl, err := artifact.Parse(f, stem+".txt", artifact.Options{})
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", stem, err)
		}
		total++
		got := RootCause(Run(tl, nil).Findings)
		if got == l.Must[0] {
			hit++
		} else {
			misses = append(misses, stem+": named "+got+", label "+strings.Join(l.Must, ","))
		}
	}
	pct := 100 * float64(hit) / float64(total)
	t.Logf("root cause = first must id: %d of %d (%.1f%%)", hit, total, pct)
	for _, m := range misses {
		t.Log("  " + m)
	}
	if pct < 85 {
		t.Errorf("root cause named in %.1f%% of the cases, want ≥ 85%%", pct)
	}
}
