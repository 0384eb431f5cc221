package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// Pre-round 12 (h12b): file-sharing, sync and backup programs' and web caches' and proxies'
// own messages, read from their source (unreadserver.go, unreaderrno.go). Snippets written
// for each class from the format strings; none copied from a case.

func h12bUnreadLine(tl *model.Timeline, no int, word string) bool {
	for _, u := range tl.Unparsed {
		if u.FirstLine <= no && no <= u.LastLine && strings.Contains(u.Why, word) {
			return true
		}
	}
	return false
}

// A program's own memory limit or allocator (PHP, rsync, Squid, Python) is named as the
// program's, with no OOM stated or killed, in its own log form and under its syslog tag.
func TestH12bProgramOwnOutOfMemory(t *testing.T) {
	for _, c := range []struct{ text, word string }{
		{"[28-Nov-2026 03:12:44 UTC] PHP Fatal error:  Allowed memory size of 536870912 bytes exhausted (tried to allocate 20480 bytes) in /var/www/nextcloud/lib/base.php on line 312\n", "memory_limit"},
		{"app-1  | PHP Fatal error:  Out of memory (allocated 35651584 bytes) (tried to allocate 8192 bytes) in /var/www/html/index.php on line 160\n", "2 MiB chunk"},
		{"ERROR: out of memory in flist_expand [sender]\n", "util2.c out_of_memory"},
		{"rsync error: error allocating core memory buffers (code 22) at util2.c(118) [sender=3.2.7]\n", "RERR_MALLOC"},
		{"[receiver] exceeded --max-alloc=1073741824 setting (file=fileio.c, line=260)\n", "--max-alloc"},
		{"2026/11/28 03:12:44| FATAL: xcalloc: Unable to allocate 1073741816 blocks of 432 bytes!\n", "descriptor table"},
		{"    exit_code = archiver.run(args)\nMemoryError\n", "MemoryError"},
		// Nextcloud's nextcloud.log: one JSON record, longer than a log line's bound.
		{`{"reqId":"Zk3aQp2dW9xYk3lVbq1aAAAAAAE","level":3,"time":"2026-11-28T03:12:44+00:00","remoteAddr":"192.168.1.20","user":"alice","app":"PHP","method":"PUT","url":"/remote.php/dav/files/alice/Backups/disk.img","message":"Allowed memory size of 536870912 bytes exhausted (tried to allocate 268435464 bytes) at /var/www/nextcloud/3rdparty/sabre/http/lib/Sapi.php#119","userAgent":"Mozilla/5.0 (Windows) mirall/3.10.1stable-Win64 (build 20231115) (Nextcloud, windows-10.0.19045 ClientArchitecture: x86_64 OsArchitecture: x86_64)","version":"27.1.3.2","exception":{"Exception":"Error","Message":"Allowed memory size of 536870912 bytes exhausted (tried to allocate 268435464 bytes)","Code":1,"Trace":[],"File":"/var/www/nextcloud/3rdparty/sabre/http/lib/Sapi.php","Line":119}}` + "\n", "memory_limit"},
		{"Nov 28 03:12:47 web1 php-fpm8.2[1200]: PHP Fatal error:  Allowed memory size of 134217728 bytes exhausted (tried to allocate 262144 bytes) in /srv/index.php on line 12\n", "memory_limit"},
		{"Nov 28 03:12:48 nas rsyncd[1300]: rsync error: error allocating core memory buffers (code 22) at util2.c(118) [sender=3.2.7]\n", "RERR_MALLOC"},
	} {
		tl := ParseString(c.text, "t", Options{})
		if !f15Unread(tl, c.word) || statedOOM(tl) || len(f15Kills(tl)) != 0 || NothingRead(tl) && len(tl.Unparsed) == 0 {
			t.Errorf("%q: unparsed %+v stated %v kills %d: want named (%s), no OOM", c.text, tl.Unparsed, statedOOM(tl), len(f15Kills(tl)), c.word)
		}
		checkAccount(t, tl)
	}
	// Counters: a sentence naming the words without the message's figures, PHP's config
	// line, a sentence naming MemoryError, the host's own out-of-memory.
	for _, s := range []string{
		"Raise the allowed memory size of PHP in php.ini when you see exhausted errors",
		"memory_limit = 512M",
		"the script raised a MemoryError when the file was large",
		"the server ran out of memory in the night",
	} {
		if why, _, ok := serverOwnLine(s); ok {
			t.Errorf("%q named as a program's message: %s", s, why)
		}
	}
}

