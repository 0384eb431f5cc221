package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
)

// Pre-round 15 (h15c): the JVM clusters' texts reach the finding an expert lists, and only
// that. The kernel's kill beside YARN's and Spark's exit 137 is oom-kill (critical, the
// victim's RSS kept); HotSpot's refused commit with hs_err's /proc/meminfo reaches
// overcommit-exposed with Committed_AS; YARN's own kill, a JVM heap OOM under a title's
// "OOM", Elasticsearch's bootstrap checks (vm.max_map_count 65530, the stock default) and a
// circuit breaker reach no finding.
func TestH15cJVMFindings(t *testing.T) {
	parse := func(text string) Diagnosis {
		tl, err := artifact.Parse(strings.NewReader(text), "t.txt", artifact.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return Run(tl, nil)
	}
	d := parse("22/07/08 09:10:11 WARN YarnAllocator: Container from a bad node: container_1657000000000_0003_01_000004 on host: worker-2.example.com. Exit status: 137. Diagnostics: [2022-07-08 09:10:11.123]Container killed on request. Exit code is 137\n" +
		"[2022-07-08 09:10:11.124]Container exited with a non-zero exit code 137. \n[2022-07-08 09:10:11.124]Killed by external signal\n\ndmesg on worker-2:\n" +
		"[1234567.890123] Out of memory: Killed process 23456 (java) total-vm:15728640kB, anon-rss:12582912kB, file-rss:1024kB, shmem-rss:0kB, UID:1001 pgtables:25000kB oom_score_adj:0\n")
	if fs := mustHave(t, d, "oom-kill", Critical); !evidenceHas(fs[0], "", "12582912 kB") {
		t.Errorf("oom-kill without the victim's RSS: %+v", fs[0].Evidence)
	}
	d = parse("OpenJDK 64-Bit Server VM warning: INFO: os::commit_memory(0x00000006c0000000, 4294967296, 0) failed; error='Cannot allocate memory' (errno=12)\n" +
		"#\n# There is insufficient memory for the Java Runtime Environment to continue.\n# Native memory allocation (mmap) failed to map 4294967296 bytes for committing reserved memory.\n\n" +
		"/proc/meminfo:\nMemTotal:        8009192 kB\nMemFree:          148552 kB\nMemAvailable:     201232 kB\nSwapTotal:             0 kB\nSwapFree:              0 kB\nCommitLimit:     4004596 kB\nCommitted_AS:   14345678 kB\n")
	if fs := mustHave(t, d, "overcommit-exposed", Info); !evidenceHas(fs[0], "Committed_AS", "13.7 GiB") {
		t.Errorf("overcommit-exposed without Committed_AS: %+v", fs[0].Evidence)
	}
	if fs := findings(d, "oom-kill"); len(fs) != 0 {
		t.Errorf("HotSpot's refused commit read as a kill: %+v", fs)
	}
	for name, text := range map[string]string{
		"yarn kill": "2019-05-06 07:08:09,101 WARN org.apache.hadoop.yarn.server.nodemanager.containermanager.monitor.ContainersMonitorImpl: Container [pid=12345,containerID=container_1557000000000_0042_01_000007] is running beyond physical memory limits. Current usage: 2.1 GB of 2 GB physical memory used; 4.5 GB of 4.2 GB virtual memory used. Killing container.\nContainer killed on request. Exit code is 143\nContainer exited with a non-zero exit code 143\n",
		"heap oom":  "Elasticsearch node OOM\n\n[2020-02-02T02:02:02,020][ERROR][o.e.b.ElasticsearchUncaughtExceptionHandler] [node-1] fatal error in thread [elasticsearch[node-1][write][T#4]], exiting\njava.lang.OutOfMemoryError: Java heap space\n",
		"spark oom": "Spark executors keep dying with OOM\n\n21/03/04 05:06:07 ERROR YarnScheduler: Lost executor 3 on worker-7: Container killed by YARN for exceeding memory limits.  10.4 GB of 10.4 GB physical memory used.\n",
		"bootstrap": "ERROR: [2] bootstrap checks failed. You must address the points described in the following [2] lines before starting Elasticsearch.\nbootstrap check failure [1] of [2]: max file descriptors [4096] for elasticsearch process is too low, increase to at least [65535]\nbootstrap check failure [2] of [2]: max virtual memory areas vm.max_map_count [65530] is too low, increase to at least [262144]\n",
		"breaker":   "org.elasticsearch.common.breaker.CircuitBreakingException: [parent] Data too large, data for [<http_request>] would be [8231237632/7.6gb], which is larger than the limit of [8160437862/7.5gb], real usage: [8231237000/7.6gb], new bytes reserved: [632/632b]\n",
		"gc":        "[2021-01-01T00:00:00,000][WARN ][o.e.m.j.JvmGcMonitorService] [node-1] [gc][12345] overhead, spent [1.2s] collecting in the last [1.5s]\n",
	} {
		if d := parse(text); len(d.Findings) != 0 {
			ids := []string{}
			for _, f := range d.Findings {
				ids = append(ids, f.ID)
			}
			t.Errorf("%s: findings %v, want none (the program's or the JVM's own limit)", name, ids)
		}
	}
}
