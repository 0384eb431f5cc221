package artifact

import (
	"math"
	"strconv"
	"strings"
)

// File-sharing, sync and backup programs' and web caches' and proxies' own messages about
// their own limits (pre-round 12, h12b; every format string checked in the program's
// source). Each names a limit of the program's (PHP's memory_limit, Varnish's storage,
// nginx's worker_connections, httpd's MaxRequestWorkers, rsync's --max-alloc, Squid's
// descriptor reserve) or an allocation of the program's own that its allocator refused; none
// is the kernel's OOM killer, a page allocation failure or a socket buffer. A paste of them
// held nothing headroom read (exit 3), and a title saying the program "ran out of memory"
// was read as the host's OOM. Each is listed as unread with what it proves; nothing is
// diagnosed from it.
//
// Gated: serverOwnLine runs on lines already classified as prose (doc.prose, after
// appOOMLine) and on the syslog lines of these programs' tags (isServerTag, a switch); it
// returns at once for a line without one of the forms' rare bytes, then asks each form's
// fixed needle with strings.Index. No regexp.

// serverOwnForms: each message's needle (a fixed part of the program's format string), a
// second fixed part that must follow it ("" for none), whether it is the program's own
// out-of-memory (its "out of memory" is then no statement about the host: programOOMNamed),
// and what it proves.
var serverOwnForms = []ownLineForm{
	// PHP Zend/zend_alloc.c zend_mm_alloc_pages / zend_mm_alloc_huge: past memory_limit,
	// zend_mm_safe_error(heap, "Allowed memory size of %zu bytes exhausted (tried to allocate
	// %zu bytes)"), printed as "PHP Fatal error:  Allowed memory size of ..." (Nextcloud,
	// WordPress, php-fpm's "child N said into stderr").
	{"Allowed memory size of ", " bytes exhausted", true, "PHP's own per-request memory limit (memory_limit, Zend/zend_alloc.c: \"Allowed memory size of N bytes exhausted (tried to allocate M bytes)\"): the script passed the limit php.ini or the application sets; PHP stopped the request itself: no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// Zend/zend_alloc.c: the chunk's mmap failed (zend_mm_chunk_alloc returned NULL after
	// zend_mm_gc): "Out of memory (allocated %zu bytes) (tried to allocate %zu bytes)".
	{"Out of memory (allocated ", "(tried to allocate ", true, "PHP's own allocator could not map another chunk (Zend/zend_alloc.c: \"Out of memory (allocated N bytes) (tried to allocate M bytes)\"): the mmap of a 2 MiB chunk failed (the process's address space, RLIMIT_AS or overcommit refused it) below memory_limit; PHP stopped the request itself: no kill by the kernel's OOM killer"},
	// rsync util2.c out_of_memory: "ERROR: out of memory in %s [%s]" (the function and
	// sender/receiver/generator), then exit_cleanup(RERR_MALLOC) prints "rsync error: error
	// allocating core memory buffers (code 22) at util2.c(N) [who=version]" (log.c
	// rerr_names). my_alloc exits so too past --max-alloc (default 1 GiB since 3.2.0):
	// "[%s] exceeded --max-alloc=%s setting (file=%s, line=%d)".
	{"ERROR: out of memory in ", "", true, "rsync's own allocation failed (util2.c out_of_memory: \"ERROR: out of memory in FUNCTION [sender]\"): malloc or realloc of its file list or buffers returned NULL (the process's address space, RLIMIT_AS or overcommit) and rsync exited with code 22 by itself: no kill by the kernel's OOM killer"},
	{"error allocating core memory buffers (code 22)", "", true, "rsync exited with RERR_MALLOC (code 22, log.c: \"error allocating core memory buffers\"): its own allocation failed or passed --max-alloc (util2.c my_alloc); rsync exited by itself: no kill by the kernel's OOM killer and no statement about the host's free memory"},
	{"exceeded --max-alloc=", "", true, "rsync's own cap on one allocation (--max-alloc, default 1 GiB since 3.2.0; util2.c my_alloc: \"exceeded --max-alloc=N setting\"): rsync refused the request itself and exited with code 22; not the host's memory"},
	// Squid compat/xalloc.cc: calloc/malloc returned NULL: "xcalloc: Unable to allocate %lu
	// blocks of %lu bytes!", "xmalloc: Unable to allocate %lu bytes!" (xrealloc likewise),
	// through fatal() ("FATAL: ..."); Squid exits. A count like 1073741816 blocks is its
	// descriptor table sized by max_filedescriptors or RLIMIT_NOFILE (a container's ulimit).
	{"calloc: Unable to allocate ", " blocks of ", true, "Squid's own allocation failed (compat/xalloc.cc xcalloc: \"Unable to allocate N blocks of M bytes!\") and Squid exited: calloc returned NULL for its own request (a huge count is its descriptor table sized by max_filedescriptors or RLIMIT_NOFILE, as a container's ulimit -n of 1073741816 gives); no kill by the kernel's OOM killer and no statement about the host's free memory"},
	{"malloc: Unable to allocate ", " bytes!", true, "Squid's own allocation failed (compat/xalloc.cc xmalloc: \"Unable to allocate N bytes!\") and Squid exited: malloc returned NULL for its own request (address space, RLIMIT_AS or overcommit); no kill by the kernel's OOM killer"},
	// Squid src/comm/TcpAcceptor.cc okToAccept (client_side.cc httpAcceptDefer before 3.2):
	// fewer than RESERVED_FD descriptors free of its max_filedescriptors: "WARNING! Your cache
	// is running out of filedescriptors"; Squid stops accepting for the moment.
	{"Your cache is running out of filedescriptors", "", false, "Squid's own descriptor reserve (src/comm/TcpAcceptor.cc okToAccept: fewer than RESERVED_FD of max_filedescriptors free, so it defers accepting): the process's RLIMIT_NOFILE or max_filedescriptors, not memory; headroom has no rule for a program's descriptor limit"},
	// Varnish cache_fetch.c vbf_beresp2obj / cache_req_fsm.c: the storage backend (-s
	// malloc,SIZE or file) had no room for the object and nuking LRU objects did not make
	// it: VFP_Error "Could not get storage" (FetchError in varnishlog; Error on a synth).
	{"Could not get storage", "", false, "Varnish's own storage is full (cache_fetch.c: \"Could not get storage\", FetchError): the -s malloc/file backend's configured size could not hold the object and LRU nuking freed too little: the cache's own size limit, not the kernel's memory; headroom has no reader for varnishlog"},
	// Apache httpd server/mpm/{prefork,worker,event}: every worker busy: "AH00161 (prefork) /
	// AH00286 (worker) / AH00484 (event): server reached MaxRequestWorkers setting, consider
	// raising the MaxRequestWorkers setting" ("MaxClients" before 2.4).
	{"server reached MaxRequestWorkers setting", "", false, "Apache httpd's own worker limit (the MPM's \"server reached MaxRequestWorkers setting\", AH00161/AH00286/AH00484): every worker or thread was busy (load, or slow backends holding them); new connections wait in the listen backlog: httpd's limit, not memory or the kernel's network; headroom has no reader for httpd's error log"},
	{"server reached MaxClients setting", "", false, "Apache httpd's own worker limit (MaxClients, \"server reached MaxClients setting\" before 2.4): every worker was busy; new connections wait in the listen backlog: httpd's limit, not memory; headroom has no reader for httpd's error log"},
	// lighttpd src/server.c server_sockets_disable: it stops accepting when its connections
	// reach server.max-connections, or its descriptors near server.max-fds: "[note] sockets
	// disabled, connection limit reached" / "... out-of-fds" ("sockets enabled again" after).
	{"sockets disabled, connection limit reached", "", false, "lighttpd's own connection limit (src/server.c server_sockets_disable: \"sockets disabled, connection limit reached\", server.max-connections): it stopped accepting until connections close; the server's limit, not memory; headroom has no reader for lighttpd's error log"},
	{"sockets disabled, out-of-fds", "", false, "lighttpd's own descriptor limit (src/server.c server_sockets_disable: \"sockets disabled, out-of-fds\", near server.max-fds): it stopped accepting until descriptors free; RLIMIT_NOFILE or server.max-fds, not memory; headroom has no reader for lighttpd's error log"},
	// nginx src/core/ngx_connection.c ngx_get_connection: the worker's connection table is
	// empty after draining keepalive ones: "%ui worker_connections are not enough" (alert).
	{" worker_connections are not enough", "", false, "nginx's own per-worker connection table (worker_connections, src/core/ngx_connection.c ngx_get_connection: \"N worker_connections are not enough\"): every slot held a client or upstream connection; nginx's limit, not memory or a kernel socket buffer; headroom has no reader for nginx's error log"},
	// Bacula's and Bareos's socket layer (src/lib/bsock.c, bsock_tcp.cc BSOCK_TCP::send):
	// write() to the peer daemon returned fewer bytes than the message: "Wrote %d bytes to
	// %s:%s:%d, but only %d accepted.", or failed: "Write error sending %d bytes to %s:%s:%d:
	// ERR=%s"; the job then ends with the daemon's "Network send error to SD. ERR=%s"
	// (filed/backup.cc). The figures are the size of one write and what it wrote before the
	// peer closed the connection (EPIPE, ECONNRESET), not a buffer's or a sysctl's size.
	{"Wrote ", ", but only ", false, "Bacula's or Bareos's own socket write (src/lib/bsock.c / bsock_tcp.cc: \"Wrote N bytes to DAEMON:HOST:PORT, but only M accepted.\"): one write() to the peer daemon ended short, as when the peer, or a firewall or idle timeout between them, closed the connection mid-job; N and M are the sizes of that write, not a socket buffer or a sysctl; headroom has no rule for a program's broken connection"},
	{"Write error sending ", " bytes to ", false, "Bacula's or Bareos's own socket write failed (src/lib/bsock.c / bsock_tcp.cc: \"Write error sending N bytes to DAEMON:HOST:PORT: ERR=...\"): the errno says how (Broken pipe, Connection reset: the peer closed it); N is the size of the write, not a socket buffer; headroom has no rule for a program's broken connection"},
	// Bacula's and Bareos's director (dird/backup.cc): the connection to the client's file
	// daemon failed mid-job: "Network error with FD during %s: ERR=%s" (fix36d).
	{"Network error with FD during ", ": ERR=", false, "Bacula's or Bareos's director lost its connection to the client's file daemon mid-job (dird/backup.cc: \"Network error with FD during Backup: ERR=...\"): the errno says how (Connection reset by peer: the FD, or a firewall idle timeout between them, closed it); no statement about the host's memory or socket buffers; headroom has no rule for a program's broken connection"},
	{"Network send error to ", ". ERR=", false, "Bacula's or Bareos's job ended on a failed send to its peer daemon (filed/backup.cc: \"Network send error to SD. ERR=...\"): the connection to the storage daemon broke (the errno says how); no statement about the host's memory or socket buffers"},
}

// serverOwnGate: bytes one of which every form holds ('A' "Allowed", 'O' "Out of" and
// "ERROR", 'x' "exceeded"/"xcalloc"/"xmalloc", '2' "(code 22)", 'Y' "Your", 'C' "Could" and
// "Child", 'M' "MaxRequestWorkers"/"MaxClients"/"MemoryError", 'w' "worker_connections",
// 'k' lighttpd's "sockets disabled", 'W' Bacula's "Wrote"/"Write error", 'N' its "Network
// send error").
const serverOwnGate = "AOx2YCMwkWN"

// serverOwnLine says why t is one of serverOwnForms' messages, and whether it is the
// program's own out-of-memory. A long line is a paragraph that quotes one.
func serverOwnLine(t string) (why string, oom, ok bool) {
	if len(t) > maxErrnoLineBytes && !jsonLogRecord(t) {
		return "", false, false
	}
	if why, oom, ok := webAppOwnLine(t); ok {
		return why, oom, true // a web application server's or routing daemon's own line (unreadwebapp.go)
	}
	if why, ok := corosyncOwnLine(t); ok {
		return why, false, true // corosync's, kronosnet's or ZoneMinder zma's own line (corosyncown.go)
	}
	if why, oom, ok := mailOwnLine(t); ok {
		return why, oom, true // a mail or chat server's own line (unreadmail.go)
	}
	if why, ok := envoyOverloaded(t); ok {
		return why, false, true
	}
	if why, ok := wifiDaemonOwnLine(t); ok {
		return why, true, true // hostapd's, wpa_supplicant's libnl NLE_NOMEM (unreadwifi.go)
	}
	if why, ok := nginxChildKilled(t); ok {
		return why, false, true
	}
	if why, ok := icecastOwnLine(t); ok {
		return why, false, true // Icecast's own log lines (icecastown.go)
	}
	if why, oom, ok := proxyOwnLine(t); ok {
		return why, oom, true // a web server's or L7 proxy's own limit or status line (unreadproxy.go)
	}
	if why, ok := connResetLine(t); ok {
		return why, false, true // ssh's, borg's or a Go program's broken connection (unreadconnreset.go)
	}
	if why, oom, ok := relayOwnLine(t); ok {
		return why, oom, true // Tor's queue limit and OOM handler, cjdns's allocator limit (unreadrelay.go)
	}
	if strings.IndexAny(t, serverOwnGate) < 0 {
		return "", false, false
	}
	for _, f := range serverOwnForms {
		k, rest, ok := f.find(t)
		if !ok {
			continue
		}
		if (f.needle[0] == 'A' || f.needle[0] == 'W') && !startsWithDigit(rest) {
			continue // "Allowed memory size of N bytes", "Wrote N bytes": the figure is the program's
		}
		if f.needle[0] == ' ' && !endsWithDigit(t[:k]) {
			continue // "N worker_connections are not enough"
		}
		return f.why, f.oom, true
	}
	if why, ok := varnishChildKilled(t); ok {
		return why, false, true
	}
	if why, ok := pythonMemoryError(t); ok {
		return why, true, true
	}
	return "", false, false
}

// maxJSONLogLineBytes: a program's JSON log record is one line however long its fields
// (Nextcloud's nextcloud.log holds the user agent and the exception beside the message).
const maxJSONLogLineBytes = 16 << 10

// jsonLogRecord: t is one JSON object on a line, a log record, not a paragraph that quotes
// a message.
func jsonLogRecord(t string) bool {
	s := strings.TrimSpace(t)
	return len(s) <= maxJSONLogLineBytes && strings.HasPrefix(s, "{\"") && strings.HasSuffix(s, "}")
}

func startsWithDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }
func endsWithDigit(s string) bool   { return s != "" && s[len(s)-1] >= '0' && s[len(s)-1] <= '9' }

