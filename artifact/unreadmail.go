package artifact

import (
	"fmt"
	"strings"

	"headroom/model"
)

// Mail and chat servers' own lines (pre-round 22, h22a; every format string read in the
// program's source). Postfix's master reaping a child killed by a signal, Dovecot's master
// reaping a service's child, rspamd's main process reaping a worker: none says who sent the
// signal, and SIGKILL is what the kernel's OOM killer sends but also any kill -9, a
// supervisor's stop or a memory cgroup's killer. Postfix's mymalloc, Exim's store, Dovecot's
// data stack, libclamav's cli_malloc and the Erlang VM's erts_alloc report their own
// allocation refused (malloc or mmap returned NULL: the process's address space, RLIMIT_AS
// such as Dovecot's vsz_limit, or the host's commit accounting) and the program exits by
// itself: no kill by the kernel's OOM killer. A paste of only such lines held nothing
// headroom read (exit 3); each is named unread with what it proves, nothing is diagnosed
// from it, and oom-kill stays not checked unless the kernel's own kill line is in the text.
//
// Gated: mailOwnLine runs where serverOwnLine runs (prose lines, and the syslog lines of
// isServerTag's tags, which isMailTag extends); each form is one strings.Index of its fixed
// words, then a check of the figure the format prints beside them. No regexp.

const notKernelKill = "; oom-kill is not checked from this line: the kernel's own kill line (\"Out of memory: Killed process N\", \"Memory cgroup out of memory\") would prove the kernel's OOM killer sent it and is not this line; headroom has no reader for this log"

const sigkillWhyTail = ": SIGKILL is what the kernel's OOM killer (the host's or a memory cgroup's) sends, and so does any kill -9, a supervisor's or a container runtime's stop" + notKernelKill

const ownAllocTail = "; the program exits by itself: no kill by the kernel's OOM killer and no statement about the host's free memory (the process's address space, RLIMIT_AS or the host's commit accounting refused the request); headroom has no reader for this log"

