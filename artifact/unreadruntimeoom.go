package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// Managed runtimes' own out-of-memory (pre-round 14, h14b; each form checked in the
// runtime's source): the media servers and photo libraries self-hosted in containers
// (Jellyfin and Emby on .NET, Immich's server and PhotoPrism's front end on Node) print
// their runtime's own message when an allocation of theirs fails. That is no kill by the
// kernel's OOM killer (which prints "Out of memory: Killed process" and sends SIGKILL): the
// runtime gave up inside its own heap limit (V8's --max-old-space-size, .NET's GC heap hard
// limit, by default 75% of the container's cgroup limit) or its mmap was refused, and the
// process ends by itself. A paste of such lines held nothing headroom read (exit 3) or was
// "more numbers than a sentence states"; a title saying the server "ran out of memory" over
// it was read as the host's OOM. Each form is named as unread with what it proves
// (appOOMLine calls runtimeOOMLine first; programOOMText therefore knows them too).
//
// Gated: one strings.Contains of a rare fixed part ("Exception", "Allocation failed",
// "Insufficient memory to continue", " ms: ") before the forms are asked; no regexp.

// runtimeOOMForms: a fixed part of the runtime's message (case-sensitive, its own spelling),
// the gate it needs, and what it proves.
var runtimeOOMForms = []struct{ gate, text, why string }{
	// V8 src/api/api.cc Utils::ReportOOMFailure: fatal_callback(location, is_heap_oom ?
	// "Allocation failed - JavaScript heap out of memory" : "Allocation failed - process out
	// of memory"); Node's OnFatalError prints "FATAL ERROR: %s %s" (location, message): the
	// location is V8's ("Reached heap limit", "Ineffective mark-compacts near heap limit",
	// "CALL_AND_RETRY_LAST", "Zone", "MarkCompactCollector: young object promotion failed").
	{"Allocation failed", "Allocation failed - JavaScript heap out of memory", "V8's heap reached its own limit (src/api/api.cc ReportOOMFailure: \"Allocation failed - JavaScript heap out of memory\", printed by Node as \"FATAL ERROR: <location> ...\"): the old space passed --max-old-space-size (NODE_OPTIONS; by default a share of the memory V8 sees) and Node aborted itself (SIGABRT, exit 134): no kill by the kernel's OOM killer and no statement about the host's free memory"},
	{"Allocation failed", "Allocation failed - process out of memory", "V8 could not get memory outside its JavaScript heap (src/api/api.cc ReportOOMFailure: \"Allocation failed - process out of memory\": a zone, a code space or a backing store whose malloc or mmap was refused: the process's address space, RLIMIT_AS, overcommit or a cgroup's limit) and Node aborted itself: no kill by the kernel's OOM killer"},
	// fix44b: DuckDB's exceptions print "<type> Error: <message>" (src/common/exception.cpp
	// Exception::ExceptionTypeToString, OUT_OF_MEMORY is "Out of Memory"), and the Python
	// client raises them as duckdb.OutOfMemoryException: its buffer manager's "failed to pin
	// block of size X (U/L used)" against its own memory_limit, its allocator's "Failed to
	// allocate block of N bytes". Before .NET's form, which the class name would match.
	{"Out of Memory Error: ", "Out of Memory Error: ", "DuckDB's own out-of-memory exception (\"Out of Memory Error: ...\", src/common/exception.cpp; the buffer manager's \"failed to pin block of size X (U/L used)\" against DuckDB's own memory_limit, 80% of RAM by default, or its allocator's \"Failed to allocate block of N bytes\"): a query failed inside the database's own limit; no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// .NET: the runtime throws its preallocated System.OutOfMemoryException when the GC cannot
	// commit heap memory (gc.cpp, past GCHeapHardLimit, which defaults to 75% of the
	// container's cgroup memory limit) or an allocation is larger than it can map; its
	// Message with no text of its own is Exception_WasThrown, "Exception of type '{0}' was
	// thrown." (System.Private.CoreLib Exception.Message).
	// The exception's own default message (System.Private.CoreLib
	// OutOfMemoryException() : base(SR.Arg_OutOfMemoryException)): "Insufficient memory to
	// continue the execution of the program." (libusb's LIBUSB_ERROR_NO_MEM text is only
	// "Insufficient memory": errnoLogLine leaves this one to appOOMLine).
	{"Exception", "OutOfMemoryException", ".NET's own allocation failed (an OutOfMemoryException: the GC could not commit more heap within its hard limit, by default 75% of the container's cgroup memory limit, or one buffer was larger than it could map): no kill by the kernel's OOM killer and no statement about the host's free memory"},
	{"Insufficient memory to continue", "Insufficient memory to continue the execution of the program", ".NET's own allocation failed (OutOfMemoryException's default message, \"Insufficient memory to continue the execution of the program.\": the GC could not commit more heap within its hard limit, by default 75% of the container's cgroup memory limit): no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// GHC's runtime (rts/posix/OSMem.c osCommitMemory): barf("Unable to commit %" FMT_Word
	// " bytes of memory", size), printed by rtsFatalInternalErrorFn as "PROG: internal error:
	// Unable to commit 1048576 bytes of memory": the block allocator's mmap of a megablock was
	// refused (ENOMEM: the host's commit limit under strict overcommit, RLIMIT_AS, or no
	// memory), and the program aborted itself.
	{"Unable to commit ", " bytes of memory", "GHC's runtime could not commit memory for its heap (rts/posix/OSMem.c osCommitMemory: \"internal error: Unable to commit N bytes of memory\"): the mmap of a heap block was refused (ENOMEM: the commit limit under vm.overcommit_memory=2, RLIMIT_AS or a cgroup's limit, or memory truly short) and the Haskell program aborted itself: a refusal of memory to this process, no kill by the kernel's OOM killer and no figure of the host's free memory"},
	// Chromium base/process/memory.cc TerminateBecauseOutOfMemory / OnNoMemoryInternal:
	// LOG(FATAL) << "Out of memory. size=" << size, logged as "[pid:tid:MMDD/HHMMSS.usec:
	// FATAL:memory.cc(N)] Out of memory. size=N" (fix35b): one of the browser's own
	// allocations was refused, most often a shared-memory segment (viz's
	// AllocateSharedBitmap, a renderer's buffer) in a /dev/shm of Docker's default 64 MB.
	// The kernel's OOM killer prints "Out of memory: Killed process" (a colon, no size=).
	{"Out of memory. size=", "Out of memory. size=", "Chromium's own allocation was refused (base/process/memory.cc: FATAL \"Out of memory. size=N\", N bytes asked for; most often a shared-memory segment in a full /dev/shm, 64 MB by default in Docker: --shm-size or --disable-dev-shm-usage) and the browser or renderer aborted itself: no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// fix43b (corpus 3660): V8's WebAssembly memory refused (src/wasm/module-instantiate.cc
	// InstanceBuilder: thrower_->RangeError("Out of memory: wasm memory"), "... wasm shared
	// memory", "... wasm memory too large"; wasm-js.cc WebAssembly.Memory(): "could not
	// allocate memory"); ErrorThrower prefixes the API's name and "(): ", so Node prints
	// "RangeError: WebAssembly.instantiate(): Out of memory: wasm memory" (undici's llhttp at
	// start in Node 18). wasmOOMForm checks that prefix.
	{"WebAssembly.", "(): Out of memory: ", wasmOOMWhy},
	{"WebAssembly.", "WebAssembly.Memory(): could not allocate memory", wasmOOMWhy},
}

// runtimeOOMLine says why t is one of runtimeOOMForms. A GC trace line must end its sizes
// in " MB" (V8's unit) to be named.
func runtimeOOMLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false
	}
	if why, ok := v8GCTraceLine(t); ok {
		return why + "; headroom has no reader for this log", true
	}
	gated := ""
	for _, f := range runtimeOOMForms {
		if f.gate != gated {
			if !strings.Contains(t, f.gate) {
				continue
			}
			gated = f.gate
		}
		j := strings.Index(t, f.text)
		if j < 0 {
			continue
		}
		if f.gate == "Out of memory. size=" && !chromiumOOMFigure(t, j+len(f.text)) {
			continue // a sentence quoting the words, no FATAL record or no byte count
		}
		if f.gate == "WebAssembly." && !wasmOOMForm(t, j) {
			continue // a sentence naming WebAssembly, not V8's thrown RangeError
		}
		if f.gate == "Unable to commit " && !ghcCommitFigure(t, j) {
			continue // "Unable to commit changes ... bytes of memory": no figure before the words
		}
		if f.gate == "Out of memory. size=" {
			k := j + len(f.text)
			n := 0
			for k+n < len(t) && t[k+n] >= '0' && t[k+n] <= '9' {
				n++
			}
			return "size=" + t[k:k+n] + " bytes: " + f.why + "; headroom has no reader for this log", true
		}
		return f.why + "; headroom has no reader for this log", true
	}
	return "", false
}

// ghcCommitFigure: GHC's form prints the byte count between "Unable to commit " and " bytes
// of memory", nothing else.
func ghcCommitFigure(t string, j int) bool {
	k := strings.Index(t, "Unable to commit ")
	return k >= 0 && isDigits(t[k+len("Unable to commit "):j])
}

// chromiumOOMFigure: Chromium's record prints a byte count after "size=" and its level and
// file, "FATAL:memory.cc(", before the message.
func chromiumOOMFigure(t string, k int) bool {
	n := 0
	for k+n < len(t) && t[k+n] >= '0' && t[k+n] <= '9' {
		n++
	}
	return n > 0 && strings.Contains(t[:k], "FATAL:memory.cc(")
}

// wasmOOMWhy: what V8's refused WebAssembly memory proves (fix43b).
const wasmOOMWhy = "V8 could not reserve a WebAssembly memory (src/wasm/module-instantiate.cc: RangeError \"WebAssembly.instantiate(): Out of memory: wasm memory\", wasm-js.cc \"WebAssembly.Memory(): could not allocate memory\"): on 64-bit V8 reserves a memory's whole address range with its guard regions (about 8 GiB of virtual address space per memory, little of it ever touched), so a process address-space limit (ulimit -v, RLIMIT_AS), a VM or emulator with a small address space, or vm.overcommit_memory 2's CommitLimit refuses it while RAM is free; the JavaScript error ends the program by itself (exit 1, not 137): no kill by the kernel's OOM killer and no statement about the host's free memory"

// wasmOOMForm: the text at j is V8's ErrorThrower message: "WebAssembly.NAME(): " right
// before the words (a thrown RangeError as Node prints it, a prefix or "Uncaught " before
// it), not a sentence that mentions WebAssembly and memory.
func wasmOOMForm(t string, j int) bool {
	if strings.HasPrefix(t[j:], "WebAssembly.Memory(): ") {
		return !adviceLead(t[:j]) && !questionAt(t, j, j+1)
	}
	w := strings.LastIndex(t[:j], "WebAssembly.")
	if w < 0 {
		return false
	}
	name := t[w+len("WebAssembly.") : j]
	if name == "" || strings.IndexAny(name, " ()\"'`") >= 0 {
		return false
	}
	return !adviceLead(t[:w]) && !questionAt(t, w, j)
}

// V8 src/heap/gc-tracer.cc GCTracer::Output/Print: "[pid:isolate] N ms: Mark-Compact (or
// Mark-sweep, Scavenge; "(reduce)" after the name when V8 collects to shrink the heap) A (B)
// -> C (D) MB, ..." lines of "<--- Last few GCs --->", which Node prints before its heap's
// FATAL ERROR: the JavaScript heap in MB before and after the collection (the committed
// size in parentheses, dropped by some versions and pastes), V8's own figures of one
// process's heap, not the host's memory. fix52a (corpus 3531, 4048): the "(reduce)" form
// and the "A -> C MB" sizes without the committed ones, and a trace a page wrapped after
// "N ms:", the name and sizes starting the next line.
var v8GCNames = []string{"Mark-Compact", "Mark-sweep", "Mark-Sweep", "Scavenge"}

// reV8GCSizes: what follows the collector's name: "A (B) -> C (D) MB", the parenthesised
// committed sizes optional.
var reV8GCSizes = lazyre.New(`^ (?:\(reduce\) )?\d+(?:\.\d+)? (?:\(\d+(?:\.\d+)?\) )?-> \d+(?:\.\d+)? (?:\(\d+(?:\.\d+)?\) )?MB\b`)

// v8GCTraceLine says why t is a line of V8's GC trace: a collector's name after " ms: ", or
// starting the line, followed by the heap's sizes in MB.
func v8GCTraceLine(t string) (string, bool) {
	if !strings.Contains(t, " MB") {
		return "", false
	}
	for _, name := range v8GCNames {
		j := strings.Index(t, name)
		if j < 0 {
			continue
		}
		if !strings.HasSuffix(t[:j], " ms: ") && strings.TrimSpace(t[:j]) != "" {
			continue
		}
		if !reV8GCSizes.MatchString(t[j+len(name):]) {
			continue
		}
		return "V8's trace of its last garbage collections (src/heap/gc-tracer.cc: \"N ms: " + name + " A (B) -> C (D) MB\", printed under \"<--- Last few GCs --->\" before Node's heap out-of-memory): " +
			"the JavaScript heap's size in MB, V8's own figures, not the host's memory", true
	}
	return "", false
}
