package artifact

import (
	"strings"
	"testing"
)

// fix63a: output typed right after a Markdown fence, on the fence's own line, is read; the
// fence's opener or closer alone, with a language word or attributes, stays blank.
func TestFix63aOutputGluedToFence(t *testing.T) {
	for in, want := range map[string]string{
		"```              total        used        free":  "                 total        used        free",
		"```[26029.151574] prometheus invoked oom-killer": "[26029.151574] prometheus invoked oom-killer",
		"```$ free -m":                "$ free -m",
		"  ~~~Mem: 15886 178 164~~~":  "  Mem: 15886 178 164",
		"```Swap: 0 0 0```":           "Swap: 0 0 0",
		"```USER       PID %CPU %MEM": "USER       PID %CPU %MEM",
		// Counter-cases: openers and closers with an info string, and none.
		"```":                    "",
		"``` bash":               "",
		"```shell script":        "",
		"```show memory```":      "", // words alone read as a language's name
		"```text id=\"1hwhfd\"":  "",
		"```{.python}":           "",
		"   ~~~~ no-highlight  ": "",
		"> ```":                  "> ```", // quoting is stripFront's, before this
	} {
		if got := stripFence(in); got != want {
			t.Errorf("stripFence(%q) = %q, want %q", in, got, want)
		}
	}
	// The OOM killer's first line glued to the fence is the kernel's.
	text := "It is a 16 GB server.\n" +
		"```[26029.151574] prometheus invoked oom-killer: gfp_mask=0xd0, order=0, oom_score_adj=-998\n" +
		"[26029.151580] prometheus cpuset=/ mems_allowed=0\n```\n"
	found := false
	for _, e := range ParseString(text, "paste", Options{}).Events {
		found = found || e.OOMKill != nil && strings.Contains(e.OOMKill.Constraint, "NONE")
	}
	if !found {
		t.Error("the OOM killer's line glued to the fence was not read")
	}
}
