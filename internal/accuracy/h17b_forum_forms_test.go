package main

import (
	"fmt"
	"strings"
	"testing"

	"headroom/artifact"
	"headroom/diagnose"
	"headroom/judge"
)

// h17b: each forum-page form of forms_test.go on a minimal report reaches the finding an
// expert lists for it, with its key figure, through the readers alone (artifact/forms.go,
// prefixes.go, gutter.go), not only through the metamorphic comparison.
const h17bOOM = `[  812.345678] nginx invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0
[  812.345690] Mem-Info:
[  812.345700] Node 0 Normal free:8120kB min:10244kB low:15260kB high:20276kB active_anon:4321kB inactive_anon:12kB active_file:0kB inactive_file:0kB unevictable:0kB writepending:0kB present:3129216kB managed:3021716kB mlocked:0kB
[  812.345710] Node 0 Normal: 30*4kB (UME) 12*8kB (UM) 0*16kB 0*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 216kB
[  812.345800] Out of memory: Killed process 1234 (nginx) total-vm:2345678kB, anon-rss:1234567kB, file-rss:0kB, shmem-rss:0kB
`

// A show_mem dump (sysrq-m, no report header) that the paste cut inside its last zone line:
// the zone's free pages and watermarks are before the cut.
const h17bCutZone = `[ 5123.456789] Node 0 DMA free:15892kB min:32kB low:44kB high:56kB active_anon:0kB inactive_anon:0kB active_file:0kB inactive_file:0kB unevictable:0kB writepending:0kB present:15992kB managed:15908kB mlocked:0kB
[ 5123.456790] lowmem_reserve[]: 0 2951 7851 7851
[ 5123.456791] Node 0 DMA32 free:9876kB min:6168kB low:9188kB high:12208kB active_anon:1234kB inactive_anon:0kB active_file:0kB inactive_file:0kB unevictable:0kB writepending:0kB present:3129216kB managed:3021716kB mlocked:0kB
[ 5123.456792] lowmem_reserve[]: 0 0 4900 4900
[ 5123.456793] Node 0 Normal free:8120kB min:10244kB low:15260kB high:20276kB active_anon:4321kB inactive_anon:12kB active_file:0kB inactive_file:0kB unevictable:0kB writepending:0kB present:5242880kB managed:5017600kB mlocked:0kB
`

func h17bFindings(t *testing.T, text string) []diagnose.Finding {
	fs, _ := h17bRead(t, text)
	return fs
}

// h17bRead is the findings of text and how many of its lines were read (not prose, blank or
// unread).
func h17bRead(t *testing.T, text string) ([]diagnose.Finding, int) {
	t.Helper()
	tl, err := artifact.ParseBytes([]byte(text), "t", artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	judge.Finish(tl)
	records := 0
	if tl.Lines != nil {
		records = tl.Lines.Read
	}
	d := diagnose.Run(tl, nil)
	return d.Findings, records
}

// h17bHas reports whether findings hold id with evidence that names figure.
func h17bHas(fs []diagnose.Finding, id, figure string) bool {
	for _, f := range fs {
		if f.ID == id && strings.Contains(fmt.Sprint(f.Evidence), figure) {
			return true
		}
	}
	return false
}

func TestH17bForumFormsReachTheFinding(t *testing.T) {
	if !h17bHas(h17bFindings(t, h17bOOM), "oom-kill", "nginx") {
		t.Fatal("the plain report: no oom-kill naming nginx")
	}
	for _, name := range []string{"phpbb3-codebox", "code-caption", "smf-code-select", "spoiler-caption",
		"heading-first", "bold-first", "kernel-tag", "bullets-star", "quote-bar", "gutter-tab"} {
		var f *form
		for k := range forms {
			if forms[k].name == name {
				f = &forms[k]
			}
		}
		if f == nil {
			t.Fatalf("no form %s", name)
		}
		in := f.apply(h17bOOM)
		if in == h17bOOM {
			t.Errorf("%s: the form did not change the text", name)
		}
		// Every line of the report is read (main read the OOM line's words as a stated
		// kill under " * ", "| > " and a tab gutter, and left the other lines prose or
		// unread).
		fs, read := h17bRead(t, in)
		if !h17bHas(fs, "oom-kill", "nginx") || read != 5 {
			t.Errorf("%s: %d lines read, oom-kill naming nginx %v, want 5 and true, in\n%s", name, read, h17bHas(fs, "oom-kill", "nginx"), in)
		}
	}
	// A bar quote around a mail quote, the title form a forum puts over its code box.
	for _, in := range []string{quoteBar(quoteMail(h17bOOM)), "Code: Select all\n" + quoteMail(h17bOOM)} {
		if !h17bHas(h17bFindings(t, in), "oom-kill", "nginx") {
			t.Errorf("no oom-kill naming nginx in\n%s", in)
		}
	}
}

func TestH17bDumpCutInItsLastZoneLine(t *testing.T) {
	const figure = "free 2030 pages"
	if !h17bHas(h17bFindings(t, h17bCutZone), "zone-reserve-low", figure) {
		t.Fatal("the whole dump: no zone-reserve-low with " + figure)
	}
	for _, in := range []string{cutLastLine(h17bCutZone), quoteBar(cutLastLine(h17bCutZone)), gutterTab(cutLastLine(h17bCutZone))} {
		if !h17bHas(h17bFindings(t, in), "zone-reserve-low", figure) {
			t.Errorf("no zone-reserve-low with %s in\n%s", figure, in)
		}
	}
	// Counter-case: the zone above its min watermark, cut the same way, stays healthy.
	healthy := strings.Replace(h17bCutZone, "Normal free:8120kB", "Normal free:81200kB", 1)
	if fs := h17bFindings(t, cutLastLine(healthy)); h17bHas(fs, "zone-reserve-low", "") {
		t.Error("a zone above min, cut in its line: zone-reserve-low")
	}
}
