package artifact

import "strings"

// Language runtimes' own error records (pre-round 27, h27b; each form from the runtime's
// source, blind to the round's batches). Node.js, Deno's Node layer and Bun print a libuv or
// system errno in their own shapes, and Rust programs (tokio servers, Deno's panics) print
// std::io::Error's Debug form: none holds strerror's text after ": " as errnoLogLine reads
// it, so a paste of "Error: read ENOBUFS" or "Os { code: 105, ... }" exited 3. Go's
// GODEBUG=gctrace=1 line and Bun's crash report state the process's own heap, never the
// host's memory. Each is named as unread with what it proves; no rule judges a program's
// errno or its own heap (a kernel kill line beside them is read by the OOM reader as ever).

// nodeErrnoCode says which errno of errnoReasons t's Node.js error record holds, in the
// shapes lib/internal/errors.js builds its messages:
//
//	errnoException / exceptionWithHostPort: "<syscall> <CODE>[ <addr>:<port>]" ("read ENOBUFS",
//	  "spawn ENOMEM", and child_process's "spawn <file> <CODE>");
//	uvExceptionWithHostPort: "<syscall> <CODE>: <libuv text>[ <addr>:<port>]" ("listen
//	  EMFILE: too many open files 0.0.0.0:3000");
//	uvException: "<CODE>: <libuv text>, <syscall>[ '<path>']" ("EMFILE: too many open files,
//	  open '/app/x.js'");
//
// each after the "Error: " that prints the error (a stack's head, "Uncaught Error: ", a
// logger's "err: Error: "), and util.inspect's property line "code: 'ENOBUFS'," or a JSON
// log's "code":"ENOBUFS" (the error object's own code field). Gate: an 'E' in the line.
func nodeErrnoCode(t string) (string, bool) {
	if strings.IndexByte(t, 'E') < 0 {
		return "", false
	}
	if k := strings.Index(t, "Error: "); k >= 0 {
		f := strings.Fields(t[k+len("Error: "):])
		// uvException: the code first, then ": " and libuv's text, ", " and the call.
		if len(f) > 0 {
			if c, ok := strings.CutSuffix(f[0], ":"); ok && nodeErrnoName(c) && strings.Contains(t[k:], ", ") {
				return c, true
			}
		}
		// errnoException: the call's name, the code; child_process's "spawn <file> <CODE>".
		if len(f) >= 2 && nodeSyscall(f[0]) {
			if c := strings.TrimSuffix(f[1], ":"); nodeErrnoName(c) {
				return c, true
			}
			if len(f) >= 3 && f[0] == "spawn" && nodeErrnoName(f[2]) {
				return f[2], true
			}
		}
	}
	s := strings.TrimSpace(t)
	if rest, ok := strings.CutPrefix(s, "code: '"); ok {
		if c, _, ok := strings.Cut(rest, "'"); ok && nodeErrnoName(c) {
			return c, true
		}
	}
	for _, key := range []string{`"code":"`, `"code": "`} {
		if k := strings.Index(s, key); k >= 0 {
			if c, _, ok := strings.Cut(s[k+len(key):], `"`); ok && nodeErrnoName(c) {
				return c, true
			}
		}
	}
	return "", false
}

// nodeErrnoName: c is the name of one of errnoReasons' or peerErrnoReasons' errnos
// (unreadsockerr.go: "Error: read ECONNRESET", "code: 'ECONNREFUSED'").
func nodeErrnoName(c string) bool {
	if len(c) < 5 || c[0] != 'E' {
		return false
	}
	_, ok := errnoByName(c)
	return ok
}

// nodeSyscall: a call whose name Node's errors carry (lib/net.js, dgram.js, child_process.js,
// fs.js, internal/stream_base_commons.js): not a word of a sentence ("Error: got ENOMEM").
func nodeSyscall(w string) bool {
	switch w {
	case "read", "write", "writev", "listen", "accept", "connect", "bind", "send", "recv",
		"spawn", "spawnSync", "open", "opendir", "scandir", "socket", "pipe", "shutdown", "watch",
		"fork", "getaddrinfo", "setsockopt", "addMembership", "uv_pipe_open", "uv_os_homedir":
		return true
	}
	return false
}

