package diagnose

import (
	"strings"
	"testing"
)

// fix61: sar's %commit stated in words judges overcommit-exposed when no meminfo or sar -r
// table gives Committed_AS.
func TestFix61StatedSarCommit(t *testing.T) {
	res := fired(t, "overcommit-exposed", "| 换页耗尽 | `sar -S`：8G swap 连着三天贴 98~100%；`%commit` 180~205% | 就是它 |\n")
	if len(res.Findings) != 1 || !strings.Contains(res.Findings[0].Title, "205%") {
		t.Fatalf("stated %%commit 205%% not judged: %+v", res)
	}
	res = fired(t, "overcommit-exposed", "sar -r showed %commit was 143% all day.\n\n$ sysctl vm.overcommit_memory\nvm.overcommit_memory = 0\n")
	if len(res.Findings) != 1 || res.Findings[0].Severity != Warning {
		t.Fatalf("stated %%commit 143%% with heuristic overcommit: %+v", res)
	}
	// Within RAM + swap, or strict accounting: healthy, and the figure is named.
	for _, text := range []string{
		"sar -r showed %commit was 64% all day.\n",
		"sar -r showed %commit was 130% all day.\n\n$ sysctl vm.overcommit_memory\nvm.overcommit_memory = 2\n",
	} {
		res := fired(t, "overcommit-exposed", text)
		if len(res.Findings) != 0 || !strings.Contains(res.Checked, "%commit") {
			t.Errorf("%q: %+v", text, res)
		}
	}
	// A threshold is no measurement: still not checked.
	if res := fired(t, "overcommit-exposed", "Alert when %commit exceeds 150%.\n"); res.NotChecked == "" {
		t.Errorf("a threshold judged: %+v", res)
	}
}
