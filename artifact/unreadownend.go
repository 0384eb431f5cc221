package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// Language runtimes' and process supervisors' own out-of-memory and kill notices (h34a):
// the forms every program inherits, because a program prints what its runtime, libc's
// strerror and its supervisor print. Most were read already, bare (appOOMLine,
// appHostLine, serverOwnLine, shellKilledLine); three gaps made a paste of them exit 3:
//
//   - forms no reader knew: supervisord's "exited: NAME (terminated by SIGKILL; not
//     expected)", pm2's "App [NAME:ID] exited with code [C] via signal [SIGKILL]", Ruby's
//     "failed to allocate memory (NoMemoryError)", the Go runtime's "fatal error: runtime:
//     cannot allocate memory", NumPy's _ArrayMemoryError, a C program's "mmap failed: Cannot
//     allocate memory", kubectl describe's lone "Exit Code: 137";
//   - the same lines under a program's stamp ("2026-11-30T10:00:01Z fatal error: ...",
//     docker logs -t and kubectl logs --timestamps; "2026-11-30 10:00:01,123 ERROR ...",
//     Python's logging and supervisord's own log; "[ERROR] ...", a logfmt msg="..."): the
//     syslog parser takes the message's first words for a host and a tag, and the readers,
//     which match the message from its start, miss it;
//   - the same lines under a real syslog tag ("web1 myapp[1234]: java.lang.OutOfMemoryError:
//     Metaspace"): the fast path handed an untagged reader's line to no reader.
//
// Each is named unread (issue 29) with what it proves and what it does not: a kill by
// SIGKILL names no sender; an exit code 137 is 128+9; a runtime's out-of-memory is the
// process's own heap, address space or limit, not the host's free memory. No finding is
// raised from any of them. The readers are the existing ones; ownEndLine only asks them in
// one place, after every reader of a tag, on the message as the program printed it.

// ownEndLine says why t (one message, its stamp and level removed) is a runtime's or a
// supervisor's own out-of-memory or kill notice, and whether it is an out-of-memory.
func ownEndLine(t string) (why string, oom, ok bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false, false
	}
	if why, ok := appOOMLine(t); ok {
		return why, true, true // Go's, V8's, .NET's, Rust's, ... (unreadappoom.go, unreadruntimeoom.go)
	}
	if why, ok := appHostLine(t); ok {
		return why, jvmOOMText(t), true // the JVM's OutOfMemoryError and hs_err header, C++'s bad_alloc (unreadagent.go)
	}
	if why, oom, ok := jvmClusterLine(t); ok {
		return why, oom, true // the JVM's Metaspace and native-memory banners, YARN's kills (unreadjvm.go)
	}
	if why, oom, ok := serverOwnLine(t); ok {
		return why, oom, true // PHP's memory_limit, Python's MemoryError, Erlang's eheap_alloc (unreadserver.go)
	}
	if why, ok := shellKilledLine(t); ok {
		return why, false, true // a shell's "Killed", compose's exit 137, make's Error 137 (unreadshellkill.go)
	}
	return ownEndForm(t)
}

// ownEndForm: the forms of this class no other reader knows (see the file's comment).
func ownEndForm(t string) (string, bool, bool) {
	s := strings.TrimSpace(t)
	switch {
	case strings.Contains(s, "exited: "):
		if why, ok := supervisordKilled(s); ok {
			return why, false, true
		}
	case strings.Contains(s, "] exited with code ["):
		if why, ok := pm2Killed(s); ok {
			return why, false, true
		}
	case strings.HasSuffix(s, "(NoMemoryError)"):
		if rubyNoMemory(s) {
			return rubyNoMemoryWhy, true, true
		}
	case strings.HasSuffix(s, "runtime: cannot allocate memory"):
		if p := strings.TrimSuffix(s, "runtime: cannot allocate memory"); p == "" || p == "fatal error: " {
			return goCannotAllocateWhy, true, true
		}
	case strings.HasSuffix(s, ": Cannot allocate memory"):
		if libcAllocENOMEM(s) {
			return libcAllocENOMEMWhy, true, true
		}
	case strings.HasPrefix(s, "Received fatal signal: "):
		if why, ok := g3logFatalSignal(s); ok {
			return why, false, true
		}
	case strings.Contains(s, "CairoException: ["):
		if why, ok := questdbMmapErrno(s); ok {
			return why, false, true
		}
	case strings.HasSuffix(s, ": Java heap space") || strings.HasSuffix(s, ": GC overhead limit exceeded"):
		if jvmOOMDetailAlone(s) {
			return jvmOOMDetailWhy, true, true
		}
	case strings.Contains(s, "illed"):
		if toldKilledOutput(s) {
			return toldKilledWhy, false, true
		}
	case strings.HasPrefix(s, "Exit Code:"):
		if strings.TrimSpace(s[len("Exit Code:"):]) == "137" {
			return kubeExit137Why, false, true
		}
	}
	return "", false, false
}