// varnishChildKilled: Varnish's manager reaping its cache child killed by SIGKILL
// (bin/varnishd/mgt/mgt_child.c mgt_reap_child: "Child (%jd) died" then " signal=%d"): the
// kernel's OOM killer or a cgroup's sends it, so does any kill -9, and so does the manager
// itself (kill_child) after the child stopped answering the CLI with no_coredump set. The
// kernel's own kill line would say which and is not this line. Another signal (6, a panic's
// abort; 11) is no kill.
func varnishChildKilled(t string) (string, bool) {
	k := strings.Index(t, ") died signal=9")
	if k < 0 {
		return "", false
	}
	rest := t[k+len(") died signal=9"):]
	if startsWithDigit(rest) || !strings.Contains(t[:k], "Child (") {
		return "", false
	}
	return "Varnish's manager reaped its cache child killed by SIGKILL (mgt/mgt_child.c: \"Child (N) died signal=9\"): the kernel's OOM killer or a cgroup's sends it, and so does any kill -9 or the manager itself after a CLI timeout; the kernel's own kill line (\"Out of memory: Killed process\") would say which and is not in the text; headroom has no reader for this log", true
}

// envoyOverloaded: Envoy's local reply while its overload manager's stop_accepting_requests
// action is active (source/common/http/conn_manager_impl.cc: sendLocalReply(503, "envoy
// overloaded"), response flag OM): its resource monitors (fixed_heap's max_heap_size_bytes,
// the downstream connections) crossed their thresholds. The body alone on its line (curl's
// output), or beside the 503 of the same reply; a sentence naming it is prose.
func envoyOverloaded(t string) (string, bool) {
	k := strings.Index(t, "envoy overloaded")
	if k < 0 {
		return "", false
	}
	if s := strings.Trim(strings.TrimSpace(t), `"'`+"`"); s != "envoy overloaded" && !strings.Contains(t, "503") {
		return "", false
	}
	return "Envoy's overload manager refused the request (conn_manager_impl.cc: 503 \"envoy overloaded\" while the stop_accepting_requests action is active): Envoy's own resource monitors (the fixed_heap monitor's max_heap_size_bytes, or its connection limits) crossed their thresholds: the proxy's own limit, not the kernel's memory; headroom has no reader for it", true
}

