package artifact

import "strings"

// A server's own message about the socket buffers the kernel granted it, or about packets
// it lost (issue 29, "pre-round hardening" h10): DNS servers, QUIC stacks, media servers
// and validators ask for large UDP buffers with SO_RCVBUF/SO_SNDBUF and log when they got
// less. The kernel caps an unprivileged request at net.core.rmem_max (wmem_max) and stores
// twice the capped value (net/core/sock.c sk_setsockopt → __sock_set_rcvbuf:
// val = min(val, sysctl_rmem_max); sk_rcvbuf = max(val*2, SOCK_MIN_RCVBUF)); SO_RCVBUFFORCE
// (CAP_NET_ADMIN) skips the cap. So a "got"/"granted" figure read back with getsockopt is
// a statement about this host: twice its rmem_max (wmem_max) at the time, when the request
// was larger. The "wanted" figure is the program's own choice, a recommendation, not the
// host's state (issue 29 "whose numbers"). Neither is a drop: no counter says a datagram
// was lost, and no rule judges a ceiling below what one program asks for, so the line is
// listed as unread evidence (its rules stay "not checked"), not prose, and a paste of such
// lines no longer exits 3 as if it held nothing.
//
// Gated: appBufferLine runs on lines already classified as prose (doc.prose) and on the
// syslog lines of the programs' tags (isAppBufTag, a switch); it asks for each class a
// fixed needle with strings.Contains, after a first check that the line holds a digit
// (every one of these messages prints its figures or a context address).