// supervisordKilled: supervisord's notice that a program it ran died by SIGKILL, or exited
// 137, while it was not stopping it (supervisor/process.py Subprocess.finish: "exited: %s
// (%s)" with decode_wait_status's "terminated by SIGKILL" [" (core dumped)"] or "exit status
// 137", then "; expected" or "; not expected"). Another signal or status is no kill;
// "stopped: NAME (terminated by SIGKILL)" is supervisord's own kill after stopwaitsecs.
func supervisordKilled(s string) (string, bool) {
	rest, ok := strings.CutPrefix(s, "exited: ")
	if !ok {
		return "", false
	}
	sp := strings.Index(rest, " (")
	if sp <= 0 || strings.IndexByte(rest[:sp], ' ') >= 0 {
		return "", false
	}
	status := rest[sp+2:]
	if !strings.HasSuffix(status, "; expected)") && !strings.HasSuffix(status, "; not expected)") {
		return "", false
	}
	status = status[:strings.LastIndexByte(status, ';')]
	switch status {
	case "terminated by SIGKILL", "terminated by SIGKILL (core dumped)":
		return supervisordSigkillWhy, true
	case "exit status 137":
		return supervisord137Why, true
	}
	return "", false
}

const supervisordSigkillWhy = "supervisord: a program it ran died by SIGKILL while supervisord was not stopping it (supervisor/process.py Subprocess.finish: \"exited: NAME (terminated by SIGKILL; not expected)\"): the kill came from outside supervisord, and SIGKILL names no sender: the kernel's OOM killer (the host's or the container's memory cgroup) sends it, and so does any kill -9; the kernel's own kill line (\"Out of memory: Killed process N\", \"Memory cgroup out of memory\") would say which and is not in the text; headroom has no reader for this log"

const supervisord137Why = "supervisord: a program it ran exited with status 137 (supervisor/process.py Subprocess.finish: \"exited: NAME (exit status 137; ...)\"): 128+9, a shell or wrapper whose child died by SIGKILL; the kernel's OOM killer sends SIGKILL, and so does any kill -9; the kernel's own kill line would say which and is not in the text; headroom has no reader for this log"

// pm2Killed: pm2's God daemon's notice of an app's process ended by SIGKILL (lib/God.js
// handleExit: "App [%s:%s] exited with code [%s] via signal [%s]", the name, pm_id, exit
// code, signal). Another signal (SIGINT, pm2's own stop) is no kill.
func pm2Killed(s string) (string, bool) {
	i := strings.Index(s, "App [")
	if i < 0 || i > 40 || !strings.HasSuffix(s, "] via signal [SIGKILL]") {
		return "", false
	}
	if p := strings.TrimSpace(s[:i]); p != "" && !strings.HasSuffix(p, ":") && !strings.HasSuffix(p, "|") {
		return "", false // "PM2 log: App [...", "PM2        | App [...", nothing else before
	}
	k := strings.Index(s, "] exited with code [")
	if k < i {
		return "", false
	}
	code := s[k+len("] exited with code [") : len(s)-len("] via signal [SIGKILL]")]
	if code != "null" && len(leadingDigits(code)) != len(code) {
		return "", false
	}
	return pm2SigkillWhy, true
}