// nodeENOBUFSReadWhy: libuv's ENOBUFS on a stream's read is no socket's: uv__read
// (src/unix/stream.c) reports UV_ENOBUFS when the program's allocation callback handed it
// no buffer for the read, the process's own allocation, not the kernel's.
const nodeENOBUFSReadWhy = "a Node.js (libuv) stream's read failed ENOBUFS (\"Error: read ENOBUFS\"): libuv's uv__read (src/unix/stream.c) reports UV_ENOBUFS when the program's own allocation callback gave it no buffer for the read, no socket buffer or queue of the kernel; no evidence of the host's memory; headroom has no reader for this log"

// nodeErrnoLine says why t is a Node.js error record with one of errnoReasons' errnos.
func nodeErrnoLine(t string) (string, bool) {
	c, ok := nodeErrnoCode(t)
	if !ok {
		return "", false
	}
	if c == "ENOBUFS" && strings.Contains(t, "Error: read ENOBUFS") {
		return nodeENOBUFSReadWhy, true
	}
	e, ok := errnoByName(c)
	if !ok || conditionLead(t[:strings.Index(t, c)]) {
		return "", false // "If you see Error: read ECONNRESET, ...": advice names it
	}
	return "a Node.js error record (lib/internal/errors.js: \"<syscall> " + c + "\"): " + e.why, true
}

// rustOsErrorAt: t[k:] is an errno's text inside std::io::Error's Debug form
// (library/std/src/io/error.rs, Repr::Os: `Os { code: 105, kind: Uncategorized, message:
// "No buffer space available" }`), as a tokio server's unwrap() panic, an anyhow chain or
// Deno's "Deno has panicked" report prints it.
func rustOsErrorAt(t string, k int) bool {
	if k < len(`message: "`) || t[k-len(`message: "`):k] != `message: "` {
		return false
	}
	o := strings.LastIndex(t[:k], "Os { code: ")
	return o >= 0 && strings.Contains(t[o:k], ", kind: ")
}

// goGCTraceWhy: the Go runtime's GODEBUG=gctrace=1 line (runtime/mgc.go gcMarkTermination:
// "gc # @#s #%: #+#+# ms clock, #+#/#/#+# ms cpu, #->#-># MB, # MB goal, [# MB stacks, #MB
// globals,] # P"): the heap at the cycle's start, end and live, and the goal GOGC or
// GOMEMLIMIT set; the process's own heap, not the host's memory.
const goGCTraceWhy = "the Go runtime's GC trace (GODEBUG=gctrace=1, runtime/mgc.go: \"gc N @Ts P%: ... A->B->C MB, G MB goal, ...\"): the Go heap at the cycle's start, its end and what stayed live, against the goal GOGC or GOMEMLIMIT sets: the process's own heap, not the host's memory; headroom has no reader for this log"

// goGCTraceLine: t holds a gctrace line: "gc N @" then " MB goal" and "->" after it.
func goGCTraceLine(t string) bool {
	g := strings.Index(t, " MB goal")
	if g < 0 {
		return false
	}
	k := strings.Index(t[:g], "gc ")
	if k < 0 || k > 0 && t[k-1] != ' ' && t[k-1] != '\t' {
		return false
	}
	n := k + len("gc ")
	d := n
	for d < g && t[d] >= '0' && t[d] <= '9' {
		d++
	}
	return d > n && strings.HasPrefix(t[d:], " @") && strings.Contains(t[d:g], "%: ") && strings.Contains(t[d:g], "->")
}

// bunCrashHeaderWhy: Bun's crash report (src/crash_handler.zig) prints mimalloc's process
// info: "RSS: X | Peak: Y | Commit: Z | Faults: N[ | Machine: M]".
const bunCrashHeaderWhy = "Bun's crash report header (src/crash_handler: \"RSS: X | Peak: Y | Commit: Z | Faults: N\", mimalloc's process info): the crashed process's own resident and committed memory, not the host's free memory; headroom has no reader for this log"

// bunCrashHeaderLine: t holds Bun's figures in their order.
func bunCrashHeaderLine(t string) bool {
	k := strings.Index(t, "RSS: ")
	if k < 0 {
		return false
	}
	p := strings.Index(t[k:], " | Peak: ")
	return p > 0 && strings.Contains(t[k+p:], " | Commit: ")
}

