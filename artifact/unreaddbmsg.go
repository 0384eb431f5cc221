package artifact

import (
	"strings"
)

// Databases', caches' and message brokers' own messages about memory, the kernel's settings,
// sockets and file descriptors (h12a, written from the programs' sources before round 12).
// Each is the program's word about its own limit, its own allocator or its own process, not
// a kernel record: named as unread with what it proves (a text of only such lines runs
// instead of exiting 3), and never read as the kernel's OOM killer or the host's memory.
// A few of them state the host's current sysctl value; those are read as that setting
// (dbStatedSetting), and the advice in the same line ("add 'vm.overcommit_memory = 1' to
// /etc/sysctl.conf") is not read as a value.

// dbOwnForms: the programs' own words (case-sensitive, each as its source spells it) and
// what the line proves.
var dbOwnForms = []struct{ text, why string }{
	// Redis server.c (rdbSaveBackground / bgsaveCommand): "Can't save in background: fork:
	// %s" with strerror; ENOMEM from fork is the kernel's overcommit check refusing a copy
	// of the parent's address space (vm.overcommit_memory 0's heuristic or 2's commit
	// limit), which is why Redis warns about overcommit_memory at start.
	{"Can't save in background: fork: ", "Redis could not fork its background save (server.c: \"Can't save in background: fork: <strerror>\"): with Cannot allocate memory the kernel's overcommit accounting refused the child's copy of Redis's address space (vm.overcommit_memory 0's heuristic or 2's commit limit), no kill and no page allocation failure"},
	// Redis rdb.c backgroundSaveDoneHandlerDisk and aof.c: the child died by a signal.
	{"terminated by signal 9", "a child or backend process was killed by SIGKILL (Redis's \"Background saving terminated by signal 9\", PostgreSQL's postmaster \"server process (PID N) was terminated by signal 9: Killed\"): the kernel's OOM killer sends it, and so does a cgroup's, systemd's, a container runtime's or anyone's kill -9; the kernel's own kill line (\"Out of memory: Killed process N\") would say which and is not this line"},
	// Redis server.c redisOutOfMemoryHandler (zmalloc's OOM handler): serverLog "Out Of
	// Memory allocating %zu bytes!" then serverPanic "Redis aborting for OUT OF MEMORY";
	// zmalloc.c zmalloc_default_oom "zmalloc: Out of memory trying to allocate %zu bytes"
	// (redis-cli, benchmark, modules).
	{"Out Of Memory allocating ", "Redis's own allocator (zmalloc) got NULL from malloc and Redis aborted itself (server.c redisOutOfMemoryHandler, \"Out Of Memory allocating N bytes!\"): overcommit, RLIMIT_AS or a cgroup refused the allocation; no kill by the kernel's OOM killer"},
	{"OUT OF MEMORY. Allocating ", "Redis panicked after its own allocator failed (server.c redisOutOfMemoryHandler: \"Redis aborting for OUT OF MEMORY\"): no kill by the kernel's OOM killer"},
	{"zmalloc: Out of memory trying to allocate ", "Redis's zmalloc got NULL from malloc and aborted (zmalloc.c zmalloc_default_oom): the process's own allocation refused (overcommit, RLIMIT_AS, a cgroup), no kill by the kernel's OOM killer"},
	// Redis server.c processCommand: the maxmemory policy refused a write.
	{"OOM command not allowed when used memory > 'maxmemory'", "Redis refused a write because its own maxmemory limit is reached (server.c: \"OOM command not allowed when used memory > 'maxmemory'\"): Redis's configured limit, not the kernel's OOM or the host's free memory"},
	// Redis networking.c freeClientAsync caller: a client past client-output-buffer-limit.
	{"for overcoming of output buffer limits", "Redis closed a client whose output buffer passed client-output-buffer-limit (networking.c): Redis's own per-client buffer limit (a slow replica or subscriber), not a kernel socket buffer"},
	// Redis server.c adjustOpenFilesLimit: maxclients + 32 descriptors wanted, RLIMIT_NOFILE
	// could not be raised.
	{"maxclients has been reduced to ", "Redis lowered maxclients because its RLIMIT_NOFILE (ulimit -n) is below maxclients + 32 (server.c adjustOpenFilesLimit): the process's file-descriptor limit, not memory and not fs.file-max"},
	{"Server can't set maximum open files to ", "Redis could not raise its RLIMIT_NOFILE (server.c adjustOpenFilesLimit: setrlimit refused): the process's file-descriptor limit, not memory"},
	{"You requested maxclients of ", "Redis states the file descriptors maxclients needs (server.c adjustOpenFilesLimit: \"You requested maxclients of N requiring at least M max file descriptors.\"): its RLIMIT_NOFILE, not memory"},
	// PostgreSQL postmaster.c BackendStartup / StartAutoVacWorker etc.: "could not fork new
	// process for connection: %m", "could not fork autovacuum worker process: %m".
	{"could not fork new process for connection: ", "PostgreSQL's postmaster could not fork a backend (postmaster.c: \"could not fork new process for connection: <strerror>\"): ENOMEM is the kernel's overcommit accounting refusing the fork (vm.overcommit_memory 2's commit limit or 0's heuristic), EAGAIN a process limit (RLIMIT_NPROC, a pids cgroup); no kill and no page allocation failure"},
	{"could not fork autovacuum ", "PostgreSQL's postmaster could not fork an autovacuum process (autovacuum.c, strerror after it): the fork refused by overcommit accounting or a process limit; no kill"},
	// PostgreSQL mcxt.c: palloc's malloc returned NULL: ereport(ERROR, "out of memory",
	// errdetail("Failed on request of size %zu in memory context \"%s\"."); the backend ends
	// its transaction and lives on.
	{"Failed on request of size ", "PostgreSQL's own allocator (mcxt.c palloc: \"out of memory\" / \"Failed on request of size N in memory context X\") got NULL from malloc: with vm.overcommit_memory 2 the commit limit, or RLIMIT_AS or a cgroup; the query failed and the backend lives on: no kill by the kernel's OOM killer"},
	{"ERROR:  out of memory", "PostgreSQL's own allocation failed in a backend (mcxt.c: ERROR \"out of memory\", its DETAIL names the request's size): malloc returned NULL (the commit limit under vm.overcommit_memory 2, RLIMIT_AS, a cgroup); the query failed, no kill by the kernel's OOM killer"},
	{"FATAL:  out of memory", "PostgreSQL's own allocation failed while a backend started (FATAL \"out of memory\"): malloc returned NULL; the backend exits by itself, no kill by the kernel's OOM killer"},
	// PostgreSQL sysv_shmem.c CreateAnonymousSharedMemory: "could not map anonymous shared
	// memory: %m" with its HINT about shared_buffers; dsm_impl.c "could not resize shared
	// memory segment \"%s\" to %zu bytes: %m" (the /dev/shm tmpfs full: ENOSPC).
	{"could not map anonymous shared memory: ", "PostgreSQL's mmap of its main shared memory (shared_buffers and the rest, sysv_shmem.c) was refused: overcommit accounting, huge pages not reserved (huge_pages=on without vm.nr_hugepages) or RLIMIT_AS; the server did not start; no kill"},
	{"could not resize shared memory segment ", "PostgreSQL could not grow a dynamic shared memory segment in /dev/shm (dsm_impl.c; \"No space left on device\" is the tmpfs's size, a container's 64 MB shm by default): the size of /dev/shm, not the kernel's free memory"},
	// PostgreSQL fd.c: "out of file descriptors: %m; release and retry"; postmaster
	// "sorry, too many clients already" (max_connections).
	{"out of file descriptors: ", "PostgreSQL ran out of its file descriptors (fd.c: max_files_per_process or RLIMIT_NOFILE, EMFILE/ENFILE): a descriptor limit, not memory"},
	{"sorry, too many clients already", "PostgreSQL refused a connection at its own max_connections (postmaster: \"sorry, too many clients already\"): a configured limit, not the kernel's sockets or memory"},
	// MySQL/MariaDB sql/signal_handler.cc handle_fatal_signal: "[ERROR] mysqld got signal %d ;"
	// (then "This could be because you hit a bug..."): the server's handler for SIGSEGV,
	// SIGABRT, SIGBUS, SIGILL, SIGFPE (h15d).
	{mysqldSignal, "MySQL's/MariaDB's \"mysqld got signal 9 ;\" (the fatal-signal handler's form, sql/signal_handler.cc): the server was killed by SIGKILL; SIGKILL names no sender: the kernel's OOM killer (a host's or a memory cgroup's), a supervisor's stop timeout or anyone's kill -9; the kernel's own kill line (\"Out of memory: Killed process N (mysqld)\") would say which and is not this line"},
	// MySQL/MariaDB mysys (EE_OUTOFMEMORY): "Out of memory (Needed %u bytes)"; the thread
	// creation error ER_CANT_CREATE_THREAD: "Can't create a new thread (errno %d); if you are
	// not out of available memory, you can consult the manual ..."; mysqld.cc
	// "Could not increase number of max_open_files to more than %u (request: %u)".
	{"Out of memory (Needed ", "MySQL's/MariaDB's own allocation failed (mysys my_malloc, EE_OUTOFMEMORY \"Out of memory (Needed N bytes)\"): malloc returned NULL (overcommit, RLIMIT_AS, a cgroup); the statement failed, no kill by the kernel's OOM killer"},
	{"Can't create a new thread (errno ", "MySQL/MariaDB could not start a thread (ER_CANT_CREATE_THREAD, pthread_create's errno: 11 EAGAIN is RLIMIT_NPROC, a pids cgroup or kernel.threads-max; 12 ENOMEM the thread's stack not mapped): not by itself a kernel memory shortage"},
	{"Could not increase number of max_open_files to more than ", "MySQL/MariaDB could not raise its RLIMIT_NOFILE to what max_connections and table_open_cache need (mysqld.cc): the process's file-descriptor limit (LimitNOFILE, ulimit -n), not memory"},
	// InnoDB before MySQL 5.6 (buf0buf.c buf_pool_init): "InnoDB: Fatal error: cannot
	// allocate memory for the buffer pool", in lower case after "Fatal error: ".
	{"Fatal error: cannot allocate memory for the buffer pool", "InnoDB (MySQL 5.5/MariaDB 5.5 and older, buf0buf.c) could not allocate its buffer pool (innodb_buffer_pool_size) at start: its own mmap/malloc refused (overcommit, RLIMIT_AS, a cgroup), no kill by the kernel's OOM killer"},
	{"Cannot allocate memory for the buffer pool", "InnoDB could not allocate its buffer pool (innodb_buffer_pool_size) at start: its own mmap/malloc refused (overcommit, RLIMIT_AS, a cgroup), no kill by the kernel's OOM killer"},
	{" failed; errno 12", "InnoDB's own mmap failed with ENOMEM (errno 12, \"mmap(N bytes) failed; errno 12\"): overcommit accounting, RLIMIT_AS or vm.max_map_count refused the mapping; no kill by the kernel's OOM killer"},
	// MongoDB: util/signal_handlers_synchronous.cpp myNewHandler "out of memory, printing
	// stack and exiting" (operator new failed); CONTROL 22184 startup warning.
	{"ut of memory, printing stack and exiting", "MongoDB's operator new failed and mongod exited by itself (signal_handlers_synchronous.cpp: \"out of memory, printing stack and exiting\"): its allocation refused (overcommit, RLIMIT_AS, a cgroup), no kill by the kernel's OOM killer"},
	{"Soft rlimits for open file descriptors too low", "MongoDB's startup warning that its RLIMIT_NOFILE is below what it recommends (currentValue is ulimit -n): the process's file-descriptor limit, not memory and not fs.file-max"},
	{"Soft rlimits too low", "MongoDB's startup warning that its RLIMIT_NOFILE or RLIMIT_NPROC is low (ulimit): a process limit, not memory"},
	// Elasticsearch/OpenSearch BootstrapChecks: the process's limits, not the host's sysctl.
	{"for elasticsearch process is too low", "Elasticsearch's bootstrap check of its own RLIMIT_NOFILE (\"max file descriptors [N] for elasticsearch process is too low\", BootstrapChecks.FileDescriptorCheck): the process's ulimit -n, not fs.file-max and not memory"},
	{"for opensearch process is too low", "OpenSearch's bootstrap check of its own RLIMIT_NOFILE (\"max file descriptors [N] for opensearch process is too low\"): the process's ulimit -n, not fs.file-max and not memory"},
	{"is too low, increase to at least [", "Elasticsearch's/OpenSearch's bootstrap check of a process limit (max number of threads, max size virtual memory: RLIMIT_NPROC, RLIMIT_AS): the process's ulimit, not the host's memory"},
	{"memory locking requested for ", "Elasticsearch's/OpenSearch's bootstrap check: bootstrap.memory_lock is set but mlockall failed (RLIMIT_MEMLOCK, LimitMEMLOCK): the heap is not locked; a process limit, not the host's memory"},
	{"CircuitBreakingException", "Elasticsearch's/OpenSearch's own circuit breaker refused a request (\"Data too large ... larger than the limit of\": its estimate of the JVM heap against indices.breaker.*): the JVM's heap, not the kernel's memory"},
	{"Data too large, data for [", "Elasticsearch's/OpenSearch's circuit breaker (its estimate of JVM heap use against the breaker's limit): the JVM's heap, not the kernel's memory"},
	// RabbitMQ rabbit_alarm.erl handle_set_resource_alarm: "~s resource limit alarm set on
	// node ~p." with the publishers-blocked banner; vm_memory_monitor
	// "vm_memory_high_watermark set. Memory used:~p allowed:~p"; the fd alarm.
	{"memory resource limit alarm set on node", "RabbitMQ's own memory alarm (rabbit_alarm: the Erlang VM's memory passed vm_memory_high_watermark × the memory RabbitMQ detected): it blocks publishers by itself; no kill by the kernel's OOM killer and no statement that the host ran out"},
	{"vm_memory_high_watermark set. Memory used:", "RabbitMQ's memory monitor (vm_memory_monitor): the Erlang VM's memory use against its own vm_memory_high_watermark limit, not the kernel's memory or OOM"},
	{"disk resource limit alarm set on node", "RabbitMQ's own disk alarm (free disk below disk_free_limit): it blocks publishers; disk, not memory"},
	{"Publishers will be blocked until this alarm clears", "RabbitMQ's banner of its own resource alarm (rabbit_alarm): publishers blocked by the broker itself, not by the kernel"},
	{"file descriptor limit alarm set", "RabbitMQ's own file-descriptor alarm (rabbit_alarm: its handle count reached the process's RLIMIT_NOFILE): new connections refused by the broker; a descriptor limit, not memory"},
	{"New connections will not be accepted until this alarm clears", "RabbitMQ's banner of its file-descriptor alarm: the process's RLIMIT_NOFILE, not memory"},
	// NATS server/client.go: a client whose pending bytes passed max_pending or whose write
	// passed write_deadline is closed as a slow consumer.
	{"Slow Consumer Detected", "NATS closed a slow client (server/client.go: \"Slow Consumer Detected: WriteDeadline of D exceeded\" or \"MaxPending of N exceeded\"): the server's own per-client pending limit or write deadline; the client or the path to it did not keep up; no kernel counter or memory figure"},
	{"Maximum Connections Exceeded", "NATS refused a client at its own max_connections: a configured limit, not the kernel's"},
	// Mosquitto: its own malloc failed ("Error: Out of memory."); a client's queue at
	// max_queued_messages/max_queued_bytes (database.c: "Outgoing messages are being dropped
	// for client %s.").
	{"Error: Out of memory.", "a program's own allocation failed and it says so itself (Mosquitto's mosquitto__malloc returning NULL, \"Error: Out of memory.\", possibly at its memory_limit): the program's allocation, no kill by the kernel's OOM killer"},
	{"Outgoing messages are being dropped for client ", "Mosquitto dropped messages for a client whose queue is at max_queued_messages/max_queued_bytes (database.c): the broker's own per-client queue, not a kernel socket buffer"},
	// h24c: SQLite's SQLITE_NOMEM as Python's sqlite3 module raises it, alone or under
	// SQLAlchemy's "(sqlite3.OperationalError) ..." (Home Assistant's recorder).
	{"sqlite3.OperationalError) out of memory", sqliteNoMemWhy},
	{"sqlite3.OperationalError: out of memory", sqliteNoMemWhy},
	// EMQX emqx_os_mon / emqx_alarm: its own thresholds on the memory it measures.
	{"high_system_memory_usage", "EMQX's own alarm (emqx_os_mon: the memory it measures passed sysmon.os.sysmem_high_watermark): a threshold alarm, no kill and no kernel OOM"},
	{"high_process_memory_usage", "EMQX's own alarm on an Erlang process's memory share (sysmon.os.procmem_high_watermark): a threshold alarm, not the kernel's memory"},
	// netty PlatformDependent.incrementMemoryCounter (Pulsar, BookKeeper, Artemis, ...):
	// netty's own count of direct memory against io.netty.maxDirectMemory (by default the
	// JVM's -XX:MaxDirectMemorySize).
	{"OutOfDirectMemoryError", "netty's own direct-memory counter passed its maximum (PlatformDependent.incrementMemoryCounter: \"failed to allocate N byte(s) of direct memory (used: U, max: M)\", io.netty.maxDirectMemory or -XX:MaxDirectMemorySize): the JVM's limit, not the kernel's memory"},
	// ActiveMQ Artemis (ActiveMQServerLogger): address full at max-size-bytes /
	// global-max-size (BLOCK policy), disk at max-disk-usage.
	{"Blocking message production on address", "ActiveMQ Artemis blocked producers on an address at its own max-size-bytes/global-max-size (or, with \"Disk Full!\", max-disk-usage): the broker's configured limit, not the kernel's memory"},
	// fix44b: an embedded database's own limit. LMDB's mdb_strerror (libraries/liblmdb/mdb.c,
	// mdb_errstr[]) spells each of its error codes "MDB_NAME: text"; MDB_MAP_FULL is returned
	// by mdb_put/mdb_txn_commit when the write needs a page past the map size the program set
	// with mdb_env_set_mapsize (the data file then stands at that size), MDB_MAP_RESIZED when
	// another process grew the map, MDB_READERS_FULL and MDB_DBS_FULL at maxreaders/maxdbs.
	{"MDB_MAP_FULL: Environment mapsize limit reached", lmdbLimitWhy},
	{"MDB_MAP_RESIZED: Database contents grew beyond environment mapsize", lmdbLimitWhy},
	{"MDB_READERS_FULL: Environment maxreaders limit reached", lmdbLimitWhy},
	{"MDB_DBS_FULL: Environment maxdbs limit reached", lmdbLimitWhy},
	// DuckDB's Allocator (src/common/allocator.cpp AllocateData): its allocation function
	// returned NULL and it throws OutOfMemoryException("Failed to allocate block of %llu
	// bytes"), printed "Out of Memory Error: Failed to allocate block of N bytes": one
	// request of DuckDB's own allocator refused (its allocator, an address-space or page-size
	// limit of the build, e.g. jemalloc on a 64K-page arm64 kernel), not the kernel's OOM.
	{duckdbAllocBlock, "DuckDB's own allocator refused one request (src/common/allocator.cpp: OutOfMemoryException \"Failed to allocate block of N bytes\", printed after \"Out of Memory Error: \"): the program's allocator or its own limit, not a kill by the kernel's OOM killer and no statement about the host's free memory"},
}

