package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// ML and data frameworks' own kills for memory (h21a, written from the frameworks' source):
// Ray's raylet memory monitor, dask's nanny and YARN's NodeManager kill their own workers
// when their own measure of memory crosses their own threshold (a ratio of the node's memory
// as Ray computes it, a per-worker budget, a container's allocation), before and apart from
// the kernel's OOM killer. No kernel OOM happened in such a text and the figures are not the
// host's counters (corpus 1495, 1496: must NOT report oom-kill), so each kill is kept in
// Timeline.FrameworkKills, never as a RuntimeOOM: oom-kill stays not checked and its reason
// names the framework's kill and what is lacking (the kernel's log, the oom_kill counter).
// Their lines are also named unread (appOOMForms, jvmForms) with what they prove.
//
//	Ray src/ray/raylet/node_manager.cc (worker killing policy): "Task was killed due to the
//	  node running low on memory.\nMemory on the node (IP: %s, ID: %s) where the task (%s)
//	  was running was %.2fGB / %.2fGB (%f), which exceeds the memory usage threshold of %f.
//	  Ray killed this worker (ID: %s) because it was the most recently scheduled task ..."
//	  raised to the driver as ray.exceptions.OutOfMemoryError
//	Ray node_manager.cc's periodic summary, printed by the driver under "(raylet)": "%d Workers
//	  (tasks / actors) killed due to memory pressure (OOM), %d Workers crashed due to other
//	  reasons at node (ID: %s, IP: %s) over the last time period."
//	dask distributed/nanny.py (worker_memory.py since 2022.02) memory_terminate: "Worker %s
//	  (pid=%d) exceeded %d%% memory budget. Restarting...", older worker.py "Worker exceeded
//	  %d%% memory budget. Restarting"
var (
	reRayKillFigures = lazyre.New(`was ([\d.]+\s?[KMGT]i?B) / ([\d.]+\s?[KMGT]i?B) \(([\d.]+)\), which exceeds the memory usage threshold of (\d+(?:\.\d+)?)`)
	reRaySummary     = lazyre.New(`(?:^|\] |\) |: )(\d+) Workers \(tasks / actors\) killed due to memory pressure \(OOM\)`)
	reYarnKill       = lazyre.New(`Container killed by YARN for exceeding (?:physical )?memory limits\.\s*([\d.]+ [KMGT]?B) of ([\d.]+ [KMGT]?B) physical memory used`)
	reDaskRestart    = lazyre.New(`(?:^|- |: )Worker (?:(\S+) \(pid=(\d+)\) )?exceeded (\d+)% memory budget\. Restarting`)
)

const (
	rayKillLead   = "Task was killed due to the node running low on memory"
	rayKillWorker = "Ray killed this worker"
)

// frameworkKillOf reads a framework's own kill from line text t; prev is the line before it
// (Ray's kill spans two lines: the second is the first's figures, one kill).
func frameworkKillOf(t, prev string) (model.RuntimeOOM, bool) {
	o := model.RuntimeOOM{Count: 1}
	switch {
	case strings.Contains(t, rayKillLead):
		pre := strings.TrimSpace(t[:strings.Index(t, rayKillLead)])
		if pre != "" && !strings.HasSuffix(pre, "Error:") && !strings.HasSuffix(pre, ")") {
			return o, false // a sentence that quotes it
		}
		o.Reporter = rayKillBare
		if m := reRayKillFigures.FindStringSubmatch(t); m != nil {
			o.Reporter = rayReporter(m)
		}
	case strings.Contains(t, rayKillWorker) && strings.Contains(t, "exceeds the memory usage threshold of "):
		if strings.Contains(prev, rayKillLead) {
			return o, false // the kill's second line: counted on its first
		}
		m := reRayKillFigures.FindStringSubmatch(t)
		if m == nil {
			return o, false
		}
		o.Reporter = rayReporter(m)
	case strings.Contains(t, "killed due to memory pressure (OOM)"):
		m := reRaySummary.FindStringSubmatch(t)
		if m == nil {
			return o, false
		}
		n, _ := strconv.Atoi(m[1])
		if n == 0 {
			return o, false // Ray's summary of no kill by its monitor
		}
		o.Count, o.Reporter = n, "Ray's memory monitor (the raylet's summary: workers killed due to memory pressure over RAY_memory_usage_threshold; not the kernel's OOM killer)"
	case strings.Contains(t, "% memory budget. Restart"):
		m := reDaskRestart.FindStringSubmatch(t)
		if m == nil {
			return o, false
		}
		o.Reporter = "dask's nanny (the worker's process memory passed " + m[3] + "% of its own --memory-limit, distributed.worker.memory.terminate; the nanny killed and restarted it, not the kernel's OOM killer)"
		if m[2] != "" {
			o.PID, _ = strconv.Atoi(m[2])
			o.Victim = "dask worker " + m[1]
		}
	case strings.Contains(t, "Container killed by YARN for exceeding "):
		m := reYarnKill.FindStringSubmatch(t)
		if m == nil {
			return o, false
		}
		o.Reporter = "YARN's NodeManager (Spark's executor container over the memory YARN granted it: " + m[1] + " of " + m[2] + " physical memory used; YARN's own kill at the container's limit, not the kernel's OOM killer)"
	default:
		return o, false
	}
	return o, true
}

