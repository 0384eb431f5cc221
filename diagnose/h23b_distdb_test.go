package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
)

// h23b: distributed databases and key-value stores (TiDB/TiKV, ScyllaDB, CockroachDB, etcd,
// memcached, Redis, Aerospike, YugabyteDB), written from their sources before round 23.

// h23bEvidence: the finding's evidence as one string.
func h23bEvidence(f *Finding) string {
	var all []string
	for _, e := range f.Evidence {
		all = append(all, e.What+" "+e.Value)
	}
	return strings.Join(all, "; ")
}

// The kernel's kill of a database process reaches oom-kill with its victim: the one-line
// dump_oom_summary ("oom-kill:constraint=...,task=yb-tserver,pid=4121,uid=994") alone, and
// 3.x-4.x's victim line cut to "Kill process N (x) score N or sacrifice child".
func TestH23bKernelKillOfDatabase(t *testing.T) {
	const sum = "oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/system.slice/yb-tserver.service,task=yb-tserver,pid=4121,uid=994\n"
	const cut = "Kill process 2345 (tikv-server) score 912 or sacrifice child\n"
	for _, c := range []struct{ text, want string }{
		{sum, "yb-tserver (pid 4121)"},
		{"Nov 30 10:00:01 db3 kernel: " + sum, "yb-tserver (pid 4121)"},
		{"> [ 8812.123500] " + sum, "yb-tserver (pid 4121)"},
		{cut, "tikv-server (pid 2345)"},
		{"$ dmesg | grep -o 'Kill process.*'\n" + cut + "Kill process 2871 (tikv-server) score 915 or sacrifice child\n", "tikv-server"},
		{"[1234567.891011] Out of memory: Kill process 2345 (tikv-server) score 912 or sacrifice child\n", "tikv-server (pid 2345)"},
		{"ERROR 1105 (HY000): Out Of Memory Quota![conn=5]\n" + sum, "yb-tserver"},
	} {
		d, _ := rootOf(t, c.text)
		f := findingOf(d, "oom-kill")
		if f == nil {
			t.Errorf("%q: no oom-kill", c.text)
			continue
		}
		if s := h23bEvidence(f) + " " + f.Title + " " + f.Explanation; !strings.Contains(s, c.want) {
			t.Errorf("%q: oom-kill %q lacks %q", c.text, s, c.want)
		}
	}
	// Counter-cases: the phrase in a sentence, a placeholder, a question about the words.
	for _, text := range []string{
		"Why would the kernel Kill process 2345 (tikv-server) score 912 or sacrifice child?\n",
		"Kill process ... (tikv-server) score N or sacrifice child\n",
		"Should I kill process 2345 (tikv-server) or sacrifice child processes first?\n",
	} {
		if d, _ := rootOf(t, text); findingOf(d, "oom-kill") != nil {
			t.Errorf("%q: oom-kill fired", text)
		}
	}
}