const pm2SigkillWhy = "pm2: an app's process ended by SIGKILL (lib/God.js handleExit: \"App [NAME:ID] exited with code [C] via signal [SIGKILL]\"); pm2 restarts it: SIGKILL names no sender: the kernel's OOM killer sends it, and so does any kill -9 (pm2's own max_memory_restart reload logs \"[PM2][WORKER] Process N restarted because it exceeds --max-memory-restart value\" first); the kernel's own kill line would say which and is not in the text; headroom has no reader for this log"

// rubyNoMemory: Ruby's NoMemoryError as its error printer writes it (gc.c rb_memerror, the
// message "failed to allocate memory"; error.c: "FILE:LINE:in 'METHOD': MESSAGE (CLASS)", or
// "ruby: MESSAGE (CLASS)"): the whole line, nothing quoted around it.
func rubyNoMemory(s string) bool {
	p, ok := strings.CutSuffix(s, "failed to allocate memory (NoMemoryError)")
	if !ok {
		return false
	}
	switch {
	case p == "":
		return true
	case strings.Contains(p, ":in ") && (strings.HasSuffix(p, "': ") || strings.HasSuffix(p, "`: ")):
		return strings.IndexByte(p[:strings.Index(p, ":in ")], ' ') < 0 // "PATH:LINE:in 'M': "
	}
	f := strings.TrimSuffix(p, ": ")
	return f != p && f != "" && strings.IndexByte(f, ' ') < 0 && strings.IndexAny(f, "`'\"") < 0 // "ruby: "
}

const rubyNoMemoryWhy = "Ruby's own allocation failed (gc.c rb_memerror raised NoMemoryError, \"failed to allocate memory\"): the interpreter's malloc or its heap's mmap was refused (the process's address space, RLIMIT_AS/RLIMIT_DATA or overcommit) and the program ended by itself: no kill by the kernel's OOM killer and no statement about the host's free memory; headroom has no reader for this log"

const goCannotAllocateWhy = "the Go runtime could not map memory for its own off-heap metadata (runtime/malloc.go persistentalloc1: sysAlloc returned nil, throw(\"runtime: cannot allocate memory\"), printed as \"fatal error: ...\"): the mmap was refused (the process's address space, RLIMIT_AS or overcommit) and the program exited by itself: no kill by the kernel's OOM killer and no statement about the host's free memory; headroom has no reader for this log"

// libcAllocENOMEM: a C program's report of its own mmap or malloc refused with ENOMEM, in
// the forms perror and err(3) print ("mmap: Cannot allocate memory", "PROG: mmap failed:
// Cannot allocate memory", strerror(ENOMEM)). The call's name must stand right before the
// errno text; another call's ENOMEM (fork's, a netlink answer's) is another reader's.
func libcAllocENOMEM(s string) bool {
	p := strings.TrimSuffix(s, ": Cannot allocate memory")
	p = strings.TrimSuffix(p, " failed")
	p = strings.TrimSuffix(p, "()")
	j := strings.LastIndexByte(p, ' ')
	call := p[j+1:]
	if k := strings.LastIndex(call, ":"); k >= 0 {
		return false // "x:mmap"
	}
	switch call {
	case "mmap", "mmap64", "mremap", "malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc":
	default:
		return false
	}
	if j < 0 {
		return true
	}
	head := strings.TrimSpace(p[:j+1])
	// Nothing but the program's name or a level before the call ("myprog: ", "ERROR: ").
	return strings.HasSuffix(head, ":") && strings.IndexByte(head, ' ') < 0 && strings.IndexAny(head, "`'\"") < 0
}

const libcAllocENOMEMWhy = "a program's own mmap or malloc was refused with ENOMEM (strerror: \"Cannot allocate memory\", printed by perror or err(3)): the process's address space, RLIMIT_AS/RLIMIT_DATA, vm.max_map_count, or overcommit (vm.overcommit_memory 2 past CommitLimit; mode 0 refuses only a request larger than RAM and swap) refused that request; a memory cgroup does not refuse an mmap (it reclaims or kills at fault time): no kill by the kernel's OOM killer and no figure of the host's free memory; headroom has no reader for this log"