// mailOwnLine says why t is one of the mail and chat servers' own lines, and whether it is
// the program's own out-of-memory.
func mailOwnLine(t string) (why string, oom, ok bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false, false
	}
	if why, ok := dovecotSigDie(t); ok {
		return why, false, true // Dovecot's "Killed with signal 15 (by pid=1 ...)" (fix51aown.go)
	}
	if why, ok := clamLoadMem(t); ok {
		return why, true, true // libclamav's "Can't load PATH: Can't allocate memory" (fix51aown.go)
	}
	// Postfix src/master/master_spawn.c master_reap_child: msg_warn("process %s pid %d
	// killed by signal %d", serv->path, pid, WTERMSIG(status)), "... exit status %d", and
	// msg_warn("%s: bad command startup -- throttling", serv->path).
	if k := strings.Index(t, " killed by signal "); k > 0 {
		sig := leadingDigits(t[k+len(" killed by signal "):])
		if p := strings.Index(t[:k], "process "); p >= 0 && sig != "" && pidBefore(t[p:k]) {
			if sig == "9" {
				return "Postfix's master reaped a child killed by signal 9 (src/master/master_spawn.c: \"process PATH pid N killed by signal 9\")" + sigkillWhyTail, false, true
			}
			return "Postfix's master reaped a child killed by signal " + sig + " (src/master/master_spawn.c: \"process PATH pid N killed by signal S\"): 11 SIGSEGV and 6 SIGABRT are the program's crash, 15 SIGTERM a stop; not SIGKILL, so no kill by the kernel's OOM killer; headroom has no reader for this log", false, true
		}
	}
	if k := strings.Index(t, " exit status "); k > 0 && leadingDigits(t[k+len(" exit status "):]) != "" {
		if p := strings.Index(t[:k], "process "); p >= 0 && pidBefore(t[p:k]) {
			return "Postfix's master reaped a child that exited by itself with a status (src/master/master_spawn.c: \"process PATH pid N exit status S\"): the child's own \"fatal:\" line says why; no signal, so no kill by the kernel's OOM killer; headroom has no reader for this log", false, true
		}
	}
	if strings.Contains(t, ": bad command startup -- throttling") {
		return "Postfix's master throttles a service whose child died before serving a request (src/master/master_spawn.c: \"PATH: bad command startup -- throttling\"); the lines before it say how the child ended; headroom has no reader for this log", false, true
	}
	// Postfix src/master/{single,multi,event}_server.c: msg_error (msg_warn before 3.x)
	// "accept connection: %m"; src/util/events.c: msg_warn("could allocate space for only %d
	// open files", event_fdlimit).
	if k := strings.Index(t, "accept connection: "); k >= 0 {
		if why, ok := errnoTextWhy(t[k+len("accept connection: "):]); ok {
			return why, false, true
		}
	}
	// src/master/master_spawn.c master_spawn: msg_warn("%s: fork: %m -- throttling", myname).
	if k := strings.Index(t, "master_spawn: fork: "); k >= 0 {
		if _, ok := errnoTextWhy(t[k+len("master_spawn: fork: "):]); ok {
			return "Postfix's master could not fork a service's child and throttles the service (src/master/master_spawn.c: \"master_spawn: fork: ERRNO -- throttling\"): ENOMEM is the kernel refusing to commit a copy of the master's memory (vm.overcommit_memory 2 and CommitLimit, or mode 0's heuristic with RAM and swap short, or a memory cgroup), EAGAIN a process limit; no kill by the kernel's OOM killer; overcommit-exposed would need `grep -E 'Committed_AS|CommitLimit' /proc/meminfo; sysctl vm.overcommit_memory`", false, true
		}
	}
	if k := strings.Index(t, "could allocate space for only "); k >= 0 && strings.HasSuffix(strings.TrimSpace(t), " open files") {
		return "Postfix's event loop was sized below its wish by the process's descriptor limit (src/util/events.c: \"could allocate space for only N open files\", RLIMIT_NOFILE): a descriptor limit, not memory; headroom has no rule for a program's descriptor limit", false, true
	}
	// Postfix src/util/mymalloc.c: msg_fatal("mymalloc: insufficient memory for %ld bytes:
	// %m", len) (and myrealloc).
	if k := strings.Index(t, "alloc: insufficient memory for "); k >= 4 && leadingDigits(t[k+len("alloc: insufficient memory for "):]) != "" {
		return "Postfix's own allocation failed (src/util/mymalloc.c: \"mymalloc: insufficient memory for N bytes: Cannot allocate memory\", a fatal: the process exits and the master restarts it)" + ownAllocTail, true, true
	}
	// Dovecot src/master/service-process.c service_process_get_status_error: "service(%s):
	// child %s killed with signal %d", then log_coredump's " (core dumped)", " (core dumps
	// disabled ...)" or " (core not dumped ...)".
	if k := strings.Index(t, " killed with signal "); k > 0 && strings.Contains(t[:k], "service(") && strings.Contains(t[:k], "): child ") {
		sig := leadingDigits(t[k+len(" killed with signal "):])
		if sig == "9" {
			return "Dovecot's master reaped a service's child killed by signal 9 (src/master/service-process.c: \"service(NAME): child N killed with signal 9\")" + sigkillWhyTail, false, true
		}
		if sig != "" {
			return "Dovecot's master reaped a service's child killed by signal " + sig + " (src/master/service-process.c: \"service(NAME): child N killed with signal S\"): 6 SIGABRT is Dovecot's own panic (i_panic; the \"Panic:\" line before it says why), 11 SIGSEGV a crash; not SIGKILL, so no kill by the kernel's OOM killer; headroom has no reader for this log", false, true
		}
	}
	// Dovecot src/lib/data-stack.c mem_block_alloc: i_panic("data stack: Out of memory when
	// allocating %zu bytes"); src/lib/mempool-allocfree.c: "calloc(1, %zu): Out of memory".
	if k := strings.Index(t, "data stack: Out of memory when allocating "); k >= 0 {
		return "Dovecot's data stack could not grow (src/lib/data-stack.c: \"data stack: Out of memory when allocating N bytes\", a panic) inside the service's vsz_limit, the address-space limit (RLIMIT_AS) Dovecot sets per process" + ownAllocTail, true, true
	}
	// Dovecot src/lib/failures.c: i_error("Raw backtrace: %s") after a panic or a fatal.
	if k := strings.Index(t, "Raw backtrace: "); k >= 0 && strings.Contains(t[k:], " -> ") {
		return "Dovecot's backtrace of the panic or fatal error logged before it (src/lib/failures.c: \"Raw backtrace: FRAME -> FRAME ...\"): code addresses, no figure and no statement about memory; headroom has no reader for this log", false, true
	}
	// Exim src/src/store.c: log_write_die(..., "failed to malloc %d bytes of memory: called
	// from line %d in %s") and "failed to alloc (using posix_memalign) %d bytes of memory".
	for _, n := range []string{"failed to malloc ", "failed to alloc (using posix_memalign) "} {
		if k := strings.Index(t, n); k >= 0 {
			if rest := t[k+len(n):]; leadingDigits(rest) != "" && strings.Contains(rest, " bytes of memory") {
				return "Exim's own allocation failed (src/src/store.c: \"failed to malloc N bytes of memory: called from line L in FILE\", written to the panic log; the process dies)" + ownAllocTail, true, true
			}
		}
	}
	// Exim src/src/daemon.c handle_smtp_call: "Connection from %s refused: too many
	// connections" (smtp_accept_max), "... from that IP address" (smtp_accept_max_per_host).
	if k := strings.Index(t, " refused: too many connections"); k > 0 && strings.Contains(t[:k], "onnection from ") {
		return "Exim's own connection limit (src/src/daemon.c: \"Connection from H refused: too many connections\", smtp_accept_max, or smtp_accept_max_per_host with \"from that IP address\"; the client got 421): the daemon's setting, not memory or the kernel's listen queue; headroom has no rule for a program's connection limit", false, true
	}
	// Exim src/src/queue.c queue_run: "Start queue run: pid=%d", "End queue run: pid=%d".
	if k := strings.Index(t, " queue run: pid="); k >= 0 {
		return "Exim's routine queue runner start or end (src/src/queue.c: \"Start queue run: pid=N\", \"End queue run: pid=N\"): no failure and no figure of memory or the network", false, true
	}
	// libclamav others_common.c cli_max_malloc / cli_max_calloc, mpool.c mpool_malloc:
	// cli_errmsg("FN(): Can't allocate memory (%lu bytes).\n") printed as "LibClamAV Error:
	// ..."; clamd.c "Database initialization error: %s" with cl_strerror(CL_EMEM).
	if k := strings.Index(t, "Can't allocate memory"); k >= 0 {
		rest := t[k+len("Can't allocate memory"):]
		if strings.HasPrefix(rest, " (") && leadingDigits(rest[2:]) != "" && (strings.Contains(t[:k], "LibClamAV") || strings.HasSuffix(t[:k], "(): ")) {
			return "libclamav's own allocation failed (others_common.c / mpool.c: \"LibClamAV Error: cli_malloc(): Can't allocate memory (N bytes).\"): clamd loading its signature databases (about 1 GB resident, twice during a reload without ConcurrentDatabaseReload no) or scanning a file asked for more than it was given" + ownAllocTail, true, true
		}
		if strings.HasSuffix(t[:k], "Database initialization error: ") {
			return "clamd could not load its signature databases for want of memory (clamd.c: \"Database initialization error: Can't allocate memory\", cl_strerror(CL_EMEM)): libclamav's own allocation failed" + ownAllocTail, true, true
		}
	}
	// rspamd src/libserver/worker_util.c rspamd_check_termination_clause: "%s process %P
	// terminated abnormally [with exit code %d ]by signal: %s" with g_strsignal's text
	// ("Killed" for SIGKILL).
	if k := strings.Index(t, " terminated abnormally "); k > 0 && pidBefore(t[:k]) {
		if j := strings.Index(t[k:], "by signal: "); j >= 0 {
			sig := t[k+j+len("by signal: "):]
			if strings.HasPrefix(sig, "Killed") {
				return "rspamd's main process reaped a worker killed by SIGKILL (src/libserver/worker_util.c: \"TYPE process N terminated abnormally ... by signal: Killed\")" + sigkillWhyTail, false, true
			}
			return "rspamd's main process reaped a worker killed by a signal other than SIGKILL (src/libserver/worker_util.c: \"TYPE process N terminated abnormally ... by signal: S\"): a crash or a stop, no kill by the kernel's OOM killer; headroom has no reader for this log", false, true
		}
	}
	// Erlang erts/emulator/beam/erl_alloc.c erts_alloc_n_enomem: erts_exit(ERTS_DUMP_EXIT,
	// "%s: Cannot %s %lu bytes of memory (of type \"%s\").\n") (allocate or reallocate;
	// before R13 "Cannot %s %lu bytes of memory (of type %d, thread %d)."), then
	// "Crash dump is being written to: %s..." (erl_crash.dump).
	for _, n := range []string{"Cannot allocate ", "Cannot reallocate "} {
		if k := strings.Index(t, n); k >= 0 {
			rest := t[k+len(n):]
			if d := leadingDigits(rest); d != "" && strings.HasPrefix(rest[len(d):], " bytes of memory (of type ") {
				return "the Erlang VM's own allocator was refused (erts/emulator/beam/erl_alloc.c: \"eheap_alloc: Cannot allocate N bytes of memory (of type \\\"heap\\\").\"): one request of the BEAM (ejabberd's, RabbitMQ's, CouchDB's) could not be mapped and the VM aborted itself writing erl_crash.dump; a process heap of gigabytes is one Erlang process's runaway mailbox or state" + ownAllocTail, true, true
			}
		}
	}
	if k := strings.Index(t, "Crash dump is being written to: "); k >= 0 {
		return "the Erlang VM writes its crash dump as it exits (erts: \"Crash dump is being written to: erl_crash.dump...done\"); its \"Slogan:\" line says why, an allocator's \"Cannot allocate N bytes of memory\" when the VM's own allocation failed; no kill by the kernel's OOM killer (a SIGKILL leaves no dump); headroom has no reader for this log", false, true
	}
	return "", false, false
}