// appBufClasses: each message's needle (from the program's format string) and what it
// proves. A class whose second needle is set needs both (a format string's two fixed parts).
var appBufClasses = []struct {
	needle, needle2, why string
	noFigure             bool // the message prints no number: the digit gate is skipped
}{
	// quic-go sys_conn.go (setReceiveBuffer/setSendBuffer via sys_conn_buffers.go): after
	// SO_RCVBUF and then SO_RCVBUFFORCE, "failed to sufficiently increase receive buffer size
	// (was: %d kiB, wanted: %d kiB, got: %d kiB)"; "got" is getsockopt's figure. Used by
	// kubo, libp2p, Syncthing, Caddy, cloudflared, AdGuard Home.
	{"failed to sufficiently increase receive buffer size", "", appBufRcvWhy("quic-go (kubo/libp2p, Syncthing, Caddy, cloudflared)"), false},
	{"failed to sufficiently increase send buffer size", "", appBufSndWhy("quic-go (kubo/libp2p, Syncthing, Caddy, cloudflared)"), false},
	// quic-go: "failed to increase receive buffer size (wanted: %d kiB, got %d kiB)": the
	// size did not change at all.
	{"failed to increase receive buffer size", "", appBufRcvWhy("quic-go"), false},
	{"failed to increase send buffer size", "", appBufSndWhy("quic-go"), false},
	// Cyclone DDS src/core/ddsi/src/ddsi_udp.c set_rcvbuf/set_sndbuf: after SO_RCVBUF
	// (SO_SNDBUF) and getsockopt, "failed to increase socket receive buffer size to %u bytes,
	// continuing with %u bytes" (a config-level log while the minimum is the default) and,
	// with a configured minimum (SocketReceiveBufferSize min=), "failed to increase socket
	// receive buffer size to at least %u bytes, current is %u bytes" (an error: the domain
	// is not created). Used by ROS 2's rmw_cyclonedds_cpp.
	{"failed to increase socket receive buffer size to ", "", appBufRcvWhy("Cyclone DDS (ddsi_udp.c set_rcvbuf; ROS 2 rmw_cyclonedds)"), false},
	{"failed to increase socket send buffer size to ", "", appBufSndWhy("Cyclone DDS (ddsi_udp.c set_sndbuf; ROS 2 rmw_cyclonedds)"), false},
	// Transmission libtransmission/tr-udp.c (h24a): after SO_RCVBUF/SO_SNDBUF and getsockopt,
	// tr_logAddNamedError("UDP", "Failed to set receive buffer: requested %d, got %d") (send
	// likewise; 4.x's tr-udp.cc "Failed to set receive buffer: requested {req}, got {qty}",
	// later "Couldn't set receive buffer: requested {}, got {}"); its log adds "[stamp] "
	// before and " (tr-udp.c:84)" after. The next line, "Please add the line
	// \"net.core.rmem_max = %d\" to /etc/sysctl.conf" (4.x quotes it with ` or '), is its
	// advice: RECV_BUFFER_SIZE, never the host's setting (transmissionAdviceWhy).
	{"set receive buffer: requested ", ", got ", appBufRcvWhy("Transmission (libtransmission/tr-udp.c)"), false},
	{"set send buffer: requested ", ", got ", appBufSndWhy("Transmission (libtransmission/tr-udp.c)"), false},
	{"Please add the line \"net.core.", " to /etc/sysctl.conf", transmissionAdviceWhy, false},
	{"Please add the line 'net.core.", " to /etc/sysctl.conf", transmissionAdviceWhy, false},
	{"Please add the line `net.core.", " to /etc/sysctl.conf", transmissionAdviceWhy, false},
	// libtorrent (src/alert.cpp performance_alert::message, performance_warning_str): a
	// torrent's name, ": performance warning: " and one of its warning strings; qBittorrent
	// logs it as "Performance alert: %1. More info: %2" (TorrentImpl::handlePerformanceAlert),
	// Deluge as "on_alert_performance: %s, %s" (torrentmanager.py), rtorrent/libtorrent-rasterbar
	// users from the alert's message(). The descriptor one names RLIMIT_NOFILE; the others
	// name libtorrent's own settings (send_buffer_watermark, max_queued_disk_bytes,
	// max_out_request_queue, rate limits, outgoing_port range). Printed without a figure.
	{"performance warning: ", "too few file descriptors are allowed for this process", libtorrentFDWhy, true},
	{"performance warning: ", "send buffer watermark too low", libtorrentPerfWhy, true},
	{"performance warning: ", "outstanding disk buffer limit reached", libtorrentPerfWhy, true},
	{"performance warning: ", "max outstanding disk writes reached", libtorrentPerfWhy, true},
	{"performance warning: ", "outstanding request limit reached", libtorrentPerfWhy, true},
	{"performance warning: ", "limit too low (", libtorrentPerfWhy, true},
	{"performance warning: ", "disk queue limit is too high compared to the cache size", libtorrentPerfWhy, true},
	{"performance warning: ", "outstanding AIO operations limit reached", libtorrentPerfWhy, true},
	{"performance warning: ", "too few ports allowed for outgoing connections", libtorrentPerfWhy, true},
	{"performance warning: ", "too many optimistic unchoke slots", libtorrentPerfWhy, true},
	// go-libp2p's resource manager as kubo logs it (core/node/libp2p/rcmgr_logging.go):
	// "Resource limits were exceeded %d times with error %q." and "Consider inspecting logs
	// and raising the resource manager limits." Its limits are libp2p's own accounting
	// (scaled from the memory and descriptors it is given), not a kernel limit.
	// (A zap line taken for syslog loses "Resource limits" to the host and tag fields: the
	// needles are the parts after it; the error is network.ErrResourceLimitExceeded's text.)
	{"were exceeded ", "resource limit exceeded", libp2pRcmgrWhy, false},
	{"raising the resource manager limits", "", libp2pRcmgrWhy, true},
	// Syncthing lib/fs/basicfs_watch.go via its folder watcher: "failed to setup inotify
	// handler. Please increase inotify limits, see https://docs.syncthing.net/users/faq.html#inotify-limits":
	// inotify_add_watch failed with ENOSPC at fs.inotify.max_user_watches.
	{"failed to setup inotify handler", "increase inotify limits", inotifyLimitWhy, true},
	// Unbound services/listen_dnsport.c create_udp_sock: "so-rcvbuf %u was not granted. Got
	// %u. To fix: start with root permissions(linux) or sysctl bigger net.core.rmem_max(linux)
	// or kern.ipc.maxsockbuf(bsd) values." (so-sndbuf likewise, wmem_max).
	{"so-rcvbuf ", " was not granted. Got ", appBufRcvWhy("Unbound (so-rcvbuf)"), false},
	{"so-sndbuf ", " was not granted. Got ", appBufSndWhy("Unbound (so-sndbuf)"), false},
	// FFmpeg libavformat/udp.c udp_open: "attempted to set receive buffer to size %d but it
	// only ended up set as %d" (getsockopt(SO_RCVBUF) after setsockopt; also in ffplay,
	// tvheadend's and MediaMTX's ffmpeg pipelines).
	{"attempted to set receive buffer to size ", "but it only ended up set as", appBufRcvWhy("FFmpeg's UDP input (libavformat/udp.c)"), false},
	// GStreamer gst/udp/gstudpsrc.c gst_udpsrc_open: "have udp buffer of %d bytes while %d
	// were requested" (GST_WARNING_OBJECT after getsockopt); the healthy form "have udp buffer
	// of %d bytes" has no "while".
	{"have udp buffer of ", " were requested", appBufRcvWhy("GStreamer udpsrc (gstudpsrc.c)"), false},
	// GStreamer gstudpsrc.c / gstmultiudpsink.c: SO_RCVBUFFORCE (SO_SNDBUFFORCE) refused
	// without CAP_NET_ADMIN: "Could not create a buffer of requested %d bytes (%s). Need
	// net.admin privilege?"; the element then has what SO_RCVBUF gave, capped by rmem_max.
	{"Could not create a buffer of requested ", "Need net.admin privilege", "GStreamer (udpsrc/multiudpsink): SO_RCVBUFFORCE/SO_SNDBUFFORCE was refused (no CAP_NET_ADMIN), so the socket has what SO_RCVBUF/SO_SNDBUF allow, capped by net.core.rmem_max/wmem_max (net/core/sock.c sk_setsockopt); the requested size is the pipeline's choice, not the host's state; no drop is counted by this line; headroom has no rule for a program's buffer request", false},
	// tailscale wgengine/magicsock trySetUDPSocketOptions (h22b): SO_RCVBUFFORCE/SO_SNDBUFFORCE
	// to socketBufferSize (7 MiB) refused without CAP_NET_ADMIN: "[warning] failed to
	// force-set UDP %v buffer size to %d: %v; using kernel default values (impacts throughput
	// only)", %v "read" or "write"; the portable SO_RCVBUF/SO_SNDBUF then applies, capped.
	{"failed to force-set UDP read buffer size to ", "", "tailscale's magicsock (trySetUDPSocketOptions): SO_RCVBUFFORCE to its 7 MiB was refused (no CAP_NET_ADMIN), so its UDP socket has what SO_RCVBUF allows, capped at net.core.rmem_max and doubled (net/core/sock.c sk_setsockopt); the 7 MiB is tailscale's own choice, not the host's state; the line counts no dropped datagram (Udp RcvbufErrors would); headroom has no rule for a program's buffer request", false},
	{"failed to force-set UDP write buffer size to ", "", "tailscale's magicsock (trySetUDPSocketOptions): SO_SNDBUFFORCE to its 7 MiB was refused (no CAP_NET_ADMIN), so its UDP socket has what SO_SNDBUF allows, capped at net.core.wmem_max and doubled; the 7 MiB is tailscale's own choice, not the host's state; the line counts no refused send (Udp SndbufErrors would); headroom has no rule for a program's buffer request", false},
	// LiveKit pkg/rtc (rtcconfig) checkUDPReadBuffer: a test socket's SetReadBuffer to its
	// default, then getsockopt(SO_RCVBUF): logger.Warnw("UDP receive buffer is too small for
	// a production set-up", nil, "current", val, "suggested", minUDPBufferSize).
	{"UDP receive buffer is too small for a production set-up", "", appBufRcvWhy("LiveKit (checkUDPReadBuffer)"), false},
	// PowerDNS (pdns/misc.cc setSocketBuffer, the recursor and dnsdist): "Unable to raise
	// socket buffer size to %d: %s" (older "Warning: unable to raise ..."), setsockopt's
	// errno; an unprivileged SO_RCVBUF past rmem_max is capped, not refused, so the errno
	// (in the line) is the cause, not the cap.
	{"nable to raise socket buffer size to ", "", "PowerDNS/dnsdist (pdns/misc.cc setSocketBuffer): setsockopt(SO_RCVBUF/SO_SNDBUF) failed with the errno the line gives; Linux caps an unprivileged request at net.core.rmem_max/wmem_max without an error (net/core/sock.c), so the line is no statement of the cap; no drop is counted by it; headroom has no rule for a program's buffer request", false},
	// PowerDNS Recursor's descriptor check at start-up (pdns_recursor.cc, later
	// rec-main.cc; fix32a): when max-mthreads*threads needs more descriptors than the hard
	// RLIMIT_NOFILE, "Insufficient number of filedescriptors available for
	// max-mthreads*threads setting! (HARD < WANT), reducing max-mthreads to N" (structured
	// logging: "... Reducing max-mthreads" hardlimit=... want=...). HARD is the process's
	// hard descriptor limit (the unit's LimitNOFILE), a figure of this host's service.
	{"Insufficient number of filedescriptors available for max-mthreads", "", "PowerDNS Recursor's start-up descriptor check: max-mthreads*threads wants more descriptors than the process's hard RLIMIT_NOFILE (the systemd unit's LimitNOFILE) allows, so the Recursor lowered max-mthreads to fit; a descriptor limit of the service, not memory or a drop; headroom has no rule for a program's descriptor limit", false},
	// BIND 9: a socket call's errno as an isc_result (lib/isc/errno2result.c maps ENOBUFS,
	// EMFILE and ENFILE to ISC_R_NORESOURCES, whose text in lib/isc/result.c is "not enough
	// free resources"): "error sending response: not enough free resources".
	{": not enough free resources", "", "BIND (named): ISC_R_NORESOURCES, the errno ENOBUFS (a send dropped at a full queue or a socket buffer at its limit) or EMFILE/ENFILE (file descriptors) as BIND names it (lib/isc/errno2result.c); not by itself a page allocation failure; headroom has no reader for this log", false},
	// BIND 9 lib/isc/unix/socket.c socket creation (h27a): a new descriptor at or past the
	// socket manager's maxsocks (named -S, by default from RLIMIT_NOFILE) is closed and
	// logged "socket: file descriptor exceeds limit (%d/%u)": a per-process descriptor
	// limit, not memory nor a kernel counter.
	{"socket: file descriptor exceeds limit (", "", bindFDWhy, false},
	// BIND 9 query.c: its recursive-clients quota (its own limit on concurrent recursions):
	// "recursive-clients soft limit exceeded (%u/%u/%u), aborting oldest query" and "no more
	// recursive clients (%u/%u/%u): %s" (older "no more recursive clients: %s", no figure).
	{"recursive-clients soft limit exceeded", "", bindRecursionQuotaWhy, false},
	{"no more recursive clients", "", bindRecursionQuotaWhy, true},
	// Unbound util/netevent.c comm_point_send_udp_msg (h27a): after about a second of a UDP
	// send blocked on EAGAIN/ENOBUFS it gives up: "send udp blocked for long, dropping
	// packet." (VERB_OPS, once per SLOW_LOG_TIME). No errno is printed: which limit blocked
	// the send is not in it.
	{"send udp blocked for long, dropping packet", "", unboundSendBlockedWhy, true},
	// Pi-hole FTL (src/log.c log_resource_shortage, h27a): its own checks of the host, to
	// FTL.log as "WARNING: Long-term load (15min avg) larger than number of processors: %.1f
	// > %d", "WARNING: RAM shortage (%s) ahead: %d%% is used (%s)" (the file system of its
	// shared memory, /dev/shm) and "WARNING: Disk shortage (%s) ahead: %d%% is used (%s)".
	{"Long-term load (15min avg) larger than number of processors", "", ftlLoadWhy, false},
	{"RAM shortage (", " is used (", ftlShmWhy, false},
	{"Disk shortage ", " is used (", ftlDiskWhy, false},
	// FFmpeg libavformat/udp.c circular_buffer_task: the program's own FIFO between its
	// receive thread and the demuxer (fifo_size) was full: "Circular buffer overrun. To
	// avoid, increase fifo_size URL option. To survive in such case, use overrun_nonfatal
	// option" / "Circular buffer overrun. Surviving due to overrun_nonfatal option".
	{"Circular buffer overrun", "", "FFmpeg's UDP input (libavformat/udp.c circular_buffer_task): its own user-space FIFO (fifo_size) overflowed because the demuxer read too slowly: packets lost inside the program, not at the kernel's socket buffer (Udp RcvbufErrors counts those); headroom has no reader for this log", false},
	// Fast DDS shared-memory transport (src/cpp/rtps/transport/shared_mem/SharedMemManager.hpp,
	// logged under the category RTPS_TRANSPORT_SHM in Fast DDS's "[CATEGORY Kind] message ->
	// Function f" form): "Failed to create segment fastrtps_<id>: <reason>": its own segment
	// in /dev/shm (a tmpfs, a container's --shm-size) could not be made; the participant
	// falls back or fails. Not the kernel's page allocator, no network counter.
	{"RTPS_TRANSPORT_SHM", "Failed to create segment ", "Fast DDS shared-memory transport (RTPS_TRANSPORT_SHM): its own segment in /dev/shm could not be created (the reason the line gives: a full or small /dev/shm tmpfs, a container's shm size, a name left by an earlier run); the program's shared memory, not the kernel's page allocator nor a network counter; headroom has no reader for this log", false},
	// libmavconn (mavros) udp.cpp/serial.cpp/tcp.cpp send_message: its own transmit queue
	// (tx_q, bounded by MAX_TXQ_SIZE) is full: it throws std::length_error("MAVConnUDP::
	// send_message: TX queue overflow") and the caller logs "DROPPED Message-Id ...: <what>".
	// A message dropped inside the program, not at a kernel socket buffer (SndbufErrors).
	{"MAVConn", "::send_message: TX queue overflow", "libmavconn (mavros): its own transmit queue (MAX_TXQ_SIZE messages) overflowed, so it dropped the message: a queue inside the program, not the kernel's socket buffer (Udp SndbufErrors counts those); headroom has no reader for this log", false},
	// FFmpeg libavformat/udp.c udp_read_packet/circular_buffer_task: a datagram larger than
	// the read buffer (pkt_size) was truncated (MSG_TRUNC): "Part of datagram lost due to
	// insufficient buffer size".
	{"Part of datagram lost due to insufficient buffer size", "", "FFmpeg's UDP input (libavformat/udp.c): a datagram longer than its read buffer (pkt_size) was cut: the program's own buffer, not the kernel's memory; headroom has no reader for this log", false},
	// OpenVPN src/openvpn/multi.c multi_add_mbuf / multi_process_incoming_tun: a client's
	// own output queue in the server (multi_output_queue_ready: --tcp-queue-limit packets
	// for a TCP client) was full, so the packet was dropped: msg(D_MULTI_DROPPED, "MULTI:
	// packet dropped due to output saturation (multi_add_mbuf)"). Printed without a figure.
	{"MULTI: packet dropped due to output saturation", "", "OpenVPN (multi.c multi_add_mbuf/multi_process_incoming_tun): a client's output queue inside the server (--tcp-queue-limit for a TCP client) was full, so OpenVPN dropped the packet: a queue inside the program (commonly bridged broadcast traffic outrunning a slow TCP client), not a kernel socket buffer, NIC or backlog counter; headroom has no reader for this log", true},
}