// dbOwnLine says why t is one of dbOwnForms, or an Erlang broker's emfile, or a Go
// server's lower-case EMFILE. Gate: the length, then substring searches; run only on a
// line a reader is handed (a prose line, a syslog line under a data store's tag).
func dbOwnLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false
	}
	if formatString(t) {
		return "", false // the source's format string quoted ("Out Of Memory allocating %zu bytes!"), no record
	}
	if why, ok := mosquittoOwnLine(t); ok {
		return why, true
	}
	if why, ok := pgSignalExitWhy(t); ok {
		return why, true // a backend's crash by a signal other than SIGKILL (unreadfix47a.go)
	}
	if why, ok := odbcAllocWhy(t); ok {
		return why, true // an ODBC driver's HY001 (unreadfix47a.go)
	}
	for _, f := range dbOwnForms {
		if k := strings.Index(t, f.text); k >= 0 {
			if f.text == mysqldSignal && !mysqldSignalTail(t[k+len(f.text):]) {
				continue // "mysqld got signal 9 from ...": a sentence, not the handler's "N ;"
			}
			if f.text == duckdbAllocBlock && !bytesCountAfter(t[k+len(f.text):]) {
				continue // "failed to allocate block of memory": no byte count, not DuckDB's message
			}
			return f.why + "; headroom has no reader for this log", true
		}
	}
	// Erlang's file errors are atoms: RabbitMQ's and EMQX's acceptors exit "with reason:
	// emfile" / "reason: emfile" / {error,emfile} when accept() fails with EMFILE.
	if k := strings.Index(t, "emfile"); k >= 0 && wordAt(t, k, len("emfile")) && (strings.Contains(t, "reason") || strings.Contains(t, "error")) {
		return "an Erlang broker's accept or open failed with emfile (EMFILE, RabbitMQ's or EMQX's listener): the process's RLIMIT_NOFILE, not memory; headroom has no reader for this log", true
	}
	// Go's syscall spells EMFILE "too many open files", and a listener's failed accept is
	// "accept tcp ADDR: accept4: too many open files" (NATS server.go acceptConnections:
	// "Temporary Client Accept Error (%v), sleeping %dms"): a server out of descriptors.
	// A client's "socket: too many open files" (a load generator's) is not named.
	if strings.Contains(t, "accept4: too many open files") || strings.Contains(t, "accept: too many open files") {
		return "a Go server's accept failed with EMFILE (\"accept4: too many open files\", NATS's \"Temporary Client Accept Error\"): the process's RLIMIT_NOFILE, not memory; headroom has no reader for this log", true
	}
	return "", false
}

