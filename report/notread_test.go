package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"headroom/diagnose"
	"headroom/model"
)

// Issue 27: an unprivileged doctor said "Verdict: no current problem" while the 8
// allocation-failure rules could not read /dev/kmsg (said only under "Not available"). Every
// format names the source and the rules it left unjudged, and none says the host is fine.
func TestVerdictNamesWhatWasNotRead(t *testing.T) {
	tl := &model.Timeline{Source: model.SourceInfo{Kind: model.SourceLive, Name: "h"},
		NotAvailable: []model.Unavailable{{What: "kernel log (/dev/kmsg)", Why: "/dev/kmsg: permission denied"}}}
	d := diagnose.Run(tl, nil)
	nr := d.Story.NotRead
	if len(nr) == 0 || nr[0].Source != "kernel log (/dev/kmsg)" || len(nr[0].Rules) < 8 {
		t.Fatalf("story not_read: %+v", nr)
	}
	for _, id := range []string{"alloc-fail-reserve", "slab-alloc-failure"} {
		if !strings.Contains(strings.Join(nr[0].Rules, " "), id) {
			t.Errorf("%s missing from the rules the kernel log left unjudged: %v", id, nr[0].Rules)
		}
	}
	var text, md, html, js bytes.Buffer
	if err := WriteText(&text, tl, d, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, tl, d); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&html, tl, d, HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&js, tl, d); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String(), "html": html.String()} {
		if !strings.Contains(out, "in what was read") || !strings.Contains(out, "kernel log (/dev/kmsg)") || !strings.Contains(out, "alloc-fail-reserve") {
			t.Errorf("%s does not name what was not read:\n%s", name, out)
		}
		for _, healthy := range []string{"Verdict: no problem found", "No problem found.", "Verdict: no current problem;"} {
			if strings.Contains(out, healthy) {
				t.Errorf("%s says %q with the kernel log unread", name, healthy)
			}
		}
	}
	var doc struct {
		Diagnosis struct {
			NotRead []diagnose.Unread `json:"not_read"`
		} `json:"diagnosis"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || len(doc.Diagnosis.NotRead) == 0 || doc.Diagnosis.NotRead[0].Source != "kernel log (/dev/kmsg)" {
		t.Errorf("json not_read: %+v (%v)", doc.Diagnosis.NotRead, err)
	}
	// Everything read: the old headline stays.
	tl.NotAvailable = nil
	text.Reset()
	tl.Log = model.NewLog([]model.LogRecord{{Message: "Linux version 6.18"}})
	if err := WriteText(&text, tl, diagnose.Run(tl, nil), TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "not read") {
		t.Errorf("nothing unread, yet:\n%s", text.String())
	}
}

// A text whose evidence only one rule reads (a /proc/slab_allocators paste: 1 of 46 rules had
// its data) must not get the bare "no problem found": the verdict counts what was checked.
func TestVerdictCountsRulesWithoutData(t *testing.T) {
	tl := &model.Timeline{Source: model.SourceInfo{Kind: model.SourceText, Name: "t"}}
	d := diagnose.Diagnosis{Checks: []diagnose.Check{
		{ID: "a", Status: diagnose.StatusOK},
		{ID: "b", Status: diagnose.StatusNotChecked},
		{ID: "c", Status: diagnose.StatusNotChecked},
	}}
	var text, md bytes.Buffer
	if err := WriteText(&text, tl, d, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, tl, d); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
		if !strings.Contains(out, "1 of 3 rules that had their data; 2 not checked") || !strings.Contains(out, "no clean bill of health") {
			t.Errorf("%s does not count the rules without data:\n%s", name, out)
		}
	}
	// Every rule had its data: the plain headline stays.
	d.Checks[1].Status, d.Checks[2].Status = diagnose.StatusOK, diagnose.StatusOK
	text.Reset()
	if err := WriteText(&text, tl, d, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "Verdict: no problem found\n") {
		t.Errorf("all rules checked, yet:\n%s", text.String())
	}
}
