package artifact

import (
	"strconv"
	"strings"
)

// Search and big-data JVM clusters' own messages (pre-round 15, h15c; each format string
// written from the program's source): Elasticsearch/OpenSearch, Hadoop YARN and HDFS, Spark,
// Flink, ZooKeeper, Trino/Presto, Solr and HotSpot itself. Each names a limit of the
// program's or the JVM's own (a GC's share of time, a container's allocation that YARN's
// NodeManager enforces by killing it, a query's memory pool, a per-IP connection cap), or a
// peer the program stopped hearing from (a heartbeat, a session, an idle channel). None is
// the kernel's OOM killer: YARN's ContainersMonitor kills with SIGTERM then SIGKILL from
// user space and says so; Solr's oom_solr.sh echoes "Killed process N" after its own kill
// -9. A paste of only such lines held nothing headroom read (exit 3) or was read as a
// sentence's figures. HotSpot's native allocation refused by the kernel (os::commit_memory
// ENOMEM) is the host refusing memory: its figures are kept and overcommit-exposed reads the
// host's Committed_AS and CommitLimit when the text holds them (hs_err's /proc/meminfo).
//
// Gated: jvmClusterLine runs on prose lines and on handed syslog lines (the JVM tags, a
// log4j line the splitter took with its level as the host); one IndexAny for the forms'
// rare bytes, then strings.Index per form. No regexp.

