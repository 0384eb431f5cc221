package diagnose

import (
	"fmt"
	"strings"

	"headroom/model"
)

// SYN cookies sent (fix56a): TcpExt SyncookiesSent ("N SYN cookies sent" in netstat -s) counts
// the SYNs a listener answered with a cookie instead of a SYN-queue entry. With
// net.ipv4.tcp_syncookies 1 (the default) tcp_conn_request sends one only when the listener's
// SYN queue is full (inet_csk_reqsk_queue_is_full → tcp_syn_flood_action → want_cookie), so
// every cookie is a SYN that overflowed the queue: the drop the kernel log's "Possible SYN
// flooding ... Sending cookies" reports once per listener, counted. With tcp_syncookies 2
// cookies are sent for every SYN and say nothing about the queue, so the counter is not read.
// A since-boot count is Info (no rate), growth while sampled a Warning; the share is of Tcp
// PassiveOpens, the handshakes completed (a cookie's ACK completes one too).

// synCookieEvidence: the evidence of SYN cookies sent, its severity, and ok when there is any.
func synCookieEvidence(tl *model.Timeline) (Evidence, Severity, bool) {
	if v, _, ok := tl.Sysctl("net.ipv4.tcp_syncookies"); ok && strings.TrimSpace(v) == "2" {
		return Evidence{}, 0, false
	}
	rs, _ := netReadCounters(tl, "/proc/net/netstat", []netCounter{{Group: "TcpExt", Name: "SyncookiesSent", Rising: Warning,
		Meaning: "SYNs answered with a cookie because the listener's SYN queue was full (tcp_syncookies 1)"}})
	if len(rs) == 0 || rs[0].last <= 0 {
		return Evidence{}, 0, false
	}
	r := rs[0]
	sev, v := Info, r.describe()
	if r.rising() {
		sev = Warning
		if share, den, ok := netWindowShare(tl, r.growth, "/proc/net/snmp", "Tcp", "PassiveOpens", false); ok {
			v += fmt.Sprintf("; %s of the %d passive opens while sampled", netPct(share), den)
		}
	} else if po := netGrowth(tl, "/proc/net/snmp", "Tcp", "PassiveOpens"); po.hasLast && po.last > 0 {
		v += fmt.Sprintf("; %s of the %d passive opens %s", netPct(float64(r.last)/float64(po.last)), po.last, po.since())
	}
	return Evidence{What: fmt.Sprintf("TcpExt %s (%s)", r.Name, r.Meaning), Value: v, Source: r.source}, sev, true
}

// synCookieTitle: the finding's title when SYN cookies are its only evidence.
const synCookieTitle = "listening sockets' SYN queues overflowed: SYNs were answered with cookies (TcpExt SyncookiesSent)"
