package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
)

// h40b: Orthanc's NotEnoughMemory and perl's "Out of memory!" (Znuny/OTRS) are the
// programs' own failed allocations (artifact/unreadh40b.go, sources cited there): a title
// saying the server "runs out of memory" over them is that message, not the host's memory
// running out, so no oom-kill is stated. Counter-cases: the same title over a kernel kill
// line keeps the critical oom-kill, and the author telling of the kernel's kill keeps the
// stated warning.
func TestH40bHelpdeskOwnOOMFindings(t *testing.T) {
	parse := func(text string) Diagnosis {
		tl, err := artifact.Parse(strings.NewReader(text), "t.txt", artifact.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return Run(tl, nil)
	}
	for name, text := range map[string]string{
		"orthanc": "Orthanc crashes: server running out of memory when downloading a study archive\n\n" +
			"E1130 10:22:31.532412 HTTP-12 HttpServer.cpp:1238] The server hosting Orthanc is running out of memory\n" +
			"E1130 10:22:31.532501 HTTP-12 HttpServer.cpp:1291] Exception in the HTTP handler: The server hosting Orthanc is running out of memory\n",
		"orthanc old": "Orthanc out of memory on C-MOVE\n\nE1130 10:22:31.532412 PluginsManager.cpp:153] Not enough memory\n",
		"perl":        "Znuny daemon runs out of memory every night\n\n$ perl bin/otrs.Console.pl Maint::Ticket::Dump\nOut of memory!\n",
	} {
		if fs := findings(parse(text), "oom-kill"); len(fs) != 0 {
			t.Errorf("%s: oom-kill %+v, want none (the program's own allocation)", name, fs)
		}
	}
	d := parse("Znuny daemon runs out of memory every night\n\n" +
		"[1234567.890123] Out of memory: Killed process 23456 (perl) total-vm:4728640kB, anon-rss:3582912kB, file-rss:1024kB, shmem-rss:0kB, UID:1001 pgtables:8000kB oom_score_adj:0\n")
	mustHave(t, d, "oom-kill", Critical)
	d = parse("The OOM killer killed the Znuny daemon last night.\n")
	mustHave(t, d, "oom-kill", Warning)
}
