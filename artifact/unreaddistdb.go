package artifact

import "strings"

// Distributed databases' and key-value stores' own words about their memory, quotas and
// back-pressure (h23b, written from the programs' sources before round 23, blind to its
// batches). Each is the program's own limit or its own allocator: named as unread with what
// it proves, never read as the kernel's OOM killer (that is the kernel's own kill line,
// "Out of memory: Killed process N (tikv-server)" or the one-line "oom-kill:constraint=...",
// which oom.go reads whatever the victim's name).

// distDBForms: the texts as their sources spell them (case-sensitive) and what each proves.
var distDBForms = []struct{ text, why string }{
	// TiDB pkg/util/memory (the tracker's action when a statement passes tidb_mem_quota_query,
	// or tidb_server_memory_limit cancels the largest statement): ERROR 1105 (HY000)
	// "Out Of Memory Quota![conn=N]"; the statement is cancelled and tidb-server lives on.
	{"Out Of Memory Quota!", "TiDB cancelled a statement at its own memory quota (\"Out Of Memory Quota![conn=N]\", ERROR 1105: tidb_mem_quota_query, or tidb_server_memory_limit cancelling the largest statement): TiDB's limit on its own memory, not the kernel's OOM killer; tidb-server lives on"},
	// TiDB memory_usage_alarm.go: the process's memory passed tidb_memory_usage_alarm_ratio
	// of its limit (or of the host's memory): profiles are recorded, nothing is killed.
	{"has the risk of OOM", "TiDB's memory-usage alarm (memory_usage_alarm.go: tidb-server's memory passed tidb_memory_usage_alarm_ratio of its limit or of the host's memory; heap profiles and running SQL are recorded): a warning of TiDB's own, no kill and no kernel OOM"},
	// TiKV errorpb.ServerIsBusy (the scheduler's pending writes past
	// scheduler-pending-write-threshold, raftstore's or the apply pool's queues, flow
	// control), TiDB's ErrTiKVServerBusy 9003 "TiKV server is busy".
	{"ServerIsBusy", "TiKV refused a request as busy (errorpb.ServerIsBusy: its scheduler's pending writes past scheduler-pending-write-threshold, a full raftstore or apply queue, flow control on write stalls): TiKV's own back-pressure, not the kernel's memory or network"},
	{"TiKV server is busy", "TiDB's report that TiKV refused requests as busy (ErrTiKVServerBusy 9003, from errorpb.ServerIsBusy: TiKV's scheduler, raftstore or flow control): TiKV's own back-pressure, not the kernel's memory or network"},
	// The reasons TiKV puts in ServerIsBusy (src/storage/errors.rs SCHEDULER_IS_BUSY,
	// GC_WORKER_IS_BUSY; raftstore errors.rs RAFTSTORE_IS_BUSY) and the error kind's label.
	{"scheduler is busy", tikvBusyWhy},
	{"raftstore is busy", tikvBusyWhy},
	{"gc worker is busy", tikvBusyWhy},
	{"server_is_busy", tikvBusyWhy},
	// TiKV src/import/sst_service.rs: the import service refuses a write past its own memory
	// limit (import.memory-use-ratio of the instance's memory).
	{"Memory usage too high, usage: ", "TiKV's import service refused a write past its own memory limit (sst_service.rs \"Memory usage too high, usage: N bytes, mem limit M bytes\": import.memory-use-ratio of TiKV's memory): TiKV's limit, not the kernel's OOM killer"},
	{`"server is busy"`, "TiKV's \"server is busy\" (errorpb.ServerIsBusy: its scheduler's pending writes, raftstore's queues, flow control): TiKV's own back-pressure, not the kernel's memory or network"},
	// Seastar core/memory.cc: cpu_pages::warn_large_allocation "oversized allocation: {} bytes.
	// This is non-fatal, ..." and the pool's "Failed to allocate {} bytes" (logger
	// seastar_memory); each shard owns a fixed share of the memory taken at start (--memory).
	{"oversized allocation: ", "Seastar's warning of one large contiguous allocation in a shard's own pool (core/memory.cc warn_large_allocation: \"oversized allocation: N bytes. This is non-fatal\"): ScyllaDB's/Redpanda's allocator, its memory taken at start (--memory, per shard); no failure and no kernel memory figure"},
	{"seastar_memory - Failed to allocate ", "a Seastar shard's own pool could not serve an allocation (core/memory.cc, logger seastar_memory; std::bad_alloc follows): the shard's share of the memory ScyllaDB/Redpanda took at start (--memory, reserve-memory), not the kernel's free memory; no kill by the kernel's OOM killer"},
	// CockroachDB pkg/util/mon: a SQL memory monitor refused a reservation (its budget from
	// --max-sql-memory, pgcode 53200): "memory budget exceeded: %d bytes requested, %d
	// currently allocated, %d bytes in budget"; the statement fails, the node lives on.
	{"memory budget exceeded: ", "CockroachDB's SQL memory monitor refused a reservation (pkg/util/mon: \"memory budget exceeded: N bytes requested, M currently allocated, B bytes in budget\", pgcode 53200, the budget from --max-sql-memory): the statement failed at CockroachDB's own budget, not the kernel's OOM killer; the node lives on"},
	// etcd server/storage/backend quota: the bbolt file passed --quota-backend-bytes and the
	// NOSPACE alarm is raised: a disk quota, not memory.
	{"database space exceeded", "etcd's NOSPACE alarm (\"mvcc: database space exceeded\": its bbolt database file passed --quota-backend-bytes, 2 GiB by default; compact and defragment, then disarm the alarm): a size quota on the data file, not memory and not the kernel's OOM"},
	{"alarm:NOSPACE", "etcd's NOSPACE alarm (etcdctl alarm list: the database file passed --quota-backend-bytes): a size quota on the data file, not memory"},
	// etcd server/etcdserver/errors.go ErrTimeout: a proposal not committed in time.
	{"etcdserver: request timed out", "etcd's proposal was not committed in time (etcdserver ErrTimeout: a slow disk's fsync, a lost leader or an overloaded member): disk or consensus latency, not memory; no kernel counter"},
	// memcached proto_text.c process_update_command: the item could not be allocated in its
	// slab class at -m (limit_maxbytes) with nothing evictable (or -M); the item too large (-I).
	{"SERVER_ERROR out of memory storing object", "memcached could not allocate the item in its own slab memory (\"SERVER_ERROR out of memory storing object\": its -m limit, limit_maxbytes, reached with nothing evictable in the item's slab class, or -M forbidding eviction): memcached's configured memory, not the kernel's OOM killer"},
	{"SERVER_ERROR object too large for cache", "memcached refused an item larger than its item size maximum (-I, item_size_max): its own limit, not memory"},
	// Aerospike as/src/base/nsup.c: a namespace's stop-writes and eviction thresholds
	// (stop-writes-pct / stop-writes-sys-memory-pct, high-water-memory-pct): the server's own
	// percentages of its configured memory-size or of the host's memory.
	{"breached stop-writes limit", "Aerospike stopped writes to a namespace at its own threshold (nsup.c \"{ns} breached stop-writes limit (...)\": stop-writes-pct of its memory-size, stop-writes-sys-memory-pct, or min-avail-pct of its device): the namespace's configured limit, no kill and no kernel OOM"},
	{"breached eviction hwm", "Aerospike passed a namespace's eviction high-water mark (nsup.c \"{ns} breached eviction hwm (...)\": high-water-memory-pct or high-water-disk-pct): it evicts records by itself; the namespace's configured limit, not the kernel's memory"},
	{"stop_writes=true", "Aerospike's namespace statistic stop_writes=true (asinfo namespace/NS): writes stopped at the namespace's own stop-writes threshold, not the kernel's memory"},
	{"hwm_breached=true", "Aerospike's namespace statistic hwm_breached=true (asinfo): the namespace passed its own eviction high-water mark, not the kernel's memory"},
	// YugabyteDB tserver tablet_service.cc: writes refused when its root MemTracker passes
	// memory_limit_soft_percentage of memory_limit_hard_bytes (the tserver's own limit).
	{"Soft memory limit exceeded", "YugabyteDB refused or throttled writes at its own soft memory limit (tablet_service.cc \"Soft memory limit exceeded (at P% of capacity)\": memory_limit_soft_percentage of memory_limit_hard_bytes, its MemTracker's count): the tserver's configured limit, not the kernel's OOM killer"},
	// FoundationDB flow/SystemMonitor.cpp startMemoryUsageMonitor: the process's resident
	// memory passed its own --memory limit (8 GiB by default), or an allocation failed
	// (Platform.cpp): platform::outOfMemory -> criticalError(FDB_EXIT_NO_MEM, "OutOfMemory",
	// "Out of memory"): "ERROR: Out of memory" on stderr and a SevError trace event of Type
	// OutOfMemory; the process exits by itself. fdbmonitor.cpp kills a child past its
	// memory_rss: "Process %d being killed for exceeding resident memory limit, current %lu ,
	// limit %lu".
	{`Type="OutOfMemory"`, fdbOOMWhy},
	{`"Type": "OutOfMemory"`, fdbOOMWhy},
	{`"Type":"OutOfMemory"`, fdbOOMWhy},
	{"OutOfMemorySimpleCounterReportFollows", fdbOOMWhy},
	{"being killed for exceeding resident memory limit", "fdbmonitor killed an fdbserver whose resident memory passed the memory_rss of its section (fdbmonitor.cpp: \"Process N being killed for exceeding resident memory limit, current R , limit L\"): FoundationDB's own monitor's kill, not the kernel's OOM killer; fdbmonitor restarts it"},
	// gperftools tcmalloc (YugabyteDB, many C++ servers): large allocation failed, "tcmalloc:
	// large alloc N bytes == (nil) @ ..." (== 0x... when it succeeded: a report of size only).
	{"== (nil) @", "tcmalloc's large allocation failed (\"tcmalloc: large alloc N bytes == (nil)\": mmap refused by overcommit accounting, RLIMIT_AS or a cgroup): the process's own allocation, no kill by the kernel's OOM killer"},
}