const kubeExit137Why = "kubectl describe's container state: exit code 137, 128+9, the container's process died by SIGKILL; the kernel's OOM killer in the container's memory cgroup sends it (then the state's Reason is OOMKilled, which the text does not say here), and so do the kubelet's kill after terminationGracePeriodSeconds and any kill -9; headroom has no reader for this line"

// reG3logSignal: g3log's crash handler (src/crashhandler_unix.cpp signalHandler: "Received
// fatal signal: " NAME "(" NUMBER ")\tPID: " getpid(), after its "***** FATAL SIGNAL
// RECEIVED *******" banner; Typesense and other C++ servers log through g3log), the tab
// as a paste keeps it or as spaces.
var reG3logSignal = lazyre.New(`^Received fatal signal: (SIG[A-Z]{2,7})\((\d{1,2})\)\s+PID: \d{1,9}$`)

// g3logFatalSignal (fix39b, corpus 3312): g3log's line of the signal its handler caught.
// The handler catches SIGABRT, SIGFPE, SIGILL, SIGSEGV and SIGTERM; SIGKILL cannot be
// caught, so the line is never the kernel's OOM kill: SIGABRT is the program's own abort()
// (std::terminate after an uncaught exception, a failed assert), SIGSEGV, SIGILL and SIGFPE
// a crash, SIGTERM a stop.
func g3logFatalSignal(s string) (string, bool) {
	m := reG3logSignal.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	return "a program's crash handler (g3log, crashhandler_unix.cpp: \"***** FATAL SIGNAL RECEIVED *******\" then \"Received fatal signal: " + m[1] + "(" + m[2] + ")\tPID: N\" and a stack dump) caught " + m[1] + ": g3log catches SIGABRT (the program's own abort(): std::terminate after an uncaught C++ exception, a failed assert), SIGSEGV, SIGILL and SIGFPE (a crash) and SIGTERM (a stop); SIGKILL cannot be caught, so this is no kill by the kernel's OOM killer and states no memory figure; headroom has no reader for this log", true
}

// reQuestDBMmap: QuestDB's CairoException for a failed mmap or mremap (core/.../cairo
// CairoException.critical(errno): its message is "[ERRNO] " then the text, Files.mmap's
// "could not mmap" / "could not remap" with "[size=N, fd=F, memUsed=U, fileLen=L]"), as
// its log or a stack trace prints it: the exception's class first.
var reQuestDBMmap = lazyre.New(`^(?:io\.questdb\.(?:cairo\.)?)?CairoException: \[(\d{1,4})\] could not (?:mmap|remap)\b`)

// questdbMmapErrno (fix39b, corpus 3314): the errno decides what the line proves. 12
// (ENOMEM) is the process's address space, vm.max_map_count or overcommit refusing the
// mapping; 22 (EINVAL) an invalid argument of QuestDB's own call (an offset or length the
// kernel rejects: a bug or a file system without mmap support), no statement about memory
// at all. memUsed is QuestDB's own count of the memory it allocated, not the host's.
func questdbMmapErrno(s string) (string, bool) {
	m := reQuestDBMmap.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	what := "errno " + m[1] + ": the mapping was refused for that reason (see errno(3)), no kill by the kernel's OOM killer"
	switch m[1] {
	case "12":
		what = "errno 12, ENOMEM: the process's address space, vm.max_map_count or overcommit accounting refused the mapping; no kill by the kernel's OOM killer and no figure of the host's free memory"
	case "22":
		what = "errno 22, EINVAL: the kernel rejected an argument of the call (an offset or length it does not accept, a file or file system that cannot be mapped), QuestDB's own fault, not a shortage of memory"
	}
	return "QuestDB's mmap of a table file failed (CairoException \"[ERRNO] could not mmap [size=N, fd=F, memUsed=U, fileLen=L]\", memUsed QuestDB's own count of the memory it allocated, not the host's): " + what + "; headroom has no reader for this log", true
}