const rayKillBare = "Ray's memory monitor (the raylet killed its own worker: Ray's usage ratio of the node or its cgroup over RAY_memory_usage_threshold; not the kernel's OOM killer)"

func rayReporter(m []string) string {
	return "Ray's memory monitor (the raylet killed its own worker: Ray's usage " + m[1] + " / " + m[2] + " (" + m[3] +
		") of the node or its cgroup over RAY_memory_usage_threshold " + m[4] + "; not the kernel's OOM killer)"
}

// frameworkKill keeps line i as a framework's own kill for memory when it is one and is not
// quoted as an example; called on a line appOOMLine or jvmLine named.
func (d *doc) frameworkKill(i int) {
	prev := ""
	if i > 0 {
		prev = d.ls[i-1].Text
	}
	o, ok := frameworkKillOf(d.ls[i].Text, prev)
	if !ok || d.exampleLog(i) {
		return
	}
	if o.Reporter == rayKillBare && i+1 < len(d.ls) {
		if m := reRayKillFigures.FindStringSubmatch(d.ls[i+1].Text); m != nil {
			o.Reporter = rayReporter(m) // the kill's figures on its second line
		}
	}
	if n := len(d.tl.FrameworkKills); n > 0 && d.tl.FrameworkKills[n-1].Reporter == o.Reporter && d.lastFrameworkKill > 0 && d.ls[i].No-d.lastFrameworkKill <= 3 {
		return // Spark's ExecutorLostFailure relaying the same YARN kill a line later
	}
	d.lastFrameworkKill = d.ls[i].No
	o.Source = fmt.Sprintf("line %d", d.ls[i].No)
	if n := len(d.tl.FrameworkKills); n >= maxRuntimeOOMs {
		d.tl.FrameworkKills[n-1].Count += o.Count
		return
	}
	d.tl.FrameworkKills = append(d.tl.FrameworkKills, o)
}

// frameworkKillText: s holds a framework's own kill message (frameworkKillOf's forms): its
// "killed" and "(OOM)" are Ray's, dask's or YARN's, never the author saying the kernel's
// OOM killer ran; such a line is kept as that killer's kill, or as none (Ray's summary of 0).
func frameworkKillText(s string) bool {
	return strings.Contains(s, "killed due to memory pressure (OOM)") || strings.Contains(s, rayKillLead) ||
		strings.Contains(s, "% memory budget. Restart") || strings.Contains(s, "Container killed by YARN for exceeding ") ||
		orchestratorGuessText(s) // Dagster's or Prefect's help text after a SIGKILL (pipelinekill.go)
}

// rayKillRecord: t is one record of Ray's kill message longer than a log line's usual bound
// (fix26a): node_manager.cc prints it as one line of 700 bytes or more (the node's, the
// task's and the worker's IDs in hex, two "ray logs" commands) before its table of "Top 10
// memory users". It must begin the line as Ray prints it ("Task was killed due to the node
// running low on memory" or, the first line dropped, "Memory on the node (IP: "), after at
// most a logger's or an exception's lead (or an inline code span's backtick); a long sentence that quotes the words mid-way is
// prose and stays so.
func rayKillRecord(t string) bool {
	if len(t) > maxJVMLineBytes || !strings.Contains(t, "emory") {
		return false
	}
	for _, lead := range [...]string{rayKillLead, "Memory on the node (IP: "} {
		j := strings.Index(t, lead)
		if j < 0 {
			continue
		}
		pre := strings.Trim(t[:j], " \t`") // an inline code span's opening backtick is no lead
		return pre == "" || strings.HasSuffix(pre, "Error:") || strings.HasSuffix(pre, ")") || strings.HasSuffix(pre, "]")
	}
	return false
}