// pythonMemoryError: a Python traceback's last line "MemoryError" or "MemoryError: msg"
// (Objects/exceptions.c; PyErr_NoMemory when the interpreter's malloc returned NULL): Borg's
// and other Python programs' own allocation failed and the program exited by itself. Only the
// exception's own line: a sentence naming MemoryError is prose.
func pythonMemoryError(t string) (string, bool) {
	s := strings.TrimSpace(t)
	if why, ok := numpyArrayMemoryError(s); ok {
		return why, true
	}
	if !strings.HasPrefix(s, "MemoryError") {
		return "", false
	}
	if rest := s[len("MemoryError"):]; rest != "" && rest[0] != ':' {
		return "", false
	}
	return "a Python program's own allocation failed (the traceback's MemoryError: the interpreter's malloc returned NULL, PyErr_NoMemory): the process's address space, RLIMIT_AS or overcommit refused it and the program exited by itself: no kill by the kernel's OOM killer and no statement about the host's free memory; headroom has no reader for this log", true
}

// isServerTag: the syslog tags of the programs whose messages serverOwnForms names (their
// daemons' names as their units start them). A switch, then one prefix test for php-fpm's
// versioned names ("php-fpm8.2", "php8.1-fpm").
func isServerTag(tag string) bool {
	switch tag {
	case "smbd", "nmbd", "winbindd", "samba", "rsync", "rsyncd", "restic", "borg", "rclone",
		"nextcloud", "squid", "varnishd", "varnish", "nginx", "openresty", "httpd", "apache2",
		"apache", "lighttpd", "haproxy", "angie", "tengine", "caddy", "traefik", "envoy", "traffic_server", "traffic_manager",
		"corosync", "corosync-qdevice", "corosync-qnetd", "zma", "zmc", "zmdc.pl":
		return true
	}
	return len(tag) > 3 && tag[0] == 'p' && strings.HasPrefix(tag, "php") || isWebAppTag(tag) || isWiFiDaemonTag(tag) || isMailTag(tag)
}

