package artifact

import "strings"

// Build tools' and CI runners' own reports that a compiler, a linker or a build daemon died
// (pre-round 21, h21c; each format string from the program's source). A SIGKILL of cc1plus,
// rustc or ld in a build is the kernel's OOM killer's usual signature (a host's or a build
// container's memory cgroup), but any kill -9, a runner's stop or a timeout sends it too: the
// kernel's own kill line ("Out of memory: Killed process N (cc1plus)", "Memory cgroup out of
// memory") would say which and is not this line. Named unread, nothing diagnosed (oom-kill
// not checked: the kernel log would decide). Before h21c a paste of only such lines held
// nothing headroom read (exit 3). V8's "JavaScript heap out of memory" is read elsewhere
// (unreadwebapp.go): the process's own heap limit, no kill.
//
// Gated: shellKilledLine runs it on lines no reader took; each form has a rare fixed part
// checked with strings.Index after one IndexAny for the forms' rare bytes. No regexp.

// buildKillForm: a fixed part of the program's message and what it proves.
type buildKillForm struct {
	needle string
	why    string
}

const buildKillTail = "; the kernel's OOM killer (the host's or the build container's memory cgroup) sends SIGKILL, the usual cause for a compiler or linker in a parallel build, and so does any kill -9, a runner's stop or a timeout; the kernel's own kill line (\"Out of memory: Killed process N\", \"Memory cgroup out of memory\") would say which and is not in the text; headroom has no reader for this log"

// buildKillForms: the compilers', linkers', build tools' and runners' forms.
var buildKillForms = []buildKillForm{
	// gcc/gcc.cc execute(): for SIGINT, SIGTERM, SIGQUIT and SIGKILL fatal_error("%s signal
	// terminated program %s", strsignal(sig), prog): "c++: fatal error: Killed signal
	// terminated program cc1plus" ("the user or OOM killer nuked it", its comment).
	{"Killed signal terminated program ", "gcc's driver: the compiler proper it ran (cc1, cc1plus, lto1, as) was killed by SIGKILL (gcc/gcc.cc execute: \"fatal error: Killed signal terminated program cc1plus\")" + buildKillTail},
	// Before gcc 8 the driver made every signal an internal error: internal_error("%s (program
	// %s)", strsignal(sig), prog): "g++: internal compiler error: Killed (program cc1plus)".
	{"internal compiler error: Killed (program ", "gcc's driver (before gcc 8): the compiler proper was killed by SIGKILL (gcc.c execute: \"internal compiler error: Killed (program cc1plus)\"; not a compiler bug despite the words)" + buildKillTail},
	// gcc/collect-utils.cc collect_wait: fatal_error("%s terminated with signal %d [%s]%s",
	// prog, sig, strsignal(sig), ...): "collect2: fatal error: ld terminated with signal 9 [Killed]".
	{" terminated with signal 9 [Killed]", "gcc's collect2 or lto-wrapper: the linker (ld, or an LTO job) was killed by SIGKILL (gcc/collect-utils.cc collect_wait: \"ld terminated with signal 9 [Killed]\")" + buildKillTail},
	// clang Driver (DiagnosticDriverKinds.td err_drv_command_failure "unable to execute
	// command: %0", the message llvm::sys::ExecuteAndWait builds from strsignal: "Killed").
	{"unable to execute command: Killed", "clang's driver: the frontend or the linker it ran was killed by SIGKILL (err_drv_command_failure: \"clang: error: unable to execute command: Killed\", llvm's ExecuteAndWait naming the signal)" + buildKillTail},
	// cargo-util ProcessError: "process didn't exit successfully: `CMD` (signal: 9, SIGKILL: kill)".
	{"(signal: 9, SIGKILL: kill)", "cargo: rustc (or a build script, or the linker it ran) was killed by SIGKILL (cargo-util ProcessError: \"process didn't exit successfully: `rustc ...` (signal: 9, SIGKILL: kill)\")" + buildKillTail},
	// GNU make job.c child_error: "%s[%s: %s] Error %d" (make 4.x adds file:line), 137 = 128+9
	// from the shell that ran the recipe; the signal form "%s[%s] %s" with strsignal: "Killed".
	{"] Error 137", "make: a recipe's command exited with 137 (job.c child_error: \"make: *** [target] Error 137\", 128+9: the shell's child was killed by SIGKILL)" + buildKillTail},
	{"] Killed", "make: a recipe's command was killed by SIGKILL (job.c child_error: \"make: *** [target] Killed\", strsignal(SIGKILL))" + buildKillTail},
	// GitHub Actions runner (Runner.Worker ProcessInvoker / ScriptHandler): "Process completed
	// with exit code 137." for a step whose shell exited 137.
	{"Process completed with exit code 137", "GitHub Actions: the step's shell exited 137 (the runner's \"Process completed with exit code 137.\", 128+9: a process of the step was killed by SIGKILL)" + buildKillTail},
	// gitlab-runner: "ERROR: Job failed: exit code 137" (shell and docker executors),
	// "ERROR: Job failed: command terminated with exit code 137" (kubernetes executor).
	{"Job failed: exit code 137", "GitLab Runner: the job's script exited 137 (\"ERROR: Job failed: exit code 137\", 128+9: a process of the job was killed by SIGKILL); with the Docker or Kubernetes executor \"reason: 'OOMKilled'\" would say the container's memory cgroup did it and is not in the text" + buildKillTail},
	{"Job failed: command terminated with exit code 137", "GitLab Runner's Kubernetes executor: the build container's command exited 137 (\"ERROR: Job failed: command terminated with exit code 137\", 128+9: killed by SIGKILL); the pod's \"Reason: OOMKilled\" would say its memory cgroup did it and is not in the text" + buildKillTail},
	// Open MPI's launcher (orte/mca/errmgr help-errmgr-base.txt "normal-termination-but" /
	// PRRTE's: "%s noticed that process rank %s with PID %s on node %s exited on signal %d
	// (%s)."): a rank killed by SIGKILL (fix50b, corpus 4199).
	{"exited on signal 9 (Killed)", "Open MPI's launcher: a rank of the job was killed by SIGKILL (errmgr help-errmgr-base.txt: \"mpirun noticed that process rank N with PID P on node H exited on signal 9 (Killed).\"); the kernel's OOM killer on that node (the usual sender for a rank larger than the node's memory) sends SIGKILL, and so does any kill -9 or a batch system's limit; the node's own kill line (\"Out of memory: Killed process P\") would say which and is not in the text; headroom has no reader for this log"},
	// Gradle launcher DaemonDisappearedException: "Gradle build daemon disappeared
	// unexpectedly (it may have been killed or may have crashed)".
	{"daemon has disappeared unexpectedly", gradleGoneWhy},
	{"daemon disappeared unexpectedly", gradleGoneWhy},
	// Bazel client src/main/cpp/blaze.cc: "Server terminated abruptly (error code: %d, error
	// message: '%s', log file: '%s')": the gRPC stream to the server JVM broke (14 UNAVAILABLE,
	// 'Socket closed': the server process died).
	{"Server terminated abruptly (error code: ", "Bazel's client lost its server (src/main/cpp/blaze.cc: \"Server terminated abruptly (error code: 14, error message: 'Socket closed', log file: ...)\"): the server's JVM died mid-build, by SIGKILL (the kernel's OOM killer is the usual sender when many compile actions run at once, also any kill -9) or a crash its jvm.out would show; the kernel's own kill line would say which and is not in the text; headroom has no reader for this log"},
	// GitHub Actions runner (Runner.Listener): "The runner has received a shutdown signal. This
	// can happen when the runner service is stopped, or a manually started runner is canceled."
	{"The runner has received a shutdown signal", "GitHub Actions: the runner's own process was told to stop (Runner.Listener: \"The runner has received a shutdown signal.\": SIGTERM or SIGINT to the runner service, a VM's shutdown or preemption, a cancelled manual runner); no kill of a build step and no statement about memory (a runner VM out of memory may end this way, but the line does not say so); headroom has no reader for this log"},
	// clang Driver err_drv_command_signalled: "%0 command failed due to signal (use -v to see
	// invocation)": any signal (a crash's SIGSEGV or SIGABRT, or SIGKILL).
	{" command failed due to signal", "clang's driver: the frontend or the linker it ran died by a signal (err_drv_command_signalled: \"clang frontend command failed due to signal\"): a crash (SIGSEGV, SIGABRT, with a stack dump and a reproducer) or a SIGKILL (then \"unable to execute command: Killed\" beside it); the line alone does not say which, and the kernel's own kill line would say whether the OOM killer sent it; headroom has no reader for this log"},
}