// reOwnStamp: a program's own date-time at the start of its line (RFC 3339 of docker logs
// -t and kubectl logs --timestamps, "2026-11-30 10:00:01,123" of Python's logging and
// supervisord, Go's "2026/11/30 10:00:01"), then an optional level word or bracketed level.
var reOwnStamp = lazyre.New(`^(?:\d{4}[-/]\d\d[-/]\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?:?\s+)?(?:(?:\[(?:ERROR|ERR|WARN|WARNING|INFO|CRIT|CRITICAL|FATAL|PANIC|error|warn|warning|info|fatal|crit)\]|(?:ERROR|ERR|WARN|WARNING|INFO|CRIT|CRITICAL|FATAL|PANIC)\b:?)\s+)?`)

// ownRecordMessage: the message of a program's own record t, its stamp and level removed,
// or a logfmt record's msg value; ok when something was removed.
func ownRecordMessage(t string) (string, bool) {
	s := strings.TrimSpace(t)
	if s == "" {
		return "", false
	}
	if c := s[0]; c == 'l' || c == 't' || c == 'm' {
		if structuredRecordStart(s) && s[0] != '{' {
			return logfmtMsg(s)
		}
	}
	if c := s[0]; !isDigit(c) && c != '[' && (c < 'A' || c > 'Z') {
		return "", false
	}
	loc := reOwnStamp.FindStringIndex(s)
	if loc == nil || loc[1] == 0 || loc[1] == len(s) {
		return "", false
	}
	return s[loc[1]:], true
}

// logfmtMsg: the value of a logfmt record's msg key, unquoted.
func logfmtMsg(s string) (string, bool) {
	k := strings.Index(s, "msg=")
	if k < 0 || k > 0 && s[k-1] != ' ' {
		return "", false
	}
	v := s[k+len("msg="):]
	if !strings.HasPrefix(v, "\"") {
		return "", false
	}
	q, err := strconv.QuotedPrefix(v)
	if err != nil {
		return "", false
	}
	m, err := strconv.Unquote(q)
	return m, err == nil && m != ""
}

// ownEndHanded: a syslog line of another program that may hold one of this class's
// notices, for the fast path (readsTag): its text, and its host and tag when the stamp is a
// program's own (a date in digits, RFC 3339 or "2026-11-30 10:00:01,123"), which leaves
// them holding the message's first words. It runs on every other program's line, so its
// words are few and searched before any precise test (BenchmarkParseSyslog).
func ownEndHanded(l *Line) bool {
	if l.Kernel || !l.Syslog || l.Tag == "kernel" {
		return false // the kernel's lines are the kernel readers' (readsTag hands none of them on)
	}
	if ownEndWords(l.Text) {
		return true
	}
	if l.Stamp == "" || !isDigit(l.Stamp[0]) {
		return false
	}
	return ownEndWords(l.Host) || ownEndWords(l.Tag) ||
		l.Host == "memory" && strings.HasPrefix(l.Text, "allocation of ") // Rust's "memory allocation of N bytes failed" under a stamp
}

// ownEndWords: s holds a word of this class's notices that appOOMHanded's "of memory" does
// not cover: an exception's class ("MemoryError", "OutOfMemoryException"), an allocation's
// words, a SIGKILL, bash's "Killed", an exit status 137.
func ownEndWords(s string) bool {
	if strings.Contains(s, "emory") {
		for _, w := range ownEndMemoryWords {
			if strings.Contains(s, w) {
				return true
			}
		}
	}
	for rest := s; ; {
		k := strings.IndexByte(rest, 'K') // rare in a log line: one scan for "SIGKILL" and "Killed"
		if k < 0 {
			break
		}
		rest = rest[k:]
		if strings.HasPrefix(rest, "KILL") || strings.HasPrefix(rest, "Killed") {
			return true
		}
		rest = rest[1:]
	}
	if strings.Contains(s, "bad_alloc") {
		return true
	}
	for rest := s; ; {
		k := strings.Index(rest, "137")
		if k < 0 {
			return false
		}
		if k > 0 && (rest[k-1] == ' ' || rest[k-1] == '[') && (k+3 == len(rest) || !isDigit(rest[k+3]) && rest[k+3] != '.') {
			return true // "exited with code 137", "Error 137", "exit status 137;", not "10.1.132.137 "
		}
		rest = rest[k+3:]
	}
}

