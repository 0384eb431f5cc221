package diagnose

import (
	"fmt"
	"strings"
	"testing"
)

// h27b: language runtimes' own records (artifact/langruntime.go, unreaderrno.go,
// unreadappoom.go), built from the runtimes' format strings, blind to round 27's batches:
// each is named as the program's own errno or heap, raises no kernel finding, and a kernel
// kill pasted beside a runtime's heap message still reaches oom-kill.

func TestH27bRuntimeRecordsNamed(t *testing.T) {
	cases := []struct{ text, want string }{
		// Node.js lib/internal/errors.js: errnoException, uvExceptionWithHostPort, uvException.
		{"Error: read ENOBUFS\n    at Pipe.onStreamRead (node:internal/stream_base_commons:217:20) {\n", "uv__read"},
		{"Error: spawn ENOMEM\n    at ChildProcess.spawn (node:internal/child_process:413:11)\n", "Node.js error record"},
		{"Error: spawn /bin/sh ENOMEM\n", "Node.js error record"},
		{"Error: send ENOBUFS 10.1.2.3:514\n", "Node.js error record"},
		{"Error: listen EMFILE: too many open files 0.0.0.0:3000\n", "EMFILE"},
		{"Error: EMFILE: too many open files, open '/app/node_modules/lodash/package.json'\n", "Node.js error record"},
		{"  errno: -105,\n  code: 'ENOBUFS',\n  syscall: 'write'\n", "Node.js error record"},
		{`{"level":50,"err":{"type":"Error","message":"write ENOBUFS","code":"ENOBUFS","errno":-105},"msg":"x"}` + "\n", "Node.js error record"},
		// Rust std::io::Error's Debug and Display.
		{"called `Result::unwrap()` on an `Err` value: Os { code: 105, kind: Uncategorized, message: \"No buffer space available\" }\n", "ENOBUFS"},
		{"thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: Os { code: 12, kind: OutOfMemory, message: \"Cannot allocate memory\" }', cli/main.rs:100:5\n", "ENOMEM"},
		{"2026-11-30T10:01:02.123456Z ERROR hyper::server::tcp: accept error: Too many open files (os error 24)\n", "EMFILE"},
		{"2026-11-30T10:01:02.523456Z ERROR my_app: send failed: Os { code: 105, kind: Uncategorized, message: \"No buffer space available\" }\n", "ENOBUFS"},
		{"memory allocation of 1073741824 bytes failed\n", "default_alloc_error_hook"},
		// Go's GODEBUG=gctrace=1 (runtime/mgc.go).
		{"gc 87 @412.3s 4%: 0.05+210+0.01 ms clock, 0.4+1.1/410/820+0.09 ms cpu, 3810->3902->1950 MB, 3900 MB goal, 0 MB stacks, 0 MB globals, 8 P\n", "gctrace"},
		{"gc 1 @0.008s 1%: 0.012+0.45+0.003 ms clock, 0.10+0.1/0.4/0.5+0.02 ms cpu, 4->4->0 MB, 5 MB goal, 8 P\n", "gctrace"},
		// Go's failed clone (runtime/os_linux.go newosproc).
		{"runtime: failed to create new OS thread (have 9 already; errno=12)\n", "clone failed ENOMEM"},
		{"runtime: failed to create new OS thread (have 2049 already; errno=11)\nruntime: may need to increase max user processes (ulimit -u)\nfatal error: newosproc\n", "clone failed EAGAIN"},
		// Bun's crash handler.
		{"RSS: 3.85GB | Peak: 3.91GB | Commit: 3.85GB | Faults: 0\n", "Bun's crash report header"},
		{"panic(main thread): Bun ran out of memory\n", "Bun's own allocation failed"},
	}
	for _, c := range cases {
		forms := []string{c.text, "```\n" + c.text + "```\n", "> " + strings.ReplaceAll(strings.TrimSuffix(c.text, "\n"), "\n", "\n> ") + "\n"}
		if !strings.Contains(c.text, "\n ") && strings.Count(c.text, "\n") == 1 && !strings.HasPrefix(c.text, "2026-") {
			forms = append(forms, "api_1  | "+c.text)
		}
		if strings.Count(c.text, "\n") == 1 && !strings.HasPrefix(c.text, "2026-") && underTag(c.text) {
			forms = append(forms, "Nov 30 10:01:02 web01 app[1234]: "+c.text)
		}
		for _, form := range forms {
			namedNoKernelFinding(t, form, c.want)
		}
	}
}

