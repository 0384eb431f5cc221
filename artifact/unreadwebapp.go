package artifact

import "strings"

// Web application servers' and routing daemons' own messages (pre-round 14, h14a; each
// format string checked in the program's source). Each names a limit of the program's
// (PHP-FPM's pm.max_children, V8's heap limit, PM2's max_memory_restart), a kill the program
// reports without knowing who sent it (gunicorn's "Perhaps out of memory?" is a guess: its
// own arbiter sends SIGKILL after a timeout too), a listen queue the program saw full
// (uWSGI reads the accept queue's length and backlog with TCP_INFO), or a netlink socket's
// receive buffer overrun (zebra's and BIRD's route sockets). None is the kernel's OOM
// killer; a paste of only such lines held nothing headroom read (exit 3) or was read as a
// sentence's figures, and FRR's ENOBUFS was named as a send refused for buffer space.
//
// Gated: webAppOwnLine runs where serverOwnLine runs (prose lines, and the syslog lines of
// isServerTag, which asks isWebAppTag), before the errno reading; one IndexAny for the
// forms' rare bytes, then strings.Index per form. No regexp.

// ownLineForm: a fixed part of the program's format string, a second fixed part that must
// follow it ("" for none), whether it is the program's own out-of-memory, and what it proves.
type ownLineForm struct {
	needle, needle2 string
	oom             bool
	why             string
}