// A database's own memory limit, quota or back-pressure is named with what it proves, is no
// kernel OOM (no oom-kill) and keeps a paste of only such lines from exit 3.
func TestH23bDatabaseOwnLimitsNamed(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"ERROR 1105 (HY000): Out Of Memory Quota![conn=2305843009213693957]\n", "tidb_mem_quota_query"},
		{`[2026/11/30 10:01:02.345 +00:00] [WARN] [memory_usage_alarm.go:139] ["tidb-server has the risk of OOM because of memory usage exceeds alarm ratio. Running SQLs and heap profile will be recorded in record path"]` + "\n", "tidb_memory_usage_alarm_ratio"},
		{`[2026/11/30 10:01:02.345 +00:00] [WARN] [scheduler.rs:540] ["server is busy"] [reason="scheduler is busy"]` + "\n", "ServerIsBusy"},
		{"Nov 30 10:00:01 tikv1 tikv-server[2345]: [2026/11/30 10:00:03.112 +00:00] [ERROR] [kv.rs:701] [\"kv rpc failed\"] [err=ServerIsBusy]\n", "back-pressure"},
		{"Nov 30 10:00:01 scylla1 scylla[1234]:  [shard 3] seastar_memory - oversized allocation: 2359296 bytes. This is non-fatal, but could lead to latency and/or fragmentation issues. Please report: at 0x5b3f2e\n", "warn_large_allocation"},
		{"scylla-1  | WARN  2026-11-30 10:00:02,123 [shard 3] seastar_memory - Failed to allocate 131072 bytes\n", "--memory"},
		{"E201130 10:00:05.000000 9876 sql/conn_executor.go:123 ⋮ [n1] 46  root: memory budget exceeded: 10240 bytes requested, 3221225472 currently allocated, 3221225472 bytes in budget\n", "--max-sql-memory"},
		{"I201130 10:00:01.123456 213 server/status/runtime.go:525 ⋮ [n1] 45  runtime stats: 14 GiB RSS, 2214 goroutines (stacks: 45 MiB), 9.8 GiB/11 GiB Go alloc/total (heap fragmentation: 512 MiB), 2.1 GiB/2.4 GiB CGO alloc/total (1234.5 CGO/sec), 312.4/45.2 %(u/s)time, 0.8 %gc (12x)\n", "runtime stats"},
		{"Error: etcdserver: mvcc: database space exceeded\n", "--quota-backend-bytes"},
		{"memberID:8e9e05c52164694d alarm:NOSPACE\n", "NOSPACE"},
		{"Error: etcdserver: request timed out\n", "ErrTimeout"},
		{"SERVER_ERROR out of memory storing object\n", "limit_maxbytes"},
		{"used_memory:2147483720\nused_memory_human:2.00G\nmaxmemory:2147483648\nmaxmemory_human:2.00G\n", "INFO memory"},
		{"Nov 30 2026 10:00:01 GMT: WARNING (nsup): (nsup.c:992) {test} breached stop-writes limit (sys-memory), sys-memory pct:91, indexes-memory sz:4294967296 (4294967296 + 0 + 0), data avail-pct:40 used-pct:55\n", "stop-writes-pct"},
		{"Nov 30 2026 10:00:01 GMT: WARNING (nsup): (nsup.c:1010) {test} breached eviction hwm (memory), memory sz:5368709120 (1073741824 + 0 + 4294967296) hwm:5153960755\n", "high-water-memory-pct"},
		{"W1130 10:00:01.123456  4321 tablet_service.cc:1234] Rejecting Write request: Soft memory limit exceeded (at 91.23% of capacity), score: 0.00\n", "memory_limit_soft_percentage"},
		{"E1130 10:00:02.000000  4321 tcmalloc: large alloc 1073741824 bytes == (nil) @  0x7f0c\n", "tcmalloc"},
		{`[2026/11/30 10:00:01.345 +00:00] [WARN] [endpoint.rs:780] ["error-response"] [err="Server is busy (scheduler is busy)"]` + "\n", "scheduler-pending-write-threshold"},
		{`[2026/11/30 10:00:02.000 +00:00] [WARN] [sst_service.rs:157] ["Memory usage too high, usage: 9126805504 bytes, mem limit 8589934592 bytes"]` + "\n", "import.memory-use-ratio"},
		{"ERROR: Out of memory\n", "--memory limit"},
		{`<Event Severity="40" Time="1764496801.123456" Type="OutOfMemory" ID="0000000000000000" Message="Out of memory" Machine="10.0.0.5:4500" LogGroup="default" Roles="SS" />` + "\n", "FDB_EXIT_NO_MEM"},
		{"Nov 30 10:00:01 fdb1 fdbmonitor[812]: Process 4121 being killed for exceeding resident memory limit, current 9126805504 , limit 8589934592\n", "memory_rss"},
	} {
		tl, err := artifact.Parse(strings.NewReader(c.text), "paste.txt", artifact.Options{})
		if err != nil {
			t.Fatal(err)
		}
		named := false
		for _, u := range tl.Unparsed {
			named = named || strings.Contains(u.Why, c.want)
		}
		if !named {
			t.Errorf("%q: not named with %q: %+v", c.text, c.want, tl.Unparsed)
		}
		if d := Run(tl, nil); findingOf(d, "oom-kill") != nil {
			t.Errorf("%q: a database's own limit raised oom-kill", c.text)
		}
	}
	// Counter-cases: the words in prose, the sources' format strings, another program's
	// key: value lines; none is named as a database's.
	for _, text := range []string{
		"The server is busy today, please retry.\n",
		"root: memory budget exceeded: %d bytes requested, %d currently allocated, %d bytes in budget\n",
		"used_memory is what Redis reports; set maxmemory to 2gb\n",
		"maxmemory 2gb\n",
		"Soft limit was raised by the admin.\n",
		"fprintf(stderr, \"ERROR: Out of memory while parsing %s\\n\", name);\n",
	} {
		tl, err := artifact.Parse(strings.NewReader(text), "paste.txt", artifact.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "headroom has no reader for this log") && (strings.Contains(u.Why, "TiKV") || strings.Contains(u.Why, "CockroachDB") || strings.Contains(u.Why, "Redis's INFO") || strings.Contains(u.Why, "YugabyteDB") || strings.Contains(u.Why, "FoundationDB")) {
				t.Errorf("%q: named as a database's: %q", text, u.Why)
			}
		}
	}
}
