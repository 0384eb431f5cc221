package diagnose

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"headroom/artifact"
)

func TestScratchDump(t *testing.T) {
	files, _ := filepath.Glob("../testdata/seeds/*.txt")
	for _, f := range files {
		fh, _ := os.Open(f)
		tl, err := artifact.Parse(fh, filepath.Base(f), artifact.Options{})
		fh.Close()
		if err != nil {
			t.Logf("%s: %v", f, err)
			continue
		}
		b, _ := json.MarshalIndent(struct {
			Host     any
			Segments any
			Settings any
			Profiles any
			NSamples int
			Unparsed any
		}{tl.Host, tl.Segments, tl.Settings, tl.Profiles, len(tl.Samples), tl.Unparsed}, "", " ")
		os.WriteFile("/tmp/scratch_"+filepath.Base(f)+".json", b, 0o644)
		for i, s := range tl.Samples {
			sb, _ := json.Marshal(s)
			if len(sb) > 600 {
				sb = sb[:600]
			}
			t.Logf("%s sample %d: %s", filepath.Base(f), i, sb)
		}
		d := Run(tl, nil)
		for _, c := range d.Checks {
			t.Logf("%s check %s %s %s", filepath.Base(f), c.ID, c.Status, c.Why)
		}
		for _, fd := range d.Findings {
			t.Logf("%s FINDING %s %v %s", filepath.Base(f), fd.ID, fd.Severity, fd.Title)
		}
	}
}

func TestScratchFindings(t *testing.T) {
	files, _ := filepath.Glob("../testdata/seeds/*.txt")
	for _, f := range files {
		fh, _ := os.Open(f)
		tl, _ := artifact.Parse(fh, filepath.Base(f), artifact.Options{})
		fh.Close()
		d := Run(tl, nil)
		var mine []Finding
		for _, fd := range d.Findings {
			r, _ := Lookup(fd.ID)
			if r.Family == "network" {
				mine = append(mine, fd)
			}
		}
		b, _ := json.MarshalIndent(mine, "", " ")
		os.WriteFile("/tmp/findings_"+filepath.Base(f)+".json", b, 0o644)
	}
}
