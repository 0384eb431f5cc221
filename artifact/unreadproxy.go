package artifact

import "strings"

// Web servers' and L7 proxies' own lines about their own limits and their status pages
// (pre-round 27, h27d; every format string checked in the program's source). nginx's
// listen address held by another process, its worker_connections above its descriptor
// limit, its shared-memory zone full; httpd's scoreboard; HAProxy's descriptor and
// connection limits; the status outputs (httpd's server-status?auto, HAProxy's "show info"
// and "show stat", nginx's stub_status). Each names the program's own limit or counter,
// never the kernel's; a paste of them held nothing headroom read (exit 3), or a status
// block of "Key: value" lines was taken for a kernel log printed without stamps
// (unstampedLog) and gave rules a false healthy. Each is listed as unread with what it
// proves; the figures a status line states are kept as program_limit (programFigures).
//
// Gated: proxyOwnLine runs inside serverOwnLine (prose lines and these programs' syslog
// lines); one strings.IndexAny for the forms' rare bytes, then fixed needles. The status
// keys (webStatusLine) are one map lookup of the word before the line's first colon, asked
// of a prose line after its command's output reader (a "show info" under its socat command
// stays named by the command). No regexp.

var proxyOwnForms = []ownLineForm{
	// nginx src/core/ngx_connection.c ngx_open_listening_sockets: bind() failed with
	// EADDRINUSE: "bind() to %V failed" (emerg, the errno appended as " (98: Address
	// already in use)"), retried five times, then "still could not bind()".
	{"bind() to ", " failed (98: ", false, "nginx's listening address is held by another socket (src/core/ngx_connection.c ngx_open_listening_sockets: \"bind() to ADDR failed (98: Address already in use)\", then \"still could not bind()\"): another process (an older nginx, another web server, a container's port mapping) listens there; a start-up failure of the program's configuration, not memory or the kernel's network capacity; headroom has no rule for it"},
	{"still could not bind()", "", false, "nginx gave up binding its listening sockets after five tries (src/core/ngx_connection.c ngx_open_listening_sockets: \"still could not bind()\"): the address is held by another socket (EADDRINUSE) or not configured; a start-up failure, not memory or network capacity; headroom has no rule for it"},
	// nginx src/event/ngx_event.c ngx_event_process_init / ngx_event_module_init: "%ui
	// worker_connections exceed open file resource limit: %i" (warn): worker_connections
	// above RLIMIT_NOFILE (worker_rlimit_nofile unset).
	{" worker_connections exceed open file resource limit: ", "", false, "nginx's worker_connections is larger than the process's descriptor limit (src/event/ngx_event.c: \"N worker_connections exceed open file resource limit: M\"): past M open descriptors accept4() and socket() fail with EMFILE before nginx's own table fills; RLIMIT_NOFILE (worker_rlimit_nofile, LimitNOFILE, a container's ulimit), not memory; headroom has no rule for a program's descriptor limit"},
	// nginx src/os/unix/ngx_process_cycle.c ngx_worker_process_init: "setrlimit(RLIMIT_NOFILE,
	// %i) failed" (alert): worker_rlimit_nofile above the hard limit.
	{"setrlimit(RLIMIT_NOFILE, ", ") failed", false, "nginx could not raise its workers' descriptor limit to worker_rlimit_nofile (src/os/unix/ngx_process_cycle.c: \"setrlimit(RLIMIT_NOFILE, N) failed\"): N is above the hard limit (LimitNOFILE, a container's ulimit, fs.nr_open); the workers keep the lower limit; a descriptor limit, not memory; headroom has no rule for it"},
	// nginx src/core/ngx_slab.c ngx_slab_alloc_locked: "ngx_slab_alloc() failed: no memory"
	// (crit), with the zone's log context (" in SSL session shared cache", " in
	// limit_req zone", " in cache keys zone").
	{"ngx_slab_alloc() failed: no memory", "", true, "an nginx shared memory zone is full (src/core/ngx_slab.c: \"ngx_slab_alloc() failed: no memory\", the zone named after it): the size given in the configuration (ssl_session_cache shared:NAME:SIZE, limit_req_zone, limit_conn_zone, a cache's keys_zone) holds no more entries; nginx's own fixed-size zone, not the host's memory and no kill by the kernel's OOM killer; headroom has no reader for nginx's error log"},
	// httpd server/mpm/{worker,event}: every scoreboard slot is taken while fewer than
	// MaxRequestWorkers threads serve (gracefully finishing processes hold slots): "AH00288
	// (worker) / AH00485 (event): scoreboard is full, not at MaxRequestWorkers".
	{"scoreboard is full, not at MaxRequestWorkers", "", false, "Apache httpd's scoreboard has no free slot while fewer than MaxRequestWorkers serve (the MPM's \"scoreboard is full, not at MaxRequestWorkers\", AH00288/AH00485): processes finishing gracefully (after MaxConnectionsPerChild or a reload) still hold their slots; httpd's own process table (ServerLimit, MaxSpareThreads), not memory or the kernel's network; headroom has no reader for httpd's error log"},
	// HAProxy src/sock.c sock_accept_conn / src/backend.c connect (before 2.4 listener.c,
	// proto_tcp.c): accept4()/socket() failed: EMFILE "Proxy %s reached process FD limit
	// (maxsock=%d). Please check 'ulimit-n' and restart." (older "... at %d."), ENFILE
	// "... reached system FD limit ...", ENOBUFS/ENOMEM "... reached system memory limit ...".
	{"reached process FD limit", "", false, "HAProxy's accept or connect failed with EMFILE (src/sock.c: \"Proxy NAME reached process FD limit (maxsock=N)\"): the process's descriptor limit (ulimit-n, LimitNOFILE, a container's ulimit) is used up; HAProxy pauses the listener; a descriptor limit of the program's, not memory; headroom has no rule for it"},
	{"reached system FD limit", "", false, "HAProxy's accept or connect failed with ENFILE (src/sock.c: \"Proxy NAME reached system FD limit\"): the kernel's system-wide file table (fs.file-max; /proc/sys/fs/file-nr would show it) is full; HAProxy pauses the listener; not memory; headroom has no rule for the file table"},
	{"reached system memory limit", "", false, "HAProxy's accept or connect failed with ENOBUFS or ENOMEM (src/sock.c: \"Proxy NAME reached system memory limit\"): the kernel refused a socket for memory; the kernel log (a page allocation failure, \"TCP: out of memory\") or /proc/net/sockstat with net.ipv4.tcp_mem would say which; the line itself holds no figure headroom reads"},
	// HAProxy src/haproxy.c (set_global_maxconn / step_init): setrlimit(RLIMIT_NOFILE)
	// refused: "[%s.main()] Cannot raise FD limit to %d, limit is %d." (2.x; 1.x without the
	// limit) and "FD limit (%d) too low for maxconn=%d/maxsock=%d. Please raise 'ulimit-n' to
	// %d or more to avoid any trouble."
	{"Cannot raise FD limit to ", "", false, "HAProxy could not raise its descriptor limit to what maxconn needs (src/haproxy.c: \"Cannot raise FD limit to N, limit is M\"): the hard limit (LimitNOFILE, a container's ulimit, fs.nr_open) is below N (about 2 × maxconn); HAProxy refuses to start or runs with fewer connections; a descriptor limit, not memory; headroom has no rule for it"},
	{"FD limit (", ") too low for maxconn=", false, "HAProxy's descriptor limit is below what its maxconn needs (src/haproxy.c: \"FD limit (N) too low for maxconn=C/maxsock=S\"): connections past N descriptors fail with EMFILE; ulimit-n or LimitNOFILE, not memory; headroom has no rule for it"},
	// HAProxy src/listener.c listener_accept (and QUIC's socket): the accepted descriptor is
	// at global.maxsock: "Proxy %s reached the configured maximum connection limit. Please
	// check the global 'maxconn' value."
	{"reached the configured maximum connection limit", "", false, "HAProxy accepted a connection whose descriptor is at global.maxsock, sized from its global maxconn (src/listener.c: \"Proxy NAME reached the configured maximum connection limit\"): it closes it and pauses the listener a second; further connections wait in the kernel's accept queue until one closes (and overflow it: TcpExt ListenOverflows would count them); HAProxy's own limit, not memory; headroom has no reader for HAProxy's log"},
	// HAProxy src/server.c srv_set_stopped (check.c before 2.x): a health check marked a
	// server down: "Server %s/%s is DOWN, reason: %s, ...".
	{"Server ", " is DOWN", false, "HAProxy's health check marked a server down (src/server.c: \"Server BACKEND/NAME is DOWN, reason: ...\"): the server did not answer its check in time (Layer4 timeout: no SYN-ACK; Layer7: a wrong reply); the backend's health, not this host's memory or kernel network; a backend's full accept queue would show in its own netstat -s or ss -lnt; headroom has no reader for HAProxy's log"},
	// HAProxy's ha_alert(): an allocation of its own returned NULL (cfgparse and runtime
	// paths print "... out of memory."), the process's malloc or its -m (Memmax_MB) limit.
	{"[ALERT]", "out of memory", true, "HAProxy's own allocation failed (ha_alert \"... out of memory\"): malloc or calloc returned NULL for the process (its -m / Memmax_MB limit, RLIMIT_AS, or the host's overcommit); HAProxy reports it itself: no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// nginx src/http/ngx_http_upstream.c: ngx_log_error(NGX_LOG_ERR, ..., NGX_ETIMEDOUT,
	// "upstream timed out") with " (110: Connection timed out) while connecting to
	// upstream" / "while reading response header from upstream".
	{"upstream timed out (110: ", "", false, "nginx's timer for its upstream expired (src/http/ngx_http_upstream.c: \"upstream timed out (110: ...) while connecting to / reading response header from upstream\"): proxy_connect_timeout or proxy_read_timeout (60 s by default) passed with no answer: a slow or unreachable backend; \"while connecting\" in numbers can be the backend's accept queue dropping SYNs (its netstat -s ListenOverflows would say); nginx's timeout, not this host's memory; headroom has no reader for nginx's error log"},
	// HAProxy's "show stat" CSV (src/stats.c): its header line.
	{"# pxname,svname,", "", false, "HAProxy's \"show stat\" CSV (src/stats.c; header \"# pxname,svname,qcur,qmax,scur,smax,slim,...\"): per frontend, backend and server its queue and sessions against its own limits (scur against slim: maxconn); HAProxy's counters, not the kernel's; headroom has no reader for them"},
	// nginx src/http/modules/ngx_http_stub_status_module.c: "Active connections: %N \n",
	// "server accepts handled requests\n", " %A %A %A \n", "Reading: %N Writing: %N Waiting: %N \n".
	{"server accepts handled requests", "", false, nginxStubStatusWhy},
	{"Reading: ", " Waiting: ", false, nginxStubStatusWhy},
}

const nginxStubStatusWhy = "nginx's stub_status counters (ngx_http_stub_status_module.c: \"Active connections\", \"server accepts handled requests\", \"Reading: Writing: Waiting:\"): handled below accepts counts connections nginx accepted and closed at once for want of a slot (worker_connections) or a descriptor; nginx's own counters, not the kernel's; headroom has no reader for them"

// proxyOwnGate: a byte of every proxyOwnForms needle ('b' "bind()", 'w'
// "worker_connections", 'R' "RLIMIT", 'y' "no memory", 'M' "MaxRequestWorkers", 'D' "FD",
// 'c' "configured", '#' the CSV header, 'q' "requests", 'W' "Waiting", 'D' "DOWN", 'R'
// "[ALERT]", '1' "(110: ").
const proxyOwnGate = "bwRyMDc#qW1"

// proxyOwnLine says why t is one of proxyOwnForms' lines or a status output's line.
func proxyOwnLine(t string) (why string, oom, ok bool) {
	if why, ok := haproxyTypedStat(t); ok {
		return why, false, true
	}
	if strings.IndexAny(t, proxyOwnGate) < 0 {
		return "", false, false
	}
	for i := range proxyOwnForms {
		f := &proxyOwnForms[i]
		k, rest, ok := f.find(t)
		if !ok {
			continue
		}
		if f.needle[0] == ' ' && !endsWithDigit(t[:k]) {
			continue // "N worker_connections exceed ..."
		}
		if f.needle[0] == 'S' && !haproxyServerName(rest) {
			continue // "Server BACKEND/NAME is DOWN": a sentence about a server is prose
		}
		if f.needle[0] == '#' && strings.Contains(rest, ",quic_") {
			return haproxyQUICTypedWhy, false, true // the CSV with the QUIC module's columns
		}
		if f.why == nginxStubStatusWhy && !stubStatusLine(t) {
			continue // stub_status's own line, not a sentence naming it
		}
		return f.why, f.oom, true
	}
	return "", false, false
}

const (
	modStatusWhy   = "Apache httpd's mod_status machine-readable page (server-status?auto: \"BusyWorkers\", \"IdleWorkers\", \"Scoreboard\", \"ConnsTotal\"...): BusyWorkers at MaxRequestWorkers with IdleWorkers 0 is httpd's own worker limit reached; httpd's counters, not the kernel's memory or network; headroom has no reader for them"
	haproxyInfoWhy = "HAProxy's \"show info\" output (src/stats.c info fields: Maxsock, Maxconn, CurrConns, Ulimit-n, Memmax_MB, PoolFailed...): CurrConns at Maxconn is HAProxy's own connection limit reached, Maxsock its descriptor need against Ulimit-n, PoolFailed its own pool allocations refused (by Memmax_MB, its -m limit, when set); HAProxy's figures, not the kernel's; headroom has no reader for them"
)

// webStatusKeys: the keys of the status outputs, each its program's own: httpd's
// mod_status ?auto (modules/generators/mod_status.c) and HAProxy's show info (src/stats.c
// info_fields). Only keys no kernel message or other output starts a line with (no
// "Uptime", "Processes", "Name", "Version").
var webStatusKeys = map[string]string{
	"Total Accesses": modStatusWhy, "Total kBytes": modStatusWhy, "Total Duration": modStatusWhy,
	"CPULoad": modStatusWhy, "ReqPerSec": modStatusWhy, "BytesPerSec": modStatusWhy,
	"BytesPerReq": modStatusWhy, "DurationPerReq": modStatusWhy, "BusyWorkers": modStatusWhy,
	"GracefulWorkers": modStatusWhy, "IdleWorkers": modStatusWhy, "ConnsTotal": modStatusWhy,
	"ConnsAsyncWriting": modStatusWhy, "ConnsAsyncKeepAlive": modStatusWhy,
	"ConnsAsyncClosing": modStatusWhy, "Scoreboard": modStatusWhy, "ServerMPM": modStatusWhy,
	"ParentServerConfigGeneration": modStatusWhy, "ParentServerMPMGeneration": modStatusWhy,
	"ServerUptimeSeconds": modStatusWhy,

	// HAProxy's show info.
	"Maxsock": haproxyInfoWhy, "Maxconn": haproxyInfoWhy, "Hard_maxconn": haproxyInfoWhy,
	"CurrConns": haproxyInfoWhy, "CumConns": haproxyInfoWhy, "CumReq": haproxyInfoWhy,
	"MaxSslConns": haproxyInfoWhy, "CurrSslConns": haproxyInfoWhy, "ConnRateLimit": haproxyInfoWhy,
	"MaxConnRate": haproxyInfoWhy, "PoolAlloc_MB": haproxyInfoWhy, "PoolUsed_MB": haproxyInfoWhy,
	"PoolFailed": haproxyInfoWhy, "Memmax_MB": haproxyInfoWhy, "Ulimit-n": haproxyInfoWhy,
	"Maxpipes": haproxyInfoWhy, "PipesUsed": haproxyInfoWhy, "PipesFree": haproxyInfoWhy,
	"Uptime_sec": haproxyInfoWhy, "Nbthread": haproxyInfoWhy,
	"Process_num": haproxyInfoWhy, "Run_queue": haproxyInfoWhy, "Idle_pct": haproxyInfoWhy,
	"MaxSessRate": haproxyInfoWhy, "SessRateLimit": haproxyInfoWhy, "Unstoppable Jobs": haproxyInfoWhy,
	"Memmax_bytes": haproxyInfoWhy,

	"Active connections": nginxStubStatusWhy,
}

// webStatusLine: t is "KEY: VALUE" with one of webStatusKeys and a value that starts with
// a digit or a dot (Scoreboard's and ServerMPM's a letter or '_'), nothing after it but
// the value's token (a sentence that names a key is prose).
func webStatusLine(t string) (string, bool) {
	s := strings.TrimSpace(t)
	c := strings.IndexByte(s, ':')
	if c < 4 || c > 30 || c+2 >= len(s) || s[c+1] != ' ' {
		return "", false
	}
	why, ok := webStatusKeys[s[:c]]
	if !ok {
		return "", false
	}
	v := strings.TrimSpace(s[c+1:])
	if strings.ContainsAny(v, " \t") {
		return "", false // one value
	}
	switch s[:c] {
	case "Scoreboard", "ServerMPM":
		return why, true
	}
	if v[0] != '.' && !startsWithDigit(v) {
		return "", false
	}
	return why, true
}

// stubStatusLine: t is stub_status's header line alone, or its "Reading: N Writing: N
// Waiting: N" line.
func stubStatusLine(t string) bool {
	s := strings.TrimSpace(t)
	if s == "server accepts handled requests" {
		return true
	}
	r, ok := strings.CutPrefix(s, "Reading: ")
	return ok && startsWithDigit(r) && strings.Contains(r, " Writing: ")
}

// haproxyServerName: rest starts with HAProxy's "BACKEND/SERVER is DOWN" (one token with a
// slash before " is DOWN").
func haproxyServerName(rest string) bool {
	name, _, ok := strings.Cut(rest, " is DOWN")
	return ok && strings.IndexByte(name, '/') > 0 && !strings.ContainsAny(name, " \t")
}

// HAProxy's "show stat typed" (src/stats.c stats_emit_typed_data_field, h29a): one field a
// line, "%c.%u.%u.%d.%s.%u:" (the object's type F/B/L/S, proxy id, object id, field
// position, field name, process), three letters of origin, nature and scope, then the
// value's type and the value: "F.4.0.120.quic_socket_full.1:MCP:u64:1523". The QUIC
// module's fields (src/quic_stats.c) are HAProxy's own counts of its sends: quic_socket_full
// the sendto/sendmsg calls that returned EAGAIN (the socket's send buffer full, a
// non-blocking send HAProxy retries), quic_sendto_err ENOTCONN/EINPROGRESS/EBADF, and
// quic_sendto_err_unknwn every other errno (ENOBUFS among EMSGSIZE, EPERM, ECONNREFUSED:
// src/quic_sock.c qc_snd_buf), quic_rxbuf_full its own receive ring. None is a kernel
// counter and the mixed one does not say which errno, so the line is named.
const (
	haproxyTypedWhy     = "HAProxy's \"show stat typed\" (src/stats.c: \"TYPE.PROXY.ID.POS.NAME.PROCESS:ORIGIN-NATURE-SCOPE:TYPE:VALUE\"): one of HAProxy's own counters or limits per frontend, backend, listener or server; not a kernel counter; headroom has no reader for them"
	haproxyQUICTypedWhy = "HAProxy's QUIC counters (\"show stat\", typed or CSV: src/quic_stats.c, counted in src/quic_sock.c qc_snd_buf): quic_socket_full counts sends that returned EAGAIN (its UDP socket's send buffer full; HAProxy retries them), quic_sendto_err ENOTCONN/EINPROGRESS/EBADF, quic_sendto_err_unknwn every other errno (ENOBUFS, EMSGSIZE, EPERM, ECONNREFUSED mixed), quic_rxbuf_full its own receive ring; HAProxy's counts, not the kernel's: `nstat -az UdpSndbufErrors UdpRcvbufErrors` twice a minute apart tells whether the host dropped datagrams; headroom reads no drop from them"
)

// haproxyTypedStat: t is one "show stat typed" line.
func haproxyTypedStat(t string) (string, bool) {
	s := strings.TrimSpace(t)
	if len(s) < 12 || s[1] != '.' || strings.IndexByte("FBLS", s[0]) < 0 {
		return "", false
	}
	f := strings.SplitN(s, ":", 4)
	if len(f) != 4 || len(f[1]) != 3 || f[2] == "" || strings.ContainsAny(f[3], " \t") {
		return "", false
	}
	id := strings.Split(f[0], ".")
	if len(id) != 6 || !startsWithDigit(id[1]) || !startsWithDigit(id[3]) || !startsWithDigit(id[5]) || id[4] == "" {
		return "", false
	}
	if strings.HasPrefix(id[4], "quic_") {
		return haproxyQUICTypedWhy, true
	}
	return haproxyTypedWhy, true
}
