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

const exited137Why = "a process or container exited with code 137 (128+9: killed by SIGKILL, as an entrypoint script or docker compose prints it, \"NAME exited with code 137\", or a job runner, \"Script exited with code: 137\"): the kernel's OOM killer or a memory cgroup's sends SIGKILL, and so does any kill -9 or a runtime's stop after its grace period; the kernel's own kill line would say which and is not in the text; headroom has no reader for this log"

// exitedWithCode137 finds " exited with code 137" and the form a job runner prints with a
// colon, " exited with code: 137" (fix40c, corpus 3408: Cronicle's "Script exited with
// code: 137"; a Node child's close handler, "exited with code: ${code}", and a Java or .NET
// runner's "Script exited with code: " + exitCode print the same): k is where it starts, n
// its length; k is -1 when t holds neither.
func exitedWithCode137(t string) (k, n int) {
	for _, w := range [...]string{" exited with code 137", " exited with code: 137"} {
		if k = strings.Index(t, w); k >= 0 {
			return k, len(w)
		}
	}
	return -1, 0
}

// A poster's own process or container said, in a sentence, to end "with exit code 137"
// (fix46c, corpus 3853: "seems to crash after 10 minutes with error codes 137 when running via
// docker"): the same status as the runtime's "exited with code 137", told rather than pasted.
// Docker's container State.ExitCode, a runner's exit status and a shell's $? print 137 for a
// child killed by SIGKILL (128+9). Not read: advice or a condition ("if it exits with code
// 137, raise the limit"), what the code means in general (codeMeaning), and a negation ("no
// longer crashes with exit code 137").
const statedExit137Why = "a process or container said to end with exit code 137 (128+9: killed by SIGKILL; Docker's State.ExitCode, a runner's exit status or a shell's $? for a child killed by a signal), told in a sentence: the kernel's OOM killer or a memory cgroup's sends SIGKILL, and so does any kill -9, an orchestrator's health-check or stop timeout; no OOMKilled flag and no kernel kill line is in the text to say which; headroom has no reader for this"

var statedExit137Words = [...]string{" with exit code 137", " with exit codes 137", " with error code 137", " with error codes 137",
	" with exit status 137", " with return code 137", " with status code 137", " with code 137"}

// statedExit137 reports whether sentence-like t tells that a process ended with code 137.
func statedExit137(t string) bool {
	if !strings.Contains(t, "137") {
		return false
	}
	if _, ok := buildKilledLine(t); ok {
		return false // a runner's own exit notice ("Process completed with exit code 137.") has its reason
	}
	l := strings.ToLower(t)
	for _, w := range statedExit137Words {
		k := strings.Index(l, w)
		if k < 0 {
			continue
		}
		if rest := l[k+len(w):]; rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			continue // 1370
		}
		head := l[:k]
		if strings.HasSuffix(head, " exited") || head == "exited" {
			return false // fix40c's "NAME exited with code 137" (exitedWithCode137)
		}
		if adviceLead(t[:k]) || codeMeaning(t) || strings.Contains(head, "never ") || strings.Contains(head, "no longer ") ||
			strings.Contains(head, "n't ") || strings.Contains(head, " not ") || strings.Contains(head, "without ") {
			return false
		}
		return true
	}
	return false
}

// shellKilledLine says why t is one of those notices. Gate: one strings.Index for each
// form's fixed words; no regexp.
func shellKilledLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false
	}
	if k, n := exitedWithCode137(t); k > 0 {
		rest := t[k+n:]
		if (rest == "" || rest[0] == ' ' || rest[0] == '.' || rest[0] == '`' || rest[0] == ':' || rest[0] == ',') && !adviceLead(t[:k]) {
			return exited137Why, true
		}
	}
	if statedExit137(t) {
		return statedExit137Why, true
	}
	if why, ok := processEndLine(t); ok {
		return why, true
	}
	if killedOverProgress(t) {
		return killedOverProgressWhy, true
	}
	if killedAfterProgressDots(t) {
		return killedAfterProgressDotsWhy, true // "Applying x...Killed" (unreadkilledglued.go)
	}
	if commandFailed137(t) {
		return commandFailed137Why, true // "Command failed with status 137: CMD" (unreadkilledglued.go)
	}
	k, lw := shellLineWord(t)
	if k <= 0 {
		return "", false
	}
	rest := t[k+len(lw):]
	n := len(leadingDigits(rest))
	if n == 0 {
		return "", false
	}
	rest = rest[n:]
	if r, ok := strings.CutPrefix(rest, ": "); ok {
		rest = r
	} else if r, ok := strings.CutPrefix(rest, " : "); ok {
		rest = r // fr.po "%s : ligne %d : "
	} else {
		return "", false
	}
	rest = strings.TrimLeft(rest, " ")
	n = len(leadingDigits(rest)) // the job's pid
	if n == 0 || !strings.HasPrefix(rest[n:], " ") {
		return "", false
	}
	rest = strings.TrimLeft(rest[n:], " ")
	if w := killedWordAt(rest); w == "" || len(rest) > len(w) && rest[len(w)] != ' ' {
		return "", false
	}
	return shellKilledWhy, true
}