const bindFDWhy = "BIND (named, lib/isc/unix/socket.c): a new socket's descriptor reached the socket manager's limit (the figures: the descriptor and maxsocks, set by named -S or from RLIMIT_NOFILE), so named closed it and the query or transfer that needed it failed: a per-process descriptor limit (LimitNOFILE=, ulimit -n), not memory nor a kernel network counter; headroom has no rule for descriptor limits"

const bindRecursionQuotaWhy = "BIND (named, query.c): its own recursive-clients quota (the figures: in use, soft and hard limits) was reached, so it dropped the oldest recursion or refused the client: named's configured limit on concurrent recursive queries (recursive-clients), commonly reached when upstream servers answer slowly, not the kernel's memory, descriptors or socket buffers; headroom has no rule for a server's own quota"

const unboundSendBlockedWhy = "Unbound (util/netevent.c comm_point_send_udp_msg): a UDP send stayed blocked (EAGAIN or ENOBUFS) for its whole retry time (about a second), so Unbound dropped the answer; no errno is printed, so whether the socket's send buffer (Udp SndbufErrors) or a full qdisc or device queue refused it is not in the line; `nstat -az UdpSndbufErrors` and `tc -s qdisc` tell; headroom reads no drop count from it"

const ftlLoadWhy = "Pi-hole FTL (log.c log_resource_shortage): the 15-minute load average above the number of CPUs, FTL's own check of the host: runnable (and uninterruptible) tasks, not a memory, socket buffer or drop counter; headroom has no rule for load averages"