// Counter-cases: the same words in a sentence, another errno, advice: none is named as a
// runtime's record.
func TestH27bRuntimeCounterCases(t *testing.T) {
	ours := []string{"Node.js error record", "uv__read", "gctrace", "Bun's crash report header", "Bun's own allocation failed", "default_alloc_error_hook"}
	for _, text := range []string{
		"Error: got ENOMEM when the build forked, then it worked again.\n",
		"Error: too many EMFILE errors in the log, see the wiki.\n",
		"We saw code: 'ECONNRESET' a lot.\n",
		"Error: getaddrinfo EAI_AGAIN db.internal\n", // a resolver's error, no socket errno (ECONNREFUSED is named since h34b)
		"The gc 12 @3s figures were fine, no MB goal problem.\n",
		"I set RSS: high | Peak: low | nothing else.\n",
		"the memory allocation of the JVM failed twice\n",
		"Our runtime: failed to create new OS threads is what the docs say.\n",
		"Set NODE_OPTIONS=--max-old-space-size=4096 if you see ENOMEM.\n",
	} {
		tl := parseText19b(t, text)
		for _, u := range tl.Unparsed {
			for _, w := range ours {
				if strings.Contains(u.Why, w) {
					t.Errorf("%q: named %q: %s", text, w, u.Why)
				}
			}
		}
	}
}

// A runtime's own heap limit beside the kernel's kill: the kill reaches oom-kill with its
// victim and figure; the heap message alone raises nothing.
func TestH27bRuntimeHeapAndKernelKill(t *testing.T) {
	heap := "web_1  | <--- Last few GCs --->\n" +
		"web_1  | [1:0x5e1a3c0]   412345 ms: Mark-Compact 1890.3 (1930.1) -> 1889.9 (1931.4) MB, 1523.4 / 0.0 ms  (average mu = 0.112, current mu = 0.021) allocation failure\n" +
		"web_1  | FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n" +
		"web_1 exited with code 137\n"
	kill := "$ dmesg | tail -1\n[123456.789012] Memory cgroup out of memory: Killed process 23456 (node) total-vm:12345678kB, anon-rss:1987654kB, file-rss:12345kB, shmem-rss:0kB, UID:1000 pgtables:4567kB oom_score_adj:0\n"
	d := Run(parseText19b(t, heap), nil)
	if f := findingOf(d, "oom-kill"); f != nil {
		t.Errorf("heap limit alone: oom-kill fired: %s", f.Title)
	}
	d = Run(parseText19b(t, heap+kill), nil)
	f := findingOf(d, "oom-kill")
	if f == nil {
		t.Fatalf("heap limit and a kernel kill: no oom-kill")
	}
	ev := fmt.Sprint(f.Evidence)
	if !strings.Contains(ev, "node") || !strings.Contains(ev, "1987654") {
		t.Errorf("oom-kill evidence lacks the victim or its anon-rss: %s", ev)
	}
	// Bun's own out-of-memory with its crash header: no stated OOM of the host.
	bun := "Bun v1.1.8 (89d25807) Linux x64\nRSS: 3.85GB | Peak: 3.91GB | Commit: 3.85GB | Faults: 0\n\npanic(main thread): Bun ran out of memory\noh no: Bun has crashed. This indicates a bug in Bun, not your code.\n"
	if f := findingOf(Run(parseText19b(t, bun), nil), "oom-kill"); f != nil {
		t.Errorf("Bun's own out-of-memory: oom-kill fired: %s", f.Title)
	}
}

// underTag: the records langRuntimeHanded hands to the readers under a syslog tag (its
// needles), and a program's own out-of-memory (appOOMHanded's "of memory").
func underTag(s string) bool {
	for _, n := range []string{"os error ", "Os { code: ", "ENO", "of memory"} {
		if strings.Contains(s, n) {
			return true
		}
	}
	return false
}
