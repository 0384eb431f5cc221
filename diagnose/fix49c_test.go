package diagnose

import (
	"strings"
	"testing"
)

// fix49c: round 44's OOM told in prose or in a vendor's log line, end to end from a minimal
// snippet of each case to the oom-kill finding (warning: no kernel report says host or
// cgroup), each with counter-cases of the same shape that must give nothing.
func TestFix49cOOMStatedFindings(t *testing.T) {
	wantWarnings(t, []warningCase{
		// corpus 4118: the container runtime's OOMKilled as the outcome of what was done.
		{"Using the helm release (v 3.4.8) to start a single reposilite instance on k8s results in a OOMKilled - increasing to 128MB got reposilite in the air but using 125MB ram, and running any commands resulted in OOMKilled again\n", "oom-kill", true},
		{"A pod that exceeds its limit will result in OOMKilled.\n", "oom-kill", false},
		{"Does running the import result in OOMKilled on your cluster?\n", "oom-kill", false},
		// corpus 4124: the killer the host is getting, a terse line before a question.
		{"we are getting oom-killer\ncurrently using 3.9% and 3.5% when nothing is going on, do they spike?\n", "oom-kill", true},
		{"are we getting oom-killer\nor is it something else?\n", "oom-kill", false},
		{"we are not getting oom-killer\nis the limit too high?\n", "oom-kill", false},
		// corpus 4143: RouterOS's own record of the previous boot's out-of-memory.
		{"2024-11-13 09:57:40 system,error,critical router was rebooted without proper shutdown, probably kernel failure\n2024-11-13 09:57:41 system,error,critical kernel failure in previous boot\n2024-11-13 09:57:41 system,error,critical out of memory condition was detected\n", "oom-kill", true},
		{"What does RouterOS mean by out of memory condition was detected in the log?\n", "oom-kill", false},
		// corpus 4106: the end told by its cause.
		{"That works as first, but quite soon brokers start to die due to an OOM situation.\n", "oom-kill", true},
		{"Brokers may die due to an OOM situation if consumers are slow.\n", "oom-kill", false},
		{"The broker died due to a bad config, not of memory.\n", "oom-kill", false},
		// corpus 4088: the machine itself out of memory.
		{"The logs on the instance indicated that the instance was out of memory. The team restarted the instance and k3s.\n", "oom-kill", true},
		{"If the instance was out of memory, restart it.\n", "oom-kill", false},
		// corpus 4099: a program's own out-of-memory error is not the kernel's.
		{"Confluence crashes with out of memory (OOM) error during flushQueue shortly after startup\n", "oom-kill", false},
		{"My server crashed with an out of memory error during the backup.\n", "oom-kill", true},
	})
}

// The stated finding cites the line that states it: RouterOS's record (4143), the terse line
// before the question (4124).
func TestFix49cOOMStatedCited(t *testing.T) {
	for _, c := range []struct{ text, src string }{
		{"Периодически роутер перезагружается:\n2024-11-13 09:57:40 system,error,critical router was rebooted without proper shutdown, probably kernel failure\n2024-11-13 09:57:41 system,error,critical kernel failure in previous boot\n2024-11-13 09:57:41 system,error,critical out of memory condition was detected\n", "line 4"},
		{"we are getting oom-killer\ncurrently using 3.9% and 3.5% when nothing is going on, do they spike?\n", "line 1"},
	} {
		d, _ := rootOf(t, c.text)
		f := findingOf(d, "oom-kill")
		if f == nil || f.Severity != Warning || len(f.Evidence) == 0 || !strings.HasPrefix(f.Evidence[0].Source, c.src+" ") {
			t.Errorf("%q: oom-kill %+v, want a warning cited at %s", c.text, f, c.src)
		}
	}
}
