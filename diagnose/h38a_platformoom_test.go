package diagnose

import (
	"testing"
)

// h38a: a platform's notice of a kill at a workload's memory limit (artifact/platformoom.go)
// fires oom-kill as a memory cgroup's kill (the workload's limit, not the host's memory),
// Fly.io's init notice as the machine's own kernel's kill; R14 (over quota, no kill) and the
// notice asked about or quoted fire nothing.
func TestH38aPlatformMemoryKillFinding(t *testing.T) {
	for name, c := range map[string]struct {
		text, title string
		sev         Severity
	}{
		"heroku r15": {"2026-11-30T14:03:31.000000+00:00 heroku[web.1]: Process running mem=2565M(501.0%)\n2026-11-30T14:03:31.000000+00:00 heroku[web.1]: Error R15 (Memory quota vastly exceeded)\n", "a memory cgroup hit its limit", Warning},
		"cloud run":  {"2026-11-30 14:05:12.345 UTC  ERROR  Memory limit of 512 MiB exceeded with 530 MiB used. Consider increasing the memory limit, see https://cloud.google.com/run/docs/configuring/memory-limits\n", "a memory cgroup hit its limit", Warning},
		"app engine": {"Exceeded soft memory limit of 256 MB with 270 MB after servicing 1523 requests total. Consider setting a larger instance class in app.yaml.\n", "a memory cgroup hit its limit", Warning},
		"gcf":        {"2026-11-30 14:07:00.123 myFunction 4x2k9 Error: memory limit exceeded. Function invocation was interrupted.\n", "a memory cgroup hit its limit", Warning},
		"fly":        {"2024-10-07T11:37:18Z app[2865134a394268] cdg [info] INFO Process appears to have been OOM killed!\n", "the host ran out of memory", Critical},
	} {
		f := mustFire(t, run(t, "oom-kill", pasteTimeline(t, c.text)), c.sev)
		if len(f.Title) < len(c.title) || f.Title[:len(c.title)] != c.title {
			t.Errorf("%s: title %q", name, f.Title)
		}
	}
	for name, text := range map[string]string{
		"r14":      "2026-11-30T14:02:11.000000+00:00 heroku[web.1]: Process running mem=1028M(200.8%)\n2026-11-30T14:02:11.000000+00:00 heroku[web.1]: Error R14 (Memory quota exceeded)\n",
		"question": "What does Error R15 (Memory quota vastly exceeded) mean?\n",
		"advice":   "Set the function's memory to 1 GiB so that you do not get Error: memory limit exceeded.\n",
	} {
		if res := run(t, "oom-kill", pasteTimeline(t, text)); len(res.Findings) > 0 {
			t.Errorf("%s: fired: %+v", name, res.Findings)
		}
	}
}
