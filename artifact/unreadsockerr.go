package artifact

import "strings"

// Socket errors as applications log them (pre-round 34, h34b): a connection's errno in each
// runtime's or client's wrapping. errnoReasons (unreaderrno.go) names the errnos that speak
// of this host's limits (EMFILE/ENFILE descriptors, EADDRNOTAVAIL ephemeral ports, ENOBUFS,
// ENOMEM, EAGAIN); a paste whose evidence was a peer's reset, a refused or timed-out
// connect or a busy listening address exited 3 ("nothing in this text is evidence"), and so
// did the limit errnos in wrappings errnoLogLine does not know (libpq's and MySQL's clients,
// Envoy's "delayed connect error: 99", Python's exception repr, Ruby's Errno::, netty's,
// PHP's stream error, curl's exit codes). Each is named as unread with what it proves about
// the host; no rule judges a program's connection error and nothing is diagnosed from it.
//
// socketErrnoLine runs late on a prose line, after every program's own reader (sysctl.go
// prose), so a form a program's reader knows (OpenSSH's reset, nginx's upstream timer, a
// Bacula write) keeps its own account. Counter-cases: the words in advice or a question
// (conditionLead before the error), a sentence naming an errno without a record's shape (no
// digit, no exception class, no client's prefix).

const peerNoHostEvidence = "no memory, socket buffer, queue or counter of this host's; headroom has no rule for a program's connection error and reads nothing from it"

// peerErrnoReasons: the errnos that say what became of one connection: the peer or the path
// decided, not a limit of this host's.
var peerErrnoReasons = []errnoReason{
	// net/ipv4/tcp_input.c tcp_reset: an RST for an open connection makes the next read or
	// write fail ECONNRESET (EPIPE once the socket is shut for writing).
	{"Connection reset by peer", "ECONNRESET", "an application's socket error ECONNRESET (Connection reset by peer): the other end, or a firewall, NAT or load balancer between them timing an idle connection out, reset one TCP connection with an RST (net/ipv4/tcp_input.c tcp_reset): a statement about that peer or path; " + peerNoHostEvidence},
	{"Broken pipe", "EPIPE", "an application's socket error EPIPE (Broken pipe): a write on a connection the peer had already closed or reset (net/ipv4/tcp.c tcp_sendmsg on a socket shut for sending): the peer ended the connection first; " + peerNoHostEvidence},
	// tcp_rcv_synsent_state_process: an RST answering the SYN; a REJECT rule's
	// icmp-port-unreachable or tcp-reset likewise. A full listen queue drops the SYN instead
	// (ListenOverflows), so a refusal is no listen overflow.
	{"Connection refused", "ECONNREFUSED", "an application's socket error ECONNREFUSED (Connection refused): the destination answered the SYN with an RST (nothing listened on that port, or a firewall's REJECT): the peer's state; a full listen queue drops SYNs (ListenOverflows) rather than refusing them, so it is no listen overflow; " + peerNoHostEvidence},
	// tcp_write_timeout (net/ipv4/tcp_timer.c): the SYN's retries (tcp_syn_retries) or an
	// established connection's retransmissions (tcp_retries2) or keepalives unanswered.
	{"Connection timed out", "ETIMEDOUT", "an application's socket error ETIMEDOUT (Connection timed out): a connect's SYNs went unanswered through net.ipv4.tcp_syn_retries, or an established connection's retransmissions (tcp_retries2) or keepalives got no answer (net/ipv4/tcp_timer.c tcp_write_timeout): the path or the peer was silent; no retransmission counter is stated; " + peerNoHostEvidence},
	// inet_csk_get_port: a bind to an address and port another socket holds.
	{"Address already in use", "EADDRINUSE", "an application's socket error EADDRINUSE (Address already in use): a bind or listen to an address and port another socket holds (another process, a second instance, a restart without SO_REUSEADDR; net/ipv4/inet_connection_sock.c inet_csk_get_port): a configuration or restart problem; it is not ephemeral ports running out (a connect then fails EADDRNOTAVAIL) and " + peerNoHostEvidence},
	{"No route to host", "EHOSTUNREACH", "an application's socket error EHOSTUNREACH (No route to host): the neighbour did not answer ARP or NDP, or an ICMP host-unreachable or a firewall's REJECT (icmp-host-prohibited) came back: the path to one host; " + peerNoHostEvidence},
	{"Network is unreachable", "ENETUNREACH", "an application's socket error ENETUNREACH (Network is unreachable): no route toward that network (the routing table, an interface down, IPv6 without a default route): a path of this host's configuration, not a limit; " + peerNoHostEvidence},
}