// maxDBSettingLine: a JSON log record (MongoDB's, Elasticsearch's) runs long.
const maxDBSettingLine = 4096

// dbStatedSetting: a data store's startup warning that states this host's sysctl value:
//   - Redis server.c checkTcpBacklogSettings: "WARNING: The TCP backlog setting of %d
//     cannot be enforced because /proc/sys/net/core/somaxconn is set to the lower value
//     of %d." (the value it read from the file);
//   - Redis server.c (before 7.0) "WARNING overcommit_memory is set to 0! ...";
//   - Elasticsearch/OpenSearch BootstrapChecks.MaxMapCountCheck: "max virtual memory areas
//     vm.max_map_count [%d] is too low, increase to at least [%d]";
//   - MongoDB's startup warning "vm.max_map_count is too low" with attr "currentValue":N.
//
// The recommended value in the same line is the program's advice, not read.
func dbStatedSetting(t string) (key, value string, ok bool) {
	if len(t) > maxDBSettingLine {
		return "", "", false
	}
	if k := strings.Index(t, " is set to the lower value of "); k > 0 {
		b := strings.LastIndex(t[:k], "because ")
		if b < 0 {
			return "", "", false
		}
		path := t[b+len("because ") : k]
		if !strings.HasPrefix(path, "/proc/sys/") || strings.ContainsAny(path, " \t") {
			return "", "", false // BSD's kern.ipc.somaxconn: no Linux key
		}
		if v := leadingDigits(t[k+len(" is set to the lower value of "):]); v != "" {
			return path, v, true
		}
		return "", "", false
	}
	if strings.Contains(t, "WARNING overcommit_memory is set to 0!") {
		return "vm.overcommit_memory", "0", true
	}
	if k := strings.Index(t, "vm.max_map_count ["); k >= 0 && strings.Contains(t[k:], "] is too low") {
		if v := leadingDigits(t[k+len("vm.max_map_count ["):]); v != "" {
			return "vm.max_map_count", v, true
		}
		return "", "", false
	}
	if strings.Contains(t, `"vm.max_map_count is too low"`) {
		if k := strings.Index(t, `"currentValue":`); k >= 0 {
			if v := leadingDigits(t[k+len(`"currentValue":`):]); v != "" {
				return "vm.max_map_count", v, true
			}
		}
	}
	return "", "", false
}

