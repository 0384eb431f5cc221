package artifact

import (
	"strings"
	"testing"
)

// Pre-round 15 (h15c): search and big-data JVM clusters' own messages, read from their
// source (unreadjvm.go). Snippets written for each class from the format strings, in the
// forms users paste them (bare, log4j, syslog under the unit's tag, docker compose, JSON
// records, quoted mail); none copied from a case.

// Each message is named as the program's, with what it proves; none is an OOM stated or a
// kill by the kernel; a text of only such lines is read (not exit 3).
func TestH15cJVMOwnLinesNamed(t *testing.T) {
	for _, c := range []struct{ text, word string }{
		{"[2021-01-01T00:00:00,000][WARN ][o.e.m.j.JvmGcMonitorService] [node-1] [gc][12345] overhead, spent [1.2s] collecting in the last [1.5s]\n", "share of time the JVM spent collecting"},
		{"Nov 30 02:10:11 es1 elasticsearch[1234]: [2021-01-01T00:00:00,000][WARN ][o.e.m.j.JvmGcMonitorService] [node-1] [gc][12345] overhead, spent [1.2s] collecting in the last [1.5s]\n", "JvmGcMonitorService"},
		{"es01  | {\"@timestamp\":\"2023-05-02T10:11:12.345Z\", \"log.level\": \"WARN\", \"message\":\"[gc][98765] overhead, spent [3.4s] collecting in the last [3.6s]\", \"ecs.version\": \"1.2.0\",\"log.logger\":\"org.elasticsearch.monitor.jvm.JvmGcMonitorService\",\"elasticsearch.node.name\":\"es01\"}\n", "JvmGcMonitorService"},
		{"{\"type\": \"server\", \"timestamp\": \"2021-06-01T12:00:10,456Z\", \"level\": \"ERROR\", \"component\": \"o.e.b.ElasticsearchUncaughtExceptionHandler\", \"node.name\": \"es-data-2\", \"message\": \"fatal error in thread [elasticsearch[es-data-2][search][T#3]], exiting\" }\n", "uncaught-exception handler"},
		{"[2022-01-01T00:00:00,000][WARN ][o.e.c.r.a.DiskThresholdMonitor] [node-1] high disk watermark [90%] exceeded on [abc][node-1][/var/lib/elasticsearch/nodes/0] free: 4.5gb[8.9%], shards will be relocated away from this node\n", "free disk"},
		{"ERROR: [3] bootstrap checks failed. You must address the points described in the following [3] lines before starting Elasticsearch.\n", "bootstrap checks"},
		{"2019-05-06 07:08:09,101 WARN org.apache.hadoop.yarn.server.nodemanager.containermanager.monitor.ContainersMonitorImpl: Container [pid=12345,containerID=container_1557000000000_0042_01_000007] is running beyond physical memory limits. Current usage: 2.1 GB of 2 GB physical memory used; 4.5 GB of 4.2 GB virtual memory used. Killing container.\n", "ContainersMonitorImpl"},
		{"Nov 30 02:10:11 nm1 java[4321]: 2021-08-09 10:11:12,131 WARN org.apache.hadoop.yarn.server.nodemanager.containermanager.monitor.ContainersMonitorImpl: Container [pid=4321,containerID=container_e05_1628000000000_0001_01_000002] is running 235012096B beyond the 'PHYSICAL' memory limit. Current usage: 4.2 GB of 4 GB physical memory used; 6.1 GB of 8.4 GB virtual memory used. Killing container.\n", "ContainersMonitorImpl"},
		{"21/03/04 05:06:07 ERROR YarnScheduler: Lost executor 3 on worker-7.example.com: Container killed by YARN for exceeding memory limits.  10.4 GB of 10.4 GB physical memory used. Consider boosting spark.yarn.executor.memoryOverhead.\n", "YARN's own kill"},
		{"Container exited with a non-zero exit code 137. \n", "128+9"},
		{"[2022-07-08 09:10:11.124]Killed by external signal\n", "did not send"},
		{"22/07/08 09:10:11 WARN YarnAllocator: Container from a bad node: container_1657000000000_0003_01_000004 on host: worker-2.example.com. Exit status: 137. Diagnostics: [2022-07-08 09:10:11.123]Container killed on request. Exit code is 137\n", "names no killer"},
		{"22/07/08 09:12:00 WARN HeartbeatReceiver: Removing executor 4 with no recent heartbeats: 160000 ms exceeds timeout 120000 ms\n22/07/08 09:12:00 ERROR TaskSchedulerImpl: Lost executor 4 on worker-2: Executor heartbeat timed out after 160000 ms\n", "spark.network.timeout"},
		{"2020-04-05 06:07:09,001 WARN org.apache.hadoop.hdfs.server.datanode.DataNode: java.io.IOException: Xceiver count 4097 exceeds the limit of concurrent xcievers: 4096\n", "dfs.datanode.max.transfer.threads"},
		{"2020-04-05 06:07:08,910 ERROR org.apache.hadoop.hdfs.server.datanode.DataNode: dn-3.example.com:50010:DataXceiver error processing WRITE_BLOCK operation  src: /10.0.0.12:45678 dst: /10.0.0.13:50010\n", "block transfer"},
		{"2020-04-05 06:07:08,910 WARN org.apache.hadoop.util.JvmPauseMonitor: Detected pause in JVM or host machine (eg GC): pause of approximately 12345ms\n", "No GCs detected"},
		{"2022-10-11 12:13:14,151 [myid:] - INFO  [main-SendThread(zk1.example.com:2181):ClientCnxn$SendThread@1181] - Client session timed out, have not heard from server in 40001ms for sessionid 0x1000a2b3c4d0005, closing socket connection and attempting reconnect\n", "ZooKeeper client"},
		{"2022-10-11 12:13:16,171 [myid:1] - WARN  [NIOServerCxnFactory.AcceptThread:0.0.0.0/0.0.0.0:2181:NIOServerCnxnFactory$AcceptThread@320] - Too many connections from /10.0.0.9 - max is 60\n", "maxClientCnxns"},
		{"org.apache.zookeeper.KeeperException$ConnectionLossException: KeeperErrorCode = ConnectionLoss for /brokers/ids\n", "ConnectionLossException"},
		{"> java.util.concurrent.TimeoutException: Heartbeat of TaskManager with id container_1677000000000_0001_01_000003(worker-5:40123) timed out.\n", "heartbeat.timeout"},
		{"org.apache.flink.runtime.io.network.netty.exception.RemoteTransportException: Connection unexpectedly closed by remote task manager 'worker-5/10.0.0.15:40123'. This might indicate that the remote task manager was lost.\n", "close a data connection"},
		{"Query 20230405_060708_00012_abcde failed: Query exceeded per-node memory limit of 10GB [Allocated: 9.99GB, Delta: 24.00MB, Top Consumers: {HashBuilderOperator=9.50GB}]\n", "query.max-memory-per-node"},
		{"Exception in thread \"main\" java.lang.OutOfMemoryError: Metaspace\n", "MaxMetaspaceSize"},
		{"OpenJDK 64-Bit Server VM warning: INFO: os::commit_memory(0x00000006c0000000, 4294967296, 0) failed; error='Cannot allocate memory' (errno=12)\n", "overcommit accounting"},
		{"# There is insufficient memory for the Java Runtime Environment to continue.\n", "fatal-error banner"},
		{"[12.345s][warning][os,thread] Failed to start thread \"Unknown thread\" - pthread_create failed (EAGAIN) for attributes: stacksize: 1024k, guardsize: 0k, detached.\n", "RLIMIT_NPROC"},
		{"Running OOM killer script for process 4242 for Solr on port 8983\nKilled process 4242\n", "oom_solr.sh"},
	} {
		tl := ParseString(c.text, "t", Options{})
		if !f15Unread(tl, c.word) || statedOOM(tl) || len(f15Kills(tl)) != 0 {
			t.Errorf("%.80q: unparsed %+v stated %v kills %d: want named (%s), no OOM", c.text, tl.Unparsed, statedOOM(tl), len(f15Kills(tl)), c.word)
		}
		checkAccount(t, tl)
	}
}