// webAppForms: the web application servers' and routing daemons' forms.
var webAppForms = []ownLineForm{
	// uWSGI core/master_checks.c (uwsgi_master_check_listen_queue; core/utils.c before 2.0):
	// "*** uWSGI listen queue of socket \"%s\" (fd: %d) full !!! (%llu/%llu) ***" (older:
	// "... of socket %d full !!! (%d/%d) ***"), the queue and max_queue read from the
	// listening socket's TCP_INFO (tcpi_unacked, tcpi_sacked: sk_ack_backlog and
	// sk_max_ack_backlog for a listener, net/ipv4/tcp.c tcp_get_info).
	{"uWSGI listen queue of socket ", " full !!! (", false, "uWSGI's listening socket's accept queue was full (core/master_checks.c: \"uWSGI listen queue of socket ... full !!! (Q/M)\", Q and M the queue and backlog the kernel reports in TCP_INFO, as ss's Recv-Q and Send-Q): the kernel drops further completed handshakes (TcpExt ListenOverflows); M is min(uWSGI's --listen, net.core.somaxconn) (net/socket.c __sys_listen): the workers accept too slowly or the backlog is small; listen-queue evidence, not memory; `nstat -az TcpExtListenOverflows` and `ss -lnt` would measure it"},
	// uWSGI core/uwsgi.c uwsgi_start: uwsgi_log("your server socket listen backlog is
	// limited to %d connections\n", uwsgi.listen_queue): the --listen value (default 100).
	{"your server socket listen backlog is limited to ", " connections", false, "uWSGI's start banner: the backlog it passes to listen() (core/uwsgi.c: \"your server socket listen backlog is limited to N connections\", --listen, default 100); the kernel caps it at net.core.somaxconn; a setting, no overflow and no failure"},
	// uWSGI core/uwsgi.c: uwsgi_log("your memory page size is %d bytes\n", uwsgi.page_size).
	{"your memory page size is ", " bytes", false, "uWSGI's start banner: the page size it read (core/uwsgi.c: \"your memory page size is N bytes\"); no limit, no failure and no memory figure of the host's"},
	// gunicorn arbiter.py reap_workers: "Worker (pid:%s) was sent %s!" and, for SIGKILL,
	// " Perhaps out of memory?": gunicorn does not know who sent it; its own murder_workers
	// sends SIGABRT after --timeout ("WORKER TIMEOUT (pid:%s)") and SIGKILL on the next pass.
	{"was sent SIGKILL! Perhaps out of memory?", "", false, "gunicorn's arbiter reaped a worker killed by SIGKILL (arbiter.py reap_workers: \"Worker (pid:N) was sent SIGKILL! Perhaps out of memory?\"): the question is gunicorn's guess; the kernel's OOM killer or a memory cgroup's sends SIGKILL, and so does gunicorn's own arbiter after a WORKER TIMEOUT (murder_workers: SIGABRT, then SIGKILL) and any kill -9; the kernel's own kill line (\"Out of memory: Killed process\" or \"Memory cgroup out of memory\") would say which and is not in the text"},
	// gunicorn arbiter.py spawn_worker: self.log.info("Booting worker with pid: %s",
	// worker.pid) (fix38a): a worker forked; a run of them with no exit line is workers
	// dying silently (before 20.0 gunicorn logs no signal for a killed worker).
	{"Booting worker with pid: ", "", false, "gunicorn's arbiter forked a worker (arbiter.py spawn_worker: \"Booting worker with pid: N\"): at start, or to replace one that exited; a run of them with no exit line is workers dying without a word (gunicorn before 20.0 logs no signal: a SIGKILL from the kernel's OOM killer, a memory cgroup's at a container's limit, or any kill -9 looks like this); no kernel line and no memory figure in it"},
	{"WORKER TIMEOUT (pid:", "", false, "gunicorn's arbiter found a worker silent for longer than --timeout (arbiter.py murder_workers: \"WORKER TIMEOUT (pid:N)\") and kills it itself (SIGABRT, then SIGKILL): a request held the worker (a slow backend, a blocked call, swapping); gunicorn's own limit, no kill by the kernel's OOM killer"},
	// PHP-FPM sapi/fpm/fpm/fpm_process_ctl.c: "[pool %s] server reached pm.max_children
	// setting (%d), consider raising it"; "[pool %s] seems busy (you may need to increase
	// pm.start_servers, or pm.min/max_spare_servers), ...".
	{"server reached pm.max_children setting", "", false, "PHP-FPM's own process limit (fpm_process_ctl.c: \"[pool P] server reached pm.max_children setting (N), consider raising it\"): every child was busy; requests wait in the pool's listen backlog (listen.backlog); the pool's limit, not memory or the kernel's network"},
	// The same limit from an ondemand pool (fpm_process_ctl.c fpm_pctl_on_socket_accept, and
	// the dynamic pool's before PHP 5.3.x renamed it): "[pool %s] server reached
	// max_children setting (%d), consider raising it", without "pm.".
	{"server reached max_children setting (", "", false, "PHP-FPM's own process limit (fpm_process_ctl.c fpm_pctl_on_socket_accept: \"[pool P] server reached max_children setting (N), consider raising it\"): every child of the pool was busy when a connection arrived; requests wait in the pool's listen backlog (listen.backlog); the pool's limit, not memory or the kernel's network"},
	{"seems busy (you may need to increase pm.start_servers", "", false, "PHP-FPM's dynamic pool spawns children faster (fpm_process_ctl.c: \"[pool P] seems busy (you may need to increase pm.start_servers, or pm.min/max_spare_servers)\"): the pool's own idle-children settings; not memory"},
	// PHP-FPM fpm_children.c fpm_children_bury: "[pool %s] child %d exited on signal %d
	// (%s%s) after %ld.%06d seconds from start".
	{"exited on signal 9 (SIGKILL", "", false, "PHP-FPM's master reaped a child killed by SIGKILL (fpm_children.c: \"[pool P] child N exited on signal 9 (SIGKILL) after S seconds from start\"): the kernel's OOM killer or a memory cgroup's sends it, and so does FPM itself after request_terminate_timeout or process_control_timeout, or any kill -9; the kernel's own kill line would say which and is not in the text"},
	// Node.js src/api/hooks / node_errors.cc OnFatalError: "FATAL ERROR: %s %s" with V8's
	// location and message: heap.cc "Reached heap limit" / "Ineffective mark-compacts near
	// heap limit", "Allocation failed - JavaScript heap out of memory"; node aborts (SIGABRT).
	{"heap limit Allocation failed", "", true, "V8's heap reached its own limit in a Node.js process (node_errors.cc OnFatalError: \"FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\"; heap.cc): the old space passed --max-old-space-size (a default from the machine's or cgroup's memory), and node aborted itself (SIGABRT, exit 134): the runtime's own limit, no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// PM2 lib/God/Worker.js: "[PM2][WORKER] Process %s restarted because it exceeds
	// --max-memory-restart value (current_memory=%s max_memory_limit=%s [octets])".
	{"exceeds --max-memory-restart value", "", true, "PM2 restarted a process over its own memory threshold (lib/God/Worker.js: \"Process N restarted because it exceeds --max-memory-restart value (current_memory=R max_memory_limit=L [octets])\"): the process's RSS against PM2's max_memory_restart: PM2's own restart, no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// h24c: Tomcat's (and JBoss Web's, id 3008) AbstractEndpoint/JIoEndpoint when its worker
	// pool reaches maxThreads: "Maximum number of threads (%s) created for connector with
	// address %s and port %s"; requests queue in acceptCount behind it. Gated by
	// webAppGate's 'x' ("Maximum").
	{"Maximum number of threads (", ") created for connector with address ", false, "Tomcat's connector reached its own worker limit (\"Maximum number of threads (N) created for connector with address A and port P\", the Connector's maxThreads): further requests wait in its acceptCount queue and then the listen backlog; a configured thread limit of the server, not the kernel's memory; `ss -ltn` (Recv-Q against Send-Q) on the port and `nstat -az TcpExtListenOverflows` would show whether the kernel's accept queue overflowed"},
	// fix42c (corpus 3550): Elixir's DBConnection (lib/db_connection/holder.ex, the pool's
	// checkout past queue_target/queue_interval): "** (DBConnection.ConnectionError)
	// connection not available and request was dropped from queue after %dms. This means
	// requests are coming in and your connection pool cannot serve them fast enough."
	{"request was dropped from queue after ", "ms", false, "Elixir DBConnection's own pool queue (DBConnection.ConnectionError: \"connection not available and request was dropped from queue after Nms\"): every database connection of the application's pool (Ecto's pool_size) stayed busy past queue_target, so the pool dropped the waiting request itself: slow queries or a small pool; the queue is the application's, not a kernel listen queue or socket buffer, and no statement about the host's memory"},
	// BIRD sysdep/linux/netlink.c nl_async_hook: recvmsg on the async netlink socket failed
	// with ENOBUFS: log(L_WARN "Kernel dropped some netlink messages, will resync on next scan.").
	{"Kernel dropped some netlink messages", "", false, "BIRD's route socket overran (sysdep/linux/netlink.c nl_async_hook: recvmsg returned ENOBUFS): the kernel could not queue a netlink notification into the socket's receive buffer (net/netlink/af_netlink.c netlink_overrun) and dropped it; BIRD resyncs on its next kernel scan. The buffer is SO_RCVBUF, capped at net.core.rmem_max; a burst of route changes (a full table) outruns it; not the host's memory and no packet loss on a NIC"},
}

// webAppGate: bytes one of which every form holds ('u' uWSGI, 'y' "your", 'K' "SIGKILL" /
// "WORKER" / "Kernel", 'x' "max_children", "exited", "exceeds", 'h' "heap").
const webAppGate = "uyKxh"

// webAppOwnLine says why t is one of webAppForms' messages or a netlink overrun, and whether
// it is the program's own out-of-memory.
func webAppOwnLine(t string) (why string, oom, ok bool) {
	if len(t) > maxErrnoLineBytes && !jsonLogRecord(t) {
		return "", false, false
	}
	if why, ok := netlinkOverrun(t); ok {
		return why, false, true
	}
	if why, ok := clusterOwnLine(t); ok {
		return why, false, true // a cluster or configuration-management agent's own line (clusteragent.go)
	}
	if why, oom, ok := jobWorkerOwnLine(t); ok {
		return why, oom, true // Odoo's, RQ's, Overpass's, GDAL's or InnoDB's own limit or allocation (unreadjobworker.go)
	}
	if strings.IndexAny(t, webAppGate+collabGate+gameGate) < 0 {
		return "", false, false
	}
	for _, forms := range [4][]ownLineForm{webAppForms, hostingForms, collabForms, gameForms} { // hostingForms: unreadhosting.go; collabForms: unreadcollab.go; gameForms: unreadgame.go
		for k := range forms {
			if why, ok := forms[k].match(t); ok {
				return why, forms[k].oom, true
			}
		}
	}
	return "", false, false
}

// find is where t holds f's needle (k), what follows it, and whether needle2 follows: the
// part every program's table of its own lines (webapp, hosting, collab, JVM, servers,
// metrics) asks first.
func (f *ownLineForm) find(t string) (k int, rest string, ok bool) {
	k = strings.Index(t, f.needle)
	if k < 0 {
		return 0, "", false
	}
	rest = t[k+len(f.needle):]
	return k, rest, f.needle2 == "" || strings.Contains(rest, f.needle2)
}

// match says whether t holds f's message, and what it proves.
func (f *ownLineForm) match(t string) (string, bool) {
	k := strings.Index(t, f.needle)
	if k < 0 {
		return "", false
	}
	rest := t[k+len(f.needle):]
	if f.needle2 != "" {
		j := strings.Index(rest, f.needle2)
		if j < 0 {
			return "", false
		}
		switch f.needle[0] {
		case 'y', 'E': // "... limited to N connections", "... is N bytes", lfd's "Exceeded: A > B": the figure is the program's
			if !startsWithDigit(strings.TrimLeft(rest, " \t")) {
				return "", false
			}
		case 'T': // chkservd's "The service NAME appears to be down": one name between
			if j == 0 || strings.IndexByte(rest[:j], ' ') >= 0 {
				return "", false
			}
		case 'M': // Tomcat's "Maximum number of threads (N) created ...", not advice naming it
			if !startsWithDigit(rest) || conditionLead(t[:k]) {
				return "", false
			}
		case 'r': // DBConnection's "dropped from queue after Nms": the wait is the program's
			if !startsWithDigit(rest) {
				return "", false
			}
		case 'f': // Go's "fork/exec PATH: ERRNO" (unreadcollab.go), not a question about it
			if strings.HasSuffix(strings.TrimSpace(t), "?") {
				return "", false
			}
		case 'u': // "full !!! (Q/M)"
			if !startsWithDigit(rest[j+len(f.needle2):]) {
				return "", false
			}
		}
	}
	if (f.needle[0] == 'W' || f.needle == "Booting worker with pid: ") && !startsWithDigit(rest) {
		return "", false // "WORKER TIMEOUT (pid:N)", "Booting worker with pid: N"
	}
	return f.why, true
}

// netlinkOverrun: zebra's (FRR, Quagga) netlink read failing: "%s recvmsg overrun: %s" with
// the socket's name ("netlink-listen (NS 0)", "netlink-cmd", "netlink-dp") and strerror
// (zebra/kernel_netlink.c netlink_recv_msg / netlink_parse_info). "No buffer space
// available" is ENOBUFS: the kernel dropped notifications the receive buffer could not
// hold. FRR exits after it (EC_ZEBRA_RECVMSG_OVERRUN); its --nl-bufsize (-s) asks for the
// buffer with SO_RCVBUFFORCE, past net.core.rmem_max.
func netlinkOverrun(t string) (string, bool) {
	k := strings.Index(t, " recvmsg overrun: ")
	if k < 0 {
		return netlinkRecvENOBUFS(t) // another daemon's netlink recvmsg ENOBUFS (unreadnetlink.go)
	}
	if !strings.Contains(t[:k], "netlink") {
		return "", false
	}
	if strings.HasPrefix(t[k+len(" recvmsg overrun: "):], "No buffer space available") {
		return "zebra's netlink socket overran (zebra/kernel_netlink.c: \"netlink-listen recvmsg overrun: No buffer space available\", ENOBUFS): the kernel could not queue route or link notifications into that netlink socket's receive buffer and dropped them (net/netlink/af_netlink.c netlink_overrun); zebra's table may no longer match the kernel's and FRR exits. The buffer is the socket's SO_RCVBUF: zebra's --nl-bufsize (-s) with SO_RCVBUFFORCE, otherwise capped at net.core.rmem_max; a burst of route changes outruns it. Not the host's memory, not a NIC's drops and not a send refused for buffer space", true
	}
	return "zebra's netlink read failed (zebra/kernel_netlink.c: \"netlink-... recvmsg overrun: ERROR\") with the errno it names; FRR exits after it; no memory figure", true
}

// isWebAppTag: these programs' syslog tags (php-fpm's are isServerTag's php* already).
func isWebAppTag(tag string) bool {
	switch tag {
	case "uwsgi", "gunicorn", "node", "pm2", "bird", "bird6", "zebra", "bgpd", "ospfd",
		"ospf6d", "watchfrr", "frr", "quagga":
		return true
	}
	return isRoutingDaemonTag(tag) || isHostingTag(tag) || isCollabTag(tag) || isOdooTag(tag) // the other routing daemons (unreadnetlink.go), hosting panels' (unreadhosting.go), collaboration servers' and Xen's toolstack (unreadcollab.go)
}

// isOdooTag (fix43b, corpus 3644): Odoo's units as journald tags them: "odoo",
// "odoo-server", "openerp-server", and a unit named for its version ("odoo14[PID]", the
// installation guides' odoo14.service), whose lines carry Odoo's own log prefix
// (unreadjobworker.go reads its worker limits and connection pool).
func isOdooTag(tag string) bool {
	switch tag {
	case "odoo", "odoo-server", "openerp-server", "odoo-bin":
		return true
	}
	v, ok := strings.CutPrefix(tag, "odoo")
	return ok && len(v) <= 2 && v != "" && len(leadingDigits(v)) == len(v)
}

// pm2LogHost: PM2's own log line ("2026-11-30T01:02:03: PM2 log: ...", lib/Utility.js
// prefixes its stamp and "PM2 log: "): the syslog splitter takes "PM2" for a host.
func pm2LogHost(l *Line) bool { return !l.Kernel && l.Host == "PM2" }

// The figures of these messages, for programFigures; placed first, so PHP-FPM's SIGKILL
// line is not taken for nginx's " exited on signal 9".
func init() {
	programFigureForms = append([]struct {
		program, needle string
		names           []string
		before          bool
	}{{"php-fpm", " exited on signal 9 (SIGKILL", []string{"child_pid"}, true}},
		programFigureForms...)
	programFigureForms = append(programFigureForms,
		struct {
			program, needle string
			names           []string
			before          bool
		}{"uwsgi", " full !!! (", []string{"queued", "backlog"}, false},
		struct {
			program, needle string
			names           []string
			before          bool
		}{"php-fpm", "server reached pm.max_children setting (", []string{"max_children"}, false},
		struct {
			program, needle string
			names           []string
			before          bool
		}{"php-fpm", "server reached max_children setting (", []string{"max_children"}, false},
		struct {
			program, needle string
			names           []string
			before          bool
		}{"pm2", "max-memory-restart value (current_memory=", []string{"current_memory_bytes", "max_memory_limit_bytes"}, false},
	)
}

// net/ipv4/route.c rt_garbage_collect (the IPv4 route cache, removed in 3.6):
// net_warn_ratelimited("dst cache overflow\n") (printk(KERN_WARNING ...) before) when garbage
// collection could not bring the cached routes under net.ipv4.route.max_size; the new route,
// and its packet, was refused (rt_intern_hash: ENOBUFS).
const dstOverflowWhy = "the IPv4 route cache (kernels before 3.6) passed net.ipv4.route.max_size and garbage collection could not free enough (net/ipv4/route.c rt_garbage_collect: \"dst cache overflow\", rt_cache_stat gc_dst_overflow): the route, and the packet waiting on it, was refused (ENOBUFS to a sender); a table limit (max_size, gc_thresh, gc_elasticity), not memory; headroom has no rule for it"

// dstCacheOverflow: the message alone on its line, or after a stamp or a prefix ("]" or
// ":" before it): a sentence naming the words is prose.
func dstCacheOverflow(t string) bool {
	s := strings.TrimSpace(t)
	if !strings.HasSuffix(s, "dst cache overflow") {
		return false
	}
	head := strings.TrimSpace(s[:len(s)-len("dst cache overflow")])
	return head == "" || strings.HasSuffix(head, "]") || strings.HasSuffix(head, ":")
}