// leadingDigits: the decimal digits s starts with.
func leadingDigits(s string) string {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return s[:n]
}

// redisOvercommitWhy: Redis 7's start warning states no value: it checks
// /proc/sys/vm/overcommit_memory != 1 (0 or 2); its advice "vm.overcommit_memory = 1" is
// not the host's value.
const redisOvercommitWhy = "Redis's start warning that vm.overcommit_memory is not 1 on this host (server.c/syscheck.c: \"Memory overcommit must be enabled!\"; the file read 0 or 2; \"vm.overcommit_memory = 1\" in it is Redis's advice, not the host's value): a background save's fork may be refused; no failure by itself; headroom has no reader for this log"

// redisOvercommitLine: Redis 7's "WARNING Memory overcommit must be enabled!".
func redisOvercommitLine(t string) bool {
	return strings.Contains(t, "Memory overcommit must be enabled!")
}

// dbLineWhy: a data store's or broker's own line that states no setting: its overcommit
// warning or one of dbOwnForms.
func dbLineWhy(t string) (string, bool) {
	if redisOvercommitLine(t) {
		return redisOvercommitWhy, true
	}
	if why, ok := brokerConnWhy(t); ok {
		return why, true // EMQX's connection alarm and shutdown (unreadbroker.go)
	}
	if why, ok := distDBLine(t); ok {
		return why, true // a distributed database's or key-value store's own (unreaddistdb.go)
	}
	return dbOwnLine(t)
}

