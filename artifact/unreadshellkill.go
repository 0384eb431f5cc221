package artifact

import "strings"

// A child killed by SIGKILL as a shell or a container's supervisor reports it (fix20b, round
// 15's g76): bash's job-control notice for a waited child that died by a signal
// (jobs.c notify_of_job_status, non-interactive: "SCRIPT: line N: PID Killed   COMMAND", the
// signal's strsignal text "Killed" for SIGKILL) and an entrypoint's or docker compose's
// "NAME exited with code 137" (128+9). SIGKILL is what the kernel's OOM killer (a host's or a
// memory cgroup's) sends, and so does any kill -9, a runtime's stop after its grace period or
// a supervisor: the kernel's own kill line would say which and is not this line. A paste of
// only such lines held nothing headroom read (exit 3); named unread, nothing diagnosed.

const shellKilledWhy = "a shell's notice that its child died by SIGKILL (bash jobs.c: \"SCRIPT: line N: PID Killed COMMAND\"): the kernel's OOM killer or a memory cgroup's sends SIGKILL, and so does any kill -9 or a runtime's stop after its grace period; the kernel's own kill line (\"Out of memory: Killed process N\") would say which and is not in the text; headroom has no reader for this log"

const exited137Why = "a process or container exited with code 137 (128+9: killed by SIGKILL, as an entrypoint script or docker compose prints it: \"NAME exited with code 137\"): the kernel's OOM killer or a memory cgroup's sends SIGKILL, and so does any kill -9 or a runtime's stop after its grace period; the kernel's own kill line would say which and is not in the text; headroom has no reader for this log"

// shellKilledLine says why t is one of those notices. Gate: one strings.Index for each
// form's fixed words; no regexp.
func shellKilledLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false
	}
	if k := strings.Index(t, " exited with code 137"); k > 0 {
		rest := t[k+len(" exited with code 137"):]
		if (rest == "" || rest[0] == ' ' || rest[0] == '.' || rest[0] == '`') && !adviceLead(t[:k]) {
			return exited137Why, true
		}
	}
	k := strings.Index(t, ": line ")
	if k <= 0 {
		return "", false
	}
	rest := t[k+len(": line "):]
	n := len(leadingDigits(rest))
	if n == 0 || !strings.HasPrefix(rest[n:], ": ") {
		return "", false
	}
	rest = strings.TrimLeft(rest[n+2:], " ")
	n = len(leadingDigits(rest)) // the job's pid
	if n == 0 || !strings.HasPrefix(rest[n:], " ") {
		return "", false
	}
	rest = strings.TrimLeft(rest[n:], " ")
	if !strings.HasPrefix(rest, "Killed") || len(rest) > len("Killed") && rest[len("Killed")] != ' ' {
		return "", false
	}
	return shellKilledWhy, true
}