const ftlShmWhy = "Pi-hole FTL (log.c log_resource_shortage): the file system of its shared memory (the path in the line, /dev/shm, a tmpfs or a container's shm size) is nearly full, FTL's own check: tmpfs pages, not the host's free memory, the OOM killer or a kernel allocation failure; headroom has no rule for a tmpfs's use"

const ftlDiskWhy = "Pi-hole FTL (log.c log_resource_shortage): the file system holding its database or logs (the path in the line) is nearly full, FTL's own check: disk space, not memory nor a network counter; headroom has no rule for disk space"

const transmissionAdviceWhy = "Transmission (libtransmission/tr-udp.c): its advice after a buffer it was not granted, the size it wants (RECV_BUFFER_SIZE 4 MiB, SEND_BUFFER_SIZE 1 MiB) printed as a sysctl.conf line: a recommendation, not this host's setting (the granted size on the line before is about twice rmem_max/wmem_max); headroom has no rule for a program's buffer request"

const libtorrentFDWhy = "libtorrent's performance warning (qBittorrent's \"Performance alert\", Deluge's on_alert_performance): too few file descriptors: the process's RLIMIT_NOFILE (ulimit -n, LimitNOFILE=) is below what its connections_limit needs, so libtorrent lowered its connection limit; a per-process descriptor limit, not memory nor a kernel network counter; headroom has no rule for it"