// duckdbAllocBlock: DuckDB's Allocator message before its byte count (fix44b).
const duckdbAllocBlock = "Failed to allocate block of "

// lmdbLimitWhy: LMDB's own environment limits (fix44b).
const lmdbLimitWhy = "LMDB's own environment limit (libraries/liblmdb/mdb.c mdb_strerror: \"MDB_MAP_FULL: Environment mapsize limit reached\" when a write needs a page past the map size the program set with mdb_env_set_mapsize, so data.mdb stands at that size; MDB_MAP_RESIZED, MDB_READERS_FULL, MDB_DBS_FULL alike): a database's configured size or slot limit, not the host's memory, no allocation failure and no kill by the kernel's OOM killer"

// bytesCountAfter: rest starts with a byte count, "N bytes".
func bytesCountAfter(rest string) bool {
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	return n > 0 && strings.HasPrefix(rest[n:], " bytes")
}

// sqliteNoMemWhy: SQLite's "out of memory" (SQLITE_NOMEM, sqlite3_errstr).
const sqliteNoMemWhy = "SQLite returned SQLITE_NOMEM (\"out of memory\", raised by Python's sqlite3 as OperationalError; Home Assistant's recorder): an allocation of the library's own failed (malloc returning NULL, or its soft/hard heap limit), a query's statement failed; no kill by the kernel's OOM killer and no statement about the host's free memory"

