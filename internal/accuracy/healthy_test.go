package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"headroom/diagnose"
)

// The healthy set (testdata/healthy, issue 29): texts where nothing is wrong on any host —
// man pages, kernel Documentation, tuning guides that describe or recommend, and healthy
// captures of monitoring projects' fixtures (testdata/healthy/SOURCES names each). They
// are the adversary of first contact: each one raised a warning or a critical finding
// before its class was fixed (docs/accuracy.md, "Healthy texts: classes of false alarm
// found before the first run"). None may raise one, as written or in any form a paste of
// it could take (the forms of TestFormsKeepTheVerdict): the verdict depends on the text only.
func TestHealthySetRaisesNoAlarm(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "healthy", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("testdata/healthy holds %d texts; the set is missing", len(files))
	}
	sort.Strings(files)
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		text := string(b)
		check := func(formName, text string) {
			t.Helper()
			v, err := diagnoseText(text, name)
			if err != nil {
				return // could not run: no verdict, no alarm (the exit-3 path says so)
			}
			var alarms []string
			for id, sev := range v {
				if sev >= diagnose.Warning {
					alarms = append(alarms, id+"="+sev.String())
				}
			}
			if len(alarms) > 0 {
				sort.Strings(alarms)
				t.Errorf("%s (%s): false alarm %s", name, formName, strings.Join(alarms, ", "))
			}
		}
		check("as written", text)
		if testing.Short() {
			continue
		}
		for _, f := range forms {
			if f.applies != nil && !f.applies(text) {
				continue
			}
			check(f.name, f.apply(text))
		}
	}
}
