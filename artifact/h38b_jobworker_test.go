package artifact

import (
	"testing"
)

// h38b: job and worker servers' and geodata programs' own memory and time limits
// (unreadjobworker.go), written from each program's format string, before round 38 was
// seen; no snippet is copied from a case. Sources:
//   - Odoo odoo/service/server.py (Worker.check_limits, signal_time_expired_handler,
//     ThreadedServer.process_limit, PreforkServer.process_timeout):
//     https://github.com/odoo/odoo/blob/master/odoo/service/server.py
//   - RQ rq/worker.py monitor_work_horse: https://github.com/rq/rq/blob/master/rq/worker.py
//   - Overpass API osm3s_query (std::bad_alloc, getrlimit(RLIMIT_AS)) and its runtime
//     error table: https://github.com/drolbr/Overpass-API
//   - GDAL port/cpl_conv.cpp CPLMalloc: https://github.com/OSGeo/gdal/blob/master/port/cpl_conv.cpp
//   - MariaDB storage/innobase/include/ut0new.h ut_allocator::allocate:
//     https://github.com/MariaDB/server
//   - osm2pgsql node-ram-cache.cpp "Node-cache: cache=%dMB, maxblocks=...":
//     https://github.com/osm2pgsql-dev/osm2pgsql (before 1.4)
//   - PostgreSQL src/backend/utils/mmgr/mcxt.c and aset.c (context statistics, "Failed on
//     request of size"), src/backend/storage/ipc/dsm_impl.c, src/backend/postmaster/
//     postmaster.c HandleChildCrash: https://github.com/postgres/postgres
//   - MySQL/MariaDB mysys EE_OUTOFMEMORY "Out of memory (Needed %u bytes)".
func TestH38bJobWorkerOwnLimits(t *testing.T) {
	for _, c := range []struct {
		name, text, word, program, key string
		val                            int64
	}{
		{"odoo soft limit", "2026-11-30 10:12:01,123 1 INFO ? odoo.service.server: Worker (2345) virtual real memory limit (2684354560) reached.\n", "limit_memory_soft", "odoo", "worker_memory_bytes", 2684354560},
		{"odoo soft limit, older", "2026-11-30 10:12:01,123 1 INFO ? odoo.service.server: Worker (2345) virtual memory limit (2147483648) reached.\n", "limit_memory_soft", "odoo", "worker_vms_bytes", 2147483648},
		{"odoo threaded", "2026-11-30 10:12:01,123 1 WARNING ? odoo.service.server: Server memory limit (3221225472) reached.\n", "threaded mode", "odoo", "server_memory_bytes", 3221225472},
		{"odoo cpu", "2026-11-30 10:12:01,123 1 INFO ? odoo.service.server: Worker (2345) CPU time limit (60) reached.\n", "limit_time_cpu", "odoo", "limit_time_cpu_s", 60},
		{"odoo real time", "2026-11-30 10:12:01,123 1 ERROR ? odoo.service.server: WorkerHTTP (2345) timeout after 120s\n", "limit_time_real", "odoo", "limit_time_real_s", 120},
		{"rq sigkill", "10:12:01 Work-horse terminated unexpectedly; waitpid returned 9 (signal 9); \n", "killed by SIGKILL", "rq", "signal", 9},
		{"rq segfault", "10:12:01 Moving job to FailedJobRegistry (Work-horse terminated unexpectedly; waitpid returned 139 (signal 11); )\n", "not by SIGKILL", "rq", "wait_status", 139},
		{"overpass rlimit", "runtime error: Query run out of memory using about 2048 MB of RAM.\n", "RLIMIT_AS", "overpass", "rlimit_as_mb", 2048},
		{"overpass maxsize", "runtime error: Query ran out of memory in \"recurse\" at line 1. It would need at least 581 MB of RAM to continue.\n", "[maxsize:]", "overpass", "need_mb", 581},
		{"gdal", "ERROR 2: CPLMalloc(): Out of memory allocating 1073741824 bytes.\n", "CPLMalloc", "cpl (gdal, mapserver)", "request_bytes", 1073741824},
		{"osm2pgsql cache", "Node-cache: cache=24000MB, maxblocks=384000*65536, allocation method=11\n", "--cache", "osm2pgsql", "cache_mb", 24000},
		{"pg context dump", "TopMemoryContext: 109032 total in 8 blocks; 8632 free (11 chunks); 100400 used\n  ExecutorState: 4294975488 total in 527 blocks; 3456 free (14 chunks); 4294972032 used\nGrand total: 4295111000 bytes in 560 blocks; 24000 free (40 chunks); 4295087000 used\n", "memory-context statistics", "postgresql", "used_bytes", 4295087000},
		{"pg out of memory", "2026-11-30 10:12:01.123 UTC [4121] ERROR:  out of memory\n2026-11-30 10:12:01.123 UTC [4121] DETAIL:  Failed on request of size 8192 in memory context \"ExecutorState\".\n", "mcxt.c", "postgresql", "request_bytes", 8192},
		{"pg dsm", "2026-11-30 10:12:01.123 UTC [812] ERROR:  could not resize shared memory segment \"/PostgreSQL.1394234\" to 8388608 bytes: No space left on device\n", "/dev/shm", "postgresql", "size_bytes", 8388608},
		{"mysql", "2026-11-30 10:12:01 0 [ERROR] mysqld: Out of memory (Needed 2147483648 bytes)\n", "EE_OUTOFMEMORY", "mysql", "request_bytes", 2147483648},
		{"innodb", "2026-11-30 10:12:01 0 [ERROR] InnoDB: Cannot allocate 137428992 bytes of memory after 60 retries over 60 seconds. OS error: Cannot allocate memory (12). Check if you should increase the swap file or ulimits of your operating system. Note that on most 32-bit computers the process memory space is limited to 2 GB or 4 GB.\n", "ut_allocator", "innodb", "request_bytes", 137428992},
	} {
		tl := ParseString(c.text, "t", Options{})
		if !f15Unread(tl, c.word) || statedOOM(tl) || len(f15Kills(tl)) != 0 {
			t.Errorf("%s: unparsed %+v stated %v kills %d: want named (%s), no OOM", c.name, tl.Unparsed, statedOOM(tl), len(f15Kills(tl)), c.word)
		}
		if tl.Host.MemTotalKB != 0 || tl.Host.WordBits != 0 {
			t.Errorf("%s: host memory %d kB, %d-bit: the program's figures are no host's", c.name, tl.Host.MemTotalKB, tl.Host.WordBits)
		}
		found := false
		for _, a := range artifactsOf(tl, KindProgramLimit) {
			if m, ok := a.Data.(map[string]any); ok && m["program"] == c.program && m[c.key] == c.val {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: program_limit %+v, want %s %s=%d", c.name, artifactsOf(tl, KindProgramLimit), c.program, c.key, c.val)
		}
		checkAccount(t, tl)
	}
}

// Counters: the docs' explanation, a question, advice and a similar line of another program
// are no Odoo, RQ, Overpass, GDAL or InnoDB message.
func TestH38bJobWorkerCounters(t *testing.T) {
	for _, s := range []string{
		"Odoo recycles a worker when its virtual memory limit (limit_memory_soft) is reached",
		"set limit_memory_hard to 2684354560 and limit_time_cpu to 600",
		"what does Work-horse terminated unexpectedly mean in the ERPNext logs?",
		"[2026-11-30 10:12:01 +0000] [7] [ERROR] Worker (pid:123) was sent SIGKILL! Perhaps out of memory?",
		"CPLMalloc(): Out of memory allocating a small number of bytes.",
		"the query ran out of memory, how much RAM does overpass need?",
		"InnoDB: Cannot allocate memory for the buffer pool",
		"osm2pgsql: set the node cache with -C 24000 (Node-cache: cache= is printed at start)",
		"the Grand total: line of the context dump shows the leak",
		"terminating the other server processes is what postgres does after a crash",
	} {
		if why, _, ok := jobWorkerOwnLine(s); ok {
			t.Errorf("%q named as a job worker's own line: %s", s, why)
		}
	}
	// PostgreSQL's restart after a backend's SIGKILL is named, and no kill is read from it.
	tl := ParseString("2026-11-30 10:12:01.123 UTC [1] LOG:  server process (PID 4121) was terminated by signal 9: Killed\n2026-11-30 10:12:01.123 UTC [1] LOG:  terminating any other active server processes\n2026-11-30 10:12:01.125 UTC [1] LOG:  all server processes terminated; reinitializing\n", "t", Options{})
	if !f15Unread(tl, "HandleChildCrash") || !f15Unread(tl, "reinitializing") || len(f15Kills(tl)) != 0 || statedOOM(tl) {
		t.Errorf("postmaster's restart: unparsed %+v kills %d stated %v", tl.Unparsed, len(f15Kills(tl)), statedOOM(tl))
	}
	// gunicorn's own guess stays gunicorn's.
	tl = ParseString("[2026-11-30 10:12:01 +0000] [7] [ERROR] Worker (pid:123) was sent SIGKILL! Perhaps out of memory?\n", "t", Options{})
	if !f15Unread(tl, "gunicorn") || f15Unread(tl, "Odoo") {
		t.Errorf("gunicorn's line: %+v", tl.Unparsed)
	}
	// The owner's own size beside Overpass's answer is still the host's.
	tl = ParseString("My server has 8 GB of RAM.\nruntime error: Query run out of memory using about 2048 MB of RAM.\n", "t", Options{})
	if tl.Host.MemTotalKB != 8<<20 {
		t.Errorf("host memory %d kB, want the owner's 8 GB", tl.Host.MemTotalKB)
	}
	// "32-bit" said of the host still gives its width.
	tl = ParseString("This is a 32-bit kernel on an old Atom box.\n", "t", Options{})
	if tl.Host.WordBits != 32 {
		t.Errorf("word bits %d, want 32", tl.Host.WordBits)
	}
}
