package artifact

import "strings"

// A program's own report that its TCP connection was closed by the other end (fix36d): the
// OpenSSH client's "Read from remote host HOST: Connection reset by peer" (packet.c
// sshpkt_fatal, before 7.x's "Connection reset by HOST port N") and "client_loop: send
// disconnect: Broken pipe" (clientloop.c), borg's "Connection to remote host is broken."
// (remote.py ConnectionBrokenWithHint, printed after the ssh lines it relays as "Remote:
// ..."), and a Go program's net.OpError "read tcp LOCAL->REMOTE: read: connection reset by
// peer" / "write tcp LOCAL->REMOTE: write: broken pipe" (net/net.go OpError.Error with
// syscall's ECONNRESET and EPIPE texts). Each says the peer (or a firewall or NAT between
// them, timing an idle connection out) closed one connection: no socket buffer, no memory
// and no counter of the host's; headroom has no rule for a program's broken connection and
// reads nothing from it. Named as unread so a paste of them is not "nothing".
//
// Gate: one of the errno's texts ("onnection reset by peer", "roken pipe") or borg's
// "onnection to remote host is broken" in the line (strings.Index), then the form's fixed
// parts in order. Counter-cases: a sentence that only names the words ("frequent broken
// pipes, connection reset by peer, etc."), a Go dial's error with another errno.

const (
	sshConnResetWhy = "the OpenSSH client's own report that the server end closed its connection (packet.c sshpkt_fatal: \"Read from remote host HOST: Connection reset by peer\"; clientloop.c: \"client_loop: send disconnect: Broken pipe\"): the peer, or a firewall or NAT timing an idle connection out between them (ServerAliveInterval, ClientAliveInterval keep it busy), closed the TCP connection; no socket buffer, memory or counter of the host's; headroom has no rule for a program's broken connection"
	borgBrokenWhy   = "borg's own report that its ssh transport to the repository broke (remote.py ConnectionBrokenWithHint: \"Connection to remote host is broken.\", exit rc 87 in borg 2): the ssh lines it relays say how (a reset by the peer, a broken pipe); no socket buffer, memory or counter of the host's; headroom has no rule for a program's broken connection"
	goConnResetWhy  = "a Go program's TCP read or write failed because the peer closed the connection (net.OpError \"read tcp LOCAL->REMOTE: read: connection reset by peer\", \"write tcp ...: write: broken pipe\": ECONNRESET, EPIPE): the peer, or a firewall or NAT between them, ended that connection; no socket buffer, memory or counter of the host's; headroom has no rule for a program's broken connection"
)

// connResetLine says why t is one of a program's own broken-connection lines.
func connResetLine(t string) (string, bool) {
	if r := strings.Index(t, "onnection reset by peer"); r >= 1 {
		head := t[:r-1]
		if k := strings.Index(head, "Read from remote host "); k >= 0 && strings.HasSuffix(head, ": ") &&
			len(head) > k+len("Read from remote host ")+2 {
			return sshConnResetWhy, true
		}
		if goOpErrorBefore(head, "read") || goOpErrorBefore(head, "write") {
			return goConnResetWhy, true
		}
	}
	if r := strings.Index(t, "roken pipe"); r >= 1 {
		head := t[:r-1]
		if strings.HasSuffix(head, "client_loop: send disconnect: ") {
			return sshConnResetWhy, true
		}
		if goOpErrorBefore(head, "write") {
			return goConnResetWhy, true
		}
	}
	if strings.Contains(t, "Connection to remote host is broken.") {
		return borgBrokenWhy, true
	}
	if why, ok := stratumPoolClosed(t); ok {
		return why, true
	}
	if k := strings.Index(t, "_exchange_identification: "); k >= 3 {
		// fix38c: the OpenSSH client's banner exchange (sshconnect.c, "ssh_" before 8.0,
		// "kex_" since): the server closed or reset the connection before its version line.
		head, rest := t[:k], t[k+len("_exchange_identification: "):]
		if (strings.HasSuffix(head, "ssh") || strings.HasSuffix(head, "kex")) &&
			(strings.HasPrefix(rest, "Connection closed by remote host") || strings.HasPrefix(rest, "read: Connection reset by peer")) {
			return sshBannerClosedWhy, true
		}
	}
	return "", false
}