// buildKillGate: bytes one of which every form holds.
const buildKillGate = "KEPJd"

// buildKilledLine says why t is a build tool's or a CI runner's report of a build process
// killed or lost. Not a sentence that only tells of the message ("if you see ...").
func buildKilledLine(t string) (string, bool) {
	if bareKilledLine(t) {
		return shellBareKilledWhy, true // "Killed", "Getötet", "Processus arrêté" (unreadshellkill.go)
	}
	if len(t) > maxErrnoLineBytes || strings.IndexAny(t, buildKillGate) < 0 {
		return "", false
	}
	for _, f := range buildKillForms {
		k := strings.Index(t, f.needle)
		if k < 0 {
			continue
		}
		if adviceLead(t[:k]) {
			return "", false
		}
		if f.needle[0] == ']' && !makeStatusLine(t[:k], t[k+len(f.needle):]) {
			continue
		}
		return f.why, true
	}
	return "", false
}

// makeStatusLine: make's "*** [target] ..." status line, the status at the line's end (or
// before " (ignored)" / " (core dumped)").
func makeStatusLine(head, rest string) bool {
	if !strings.Contains(head, "*** [") {
		return false
	}
	rest = strings.TrimSpace(rest)
	return rest == "" || rest == "(ignored)" || rest == "(core dumped)"
}

const shellBareKilledWhy = "a shell's notice that the command it ran in the foreground died by SIGKILL (a line of only \"Killed\", strsignal(SIGKILL), as sh and bash print it in a build or CI job's log)" + buildKillTail

// gradleGoneWhy: the Gradle client's report that its daemon went away (DaemonDisappearedException).
const gradleGoneWhy = "Gradle: the client lost its build daemon (DaemonDisappearedException: \"Gradle build daemon disappeared unexpectedly (it may have been killed or may have crashed)\"): the daemon's JVM died without a word, by SIGKILL (the kernel's OOM killer is the usual sender, also any kill -9) or a JVM crash (then an hs_err_pid file); an OutOfMemoryError inside the daemon's -Xmx would be the JVM's own limit; the kernel's own kill line would say which and is not in the text; headroom has no reader for this log"