// Three more reports of a child's end (fix25b, round 20's g96/g97, corpus 2209, 2229, 2205):
//   - interactive bash's job status (jobs.c pretty_print_job: "[N]+  STATUS  COMMAND"), the
//     status "Killed" (strsignal of SIGKILL) or "Exit 137" (the job's last process exited
//     137, a script whose child was killed by SIGKILL);
//   - Go's os/exec error for a child killed by a signal (os.ProcessState.String: "signal: " +
//     the signal's name, "signal: killed" for SIGKILL), as a supervisor logs it ("Epoch 0
//     exited with error: signal: killed");
//   - strace's notice of the traced process's end (strace.c: "+++ killed by SIGKILL +++", or
//     "+++ exited with N +++": the process called exit itself; no signal, so no kill by the
//     OOM killer).
// None says why the SIGKILL came; the kernel's own kill line would. Named unread, nothing
// diagnosed. Counter-cases: "Done", "Exit 1", "Stopped" jobs, Go's "exit status N", a
// sentence or question that quotes the words.

const jobKilledWhy = "a shell's job status for a job killed by SIGKILL (bash jobs.c: \"[N]+  Killed  COMMAND\", or \"Exit 137\", 128+9, when the job's script exited after its child was killed): the kernel's OOM killer or a memory cgroup's sends SIGKILL, and so does any kill -9 or a runtime's stop; the kernel's own kill line (\"Out of memory: Killed process N\") would say which and is not in the text; headroom has no reader for this log"

const goSignalKilledWhy = "a Go supervisor's report that its child was killed by SIGKILL (os/exec: \"signal: killed\"): the kernel's OOM killer or a container's memory cgroup sends SIGKILL, and so does any kill -9 or a runtime's stop; the kernel's own kill line (\"Out of memory: Killed process N\", \"Memory cgroup out of memory\") or the container's OOMKilled state would say which and is not in the text; a supervisor's guess that it was out of memory proves nothing; headroom has no reader for this log"

const straceKilledWhy = "strace's notice that the traced process was killed by SIGKILL (\"+++ killed by SIGKILL +++\"): the kernel's OOM killer sends SIGKILL, and so does any kill -9; the kernel's own kill line would say which and is not in the text; headroom has no reader for this log"

const straceExitedWhy = "strace's notice that the traced process called exit itself (\"+++ exited with N +++\"): it ended with that status and no signal killed it, so not the kernel's OOM killer (which sends SIGKILL: \"+++ killed by SIGKILL +++\"); headroom has no reader for this log"

// processEndLine says why t is one of those reports. Gate: a fixed byte or word each.
func processEndLine(t string) (string, bool) {
	if why, ok := buildKilledLine(t); ok {
		return why, true // a compiler's, build tool's or CI runner's report (unreadbuildkill.go)
	}
	if why, ok := bashJobKilled(t); ok {
		return why, true
	}
	if why, ok := ros2runKilled(t); ok {
		return why, true // ROS 2's launcher's "[ros2run]: Killed" (fix51aown.go)
	}
	if execExit137Line(t) {
		return execExit137Why, true // kubectl/oc exec's status of the command it ran (unreadexecexit.go)
	}
	if k := strings.Index(t, ": signal: killed"); k > 0 && (hasDigit(t[:k]) || goErrorChainQuoted(t, k)) && !adviceLead(t[:k]) {
		rest := strings.TrimRight(t[k+len(": signal: killed"):], " ")
		if rest == "" || rest == "." || rest[0] == ' ' || rest[0] == ',' || rest[0] == '"' {
			return goSignalKilledWhy, true
		}
	}
	if s := strings.TrimSpace(t); strings.HasPrefix(s, "+++ ") && strings.HasSuffix(s, " +++") {
		mid := s[len("+++ ") : len(s)-len(" +++")]
		if strings.HasPrefix(mid, "killed by SIGKILL") {
			return straceKilledWhy, true
		}
		if n, ok := strings.CutPrefix(mid, "exited with "); ok && n != "" && len(leadingDigits(n)) == len(n) {
			return straceExitedWhy, true
		}
	}
	return "", false
}