// jvmForms: a fixed part of the program's format string, a second that must follow it (""
// for none), whether it is the program's own out-of-memory, and what it proves.
var jvmForms = []ownLineForm{
	// Elasticsearch/OpenSearch monitor/jvm/JvmGcMonitorService.java: OVERHEAD_LOG_MESSAGE
	// "[gc][{}] overhead, spent [{}] collecting in the last [{}]" and SLOW_GC_LOG_MESSAGE
	// "[gc][{}][{}][{}] duration [{}], collections [{}]/[{}], total [{}]/[{}], memory
	// [{}]->[{}]/[{}], all_pools {}".
	{"[gc][", "] overhead, spent [", false, "Elasticsearch's/OpenSearch's GC monitor (JvmGcMonitorService: \"[gc][N] overhead, spent [T] collecting in the last [W]\"): the share of time the JVM spent collecting its own heap (-Xmx), a heap under pressure; not the kernel's memory and no kill"},
	{"[gc][", "] duration [", false, "Elasticsearch's/OpenSearch's GC monitor of one slow collection (JvmGcMonitorService: \"[gc][old][N][M] duration [T], ... memory [B]->[A]/[MAX]\"): the JVM's heap before, after and at its -Xmx; not the kernel's memory and no kill"},
	// Elasticsearch DiskThresholdMonitor: "low|high|flood stage disk watermark [%s] exceeded
	// on %s ...".
	{"disk watermark [", "] exceeded on ", false, "Elasticsearch's/OpenSearch's disk threshold monitor (DiskThresholdMonitor: \"high disk watermark [P] exceeded on [node][path] free: F\"; flood stage marks the indices read-only): the data path's free disk, not memory or the network"},
	// Elasticsearch ElasticsearchUncaughtExceptionHandler: "fatal error in thread [%s],
	// exiting" (an Error, most often OutOfMemoryError on the next line), then halt.
	{"fatal error in thread [", "], exiting", false, "Elasticsearch's/OpenSearch's uncaught-exception handler halting the JVM on an Error (\"fatal error in thread [T], exiting\"; the Error follows, an OutOfMemoryError being the JVM's own heap or direct-memory limit): the process exits by itself, no kill by the kernel's OOM killer"},
	// BootstrapChecks: the summary line ahead of the checks, and the two checks whose advice
	// is "[unlimited]".
	{"] bootstrap checks failed", "", false, "Elasticsearch's/OpenSearch's bootstrap checks refused to start the node (\"[N] bootstrap checks failed\"; each check's line follows): its own start-up requirements, not a failure of the host's memory"},
	{"] is too low, increase to [unlimited]", "", false, "Elasticsearch's/OpenSearch's bootstrap check of a process limit (max size virtual memory, max file size: RLIMIT_AS, RLIMIT_FSIZE): the process's ulimit, not the host's memory"},
	// Elasticsearch JNANatives.tryMlockall when mlockall failed with ENOMEM: "Increase
	// RLIMIT_MEMLOCK, soft limit: %d, hard limit: %d" (bytes, or "unlimited").
	{"Increase RLIMIT_MEMLOCK, soft limit: ", ", hard limit: ", false, "Elasticsearch's/OpenSearch's report that mlockall of its heap failed for its lock limit (JNANatives: \"Increase RLIMIT_MEMLOCK, soft limit: S, hard limit: H\"): mlockall's ENOMEM (\"Cannot allocate memory\") here is the process's RLIMIT_MEMLOCK (limits.conf memlock, systemd's LimitMEMLOCK), not the host's memory"},
	{"initial heap size [", "] not equal to maximum heap size [", false, "Elasticsearch's/OpenSearch's bootstrap check of its heap settings (-Xms unequal to -Xmx): the JVM's own configuration, not the host's memory"},
	// Hadoop YARN ContainersMonitorImpl: 2.x "Container [pid=%s,containerID=%s] is running
	// beyond %s memory limits. Current usage: %sB of %sB physical memory used; %sB of %sB
	// virtual memory used. Killing container."; 3.x "... is running %dB beyond the '%S'
	// memory limit. Current usage: ...".
	{"Current usage: ", " physical memory used", true, "YARN's NodeManager killed a container over its own allocation (ContainersMonitorImpl: \"Container [pid=P,containerID=C] is running beyond physical|virtual memory limits. Current usage: U of L physical memory used; V of W virtual memory used. Killing container.\"): the container's process tree (RSS, or its address space for the virtual check, yarn.nodemanager.vmem-pmem-ratio) against the memory YARN granted it; YARN sends SIGTERM then SIGKILL itself (exit 143, -104/-103), no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// ContainersMonitorImpl's line ahead of the kill (Hadoop 2.x isProcessTreeOverLimit):
	// "Process tree for container: %s has processes older than 1 iteration running over the
	// configured limit. Limit=%d, current usage = %d" (bytes).
	{"Process tree for container: ", " running over the configured limit. Limit=", true, "YARN's NodeManager found a container's process tree over its memory allocation (ContainersMonitorImpl: \"Process tree for container: C has processes older than 1 iteration running over the configured limit. Limit=L, current usage = U\", bytes) and kills it next: the container's own allocation, YARN's kill (SIGTERM then SIGKILL), no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// Spark YarnAllocator relays it: "Container killed by YARN for exceeding memory limits.
	// %s of %s physical memory used. Consider boosting spark.yarn.executor.memoryOverhead".
	{"Container killed by YARN for exceeding ", "", true, "Spark's report of YARN's own kill of an executor over its container's allocation (YarnAllocator: \"Container killed by YARN for exceeding memory limits. U of L physical memory used. Consider boosting spark.executor.memoryOverhead\"): the executor's heap plus overhead against what YARN granted; YARN's NodeManager killed it, no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// Spark YarnAllocator: a failed container and its exit status, ahead of YARN's own
	// diagnostics it quotes.
	{"Container from a bad node: ", "Exit status: ", false, "Spark's report of a YARN container that failed (YarnAllocator: \"Container from a bad node: C on host: H. Exit status: N. Diagnostics: ...\"): 137 is a SIGKILL (the kernel's OOM killer, YARN's own kill, anyone's kill -9), 143 a SIGTERM; the exit status names no killer"},
	{"Container marked as failed: ", "Exit status: ", false, "Spark's report of a YARN container that failed (\"Container marked as failed: C on host: H. Exit status: N\"): 137 is a SIGKILL, 143 a SIGTERM; the exit status names no killer"},
	// YARN ContainerExecutor / ContainerLaunch diagnostics.
	{"Container killed on request. Exit code is ", "", false, "YARN's diagnostic of a container its NodeManager killed on request (the ApplicationMaster's, the ResourceManager's or its own memory monitor's): exit 143 is SIGTERM, 137 SIGKILL after the grace period; YARN's own kill, not the kernel's OOM killer"},
	{"Container exited with a non-zero exit code ", "", false, "YARN's diagnostic of a container's exit status (\"Container exited with a non-zero exit code N\"): 137 is 128+9, a SIGKILL, which the kernel's OOM killer sends and so do YARN's own kill after its grace period, a cgroup's and any kill -9; 143 is SIGTERM; the kernel's own kill line (\"Out of memory: Killed process N\") would say which and is not this line"},
	{"Killed by external signal", "", false, "YARN's diagnostic that the container died by a signal its NodeManager did not send (the kernel's OOM killer, a cgroup's, anyone's kill -9): no statement of which; the kernel's own kill line would say"},
	// Spark scheduler: TaskSetManager's reason, HeartbeatReceiver, the RPC layer, the
	// network module's TransportChannelHandler.
	{"ExecutorLostFailure (executor ", "", false, "Spark lost the executor running a task (ExecutorLostFailure; the Reason after it says why: YARN's memory kill, an exit status, a lost heartbeat): Spark's own report, the killer named only there"},
	{"Executor heartbeat timed out after ", "", false, "Spark's driver heard no heartbeat from an executor within spark.network.timeout (HeartbeatReceiver: \"Executor heartbeat timed out after N ms\"): a long GC pause, a lost host or the path to it; no kernel counter or memory figure"},
	{"Remote RPC client disassociated", "", false, "Spark's RPC layer lost an executor's connection (\"Remote RPC client disassociated. Likely due to containers exceeding thresholds, or network issues\"): Spark's guess names both; no kernel counter or memory figure"},
	{"Connection to ", " ms while there are outstanding requests", false, "Spark's network module closed a connection idle past spark.network.timeout with requests outstanding (TransportChannelHandler: \"Connection to H has been quiet for N ms while there are outstanding requests. Assuming connection is dead\"): the peer stalled (GC) or the path failed; no kernel counter"},
	// Hadoop common util/JvmPauseMonitor (HDFS, YARN, HBase, ZooKeeper 3.6+): "Detected
	// pause in JVM or host machine (eg GC): pause of approximately %dms" then the GC pools'
	// counts or "No GCs detected".
	{"Detected pause in JVM or host machine (eg GC): pause of approximately ", "", false, "Hadoop's JvmPauseMonitor found its sleeping thread woke late (\"Detected pause in JVM or host machine (eg GC): pause of approximately Nms\"): with GC pools' counts after it the JVM's own collection; with \"No GCs detected\" the whole process stalled (the host swapping or reclaiming, a VM paused), cause not stated; no memory figure of the host's"},
	// HDFS DataXceiverServer / DataXceiver; Hadoop net SocketIOWithTimeout.
	{"Xceiver count ", " exceeds the limit of concurrent xcievers: ", false, "HDFS's DataNode refused a block transfer at its own thread limit (DataXceiverServer: \"Xceiver count N exceeds the limit of concurrent xcievers: M\", dfs.datanode.max.transfer.threads): a configured limit, not memory or the kernel's network"},
	{"DataXceiver error processing ", "", false, "HDFS's DataNode reports a block transfer that failed (DataXceiver: \"DataXceiver error processing OP operation src: A dst: B\"; the exception after it says why: a peer that closed, a timeout, EMFILE): the program's own report, no kernel counter or memory figure"},
	{" millis timeout while waiting for channel to be ready for ", ". ch : ", false, "Hadoop's socket timeout (SocketIOWithTimeout: \"N millis timeout while waiting for channel to be ready for read|write\", dfs.client.socket-timeout): the peer did not answer in time (a GC pause, a busy disk, the path); no kernel counter"},
	// ZooKeeper ClientCnxn, NIOServerCnxnFactory, KeeperException, the session
	// tracker.
	{"Client session timed out, have not heard from server in ", "", false, "a ZooKeeper client heard nothing from its server within the session's read timeout (ClientCnxn: \"Client session timed out, have not heard from server in Nms for sessionid S, closing socket connection and attempting reconnect\"): a GC pause on either side, a slow server (its fsync) or the path; no kernel counter or memory figure"},
	{"Unable to read additional data from server sessionid ", "", false, "a ZooKeeper client's connection was closed by the server (ClientCnxn: \"Unable to read additional data from server sessionid S, likely server has closed socket\"): the server's side (its maxClientCnxns, a restart, an expired session); no kernel counter"},
	{"Too many connections from ", " - max is ", false, "ZooKeeper refused a client at its own per-address limit (NIOServerCnxnFactory: \"Too many connections from A - max is N\", maxClientCnxns): a configured limit, not the kernel's sockets or memory"},
	{"KeeperErrorCode = ConnectionLoss", "", false, "a ZooKeeper client's request failed because its connection to the ensemble was lost (KeeperException.ConnectionLossException): the program's report, cause not stated; no kernel counter"},
	{"Expiring session 0x", ", timeout of ", false, "ZooKeeper's server expired a client's session it heard nothing from within the timeout (SessionTrackerImpl: \"Expiring session 0xS, timeout of Nms exceeded\"): the client's side (a GC pause, a lost host or path); no kernel counter"},
	// Flink runtime: HeartbeatMonitorImpl's timeout relayed by the JobMaster/ResourceManager,
	// the network stack's CreditBasedPartitionRequestClientHandler.
	{"Heartbeat of TaskManager with id ", " timed out", false, "Flink heard no heartbeat from a TaskManager within heartbeat.timeout (\"Heartbeat of TaskManager with id T timed out\"): a long GC pause, a killed container or a lost host or path; Flink's own timeout, no kernel counter or memory figure"},
	{"Heartbeat of JobManager with id ", " timed out", false, "a Flink TaskManager heard no heartbeat from its JobManager within heartbeat.timeout: Flink's own timeout, no kernel counter"},
	{"TaskManager with id ", " is no longer reachable", false, "Flink's JobMaster lost a TaskManager (\"TaskManager with id T is no longer reachable\"): its process died or the path failed; Flink's own report, no kernel counter"},
	{"Connection unexpectedly closed by remote task manager", "", false, "Flink's network stack saw a peer TaskManager close a data connection (\"Connection unexpectedly closed by remote task manager 'H'. This might indicate that the remote task manager was lost.\"): the peer died or was killed; the kernel's kill line on that host would say by whom"},
	// Trino/Presto memory/QueryContext ExceededMemoryLimitException: "Query exceeded
	// per-node [user|total] memory limit of %s [%s]", "Query exceeded distributed user
	// memory limit of %s".
	{"Query exceeded ", "memory limit of ", true, "Trino's/Presto's own memory accounting failed a query (ExceededMemoryLimitException: \"Query exceeded per-node|distributed memory limit of L [Allocated: A, Delta: D, Top Consumers: ...]\", query.max-memory-per-node, query.max-memory): the query's pool inside the JVM's heap; no kill by the kernel's OOM killer and no statement about the host's free memory"},
	{"Encountered too many errors talking to a worker node", "", false, "Trino/Presto gave up on a worker (PAGE_TRANSPORT_TIMEOUT: \"Encountered too many errors talking to a worker node. The node may have crashed or be under too much load\"): the worker's side (a GC pause, a crash) or the path; no kernel counter or memory figure"},
	// HotSpot: OutOfMemoryError kinds beside Java heap space (appHostReasons), and the
	// ExitOnOutOfMemoryError / CrashOnOutOfMemoryError lines.
	{"OutOfMemoryError: Metaspace", "", true, "the JVM's class-metadata space reached -XX:MaxMetaspaceSize (OutOfMemoryError: Metaspace): the JVM's own limit, no kill by the kernel's OOM killer and no statement about the host's free memory"},
	{"OutOfMemoryError: Compressed class space", "", true, "the JVM's compressed class space reached -XX:CompressedClassSpaceSize: the JVM's own limit, not the kernel's memory"},
	{"OutOfMemoryError: Requested array size exceeds VM limit", "", true, "a Java array larger than the JVM can index was requested: the JVM's own limit, not the kernel's memory"},
	// HotSpot os_linux.cpp os::create_thread: log_warning(os, thread)("Failed to start
	// thread \"%s\" - pthread_create failed (%s) for attributes: %s.").
	{"Failed to start thread ", " - pthread_create failed (", false, "HotSpot could not start a thread (os_linux.cpp os::create_thread: \"Failed to start thread T - pthread_create failed (EAGAIN) for attributes: stacksize: ...\"): EAGAIN is RLIMIT_NPROC, a pids cgroup or kernel.threads-max, ENOMEM the thread's stack not mapped; not by itself a shortage of the host's memory"},
	// HotSpot os_linux.cpp warn_fail_commit_memory: "INFO: os::commit_memory(" PTR_FORMAT ",
	// " SIZE_FORMAT ", %d) failed; error='%s' (errno=%d)": the kernel refused the mmap.
	{"os::commit_memory(", ") failed; error=", true, "HotSpot's commit of reserved memory was refused by the kernel (os_linux.cpp warn_fail_commit_memory: \"os::commit_memory(ADDR, N, X) failed; error='Cannot allocate memory' (errno=12)\"): mmap returned ENOMEM: the host's overcommit accounting (vm.overcommit_memory 2's CommitLimit, or mode 0's heuristic with RAM and swap short), RLIMIT_AS or vm.max_map_count refused it; the JVM aborts and writes hs_err_pid<N>.log, no kill by the kernel's OOM killer; `grep -E 'Committed_AS|CommitLimit' /proc/meminfo; sysctl vm.overcommit_memory` would say which"},
	{"There is insufficient memory for the Java Runtime Environment to continue", "", true, "HotSpot's fatal-error banner after its native allocation was refused (vmError.cpp; the next line says mmap or malloc and the bytes): the host's overcommit accounting, RLIMIT_AS or vm.max_map_count refused the JVM's memory and the JVM aborted itself, no kill by the kernel's OOM killer"},
	// HotSpot at start (h23a: a game server's java -Xmx above what the VPS can back):
	// universe.cpp / gcArguments: "Could not reserve enough space for %zuKB object heap",
	// arguments.cpp: "Invalid maximum heap size: %s" (a 32-bit JVM or a value it cannot parse).
	{"Could not reserve enough space for ", "object heap", true, "HotSpot could not reserve the address range of its heap at start (\"Could not reserve enough space for NKB object heap\"): -Xmx larger than the process may map: a 32-bit JVM's address space, RLIMIT_AS (ulimit -v) or vm.overcommit_memory 2's CommitLimit; the JVM did not start and used no memory, no kill by the kernel's OOM killer"},
	{"Invalid maximum heap size: ", "", false, "HotSpot refused its -Xmx at start (arguments.cpp: \"Invalid maximum heap size: -XmxN\"): a value the JVM cannot use (a 32-bit JVM above its address space, or a typo); the JVM did not start: no statement about the host's memory"},
	// Solr bin/oom_solr.sh, run by -XX:OnOutOfMemoryError: it echoes "Running OOM killer
	// script for process $PID for Solr on port $PORT", kill -9s it, echoes "Killed process
	// $PID" into solr_oom_killer-PORT-DATE.log.
	// Solr bin/solr's ulimit checks (SOLR_ULIMIT_CHECKS): echo "*** [WARN] *** Your open
	// file limit is currently $(ulimit -n)." and "*** [WARN] ***  Your Max Processes Limit
	// is currently $(ulimit -u)." below SOLR_RECOMMENDED_OPEN_FILES / _MAX_PROCESSES (65000).
	{"[WARN] ***", " open file limit is currently ", false, "Solr's start script found its open-file limit below the recommended 65000 (bin/solr ulimit check: \"*** [WARN] *** Your open file limit is currently N.\"): the process's RLIMIT_NOFILE (ulimit -n, systemd's LimitNOFILE), not memory and not fs.file-max"},
	{"[WARN] ***", " Max Processes Limit is currently ", false, "Solr's start script found its process limit below the recommended 65000 (bin/solr ulimit check: \"*** [WARN] *** Your Max Processes Limit is currently N.\"): the user's RLIMIT_NPROC (ulimit -u, systemd's LimitNPROC), not memory"},
	{"Running OOM killer script for process ", " for Solr on port ", true, "Solr's own OOM script (bin/oom_solr.sh, run by -XX:OnOutOfMemoryError after the JVM's heap ran out) sent kill -9 to Solr; its \"Killed process N\" is the script's echo, not the kernel's OOM killer; the JVM's heap limit, no statement about the host's free memory"},
}

// jvmGate: bytes one of which every form's needles hold (TestH15cJVMGate).
const jvmGate = "[]CEFKDXRTHQOU:"

// maxJVMLineBytes: an Elasticsearch JSON record or a Spark failure reason runs long.
const maxJVMLineBytes = 4096

// jvmClusterLine says why t is one of jvmForms' messages, and whether it is the program's
// own out-of-memory. A source's format string quoted ("%s", "{}") is no record.
func jvmClusterLine(t string) (why string, oom, ok bool) {
	if hotspotFlagLine(t) {
		return hotspotFlagsWhy, false, true // -XX:+PrintFlagsFinal's table (hotspotflags.go)
	}
	if len(t) > maxJVMLineBytes || strings.IndexAny(t, jvmGate) < 0 {
		return "", false, false
	}
	for _, f := range jvmForms {
		k, _, ok := f.find(t)
		if !ok {
			continue
		}
		if formatString(t) || strings.Contains(t, "[{}]") || adviceLead(t[:k]) {
			return "", false, false
		}
		return f.why + "; headroom has no reader for this log", f.oom, true
	}
	return "", false, false
}

// adviceLead: the words before a message on its line make it a condition or an example
// ("If you see Container killed by YARN ..., raise memoryOverhead", "e.g. Query exceeded
// ..."), not this host's record.
func adviceLead(head string) bool {
	if len(head) < 4 {
		return false
	}
	h := strings.ToLower(head)
	for _, w := range []string{"if you ", "when you ", "whenever you ", "if the ", "if it ", "if a "} {
		if strings.Contains(h, w) {
			return true
		}
	}
	return reExampleLead.MatchString(head)
}

// jvmOOMText: s holds a JVM's own out-of-memory message (an OutOfMemoryError, or one of
// jvmForms' own limits): its "OOM" is the JVM's or the framework's, not the kernel's killer.
func jvmOOMText(s string) bool {
	if strings.Contains(s, "OutOfMemoryError") {
		return true
	}
	_, oom, ok := jvmClusterLine(s)
	return ok && oom
}

// isJVMTag: the syslog tags of these programs' units (java and elasticsearch/opensearch are
// isAgentTag's and isDBTag's).
func isJVMTag(tag string) bool {
	switch tag {
	case "hadoop-yarn-nodemanager", "yarn", "hdfs", "hadoop", "zookeeper", "zkServer.sh", "flink",
		"spark", "spark-submit", "trino", "trino-server", "presto", "presto-server", "solr", "hive":
		return true
	}
	return false
}

// log4jLevelHost: a log4j line ("2019-05-06 07:08:09,101 WARN org.apache.hadoop...Impl:
// ...") the syslog splitter took with its level as the host and its logger, a dotted Java
// class name, as the tag.
func log4jLevelHost(l *Line) bool {
	if l.Kernel || len(l.Host) < 4 || len(l.Host) > 5 || strings.IndexByte(l.Tag, '.') < 0 {
		return false
	}
	switch l.Host {
	case "WARN", "ERROR", "FATAL", "INFO":
		return true
	}
	return false
}

// jvmLine: line i is one of jvmForms' messages: named, its figures kept; a guide's example
// of the message stays prose.
func (d *doc) jvmLine(i int) bool {
	why, oom, ok := jvmClusterLine(d.ls[i].Text)
	if !ok {
		return false
	}
	if d.exampleLog(i) {
		d.keepProse(i)
		return true
	}
	d.programOOMNamed = d.programOOMNamed || oom
	d.unparsedUnread(i, why)
	d.jvmFigures(i)
	d.frameworkKill(i) // YARN's own kill of a Spark executor (unreadmlfw.go)
	return true
}

// jvmFigureForms: the figures a message states after its fixed words, each a size ("2.1 GB",
// "7.6gb"), a duration in ms or a count, in the order its format string prints them; anchors,
// when given, are the words right before each figure ("would be [" in "would be
// [8231237632/7.6gb]", whose "7.6gb" is the same figure again).
var jvmFigureForms = []struct {
	program, needle string
	names, anchors  []string
	sizes           bool
}{
	{"yarn", "Current usage: ", []string{"pmem_used_bytes", "pmem_limit_bytes", "vmem_used_bytes", "vmem_limit_bytes"}, nil, true},
	{"yarn", " running over the configured limit. Limit=", []string{"limit_bytes", "usage_bytes"}, []string{"", "current usage = "}, false},
	{"spark", "Container killed by YARN for exceeding ", []string{"pmem_used_bytes", "pmem_limit_bytes"}, nil, true},
	{"elasticsearch", "] Data too large, data for [", []string{"would_be_bytes", "limit_bytes"}, []string{" would be [", " the limit of ["}, false},
	{"elasticsearch", "] duration [", []string{"heap_before_bytes", "heap_after_bytes", "heap_max_bytes"}, []string{"memory [", "->[", "/["}, true},
	{"netty", "OutOfDirectMemoryError: failed to allocate ", []string{"request_bytes", "used_bytes", "max_bytes"}, nil, false},
	{"hotspot", "os::commit_memory(", []string{"request_bytes"}, []string{", "}, false},
	{"hotspot", "Native memory allocation (mmap) failed to map ", []string{"request_bytes"}, nil, false},
	{"hadoop", "pause of approximately ", []string{"pause_ms"}, nil, false},
	{"hdfs", "Xceiver count ", []string{"xceivers", "max_xceivers"}, []string{"", "xcievers: "}, false},
	{"zookeeper", "have not heard from server in ", []string{"silence_ms"}, nil, false},
	{"zookeeper", " - max is ", []string{"max_client_cnxns"}, nil, false},
	{"spark", "Executor heartbeat timed out after ", []string{"silence_ms"}, nil, false},
	{"trino", "memory limit of ", []string{"limit_bytes"}, nil, true},
	{"elasticsearch", "Increase RLIMIT_MEMLOCK, soft limit: ", []string{"memlock_soft_bytes", "memlock_hard_bytes"}, []string{"", "hard limit: "}, false},
	{"solr", " open file limit is currently ", []string{"open_files_limit"}, nil, false},
	{"solr", " Max Processes Limit is currently ", []string{"max_processes_limit"}, nil, false},
}

// jvmFigures adds the figures line i states when it is one of jvmFigureForms' messages.
func (d *doc) jvmFigures(i int) {
	if d.programFigureCount >= maxProgramFigureArtifacts {
		return
	}
	t := d.ls[i].Text
	for _, f := range jvmFigureForms {
		k := strings.Index(t, f.needle)
		if k < 0 {
			continue
		}
		rest := t[k+len(f.needle):]
		data := map[string]any{"program": f.program}
		for n, name := range f.names {
			var v int64
			var ok bool
			if n < len(f.anchors) {
				a := strings.Index(rest, f.anchors[n])
				if a < 0 {
					break
				}
				rest = rest[a+len(f.anchors[n]):]
				if !startsWithDigit(rest) {
					break // the figure right after its words, or none
				}
			}
			if f.sizes {
				v, rest, ok = nextSize(rest)
			} else {
				v, rest, ok = nextInt(rest)
			}
			if !ok {
				break
			}
			data[name] = v
		}
		if len(data) == 1 {
			return
		}
		if p := strings.Index(t[:k], "Container [pid="); f.program == "yarn" && p >= 0 {
			if pid := leadingDigits(t[p+len("Container [pid="):]); pid != "" {
				data["container_pid"], _ = strconv.ParseInt(pid, 10, 64) // the container's launcher
			}
		}
		data["message"] = clip(strings.TrimSpace(t[k:]), 120)
		d.programFigureCount++
		d.addArtifact(KindProgramLimit, d.ls[i].No, d.ls[i].No, data)
		return
	}
}

// nextSize: the first size in s within reach ("2.1 GB", "10.4 GiB", "7.6gb", "512 MB",
// "10GB", "4096B"), in bytes (binary multiples, as YARN's, Spark's and Elasticsearch's
// formatters print them), and the rest after it.
func nextSize(s string) (int64, string, bool) {
	j := strings.IndexAny(s, "0123456789")
	if j < 0 || j > 40 {
		return 0, s, false
	}
	e := j
	for e < len(s) && (s[e] >= '0' && s[e] <= '9' || s[e] == '.') {
		e++
	}
	v, err := strconv.ParseFloat(s[j:e], 64)
	if err != nil {
		return 0, s, false
	}
	u := e
	for u < len(s) && s[u] == ' ' {
		u++
	}
	mult := float64(1)
	if u < len(s) {
		switch s[u] | 0x20 {
		case 'k':
			mult = 1 << 10
		case 'm':
			mult = 1 << 20
		case 'g':
			mult = 1 << 30
		case 't':
			mult = 1 << 40
		case 'p':
			mult = 1 << 50
		case 'b':
		default:
			return 0, s, false // a count or a time, not a size
		}
	} else {
		return 0, s, false
	}
	return int64(v * mult), s[u:], true
}
