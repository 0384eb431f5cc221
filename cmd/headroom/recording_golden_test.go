package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"headroom/diagnose"
	"headroom/input"
	"headroom/internal/recgen"
	"headroom/judge"
)

// Issue 30 item 4: reading a recording sample by sample within a memory budget must not
// change what doctor says about it. The goldens are doctor --format json (without its
// build) as the reader that held every sample wrote it, before the streaming reader: the
// committed recording of a loopback flood, and 1 500 samples of a real host's shape
// (internal/recgen, seed 7, two markers).
var recordingGoldens = []struct{ name, golden string }{
	{"../../record/testdata/loopback-flood.jsonl.gz", "testdata/golden/lf.doctor.json"},
	{"g1500", "testdata/golden/g1500.doctor.json"},
}

func goldenRecording(t *testing.T, name string) string {
	t.Helper()
	if name != "g1500" {
		return name
	}
	path := filepath.Join(t.TempDir(), "g1500.jsonl.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := recgen.Generate(f, recgen.Options{Samples: 1500, Seed: 7, Markers: 2}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func loadGolden(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRecordingDiagnosisUnchanged(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes 1 500 samples of 27 KB")
	}
	for _, g := range recordingGoldens {
		path := goldenRecording(t, g.name)
		var out, errb bytes.Buffer
		code := run([]string{"doctor", "--from", path, "--format", "json"}, IO{Stdin: &bytes.Buffer{}, Stdout: &out, Stderr: &errb})
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", g.name, code, errb.String())
		}
		var got map[string]any
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		delete(got, "build")
		want := loadGolden(t, g.golden)
		for k := range want {
			if !reflect.DeepEqual(got[k], want[k]) {
				a, _ := json.MarshalIndent(got[k], "", " ")
				t.Errorf("%s: %q differs from %s:\n%s", g.name, k, g.golden, a)
			}
		}
		for k := range got {
			if _, ok := want[k]; !ok {
				t.Errorf("%s: %q not in %s", g.name, k, g.golden)
			}
		}
	}
}

// A recording longer than the budget is thinned; what the rules conclude stays: the same
// findings at the same severities and the same causes as the golden (whose recording was
// read whole). Here 1 500 samples are thinned to about 50 by a 1 MiB budget.
func TestThinnedRecordingSameFindings(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes 1 500 samples of 27 KB")
	}
	path := goldenRecording(t, "g1500")
	tl, err := input.Open(context.Background(), path, input.Options{MaxSampleBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Samples) > 200 {
		t.Fatalf("kept %d samples: not thinned", len(tl.Samples))
	}
	t.Logf("1 500 samples thinned to %d", len(tl.Samples))
	d := diagnose.Run(tl, nil)
	judge.PlaceFindings(tl, &d)
	var got, want []string
	for _, f := range d.Findings {
		got = append(got, f.ID+" "+f.Severity.String())
	}
	golden := loadGolden(t, "testdata/golden/g1500.doctor.json")
	for _, f := range golden["findings"].([]any) {
		m := f.(map[string]any)
		want = append(want, m["id"].(string)+" "+m["severity"].(string))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("thinned to %d samples: findings %v, read whole %v", len(tl.Samples), got, want)
	}
	var causes []string
	for _, c := range d.Story.Causes {
		causes = append(causes, c.ID)
	}
	var wantCauses []string
	for _, c := range golden["diagnosis"].(map[string]any)["causes"].([]any) {
		wantCauses = append(wantCauses, c.(map[string]any)["id"].(string))
	}
	if !slices.Equal(causes, wantCauses) {
		t.Fatalf("causes %v, read whole %v", causes, wantCauses)
	}
}