// mosquittoForms (h24c): Mosquitto's own lines about its connections, each a record's
// full fixed words: net.c net__socket_accept when accept() failed EMFILE or ENFILE
// ("Unable to accept new connection, system socket count has been exceeded. Try increasing
// \"ulimit -n\" or equivalent."); its max_connections ("Client connection from %s denied:
// max_connections exceeded."); loop.c's keepalive check ("Client %s has exceeded timeout,
// disconnecting.", 1.5 x the client's keepalive without a packet).
var mosquittoForms = []ownLineForm{
	{"Unable to accept new connection, system socket count has been exceeded", "", false, "Mosquitto's accept() failed with EMFILE or ENFILE (net.c net__socket_accept: \"Unable to accept new connection, system socket count has been exceeded. Try increasing \\\"ulimit -n\\\" or equivalent.\"): the broker's RLIMIT_NOFILE (systemd's LimitNOFILE, docker's nofile ulimit) or fs.file-max; a descriptor limit, not memory and not a full listen queue; headroom has no rule for descriptor limits"},
	{"Client connection from ", " denied: max_connections exceeded", false, "Mosquitto refused a client at its own max_connections (\"Client connection from A denied: max_connections exceeded.\"): a configured limit of the broker, not the kernel's sockets or memory"},
	// fix29c: loop.c do_disconnect's reason for MOSQ_ERR_NOMEM ("Client %s disconnected due
	// to out of memory."): a packet read or handler of the broker's returned NOMEM, its own
	// malloc or its memory_limit; a malformed CONNECT can yield it too.
	{"Client ", " disconnected due to out of memory", true, "Mosquitto closed a client because one of its own calls for it returned MOSQ_ERR_NOMEM (loop.c do_disconnect: \"Client C disconnected due to out of memory.\"): the broker's own allocation (mosquitto__malloc, possibly at its memory_limit) or a packet handler that reports NOMEM for a malformed or oversized packet; the broker keeps running; no kill by the kernel's OOM killer and no statement about the host's free memory"},
	{"Client ", " has exceeded timeout, disconnecting", false, "Mosquitto closed a client it heard nothing from within 1.5 x the client's keepalive (loop.c: \"Client C has exceeded timeout, disconnecting.\"): the client or the path to it went silent (Wi-Fi, a reboot, a stalled device); no kernel counter or memory figure"},
}