// bashJobKilled: "[1]+  Killed   cmd", "[2]-  Exit 137   sh run.sh" (the job number in
// brackets, the current/previous mark, the status, then the command or nothing).
func bashJobKilled(t string) (string, bool) {
	s := strings.TrimLeft(t, " ")
	if len(s) < 4 || s[0] != '[' {
		return "", false
	}
	n := len(leadingDigits(s[1:]))
	if n == 0 || len(s) < n+3 || s[n+1] != ']' {
		return "", false
	}
	s = s[n+2:]
	if s[0] == '+' || s[0] == '-' {
		s = s[1:]
	}
	if s == "" || s[0] != ' ' {
		return "", false
	}
	s = strings.TrimLeft(s, " ")
	st := killedWordAt(s)
	if st == "" {
		st = exit137At(s)
	}
	if rest, ok := strings.CutPrefix(s, st); ok && st != "" && (rest == "" || strings.HasPrefix(rest, "  ")) {
		return jobKilledWhy, true
	}
	return "", false
}

// A shell's notices under a translated locale (h25b). bash's "%s: line %d: " (jobs.c, its
// po/*.po: de "%s: Zeile %d: ", fr "%s : ligne %d : ", es "%s: línea %d: ", pt_BR "%s, linha
// %d: ", it "%s: riga %d: ", pl "%s: linia %d: ", nl "%s: regel %d: ") and the signal's
// text: glibc's strsignal(SIGKILL) (po/*.po: de "Getötet", fr "Processus arrêté", es
// "Terminado (killed)", pt_BR "Morto", it "Ucciso", pl "Unicestwiony", nl "Geëlimineerd") or
// bash's own siglist.c translation (de "Abgebrochen (Killed)", fr "Tué", es "Matado",
// pt_BR "Morto (Killed)"). Not glibc's "Abgebrochen" (SIGABRT) nor "Terminado" (SIGTERM)
// alone. The job status "Exit %d" likewise (fr "Termine", es "Salida", it "Uscita", pl "Kod
// wyjścia", pt_BR "Fim da execução com status").

// shellLineWords: bash's "line" in each translation, with what stands before it.
var shellLineWords = []string{": line ", ": Zeile ", " : ligne ", ": ligne ", ": línea ", ", linha ", ": linha ", ": riga ", ": linia ", ": regel "}

// killedWords: strsignal(SIGKILL) in English and the translations; a longer word before
// its prefix ("Morto (Killed)" before "Morto").
var killedWords = []string{"Killed", "Getötet", "Abgebrochen (Killed)", "Processus arrêté", "Tué", "Terminado (killed)", "Matado", "Morto (Killed)", "Morto", "Ucciso", "Unicestwiony", "Geëlimineerd"}

// shellLineWord: where bash's "line" word stands in t, and which.
func shellLineWord(t string) (int, string) {
	for _, w := range shellLineWords {
		if k := strings.Index(t, w); k > 0 {
			return k, w
		}
	}
	return -1, ""
}

// killedWordAt: the killedWords entry s begins with, "" for none.
func killedWordAt(s string) string {
	for _, w := range killedWords {
		if strings.HasPrefix(s, w) {
			return w
		}
	}
	return ""
}

// exit137At: "Exit 137" or its translation at the start of s, "" for none.
func exit137At(s string) string {
	for _, w := range []string{"Exit 137", "Termine 137", "Salida 137", "Uscita 137", "Kod wyjścia 137", "Fim da execução com status 137"} {
		if strings.HasPrefix(s, w) {
			return w
		}
	}
	return ""
}

// bareKilledLine: a line of only strsignal(SIGKILL)'s text, English or translated.
func bareKilledLine(t string) bool {
	if len(t) > 40 {
		return false
	}
	s := strings.TrimSpace(t)
	return s != "" && killedWordAt(s) == s
}

// Ansible's -vvv record of a command run over ssh: the ssh connection plugin displays the
// (returncode, stdout, stderr) it got back under the host's "<HOST> " prefix (plugins/
// connection/ssh.py, display.vvv of the return tuple), Python's repr of the bytes with the
// line breaks as the escapes "\r\n" and "\n": "<H> (137, b'\r\n/bin/sh: line 1: 26936
// Killed   /usr/bin/python .../AnsiballZ_command.py\r\n', b'OpenSSH_7.6p1 ...')". The
// remote shell's notice is one of stdout's lines; its length (ssh's debug output follows in
// stderr) hid it from shellKilledLine. Counter-cases: a tuple whose stdout holds no such
// notice, "Killed" only in stderr, a line not of the tuple's shape.
const ansibleTupleWhy = "Ansible's -vvv record of a command run over ssh (the ssh connection plugin's (returncode, stdout, stderr) under \"<HOST> \"), whose stdout holds "

