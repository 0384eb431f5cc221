package artifact

import "strings"

// A Go program's DNS lookup that timed out (fix35b): net.DNSError wrapping net.OpError,
// "lookup HOST on SERVER:53: read udp LOCAL->SERVER:53: i/o timeout" (net/dnsclient_unix.go,
// net/net.go OpError.Error; "i/o timeout" is poll.ErrDeadlineExceeded's text). The resolver
// named did not answer within the client's deadline (a stub such as 127.0.1.1 whose
// upstream is slow or unreachable): no receive-buffer drop and no figure of the host's
// memory or network counters. Named as unread so a paste of such lines is not "nothing";
// no rule is fed. Gate: "i/o timeout" and "lookup " in the line, then the form's parts in
// order. Counter-cases: a TCP dial's timeout ("dial tcp 10.0.0.1:443: i/o timeout", no
// lookup) and a sentence that only says "i/o timeout".

const goDNSTimeoutWhy = "a Go program's DNS query got no answer in time (net.DNSError \"lookup HOST on SERVER:53: read udp ...: i/o timeout\"): the resolver named did not answer within the client's deadline (a stub resolver, its upstream, or the path to it), not a datagram dropped at a full socket buffer; headroom has no reader for this log and judges nothing from it"

// goDNSTimeoutLine says whether t holds Go's DNS-lookup timeout.
func goDNSTimeoutLine(t string) bool {
	e := strings.Index(t, ": i/o timeout")
	if e < 0 {
		return false
	}
	l := strings.Index(t[:e], "lookup ")
	if l < 0 {
		return false
	}
	rest := t[l:e]
	on := strings.Index(rest, " on ")
	if on < 0 {
		return false
	}
	// "read udp A->B:53" or "dial udp B:53" (or tcp, the resolver's fallback) after the server.
	op := rest[on:]
	return strings.Contains(op, ":53: ") && (strings.Contains(op, "read udp ") || strings.Contains(op, "dial udp ") ||
		strings.Contains(op, "read tcp ") || strings.Contains(op, "dial tcp ") || strings.Contains(op, "write udp "))
}
