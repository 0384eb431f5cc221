package artifact

import "strings"

// fix49b (corpus 4072, tutor's quickstart on a 2 GB droplet): two more reports of a child
// killed by SIGKILL that a paste of nothing else left at exit 3.
//
//   - The shell's "Killed" glued to the end of the job's unfinished progress line. A program
//     that prints a step's name and flushes before the step ends, with no newline (Django's
//     migrate: "  Applying %s..." written with ending="", then " OK" when the migration is
//     done, django/core/management/commands/migrate.py migration_progress_callback), leaves
//     the cursor after the dots; when the step is killed the shell that waited for it (sh -c,
//     bash; jobs.c: strsignal(SIGKILL), "Killed") prints its notice there:
//     "Applying consent.0001_initial...Killed". Read only when the line is such a progress
//     line: a verb in -ing first ("Applying", "Building", "Compiling", optionally after a
//     "[3/7]" counter), then the dots, then the word and nothing else; a sentence ("I waited
//     ... Killed it myself", "then... Killed") is not one.
//   - A command runner's error for a child that exited 137: "Command failed with status 137:
//     CMD" (tutor/utils.py execute: `if result > 0: raise TutorError(f"Command failed with
//     status {result}: ...")`, printed by its CLI as "Error: ..."; Python's Popen.wait gives
//     -9 for the runner's own child killed by a signal, so 137 is that child's exit status:
//     docker-compose exec passing on the container shell's 128+9).
//
// Neither says who sent the SIGKILL (the kernel's OOM killer, a memory cgroup's, any kill
// -9): named unread with what they prove, no finding.

const killedAfterProgressDotsWhy = "a shell's notice that the foreground job was killed by SIGKILL (\"Killed\", strsignal(SIGKILL)) printed after the job's unfinished progress line (a step's name flushed before the step ends, such as Django's migrate \"Applying app.0001_initial...\", so the shell's word lands after the dots): the kernel's OOM killer or a memory cgroup's sends SIGKILL, and so does any kill -9; the kernel's own kill line (\"Out of memory: Killed process N\") would say which and is not in the text; headroom has no reader for this log"

const commandFailed137Why = "a command runner's error that the command it ran exited with status 137 (\"Command failed with status 137: CMD\", tutor/utils.py execute and tools alike; 128+9: the command's process, or the shell or container it ran, was killed by SIGKILL): the kernel's OOM killer or a memory cgroup's sends SIGKILL, and so does any kill -9 or a runtime's stop; the kernel's own kill line or the container's OOMKilled state would say which and is not in the text; headroom has no reader for this log"

// killedAfterProgressDots: t is a progress line ("Applying X...", "[2/5] Building Y ...")
// with the shell's "Killed" right after its dots.
func killedAfterProgressDots(t string) bool {
	s := strings.TrimSpace(t)
	if len(s) > maxErrnoLineBytes {
		return false
	}
	head, ok := strings.CutSuffix(s, "Killed")
	if !ok {
		return false
	}
	head = strings.TrimSuffix(head, " ")
	dots := false
	for _, e := range [...]string{"...", "…"} {
		if h, ok := strings.CutSuffix(head, e); ok {
			head, dots = h, true
			break
		}
	}
	if !dots {
		return false
	}
	head = strings.TrimRight(head, ".")  // "Applying x...." (more dots) is the same line
	head = strings.TrimSuffix(head, " ") // pip's "Building wheel for x (setup.py) ... "
	if head == "" {
		return false
	}
	if strings.HasPrefix(head, "[") {
		// a step counter, "[3/7] Building ..."
		e := strings.IndexByte(head, ']')
		if e < 2 || e > 12 {
			return false
		}
		head = strings.TrimLeft(head[e+1:], " ")
	}
	verb, obj, ok := strings.Cut(head, " ")
	if !ok || obj == "" || len(verb) < 5 || !strings.HasSuffix(verb, "ing") || !isUpper(verb[0]) {
		return false
	}
	for i := 1; i < len(verb); i++ {
		if !isLower(verb[i]) {
			return false
		}
	}
	return !strings.ContainsAny(obj, "?!")
}

// commandFailed137: t is a runner's "Command failed with status 137" error (the command
// after a colon, or nothing after it); not advice ("if the command failed with status 137").
func commandFailed137(t string) bool {
	if len(t) > maxErrnoLineBytes || !strings.Contains(t, "137") {
		return false
	}
	l := strings.ToLower(t)
	const w = "command failed with status 137"
	k := strings.Index(l, w)
	if k < 0 {
		return false
	}
	if rest := l[k+len(w):]; rest != "" && rest[0] != ':' && rest[0] != ' ' && rest[0] != '.' {
		return false // 1370
	}
	return !adviceLead(t[:k])
}
