package main

import (
	"bytes"
	"strings"
	"testing"
)

// Issue 30 item 9: `free -m | headroom doctor -` printed "Verdict: no problem found" and
// exited 0 with 0 of 44 rules checked. The table is read (MiB without the -m that says so:
// no rule gets a figure), so it is not "nothing readable" (exit 3), but nothing was judged
// either: the verdict says so, and the exit stays 0 (no finding).
func TestDoctorNothingCheckedIsNotHealthy(t *testing.T) {
	free := "               total        used        free      shared  buff/cache   available\n" +
		"Mem:           24105        1533       17904           8        4981       22572\n" +
		"Swap:              0           0           0\n"
	var out, errb bytes.Buffer
	code := run([]string{"doctor", "-"}, IO{Stdin: strings.NewReader(free), Stdout: &out, Stderr: &errb})
	if code != exitOK {
		t.Errorf("exit %d, want %d (read, no finding)", code, exitOK)
	}
	if strings.Contains(out.String(), "no problem found") || !strings.Contains(out.String(), "Verdict: nothing could be checked") {
		t.Errorf("report:\n%s%s", out.String(), errb.String())
	}
	// With the command line that gives the unit, the rules that read memory judge it.
	out.Reset()
	code = run([]string{"doctor", "-"}, IO{Stdin: strings.NewReader("$ free -m\n" + free), Stdout: &out, Stderr: &errb})
	if code != exitOK || strings.Contains(out.String(), "nothing could be checked") {
		t.Errorf("free -m with its command line: exit %d\n%s", code, out.String())
	}
}