// tikvBusyWhy: a reason TiKV gives in its ServerIsBusy error.
const tikvBusyWhy = "TiKV's ServerIsBusy reason (\"scheduler is busy\": pending writes past scheduler-pending-write-threshold; \"raftstore is busy\", \"gc worker is busy\": a full queue): TiKV's own back-pressure, not the kernel's memory or network"

// fdbOOMWhy: FoundationDB's own out-of-memory exit.
const fdbOOMWhy = "FoundationDB's process ended itself out of memory (flow: its resident memory passed its own --memory limit, 8 GiB by default, or an allocation failed; criticalError \"OutOfMemory\", \"ERROR: Out of memory\" on stderr, exit FDB_EXIT_NO_MEM): FoundationDB's limit, not the kernel's OOM killer"

// crdbRuntimeWhy: CockroachDB's pkg/server/status/runtime.go logs every 10 s "runtime stats:
// %s RSS, %d goroutines, ... %s/%s/%s Go alloc/idle/total ..." ("GO alloc/idle/total" and
// "active" in older releases).
const crdbRuntimeWhy = "CockroachDB's periodic runtime stats (pkg/server/status/runtime.go: \"runtime stats: R RSS, N goroutines, A/I/T Go alloc/idle/total, ... CGO alloc/total\"): the cockroach process's resident memory and Go heap, no limit and no host total; not the kernel's meminfo and no OOM"