// serverLogWhy: a line of one of these programs under its own syslog tag: an errno of this
// domain, or one of the forms above.
func serverLogWhy(t string) (why string, oom, ok bool) {
	if why, ok := wifiDaemonOwnLine(t); ok {
		return why, true, true // before the errno: libnl's -5 is no EIO (unreadwifi.go)
	}
	if why, ok := wifiLinkEventLine(t); ok {
		return why, false, true // a Wi-Fi daemon's or dhcpcd's link event (unreadwifi.go, fix29c)
	}
	if why, oom, ok := webAppOwnLine(t); ok {
		return why, oom, true // before the errno: zebra's ENOBUFS is a netlink overrun (unreadwebapp.go)
	}
	if why, oom, ok := mailOwnLine(t); ok {
		return why, oom, true // before the errno: Postfix's mymalloc names its own ENOMEM (unreadmail.go)
	}
	if why, ok := errnoLogLine(t); ok {
		return why, false, true
	}
	if why, oom, ok := serverOwnLine(t); ok {
		return why, oom, true
	}
	if why, ok := socketErrnoLine(t); ok {
		return why, false, true // a connection's errno, a client's wrapping (unreadsockerr.go)
	}
	return "", false, false
}

// The kernel's network file systems' own messages quoted without their log prefix (a
// ticket's "nfs: server nas01 not responding, still trying", "CIFS: VFS: \\nas01 Error -105
// sending data on socket to server"): with a dmesg stamp or a syslog prefix they are kernel
// log records; bare, in prose, they held nothing headroom read. Each is named with what it
// proves: a stall of the path to the file server, the client's send failing with an errno,
// the NFS server's own connection limit. Sources: net/sunrpc/clnt.c rpc_check_timeout ("%s:
// server %s not responding, still trying" / ", timed out"; cl_program->name is nfs, lockd,
// mount, rpcbind), net/sunrpc/svc_xprt.c svc_check_conn_limits ("%s: too many open
// connections, consider increasing the %s"), fs/smb/client (pr_fmt "CIFS: ", cifs_dbg(VFS)
// "VFS: ", before 3.x "CIFS VFS: "): connect.c server_unresponsive ("has not responded in
// %lu seconds. Reconnecting..."), transport.c __smb_send_rqst ("Error %d sending data on
// socket to server"), connect.c allocate_buffers ("No memory for large SMB response"),
// cifssmb.c/smb2pdu.c ("Send error in %s = %d"); net/sunrpc/svcsock.c svc_tcp_sendto
// ("rpc-srv/tcp: %s: %s %d when sending %d bytes - shutting down socket", h19b).