// errnoByName: the meaning of the errno named c, of either table.
func errnoByName(c string) (errnoReason, bool) {
	return errnoFind(func(e errnoReason) bool { return e.name == c })
}

// errnoByText: the meaning of the errno whose strerror text is en, of either table.
func errnoByText(en string) (errnoReason, bool) {
	return errnoFind(func(e errnoReason) bool { return e.text == en })
}

// errnoFind: the first errno of errnoReasons, then peerErrnoReasons, that match accepts.
func errnoFind(match func(errnoReason) bool) (errnoReason, bool) {
	for _, tab := range [][]errnoReason{errnoReasons, peerErrnoReasons} {
		for _, e := range tab {
			if match(e) {
				return e, true
			}
		}
	}
	return errnoReason{}, false
}

// linuxErrnoNumbers: Linux's numbers (asm-generic/errno-base.h, errno.h) of both tables'
// errnos, as clients print the bare number ("(99)", "system error: 104", Envoy's
// "delayed connect error: 111").
var linuxErrnoNumbers = map[string]string{
	"11": "EAGAIN", "12": "ENOMEM", "23": "ENFILE", "24": "EMFILE", "32": "EPIPE", "98": "EADDRINUSE",
	"99": "EADDRNOTAVAIL", "101": "ENETUNREACH", "104": "ECONNRESET", "105": "ENOBUFS",
	"110": "ETIMEDOUT", "111": "ECONNREFUSED", "113": "EHOSTUNREACH",
}

// errnoOfNumber: the meaning of Linux's errno number n.
func errnoOfNumber(n string) (errnoReason, bool) {
	name, ok := linuxErrnoNumbers[n]
	if !ok {
		return errnoReason{}, false
	}
	return errnoByName(name)
}

// socketErrnoLine says why t is an application's record of a socket errno in one of the
// wrappings above.
func socketErrnoLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes || len(t) < 8 || socketErrnoNotRecord(t) {
		return "", false
	}
	if why, ok := socketErrnoWrapped(t); ok {
		return why, true
	}
	if hasDigit(t) {
		if why, ok := errnoTableLine(t, peerErrnoReasons); ok && !conditionLead(t) {
			return why, true
		}
	}
	return "", false
}

// socketErrnoNotRecord: t is no record of an error: source code that prints the message (a
// printf or Go format verb, Python's "{}"), or a question ("Do you get ECONNRESET on port
// 443?": a log line does not end in a question mark).
func socketErrnoNotRecord(t string) bool {
	return formatString(t) || strings.Contains(t, "%v") || strings.Contains(t, "{}") ||
		strings.HasSuffix(strings.TrimRight(t, " \t`*_"), "?")
}

// socketErrnoWrapped: the wrappings errnoTableLine does not read, each from its program's
// source; the head before the error must not be advice or a condition.
func socketErrnoWrapped(t string) (string, bool) {
	e, k, ok := socketErrnoForm(t)
	if !ok || conditionLead(t[:k]) {
		return "", false
	}
	return e.why, true
}