// errnoTextWhy: rest begins with one of errnoReasons' strerror texts (a program's "%m").
func errnoTextWhy(rest string) (string, bool) {
	if en := errnoTranslations[strings.TrimRight(rest, " .)")]; en != "" {
		return errnoWhyOf(en) // strerror in the locale's words (errno_locales.go)
	}
	for _, e := range errnoReasons {
		if strings.HasPrefix(rest, e.text) {
			return e.why, true
		}
	}
	return "", false
}

// pidBefore: head ends in " pid N" (Postfix) or "process N" (rspamd): a pid, the reaped child.
func pidBefore(head string) bool {
	head = strings.TrimRight(head, " ")
	n := len(head)
	for n > 0 && head[n-1] >= '0' && head[n-1] <= '9' {
		n--
	}
	if n == len(head) {
		return false
	}
	return strings.HasSuffix(head[:n], " pid ") || strings.HasSuffix(head[:n], "process ")
}

// mailRecordWhy: a mail or chat server's line under its own tag that no form above names:
// Postfix's connect/disconnect, a message's queue ID with its from=, to= and status=, a
// reject; Dovecot's logins; clamd's scan results. The mail flow, named so that a paste of
// only such lines is read (no exit 3); nothing is diagnosed from it.
// A record whose message ends in a system call's strerror (Postfix's and Dovecot's "%m":
// "fatal: socket: No buffer space available", no digit for errnoLogLine) is named by its
// errno instead.
func mailRecordWhy(t string) string {
	for _, e := range errnoReasons {
		if strings.Contains(t, ": "+e.text) {
			return e.why
		}
	}
	return mailFlowWhy
}