// The figures, each named for its program: YARN's usage and limit, Spark's relay of it,
// Elasticsearch's breaker and slow GC, netty's counter, HotSpot's request, HDFS's, ZooKeeper's,
// Trino's limit.
func TestH15cJVMFigures(t *testing.T) {
	const gib = 1 << 30
	checkProgramFigures(t, []figureCase{
		{"2019-05-06 07:08:09,101 WARN org.apache.hadoop.yarn.server.nodemanager.containermanager.monitor.ContainersMonitorImpl: Container [pid=12345,containerID=container_1] is running beyond physical memory limits. Current usage: 2.1 GB of 2 GB physical memory used; 4.5 GB of 4.2 GB virtual memory used. Killing container.\n", "yarn", "pmem_limit_bytes", 2 * gib},
		{"Container [pid=12345,containerID=container_1] is running beyond virtual memory limits. Current usage: 1.5 GB of 2 GB physical memory used; 4.5 GB of 4.2 GB virtual memory used. Killing container.\n", "yarn", "vmem_used_bytes", int64(4.5 * gib)},
		{"ExecutorLostFailure (executor 3 exited caused by one of the running tasks) Reason: Container killed by YARN for exceeding memory limits.  10.4 GB of 10 GB physical memory used.\n", "spark", "pmem_limit_bytes", 10 * gib},
		{"org.elasticsearch.common.breaker.CircuitBreakingException: [parent] Data too large, data for [<http_request>] would be [8231237632/7.6gb], which is larger than the limit of [8160437862/7.5gb], real usage: [8231237000/7.6gb], new bytes reserved: [632/632b]\n", "elasticsearch", "limit_bytes", 8160437862},
		{"[2021-01-01T00:00:05,113][INFO ][o.e.m.j.JvmGcMonitorService] [node-1] [gc][old][12350][87] duration [5.1s], collections [1]/[5.4s], total [5.1s]/[1.2m], memory [7.5gb]->[7.25gb]/[8gb], all_pools {}\n", "elasticsearch", "heap_max_bytes", 8 * gib},
		{"io.netty.util.internal.OutOfDirectMemoryError: failed to allocate 16777216 byte(s) of direct memory (used: 1056964615, max: 1073741824)\n", "netty", "max_bytes", 1073741824},
		{"OpenJDK 64-Bit Server VM warning: INFO: os::commit_memory(0x00000006c0000000, 4294967296, 0) failed; error='Cannot allocate memory' (errno=12)\n", "hotspot", "request_bytes", 4294967296},
		{"# Native memory allocation (mmap) failed to map 12288 bytes for committing reserved memory.\n", "hotspot", "request_bytes", 12288},
		{"java.io.IOException: Xceiver count 4097 exceeds the limit of concurrent xcievers: 4096\n", "hdfs", "max_xceivers", 4096},
		{"WARN  [NIOServerCxnFactory.AcceptThread:0.0.0.0/0.0.0.0:2181:NIOServerCnxnFactory$AcceptThread@320] - Too many connections from /10.0.0.9 - max is 60\n", "zookeeper", "max_client_cnxns", 60},
		{"Query exceeded per-node memory limit of 10GB [Allocated: 9.99GB, Delta: 24.00MB]\n", "trino", "limit_bytes", 10 * gib},
	})
}

