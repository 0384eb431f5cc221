package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
	"headroom/model"
)

// h27d: web servers' and L7 proxies' own lines (nginx, httpd, HAProxy, lighttpd, Caddy),
// written from their sources' format strings before round 27 (unreadproxy.go).

func h27dParse(t *testing.T, text string) *model.Timeline {
	t.Helper()
	tl, err := artifact.Parse(strings.NewReader(text), "paste.txt", artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// Each form, in the wrappers users paste it in, is listed as unread with its program's
// limit named (no exit 3: the text holds named evidence).
func TestH27dProxyOwnLinesNamed(t *testing.T) {
	wraps := []func(string) string{
		func(s string) string { return s },
		func(s string) string { return "web-1  | " + s },
		func(s string) string { return "> " + s },
	}
	for _, c := range []struct{ line, want string }{
		{"2026/11/28 03:14:07 [emerg] 1#1: bind() to 0.0.0.0:80 failed (98: Address already in use)", "listening address is held"},
		{"nginx: [emerg] still could not bind()", "gave up binding"},
		{"2026/11/28 03:14:07 [warn] 1234#0: 4096 worker_connections exceed open file resource limit: 1024", "larger than the process's descriptor limit"},
		{"2026/11/28 03:14:07 [alert] 1234#0: setrlimit(RLIMIT_NOFILE, 65535) failed (1: Operation not permitted)", "worker_rlimit_nofile"},
		{`2026/11/28 03:14:07 [crit] 2211#2211: ngx_slab_alloc() failed: no memory in SSL session shared cache "SSL"`, "shared memory zone is full"},
		{"[Sat Nov 28 03:14:07.123456 2026] [mpm_event:error] [pid 1234:tid 140234] AH00485: scoreboard is full, not at MaxRequestWorkers", "scoreboard has no free slot"},
		{"[ALERT]    (1234) : [haproxy.main()] Cannot raise FD limit to 80039, limit is 65536.", "could not raise its descriptor limit"},
		{"[ALERT]    (1234) : [haproxy.main()] FD limit (65536) too low for maxconn=40000/maxsock=80039. Please raise 'ulimit-n' to 80039 or more to avoid any trouble.", "below what its maxconn needs"},
		{"Proxy fe_http reached process FD limit (maxsock=4096). Please check 'ulimit-n' and restart.", "failed with EMFILE"},
		{"Proxy fe_http reached system FD limit (maxsock=4096). Please check system tunables.", "fs.file-max"},
		{"2026/11/28 03:14:07 [error] 1235#1235: *8813 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 10.1.2.3", "proxy_read_timeout"},
		{"[WARNING]  (1234) : Server be_app/app1 is DOWN, reason: Layer4 timeout, check duration: 2001ms. 0 active and 0 backup servers left.", "health check marked a server down"},
		{"[ALERT]    (1234) : Proxy 'fe_http': out of memory.", "HAProxy's own allocation failed"},
		{"# pxname,svname,qcur,qmax,scur,smax,slim,stot,bin,bout,dreq,dresp,ereq,econ,eresp,", "show stat"},
	} {
		for _, w := range wraps {
			text := w(c.line) + "\n"
			tl := h27dParse(t, text)
			if !h23cNamed(tl, c.want) {
				t.Errorf("%q: not named %q: %+v", text, c.want, tl.Unparsed)
			}
		}
	}
	// HAProxy under its syslog tag.
	tl := h27dParse(t, "Nov 28 03:14:08 lb1 haproxy[1234]: Proxy fe_http reached process FD limit (maxsock=65536). Please check 'ulimit-n' and restart.\n")
	if !h23cNamed(tl, "failed with EMFILE") {
		t.Errorf("haproxy syslog line not named: %+v", tl.Unparsed)
	}
}

// The figures each states, as the program's own (program_limit).
func TestH27dProxyFigures(t *testing.T) {
	for _, c := range []struct {
		text, program, key string
		want               int64
	}{
		{"2026/11/28 03:14:07 [warn] 1234#0: 4096 worker_connections exceed open file resource limit: 1024\n", "nginx", "worker_connections", 4096},
		{"[WARNING]  (1234) : [haproxy.main()] Cannot raise FD limit to 80039, limit is 65536.\n", "haproxy", "fd_limit", 65536},
		{"Proxy fe reached process FD limit (maxsock=4096). Please check 'ulimit-n' and restart.\n", "haproxy", "maxsock", 4096},
		{"Name: HAProxy\nMaxsock: 8215\nMaxconn: 4000\nCurrConns: 4000\nPoolFailed: 3456\n", "haproxy", "curr_conns", 4000},
		{"Total Accesses: 1234567\nBusyWorkers: 400\nIdleWorkers: 0\n", "httpd", "busy_workers", 400},
		{"Active connections: 291 \nserver accepts handled requests\n 16630948 16630948 31070465 \nReading: 6 Writing: 179 Waiting: 106 \n", "nginx", "active_connections", 291},
	} {
		tl := h27dParse(t, c.text)
		found := false
		for _, a := range tl.Artifacts {
			m, ok := a.Data.(map[string]any)
			if a.Kind != artifact.KindProgramLimit || !ok || m["program"] != c.program {
				continue
			}
			if v, ok := m[c.key].(int64); ok && v == c.want {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: no %s %s=%d in %+v", c.text, c.program, c.key, c.want, tl.Artifacts)
		}
	}
}

// httpd's server-status?auto page is its counters, not a kernel log printed without stamps:
// before, its "Key: value" run was read as 11 kernel log records and rules reported healthy.
func TestH27dModStatusNotKernelLog(t *testing.T) {
	text := "ServerVersion: Apache/2.4.57 (Debian)\nServerMPM: event\nServer Built: 2023-04-13T13:22:55\nUptime: 86400\nTotal Accesses: 1234567\nTotal kBytes: 7654321\nCPULoad: .5\nReqPerSec: 14.29\nBusyWorkers: 400\nIdleWorkers: 0\nProcesses: 16\nStopping: 0\nConnsTotal: 1950\nScoreboard: WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW\n"
	tl := h27dParse(t, text)
	for _, a := range tl.Artifacts {
		if a.Kind == artifact.KindKernelLog {
			t.Errorf("server-status read as a kernel log: %+v", a)
		}
	}
	if !h23cNamed(tl, "mod_status") {
		t.Errorf("server-status not named: %+v", tl.Unparsed)
	}
	if d, _ := rootOf(t, text); len(d.Findings) != 0 {
		t.Errorf("server-status: findings %+v", d.Findings)
	}
}

// The kernel's own evidence beside a web server's lines reaches its rule; the server's own
// lines add none.
func TestH27dKernelEvidenceBesideProxy(t *testing.T) {
	nginx := "2026/11/28 03:14:07 [crit] 1234#0: accept4() failed (24: Too many open files)\n"
	for _, c := range []struct{ text, id, want string }{
		{nginx + "Nov 28 03:14:07 web1 kernel: TCP: request_sock_TCP: Possible SYN flooding on port 443. Sending cookies.  Check SNMP counters.\n", "listen-overflow", "SYN"},
		{nginx + "$ netstat -s | egrep -i 'listen|overflow'\n    48213 times the listen queue of a socket overflowed\n    48213 SYNs to LISTEN sockets dropped\n", "listen-overflow", "48213"},
		{nginx + "[12346.000] TCP: out of memory -- consider tuning tcp_mem\n", "tcp-memory-pressure", "tcp_mem"},
		{"2026/11/28 03:14:07 [alert] 2200#2200: worker process 2211 exited on signal 9\n[Sat Nov 28 03:14:06 2026] Out of memory: Killed process 2211 (nginx) total-vm:1234567kB, anon-rss:987654kB, file-rss:0kB, shmem-rss:0kB, UID:33 pgtables:2000kB oom_score_adj:0\n", "oom-kill", "nginx"},
		{"Nov 28 03:14:08 lb1 haproxy[1234]: Proxy fe_http reached process FD limit (maxsock=65536). Please check 'ulimit-n' and restart.\nLISTEN 4097   4096   0.0.0.0:443   0.0.0.0:*\n", "listen-overflow", "443"},
	} {
		d, _ := rootOf(t, c.text)
		f := findingOf(d, c.id)
		if f == nil {
			t.Errorf("%q: no %s: %+v", c.text, c.id, d.Findings)
			continue
		}
		if s := h25cText(f); !strings.Contains(s, c.want) {
			t.Errorf("%q: %s %q lacks %q", c.text, c.id, s, c.want)
		}
	}
	// The programs' own limits alone reach no kernel rule.
	for _, text := range []string{
		"2026/11/28 03:14:07 [alert] 1235#1235: 1024 worker_connections are not enough\n2026/11/28 03:14:07 [warn] 1234#0: 4096 worker_connections exceed open file resource limit: 1024\n",
		"Name: HAProxy\nMaxsock: 8215\nMaxconn: 4000\nCurrConns: 4000\nPoolFailed: 3456\nMemmax_MB: 0\n",
		"[ALERT]    (1234) : [haproxy.main()] Cannot raise FD limit to 80039, limit is 65536.\n",
	} {
		if d, _ := rootOf(t, text); len(d.Findings) != 0 {
			t.Errorf("%q: findings %+v", text, d.Findings)
		}
	}
}

// Counter-cases: sentences that name a key or the words, a recommendation, not the forms.
func TestH27dProxyCounterCases(t *testing.T) {
	for _, text := range []string{
		"BusyWorkers: the number of workers serving a request right now\n",
		"Reading: see the nginx docs for what Waiting: means\n",
		"set worker_connections 4096 and worker_rlimit_nofile 8192 in nginx.conf\n",
		"Maxconn: raise it to 10000 please\n",
		"Server web1 is DOWN since the upgrade, any idea?\n",
	} {
		tl := h27dParse(t, text)
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "nginx") || strings.Contains(u.Why, "HAProxy") || strings.Contains(u.Why, "httpd") {
				t.Errorf("%q: named as a program's line: %s", text, u.Why)
			}
		}
	}
}
