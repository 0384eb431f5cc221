package artifact

import (
	"strings"
	"testing"
)

// Pre-round 14 (h14a): web application servers' and routing daemons' own messages, read
// from their source (unreadwebapp.go). Snippets written for each class from the format
// strings, in their own log forms; none copied from a case.

// Each message is named as the program's, with what it proves; none is an OOM stated or a
// kill by the kernel; a text of only such lines is read (not exit 3).
func TestH14aWebAppOwnLinesNamed(t *testing.T) {
	checkOwnLinesNamed(t, []ownLineCase{
		{"Thu Nov 26 12:31:46 2026 - *** uWSGI listen queue of socket \"127.0.0.1:8000\" (fd: 3) full !!! (101/100) ***\n", "accept queue was full"},
		{"web-1  | *** uWSGI listen queue of socket 4 full !!! (129/128) ***\n", "net.core.somaxconn"},
		{"your server socket listen backlog is limited to 100 connections\n", "start banner"},
		{"your memory page size is 4096 bytes\n", "page size"},
		{"[2026-11-26 20:00:53 +0000] [3] [ERROR] Worker (pid:16) was sent SIGKILL! Perhaps out of memory?\n", "gunicorn's guess"},
		{"[2026-11-26 20:00:53 +0000] [3] [CRITICAL] WORKER TIMEOUT (pid:16)\n", "--timeout"},
		{"[26-Nov-2026 09:50:00] WARNING: [pool www] server reached pm.max_children setting (50), consider raising it\n", "pm.max_children"},
		{"[26-Nov-2026 09:50:03] WARNING: [pool www] child 1234 exited on signal 9 (SIGKILL) after 12.345678 seconds from start\n", "request_terminate_timeout"},
		{"Nov 26 09:50:03 web1 php-fpm8.2[900]: [pool www] server reached pm.max_children setting (5), consider raising it\n", "pm.max_children"},
		{"app-1  | FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n", "--max-old-space-size"},
		{"2026-11-26T01:02:03: PM2 log: [PM2][WORKER] Process 0 restarted because it exceeds --max-memory-restart value (current_memory=536870912 max_memory_limit=524288000 [octets])\n", "max_memory_restart"},
		{"Nov 26 04:12:01 rtr1 bird[812]: Kernel dropped some netlink messages, will resync on next scan.\n", "net.core.rmem_max"},
		{"Nov 26 04:12:01 rtr1 zebra[1021]: [EC 4043309091] netlink-listen (NS 0) recvmsg overrun: No buffer space available\n", "netlink socket's receive buffer"},
		{"2026/11/26 04:12:01 ZEBRA: [EC 4043309091] netlink-dp (NS 0) recvmsg overrun: No buffer space available\n", "--nl-bufsize"},
	})
}

// ownLineCase: a program's own line in its log form and a word of what it is named as.
type ownLineCase struct{ text, word string }

// checkOwnLinesNamed: each line is named with its word, no OOM is stated, no kill is read,
// and the text is not left unread (exit 3).
func checkOwnLinesNamed(t *testing.T, cases []ownLineCase) {
	t.Helper()
	for _, c := range cases {
		tl := ParseString(c.text, "t", Options{})
		if !f15Unread(tl, c.word) || statedOOM(tl) || len(f15Kills(tl)) != 0 || NothingRead(tl) && len(tl.Unparsed) == 0 {
			t.Errorf("%q: unparsed %+v stated %v kills %d: want named (%s), no OOM", c.text, tl.Unparsed, statedOOM(tl), len(f15Kills(tl)), c.word)
		}
		checkAccount(t, tl)
	}
}