// mosquittoOwnLine says why t is one of mosquittoForms: the client's id between the two
// parts is one word, and the words before are no condition ("If mosquitto logs ...").
func mosquittoOwnLine(t string) (string, bool) {
	if strings.IndexByte(t, 'x') < 0 && !strings.Contains(t, "due to out of memory") {
		return "", false // every other form holds "exceeded"
	}
	for i := range mosquittoForms {
		f := &mosquittoForms[i]
		k, rest, ok := f.find(t)
		if !ok || conditionLead(t[:k]) {
			continue
		}
		if f.needle2 != "" {
			j := strings.Index(rest, f.needle2)
			if strings.IndexByte(rest[:j], ' ') >= 0 {
				continue // "Client connection from A" and "Client C": one word between
			}
			if tail := strings.TrimSpace(rest[j+len(f.needle2):]); tail != "" && tail != "." {
				continue // the record ends there: "... disconnecting users after 30 s" goes on
			}
		}
		return f.why + "; headroom has no reader for this log", true
	}
	return "", false
}

// conditionLead: the words before a message make it a condition or an example (adviceLead's,
// and a bare "if"/"when" as a word: "If mosquitto logs \"...\"").
func conditionLead(head string) bool {
	if adviceLead(head) {
		return true
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(head), func(r rune) bool { return r < 'a' || r > 'z' }) {
		if w == "if" || w == "when" || w == "whenever" || w == "unless" {
			return true
		}
	}
	return false
}

// isDBTag: the syslog tags of the data stores and brokers above, as their units start them.
func isDBTag(tag string) bool {
	switch tag {
	case "redis-server", "redis", "valkey-server", "keydb-server", "memcached",
		"postgres", "postgresql", "postmaster", "mysqld", "mariadbd", "mysqld_safe", "mariadb",
		"mongod", "mongos", "elasticsearch", "opensearch",
		"rabbitmq-server", "rabbitmq", "beam.smp", "nats-server", "mosquitto", "emqx",
		"pulsar", "artemis",
		// distributed databases and key-value stores (h23b): TiDB's and PD's servers,
		// YugabyteDB's, FoundationDB's, Aerospike's daemon (asd), Dragonfly.
		"tidb-server", "pd-server", "yb-tserver", "yb-master", "fdbserver", "fdbmonitor",
		"asd", "aerospike", "dragonfly":
		return true
	}
	return false
}