var ownEndMemoryWords = [...]string{"MemoryE", "emory allocation", "allocate memory", "Allowed memory size", "insufficient memory"}

// ownEndSyslogText: the message of line l as the program printed it when the syslog parser
// took its first words for a host and a tag ("2026-11-30T10:00:01Z fatal error: runtime:
// out of memory": host "fatal", tag "error"), its level word removed.
func ownEndSyslogText(l *Line, t string) string {
	s := l.Host + " " + t
	if l.Tag != "" {
		s = l.Host + " " + l.Tag + ": " + t
	}
	if m, ok := ownRecordMessage(s); ok {
		return m
	}
	return s
}

// ownEndSyslog names line i, another program's syslog line no reader of its tag took, when
// it is one of this class's notices (ownEndLine), asked of its text and of the message its
// stamp split.
func (d *doc) ownEndSyslog(i int) bool {
	l := &d.ls[i]
	if !ownEndHanded(l) && !strings.Contains(l.Text, "of memory") { // appOOMHanded's lines too
		return false
	}
	msg := l.Text
	why, oom, ok := ownEndLine(msg)
	if !ok && l.Host != "" {
		msg = ownEndSyslogText(l, l.Text)
		why, oom, ok = ownEndLine(msg)
	}
	if !ok {
		return false
	}
	d.programOOMNamed = d.programOOMNamed || oom
	d.unparsedUnread(i, why)
	d.programFiguresOf(i, msg)
	d.jvmFigures(i)
	return true
}

// ownEndProse names prose line i when it is one of this class's notices: ownEndForm's own
// forms bare, or any of ownEndLine's under a program's stamp, level or logfmt record.
func (d *doc) ownEndProse(i int) bool {
	t := d.ls[i].Text
	why, oom, ok := ownEndForm(t)
	if !ok {
		m, cut := ownRecordMessage(t)
		if !cut {
			return false
		}
		if why, oom, ok = ownEndLine(m); !ok {
			return false
		}
		t = m
	}
	if why == kubeExit137Why && d.kubeOOMKilledAbove(i) {
		return false // the state's "Reason: OOMKilled" above is read (kube_container_terminated)
	}
	if d.exampleLog(i) {
		return false
	}
	d.programOOMNamed = d.programOOMNamed || oom
	d.unparsedUnread(i, why)
	d.programFiguresOf(i, t)
	d.jvmFigures(i)
	return true
}

// numpyArrayMemoryError: NumPy's MemoryError subclass for an array it could not allocate
// (numpy/_core/_exceptions.py _ArrayMemoryError.__str__: "Unable to allocate {size} for an
// array with shape {shape} and data type {dtype}"), as a traceback's last line prints it
// ("numpy.core._exceptions._ArrayMemoryError: Unable to allocate 74.5 GiB ...").
func numpyArrayMemoryError(s string) (string, bool) {
	k := strings.Index(s, "_ArrayMemoryError: Unable to allocate ")
	if k < 0 || strings.IndexByte(s[:k], ' ') >= 0 || !strings.Contains(s[k:], " for an array with shape ") {
		return "", false
	}
	return "NumPy could not allocate one array (numpy _ArrayMemoryError, a MemoryError: \"Unable to allocate SIZE for an array with shape ... and data type ...\", SIZE the array's own bytes): the process's malloc or mmap of that size was refused (its address space, RLIMIT_AS, or overcommit: mode 0 refuses a single request larger than RAM and swap) and the program ended by itself: no kill by the kernel's OOM killer and no figure of the host's free memory; headroom has no reader for this log", true
}

// kubeOOMKilledAbove: one of the three lines above line i names OOMKilled, the Reason of
// the container state whose exit code line i is.
func (d *doc) kubeOOMKilledAbove(i int) bool {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		if strings.Contains(d.ls[j].Text, "OOMKilled") {
			return true
		}
	}
	return false
}

