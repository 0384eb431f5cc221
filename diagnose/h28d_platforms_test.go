package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
)

// Pre-round 28 (h28d): streaming and analytics platforms. HotSpot's "Memory: ... physical
// Nk(Mk free), swap Sk(Fk free)" is the host's memory: with swap 0k, swap-under-load is
// checked (no swap configured) and healthy; with hs_err's /proc/meminfo beside it,
// overcommit-exposed keeps Committed_AS. The programs' own limits (ClickHouse's Code 241,
// the JVM's Map failed, Cassandra's dropped messages, ZooKeeper's slow fsync, Ignite's
// pause) reach no finding: no oom-kill, no host finding.
func TestH28dPlatformFindings(t *testing.T) {
	parse := func(text string) Diagnosis {
		tl, err := artifact.Parse(strings.NewReader(text), "t.txt", artifact.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return Run(tl, nil)
	}
	crash := "# There is insufficient memory for the Java Runtime Environment to continue.\n" +
		"# Native memory allocation (mmap) failed to map 12288 bytes for committing reserved memory.\n" +
		"OpenJDK 64-Bit Server VM warning: INFO: os::commit_memory(0x00007f3c2a1f0000, 12288, 0) failed; error='Cannot allocate memory' (errno=12)\n\n"
	d := parse(crash + "Memory: 4k page, physical 16318160k(178928k free), swap 0k(0k free)\n")
	if len(d.Findings) != 0 {
		t.Errorf("hs_err's crash and memory line: findings %+v, want none", d.Findings)
	}
	swapChecked := false
	for _, c := range d.Checks {
		if c.ID == "swap-under-load" && c.Status == StatusOK {
			swapChecked = true
		}
	}
	if !swapChecked {
		t.Errorf("swap-under-load not checked from the hs_err memory line's swap 0k")
	}
	// swap partly used, no rate: not swap-under-load; exhausted (>= 95%): the rule's
	// documented snapshot warning, as free's "Swap:" row gives it, never critical.
	d = parse(crash + "Memory: 4k page, physical 16318160k(9178928k free), swap 2097148k(1048576k free)\n")
	if fs := findings(d, "swap-under-load"); len(fs) != 0 {
		t.Errorf("swap figures without rates read as swap under load: %+v", fs)
	}
	d = parse(crash + "Memory: 4k page, physical 16318160k(178928k free), swap 2097148k(1024k free)\n")
	if fs := findings(d, "swap-under-load"); len(fs) != 1 || fs[0].Severity != Warning {
		t.Errorf("exhausted swap in the hs_err line: %+v, want one warning", fs)
	}
	d = parse(crash + "/proc/meminfo:\nMemTotal:       16318160 kB\nMemFree:          178928 kB\nMemAvailable:     412344 kB\nSwapTotal:             0 kB\nSwapFree:              0 kB\nCommitted_AS:   21345678 kB\nCommitLimit:     8159080 kB\n\n" +
		"Memory: 4k page, physical 16318160k(178928k free), swap 0k(0k free)\n")
	if fs := mustHave(t, d, "overcommit-exposed", Info); !evidenceHas(fs[0], "Committed_AS", "20.4 GiB") {
		t.Errorf("overcommit-exposed without Committed_AS: %+v", fs[0].Evidence)
	}
	for name, text := range map[string]string{
		"clickhouse": "2022.11.28 03:12:44.123456 [ 12345 ] {abc-123} <Error> executeQuery: Code: 241. DB::Exception: Memory limit (total) exceeded: would use 64.68 GiB (attempt to allocate chunk of 4194304 bytes), maximum: 51.44 GiB. OvercommitTracker decision: Query was selected to stop by OvercommitTracker.: While executing AggregatingTransform. (MEMORY_LIMIT_EXCEEDED)\n" +
			"2022.11.28 03:12:45.000001 [ 12346 ] {} <Error> void DB::MergeTreeBackgroundExecutor<DB::MergeMutateRuntimeQueue>::routine(DB::TaskRuntimeDataPtr): Code: 173. DB::ErrnoException: Allocator: Cannot mmap 1.00 GiB., errno: 12, strerror: Cannot allocate memory. (CANNOT_ALLOCATE_MEMORY)\n",
		"map failed": "[2022-11-28 03:12:44,123] ERROR Error while loading log dir /var/lib/kafka/data (kafka.log.LogManager)\njava.io.IOException: Map failed\n\tat sun.nio.ch.FileChannelImpl.map(FileChannelImpl.java:1016)\nCaused by: java.lang.OutOfMemoryError: Map failed\n$ sysctl vm.max_map_count\nvm.max_map_count = 65530\n",
		"cassandra":  "Message type           Dropped\nREAD                         0\nMUTATION                 12345\n\nWARN  [GossipTasks:1] 2022-11-28 03:12:44,123 FailureDetector.java:288 - Not marking nodes down due to local pause of 12345678901 > 5000000000\nINFO  [Service Thread] 2022-11-28 03:12:40,000 GCInspector.java:284 - G1 Young Generation GC in 1234ms.  G1 Eden Space: 1234567890 -> 0;\n",
		"zookeeper":  "2022-11-28 03:12:44,123 [myid:1] - WARN  [SyncThread:0:FileTxnLog@338] - fsync-ing the write ahead log in SyncThread:0 took 12345ms which will adversely effect operation latency. File size is 67108880 bytes. See the ZooKeeper troubleshooting guide\n",
		"ignite":     "[03:12:44,123][WARNING][jvm-pause-detector-worker][IgniteKernal] Possible too long JVM pause: 1234 milliseconds.\n",
	} {
		if d := parse(text); len(d.Findings) != 0 {
			ids := []string{}
			for _, f := range d.Findings {
				ids = append(ids, f.ID)
			}
			t.Errorf("%s: findings %v, want none (the program's own limit)", name, ids)
		}
	}
}
