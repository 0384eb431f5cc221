package diagnose

import (
	"strings"
	"testing"

	"headroom/model"
)

func TestFix19aListenOverflowProgramReport(t *testing.T) {
	tl := timeline(0)
	tl.ProgramListenFulls = []model.ProgramListenFull{{
		Program: "uwsgi", Socket: ":3030", Queued: 101, Backlog: 100, Count: 4, Source: "lines 3-6",
		Line: `uWSGI listen queue of socket ":3030" (fd: 4) full !!! (101/100) ***`,
	}}
	f := mustFire(t, run(t, "listen-overflow", tl), Warning)
	if len(f.Evidence) == 0 || !strings.Contains(f.Evidence[0].What, "own report") ||
		!strings.Contains(f.Evidence[0].What, "ListenOverflows counter is not in the text") ||
		!strings.Contains(f.Evidence[0].Value, "101 queued of a backlog of 100") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	if !strings.Contains(f.Explanation, "--listen") || !strings.Contains(f.Explanation, "somaxconn") {
		t.Errorf("advice: %s", f.Explanation)
	}
	if len(f.Changes) != 1 || f.Changes[0].Key != "net.core.somaxconn" {
		t.Errorf("changes: %+v", f.Changes)
	}
	// Without the report the rule has nothing to read.
	if r := run(t, "listen-overflow", timeline(0)); len(r.Findings) > 0 || r.NotChecked == "" {
		t.Errorf("without the report: %+v, want not checked", r)
	}
}

func TestFix19aBacklogSettingAloneNoFinding(t *testing.T) {
	tl := timeline(0)
	tl.ProgramBacklogs = []model.ProgramBacklog{{Program: "uwsgi", Setting: "--listen", Value: 2, Source: "line 37 (command line)"}}
	if r := run(t, "listen-overflow", tl); len(r.Findings) > 0 {
		t.Errorf("a backlog setting is no overflow: %+v", r.Findings)
	}
}
