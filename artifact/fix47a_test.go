package artifact

import (
	"strings"
	"testing"
)

// fix47a: round 42's healthy texts that exited 3 on a program's own line (corpus 3931,
// 3934, 3955, 3958), by class: each line is named unread with what it proves, nothing else
// is read from it (no kill, no artifact), and its look-alikes are not named.

// fix47aOne: the single unread line of text (its why and first line) and whether the
// text read anything besides.
func fix47aOne(t *testing.T, text string) (why string, line int) {
	t.Helper()
	tl := ParseString(text, "p", Options{})
	if !NothingRead(tl) {
		t.Errorf("%q: something read beside the unread line: %d artifacts", text, len(tl.Artifacts))
	}
	if len(tl.Unparsed) != 1 {
		t.Fatalf("%q: unread %+v", text, tl.Unparsed)
	}
	return tl.Unparsed[0].Why, tl.Unparsed[0].FirstLine
}

// fix47aNotNamed: none of text's lines is named with a why that holds needle.
func fix47aNotNamed(t *testing.T, text, needle string) {
	t.Helper()
	for _, u := range ParseString(text, "p", Options{}).Unparsed {
		if strings.Contains(u.Why, needle) {
			t.Errorf("%q named: %s", text, u.Why)
		}
	}
}

// runc's init fork refused with EAGAIN (supabase#12723): a task limit, not memory.
func TestFix47aForkEAGAIN(t *testing.T) {
	text := "it outputs \n```\nError response from daemon: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: unable to start init: fork/exec /proc/self/exe: resource temporarily unavailable: unknown\n```\n"
	why, line := fix47aOne(t, text)
	if why != forkEAGAINWhy || line != 3 {
		t.Errorf("line %d: %s", line, why)
	}
	if !strings.Contains(why, "RLIMIT_NPROC") || !strings.Contains(why, "not memory") {
		t.Errorf("why: %s", why)
	}
	// ENOMEM keeps its own reason (commit accounting).
	if why, _ := fix47aOne(t, "fork/exec /usr/bin/git: cannot allocate memory\n"); why == forkEAGAINWhy || !strings.Contains(why, "ENOMEM") {
		t.Errorf("ENOMEM: %s", why)
	}
	for _, s := range []string{
		"Why does docker say fork/exec /proc/self/exe: resource temporarily unavailable?\n", // a question
		"fork: retry: Resource temporarily unavailable\n",                                   // bash's fork, not Go's os/exec
	} {
		fix47aNotNamed(t, s, "os/exec: \\\"fork/exec PATH: resource")
		fix47aNotNamed(t, s, forkEAGAINWhy)
	}
}

// PostgreSQL's postmaster: a backend ended by SIGILL (supabase/postgres#1074), not a kill.
func TestFix47aPostgresSignalExit(t *testing.T) {
	why, line := fix47aOne(t, "Error in the Docker logs: `server process (PID 604) was terminated by signal 4: Illegal instruction`\n")
	if line != 1 || !strings.Contains(why, "LogChildExit") || !strings.Contains(why, "SIGILL") || !strings.Contains(why, "no kill") {
		t.Errorf("line %d: %s", line, why)
	}
	why, _ = fix47aOne(t, "2024-07-25 12:24:48.727 UTC [10] LOG:  server process (PID 88) was terminated by signal 11: Segmentation fault\n")
	if !strings.Contains(why, "SIGSEGV") {
		t.Errorf("SIGSEGV: %s", why)
	}
	// SIGKILL keeps the kill's reason: the OOM killer may have sent it.
	why, _ = fix47aOne(t, "LOG:  server process (PID 604) was terminated by signal 9: Killed\n")
	if strings.Contains(why, "LogChildExit") || !strings.Contains(why, "SIGKILL") {
		t.Errorf("signal 9: %s", why)
	}
	for _, s := range []string{
		"Command terminated by signal 4\n",                                       // GNU time's line
		"the backend was terminated by signal 4: Illegal instruction, I think\n", // no "(PID N)"
		"server process (PID 604) was terminated by signal 4\n",                  // no ": NAME" after the number
	} {
		fix47aNotNamed(t, s, "LogChildExit")
	}
}

// An ODBC driver's HY001 through GDAL (gdal#896), its first bracket lost in the paste.
func TestFix47aODBCAllocFailure(t *testing.T) {
	text := "ERROR 1: INSERT command for new feature failed. Microsoft][SQL Server Native Client 11.0]memory allocation failure\n"
	why, line := fix47aOne(t, text)
	if line != 1 || !strings.Contains(why, "HY001") || !strings.Contains(why, "no kernel page allocation failure") {
		t.Errorf("line %d: %s", line, why)
	}
	if why, _ := fix47aOne(t, "[unixODBC][Driver Manager]Memory allocation error\n"); !strings.Contains(why, "HY001") {
		t.Errorf("unixODBC: %s", why)
	}
	for _, s := range []string{
		"the driver gave a memory allocation failure on insert\n",                             // prose, no diagnostic prefix
		"Why do I get [Microsoft][SQL Server Native Client 11.0]memory allocation failure?\n", // a question
		"[2024-01-01][worker]memory allocation failure\n",                                     // brackets of a log prefix, no driver
	} {
		fix47aNotNamed(t, s, "HY001")
	}
}

// A browser's net error quoted as what happened (t-rex#318).
func TestFix47aBrowserNetError(t *testing.T) {
	why, line := fix47aOne(t, "Trying to run it in docker\n\nget `ERR_EMPTY_RESPONSE` when opening http://127.0.0.1:6767/\n")
	if line != 3 || !strings.Contains(why, "-324") || !strings.Contains(why, "no counter of the host's network stack") {
		t.Errorf("line %d: %s", line, why)
	}
	for _, s := range []string{
		"If you get `ERR_EMPTY_RESPONSE`, check the bind address.\n", // a condition, advice
		"Do you see `ERR_EMPTY_RESPONSE`?\n",                         // a question
		"get ERR_EMPTY_RESPONSE when opening the page\n",             // not quoted whole
		"get `ERR_EMPTY_RESPONSE_X` when opening it\n",               // another name
	} {
		fix47aNotNamed(t, s, "Chromium")
	}
}
