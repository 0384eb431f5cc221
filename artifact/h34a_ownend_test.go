package artifact

import (
	"strings"
	"testing"
)

// h34a: runtimes' and supervisors' own out-of-memory and kill notices, bare, under their
// program's stamp or level, in a logfmt record, under a syslog tag: each named unread with
// what it proves (the Why's words below), no OOM kill or runtime OOM recorded from it, its
// figures kept; the same words in advice, a question, a list of strings or a format string,
// and another signal or status, stay unread.
func TestH34aOwnEndNotices(t *testing.T) {
	const stamp = "2026-11-30T10:00:01.123456789Z "
	for _, c := range []struct {
		name, text, why string // why: "" for a counter-case (no line of this class named)
		figure          string // a key of a program_limit artifact, or ""
	}{
		// The forms no reader knew.
		{"supervisord sigkill", "2026-11-30 10:00:01,123 INFO exited: worker (terminated by SIGKILL; not expected)", "supervisord: a program it ran died by SIGKILL", ""},
		{"supervisord sigkill core", "2026-11-30 10:00:01,123 WARN exited: w_00 (terminated by SIGKILL (core dumped); not expected)", "supervisord: a program it ran died by SIGKILL", ""},
		{"supervisord 137", "2026-11-30 10:00:01,123 INFO exited: worker (exit status 137; not expected)", "exited with status 137", ""},
		{"supervisord bare", "exited: worker (terminated by SIGKILL; expected)", "supervisord: a program it ran died by SIGKILL", ""},
		{"pm2 prefixed", "PM2        | App [api:0] exited with code [null] via signal [SIGKILL]", "pm2: an app's process ended by SIGKILL", ""},
		{"pm2 log", "2026-11-30T10:00:01: PM2 log: App [api:0] exited with code [0] via signal [SIGKILL]", "pm2: an app's process ended by SIGKILL", ""},
		{"ruby bare", "failed to allocate memory (NoMemoryError)", "Ruby's own allocation failed", ""},
		{"ruby frame", "/app/lib/foo.rb:12:in 'Array#*': failed to allocate memory (NoMemoryError)", "Ruby's own allocation failed", ""},
		{"ruby backtick", "/app/lib/foo.rb:12:in `*': failed to allocate memory (NoMemoryError)", "Ruby's own allocation failed", ""},
		{"ruby program", "ruby: failed to allocate memory (NoMemoryError)", "Ruby's own allocation failed", ""},
		{"go persistentalloc", "fatal error: runtime: cannot allocate memory", "persistentalloc1", ""},
		{"go persistentalloc bare", "runtime: cannot allocate memory", "persistentalloc1", ""},
		{"numpy", "Traceback (most recent call last):\n  File \"t.py\", line 3, in <module>\n    a = np.zeros((100000, 100000))\nnumpy.core._exceptions._ArrayMemoryError: Unable to allocate 74.5 GiB for an array with shape (100000, 100000) and data type float64", "NumPy could not allocate one array", ""},
		{"numpy 2", "numpy._core._exceptions._ArrayMemoryError: Unable to allocate 8.00 GiB for an array with shape (1073741824,) and data type float64", "NumPy could not allocate one array", ""},
		{"libc mmap", "myapp: mmap failed: Cannot allocate memory", "own mmap or malloc was refused with ENOMEM", ""},
		{"libc perror", "mmap: Cannot allocate memory", "own mmap or malloc was refused with ENOMEM", ""},
		{"libc level", "ERROR: malloc failed: Cannot allocate memory", "own mmap or malloc was refused with ENOMEM", ""},
		{"kubectl exit code", "      Exit Code:    137", "exit code 137, 128+9", ""},
		{"systemd unit bare", "myapp.service: Main process exited, code=killed, status=9/KILL", "systemd: the unit's main process ended by SIGKILL", ""},
		// Forms read bare before, now under a program's stamp (docker logs -t, kubectl logs
		// --timestamps), Python's logging, a bracketed level, logfmt, a syslog tag.
		{"go rfc3339", stamp + "fatal error: runtime: out of memory", "the Go runtime's mmap of heap memory failed", ""},
		{"go block rfc3339", stamp + "runtime: out of memory: cannot allocate 4194304-byte block (3212836864 in use)", "could not map another heap arena", "in_use_bytes"},
		{"go block pylog", "2026-11-30 10:00:01,123 ERROR runtime: out of memory: cannot allocate 4194304-byte block (3212836864 in use)", "could not map another heap arena", "request_bytes"},
		{"jvm metaspace rfc3339", stamp + "java.lang.OutOfMemoryError: Metaspace", "MaxMetaspaceSize", ""},
		{"jvm metaspace syslog", "Nov 30 10:00:01 web1 myapp[1234]: java.lang.OutOfMemoryError: Metaspace", "MaxMetaspaceSize", ""},
		{"jvm heap syslog", "Nov 30 10:00:01 web1 myapp[1234]: Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space", "heap limit (-Xmx)", ""},
		{"jvm native rfc3339", stamp + "# Native memory allocation (mmap) failed to map 12288 bytes for committing reserved memory.", "native", "request_bytes"},
		{"jvm banner syslog", "Nov 30 10:00:01 web1 myapp[1234]: # There is insufficient memory for the Java Runtime Environment to continue.", "fatal-error banner", ""},
		{".NET rfc3339", stamp + "Unhandled exception. System.OutOfMemoryException: Exception of type 'System.OutOfMemoryException' was thrown.", ".NET's own allocation failed", ""},
		{"c++ rfc3339", stamp + "terminate called after throwing an instance of 'std::bad_alloc'", "bad_alloc", ""},
		{"rust rfc3339", stamp + "memory allocation of 1073741824 bytes failed", "Rust program's allocator", "request_bytes"},
		{"python level", "[ERROR] MemoryError", "Python program's own allocation failed", ""},
		{"python logfmt", `level=error ts=2026-11-30T10:00:01Z msg="MemoryError"`, "Python program's own allocation failed", ""},
		{"python rfc3339", stamp + "MemoryError", "Python program's own allocation failed", ""},
		{"shell rfc3339", stamp + "./run.sh: line 12: 4711 Killed                  python train.py", "SIGKILL", ""},
		{"make syslog", "Nov 30 10:00:01 ci1 runner[88]: make: *** [Makefile:12: all] Error 137", "137", ""},
		{"compose rfc3339", stamp + "myapp_1 exited with code 137", "exited with code 137", ""},
		{"pm2 rfc3339", stamp + "App [api:0] exited with code [null] via signal [SIGKILL]", "pm2:", ""},
		{"supervisord rfc3339", stamp + "exited: worker (terminated by SIGKILL; not expected)", "supervisord:", ""},
		// Counter-cases: another signal or status, supervisord's own stop, advice, a
		// question, a list of strings, a format string, words in a sentence.
		{"supervisord sigterm", "2026-11-30 10:00:01,123 INFO exited: worker (terminated by SIGTERM; not expected)", "", ""},
		{"supervisord exit 1", "2026-11-30 10:00:01,123 INFO exited: worker (exit status 1; not expected)", "", ""},
		{"supervisord stopped", "2026-11-30 10:00:01,123 INFO stopped: worker (terminated by SIGKILL)", "", ""},
		{"supervisord format", `msg = "exited: %s (%s)" % (processname, msg + "; not expected")`, "", ""},
		{"pm2 sigint", "PM2        | App [api:0] exited with code [0] via signal [SIGINT]", "", ""},
		{"pm2 format", "console.log('App [%s:%s] exited with code [%s] via signal [%s]', name, id, code, signal)", "", ""},
		{"pm2 advice", "If you see App [api:0] exited with code [null] via signal [SIGKILL] raise the memory", "", ""},
		{"ruby list", `    "failed to allocate memory (NoMemoryError)", // Ruby`, "", ""},
		{"ruby question", "do you get `failed to allocate memory (NoMemoryError)`?", "", ""},
		{"ruby sentence", "# getting an error `'each': failed to allocate memory (NoMemoryError)`", "", ""},
		{"go quoted advice", "If you see fatal error: runtime: cannot allocate memory, raise the limit", "", ""},
		{"libc other call", "fork: retry: Cannot allocate memory in a sentence", "", ""},
		{"libc netlink", "RTNETLINK answers: Cannot allocate memory", "", ""},
		{"libc sentence", "the mmap failed: Cannot allocate memory", "", ""},
		{"libc no errno", "mmap failed", "", ""},
		{"kubectl exit reason error", "    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    137", "exit code 137, 128+9", ""},
		{"kubectl exit 143", "      Exit Code:    143", "", ""},
		{"kubectl exit sentence", "Exit Code: 137 means the container was killed, right?", "", ""},
		{"numpy sentence", "I get _ArrayMemoryError: Unable to allocate 74.5 GiB for an array with shape (100000, 100000)", "", ""},
		{"systemd unit sigterm", "myapp.service: Main process exited, code=killed, status=15/TERM", "ended by a signal", ""},
		{"stamped other", stamp + "fatal error: concurrent map writes", "", ""},
		{"stamped sentence", "2026-11-30 10:00:01,123 INFO worker started with 2 GB memory", "", ""},
	} {
		tl := ParseString(c.text+"\n", "paste", Options{})
		var named []string
		for _, u := range tl.Unparsed {
			named = append(named, u.Why)
		}
		all := strings.Join(named, " | ")
		if len(tl.RuntimeOOMs)+len(tl.Events) > 0 {
			t.Errorf("%s: an OOM kill recorded from a program's own notice: %d %d", c.name, len(tl.RuntimeOOMs), len(tl.Events))
		}
		if c.why == "" {
			for _, w := range []string{"supervisord:", "pm2:", "Ruby's own", "persistentalloc1", "NumPy", "refused with ENOMEM", "kubectl describe's container state"} {
				if strings.Contains(all, w) {
					t.Errorf("%s: counter-case named as %q: %s", c.name, w, all)
				}
			}
			continue
		}
		if len(named) != 1 || !strings.Contains(named[0], c.why) {
			t.Errorf("%s: want one unread line naming %q, got %q", c.name, c.why, named)
		}
		if c.figure != "" {
			found := false
			for _, a := range tl.Artifacts {
				if m, ok := a.Data.(map[string]any); ok && a.Kind == KindProgramLimit && m[c.figure] != nil {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: no program_limit artifact with %s: %+v", c.name, c.figure, tl.Artifacts)
			}
		}
	}
	// kubectl describe's state with Reason OOMKilled is read as the container's OOM kill;
	// its exit code line is not named again.
	tl := ParseString("    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n", "paste", Options{})
	for _, u := range tl.Unparsed {
		if u.Why == kubeExit137Why {
			t.Errorf("exit code under Reason OOMKilled named: %+v", u)
		}
	}
	if len(tl.RuntimeOOMs) != 1 {
		t.Errorf("OOMKilled state: runtime OOMs %+v", tl.RuntimeOOMs)
	}
}