// Counter-cases: advice, a source's format string, a sentence that names the words, a healthy
// line of the same monitor; and the kernel's kill beside YARN's is still a kill; a title's
// "OOM" over a JVM's heap OOM or YARN's kill is no kill stated by the author.
func TestH15cJVMNotFromOthers(t *testing.T) {
	for _, s := range []string{
		"If you see Container killed by YARN for exceeding memory limits, increase spark.executor.memoryOverhead.",
		"The monitor logs \"Container [pid=%s,containerID=%s] is running beyond %s memory limits. Current usage: %sB of %sB physical memory used\".",
		"The JvmGcMonitorService prints [gc][{}] overhead, spent [{}] collecting in the last [{}] when GC takes too long.",
		"We raised the ZooKeeper session timeout after the client session timed out twice.",
		"Memory usage of ProcessTree 12345 for container-id container_1: 1.1 GB of 2 GB physical memory used; 3.0 GB of 4.2 GB virtual memory used",
		"e.g. Query exceeded per-node memory limit of 10GB",
	} {
		if why, _, ok := jvmClusterLine(s); ok {
			t.Errorf("%q named: %s", s, why)
		}
	}
	tl := ParseString("Nov 30 02:10:11 nm1 hadoop-yarn-nodemanager[4321]: 2019-05-06 07:08:09,101 WARN org.apache.hadoop.yarn.server.nodemanager.containermanager.monitor.ContainersMonitorImpl: Container [pid=12345,containerID=container_1] is running beyond physical memory limits. Current usage: 2.1 GB of 2 GB physical memory used; 4.5 GB of 4.2 GB virtual memory used. Killing container.\n"+
		"Nov 30 02:10:12 nm1 kernel: [812.000000] Out of memory: Killed process 4242 (java) total-vm:9000000kB, anon-rss:8000000kB, file-rss:0kB, shmem-rss:0kB\n", "t", Options{})
	if ks := f15Kills(tl); len(ks) != 1 || !f15Unread(tl, "ContainersMonitorImpl") {
		t.Fatalf("kills %+v unparsed %+v: want the kernel's kill and YARN's line named", ks, tl.Unparsed)
	}
	for _, text := range []string{
		"Elasticsearch node OOM\n\n[2020-02-02T02:02:02,020][ERROR][o.e.b.ElasticsearchUncaughtExceptionHandler] [node-1] fatal error in thread [elasticsearch[node-1][write][T#4]], exiting\njava.lang.OutOfMemoryError: Java heap space\n",
		"Spark executors keep dying with OOM\n\n21/03/04 05:06:07 ERROR YarnScheduler: Lost executor 3 on worker-7: Container killed by YARN for exceeding memory limits.  10.4 GB of 10.4 GB physical memory used.\n",
	} {
		tl := ParseString(text, "t", Options{})
		if statedOOM(tl) || len(f15Kills(tl)) != 0 {
			t.Errorf("%.50q: stated OOM %v kills %d: the JVM's or YARN's own, no kernel kill", text, statedOOM(tl), len(f15Kills(tl)))
		}
	}
	// A log4j line of another logger with a level for a host stays another program's line.
	l := SplitLines("2019-05-06 07:08:09,205 INFO org.apache.hadoop.yarn.server.nodemanager.containermanager.container.ContainerImpl: Container container_1 transitioned from RUNNING to KILLING\n")
	if len(l) != 1 || !log4jLevelHost(&l[0]) {
		t.Fatalf("lines %+v: want a log4j line with its level as the host", l)
	}
	if _, _, ok := jvmClusterLine(l[0].Text); ok {
		t.Errorf("%q named", l[0].Text)
	}
}

