package artifact

import (
	"testing"
)

// fix43b: round 38's first-run misses by class, each a program's own limit or failure that
// a paste held and headroom read as nothing (exit 3). Snippets are minimal, from the case's
// line form or the program's source:
//   - Odoo odoo/sql_db.py ConnectionPool.__repr__ "ConnectionPool(used=%d/count=%d/max=%d)"
//     logged by _debug ('%r ' + msg), and PoolError("The Connection Pool Is Full"), under
//     its own log prefix and a journald unit tag named for the version (odoo14[PID]);
//   - V8 src/wasm/module-instantiate.cc thrower_->RangeError("Out of memory: wasm memory"),
//     ErrorThrower's "WebAssembly.instantiate(): " prefix, as Node prints it in a compose log;
//   - an OutOfMemoryError's detail alone after a handler's words (java.util.logging's second
//     line, "INFO: Exception when handling request: Java heap space");
//   - a sentence telling that a command printed only the shell's "Killed".
func TestFix43bOwnLimitsRead(t *testing.T) {
	for _, c := range []struct {
		name, text, word string
		oom              bool
		program          string
		figures          map[string]int64
	}{
		{"odoo pool, odoo's prefix", "2022-03-30 07:15:08,528 5203 DEBUG ? odoo.sql_db: ConnectionPool(used=25/count=25/max=25) Create new connection\n", "db_maxconn", false, "odoo", map[string]int64{"pool_used": 25, "pool_count": 25, "pool_max": 25}},
		{"odoo pool, journal", "Mar 30 07:15:08 odoopd02 odoo14[5203]: 2022-03-30 07:15:08,528 5203 DEBUG ? odoo.sql_db: ConnectionPool(used=12/count=20/max=64) Borrow existing connection to 'dbname=x' at index 3\n", "db_maxconn", false, "odoo", map[string]int64{"pool_used": 12, "pool_count": 20, "pool_max": 64}},
		{"odoo pool full", "2022-03-30 07:15:08,530 5203 ERROR ? odoo.sql_db: PoolError: The Connection Pool Is Full\n", "PoolError", false, "", nil},
		{"odoo worker limit, journal", "Mar 30 07:15:08 odoopd02 odoo16[5203]: 2022-03-30 07:15:08,528 5203 INFO ? odoo.service.server: Worker (2345) virtual real memory limit (2684354560) reached.\n", "limit_memory_soft", true, "odoo", map[string]int64{"worker_memory_bytes": 2684354560}},
		{"wasm, compose prefix", "outline_1   | RangeError: WebAssembly.instantiate(): Out of memory: wasm memory\n", "RLIMIT_AS", true, "", nil},
		{"wasm, bare", "RangeError: WebAssembly.instantiate(): Out of memory: wasm memory\n", "guard regions", true, "", nil},
		{"wasm memory object", "RangeError [Error]: WebAssembly.Memory(): could not allocate memory\n", "guard regions", true, "", nil},
		{"jul detail", "Aug 04, 2020 9:52:10 AM io.gapi.emulators.netty.HttpHandler$1 onError\nINFO: Exception when handling request: Java heap space\n", "getMessage()", true, "", nil},
		{"gc overhead detail", "SEVERE: Failed to build the report: GC overhead limit exceeded\n", "getMessage()", true, "", nil},
		{"killed told", "When executing the command: bench --site {site} backup --with-files it returns <killed> and no backup done.\n", "strsignal(SIGKILL)", false, "", nil},
		{"killed told, code span", "The script just prints `Killed` after a minute.\n", "strsignal(SIGKILL)", false, "", nil},
	} {
		tl := ParseString(c.text, "t", Options{})
		if !f15Unread(tl, c.word) {
			t.Errorf("%s: unparsed %+v, want named (%s)", c.name, tl.Unparsed, c.word)
		}
		if statedOOM(tl) || len(f15Kills(tl)) != 0 || tl.Host.MemTotalKB != 0 {
			t.Errorf("%s: stated OOM %v, kills %d, host memory %d kB: a program's own limit is no host event", c.name, statedOOM(tl), len(f15Kills(tl)), tl.Host.MemTotalKB)
		}
		for _, a := range tl.Artifacts {
			if a.Kind != KindProgramLimit {
				t.Errorf("%s: artifact %s read from a program's own line", c.name, a.Kind)
			}
		}
		if c.figures != nil {
			found := false
			for _, a := range artifactsOf(tl, KindProgramLimit) {
				m, _ := a.Data.(map[string]any)
				ok := m["program"] == c.program
				for k, v := range c.figures {
					ok = ok && m[k] == v
				}
				found = found || ok
			}
			if !found {
				t.Errorf("%s: program_limit %+v, want %s %v", c.name, artifactsOf(tl, KindProgramLimit), c.program, c.figures)
			}
		}
		checkAccount(t, tl)
	}
}

// Counter-cases: advice, a question, a doc's sentence, another program's similar line and
// the class's own form read elsewhere are not read as these forms.
func TestFix43bOwnLimitsCounters(t *testing.T) {
	for _, s := range []string{
		"Odoo keeps a ConnectionPool with max=db_maxconn connections per process",
		"what does ConnectionPool(used=25/count=25/max=25) mean in the odoo log?",
		"HikariPool-1 - Connection is not available, request timed out after 30000ms (total=10, active=10, idle=0, waiting=3)",
	} {
		if why, _, ok := jobWorkerOwnLine(s); ok {
			t.Errorf("%q named as Odoo's pool: %s", s, why)
		}
	}
	for _, s := range []string{
		"How would I increase the \"Java heap space\" for the emulator?",
		"If you see an error like: Java heap space",
		"java.lang.OutOfMemoryError: Java heap space", // the class's own form: appHostLine's
		"# kafka 10: GC overhead limit exceeded",      // an issue's title
		"Does WebAssembly.instantiate(): Out of memory: wasm memory mean the host is out of RAM?",
		"If you get WebAssembly.instantiate(): Out of memory: wasm memory, raise ulimit -v",
		"WebAssembly memory is allocated lazily, so Out of memory: wasm memory is rare",
		"the process was killed after a minute",
		"does it return Killed when the OOM killer fires?",
		"If it says Killed, add swap.",
		"it never says Killed, it just hangs",
		"The OOM killer killed the backup.",
	} {
		if why, _, ok := ownEndForm(s); ok {
			t.Errorf("%q named by ownEndForm: %s", s, why)
		}
		if why, ok := runtimeOOMLine(s); ok {
			t.Errorf("%q named as V8's wasm memory: %s", s, why)
		}
	}
	// The detail's own class is still read, with the class's wording.
	tl := ParseString("Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space\n", "t", Options{})
	if !f15Unread(tl, "-Xmx") || f15Unread(tl, "getMessage()") {
		t.Errorf("OutOfMemoryError's own line: %+v", tl.Unparsed)
	}
	// Another program's tag that starts like Odoo's is not Odoo's.
	for _, tag := range []string{"odoo14", "odoo", "odoo-server"} {
		if !isOdooTag(tag) {
			t.Errorf("%s: want Odoo's tag", tag)
		}
	}
	for _, tag := range []string{"odoos", "odoo2025x", "oddo14", "odoo123"} {
		if isOdooTag(tag) {
			t.Errorf("%s: not Odoo's tag", tag)
		}
	}
}
