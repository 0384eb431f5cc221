package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// A program's own allocator or its own memory limit failing (g56–g58, fix15a): the Go
// runtime, the OCaml runtime and Dovecot print "out of memory" when an allocation of theirs
// fails, and exit by themselves. That is no kill by the kernel's OOM killer (which prints
// "Out of memory: Killed process" or "invoked oom-killer" and sends SIGKILL), and most often
// not even a lack of the host's memory: the process's address space (a 32-bit process's
// 2–3 GB), RLIMIT_AS (Dovecot's vsz_limit sets it), or overcommit refused the mmap. A paste
// of such lines held no evidence headroom read (exit 3), and the words "out of memory" in a
// title or a sentence were taken as the author saying the host ran out (a false oom-kill).
// Each form is listed as unread with what it proves, and the stated OOM rule skips a
// sentence whose "out of memory" is one of these messages (programOOMText).

// appOOMForms: a runtime's or a server's own out-of-memory message, as its source prints it,
// and what it proves. The match is case-sensitive: each is the program's own spelling.
var appOOMForms = []struct{ text, why string }{
	// Go runtime/mheap.go (*mheap).grow: sysAlloc could not map another heap arena:
	// print("runtime: out of memory: cannot allocate ", ask, "-byte block (", inUse,
	// " in use)\n"), then the allocator throws "out of memory" (mcache.go refill,
	// allocLarge) and the process exits with "fatal error: out of memory".
	{"runtime: out of memory: cannot allocate ", "the Go runtime could not map another heap arena (runtime/mheap.go (*mheap).grow: the mmap of the requested block failed): the process's own address space (a 32-bit process's 2-3 GB), RLIMIT_AS or overcommit refused it; the program exits by itself, no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// Go runtime/malloc.go: sysAlloc's metadata ("out of memory allocating heap arena map",
	// "... heap arena metadata", "... allArenas"), and runtime.throw("out of memory") /
	// mem_linux.go sysMap's throw("runtime: out of memory") on ENOMEM, printed by
	// runtime.fatalthrow as "fatal error: " + the text.
	{"out of memory allocating heap arena", "the Go runtime could not map its heap arena metadata (runtime/malloc.go sysAlloc): the process's address space or overcommit; the program exits by itself, no kill by the kernel's OOM killer"},
	{"fatal error: out of memory", "the Go runtime's own allocation failure (runtime.throw(\"out of memory\"), printed as \"fatal error: ...\"): the heap could not grow in the process's address space; the program exits by itself, no kill by the kernel's OOM killer and no statement about the host's free memory"},
	{"fatal error: runtime: out of memory", "the Go runtime's mmap of heap memory failed with ENOMEM (runtime/mem_linux.go sysMap): the process's address space, RLIMIT_AS or overcommit; the program exits by itself, no kill by the kernel's OOM killer"},
	// OCaml runtime/misc.c caml_fatal_error prints "Fatal error: " + the message and aborts:
	// "out of memory" (memory.c, the pools), "Out of memory" (caml_fatal_out_of_memory),
	// "out of memory after collection"; an uncaught Out_of_memory exception is printed
	// by printexc "Fatal error: exception Out_of_memory".
	{"Fatal error: out of memory", "the OCaml runtime's own allocation failed (runtime/misc.c caml_fatal_error(\"out of memory\")) and the program aborted itself: its malloc or heap growth was refused, no kill by the kernel's OOM killer and no statement about the host's free memory"},
	{"Fatal error: Out of memory", "the OCaml runtime's own allocation failed (caml_fatal_out_of_memory) and the program aborted itself: no kill by the kernel's OOM killer and no statement about the host's free memory"},
	{"Fatal error: exception Out_of_memory", "an OCaml program's uncaught Out_of_memory exception (the runtime refused an allocation): the program exited by itself, no kill by the kernel's OOM killer"},
	// Dovecot src/lib/data-stack.c mem_block_alloc: i_fatal_status(FATAL_OUTOFMEM,
	// "block_alloc(%zu): Out of memory"), mempool-system.c "pool_system_malloc(%zu): Out of
	// memory" (and _realloc); the master then logs the child's exit 83 as "Out of memory
	// (service imap { vsz_limit=N MB }, you may need to increase it)": the service's
	// vsz_limit is the process's RLIMIT_AS.
	{"block_alloc(", "Dovecot's own allocation failed (src/lib/data-stack.c mem_block_alloc: \"block_alloc(N): Out of memory\") inside the service's vsz_limit, the address-space limit (RLIMIT_AS) Dovecot sets per process; the process exits with status 83 by itself: no kill by the kernel's OOM killer and no statement about the host's free memory"},
	{"pool_system_malloc(", "Dovecot's own allocation failed (src/lib/mempool-system.c: \"pool_system_malloc(N): Out of memory\") inside the service's vsz_limit (RLIMIT_AS); the process exits by itself: no kill by the kernel's OOM killer"},
	{"pool_system_realloc(", "Dovecot's own allocation failed (src/lib/mempool-system.c: \"pool_system_realloc(N): Out of memory\") inside the service's vsz_limit (RLIMIT_AS); the process exits by itself: no kill by the kernel's OOM killer"},
	// Unreal Engine Core/Private/GenericPlatform/GenericPlatformMemory.cpp
	// FGenericPlatformMemory::OnOutOfMemory: UE_LOG(LogMemory, Fatal, "Ran out of memory
	// allocating %llu bytes with alignment %u") when its allocator (FMalloc*) got no block
	// from the platform for one request; the engine then stops itself (a fatal error, often
	// a SIGSEGV after it).
	{"Ran out of memory allocating ", "Unreal Engine's own allocator gave up on one request (GenericPlatformMemory.cpp FGenericPlatformMemory::OnOutOfMemory: \"Ran out of memory allocating N bytes with alignment A\"): the mmap or malloc of that block was refused (the process's address space, RLIMIT_AS or overcommit) and the engine stopped itself: no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// A framework's own memory policy killing its own workers, not the kernel. Ray's raylet
	// memory monitor (src/ray/raylet/node_manager.cc, the OOM kill message of the worker
	// killing policy): "Task was killed due to the node running low on memory." then "Memory
	// on the node (IP: ..., ID: ...) where the task (...) was running was U GB / T GB (F),
	// which exceeds the memory usage threshold of X. Ray killed this worker ...": Ray's own
	// ratio (its memory monitor's used/total of the node or of its cgroup) crossed
	// RAY_memory_usage_threshold and the raylet sent SIGKILL, before any kernel OOM.
	{"Task was killed due to the node running low on memory", "Ray's memory monitor (the raylet, src/ray/raylet/node_manager.cc) killed one of its own workers because Ray's usage ratio crossed RAY_memory_usage_threshold: a framework's policy kill by SIGKILL from the raylet, no kill by the kernel's OOM killer; the figures are Ray's computation (node or cgroup), not /proc/meminfo"},
	{"which exceeds the memory usage threshold of ", "Ray's memory monitor's used/total (its own computation of the node's or its cgroup's memory) against RAY_memory_usage_threshold (src/ray/raylet/node_manager.cc): the raylet kills a worker when it is crossed; no kill by the kernel's OOM killer, and not /proc/meminfo's fields"},
	// dask distributed's worker memory monitor (distributed/worker.py memory_monitor, later
	// worker_memory.py): "Worker exceeded %d%% memory budget. Restarting" when the worker's
	// process RSS passes memory.terminate of its --memory-limit, after which the nanny kills
	// and restarts it; "Memory use is high but worker has no data to store to disk. Perhaps
	// some other process is leaking memory? Process memory: X -- Worker memory limit: Y" at
	// memory.spill. Both are dask's per-worker budget, not the host's memory.
	{"% memory budget. Restart", "dask's nanny restarts a worker whose process memory passed its per-worker budget (distributed/worker.py memory_monitor: \"Worker exceeded N% memory budget. Restarting\"): a framework's own limit and its own kill, no kill by the kernel's OOM killer and no statement about the host's free memory"},
	{"Memory use is high but worker has no data", "dask's worker warns that its process memory is past the spill fraction of its own --memory-limit with nothing left to spill (distributed/worker.py memory_monitor): dask's per-worker budget, not the host's memory"},
	{"Worker memory limit: ", "dask's worker memory figures (\"Process memory: X -- Worker memory limit: Y\", distributed/worker.py memory_monitor): the worker's RSS against dask's own per-worker budget, not the host's memory"},
	// Ray (h21a): the raylet's summary of its memory monitor's kills (node_manager.cc), the
	// older Python memory monitor's exception (python/ray/_private/memory_monitor.py, Ray
	// <2.0: "More than %d%% of the memory on node %s is used (%s / %s GB)"), and the
	// monitor's start-up line (memory_monitor.cc).
	{"killed due to memory pressure (OOM)", "Ray's raylet summary of the workers its own memory monitor killed (node_manager.cc: \"N Workers (tasks / actors) killed due to memory pressure (OOM), M Workers crashed due to other reasons at node ...\"): kills by Ray over RAY_memory_usage_threshold, no kill by the kernel's OOM killer"},
	{"RayOutOfMemoryError: More than ", "Ray's old Python memory monitor raised RayOutOfMemoryError (python/ray/_private/memory_monitor.py: \"More than N% of the memory on node H is used (U / T GB)\"): Ray's own check of the node's used memory against its threshold (RAY_DISABLE_MEMORY_MONITOR), an exception in the driver, no kill by the kernel's OOM killer; the figures are Ray's, not /proc/meminfo"},
	{"MemoryMonitor initialized with usage threshold", "Ray's memory monitor's start-up line (memory_monitor.cc: its kill threshold in bytes and the total it sees): a setting of Ray's, no event and no statement about the host's free memory"},
	// The GPU's memory: PyTorch's caching allocator (c10/cuda/CUDACachingAllocator.cpp:
	// "CUDA out of memory. Tried to allocate %s (GPU %d; %s total capacity; ...)", 2.x "GPU
	// %d has a total capacity of %s of which %s is free"), raised as torch.OutOfMemoryError
	// or RuntimeError; TensorFlow's BFC allocator "OOM when allocating tensor"; CUDA's
	// cudaErrorMemoryAllocation text "out of memory" after "CUDA error: ".
	{"CUDA out of memory", "PyTorch's CUDA caching allocator could not allocate on the GPU (CUDACachingAllocator.cpp: \"CUDA out of memory. Tried to allocate X (GPU N; ...)\"): the GPU's own memory, not the host's RAM; no kill by the kernel's OOM killer and no statement about the host's free memory"},
	{"CUDA error: out of memory", "the CUDA runtime returned cudaErrorMemoryAllocation (\"CUDA error: out of memory\"): the GPU's own memory, not the host's RAM; no kill by the kernel's OOM killer"},
	{"OOM when allocating tensor", "TensorFlow's BFC allocator could not allocate a tensor on its device (\"OOM when allocating tensor with shape ... on /job:.../device:GPU:0 by allocator GPU_0_bfc\"): the GPU's own memory when the device is a GPU, not the host's RAM; no kill by the kernel's OOM killer"},
	// PyTorch torch/utils/data/_utils/signal_handling.py and DataLoader.cpp: a worker's
	// SIGBUS ("ERROR: Unexpected bus error encountered in worker. This might be caused by
	// insufficient shared memory (shm)."), and the main process's report of a worker's death
	// by a signal ("DataLoader worker (pid %d) is killed by signal: %s. It is possible that
	// dataloader's workers are out of shared memory ..." for a bus error).
	{"insufficient shared memory (shm)", "a PyTorch DataLoader worker got SIGBUS writing to /dev/shm (torch DataLoader's signal handler: \"Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm)\"): the /dev/shm tmpfs is full or small (a container's --shm-size, 64 MB by default in docker); not the host's RAM and no kill by the kernel's OOM killer"},
	{"workers are out of shared memory", "a PyTorch DataLoader worker died by SIGBUS (\"DataLoader worker (pid N) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory\"): the /dev/shm tmpfs is full or small (a container's --shm-size); not the host's RAM and no kill by the kernel's OOM killer"},
	{"is killed by signal: Killed", "a PyTorch DataLoader worker died by SIGKILL (\"DataLoader worker (pid N) is killed by signal: Killed.\"): the kernel's OOM killer sends SIGKILL, and so do a cgroup's and anyone's kill -9; the kernel's own kill line (\"Out of memory: Killed process N\") would say which and is not this line"},
	// Model servers' notices of a worker's death: TorchServe (WorkerThread.java: "Backend
	// worker process died.", BatchAggregator "... error: Worker died."), vLLM
	// (multiproc_worker_utils.py: "Worker %s pid %s died, exit code: %s", -9 a SIGKILL).
	{"Backend worker process died", "TorchServe's frontend saw its Python backend worker exit (WorkerThread.java: \"Backend worker process died.\"): the cause is in the worker's own log lines (a Python exception, CUDA out of memory) or the kernel's log (a kill by its OOM killer); this line names none"},
	{"Worker died.", "TorchServe's notice that a model's worker died (\"Load model failed: M, error: Worker died.\"): the cause is in the worker's log or the kernel's log; this line names none"},
	{" died, exit code: -9", "vLLM's notice that a worker process was killed by SIGKILL (multiproc_worker_utils.py: \"Worker W pid N died, exit code: -9\"): the kernel's OOM killer sends SIGKILL, and so do a cgroup's and anyone's kill -9; the kernel's own kill line would say which and is not this line"},
	// Triton Inference Server src/pinned_memory_manager.cc: its pinned (page-locked) host
	// buffer pool, --pinned-memory-pool-byte-size (256 MB by default), had no room, or had
	// no pool ("failed to allocate pinned system memory[: no pinned memory pool]"); Triton
	// then falls back to pageable memory.
	{"failed to allocate pinned system memory", "Triton Inference Server's pinned-memory pool had no room (pinned_memory_manager.cc: \"failed to allocate pinned system memory\"): its own page-locked buffer pool of --pinned-memory-pool-byte-size (256 MB by default), or cudaHostAlloc refused; Triton falls back to pageable memory; no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// Rust's std (library/std/src/alloc.rs default_alloc_error_hook): "memory allocation of
	// N bytes failed", then abort: the global allocator returned null for one request.
	{"memory allocation of ", "a Rust program's allocator returned no memory for one request (std's default_alloc_error_hook: \"memory allocation of N bytes failed\", then abort, SIGABRT): the process's malloc or mmap was refused (its address space, RLIMIT_AS, overcommit or a cgroup's limit) and it aborted itself: no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// Bun's crash handler (src/crash_handler.zig CrashReason.out_of_memory: "Bun ran out of
	// memory"; bun.outOfMemory's older @panic("Bun ran out of memory!")): one of Bun's own
	// allocations failed and it aborted.
	{"Bun ran out of memory", "Bun's own allocation failed (its crash handler's reason \"Bun ran out of memory\", src/crash_handler.zig): an allocation of the process was refused and Bun aborted itself: no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// The OpenTelemetry Collector's memory_limiter processor (processor/memorylimiterprocessor,
	// internal/memorylimiter/memorylimiter.go, fix36b): its own checks of the Go heap
	// (runtime.MemStats Alloc, "cur_mem_mib") against the limit_mib / spike_limit_mib of its
	// configuration: "Memory usage is above soft limit. Dropping data." / "Refusing data.",
	// "Memory usage is above hard limit. Forcing a GC.", "Memory usage after GC.", "Memory
	// usage back within limits. Resuming normal operation.", and the start-up line "Memory
	// limiter configured" with limit_mib, spike_limit_mib, check_interval.
	{"Memory usage is above soft limit", otelMemLimiterWhy},
	{"Memory usage is above hard limit", otelMemLimiterWhy},
	{"Memory usage back within limits", otelMemLimiterWhy},
	{"Memory usage after GC", otelMemLimiterWhy},
	{"Memory limiter configured", "the OpenTelemetry Collector's memory_limiter start-up line (internal/memorylimiter/memorylimiter.go: limit_mib, spike_limit_mib, check_interval of its configuration): a limit the program sets on its own Go heap, no event and no statement about the host's free memory"},
	{"vsz_limit=", "Dovecot's master: a child exited 83 because its allocation failed inside the service's vsz_limit, the per-process address-space limit (RLIMIT_AS): no kill by the kernel's OOM killer and no statement about the host's free memory"},
}

const otelMemLimiterWhy = "the OpenTelemetry Collector's memory_limiter processor checking its own Go heap (cur_mem_mib, runtime.MemStats) against the limit_mib/spike_limit_mib of its configuration (internal/memorylimiter/memorylimiter.go: above the soft limit it refuses or drops data, above the hard limit it forces a GC, then resumes): a program's self-imposed heap limit doing its job, no kill by the kernel's OOM killer, no cgroup event and no statement about the host's free memory"

// appOOMLine says why t is one of appOOMForms. Gate: "emory" (every form's own words but
// "vsz_limit=", which Dovecot prints only beside "Out of memory"), searched only on a
// line a reader is handed (a syslog line through the needleOfMemory of the line pass, a
// prose line): never a scan of every line.
func appOOMLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes && !rayKillRecord(t) {
		return "", false
	}
	if why, ok := runtimeOOMLine(t); ok {
		return why, true // V8's and .NET's own (unreadruntimeoom.go)
	}
	if checkAllocFailed(t) {
		return checkAllocWhy, true
	}
	if !strings.Contains(t, "emory") && !strings.Contains(t, "Out_of_memory") && !strings.Contains(t, "orker") && !strings.Contains(t, "OOM") {
		return "", false
	}
	if why, ok := helpdeskOOMLine(t); ok {
		return why, true // Orthanc's NotEnoughMemory, perl's "Out of memory!" (unreadh40b.go)
	}
	for _, f := range appOOMForms {
		j := strings.Index(t, f.text)
		if j < 0 {
			continue
		}
		if f.text == "memory allocation of " && !rustAllocFailedAfter(t[j+len(f.text):]) {
			continue // "the memory allocation of the JVM failed": no byte count
		}
		if f.text[len(f.text)-1] == '(' && !dovecotOOMAfter(t[j+len(f.text):]) {
			continue // "block_alloc(" without "N): Out of memory" after it
		}
		return f.why + "; headroom has no reader for this log", true
	}
	return "", false
}

// dovecotOOMAfter: the rest of a Dovecot allocator's message, "N): Out of memory".
func dovecotOOMAfter(rest string) bool {
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	return n > 0 && strings.HasPrefix(rest[n:], "): Out of memory")
}

// rustAllocFailedAfter: the rest of Rust's alloc error, "N bytes failed".
func rustAllocFailedAfter(rest string) bool {
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	return n > 0 && strings.HasPrefix(rest[n:], " bytes failed")
}

// programOOMText: s (a sentence, a title) holds a program's own out-of-memory message of
// appOOMForms: its "out of memory" is that program's, not the kernel's or the host's.
func programOOMText(s string) bool {
	if _, ok := appOOMLine(s); ok || dbOwnOOMText(s) || distDBOOMText(s) { // and a data store's or broker's own (unreaddbmsg.go)
		return true
	}
	if len(s) <= maxJVMLineBytes && jvmOOMText(s) {
		return true // a JVM's OutOfMemoryError, YARN's or Trino's own memory limit (unreadjvm.go)
	}
	if _, oom, ok := metricsOwnLine(s); ok && oom {
		return true // Zabbix's shared-memory cache (unreadmetrics.go)
	}
	_, oom, ok := serverOwnLine(s) // PHP's, rsync's, Squid's, Python's (unreadserver.go)
	return ok && oom
}

// reExampleLead: words that introduce what follows as an example of a message, not this
// host's record of it ("check dmesg for something like `Killed process ...`", "it would
// look like: ...", "e.g.", "for example"), the whose-numbers of issue 29 for a quoted line.
var reExampleLead = lazyre.New(`(?i)\bsomething\s+like\b|\b(?:would|will|should|might|may|could)\s+(?:\w+\s+)?(?:look|read|appear)\s+(?:something\s+)?like\b|\be\.\s?g\.|\bfor\s+(?:example|instance)\b|\ban?\s+example\b|\bsuch\s+as\b`)

// reEgTail: "e.g." before the match with no sentence's end between (sentenceAround ends a
// sentence at the abbreviation's periods, so the sentence alone does not hold it).
var reEgTail = lazyre.New(`(?i)\be\.\s?g\.[^.!?]*$`)

// exampleBefore: the sentence introduces its text up to match as an example (reExampleLead
// before the match), so a kill line quoted there is no kill of this host's. A line pasted
// after "here is what dmesg shows:" has no such lead and stays the host's.
func exampleBefore(sentence, match string) bool {
	i := strings.Index(sentence, match)
	if i < 0 {
		return false
	}
	return reExampleLead.MatchString(sentence[:i])
}

// inlineKillLine: a prose line that quotes the kernel's kill line (mm/oom_kill.c
// __oom_kill_process: "Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, ...", or
// "Out of memory: Killed process ..." since 5.0) in one inline code span after a lead-in
// that ends in ':' ("lnd triggered the OOM killer with message: `Killed process ...`"),
// with nothing but punctuation after it. The span is the host's log line unless the lead-in
// introduces an example or a possibility ("it would look like: `...`", "e.g.: `...`"): that
// is no kill of this host's (whose numbers, issue 29). Gate: a backtick and "illed process"
// on a line no reader took as a log line or a report.
func inlineKillLine(t string) (string, bool) {
	open := strings.IndexByte(t, '`')
	if open < 0 || !strings.Contains(t, "illed process ") {
		return "", false
	}
	end := strings.IndexByte(t[open+1:], '`')
	if end < 0 {
		return "", false
	}
	span := strings.TrimSpace(t[open+1 : open+1+end])
	if strings.Trim(t[open+2+end:], " .,;!)") != "" {
		return "", false
	}
	lead := strings.TrimSpace(t[:open])
	if !strings.HasSuffix(lead, ":") || reExampleLead.MatchString(lead) || reExampleLeadIn.MatchString(lead) || reHypothetical.MatchString(lead) {
		return "", false
	}
	k := strings.Index(span, "Killed process ")
	if k < 0 || !killLinePrefix(span[:k]) {
		return "", false
	}
	return span, true
}

// killLinePrefix: what may stand before "Killed process" in the kernel's line: nothing, a
// dmesg stamp ("[3884669.536501] "), "Out of memory: " or "Memory cgroup out of memory: ".
func killLinePrefix(p string) bool {
	p = strings.TrimSpace(p)
	if strings.HasPrefix(p, "[") {
		if j := strings.IndexByte(p, ']'); j > 0 {
			p = strings.TrimSpace(p[j+1:])
		}
	}
	return p == "" || p == "Out of memory:" || p == "Memory cgroup out of memory:"
}

// roslaunch's notice that a node it started died (ros_comm tools/roslaunch/src/roslaunch/
// nodeprocess.py LocalProcess.get_exit_description: "process has died [pid %s, exit code
// %s" then "]" or ", cmd ..."): the exit code is subprocess.Popen's returncode, negative for
// a signal, so "-9" is SIGKILL; a node run through a shell that was killed shows 137
// (128+9). A SIGKILL is what the kernel's OOM killer (or a cgroup's) sends, but also any
// kill -9: the kernel's own line ("Out of memory: Killed process N (name)") would say which,
// and this line is not it. Named unread; nothing is diagnosed from it.
const roslaunchDied = "process has died [pid "

const roslaunchSigkillWhy = "roslaunch: a node was killed by SIGKILL (exit code -9 is Popen's signal 9, 137 is 128+9; ros_comm roslaunch/nodeprocess.py): the kernel's OOM killer or a cgroup's sends it, and so does any kill -9; the kernel's own kill line (\"Out of memory: Killed process\") would say which and is not in the text; headroom has no reader for this log"

// roslaunchSigkillLine says why t is roslaunch's notice of a node killed by SIGKILL. Gate:
// one strings.Index of the format's fixed words.
func roslaunchSigkillLine(t string) (string, bool) {
	k := strings.Index(t, roslaunchDied)
	if k < 0 || len(t) > maxErrnoLineBytes {
		return "", false
	}
	rest := t[k+len(roslaunchDied):]
	j := strings.Index(rest, ", exit code ")
	if j < 0 {
		return "", false
	}
	code := rest[j+len(", exit code "):]
	for _, c := range []string{"-9", "137"} {
		if strings.HasPrefix(code, c) && len(code) > len(c) && (code[len(c)] == ']' || code[len(c)] == ',') {
			return roslaunchSigkillWhy, true
		}
	}
	return "", false
}

// checkAllocFailed (fix28a): a glog or Abseil CHECK on the pointer a program's own malloc
// wrapper got back, "F0620 08:25:19.899902 19641 malloc.cc:53] Check failed: data != nullptr
// failed to allocate 411675 bytes": malloc returned NULL for one request and the CHECK
// aborted the process (SIGABRT, a core). The kernel's OOM killer does not make malloc fail:
// it kills with SIGKILL and prints "Out of memory: Killed process N"; a NULL from malloc is
// the process's own address space, RLIMIT_AS, overcommit refusing the mmap (vm.overcommit_
// memory 2, or 0's heuristic) or an allocator's own limit. Gate: "Check failed: " then
// "ailed to allocate " and a digit in the same line.
func checkAllocFailed(t string) bool {
	i := strings.Index(t, "Check failed: ")
	if i < 0 {
		return false
	}
	rest := t[i:]
	j := strings.Index(rest, "ailed to allocate ")
	if j < 0 {
		return false
	}
	rest = rest[j+len("ailed to allocate "):]
	return rest != "" && rest[0] >= '0' && rest[0] <= '9'
}

const checkAllocWhy = "a program's CHECK on its own malloc's result failed (glog/Abseil \"Check failed: p != nullptr failed to allocate N bytes\"): malloc returned NULL for that request and the program aborted itself; the process's address space, RLIMIT_AS, overcommit (vm.overcommit_memory) or its allocator's own limit refused it: no kill by the kernel's OOM killer (SIGKILL and \"Out of memory: Killed process N\") and no figure of the host's free memory; headroom has no reader for this log"

// dnsmasqAllocLine (h25a): dnsmasq's own allocation failure, the DNS and DHCP server of
// every router firmware (AsusWRT-Merlin, DD-WRT, FreshTomato, Padavan, OpenWrt and
// Gargoyle): src/util.c whine_malloc and whine_realloc, my_syslog(LOG_ERR, "failed to
// allocate %d bytes") and "failed to reallocate %d bytes" when malloc or realloc returned
// NULL (crypto.c's dnsmasq_malloc for nettle/OpenSSL says the same). dnsmasq drops what it
// was building (a cache entry, a reply, a lease) and goes on. At start-up safe_malloc dies
// instead: "could not get memory", then "FAILED to start up" (exit EC_NOMEM). Read only
// under dnsmasq's tag: the same words are a kernel driver's elsewhere
// (kernel.ParseSubsysAllocFailure).
func dnsmasqAllocLine(tag, t string) bool {
	if !strings.HasPrefix(tag, "dnsmasq") {
		return false
	}
	s := strings.TrimSpace(t)
	if s == "could not get memory" {
		return true // safe_malloc at start-up: die(_("could not get memory"), NULL, EC_NOMEM)
	}
	rest, ok := strings.CutPrefix(s, "failed to allocate ")
	if !ok {
		if rest, ok = strings.CutPrefix(s, "failed to reallocate "); !ok {
			return false
		}
	}
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	return n > 0 && strings.HasPrefix(rest[n:], " bytes")
}

// dnsmasqAllocHanded: a dnsmasq line that may be dnsmasqAllocLine's, handed to the line
// pass (readsTag); dnsmasq's many other lines (queries, leases) stay on the fast path.
func dnsmasqAllocHanded(l *Line) bool {
	return !l.Kernel && strings.HasPrefix(l.Tag, "dnsmasq") && (strings.HasPrefix(l.Text, "failed to ") || strings.HasPrefix(l.Text, "could not get memory"))
}

const dnsmasqAllocWhy = "dnsmasq's own malloc or realloc returned NULL (src/util.c whine_malloc: \"failed to allocate N bytes\"; at start-up safe_malloc's \"could not get memory\", and dnsmasq exits): the C library could not get that request from the kernel, refused by the process's address space or RLIMIT_DATA/RLIMIT_AS, or by overcommit (vm.overcommit_memory 2 past CommitLimit; mode 0 refuses only a request larger than free memory and swap), so on a router without swap it is a sign the memory was nearly all in use; dnsmasq drops that cache entry, reply or lease and goes on: no kill by the kernel's OOM killer and no figure of the host's free memory (free, or /proc/meminfo with Committed_AS, would give them); headroom has no reader for this log"