// The figures: uWSGI's queue and backlog, PHP-FPM's pm.max_children and its child's pid
// (named for PHP-FPM, not nginx), PM2's memory and threshold.
func TestH14aWebAppFigures(t *testing.T) {
	checkProgramFigures(t, []figureCase{
		{"*** uWSGI listen queue of socket \"127.0.0.1:8000\" (fd: 3) full !!! (101/100) ***\n", "uwsgi", "backlog", 100},
		{"*** uWSGI listen queue of socket \"127.0.0.1:8000\" (fd: 3) full !!! (101/100) ***\n", "uwsgi", "queued", 101},
		{"WARNING: [pool www] server reached pm.max_children setting (50), consider raising it\n", "php-fpm", "max_children", 50},
		{"WARNING: [pool www] child 1234 exited on signal 9 (SIGKILL) after 1.5 seconds from start\n", "php-fpm", "child_pid", 1234},
		{"[PM2][WORKER] Process 0 restarted because it exceeds --max-memory-restart value (current_memory=536870912 max_memory_limit=524288000 [octets])\n", "pm2", "max_memory_limit_bytes", 524288000},
	})
}

// figureCase: a program's line and one figure its program_limit artifact must carry.
type figureCase struct {
	text, program, name string
	want                int64
}

func checkProgramFigures(t *testing.T, cases []figureCase) {
	t.Helper()
	for _, c := range cases {
		tl := ParseString(c.text, "t", Options{})
		found := false
		for _, a := range tl.Artifacts {
			if d, _ := a.Data.(map[string]any); a.Kind == KindProgramLimit && d["program"] == c.program && d[c.name] == c.want {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: want %s %s=%d among %+v", c.text, c.program, c.name, c.want, tl.Artifacts)
		}
	}
}

// Counter-cases: sentences that only share the words, another program's lines, the
// kernel's kill line beside gunicorn's still a kill.
func TestH14aWebAppNotFromOthers(t *testing.T) {
	for _, s := range []string{
		"raise the uWSGI listen queue of socket when it is full",
		"the worker was sent SIGKILL by the orchestrator",
		"pm.max_children = 50",
		"the JavaScript heap limit is set by --max-old-space-size",
		"nfnetlink recvmsg overrun seen once",
		"recvmsg overrun: No buffer space available",
		"Kernel dropped some packets",
		"WORKER TIMEOUT happens when requests are slow",
		"your server socket listen backlog is limited to the default",
		"nginx: worker process 1234 exited on signal 9",
	} {
		if why, _, ok := webAppOwnLine(s); ok {
			t.Errorf("%q named as a web application's or routing daemon's line: %s", s, why)
		}
	}
	// gunicorn's line beside the kernel's kill line: the kill stays the kernel's.
	text := "[2026-11-26 20:00:53 +0000] [3] [ERROR] Worker (pid:16) was sent SIGKILL! Perhaps out of memory?\n" +
		"Nov 26 20:00:52 web1 kernel: [ 1234.567890] Out of memory: Killed process 16 (gunicorn) total-vm:2048000kB, anon-rss:1800000kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:4000kB oom_score_adj:0\n"
	tl := ParseString(text, "t", Options{})
	if len(f15Kills(tl)) == 0 {
		t.Errorf("the kernel's kill line beside gunicorn's was not read as a kill: %+v", tl.Unparsed)
	}
	// zebra's other errno is named but not as a receive-buffer overrun.
	if why, _, ok := webAppOwnLine("netlink-cmd recvmsg overrun: Bad file descriptor"); !ok || strings.Contains(why, "rmem_max") {
		t.Errorf("zebra's EBADF: %v %q", ok, why)
	}
}

// IPv4's route cache overflow (kernels before 3.6) is named, bare and stamped; a sentence
// naming the words is not.
func TestH14aDstCacheOverflowNamed(t *testing.T) {
	for _, text := range []string{
		"dst cache overflow\n",
		"Nov 26 04:12:01 rtr1 kernel: [12345.678901] dst cache overflow\nNov 26 04:12:02 rtr1 kernel: [12346.678901] dst cache overflow\n",
		"[12345.678901] dst cache overflow\n",
	} {
		tl := ParseString(text, "t", Options{})
		if !f15Unread(tl, "net.ipv4.route.max_size") {
			t.Errorf("%q: unparsed %+v: want the route cache overflow named", text, tl.Unparsed)
		}
		checkAccount(t, tl)
	}
	for _, s := range []string{"we saw a dst cache overflow", "dst cache overflow is gone since 3.6, why"} {
		if dstCacheOverflow(s) {
			t.Errorf("%q named as the kernel's message", s)
		}
	}
}