// maxAnsibleTupleBytes bounds the record read: a paste's line, stdout first.
const maxAnsibleTupleBytes = 64 << 10

// ansibleTupleKilled says why t is such a record whose stdout holds a shell's SIGKILL
// notice. Gate: the first byte '<' and "> (" within the host's length; no regexp.
func ansibleTupleKilled(t string) (string, bool) {
	t = strings.TrimLeft(t, " \t")
	if len(t) < 8 || t[0] != '<' || len(t) > maxAnsibleTupleBytes {
		return "", false
	}
	k := strings.Index(t, "> (")
	if k < 2 || k > 260 || strings.IndexByte(t[1:k], ' ') >= 0 {
		return "", false
	}
	rest := strings.TrimPrefix(t[k+len("> ("):], "-")
	n := len(leadingDigits(rest))
	if n == 0 || n > 3 {
		return "", false
	}
	rest = rest[n:]
	var quote string
	for _, p := range []string{", b'", ", '", `, b"`, `, "`} {
		if strings.HasPrefix(rest, p) {
			rest, quote = rest[len(p):], p[len(p)-1:]
			break
		}
	}
	if quote == "" {
		return "", false
	}
	// stdout ends where stderr's repr starts (the paste may cut inside stdout).
	if e := strings.Index(rest, quote+", b"+quote); e >= 0 {
		rest = rest[:e]
	} else if e := strings.Index(rest, quote+", "+quote); e >= 0 {
		rest = rest[:e]
	}
	for _, ln := range strings.Split(strings.ReplaceAll(rest, `\r\n`, `\n`), `\n`) {
		if why, ok := shellKilledLine(strings.TrimSpace(ln)); ok {
			return ansibleTupleWhy + why, true
		}
	}
	return "", false
}

// fix36a: interactive bash's notice for a foreground job killed by SIGKILL (jobs.c: the
// signal's strsignal text, "Killed") printed over the job's last progress line, which the
// program redraws with a carriage return: the terminal keeps the rest of that line after the
// word, "Killed 86.85%  4.056 MiB/s  1.936 GiB / 2.229 GiB  120100 / 123958 items  0 errors
// ETA 1:15" (a backup tool's status line; corpus 3103). The word alone at the line's start,
// then a share in percent (after an elapsed "[m:ss]" at most): a sentence ("Killed 3
// processes", "Killed 50% of the jobs") has a word between or none of the share.
const killedOverProgressWhy = "bash's notice that the foreground job was killed by SIGKILL (\"Killed\"), printed over the job's last progress line (the rest of that line stays after the word): the kernel's OOM killer or a memory cgroup's sends SIGKILL, and so does any kill -9; the kernel's own kill line (\"Out of memory: Killed process N\") would say which and is not in the text; the progress line's sizes and rates are the job's data, not memory; headroom has no reader for this log"

func killedOverProgress(t string) bool {
	rest, ok := strings.CutPrefix(t, "Killed ")
	if !ok {
		return false
	}
	rest = strings.TrimLeft(rest, " ")
	if strings.HasPrefix(rest, "[") {
		e := strings.IndexByte(rest, ']')
		if e < 4 || e > 10 || !strings.Contains(rest[:e], ":") {
			return false
		}
		rest = strings.TrimLeft(rest[e+1:], " ")
	}
	n := len(leadingDigits(rest))
	if n == 0 || n > 3 {
		return false
	}
	rest = rest[n:]
	if len(rest) > 1 && rest[0] == '.' {
		m := len(leadingDigits(rest[1:]))
		if m == 0 {
			return false
		}
		rest = rest[1+m:]
	}
	// the share, then the rest of the status line after a blank (two in the tools' layout)
	return strings.HasPrefix(rest, "%  ") || strings.HasPrefix(rest, "% ") && len(rest) > 2 && rest[2] >= '0' && rest[2] <= '9'
}

// goErrorChainQuoted (fix49c, corpus 4117): the os/exec error quoted whole as the error a
// tool failed with, its wrapped chain intact: `Scanning image fails with error "running
// trivy wrapper: running trivy: signal: killed"`. Go wraps an error with its context
// (fmt.Errorf("running trivy: %w", err)), so the quoted message holds two or more
// ": "-joined parts ending in the exit's "signal: killed" and its closing quote; a
// sentence that names the words ("what does signal: killed mean") has no such chain.
func goErrorChainQuoted(t string, k int) bool {
	q := strings.LastIndexAny(t[:k], "\"`")
	if q < 0 || !strings.HasPrefix(t[k+len(": signal: killed"):], t[q:q+1]) {
		return false
	}
	chain := t[q+1 : k]
	return strings.Contains(chain, ": ") && !strings.ContainsAny(chain, "?!") && containsFoldASCII(t[:q], "error")
}
