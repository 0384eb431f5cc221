package artifact

import "strings"

// Job and worker servers' and geodata programs' own memory and time limits (h38b, read
// from each program's source before round 38 was seen). Each line is the program's own
// limit or its own failed allocation, never the kernel's OOM killer or a statement of the
// host's memory: Odoo's worker limits (limit_memory_soft, limit_time_cpu,
// limit_time_real), RQ's (Frappe/ERPNext's) notice of a work horse that died, Overpass
// API's query that passed its own address-space limit, GDAL's/MapServer's and InnoDB's
// failed allocations. Each is listed as unread with what it proves and its figures kept as
// program_limit (programFigureForms); nothing is diagnosed from it (issue 29: a program's
// configured limit is no event of the host's).
//
// Gated: jobWorkerOwnLine returns at once for a line without jobWorkerGate's bytes, then
// asks each form's fixed needle with strings.Index. No regexp.

// jobWorkerForms: the forms, each format string as its program's source prints it.
var jobWorkerForms = []ownLineForm{
	// Odoo odoo/service/server.py Worker.check_limits: past limit_memory_soft the worker
	// logs _logger.info('Worker (%d) virtual memory limit (%s) reached.', self.pid, vms)
	// ("virtual real memory limit" in later releases) and recycles itself after the
	// request (self.alive = False); the figure is the worker's own size, not the limit.
	{") virtual real memory limit (", ") reached", true, "Odoo's own per-worker memory limit (odoo/service/server.py Worker.check_limits: \"Worker (PID) virtual real memory limit (N) reached.\", N the worker's size past limit_memory_soft): Odoo recycles the worker itself after its request; a configured limit of Odoo's, no kill by the kernel's OOM killer and no statement about the host's free memory (past limit_memory_hard, the worker's RLIMIT_AS, Python raises MemoryError)"},
	{") virtual memory limit (", ") reached", true, "Odoo's own per-worker memory limit (odoo/service/server.py Worker.check_limits: \"Worker (PID) virtual memory limit (N) reached.\", N the worker's virtual size past limit_memory_soft): Odoo recycles the worker itself after its request; a configured limit of Odoo's, no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// Odoo ThreadedServer.process_limit: _logger.warning("Server memory limit (%s)
	// reached.", memory): the threaded server's size past limit_memory_soft; it restarts.
	{"Server memory limit (", ") reached", true, "Odoo's own memory limit in threaded mode (odoo/service/server.py ThreadedServer.process_limit: \"Server memory limit (N) reached.\", N the server's size past limit_memory_soft): Odoo restarts itself; a configured limit of Odoo's, no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// Odoo Worker's SIGXCPU handler: _logger.info('Worker (%d) CPU time limit (%s)
	// reached.', self.pid, config['limit_time_cpu']) and raises in the request: the
	// worker's RLIMIT_CPU set from limit_time_cpu; the figure is the setting.
	{") CPU time limit (", ") reached", false, "Odoo's own per-request CPU limit (odoo/service/server.py: \"Worker (PID) CPU time limit (N) reached.\", N is limit_time_cpu in seconds, enforced by RLIMIT_CPU and SIGXCPU): the request used more CPU than Odoo allows and was stopped by Odoo; a configured limit, not memory and not the kernel's network"},
	// Odoo PreforkServer.process_timeout: _logger.error("%s (%s) timeout after %ss",
	// worker.__class__.__name__, pid, worker.watchdog_timeout), then worker_kill(pid,
	// SIGKILL): Odoo's own SIGKILL after limit_time_real.
	{"WorkerHTTP (", ") timeout after ", false, "Odoo's master killed an HTTP worker past its wall-clock limit (odoo/service/server.py PreforkServer.process_timeout: \"WorkerHTTP (PID) timeout after Ns\", N is limit_time_real, then SIGKILL from Odoo itself): a configured limit of Odoo's; the SIGKILL is Odoo's, not the kernel's OOM killer"},
	{"WorkerCron (", ") timeout after ", false, "Odoo's master killed a cron worker past its wall-clock limit (odoo/service/server.py PreforkServer.process_timeout: \"WorkerCron (PID) timeout after Ns\", limit_time_real_cron, then SIGKILL from Odoo itself): a configured limit of Odoo's, not the kernel's OOM killer"},
	// Overpass API src/overpass_api/dispatch/... (osm3s_query main): on std::bad_alloc it
	// reads getrlimit(RLIMIT_AS) and reports "Query run out of memory using about N MB of
	// RAM."; the resource manager's "Query ran out of memory in \"S\" at line L. It would
	// need at least N MB of RAM to continue." is the query passing its [maxsize:] limit.
	{"Query run out of memory using about ", " MB of RAM", true, "Overpass API's query passed its own memory limit (osm3s_query: on std::bad_alloc, \"Query run out of memory using about N MB of RAM.\", N the query's RLIMIT_AS that Overpass sets from [maxsize:]): the server's per-query limit, no kill by the kernel's OOM killer and no statement about any host's memory size (a public instance's answer is another machine's)"},
	{"Query ran out of memory in ", " MB of RAM to continue", true, "Overpass API's query passed its own [maxsize:] limit (resource_manager: \"Query ran out of memory in \\\"S\\\" at line L. It would need at least N MB of RAM to continue.\"): the query's limit, not the host's memory; N is what the query would need, no memory figure of a host's"},
	// GDAL port/cpl_conv.cpp CPLMalloc/CPLRealloc: VSIMalloc returned NULL: CPLError(CE_Fatal,
	// CPLE_OutOfMemory, "CPLMalloc(): Out of memory allocating %ld bytes."), printed as
	// "ERROR 2: ..."; MapServer's msSmallMalloc prints the same words.
	{"Out of memory allocating ", " bytes", true, "a program's own allocation failed (GDAL's port/cpl_conv.cpp CPLMalloc: \"CPLMalloc(): Out of memory allocating N bytes.\", MapServer's msSmallMalloc alike): malloc returned NULL for a request of N bytes (the process's address space, RLIMIT_AS, a cgroup or the commit limit under vm.overcommit_memory 2; a huge N is a corrupt size); the program exits by itself: no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// h42b: GDAL port/cpl_vsisimple.cpp VSIMallocVerbose, VSIMalloc2Verbose,
	// VSIMalloc3Verbose, VSIReallocVerbose: CPLError(CE_Failure, CPLE_OutOfMemory, "%s, %d:
	// cannot allocate " CPL_FRMT_GUIB " bytes", __FILE__, __LINE__, size) (VSICallocVerbose:
	// "... cannot allocate NxM bytes"), printed "ERROR 2: FILE, LINE: cannot allocate N
	// bytes" (2 is CPLE_OutOfMemory).
	{": cannot allocate ", " bytes", true, "GDAL's own allocation failed (port/cpl_vsisimple.cpp VSIMallocVerbose and its kin: \"FILE, LINE: cannot allocate N bytes\", CPLE_OutOfMemory, printed \"ERROR 2: ...\"): malloc returned NULL for a request of N bytes (the process's address space, RLIMIT_AS, a cgroup or the commit limit under vm.overcommit_memory 2; a huge N is a corrupt or oversized raster's size); the operation failed by itself: no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// h42b: MapServer src/maperror.c msSetErrorInternal logs msDebug("%s: %s %s\n", routine,
	// ms_errorCodes[code], message); ms_errorCodes[MS_MEMERR] is "Memory allocation error."
	// (msSetError(MS_MEMERR, "Unable to allocate temporary point cache.",
	// "msOGRLayerNextShape()"), mapdrawgdal.c's "%s: %d: Out of memory allocating %u bytes.").
	{"(): Memory allocation error.", "", true, "MapServer's own allocation failed (src/maperror.c: \"ROUTINE(): Memory allocation error. MESSAGE\", MS_MEMERR, logged by msDebug to MS_ERRORFILE): a malloc in MapServer or a library it called returned NULL (the process's address space, RLIMIT_AS, a cgroup or the commit limit; a huge map SIZE or raster asks for much); the request failed by itself: no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// MariaDB/MySQL InnoDB ut0new ut_allocator::allocate: after its retries, "Cannot
	// allocate %zu bytes of memory after %u retries over %u seconds. OS error: %s (%d).
	// Check if you should increase the swap file or ulimits of your operating system. Note
	// that on most 32-bit computers the process memory space is limited to 2 GB or 4 GB."
	{"InnoDB: Cannot allocate ", " bytes of memory", true, "InnoDB's own allocation failed (ut0new ut_allocator::allocate: \"Cannot allocate N bytes of memory after R retries over S seconds. OS error: ...\"): malloc returned NULL for N bytes (the process's address space, RLIMIT_AS, a cgroup or the commit limit); its advice about swap, ulimits and 32-bit computers is InnoDB's boilerplate, not this host's; no kill by the kernel's OOM killer"},
	// osm2pgsql node-ram-cache.cpp (before 1.4): fprintf(stderr, "Node-cache: cache=%dMB,
	// maxblocks=%d*%zd, allocation method=%i\n"): the -C/--cache it was given, in MB.
	{"Node-cache: cache=", "MB, maxblocks=", false, "osm2pgsql's own node cache (node-ram-cache.cpp: \"Node-cache: cache=NMB, maxblocks=..., allocation method=M\"): N is its --cache (-C) setting in MB, the memory it will take for node locations; a setting of the program's, no failure and no statement about the host's memory (a std::bad_alloc after it is the cache's allocation refused)"},
	// fix43b (corpus 3644): Odoo's own PostgreSQL connection pool, odoo/sql_db.py
	// ConnectionPool: _debug logs "%r " + msg with __repr__'s "ConnectionPool(used=%d/count=%d/
	// max=%d)" (connections borrowed, held, and _maxconn from db_maxconn) before each borrow
	// and give-back ("Create new connection", "Borrow existing connection to %r at index %d");
	// borrow raises PoolError("The Connection Pool Is Full") when used reaches max.
	{"ConnectionPool(used=", "/max=", false, odooPoolWhy},
	{"The Connection Pool Is Full", "", false, odooPoolWhy},
	// PostgreSQL src/backend/postmaster/postmaster.c HandleChildCrash: after a backend
	// ended abnormally (the line before names its signal or exit code): "terminating any
	// other active server processes", then PostmasterStateMachine "all server processes
	// terminated; reinitializing"; each backend's quickdie (tcop/postgres.c) "terminating
	// connection because of crash of another server process".
	{"terminating any other active server processes", "", false, "PostgreSQL's postmaster restarts every backend after one ended abnormally (postmaster.c HandleChildCrash: \"terminating any other active server processes\"): the consequence of that backend's end, which the line before it names (\"server process (PID N) was terminated by signal 9: Killed\" is a SIGKILL, whose sender the kernel's own kill line would say); no memory figure and no kill of its own"},
	{"all server processes terminated; reinitializing", "", false, "PostgreSQL's postmaster reinitializes after a backend's abnormal end (postmaster.c: \"all server processes terminated; reinitializing\"): crash recovery follows; the consequence of the backend's end, no memory figure"},
	{"terminating connection because of crash of another server process", "", false, "a PostgreSQL backend ends because the postmaster told it to after another backend's abnormal end (tcop/postgres.c quickdie: \"terminating connection because of crash of another server process\"): the consequence, not the cause; no memory figure"},
}

// odooPoolWhy: what Odoo's connection-pool line proves (fix43b).
const odooPoolWhy = "Odoo's own PostgreSQL connection pool (odoo/sql_db.py ConnectionPool: \"ConnectionPool(used=U/count=C/max=M)\" logged at debug before each borrow and give-back, M the pool's maxconn from db_maxconn; at used=max borrow raises PoolError(\"The Connection Pool Is Full\")): connections of Odoo's process to its database, an application-level limit; not a kernel listen queue, conntrack table, socket buffer or memory figure; headroom has no reader for Odoo's log"

// odooPoolRepr: rest, after "ConnectionPool(used=", is the repr's "N/count=N/max=N)" and
// then nothing or _debug's message, which Odoo's source starts with a capital ("Create new
// connection", "Borrow existing connection to ...", "Give back connection to ..."): a
// sentence that quotes the repr goes on in lower case or asks.
func odooPoolRepr(rest string) bool {
	e := strings.IndexByte(rest, ')')
	if e < 0 || !startsWithDigit(rest) || !strings.Contains(rest[:e], "/count=") || !endsWithDigit(rest[:e]) {
		return false
	}
	msg := rest[e+1:]
	if strings.HasSuffix(strings.TrimSpace(msg), "?") {
		return false
	}
	return msg == "" || len(msg) > 1 && msg[0] == ' ' && msg[1] >= 'A' && msg[1] <= 'Z'
}

// pgContextStats: PostgreSQL's memory-context statistics, src/backend/utils/mmgr/aset.c
// AllocSetStats "%zu total in %zu blocks; %zu free (%zu chunks); %zu used" after the
// context's name (mcxt.c MemoryContextStatsPrint, to stderr when a backend's allocation
// fails, or in the log from pg_log_backend_memory_contexts: "level: N; NAME: ..."), and
// MemoryContextStats' "Grand total: %zu bytes in %zu blocks; %zu free (%zu chunks); %zu
// used".
const pgContextStatsWhy = "PostgreSQL's memory-context statistics (src/backend/utils/mmgr/mcxt.c MemoryContextStats, aset.c: \"NAME: N total in B blocks; F free (C chunks); U used\", \"Grand total: N bytes in ...\"), printed to stderr when a backend's allocation fails or by pg_log_backend_memory_contexts: one backend's own memory by context, the backend's figures, not the host's; headroom has no reader for it"

// pgContextStatsLine: t is one line of pgContextStats.
func pgContextStatsLine(t string) bool {
	k := strings.Index(t, " blocks; ")
	if k < 0 || !strings.Contains(t[k:], " free (") || !strings.Contains(t[k:], " chunks); ") || !strings.Contains(t[k:], " used") {
		return false
	}
	return strings.Contains(t[:k], " total in ") || strings.Contains(t[:k], "Grand total: ")
}

// jobWorkerGate: bytes one of which every form holds (')' Odoo's (its pool's repr too, and
// 'I' its "Pool Is Full"), 'Q' Overpass's, 'O'
// "Out of memory", 'I' InnoDB, 'W' RQ's "Work-horse", 'N' osm2pgsql's "Node-cache", 'v'
// PostgreSQL's "active server", "connection" and "reinitializing", ';' its context
// statistics; MapServer's "ROUTINE(): Memory allocation error." holds ')'; GDAL's "FILE,
// LINE: cannot allocate" none, gdalVerboseNeedle is asked instead, h42b).
const jobWorkerGate = ")QOIWNv;"

// gdalVerboseNeedle: GDAL's VSI*Verbose failure, "FILE, LINE: cannot allocate N bytes" (h42b).
const gdalVerboseNeedle = ": cannot allocate "

// rqHorseNeedle: RQ worker.py monitor_work_horse, a horse that ended without reporting:
// exc_string = f"Work-horse terminated unexpectedly; waitpid returned {ret_val}{signal_msg}; "
// with signal_msg " (signal N)" when WIFSIGNALED (Frappe/ERPNext's background jobs).
const rqHorseNeedle = "Work-horse terminated unexpectedly; waitpid returned "

// jobWorkerOwnLine says why t is one of jobWorkerForms' messages or RQ's dead horse, and
// whether it is the program's own out-of-memory.
func jobWorkerOwnLine(t string) (why string, oom, ok bool) {
	if strings.IndexAny(t, jobWorkerGate) < 0 && !strings.Contains(t, gdalVerboseNeedle) {
		return "", false, false
	}
	if pgContextStatsLine(t) {
		return pgContextStatsWhy, false, true
	}
	if k := strings.Index(t, rqHorseNeedle); k >= 0 {
		return rqHorseWhy(t[k+len(rqHorseNeedle):]), false, true
	}
	for k := range jobWorkerForms {
		f := &jobWorkerForms[k]
		i, rest, ok := f.find(t)
		if !ok {
			continue
		}
		switch f.needle[0] {
		case ')':
			if !strings.Contains(t[:i], "Worker (") || !endsWithDigit(t[:i]) {
				continue // Odoo's "Worker (PID) ... limit (N) reached"
			}
		case 'C':
			if f.needle2 != "" && !odooPoolRepr(rest) {
				continue // "ConnectionPool(used=N/count=N/max=N)" then _debug's message
			}
		case 'O', 'I':
			if !startsWithDigit(rest) {
				continue // "Out of memory allocating N bytes": the request's size follows
			}
		case ':':
			if !startsWithDigit(rest) || !gdalFileLine(t[:i]) {
				continue // GDAL's "FILE, LINE: cannot allocate N bytes" (h42b)
			}
		case '(':
			if i == 0 || !isIdentByte(t[i-1]) || strings.HasSuffix(strings.TrimSpace(t), "?") {
				continue // MapServer's "ROUTINE(): Memory allocation error." (h42b)
			}
		}
		return f.why, f.oom, true
	}
	return "", false, false
}

// gdalFileLine: head ends with GDAL's VSI*Verbose "FILE, LINE" (h42b): a source file's
// name, a comma, a space and the line's number.
func gdalFileLine(head string) bool {
	c := strings.LastIndex(head, ", ")
	if c <= 0 || !isDigits(head[c+2:]) {
		return false
	}
	return strings.HasSuffix(head[:c], ".cpp") || strings.HasSuffix(head[:c], ".c") || strings.HasSuffix(head[:c], "(unknown file)")
}

// rqHorseWhy: what RQ's dead-horse notice proves, by the wait status it printed.
func rqHorseWhy(rest string) string {
	if strings.HasPrefix(rest, "9 ") || strings.HasPrefix(rest, "9;") || strings.Contains(rest, "(signal 9)") {
		return "RQ's worker found its work horse killed by SIGKILL (rq worker.py monitor_work_horse: \"Work-horse terminated unexpectedly; waitpid returned 9 (signal 9)\", Frappe/ERPNext's background jobs): the kernel's OOM killer or a memory cgroup's sends SIGKILL, and so does RQ itself when a job passes its timeout (kill_horse) and any kill -9; the kernel's own kill line (\"Out of memory: Killed process\" or \"Memory cgroup out of memory\") would say which and is not this line; headroom has no reader for RQ's log"
	}
	return "RQ's worker found its work horse ended without reporting (rq worker.py monitor_work_horse: \"Work-horse terminated unexpectedly; waitpid returned N\", N the raw wait status, \"(signal S)\" when a signal ended it: 11 a crash, 6 an abort): the job's own process died, not by SIGKILL; no statement about the host's memory; headroom has no reader for RQ's log"
}