const libtorrentPerfWhy = "libtorrent's performance warning (qBittorrent's \"Performance alert\", Deluge's on_alert_performance): one of libtorrent's own settings (send_buffer_watermark, max_queued_disk_bytes, max_out_request_queue, its rate limits, the outgoing port range) limited a torrent: a queue or limit inside the program, not the kernel's socket buffers (tcp_wmem) nor its memory; headroom has no rule for it"

const libp2pRcmgrWhy = "go-libp2p's resource manager (kubo's rcmgr_logging.go): connections or streams refused at libp2p's own limits (Swarm.ResourceMgr, scaled from the memory and descriptors it is allowed), not a kernel limit nor the kernel's memory; headroom has no rule for it"

const inotifyLimitWhy = "Syncthing's folder watcher: inotify_add_watch failed (ENOSPC) at fs.inotify.max_user_watches (or max_user_instances): a per-user kernel table limit, not memory nor a network buffer; headroom has no rule for it"

func appBufRcvWhy(prog string) string {
	return prog + ": the kernel granted a smaller UDP receive buffer than the program asked for: an unprivileged SO_RCVBUF is capped at net.core.rmem_max and doubled (net/core/sock.c __sock_set_rcvbuf), so the figure it got is about twice this host's rmem_max then; the size it wanted is the program's own choice, not the host's state; the line counts no dropped datagram (Udp RcvbufErrors would); headroom has no rule for a program's buffer request"
}