// sshBannerClosedWhy: fix38c, the OpenSSH client's line when the server ends the connection
// before the SSH banner.
const sshBannerClosedWhy = "the OpenSSH client's own report that the server closed (or reset) the connection before sending its SSH version banner (sshconnect.c: \"ssh_exchange_identification: Connection closed by remote host\", \"kex_\" since 8.0): the TCP connection was accepted and then ended by sshd (its MaxStartups limit on unauthenticated connections, TCP wrappers or a refusing sshd) or by a proxy or tunnel between them; not the kernel's listen queue (no ListenOverflows/ListenDrops counter) and no memory figure; headroom has no rule for sshd's own admission limit"

// goOpErrorBefore: head ends in Go's net.OpError form before the errno's text, "OP tcp
// LOCAL->REMOTE: OP: " (or "OP tcp REMOTE: OP: " for an unbound socket, tcp4/tcp6 alike).
func goOpErrorBefore(head, op string) bool {
	tail := ": " + op + ": "
	if !strings.HasSuffix(head, tail) {
		return false
	}
	addr := head[:len(head)-len(tail)]
	k := strings.LastIndex(addr, op+" tcp")
	if k < 0 || k > 0 && addr[k-1] != ' ' && addr[k-1] != '"' {
		return false
	}
	addr = addr[k+len(op)+len(" tcp"):]
	addr = strings.TrimPrefix(strings.TrimPrefix(addr, "4"), "6")
	if len(addr) < 2 || addr[0] != ' ' {
		return false
	}
	addr = addr[1:]
	// One address or a pair, each HOST:PORT: no spaces, a colon and a port's digits last.
	if strings.IndexByte(addr, ' ') >= 0 {
		return false
	}
	c := strings.LastIndexByte(addr, ':')
	return c > 0 && c < len(addr)-1 && isDigits(addr[c+1:])
}

// fix44b: a mining client's stratum connection to its pool, closed by the pool. XMRig's
// Client::onRead (src/base/net/stratum/Client.cpp) logs "<pool> read error: \"<libuv
// error>\"" when libuv's read callback gets nread < 0 and closes the connection: UV_EOF
// is "end of file" (the pool's orderly FIN), UV_ECONNRESET "connection reset by peer";
// Network::onPause (src/net/Network.cpp) then logs "no active pools, stop mining" until a
// reconnect ("use pool ..."). The pool, or a proxy or NAT between, ended one connection;
// no counter, buffer or memory figure of the host's.
const (
	stratumClosedWhy  = "a mining client's own report that its pool closed the stratum TCP connection (XMRig src/base/net/stratum/Client.cpp onRead: \"<pool> read error: 'end of file'\" is libuv's UV_EOF, the pool's orderly close; \"connection reset by peer\" a reset): the pool, or a proxy or NAT between them, ended one connection and the client reconnects; no socket buffer, memory or counter of the host's; headroom has no rule for a program's closed connection"
	stratumNoPoolsWhy = "a mining client's own notice that no pool connection is up (XMRig src/net/Network.cpp onPause: \"no active pools, stop mining\"): it pauses until it reconnects (\"use pool ...\"); the pool's side or the path to it, no socket buffer, memory or counter of the host's; headroom has no rule for it"
)

// libuvReadErrors: libuv's uv_strerror texts a closed or broken connection gives a read.
var libuvReadErrors = []string{"end of file", "connection reset by peer", "connection aborted", "broken pipe", "operation canceled"}

// stratumPoolClosed: t is XMRig's "<pool> read error: \"<libuv text>\"" (the pool named by
// a stratum URL or HOST:PORT before it) or its "no active pools, stop mining".
func stratumPoolClosed(t string) (string, bool) {
	if strings.Contains(t, "no active pools, stop mining") {
		return stratumNoPoolsWhy, true
	}
	k := strings.Index(t, " read error: \"")
	if k < 1 {
		return "", false
	}
	rest := t[k+len(" read error: \""):]
	ok := false
	for _, e := range libuvReadErrors {
		if strings.HasPrefix(rest, e+"\"") {
			ok = true
			break
		}
	}
	if !ok {
		return "", false
	}
	pool := t[:k]
	if j := strings.LastIndexAny(pool, " `'\t"); j >= 0 {
		pool = pool[j+1:]
	}
	if strings.HasPrefix(pool, "stratum+") || strings.Contains(pool, "://") {
		return stratumClosedWhy, true
	}
	c := strings.LastIndexByte(pool, ':')
	if c > 0 && c < len(pool)-1 && isDigits(pool[c+1:]) {
		return stratumClosedWhy, true
	}
	return "", false
}