// netFSLine says why t is one of these messages. Gate: "not responding", "CIFS", "too many
// open connections" or "rpc-srv/" (svc_tcp_sendto's short send, h19b), each one strings.Index.
func netFSLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false
	}
	if k := strings.Index(t, " not responding, "); k >= 0 && rpcServerBefore(t[:k]) {
		rest := t[k+len(" not responding, "):]
		if strings.HasPrefix(rest, "still trying") || strings.HasPrefix(rest, "timed out") {
			return "an RPC client of the kernel (NFS, lockd, mountd) got no reply from its server within its major timeout (net/sunrpc/clnt.c rpc_check_timeout: \"server X not responding, still trying\", \"... OK\" when it answers again): a stall of the network path or of the server; no memory figure and no counter; headroom has no rule for it (the kernel log with its stamps, and the client's and server's counters, nfsstat -rc retrans, would date and size it)", true
		}
	}
	if k := strings.Index(t, ": too many open connections, consider increasing the "); k >= 0 {
		return "the kernel's NFS server (sunrpc svc_check_conn_limits) holds more connections than its limit ((threads+3)*20, or max_connections) and closes the oldest: the server's own connection limit, raised with more nfsd threads; not memory", true
	}
	if k := strings.Index(t, "rpc-srv/"); k >= 0 && strings.Contains(t[k:], " when sending ") && strings.Contains(t[k:], " bytes - shutting down socket") {
		return "the kernel's RPC server (NFS's nfsd, lockd) could not send a whole reply on a TCP connection and closes it (net/sunrpc/svcsock.c svc_tcp_sendto: \"rpc-srv/tcp: nfsd: sent only N when sending M bytes\", since 5.x \"sent N\", or \"got error -E\" with the send's errno: -32 EPIPE and -104 ECONNRESET a client gone, -11 EAGAIN a send buffer full, -12 ENOMEM an skb the send could not allocate); the client reconnects and retransmits; headroom has no rule for a short send (tcp-memory-pressure would need /proc/net/sockstat with net.ipv4.tcp_mem; as a stamped kernel log line \"got error -12\" is read as a failed allocation)", true
	}
	c := strings.Index(t, "CIFS")
	if c < 0 {
		return "", false
	}
	msg := t[c:]
	switch {
	case strings.HasPrefix(msg, "CIFS: VFS: "), strings.HasPrefix(msg, "CIFS VFS: "):
	default:
		return "", false
	}
	switch {
	case strings.Contains(msg, " has not responded in "):
		return "the kernel's SMB client got no answer to its echoes for three echo intervals and reconnects (fs/smb/client/connect.c server_unresponsive: \"has not responded in N seconds. Reconnecting...\"): a stall of the network path or of the server; no memory figure; headroom has no rule for it", true
	case strings.Contains(msg, " sending data on socket to server"):
		return "the kernel's SMB client's send on its TCP socket failed (fs/smb/client/transport.c __smb_send_rqst: \"Error N sending data on socket to server\", N the negative errno): -105 ENOBUFS and -12 ENOMEM are a send refused for buffer space or memory (the socket's or an skb's), -11 EAGAIN a send buffer full past the client's wait, -32 EPIPE and -104 ECONNRESET a connection closed; the client reconnects; headroom has no rule for it (as a stamped kernel log line, -12 is read as a failed allocation)", true
	case strings.Contains(msg, "Send error in ") && strings.Contains(msg, " = -"):
		return "the kernel's SMB client's request failed (fs/smb/client cifssmb.c/smb2pdu.c: \"Send error in OPERATION = N\", N the negative errno: -11 EAGAIN while the session reconnects, -12 ENOMEM, -105 ENOBUFS, -104 ECONNRESET, -112 EHOSTDOWN, -113 EHOSTUNREACH): the path to the server or the client's buffers, the errno says which; headroom has no rule for it (as a stamped kernel log line, -12 is read as a failed allocation)", true
	case strings.Contains(msg, "No memory for") && strings.Contains(msg, "SMB response"):
		return "the kernel's SMB client could not get a receive buffer (fs/smb/client/connect.c allocate_buffers: \"No memory for large SMB response\"), retried after a pause: an allocation failure of the client's in the kernel's words, order and zones not said (as a stamped kernel log line it is read as a failed allocation); headroom has no reader for the bare line", true
	}
	return "", false
}