// A title saying the program ran out of memory, over the program's own message, states no
// OOM of the host; a title naming the host's out-of-memory still does.
func TestH12bTitleOverProgramOOM(t *testing.T) {
	body := "When syncing 40M files rsync dies with:\nERROR: out of memory in flist_expand [sender]\nThe box has 8 GB of RAM.\n"
	tl := ParseString("# rsync out of memory on a large tree\n"+body, "t", Options{})
	if statedOOM(tl) || !f15Unread(tl, "util2.c out_of_memory") {
		t.Fatalf("stated %v unparsed %+v: want no stated OOM, rsync's line named", statedOOM(tl), tl.Unparsed)
	}
	tl = ParseString("# Out of memory on the backup server\n\nSince the upgrade the nightly job stops.\n", "t", Options{})
	if !statedOOM(tl) {
		t.Fatal("counter: a title naming the host's out-of-memory no longer stated")
	}
	// The kernel's kill beside the program's line is still a kill.
	tl = ParseString(body+"[ 812.000000] Out of memory: Killed process 4242 (rsync) total-vm:9000000kB, anon-rss:8000000kB, file-rss:0kB, shmem-rss:0kB\n", "t", Options{})
	if len(f15Kills(tl)) != 1 {
		t.Fatalf("kills %+v, want the kernel's kill", f15Kills(tl))
	}
}

// Web caches' and proxies' own limits (Varnish storage, Varnish's child SIGKILL, httpd's
// MaxRequestWorkers, nginx's worker_connections, Squid's descriptor reserve) are named, in
// their own log forms, a docker compose prefix and under their syslog tags.
func TestH12bWebCacheOwnLimits(t *testing.T) {
	for _, c := range []struct {
		text string
		no   int
		word string
	}{
		{"-   FetchError     Could not get storage\n", 1, "storage is full"},
		{"Nov 28 03:12:44 cache1 varnishd[812]: Child (31337) died signal=9\n", 1, "SIGKILL"},
		{"Error: Child (6757) died signal=9 (core dumped)\n", 1, "SIGKILL"},
		{"[Sat Nov 28 03:12:45.123456 2026] [mpm_prefork:error] [pid 1180] AH00161: server reached MaxRequestWorkers setting, consider raising the MaxRequestWorkers setting\n", 1, "MaxRequestWorkers"},
		{"proxy-1  | 2026/11/28 03:12:44 [alert] 29#29: 768 worker_connections are not enough\n", 1, "worker_connections"},
		{"Nov 28 03:12:46 proxy1 nginx[901]: 2026/11/28 03:12:46 [alert] 901#901: 1024 worker_connections are not enough\n", 1, "worker_connections"},
		{"2026/11/28 03:12:44 kid1| WARNING! Your cache is running out of filedescriptors\n", 1, "max_filedescriptors"},
		{"$ curl -s http://10.0.0.9:10000/\nenvoy overloaded\n", 2, "overload manager"},
		{"2026-11-28 03:12:44: (server.c.1421) [note] sockets disabled, connection limit reached\n", 1, "server.max-connections"},
		{"2026-11-28 03:12:44: server.c.1005) [note] sockets disabled, out-of-fds\n", 1, "server.max-fds"},
		{"$ curl -s -w ' %{http_code}\\n' http://10.0.0.9:10000/\nenvoy overloaded 503\n", 2, "overload manager"},
		{"Nov 28 03:12:44 proxy1 squid[812]: WARNING! Your cache is running out of filedescriptors\n", 1, "max_filedescriptors"},
	} {
		tl := ParseString(c.text, "t", Options{})
		if !h12bUnreadLine(tl, c.no, c.word) || statedOOM(tl) || len(f15Kills(tl)) != 0 {
			t.Errorf("%q: unparsed %+v: want line %d named (%s), no OOM", c.text, tl.Unparsed, c.no, c.word)
		}
		checkAccount(t, tl)
	}
	// Counters: another signal is no kill; config lines; another program's syslog line with
	// the words; a sentence about worker_connections.
	for _, s := range []string{
		"Child (31337) died signal=6 (core dumped)",
		"Child (31337) died signal=90",
		"MaxRequestWorkers 150",
		"worker_connections 1024;",
		"raise worker_connections if they are not enough",
		"we keep getting envoy overloaded errors from the gateway",
	} {
		if why, _, ok := serverOwnLine(s); ok {
			t.Errorf("%q named: %s", s, why)
		}
	}
	tl := ParseString("Nov 28 03:12:44 host1 cron[812]: Child (31337) died signal=9\n", "t", Options{})
	if len(tl.Unparsed) != 0 {
		t.Errorf("cron's line named: %+v (another program's tag is not read)", tl.Unparsed)
	}
}

