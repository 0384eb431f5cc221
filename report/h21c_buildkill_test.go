package report

import (
	"strings"
	"testing"

	"headroom/artifact"
	"headroom/diagnose"
)

// h21c: compilers', build tools' and CI runners' reports of a build process killed or lost
// (gcc's driver and collect2, clang's driver, cargo, GNU make, GitHub Actions, GitLab
// Runner, Gradle, Bazel) are read (never exit 3) and named; a SIGKILL alone leaves oom-kill
// not checked (the kernel's kill line would decide), never healthy; with the kernel's kill
// line beside it, oom-kill fires naming the compiler. V8's heap limit stays no kill.
func h21cChecks(t *testing.T, text string) (map[string]diagnose.Check, []string) {
	t.Helper()
	tl := artifact.ParseString(text, "t", artifact.Options{})
	var whys []string
	for _, u := range tl.Unparsed {
		whys = append(whys, u.Why)
	}
	m := map[string]diagnose.Check{}
	for _, c := range diagnose.Run(tl, nil).Checks {
		m[c.ID] = c
	}
	return m, whys
}

func TestH21cBuildKills(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[ 45%] Building CXX object src/CMakeFiles/core.dir/parser.cpp.o\nc++: fatal error: Killed signal terminated program cc1plus\ncompilation terminated.\nmake[2]: *** [src/CMakeFiles/core.dir/build.make:76: src/parser.cpp.o] Error 1\n", "gcc/gcc.cc execute"},
		{"g++: internal compiler error: Killed (program cc1plus)\nPlease submit a full bug report,\n", "before gcc 8"},
		{"```\nclang: error: unable to execute command: Killed\nclang: error: clang frontend command failed due to signal (use -v to see invocation)\n```\n", "err_drv_command_failure"},
		{"collect2: fatal error: ld terminated with signal 9 [Killed]\ncompilation terminated.\n", "collect_wait"},
		{"error: could not compile `mycrate` (lib)\n\nCaused by:\n  process didn't exit successfully: `rustc --crate-name mycrate src/lib.rs` (signal: 9, SIGKILL: kill)\n", "cargo-util"},
		{"> make: *** [Makefile:12: big.o] Error 137\n", "Error 137"},
		{"make[2]: *** [src/CMakeFiles/core.dir/build.make:76: src/parser.cpp.o] Killed\n", "strsignal(SIGKILL)"},
		{"2026-11-28T10:31:02.1234567Z ##[error]Process completed with exit code 137.\n", "GitHub Actions: the step's shell exited 137"},
		{"$ npm run build\nKilled\nERROR: Job failed: command terminated with exit code 137\n", "Kubernetes executor"},
		{"ERROR: Job failed: exit code 137\n", "GitLab Runner"},
		{"* What went wrong:\nGradle build daemon disappeared unexpectedly (it may have been killed or may have crashed)\n", "DaemonDisappearedException"},
		{"Server terminated abruptly (error code: 14, error message: 'Socket closed', log file: '/home/u/.cache/bazel/_bazel_u/abc/server/jvm.out')\n", "blaze.cc"},
		{"##[error]The runner has received a shutdown signal. This can happen when the runner service is stopped, or a manually started runner is canceled.\n", "Runner.Listener"},
	} {
		m, whys := h21cChecks(t, c.text)
		found := false
		for _, w := range whys {
			found = found || strings.Contains(w, c.want)
		}
		if !found {
			t.Errorf("%q: unread %q, want a reason with %q", c.text, whys, c.want)
		}
		if st := m["oom-kill"].Status; st != diagnose.StatusNotChecked {
			t.Errorf("%q: oom-kill %v %q, want not checked (no kernel line)", c.text, st, m["oom-kill"].Why)
		}
	}
	// With the kernel's kill line the kernel decides: oom-kill fires and names cc1plus.
	text := "c++: fatal error: Killed signal terminated program cc1plus\n[56190.928511] Out of memory: Killed process 2558811 (cc1plus) total-vm:848960kB, anon-rss:765324kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:1664kB oom_score_adj:200\n"
	m, _ := h21cChecks(t, text)
	if c := m["oom-kill"]; c.Status != diagnose.StatusFinding {
		t.Errorf("with the kernel's line: oom-kill %v %q, want a finding", c.Status, c.Why)
	}
	// V8's heap limit: the process's own limit, no kill.
	m, _ = h21cChecks(t, "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n 1: 0xb09c10 node::Abort() [node]\n")
	if c := m["oom-kill"]; c.Status == diagnose.StatusFinding {
		t.Errorf("V8 heap limit: oom-kill fired %q", c.Why)
	}
}

func TestH21cCounterCases(t *testing.T) {
	for _, text := range []string{
		"main.cpp:3:5: error: 'foo' was not declared in this scope\nmake: *** [Makefile:12: main.o] Error 1\n", // a compiler's ordinary error
		"##[error]The operation was canceled.\n",                                                      // a cancelled job
		"If you see \"JavaScript heap out of memory\", set NODE_OPTIONS=--max-old-space-size=4096.\n", // advice
		"If you see c++: fatal error: Killed signal terminated program cc1plus, lower -j.\n",          // advice quoting the line
		"If the job shows Process completed with exit code 137 add swap.\n",
		"make: *** [Makefile:12: big.o] Error 137 was what I got yesterday\n", // make's words in a sentence
		"The process was Killed by the admin.\n",
	} {
		tl := artifact.ParseString(text, "t", artifact.Options{})
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "SIGKILL") || strings.Contains(u.Why, "build daemon") {
				t.Errorf("%q: named %q", text, u.Why)
			}
		}
		if len(tl.Events) != 0 || len(tl.RuntimeOOMs) != 0 {
			t.Errorf("%q: read as an event or OOM kill", text)
		}
	}
}