// rpcServerBefore: head ends in rpc_check_timeout's "PROGRAM: server NAME" (one token).
func rpcServerBefore(head string) bool {
	j := strings.LastIndexByte(head, ' ')
	return j > 0 && j+1 < len(head) && strings.HasSuffix(head[:j], ": server")
}

// KindProgramLimit: the figures a program's own out-of-memory or limit message states (its
// limit, the request it refused, what it had in use), each named: the program's numbers,
// never the host's memory or a kernel counter, and no rule reads them (issue 29 "whose
// numbers"). The line itself stays listed as unread with what it proves.
const KindProgramLimit = "program_limit"

// programFigureForms: a message's fixed words and the names of the integers that follow
// them in its format string, in order; before: the one integer right before the words.
var programFigureForms = []struct {
	program, needle string
	names           []string
	before          bool
}{
	{"php", "Allowed memory size of ", []string{"memory_limit_bytes", "request_bytes"}, false},
	{"php", "Out of memory (allocated ", []string{"allocated_bytes", "request_bytes"}, false},
	{"squid", "calloc: Unable to allocate ", []string{"blocks", "block_bytes"}, false},
	{"squid", "malloc: Unable to allocate ", []string{"request_bytes"}, false},
	{"rsync", "error allocating core memory buffers (code ", []string{"exit_code"}, false},
	{"nginx", " worker_connections are not enough", []string{"worker_connections"}, true},
	{"nginx", " exited on signal 9", []string{"child_pid"}, true},
	{"nginx", " exited on signal 11", []string{"child_pid"}, true},
	{"nginx", " exited on signal 6", []string{"child_pid"}, true},
	{"nginx", " exited on signal 7", []string{"child_pid"}, true},
	{"icecast", " max file descriptor limit", []string{"fd_limit"}, true},
	{"icecast", " has been stuck for ", []string{"stuck_ms"}, false},
	{"varnishd", "Child (", []string{"child_pid"}, false},
	{"go runtime", "runtime: out of memory: cannot allocate ", []string{"request_bytes", "in_use_bytes"}, false},
	{"rust std", "memory allocation of ", []string{"request_bytes"}, false}, // h34a: std's alloc error hook
	{"unreal engine", "Ran out of memory allocating ", []string{"request_bytes", "alignment"}, false},
	{"dovecot", "block_alloc(", []string{"request_bytes"}, false},
	{"dovecot", "pool_system_malloc(", []string{"request_bytes"}, false},
	{"litespeed lsapi", "Reached max children process limit: ", []string{"max_children", "extra", "current", "busy"}, false},
	{"lfd", "Exceeded:", []string{"used", "threshold"}, false},
	{"moosefs", "open files limit has been set to: ", []string{"open_files_limit"}, false},
	{"postfix", "alloc: insufficient memory for ", []string{"request_bytes"}, false},
	{"exim", "failed to malloc ", []string{"request_bytes"}, false},
	{"exim", "failed to alloc (using posix_memalign) ", []string{"request_bytes"}, false},
	{"libclamav", "(): Can't allocate memory (", []string{"request_bytes"}, false},
	{"dovecot", "data stack: Out of memory when allocating ", []string{"request_bytes"}, false},
	{"erlang vm", " bytes of memory (of type ", []string{"request_bytes"}, true},
	{"srsran", "Late: ", []string{"late", "underflow", "overflow"}, false},
	{"srsran", "RF status: O=", []string{"overflow", "underflow", "late"}, false},
	{"openairinterface", "[recv] received ", []string{"samples_received", "samples_requested"}, false},
	{"openairinterface", "rx_rf: Asked for ", []string{"samples_requested", "samples_received"}, false},
	{"open5gs", "ogs_pkbuf_alloc() failed [size=", []string{"request_bytes"}, false},
	{"asterisk", "queue reached ", []string{"queued_tasks", "high_water_mark"}, false},
	{"nginx", " worker_connections exceed open file resource limit: ", []string{"worker_connections"}, true},
	{"nginx", "setrlimit(RLIMIT_NOFILE, ", []string{"worker_rlimit_nofile"}, false},
	{"nginx", "Active connections: ", []string{"active_connections"}, false},
	{"haproxy", "reached process FD limit (maxsock=", []string{"maxsock"}, false},
	{"haproxy", "Cannot raise FD limit to ", []string{"wanted_fds", "fd_limit"}, false},
	{"haproxy", "FD limit (", []string{"fd_limit", "maxconn", "maxsock"}, false},
	{"haproxy", "CurrConns: ", []string{"curr_conns"}, false},
	{"haproxy", "Maxconn: ", []string{"maxconn"}, false},
	{"haproxy", "PoolFailed: ", []string{"pool_failed"}, false},
	{"httpd", "BusyWorkers: ", []string{"busy_workers"}, false},
	{"httpd", "IdleWorkers: ", []string{"idle_workers"}, false},
	// h38b (unreadjobworker.go): Odoo's worker limits, RQ's dead horse, Overpass's query
	// limit, GDAL's/MapServer's and InnoDB's failed allocations.
	{"odoo", ") virtual real memory limit (", []string{"worker_memory_bytes"}, false},
	{"odoo", ") virtual memory limit (", []string{"worker_vms_bytes"}, false},
	{"odoo", "Server memory limit (", []string{"server_memory_bytes"}, false},
	{"odoo", ") CPU time limit (", []string{"limit_time_cpu_s"}, false},
	{"odoo", "WorkerHTTP (", []string{"worker_pid", "limit_time_real_s"}, false},
	{"odoo", "WorkerCron (", []string{"worker_pid", "limit_time_real_s"}, false},
	{"rq", rqHorseNeedle, []string{"wait_status", "signal"}, false},
	{"overpass", "Query run out of memory using about ", []string{"rlimit_as_mb"}, false},
	{"overpass", "Query ran out of memory in ", []string{"at_line", "need_mb"}, false},
	{"innodb", "InnoDB: Cannot allocate ", []string{"request_bytes", "retries", "seconds"}, false},
	{"cpl (gdal, mapserver)", "Out of memory allocating ", []string{"request_bytes"}, false},
	{"osm2pgsql", "Node-cache: cache=", []string{"cache_mb"}, false},
	{"odoo", "ConnectionPool(used=", []string{"pool_used", "pool_count", "pool_max"}, false}, // fix43b
	{"mysql", "Out of memory (Needed ", []string{"request_bytes"}, false},
	{"postgresql", "Failed on request of size ", []string{"request_bytes"}, false},
	{"postgresql", "could not resize shared memory segment ", []string{"segment_handle", "size_bytes"}, false},
	{"postgresql", "Grand total: ", []string{"total_bytes", "blocks", "free_bytes", "free_chunks", "used_bytes"}, false},
	// quic-go's buffer warnings (h29a; unreadappbuf.go): "was" is the socket's size before,
	// "got" what getsockopt read back (about twice net.core.rmem_max/wmem_max when the
	// request was larger), "wanted" quic-go's own request; kiB as printed.
	{"quic-go", "increase receive buffer size (was: ", []string{"was_kib", "wanted_kib", "got_kib"}, false},
	{"quic-go", "increase send buffer size (was: ", []string{"was_kib", "wanted_kib", "got_kib"}, false},
	{"quic-go", "increase receive buffer size (wanted: ", []string{"wanted_kib", "got_kib"}, false},
	{"quic-go", "increase send buffer size (wanted: ", []string{"wanted_kib", "got_kib"}, false},
	// h42b (unreadjobworker.go): GDAL's port/cpl_vsisimple.cpp VSI*Verbose, "FILE, LINE:
	// cannot allocate N bytes" (VSICallocVerbose's "NxM bytes": requestProduct).
	{"gdal", gdalVerboseNeedle, []string{"request_bytes"}, false},
}