// goNewOSProcPrefix: the Go runtime's report of a failed clone (runtime/os_linux.go
// newosproc: print("runtime: failed to create new OS thread (have ", mcount(), " already;
// errno=", -ret, ")"), then throw("newosproc")); on EAGAIN it adds "runtime: may need to
// increase max user processes (ulimit -u)".
const goNewOSProcPrefix = "runtime: failed to create new OS thread (have "

// goNewOSProcWhy says what the errno of Go's failed clone proves.
func goNewOSProcWhy(t string) string {
	k := strings.Index(t, "errno=")
	n := k + len("errno=")
	e := n
	for k >= 0 && e < len(t) && t[e] >= '0' && t[e] <= '9' {
		e++
	}
	errno := ""
	if k >= 0 {
		errno = t[n:e]
	}
	switch errno {
	case "11":
		return "the Go runtime could not start another OS thread (runtime/os_linux.go newosproc: clone failed EAGAIN): a limit on tasks, the user's RLIMIT_NPROC (ulimit -u, LimitNPROC), a pids cgroup's pids.max or kernel.threads-max, not memory; the program exits with \"fatal error: newosproc\"; headroom has no reader for this log"
	case "12":
		return "the Go runtime could not start another OS thread (runtime/os_linux.go newosproc: clone failed ENOMEM): the new thread's stack or the kernel's task structures could not be had (the address space, overcommit's commit limit, or memory short); the program exits by itself, no kill by the kernel's OOM killer; headroom has no reader for this log"
	}
	return "the Go runtime could not start another OS thread (runtime/os_linux.go newosproc: clone failed with errno=N; 11 EAGAIN is a task limit such as ulimit -u or pids.max, 12 ENOMEM memory for the thread): the program exits with \"fatal error: newosproc\"; headroom has no reader for this log"
}

// langRuntimeLine says why t is a language runtime's own record of this file.
func langRuntimeLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false
	}
	if goGCTraceLine(t) {
		return goGCTraceWhy, true
	}
	if bunCrashHeaderLine(t) {
		return bunCrashHeaderWhy, true
	}
	if strings.Contains(t, goNewOSProcPrefix) {
		return goNewOSProcWhy(t), true
	}
	if strings.Contains(t, "runtime: may need to increase max user processes (ulimit -u)") {
		return "the Go runtime's hint after a clone failed EAGAIN (runtime/os_linux.go newosproc): the user's RLIMIT_NPROC, a pids cgroup or kernel.threads-max, a limit on tasks, not memory; headroom has no reader for this log", true
	}
	if strings.TrimSpace(t) == "fatal error: newosproc" {
		return "the Go runtime exits because it could not start an OS thread (runtime/os_linux.go newosproc; the line before says the errno): the program's own exit, no kill by the kernel; headroom has no reader for this log", true
	}
	return "", false
}

// langRuntimeRecord says why t, a line under any log prefix (a syslog tag, an RFC 3339
// stamp and level of Rust's tracing, a supervisor's), is a language runtime's own record:
// Node's errno shapes, Rust's io::Error (Debug "Os { code: N, ... }" or Display "(os error
// N)"), Go's gctrace, Bun's crash header. Other programs' errno lines keep their tags' readers.
func langRuntimeRecord(t string) (string, bool) {
	if why, ok := nodeErrnoLine(t); ok {
		return why, true
	}
	if strings.Contains(t, "Os { code: ") || strings.Contains(t, " (os error ") {
		if why, ok := errnoLogLine(t); ok {
			return why, true
		}
	}
	return langRuntimeLine(t)
}

// langRuntimeHanded: another program's syslog line (a tag, or an RFC 3339 stamp whose first
// words were taken for a host and a tag) that holds one of langRuntimeNeedles, which
// langRuntimeRecord may name: one bit test per line; a line whose needles are not known is
// searched. Rust's errno records and Node's ENOBUFS and ENOMEM are read under a tag; Go's
// gctrace, Bun's header and Node's EMFILE only bare, fenced, quoted or under compose's prefix.
func langRuntimeHanded(l *Line, needles uint32) bool {
	if l.Kernel || !l.Syslog || needles&langRuntimeNeedles == 0 {
		return false
	}
	if needles != anyNeedle {
		return true
	}
	for _, n := range []needleID{needleOsError, needleRustOs, needleENO} {
		if strings.Contains(l.Text, needleText[n]) {
			return true
		}
	}
	return false
}
