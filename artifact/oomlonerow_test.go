package artifact

import (
	"testing"

	"headroom/model"
)

func oomEvents(text string) int {
	tl := ParseString(text, "t", Options{})
	n := 0
	for _, e := range tl.Events {
		if e.Kind == model.EventOOMKill {
			n++
		}
	}
	return n
}

// One task-table row in a kernel log, its next line cut (corpus case 1599): an OOM kill,
// with the row's columns read.
func TestOOMLoneTaskRowInKernelLog(t *testing.T) {
	for _, text := range []string{
		"I have checked the logs it shows like:\n```\n[4081125.742864] [  24983]    13 24983 148914113  2436617 19648512        0           870 squid\n[40811",
		"Oct 22 08:39:08 node1 kernel: [  24983]    13 24983 148914113  2436617 19648512        0           870 squid\n",
		"[  512.000001] [  812]     0   812    10713      254      24       0           -17 syslogd\n", // 2.6.3x oom_adj
	} {
		tl := ParseString(text, "t", Options{})
		var art *oomArtifact
		for _, a := range tl.Artifacts {
			if a.Kind == KindOOMKill {
				art = a.Data.(*oomArtifact)
			}
		}
		if art == nil || len(art.Tasks) != 1 {
			t.Errorf("%q: no OOM report with one task: %+v", text, art)
			continue
		}
		if art.Tasks[0].Name != "squid" && art.Tasks[0].Name != "syslogd" {
			t.Errorf("%q: task %q", text, art.Tasks[0].Name)
		}
	}
	tl := ParseString("[4081125.742864] [  24983]    13 24983 148914113  2436617 19648512        0           870 squid\n", "t", Options{})
	for _, a := range tl.Artifacts {
		if a.Kind == KindOOMKill {
			row := a.Data.(*oomArtifact).Tasks[0]
			if rss, _ := row.Fields.Get("rss"); rss != 2436617 {
				t.Errorf("rss %d", rss)
			}
			if vm, _ := row.Fields.Get("total_vm"); vm != 148914113 {
				t.Errorf("total_vm %d", vm)
			}
		}
	}
}

// A lone row that the kernel log does not carry, or that breaks dump_task's layout, stays
// no OOM report.
func TestOOMLoneTaskRowCounterCases(t *testing.T) {
	for _, text := range []string{
		// no kernel stamp: a program's table or a quoted example
		"[  24983]    13 24983 148914113  2436617 19648512        0           870 squid\n",
		// another program's syslog line
		"Oct 22 08:39:08 node1 myjob: [  24983]    13 24983 148914113  2436617 19648512        0           870 squid\n",
		// stamped, but the bracketed number is not repeated as tgid
		"[4081125.742864] [  24983]    13 24984 148914113  2436617 19648512        0           870 squid\n",
		// stamped, rss above total_vm
		"[4081125.742864] [  24983]    13 24983 1000  2436617 19648512        0           870 squid\n",
		// stamped, last number no oom_score_adj
		"[4081125.742864] [  24983]    13 24983 148914113  2436617 19648512        0           5000 squid\n",
		// stamped, too few numbers
		"[4081125.742864] [  24983]    13 24983 148914113  2436617 squid\n",
	} {
		if n := oomEvents(text); n != 0 {
			t.Errorf("%q: read as %d OOM kills", text, n)
		}
	}
}
