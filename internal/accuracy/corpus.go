package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// label is the verdict an expert gives from the text alone (testdata/corpus/README.md).
type label struct {
	Healthy bool     `json:"healthy"`
	Must    []string `json:"must"`
	May     []string `json:"may"`
	Note    string   `json:"note"`
}

// corpusCase is one labelled paste: the text, the facts read off it by hand, the verdict.
type corpusCase struct {
	Stem     string
	TextPath string
	Label    label
	Truth    any    // the case file's "truth", as written
	Batch    string // "g7" for labels-g7.json, "" for labels.json: the gathering batch
	Source   string // the case file's "source": where the text came from, in words and URLs
}

// batchOf names the gathering batch of a labels file: labels-g7.json is "g7", labels.json "".
func batchOf(labelsFile string) string {
	b := strings.TrimSuffix(filepath.Base(labelsFile), ".json")
	return strings.TrimPrefix(strings.TrimPrefix(b, "labels"), "-")
}

// newestBatch is the gathering batch with the highest number (g7 after g6, g10 after g9), ""
// when no batch file names one.
func newestBatch(cases []corpusCase) string {
	best, bestN := "", -1
	for _, c := range cases {
		if len(c.Batch) < 2 || c.Batch[0] != 'g' {
			continue
		}
		n, err := strconv.Atoi(c.Batch[1:])
		if err == nil && n > bestN {
			best, bestN = c.Batch, n
		}
	}
	return best
}

// loadCorpus reads labels.json and every labels-*.json in dir. Each stem must be labelled
// once and have its NNN-slug.txt and NNN-slug.json; each id must name a rule that has a page
// under docs/rules (checked by the caller's test), so a typo cannot pass as a miss.
func loadCorpus(dir string) ([]corpusCase, error) {
	files, err := filepath.Glob(filepath.Join(dir, "labels*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no labels.json", dir)
	}
	labels := map[string]label{}
	from := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var m map[string]label
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for stem, l := range m {
			if prev, dup := from[stem]; dup {
				return nil, fmt.Errorf("%s is labelled twice (%s and %s)", stem, prev, f)
			}
			from[stem] = f
			labels[stem] = l
		}
	}
	stems := sortedKeys(labels)
	cases := make([]corpusCase, 0, len(stems))
	for _, stem := range stems {
		c := corpusCase{Stem: stem, Label: labels[stem], TextPath: filepath.Join(dir, stem+".txt"), Batch: batchOf(from[stem])}
		if _, err := os.Stat(c.TextPath); err != nil {
			return nil, fmt.Errorf("%s is labelled in %s but has no text: %w", stem, from[stem], err)
		}
		b, err := os.ReadFile(filepath.Join(dir, stem+".json"))
		if err != nil {
			return nil, fmt.Errorf("%s has no facts file: %w", stem, err)
		}
		var meta struct {
			Source string `json:"source"`
			Truth  any    `json:"truth"`
		}
		if err := json.Unmarshal(b, &meta); err != nil {
			return nil, fmt.Errorf("%s.json: %w", stem, err)
		}
		if strings.TrimSpace(meta.Source) == "" {
			return nil, fmt.Errorf("%s.json has no source: every case keeps where it came from", stem)
		}
		c.Truth = meta.Truth
		c.Source = meta.Source
		cases = append(cases, c)
	}
	// Every text must be labelled: an unlabelled case would silently not count.
	texts, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	var unlabelled []string
	for _, t := range texts {
		stem := strings.TrimSuffix(filepath.Base(t), ".txt")
		if _, ok := labels[stem]; !ok {
			unlabelled = append(unlabelled, stem)
		}
	}
	if len(unlabelled) > 0 {
		sort.Strings(unlabelled)
		return nil, fmt.Errorf("cases without a label: %s", strings.Join(unlabelled, ", "))
	}
	return cases, nil
}