// socketErrnoForm finds one wrapping in t: the errno it names and where the wrapping starts.
func socketErrnoForm(t string) (errnoReason, int, bool) {
	// libpq (fe-connect.c, fe-secure.c): "could not connect to server: %s" (before 14),
	// "could not receive data from server: %s", "could not send data to server: %s",
	// "could not create socket: %s", strerror's text right after.
	for _, p := range []string{"could not connect to server: ", "could not receive data from server: ", "could not send data to server: ", "could not create socket: "} {
		if k := strings.Index(t, p); k >= 0 {
			if e, ok := errnoTextStart(t[k+len(p):]); ok {
				return e, k, true
			}
		}
	}
	// MySQL's client (libmysql/errmsg.cc): CR_CONN_HOST_ERROR "Can't connect to MySQL server
	// on '%-.100s:%u' (%d)", CR_CONNECTION_ERROR "Can't connect to local MySQL server through
	// socket '%-.100s' (%d)", CR_SERVER_LOST_EXTENDED "Lost connection to MySQL server at
	// '%s', system error: %d": the errno as a bare number.
	for _, p := range []string{"Can't connect to MySQL server on '", "Can't connect to local MySQL server through socket '"} {
		if k := strings.Index(t, p); k >= 0 {
			rest := t[k+len(p):]
			if q := strings.Index(rest, "' ("); q >= 0 {
				n, _, _ := strings.Cut(rest[q+len("' ("):], ")")
				if e, ok := errnoOfNumber(n); ok {
					return e, k, true
				}
			}
		}
	}
	if k := strings.Index(t, "Lost connection to MySQL server at '"); k >= 0 {
		if j := strings.Index(t[k:], "', system error: "); j >= 0 {
			if e, ok := errnoOfNumber(leadingDigits(t[k+j+len("', system error: "):])); ok {
				return e, k, true
			}
		}
	}
	// Envoy (source/common/network/connection_impl.cc): a connect's failure as the access
	// log's and the 503 body's "transport failure reason: delayed connect error: 111" (the
	// errno's number; newer Envoys print its text, which errnoTableLine reads).
	if k := strings.Index(t, "delayed connect error: "); k >= 0 {
		if e, ok := errnoOfNumber(leadingDigits(t[k+len("delayed connect error: "):])); ok {
			return e, k, true
		}
	}
	// Python's exception repr in a chain (requests, urllib3, aiohttp):
	// "ConnectionResetError(104, 'Connection reset by peer')" (OSError's repr: the class,
	// the errno's number and strerror's text in quotes).
	if k := strings.Index(t, "Error("); k > 0 {
		rest := t[k+len("Error("):]
		n := leadingDigits(rest)
		if n != "" && strings.HasPrefix(rest[len(n):], ", '") {
			txt, _, _ := strings.Cut(rest[len(n)+len(", '"):], "'")
			if e, ok := errnoByText(txt); ok {
				return e, k, true
			}
		}
	}
	// Ruby (error.c, the Errno module's classes): "Errno::ECONNRESET: Connection reset by
	// peer", the message strerror's text and " - socket(2)" or " - connect(2) for ...".
	if k := strings.Index(t, "Errno::E"); k >= 0 {
		name := t[k+len("Errno::"):]
		if j := strings.IndexAny(name, ": "); j > 0 {
			if e, ok := errnoByName(name[:j]); ok && strings.HasPrefix(name[j:], ": "+e.text) {
				return e, k, true
			}
		}
	}
	// Java: the JDK's own text for ECONNRESET on a read, "java.net.SocketException:
	// Connection reset" (NioSocketImpl, SocketInputStream before 13), and the errno's text
	// after a class ("java.io.IOException: Connection reset by peer", "Broken pipe (Write
	// failed)", "ConnectException: Connection refused (Connection refused)"); netty's native
	// transport "Errors$NativeIoException: readAddress(..) failed: Connection reset by peer"
	// (netty_unix_errors.c: the call, "(..) failed: ", strerror).
	if x := strings.Index(t, "Exception: "); x >= 0 {
		msg := t[x+len("Exception: "):]
		if r, ok := strings.CutPrefix(strings.TrimRight(msg, " \t"), "Connection reset"); ok && (r == "" || strings.HasPrefix(r, " (")) {
			e, _ := errnoByName("ECONNRESET")
			return e, x, true
		}
		if e, ok := errnoTextStart(msg); ok {
			return e, x, true
		}
		if j := strings.Index(msg, "(..) failed: "); j >= 0 {
			if e, ok := errnoTextStart(msg[j+len("(..) failed: "):]); ok {
				return e, x, true
			}
		}
	}
	// PHP's socket streams (main/streams/xp_socket.c, main/network.c): "stream_socket_client():
	// unable to connect to tcp://HOST:PORT (Connection refused)", fsockopen's likewise.
	if k := strings.Index(t, "unable to connect to "); k >= 0 {
		if j := strings.Index(t[k:], " ("); j >= 0 {
			txt, _, _ := strings.Cut(t[k+j+2:], ")")
			if e, ok := errnoByText(txt); ok {
				return e, k, true
			}
		}
	}
	// HAProxy's connect to a server (src/proto_tcp.c tcp_connect_server, proto_uxst.c):
	// "Connect() failed for backend %s: %s." with "no free ports" (EAGAIN or EADDRNOTAVAIL),
	// "local address already in use" (EADDRINUSE), or for a unix socket "can't connect to
	// destination unix socket, check backlog size on the server" (EAGAIN: the server's
	// backlog full); newer releases add " (strerror)".
	if k := strings.Index(t, "Connect() failed for backend "); k >= 0 {
		rest := t[k+len("Connect() failed for backend "):]
		if j := strings.Index(rest, ": "); j > 0 {
			switch msg := rest[j+2:]; {
			case strings.HasPrefix(msg, "no free ports"):
				return errnoReason{why: haproxyNoFreePortsWhy}, k, true
			case strings.HasPrefix(msg, "local address already in use"):
				e, _ := errnoByName("EADDRINUSE")
				return e, k, true
			case strings.HasPrefix(msg, "can't connect to destination unix socket"):
				return errnoReason{why: haproxyUnixBacklogWhy}, k, true
			}
		}
	}
	// HAProxy (src/listener.c, src/proto_tcp.c): "Starting frontend NAME: cannot bind socket
	// (Address already in use) [0.0.0.0:80]".
	if k := strings.Index(t, "cannot bind socket ("); k >= 0 {
		txt, _, _ := strings.Cut(t[k+len("cannot bind socket ("):], ")")
		if e, ok := errnoByText(txt); ok {
			return e, k, true
		}
	}
	// curl's exit codes (lib/strerror.c curl_easy_strerror) through the tool's "curl: (%d)
	// %s": a connect that failed (7), timed out (28), a send or receive that failed (55,
	// 56), an empty reply (52); curl 8 prints "Couldn't connect to server" instead of the
	// errno, whose text, when printed, errnoTableLine reads first.
	if k := strings.Index(t, "curl: ("); k >= 0 {
		code := leadingDigits(t[k+len("curl: ("):])
		if why, ok := curlExitWhy[code]; ok && strings.HasPrefix(t[k+len("curl: (")+len(code):], ") ") {
			if e, _, ok := errnoTableAny(t[k:]); ok {
				return e, k, true
			}
			return errnoReason{why: why}, k, true
		}
	}
	return errnoReason{}, 0, false
}

