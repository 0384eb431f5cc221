package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/artifact"
	"headroom/diagnose"
)

func seedDiagnosis(t *testing.T, name string) diagnose.Diagnosis {
	t.Helper()
	f, err := os.Open(filepath.Join("../testdata/seeds", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tl, err := artifact.Parse(f, name, artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return diagnose.Run(tl, nil)
}

// The verdict of each seed, as the terminal shows it first, held in a golden file
// (testdata/story-NNN.txt; go test ./report -update rewrites them: review the diff against
// issue 19's stories).
func TestVerdictSeedsGolden(t *testing.T) {
	names, _ := filepath.Glob("../testdata/seeds/00*.txt")
	if len(names) != 5 {
		t.Fatalf("%d seeds", len(names))
	}
	for _, path := range names {
		name := filepath.Base(path)
		t.Run(name[:3], func(t *testing.T) {
			d := seedDiagnosis(t, name)
			var b bytes.Buffer
			p := &printer{w: &b}
			writeVerdictText(p, d.Story)
			if p.err != nil {
				t.Fatal(p.err)
			}
			golden := filepath.Join("testdata", "story-"+name[:3]+".txt")
			if *update {
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b.Bytes(), want) {
				t.Errorf("%s differs from the golden file; run go test ./report -update and review the diff\n%s", golden, b.String())
			}
		})
	}
}

// The text report leads with the verdict, keeps the not-checked rules to one line unless
// asked (--checks), and the JSON carries the story as the diagnosis object.
func TestTextVerdictFirstAndChecksCollapsed(t *testing.T) {
	name := "001_5d94cdb1dc74f564.txt"
	f, err := os.Open(filepath.Join("../testdata/seeds", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tl, err := artifact.Parse(f, name, artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := diagnose.Run(tl, nil)
	var b bytes.Buffer
	if err := WriteText(&b, tl, d, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	v, fi := strings.Index(out, "Verdict"), strings.Index(out, "\nFindings")
	if v < 0 || fi < 0 || v > fi {
		t.Errorf("verdict at %d, findings at %d", v, fi)
	}
	if n := strings.Count(out, "not checked  "); n != 0 {
		t.Errorf("%d not-checked lines by default, want them collapsed", n)
	}
	if !strings.Contains(out, "--checks") {
		t.Error("the collapsed line should say how to list them")
	}
	b.Reset()
	if err := WriteText(&b, tl, d, TextOptions{Checks: true}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "not checked  "); n < 20 {
		t.Errorf("--checks listed %d rules", n)
	}
	doc := NewDocument(tl, d)
	if len(doc.Diagnosis.Causes) == 0 || doc.Diagnosis.Causes[0].ID != "allocator-churn" {
		t.Errorf("JSON diagnosis causes %+v", doc.Diagnosis.Causes)
	}
}

// Since-boot notes alone make a quiet verdict: no "what failed", nothing to collect.
func TestVerdictQuiet(t *testing.T) {
	d := diagnose.Diagnosis{Findings: []diagnose.Finding{{ID: "softnet-squeeze", Severity: diagnose.Info,
		Title: "receive processing ran out of its softirq budget", Evidence: []diagnose.Evidence{{What: "time_squeeze since boot", Value: "2"}}}}}
	d.Story = diagnose.Tell(d.Findings)
	if len(d.Story.NextEvidence) != 0 {
		t.Errorf("a since-boot note asks for %+v", d.Story.NextEvidence)
	}
	var b bytes.Buffer
	p := &printer{w: &b}
	writeVerdictText(p, d.Story)
	out := b.String()
	if !strings.Contains(out, "no current problem") || !strings.Contains(out, "Noted        softnet-squeeze") || strings.Contains(out, "What failed") {
		t.Errorf("quiet verdict:\n%s", out)
	}
}

// An info cause (a share of slab) that explains a critical failure makes no quiet verdict:
// the failure is what failed (corpus 771: "no current problem" above a critical
// alloc-fail-lowmem before).
func TestVerdictInfoCauseOfCriticalNotQuiet(t *testing.T) {
	s := diagnose.Story{
		Causes: []diagnose.Cause{{ID: "slab-unreclaimable-growth", Severity: diagnose.Info, Title: "slab held 41% of lowmem"}},
		Chains: []diagnose.Chain{{Root: "slab-unreclaimable-growth", Links: []diagnose.Link{
			{ID: "slab-unreclaimable-growth", Severity: diagnose.Info, Title: "slab held 41% of lowmem"},
			{ID: "alloc-fail-lowmem", Severity: diagnose.Critical, Title: "allocations failed in lowmem"},
		}}},
	}
	var b bytes.Buffer
	writeVerdictText(&printer{w: &b}, s)
	out := b.String()
	if strings.Contains(out, "no current problem") || !strings.Contains(out, "What failed  allocations failed in lowmem") {
		t.Errorf("verdict:\n%s", out)
	}
}