// distDBAnchor: a byte or word every form holds; a line with none is no form (one pass of
// cheap searches before the table).
func distDBAnchor(t string) bool {
	return strings.Contains(t, "emory") || strings.Contains(t, "usy") || strings.Contains(t, "exceeded") ||
		strings.Contains(t, "breached") || strings.Contains(t, "=true") || strings.Contains(t, "NOSPACE") ||
		strings.Contains(t, "timed out") || strings.Contains(t, "SERVER_ERROR") || strings.Contains(t, "(nil)") ||
		strings.Contains(t, "oversized") || strings.Contains(t, "risk of OOM")
}

// distDBLine says why t is one of distDBForms or CockroachDB's runtime stats line.
func distDBLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes || !distDBAnchor(t) && !strings.Contains(t, "runtime stats: ") {
		return "", false
	}
	if formatString(t) {
		return "", false // the source's format quoted ("%d bytes requested"), no record
	}
	if strings.TrimSpace(t) == "ERROR: Out of memory" {
		return fdbOOMWhy + "; headroom has no reader for this log", true // the line criticalError prints, alone
	}
	if redisInfoMemory(t) {
		return redisInfoWhy + "; headroom has no reader for this log", true
	}
	if crdbRuntimeStats(t) {
		return crdbRuntimeWhy + "; headroom has no reader for this log", true
	}
	for _, f := range distDBForms {
		if strings.Contains(t, f.text) {
			return f.why + "; headroom has no reader for this log", true
		}
	}
	return "", false
}

// crdbRuntimeStats: "runtime stats: 14 GiB RSS, 2214 goroutines" and an alloc/total pair.
func crdbRuntimeStats(t string) bool {
	k := strings.Index(t, "runtime stats: ")
	if k < 0 {
		return false
	}
	r := t[k:]
	return strings.Contains(r, " RSS, ") && strings.Contains(r, " goroutines") && strings.Contains(r, "alloc/")
}

// distDBOOMText: t is one of the forms that speaks of the program's own out-of-memory: the
// stated OOM rule does not take it for the author's statement that the host ran out.
func distDBOOMText(t string) bool {
	return strings.Contains(t, "Out Of Memory Quota!") || strings.Contains(t, "risk of OOM") ||
		strings.Contains(t, "SERVER_ERROR out of memory") || strings.Contains(t, "OutOfMemory") ||
		strings.TrimSpace(t) == "ERROR: Out of memory"
}

// redisInfoWhy: Redis's (Valkey's, KeyDB's, Dragonfly's) INFO memory section.
const redisInfoWhy = "Redis's INFO memory fields (used_memory: its allocator's bytes, used_memory_rss: the process's resident set, maxmemory: its own limit, 0 for none; total_system_memory: the host's MemTotal): Redis's accounting against its own maxmemory, not the kernel's meminfo or an OOM"

// redisInfoMemory: "used_memory:2147483720", "used_memory_human:2.00G", "maxmemory:0" as
// INFO prints them (server.c genRedisInfoString: "%s:%lld\r\n", no space): the key at the
// line's start, a colon, then a digit.
func redisInfoMemory(t string) bool {
	if t == "" || t[0] != 'u' && t[0] != 'm' && t[0] != 't' {
		return false
	}
	k := strings.IndexByte(t, ':')
	if k < 0 || k+1 >= len(t) || t[k+1] < '0' || t[k+1] > '9' {
		return false
	}
	key := t[:k]
	return strings.HasPrefix(key, "used_memory") || strings.HasPrefix(key, "maxmemory") || strings.HasPrefix(key, "total_system_memory")
}
