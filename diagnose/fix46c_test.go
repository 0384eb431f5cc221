package diagnose

import (
	"strings"
	"testing"
)

// fix46c: earlyoom 0.x-1.0's kills on a terminal (corpus 3904) reach oom-kill as a
// low-memory killer's; VS Code's "Memory (System)" (corpus 3916) is no pressure.
func TestFix46cEarlyoomZeroXOOMKill(t *testing.T) {
	text := "    Killing process 26967 (chrome) with badness 337 time_running=5323.8m\n" +
		"    Out of memory! avail: 313 MiB < min: 314 MiB\n" +
		"    Killing process 8437 (chrome) with badness 332 time_running=5698.4m\n"
	f := mustFire(t, run(t, "oom-kill", parseText19b(t, text)), Warning)
	if len(f.Evidence) == 0 || !strings.Contains(f.Evidence[0].What, "earlyoom") || f.Evidence[0].Value != "killed chrome (pid 26967)" || len(f.Evidence) != 2 {
		t.Errorf("%+v", f)
	}
	for name, text := range map[string]string{
		"no earlyoom line": "Killing process 26967 (chrome)\n",
		"perl's":           "Out of memory!\nKilling process 26967 (chrome)\n",
	} {
		if res := run(t, "oom-kill", parseText19b(t, text)); len(res.Findings) > 0 && res.Findings[0].Severity >= Warning {
			t.Errorf("%s: fired %+v", name, res.Findings[0])
		}
	}
}

func TestFix46cVSCodeMemoryNoPressure(t *testing.T) {
	tl := parseText19b(t, "|Memory (System)|7.75GB (1.68GB free)|\n|Load (avg)|3, 2, 1|\n")
	if tl.Host.MemTotalKB != 8126464 {
		t.Fatalf("MemTotalKB = %d", tl.Host.MemTotalKB)
	}
	for _, r := range Rules() {
		if res := run(t, r.ID, tl); len(res.Findings) > 0 && res.Findings[0].Severity >= Warning {
			t.Errorf("%s fired on VS Code's system info: %+v", r.ID, res.Findings[0])
		}
	}
}
