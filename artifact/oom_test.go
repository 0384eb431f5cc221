package artifact

import (
	"testing"

	"headroom/model"
)

// Rows of the OOM killer's task table alone (corpus case 380, "dmesg -T" stamps): dump_tasks
// (mm/oom_kill.c) prints "[%7d] %5d %5d %8lu %8lu ... %5hd %s" rows only from dump_header,
// during an OOM kill, so the rows are an OOM-kill event even without "invoked oom-killer" or
// "Killed process". The 8-number rows are 4.0-4.14's (nr_ptes, nr_pmds); the last row is cut.
func TestOOMTaskRowsAlone(t *testing.T) {
	text := "```\n" +
		"[Wed Feb 19 06:41:04 2025] [21034]     0 21034  8500909     3458     130       6        0             0 chrome\n" +
		"[Wed Feb 19 06:41:04 2025] [21038]     0 21038      724      120       5       3        0         -1000 cat\n" +
		"[Wed Feb 19 06:41:04 2025] [29039]     0 29039  8457\n"
	tl := ParseString(text, "t", Options{})
	var ev *model.Event
	for i := range tl.Events {
		if tl.Events[i].Kind == model.EventOOMKill {
			ev = &tl.Events[i]
		}
	}
	if ev == nil || ev.FirstLine != 2 || ev.LastLine != 4 {
		t.Fatalf("no OOM event over lines 2-4: %+v", tl.Events)
	}
	var art *oomArtifact
	for _, a := range tl.Artifacts {
		if a.Kind == KindOOMKill {
			art = a.Data.(*oomArtifact)
		}
	}
	if art == nil || len(art.Tasks) != 3 {
		t.Fatalf("artifact %+v", art)
	}
	want := map[string]int64{"pid": 21038, "tgid": 21038, "total_vm": 724, "rss": 120, "nr_pmds": 3, "oom_score_adj": -1000}
	for k, v := range want {
		if got, ok := art.Tasks[1].Fields.Get(k); !ok || got != v || art.Tasks[1].Name != "cat" {
			t.Errorf("row 2 %s = %d (%v), want %d; name %q", k, got, ok, v, art.Tasks[1].Name)
		}
	}
	if cut := art.Tasks[2]; cut.Name != "" {
		t.Errorf("the cut row's number was read as its comm %q", cut.Name)
	} else if v, _ := cut.Fields.Get("total_vm"); v != 8457 {
		t.Errorf("cut row total_vm %d", v)
	}
}

// One row alone, or lines that only look like rows, are no OOM report.
func TestOOMTaskRowsNotEnough(t *testing.T) {
	for _, text := range []string{
		"[21034]     0 21034  8500909     3458     130       6        0             0 chrome\n",
		"[1] 1 2 3 4 5 x\n[2] 1 2 3 4 5 y\n", // five numbers: no dump_tasks layout
		"[ 12.5] 1 2 3 4 5 6 7 x\n[ 13.5] 1 2 3 4 5 6 7 y\n",
	} {
		tl := ParseString(text, "t", Options{})
		for _, e := range tl.Events {
			if e.Kind == model.EventOOMKill {
				t.Errorf("%q: read as an OOM kill", text)
			}
		}
	}
	// The header alone starts the table (4.19+ "Tasks state" line, then the header).
	tl := ParseString("Tasks state (memory values in pages):\n[  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name\n"+
		"[    812]     0   812    10713      254   118784        0             0 systemd-journal\n", "t", Options{})
	n := 0
	for _, e := range tl.Events {
		if e.Kind == model.EventOOMKill {
			n++
		}
	}
	if n != 1 {
		t.Errorf("header-led table: %d OOM events", n)
	}
}