// Descriptor limits and ENOBUFS in the forms these programs print errnos: Squid's xstrerr
// "(N) text", httpd's APR "(N)text: ", Go's lower-case text, nginx's "(N: text)".
func TestH12bErrnoForms(t *testing.T) {
	for _, c := range []struct{ line, name string }{
		{"2026/11/28 03:12:45 kid1| comm_open: socket failure: (105) No buffer space available", "ENOBUFS"},
		{"2026/11/28 03:12:45 kid1| comm_open: socket failure: (24) Too many open files", "EMFILE"},
		{"[Sat Nov 28 03:12:44.123456 2026] [proxy:error] [pid 2211:tid 1400] (105)No buffer space available: AH00957: HTTP: attempt to connect to 10.0.0.7:8080 (backend) failed", "ENOBUFS"},
		{"[Sat Nov 28 03:12:44.123456 2026] [core:error] [pid 2211:tid 1400] (24)Too many open files: AH00132: file permissions deny server access: /var/www/html/index.html", "EMFILE"},
		{`time="2026-11-28T03:12:44Z" level=error msg="accept tcp [::]:443: accept4: too many open files; retrying in 5ms"`, "EMFILE"},
		{"2026/11/28 03:12:44 [crit] 1234#1234: accept4() failed (23: Too many open files in system)", "ENFILE"},
		{"2026/11/28 03:12:44 [crit] 1234#1234: accept4() failed (24: Too many open files)", "EMFILE"},
	} {
		why, ok := errnoLogLine(c.line)
		if !ok || !strings.Contains(why, c.name) {
			t.Errorf("%q: %q %v, want %s", c.line, why, ok, c.name)
		}
	}
	// Counters: a number in parentheses that is no errno before the text; a sentence.
	for _, s := range []string{
		"we saw (see 105) No buffer space available in the log",
		"Too many open files is what users report",
	} {
		if why, ok := errnoLogLine(s); ok {
			t.Errorf("%q read as an errno line: %s", s, why)
		}
	}
}