// rayOwnForms (fix26a): Ray's own lines about memory that are neither a kill by the kernel
// nor a shortage of the host's memory, read (named, with what they prove) so a paste of them
// is no exit 3 and no finding. Each is Ray's own spelling, matched case-sensitively.
//
//	python/ray/_private/services.py determine_plasma_store_config: "The configured object
//	  store size ({} GB) exceeds /dev/shm size ({} GB). This will harm performance. ..."
//	  (a ValueError; the second figure is /dev/shm's free space by statvfs), and the warning
//	  "The object store is using {} instead of /dev/shm because /dev/shm has only {} bytes
//	  available".
//	src/ray/common/memory_monitor.cc: the raylet's RAY_CHECK on the byte counts it read
//	  ("memory_monitor.cc:N: Check failed: (_left_ > _right_) U vs T"), a fatal abort of Ray.
//	python/ray/_raylet.pyx: on a worker's SystemExit (its SIGTERM handler) Ray appends "The
//	  worker may have exceeded K8s pod memory limits." whenever KUBERNETES_SERVICE_HOST is set.
var rayOwnForms = []struct{ text, also, why string }{
	{"exceeds /dev/shm size (", "object store size (", "Ray's start-up check of its object store against /dev/shm (python/ray/_private/services.py determine_plasma_store_config: \"The configured object store size (X GB) exceeds /dev/shm size (Y GB)\"): Ray's configured object store (by default a share of the memory Ray sees) against the free space of the /dev/shm tmpfs (a container's --shm-size); Ray refuses to start unless RAY_OBJECT_STORE_ALLOW_SLOW_STORAGE=1: a setting against a tmpfs's size, no shortage of the host's memory and no kill"},
	{"instead of /dev/shm because /dev/shm has only ", "", "Ray's start-up warning that its object store falls back to a directory on disk (python/ray/_private/services.py: \"The object store is using D instead of /dev/shm because /dev/shm has only N bytes available\"): the /dev/shm tmpfs's free space (a container's --shm-size) is smaller than Ray's object store; slower storage, no shortage of the host's memory and no kill"},
	{"memory_monitor.cc:", "Check failed:", "Ray's raylet aborted on a failed check in its own memory monitor (src/ray/common/memory_monitor.cc, RAY_CHECK on the byte counts it read, e.g. the cgroup's usage against its limit in MemoryMonitor::GetCGroupMemoryBytes): a fatal assertion of Ray's about its own reading (a cgroup's usage counts page cache and can equal its limit), no kill by the kernel's OOM killer and no shortage of the host's memory shown"},
	{"may have exceeded K8s pod memory limits", "Worker exit", "Ray's notice of a worker's exit on a SystemExit (python/ray/_raylet.pyx: \"Worker exits with an exit code N. The worker may have exceeded K8s pod memory limits.\", appended whenever KUBERNETES_SERVICE_HOST is set): Ray's guess from a SIGTERM alone, no measure of memory; the kernel's OOM killer sends SIGKILL and its kill would be in the node's kernel log"},
}

// rayOwnLine says why t is one of rayOwnForms, unless the line itself introduces it as an
// example ("something like:", "e.g."; exampleBefore). Gate: "/dev/shm", "memory_monitor.cc:" or
// "K8s pod memory" before the loop.
func rayOwnLine(t string) (string, bool) {
	if len(t) > maxJVMLineBytes || !strings.Contains(t, "/dev/shm") && !strings.Contains(t, "memory_monitor.cc:") && !strings.Contains(t, "K8s pod memory") {
		return "", false
	}
	for _, f := range rayOwnForms {
		if strings.Contains(t, f.text) && (f.also == "" || strings.Contains(t, f.also)) && !exampleBefore(t, f.text) {
			return f.why + "; headroom has no reader for this log", true
		}
	}
	return "", false
}