func appBufSndWhy(prog string) string {
	return prog + ": the kernel granted a smaller UDP send buffer than the program asked for: an unprivileged SO_SNDBUF is capped at net.core.wmem_max and doubled (net/core/sock.c __sock_set_sndbuf), so the figure it got is about twice this host's wmem_max then; the size it wanted is the program's own choice, not the host's state; the line counts no refused send (Udp SndbufErrors would); headroom has no rule for a program's buffer request"
}

// appBufferLine says why t is one of appBufClasses' messages. A line without a digit is
// none (the messages print their figures, FFmpeg's a context address "[udp @ 0x...]"),
// except a message that prints none (noFigure); a long line is a paragraph that quotes one.
func appBufferLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false
	}
	digit := hasDigit(t)
	for _, c := range appBufClasses {
		if !digit && !c.noFigure {
			continue
		}
		k := strings.Index(t, c.needle)
		if k < 0 {
			continue
		}
		if c.needle2 != "" && !strings.Contains(t[k+len(c.needle):], c.needle2) {
			continue
		}
		return c.why, true
	}
	return "", false
}

// isAppBufTag: the syslog tags of the programs whose messages appBufClasses names (their
// daemons' names as their units start them). A switch: a compare or two for another tag.
func isAppBufTag(tag string) bool {
	switch tag {
	case "unbound", "ipfs", "kubo", "syncthing", "transmission-daemon", "transmission-gtk", "transmission-qt", "qbittorrent-nox", "deluged", "caddy", "cloudflared", "AdGuardHome",
		"ffmpeg", "ffplay", "gst-launch-1.0", "tvheadend", "mediamtx", "livekit-server", "livekit",
		"pdns_recursor", "pdns-recursor", "pdns_server", "pdns", "dnsdist", "named", "tailscaled", "pihole-FTL",
		"nfacctd", "sfacctd", "nfcapd", "sfcapd": // pmacct's and nfdump's collectors: pipe size, sequence gaps (rcvbufcapped.go)
		return true
	}
	return false
}