const mailFlowWhy = "a mail or chat server's own log record under its tag (Postfix's connections, a message's queue ID and delivery status, a reject; Dovecot's logins; clamd's and rspamd's scans): the mail flow, no memory figure and no kernel counter; headroom has no reader for this log"

// isMailTag: the syslog tags of the mail and chat servers: Postfix's "postfix/DAEMON" (and a
// second instance's "postfix-NAME/DAEMON"), Dovecot's, Exim's, ClamAV's, rspamd's,
// Prosody's and ejabberd's (beam.smp, erl).
func isMailTag(tag string) bool {
	switch tag {
	case "dovecot", "exim", "exim4", "clamd", "freshclam", "clamav-milter", "rspamd", "amavis", "amavisd",
		"prosody", "ejabberd", "ejabberdctl", "beam.smp", "erl":
		return true
	}
	return len(tag) > 8 && tag[0] == 'p' && strings.HasPrefix(tag, "postfix") && strings.IndexByte(tag, '/') > 0
}

// mailSigkillReporter: the server whose notice t is when mailOwnLine names it a SIGKILL.
func mailSigkillReporter(why string) (string, bool) {
	switch {
	case strings.HasPrefix(why, "Postfix's master reaped a child killed by signal 9"):
		return "Postfix's master (\"process PATH pid N killed by signal 9\")", true
	case strings.HasPrefix(why, "Dovecot's master reaped a service's child killed by signal 9"):
		return "Dovecot's master (\"service(NAME): child N killed with signal 9\")", true
	case strings.HasPrefix(why, "rspamd's main process reaped a worker killed by SIGKILL"):
		return "rspamd's main process (\"process N terminated abnormally ... by signal: Killed\")", true
	}
	return "", false
}

// sigkillNotice keeps line i as a server's notice of a child killed by SIGKILL (called on a
// line a reader named, after the example check).
func (d *doc) sigkillNotice(i int) {
	why, _, ok := mailOwnLine(d.ls[i].Text)
	if !ok {
		return
	}
	rep, ok := mailSigkillReporter(why)
	if !ok {
		return
	}
	d.addSigkillNotice(i, rep)
}

// addSigkillNotice keeps line i as rep's notice of a child killed by SIGKILL, one entry per
// reporter with its count.
func (d *doc) addSigkillNotice(i int, rep string) {
	d.addSigkillNoticeNo(d.ls[i].No, rep)
}

// addSigkillNoticeNo is addSigkillNotice for the text's line number no.
func (d *doc) addSigkillNoticeNo(no int, rep string) {
	for k := range d.tl.SigkillNotices {
		if d.tl.SigkillNotices[k].Reporter == rep {
			d.tl.SigkillNotices[k].Count++
			return
		}
	}
	d.tl.SigkillNotices = append(d.tl.SigkillNotices, model.RuntimeOOM{Reporter: rep, Count: 1, Source: fmt.Sprintf("line %d", no)})
}