// maxProgramFigureArtifacts bounds the artifacts: a flood repeats one message.
const maxProgramFigureArtifacts = 32

// programFigures adds the figures line i states when it is one of programFigureForms'
// messages (called only for a line a program's reader named).
func (d *doc) programFigures(i int) {
	d.programFiguresOf(i, d.ls[i].Text)
}

// programFiguresOf is programFigures with the figures read from msg, the message of line i
// without a stamp or level its program put before it (unreadownend.go); the line's records
// (a server's SIGKILL notice, a full accept queue) are kept as for the whole line.
func (d *doc) programFiguresOf(i int, msg string) {
	d.sigkillNotice(i)     // a mail server's notice of a child killed by SIGKILL (unreadmail.go)
	d.programListenFull(i) // a program's own full accept queue (programlisten.go)
	if d.pumaKillerFigures(i) {
		return // puma_worker_killer's fractional MB (unreadcollab.go)
	}
	d.programFigureText(i, msg)
	d.quicBufferMax(i, msg) // quic-go's "got" as this host's rmem_max/wmem_max (unreadwebrtc.go)
}

// programFigureText adds the figures of programFigureForms' message t, line i's message
// (its text, or the message a program's own stamp split, unreadownend.go).
func (d *doc) programFigureText(i int, t string) {
	if d.programFigureCount >= maxProgramFigureArtifacts {
		return
	}
	for _, f := range programFigureForms {
		k := strings.Index(t, f.needle)
		if k < 0 {
			continue
		}
		data := map[string]any{"program": f.program}
		if f.before {
			if v, ok := intBefore(t[:k]); ok {
				data[f.names[0]] = v
			}
		} else {
			rest := t[k+len(f.needle):]
			if len(f.names) == 1 && f.names[0] == "request_bytes" {
				if v, ok := requestProduct(rest); ok {
					data[f.names[0]] = v // "N * M * K bytes", "NxM bytes" (h42b)
					rest = ""
				}
			}
			for _, name := range f.names {
				if rest == "" {
					break
				}
				v, r, ok := nextInt(rest)
				if !ok {
					break
				}
				data[name], rest = v, r
			}
		}
		if len(data) == 1 {
			return
		}
		data["message"] = clip(strings.TrimSpace(t[k:]), 120)
		d.programFigureCount++
		d.addArtifact(KindProgramLimit, d.ls[i].No, d.ls[i].No, data)
		return
	}
}