// dbSyslogLine: in the line pass, a data store's syslog line: the sysctl it states, or why
// it is named.
func (d *doc) dbSyslogLine(i int, t string) bool {
	if key, v, ok := dbStatedSetting(t); ok {
		d.hostValue(key, v, i)
		d.used[i] = true
		return true
	}
	why, ok := dbLineWhy(t)
	if !ok {
		why, ok = errnoLogLine(t) // an errno of this domain (unreaderrno.go)
	}
	if !ok {
		why, ok = appHostLine(t) // a runtime's own limit, EMFILE (unreadagent.go)
	}
	if ok {
		d.unparsedUnread(i, why)
		d.brokerFigures(i)
		d.programFigureText(i, t) // MySQL's "Out of memory (Needed N bytes)" (h38b)
		d.jvmFigures(i)           // netty's, Elasticsearch's breaker's, HotSpot's (unreadjvm.go)
		d.programOOMNamed = d.programOOMNamed || jvmOOMText(t)
	}
	return ok
}

// ownStampHost: a line the syslog splitter took by its RFC 3339 stamp whose "host" is no
// host name: a program's own log record after its ISO stamp, MySQL 8's
// "2026-11-30T02:12:13.123456Z 0 [ERROR] ..." (the thread id 0 as the host) or EMQX's
// "2026-11-30T02:18:00.000000+00:00 [error] ..." (the level in brackets). A host name
// neither starts with '[' nor is a bare number; one byte decides most lines.
func ownStampHost(l *Line) bool {
	h := l.Host
	if l.Kernel || h == "" {
		return false
	}
	if h[0] == '[' {
		return true
	}
	if pgZoneHost(h, l.Tag) {
		return true
	}
	if h[0] < '0' || h[0] > '9' || len(h) > 6 {
		return false
	}
	return leadingDigits(h) == h
}

// pgZoneHost (fix39b, corpus 3316): PostgreSQL's log_line_prefix of "%m [%p]: ..." or "%t
// [%p]: ..." (src/backend/utils/error/elog.c log_status_format: %m and %t print the stamp
// with the zone's abbreviation, "2024-03-15 07:46:35 UTC", %p the process id), followed by
// more escapes ("[%l] %u@%d,app=%a [%e]"): the syslog splitter takes the zone for the host
// and "[PID]:" for the tag. A zone abbreviation is upper-case letters (UTC, GMT, CEST; %Z of
// strftime) and the tag is a bare process id in brackets; no host name and tag look so.
func pgZoneHost(h, tag string) bool {
	if len(h) < 3 || len(h) > 5 || len(tag) < 3 || tag[0] != '[' || tag[len(tag)-1] != ']' {
		return false
	}
	for i := 0; i < len(h); i++ {
		if h[i] < 'A' || h[i] > 'Z' {
			return false
		}
	}
	p := tag[1 : len(tag)-1]
	return leadingDigits(p) == p
}

// dbOwnOOMText: s holds one of dbOwnForms that is a program's own out-of-memory message (its
// words hold "memory"/"MEMORY"): the stated OOM rule does not take that "out of memory" for
// the author's statement about the host (programOOMText).
func dbOwnOOMText(s string) bool {
	if len(s) > maxErrnoLineBytes || !strings.Contains(s, "emory") && !strings.Contains(s, "EMORY") {
		return false
	}
	for _, f := range dbOwnForms {
		if (strings.Contains(f.text, "emory") || strings.Contains(f.text, "EMORY")) && strings.Contains(s, f.text) {
			return true
		}
	}
	return false
}

// formatString: t holds a C printf or an Erlang io_lib placeholder ("%zu", "%d", "%s",
// "~p", "~s"): the message's format as its source writes it, quoted by a maintainer, not a
// record of this host's.
func formatString(t string) bool {
	for _, v := range []string{"%zu", "%lu", "%d", "%s", "%u", "~p", "~s", "~tp"} {
		if k := strings.Index(t, v); k >= 0 && (k+len(v) == len(t) || !isNameByte(t[k+len(v)])) {
			return true
		}
	}
	return false
}

// mysqldSignalTail: the rest of handle_fatal_signal's line after "mysqld got signal ": 9,
// then " ;". Only SIGKILL's line is named: whether the kernel's OOM killer sent it is the
// memory question a paste of it asks; the server's crash on SIGSEGV or SIGABRT holds no
// memory or network figure and stays a sentence of the report (corpus 1059's "mysqld got
// signal 6 ;" beside its stack trace).
func mysqldSignalTail(s string) bool {
	return strings.HasPrefix(s, "9 ;")
}

// mysqldSignal: handle_fatal_signal's fixed text before the signal's number.
const mysqldSignal = "mysqld got signal "