// Every form's needles hold a byte of jvmGate, so the gate never hides a form.
func TestH15cJVMGate(t *testing.T) {
	for _, f := range jvmForms {
		if strings.IndexAny(f.needle+f.needle2, jvmGate) < 0 {
			t.Errorf("%q %q: no byte of the gate %q", f.needle, f.needle2, jvmGate)
		}
	}
}

// The streaming parse reads these syslog and log4j lines as the whole-text parse does (the
// JVM tags and log4jLevelHost are in readsTag), inside a log of quiet lines too.
func TestH15cJVMStreamSameAsWhole(t *testing.T) {
	q := quietLines(10)
	for _, s := range []string{
		"Nov 30 02:10:11 es1 elasticsearch[1234]: [2021-01-01T00:00:00,000][WARN ][o.e.m.j.JvmGcMonitorService] [node-1] [gc][12345] overhead, spent [1.2s] collecting in the last [1.5s]\n",
		"Nov 30 02:10:11 nm1 hadoop-yarn-nodemanager[4321]: 2019-05-06 07:08:09,101 WARN org.apache.hadoop.yarn.server.nodemanager.containermanager.monitor.ContainersMonitorImpl: Container [pid=12345,containerID=container_1] is running beyond physical memory limits. Current usage: 2.1 GB of 2 GB physical memory used; 4.5 GB of 4.2 GB virtual memory used. Killing container.\n",
		"2020-04-05 06:07:09,001 WARN org.apache.hadoop.hdfs.server.datanode.DataNode: java.io.IOException: Xceiver count 4097 exceeds the limit of concurrent xcievers: 4096\n",
		"Nov 30 02:10:11 zk1 zookeeper[77]: Too many connections from /10.0.0.9 - max is 60\n",
	} {
		sameAsWhole(t, "h15c", s)
		sameAsWhole(t, "h15c in a log", q+s+q)
	}
}