// requestProduct: a request written as a product of its factors right after the words,
// "40000 * 40000 * 4 bytes" or GDAL's VSICallocVerbose "1000x8 bytes" (h42b): the bytes
// asked for are the product, not the first factor; false for a lone figure or an overflow.
func requestProduct(rest string) (int64, bool) {
	if !startsWithDigit(rest) {
		return 0, false
	}
	prod, n := int64(1), 0
	for {
		v, r, ok := nextInt(rest)
		if !ok || n > 0 && !isFactorGap(rest[:len(rest)-len(r)]) {
			break
		}
		if v != 0 && prod > math.MaxInt64/v {
			return 0, false
		}
		prod, rest, n = prod*v, r, n+1
		if !strings.HasPrefix(rest, " * ") && !strings.HasPrefix(rest, "*") && !strings.HasPrefix(rest, "x") {
			break
		}
	}
	if n < 2 || !strings.HasPrefix(strings.TrimLeft(rest, " "), "bytes") {
		return 0, false
	}
	return prod, true
}

// isFactorGap: what lies between two factors and the second factor's digits: " * ", "*"
// or "x", then the digits.
func isFactorGap(s string) bool {
	s = strings.TrimLeft(s, " *x")
	return s != "" && isDigits(s)
}

// nextInt: the first run of digits in s (at most 19), and the rest after it.
func nextInt(s string) (int64, string, bool) {
	j := strings.IndexAny(s, "0123456789")
	if j < 0 || j > 40 {
		return 0, s, false // the next figure of the format is near; a far digit is another's
	}
	n := j
	for n < len(s) && n-j < 19 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	v, err := strconv.ParseInt(s[j:n], 10, 64)
	return v, s[n:], err == nil
}

// intBefore: the integer that ends s (after trailing spaces).
func intBefore(s string) (int64, bool) {
	s = strings.TrimRight(s, " ")
	n := len(s)
	for n > 0 && len(s)-n < 19 && s[n-1] >= '0' && s[n-1] <= '9' {
		n--
	}
	v, err := strconv.ParseInt(s[n:], 10, 64)
	return v, n < len(s) && err == nil
}
