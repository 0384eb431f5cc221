package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// fix47a (round 42, corpus 3931, 3934, 3955, 3958): four classes of a program's own line
// that named no memory or network figure and left their texts at exit 3, though each is
// this host's event. Each is named unread with what it proves; nothing is diagnosed from it.
//
//   - A fork refused with EAGAIN by Go's os/exec (runc's libcontainer starts its init with
//     exec.Cmd: "fork/exec /proc/self/exe: resource temporarily unavailable"): a task limit,
//     the sibling of collabForms' ENOMEM form (forkEAGAINWhy, in collabForms).
//   - PostgreSQL's postmaster naming a backend's death by a signal other than SIGKILL
//     (postmaster.c LogChildExit: "%s (PID %d) was terminated by signal %d: %s"): a crash of
//     the backend, no kill (pgSignalExitWhy, from dbOwnLine).
//   - An ODBC driver's diagnostic record "[vendor][driver]Memory allocation failure"
//     (SQLSTATE HY001; unixODBC's Driver Manager "Memory allocation error"): the driver's
//     own allocation, in the client process (odbcAllocWhy, from dbOwnLine).
//   - Chromium's net error quoted in a sentence (net/base/net_error_list.h,
//     "ERR_EMPTY_RESPONSE" is -324): what the browser met at the socket (browserNetErrorWhy,
//     from quotedErrnoWhy).

// forkEAGAINWhy: Go's os/exec fork refused with EAGAIN.
const forkEAGAINWhy = "a Go program's fork was refused with EAGAIN (os/exec: \"fork/exec PATH: resource temporarily unavailable\"; runc's libcontainer starts each container's init so, \"unable to start init: fork/exec /proc/self/exe\"): clone() hit a limit on tasks, the user's RLIMIT_NPROC (ulimit -u, LimitNPROC, LimitTasks of a container VPS), a pids cgroup's pids.max or kernel.threads-max; not memory (a memory shortfall is ENOMEM, \"cannot allocate memory\"); no kill by the kernel's OOM killer; headroom reads no task limit (`ulimit -u; cat /sys/fs/cgroup/pids.max; ps -eLf | wc -l` would)"

// pgSignalNeedle: PostgreSQL's LogChildExit words before the signal's number.
const pgSignalNeedle = ") was terminated by signal "

// pgSignalExitWhy says what PostgreSQL's "NAME (PID N) was terminated by signal S: TEXT"
// proves when S is not 9 (SIGKILL keeps dbOwnForms' "terminated by signal 9" reason): the
// backend died by its own fault or an abort, not by anyone's kill.
func pgSignalExitWhy(t string) (string, bool) {
	k := strings.Index(t, pgSignalNeedle)
	if k < 0 || !strings.Contains(t[:k], "(PID ") {
		return "", false
	}
	rest := t[k+len(pgSignalNeedle):]
	n := leadingDigits(rest)
	if n == "" || n == "9" || !strings.HasPrefix(rest[len(n):], ": ") {
		return "", false
	}
	var what string
	switch n {
	case "4":
		what = "SIGILL, an illegal instruction: the binary or an extension (pgvector's, PostGIS's) was built for CPU features (AVX2, AVX-512) this CPU or its VM does not offer"
	case "11":
		what = "SIGSEGV, a segmentation fault: a bug in the server or an extension"
	case "6":
		what = "SIGABRT, an abort: a failed assertion or abort() in the server or a library"
	case "7":
		what = "SIGBUS, a bus error: a mapped file or shared memory (/dev/shm, huge pages) could not back a page"
	default:
		what = "signal " + n + ", not SIGKILL"
	}
	return "PostgreSQL's postmaster reports a backend's end by a signal (postmaster.c LogChildExit: \"server process (PID N) was terminated by signal S: NAME\"), here " + what + "; the process crashed, no kill by the kernel's OOM killer (that is signal 9) and no memory figure; headroom has no reader for this log", true
}

// odbcAllocWhy: an ODBC diagnostic record's bracketed prefix ("[Microsoft][SQL Server
// Native Client 11.0]", "[unixODBC][Driver Manager]"; a paste may lose the first '[') right
// before the driver's HY001 text.
func odbcAllocWhy(t string) (string, bool) {
	l := strings.ToLower(t)
	for _, m := range [...]string{"]memory allocation failure", "]memory allocation error"} {
		k := strings.Index(l, m)
		if k < 0 {
			continue
		}
		head := l[:k]
		b := strings.LastIndex(head, "][")
		if b < 0 || strings.HasSuffix(strings.TrimSpace(t), "?") {
			continue
		}
		if c := head[b+2:]; !strings.Contains(c, "odbc") && !strings.Contains(c, "native client") && !strings.Contains(c, "driver") {
			continue
		}
		return "an ODBC driver's own diagnostic (\"[vendor][driver]Memory allocation failure\", SQLSTATE HY001; SQL Server Native Client's and Microsoft's ODBC drivers' \"Memory allocation failure\", unixODBC's Driver Manager \"Memory allocation error\"): an allocation inside the client's driver failed or the driver reports it so (mismatched driver DLLs give it too); the client program's own, on the machine that runs the client (a Windows one for SQL Server Native Client); no kernel page allocation failure, no kill by the kernel's OOM killer and no figure of the host's memory; headroom has no reader for it", true
	}
	return "", false
}

// browserNetErrors: Chromium's net errors (net/base/net_error_list.h) of a connection,
// as the browser's page shows them.
var browserNetErrors = []struct{ name, why string }{
	{"ERR_EMPTY_RESPONSE", "Chromium's net::ERR_EMPTY_RESPONSE (-324, \"The server closed the connection without sending any data\"): the TCP connection was accepted and closed before any reply, by the server program or a proxy in front of it (docker-proxy for a published port whose container listens only on its own loopback)"},
	{"ERR_CONNECTION_REFUSED", "Chromium's net::ERR_CONNECTION_REFUSED (-102): the connect was answered with a reset, no program listens on that address and port (or a firewall rejects it)"},
	{"ERR_CONNECTION_RESET", "Chromium's net::ERR_CONNECTION_RESET (-101): the peer or something between reset an open connection"},
	{"ERR_CONNECTION_CLOSED", "Chromium's net::ERR_CONNECTION_CLOSED (-100): the connection was closed (a FIN) where a reply was due"},
}

// reBrowserNotAStatement: reNotAStatement without "when": "I get `ERR_EMPTY_RESPONSE` when
// opening http://..." tells when it happened; a question, a condition, advice or a
// negation still states nothing that happened.
var reBrowserNotAStatement = lazyre.New(`\?|\b(?:if|whenever|should|could|would|might|may|can|avoid\w*|prevent\w*|not|never|doesn't|don't|won't|can't)\b`)

// browserNetErrorWhy: a sentence quotes one of browserNetErrors whole, between two quotes
// of one kind, as what the browser got (not in a question, a condition or advice).
func browserNetErrorWhy(t, l string) (string, bool) {
	if !strings.Contains(t, "ERR_") {
		return "", false
	}
	for _, e := range browserNetErrors {
		k := strings.Index(t, e.name)
		end := k + len(e.name)
		if k < 1 || end >= len(t) || !quotePair(t[k-1], t[end]) {
			continue
		}
		if reBrowserNotAStatement.MatchString(quotedSentence(l, k, end)) {
			continue
		}
		return "a sentence quotes the error a browser showed (no log line of it is in the text): " + e.why + "; one connection's outcome, no counter of the host's network stack (TcpExt resets, listen overflows) and no memory figure; headroom has no reader for it", true
	}
	return "", false
}
