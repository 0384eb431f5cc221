package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
)

// fix50b (corpus 4181, 4199): what the oom-kill rule decides from the classes read in
// artifact/memcgoomstats.go and artifact/statedoomentries.go (snippets from the cases' forms).
func fix50bFinding(t *testing.T, text, id string) (Finding, bool) {
	t.Helper()
	tl, err := artifact.Parse(strings.NewReader(text), "t.txt", artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range Run(tl, nil).Findings {
		if f.ID == id {
			return f, true
		}
	}
	return Finding{}, false
}

func TestFix50bMemcgStatsLineWarnsOOMKillInTheCgroup(t *testing.T) {
	const text = "[529207.647707] Memory cgroup stats for /system.slice/owntone.service:\n" +
		"[529207.647720] anon 255795200\n                file 12288\n                kernel 9297920\n" +
		"                sock 8192\n                inactive_file 8192\n"
	f, ok := fix50bFinding(t, text, "oom-kill")
	if !ok || f.Severity != Warning || !strings.Contains(f.Title, "memory cgroup") {
		t.Fatalf("oom-kill %+v (found %v), want a memory-cgroup warning", f, ok)
	}
	var ev strings.Builder
	for _, e := range f.Evidence {
		ev.WriteString(e.What + " " + e.Value + " ")
	}
	if !strings.Contains(f.Title+ev.String(), "/system.slice/owntone.service") {
		t.Errorf("the cgroup is not named: %+v", f)
	}
	// A sentence naming the line is no report.
	if _, ok := fix50bFinding(t, "Memory cgroup stats for /system.slice/owntone.service show anon at 240 MB\n", "oom-kill"); ok {
		t.Error("a sentence about the stats read as an OOM kill")
	}
}

func TestFix50bLauncherKillAndNeedWarnsStatedOOM(t *testing.T) {
	const text = "mpirun noticed that process rank 0 with PID 21183 on node host01 exited on signal 9 (Killed).\n\n" +
		"As per him, every rank requires atleast 98GB  per rank. Whereas i have 64GB per node.\n"
	if f, ok := fix50bFinding(t, text, "oom-kill"); !ok || f.Severity != Warning {
		t.Fatalf("oom-kill %+v (found %v), want a warning", f, ok)
	}
	if _, ok := fix50bFinding(t, "mpirun noticed that process rank 0 with PID 21183 on node host01 exited on signal 9 (Killed).\n", "oom-kill"); ok {
		t.Error("the SIGKILL line alone reached oom-kill")
	}
}