// fix43b (corpus 3677): a JVM program's log line that carries an OutOfMemoryError's detail
// message without its class: HotSpot's heap exhaustion throws OutOfMemoryError("Java heap
// space") or ("GC overhead limit exceeded") (memory/universe.cpp, gc's
// report_java_out_of_memory), and a handler that logs "text: " + e.getMessage() prints only
// the detail: java.util.logging's second line "INFO: Exception when handling request: Java
// heap space" (the Firestore emulator's netty HttpHandler.onError), JGit's "unpack error
// Java heap space" (appHostReasons). The detail must end the line after ": ", with only a
// program's words before it: a sentence asking how to raise "Java heap space", advice and
// a quotation are not read, nor a title ("# kafka 10: GC overhead limit exceeded"). The
// class named is read as before (appHostLine).
const jvmOOMDetailWhy = "a JVM program logged an OutOfMemoryError's detail message after its own words (\"...: Java heap space\" or \"...: GC overhead limit exceeded\", the exception's getMessage() without its class, as java.util.logging or a request handler prints it): the JVM's heap reached its own limit (-Xmx, by default a share of the memory the JVM sees); the program caught the error or ended by itself: no kill by the kernel's OOM killer and no statement about the host's free memory; headroom has no reader for this log"

// jvmOOMDetailAlone: s ends with the detail after ": " and is a log record's message, not
// a question, a quotation, advice, a Markdown title or the class's own form (appHostLine's).
func jvmOOMDetailAlone(s string) bool {
	if strings.Contains(s, "OutOfMemoryError") {
		return false // the class's own line: appHostLine
	}
	head := s[:strings.LastIndex(s, ": ")]
	h := strings.TrimSpace(head)
	if h == "" || h[0] == '#' || strings.ContainsAny(head, "\"`?“”") || adviceLead(head) {
		return false
	}
	return len(head) <= 200
}

// fix43b (corpus 3658): the author tells in a sentence that the command printed only the
// shell's notice of a SIGKILL: "bench --site S backup --with-files it returns <killed> and no
// backup done", "the script just says `Killed`", "it prints Killed". The word is
// strsignal(SIGKILL) as the shell printed it (bash jobs.c, unreadshellkill.go), retold with
// a verb of output right after its subject and the word marked (brackets, quotes, a code
// span) or capitalised as printed. A question, a condition or advice ("if it returns
// Killed, ...") and another wording ("the process was killed", "killed the job") are not
// this form; a stated OOM in the same sentence is still the stated readers'.
var reToldKilledOutput = lazyre.New("\\b(?:[Ii]t|[Tt]his|[Tt]hat|[Tt]he\\s+(?:command|process|script|job|backup|build|task|program|run|shell|terminal|console|output))\\s+(?:(?:just|only|simply|always|then|now|still)\\s+)?" +
	"(?:returns|returned|prints|printed|says|said|shows|showed|outputs|displays|displayed|gives|gave|ends\\s+with|ended\\s+with|stops\\s+with|stopped\\s+with)\\s+(?:me\\s+)?(?:(?:just|only|simply)\\s+)?(?:the\\s+(?:word|message|output)\\s+|an?\\s+)?" +
	"(?:[<\"'`*\u201c\u2018]+[Kk]illed[>\"'`*\u201d\u2019]*|Killed)(?:[^\\w]|$)")

const toldKilledWhy = "the author tells that the command printed only the shell's notice of a SIGKILL (\"Killed\", strsignal(SIGKILL), as bash prints it for a foreground job): the kernel's OOM killer or a memory cgroup's sends SIGKILL, and so does any kill -9 or a supervisor's stop; the kernel's own kill line (\"Out of memory: Killed process N\") would say which and is not in the text; no memory figure; headroom has no reader for this"

// toldKilledOutput: s is a sentence of that form, not asked, conditioned or advised.
func toldKilledOutput(s string) bool {
	if len(s) > 600 || !strings.Contains(s, "illed") {
		return false
	}
	loc := reToldKilledOutput.FindStringIndex(s)
	if loc == nil {
		return false
	}
	sentence := sentenceAround(s, loc[0], loc[1])
	head := s[:loc[0]]
	if questionAt(s, loc[0], loc[1]) || adviceLead(head) || hypotheticalUpTo(sentence, s[loc[0]:loc[1]]) {
		return false
	}
	return !reNegated.MatchString(head[max(0, len(head)-24):])
}