// agaveLimitLine reads the host's sysctl values that Agave's (Solana's) validator reports
// at start and hourly (core/src/system_monitor_service.rs linux_report_network_limits):
// "  {key}: recommended={r}, current={c} too small" (warn), "  {key}: recommended={r}
// current={c}" (info) and "  {key}: report-only --  current={c}" (info). current is the
// value it read from /proc/sys on this host (linux_get_current_network_limits), so it is
// the host's setting; recommended is Agave's own constant (INTERESTING_LIMITS: 134217728
// for rmem_max/wmem_max), a recommendation, never read as the host's. current=-1 is
// Agave's mark for a key it could not read ("Failed to query value for ..."): not a value.
// Gated: runs on prose lines only, after a strings.Contains for "current=".
func agaveLimitLine(t string) (key, value string, ok bool) {
	c := strings.Index(t, "current=")
	if c < 0 {
		return "", "", false
	}
	k := strings.Index(t, ": recommended=")
	if k < 0 || k > c {
		k = strings.Index(t, ": report-only --")
	}
	if k < 0 || k > c {
		return "", "", false
	}
	head := strings.TrimRight(t[:k], " ")
	if sp := strings.LastIndexAny(head, " \t]"); sp >= 0 {
		head = head[sp+1:]
	}
	if !strings.HasPrefix(head, "net.") && !strings.HasPrefix(head, "vm.") {
		return "", "", false
	}
	v := t[c+len("current="):]
	n := 0
	for n < len(v) && v[n] >= '0' && v[n] <= '9' {
		n++
	}
	if n == 0 || n < len(v) && v[n] != ' ' && v[n] != ',' {
		return "", "", false // "-1": Agave could not read the key
	}
	return head, v[:n], true
}