const (
	haproxyNoFreePortsWhy = "HAProxy's connect to a server failed EADDRNOTAVAIL or EAGAIN (src/proto_tcp.c tcp_connect_server: \"Connect() failed for backend NAME: no free ports.\"): no free local port toward that server, every port of net.ipv4.ip_local_port_range (or the server's \"source\" port range) in use or in TIME_WAIT: ephemeral ports of this host, not memory or a queue; headroom has no rule for port exhaustion (`ss -s`, `ss -tan state time-wait | wc -l` would size it)"
	haproxyUnixBacklogWhy = "HAProxy's connect to a server's unix socket failed EAGAIN (src/proto_uxst.c: \"can't connect to destination unix socket, check backlog size on the server\"): the server's listen backlog on that socket was full (its listen() backlog, capped by net.core.somaxconn): the server's accept queue, not memory; headroom has no reader for this log"
)

// curlExitWhy: curl's connection exit codes, read when the errno is not printed.
var curlExitWhy = map[string]string{
	"7":  "curl's exit code 7 (CURLE_COULDNT_CONNECT, \"Failed to connect to HOST port N ...: Couldn't connect to server\"): the TCP connect failed and curl 8 leaves the errno out (refused, unreachable, or no free local port: `curl -v` prints it); one connection's failure, " + peerNoHostEvidence,
	"28": "curl's exit code 28 (CURLE_OPERATION_TIMEDOUT): the connect or the transfer passed curl's timeout (--connect-timeout, --max-time) or the kernel's SYN retries: the path or the peer was slow or silent; " + peerNoHostEvidence,
	"52": "curl's exit code 52 (CURLE_GOT_NOTHING, \"Empty reply from server\"): the server closed the connection without an answer: the peer's decision; " + peerNoHostEvidence,
	"55": "curl's exit code 55 (CURLE_SEND_ERROR, \"Send failure\"): a send on the connection failed (the peer reset or closed it: the errno follows when printed); " + peerNoHostEvidence,
	"56": "curl's exit code 56 (CURLE_RECV_ERROR, \"Recv failure\"): a receive on the connection failed (the peer reset or closed it: the errno follows when printed); " + peerNoHostEvidence,
}

// errnoTableAny: the first errno text of either table in s after ": ".
func errnoTableAny(s string) (errnoReason, int, bool) {
	for _, tab := range [][]errnoReason{errnoReasons, peerErrnoReasons} {
		for _, e := range tab {
			if k := strings.Index(s, ": "+e.text); k >= 0 {
				return e, k, true
			}
		}
	}
	return errnoReason{}, 0, false
}

// errnoTextStart: s starts with one of both tables' strerror texts, ending there (the line's
// end, punctuation, a parenthesis or a space before more words).
func errnoTextStart(s string) (errnoReason, bool) {
	for _, tab := range [][]errnoReason{errnoReasons, peerErrnoReasons} {
		for _, e := range tab {
			if !strings.HasPrefix(s, e.text) {
				continue
			}
			rest := s[len(e.text):]
			if rest == "" || strings.IndexByte(" \t;:,.()'\"", rest[0]) >= 0 {
				if strings.HasPrefix(rest, " in system") && e.name == "EMFILE" {
					continue // ENFILE's text holds EMFILE's
				}
				return e, true
			}
		}
	}
	return errnoReason{}, false
}