// The network file systems' kernel messages quoted bare in a ticket are named (a stall, the
// client's send errno, the NFS server's connection limit); with a stamp they stay kernel log
// records; a sentence about NFS is prose.
func TestH12bNetFSQuotedBare(t *testing.T) {
	for _, c := range []struct {
		text string
		no   int
		word string
	}{
		{"Our clients hang during the backup.\n\nnfs: server nas01 not responding, still trying\n", 3, "rpc_check_timeout"},
		{"lockd: server 10.0.0.5 not responding, timed out\n", 1, "rpc_check_timeout"},
		{"nfsd: too many open connections, consider increasing the number of threads\n", 1, "svc_check_conn_limits"},
		{"Copying stalls.\nCIFS: VFS: \\\\nas01 Error -105 sending data on socket to server\n", 2, "ENOBUFS"},
		{"CIFS: VFS: \\\\nas01 has not responded in 180 seconds. Reconnecting...\n", 1, "server_unresponsive"},
		{"CIFS VFS: Send error in read = -11\n", 1, "EAGAIN"},
	} {
		tl := ParseString(c.text, "t", Options{})
		if !h12bUnreadLine(tl, c.no, c.word) {
			t.Errorf("%q: unparsed %+v: want line %d named (%s)", c.text, tl.Unparsed, c.no, c.word)
		}
		checkAccount(t, tl)
	}
	// Stamped, the same lines are the kernel log's records, not unread.
	tl := ParseString("[812345.123456] nfs: server nas01 not responding, still trying\n[812346.000001] CIFS: VFS: \\\\nas01 Error -105 sending data on socket to server\n", "t", Options{})
	if tl.Log.Len() != 2 || len(tl.Unparsed) != 0 {
		t.Errorf("stamped: %d records, unparsed %+v: want two kernel log records", tl.Log.Len(), tl.Unparsed)
	}
	// Counters: sentences that name the words.
	for _, s := range []string{
		"the NFS server is not responding, still trying to find out why",
		"we use CIFS: VFS errors appear sometimes",
		"CIFS mounts are slow",
	} {
		if why, ok := netFSLine(s); ok {
			t.Errorf("%q named: %s", s, why)
		}
	}
}

// The figures a program's own message states are kept, named as the program's
// (program_limit), beside the unread line: never the host's memory.
func TestH12bProgramFigures(t *testing.T) {
	for _, c := range []struct {
		text string
		want map[string]int64
	}{
		{"PHP Fatal error:  Allowed memory size of 536870912 bytes exhausted (tried to allocate 20480 bytes) in /srv/a.php on line 312\n",
			map[string]int64{"memory_limit_bytes": 536870912, "request_bytes": 20480}},
		{"2026/11/28 03:12:44| FATAL: xcalloc: Unable to allocate 1073741816 blocks of 432 bytes!\n",
			map[string]int64{"blocks": 1073741816, "block_bytes": 432}},
		{"2026/11/28 03:12:44 [alert] 29#29: 768 worker_connections are not enough\n",
			map[string]int64{"worker_connections": 768}},
		{"Mar 02 10:00:01 pi lnd[1938]: runtime: out of memory: cannot allocate 268435456-byte block (359727104 in use)\n",
			map[string]int64{"request_bytes": 268435456, "in_use_bytes": 359727104}},
	} {
		tl := ParseString(c.text, "t", Options{})
		var got map[string]any
		for _, a := range tl.Artifacts {
			if a.Kind == KindProgramLimit {
				got, _ = a.Data.(map[string]any)
			}
		}
		for k, v := range c.want {
			if got == nil || got[k] != v {
				t.Errorf("%q: program_limit %v, want %s=%d", c.text, got, k, v)
			}
		}
		if len(tl.Samples) != 0 || len(tl.Unparsed) != 1 {
			t.Errorf("%q: %d samples, unparsed %+v: want the line unread and no sample", c.text, len(tl.Samples), tl.Unparsed)
		}
	}
	// Counter: a line no reader named keeps no figures.
	tl := ParseString("we gave PHP 536870912 bytes and nginx 768 connections\n", "t", Options{})
	for _, a := range tl.Artifacts {
		if a.Kind == KindProgramLimit {
			t.Fatalf("a sentence's numbers kept as a program's: %v", a.Data)
		}
	}
}
