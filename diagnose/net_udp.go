package diagnose

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"headroom/kernel"
	"headroom/model"
	"headroom/plan"
	"headroom/units"
)

// udp-rcvbuf-errors: a UDP datagram arrived for a socket whose receive queue already held
// sk_rcvbuf bytes (charged at skb truesize), so it was dropped
// (__udp_enqueue_schedule_skb → -ENOMEM, counted as Udp RcvbufErrors and InErrors,
// net/ipv4/udp.c); MemErrors counts the same for the global udp_mem limit. SndbufErrors
// counts sends refused for lack of send buffer (-ENOBUFS in udp_sendmsg). UDP has no
// retransmission: every drop is a lost message. The buffer is net.core.rmem_default unless
// the application sets SO_RCVBUF (capped at net.core.rmem_max, and doubled by the kernel).
func init() {
	Register(Rule{
		ID:     "udp-rcvbuf-errors",
		Title:  "UDP datagrams dropped at full socket buffers (RcvbufErrors, SndbufErrors)",
		Family: FamilyNetwork,
		Check: withTraceDrops(checkUDPBufErrors, traceDrops{
			reasons: []string{"SOCKET_RCVBUFF"}, what: "the socket's receive buffer was full",
			sev:   Warning,
			title: "packets dropped at full socket receive buffers (the kernel's reason SOCKET_RCVBUFF)",
			explanation: "A socket's receive queue holds at most its receive buffer (SO_RCVBUF, or net.core.rmem_default), " +
				"charged at skb truesize; when the reader falls behind, each further datagram is dropped " +
				"(__udp_enqueue_schedule_skb, sock_queue_rcv_skb: SKB_DROP_REASON_SOCKET_RCVBUFF) and nothing retransmits it. " +
				"The reader is too slow or the buffer too small for the bursts.",
		}),
	})
}

var udpCounters = []netCounter{
	{Group: "Udp", Name: "RcvbufErrors", Rising: Warning, Meaning: "datagrams dropped: socket receive buffer full"},
	{Group: "Udp", Name: "SndbufErrors", Rising: Warning, Meaning: "sends refused: socket send buffer full"},
	{Group: "Udp", Name: "MemErrors", Rising: Warning, Meaning: "datagrams dropped: udp_mem limit reached"},
	{Group: "Udp6", Name: "Udp6RcvbufErrors", Rising: Warning, Meaning: "IPv6 datagrams dropped: receive buffer full"},
	{Group: "Udp6", Name: "Udp6SndbufErrors", Rising: Warning, Meaning: "IPv6 sends refused: send buffer full"},
	{Group: "UdpLite", Name: "RcvbufErrors", Rising: Warning, Meaning: "UDP-Lite datagrams dropped: receive buffer full"},
}

// udpDropCriticalShare: losing 1% of received datagrams breaks most UDP applications (media,
// DNS under load, QUIC's congestion control reads it as heavy congestion).
const udpDropCriticalShare = 0.01

// udpBurstDrain is how long a UDP receive buffer should cover the link's rate while the reader
// is not scheduled: plan's backlog drain interval.
const udpBurstDrain = plan.BacklogDrainInterval

func checkUDPBufErrors(tl *model.Timeline) Result {
	rs, present := netReadCounters(tl, "/proc/net/snmp", udpCounters)
	if !present {
		if r, ok := udpSocketDrops(tl); ok {
			return r
		}
		if r, ok := udpStated(tl); ok {
			return r
		}
		if r, ok := udpQueueFull(tl); ok {
			return r
		}
		return udpInErrorsOnly(tl)
	}
	in := netGrowth(tl, "/proc/net/snmp", "Udp", "InDatagrams")
	var ev []Evidence
	sev := Severity(-1)
	rcvRising := false
	for _, r := range rs {
		switch {
		case r.rising():
			s := r.Rising
			if strings.HasSuffix(r.Name, "RcvbufErrors") || r.Name == "MemErrors" {
				rcvRising = true
				if in.hasDelta && in.delta+r.delta > 0 && float64(r.delta)/float64(in.delta+r.delta) >= udpDropCriticalShare {
					s = Critical
				}
			}
			sev = max(sev, s)
			v := r.describe()
			if in.hasDelta && in.delta+r.delta > 0 && strings.HasSuffix(r.Name, "RcvbufErrors") {
				v += fmt.Sprintf("; %s of datagrams arriving in the window", netPct(float64(r.delta)/float64(in.delta+r.delta)))
			}
			ev = append(ev, Evidence{What: fmt.Sprintf("%s %s (%s)", r.Group, r.Name, r.Meaning), Value: v, Source: r.source})
		case r.last > 0:
			sev = max(sev, Info)
			ev = append(ev, Evidence{What: fmt.Sprintf("%s %s (%s)", r.Group, r.Name, r.Meaning), Value: r.describe(), Source: r.source})
		}
	}
	if sev < 0 {
		// The receive side is the claim that matters here; Udp6 and UDP-Lite are named only
		// when read (an IPv4-only netstat -su has none).
		return Healthy("%s", netZeroText(rs, udpCounters[:3]))
	}
	for _, k := range []string{"net.core.rmem_default", "net.core.rmem_max", "net.ipv4.udp_mem"} {
		if v, s, ok := tl.Sysctl(k); ok {
			ev = append(ev, Evidence{What: k, Value: v, Source: s})
		}
	}
	f := Finding{
		Severity: sev,
		Title:    "UDP datagrams lost at full socket buffers",
		Evidence: ev,
		Explanation: "A UDP socket's receive queue holds at most its receive buffer (net.core.rmem_default, or " +
			"what the application asked for with SO_RCVBUF up to net.core.rmem_max, doubled by the kernel " +
			"for overhead), charged at skb truesize: a 1500-byte datagram costs about 2 KiB. When the reader " +
			"falls behind by more than that, every further datagram is dropped and counted here; nothing " +
			"retransmits it. Either the reader is too slow (CPU, scheduling, blocking work in the receive " +
			"loop) or the buffer is too small for the bursts: it should cover the arrival rate for the time " +
			"the reader may be descheduled. A larger rmem_max only helps applications that set SO_RCVBUF; " +
			"raising rmem_default raises the buffer of every UDP socket.",
	}
	if rcvRising {
		if c, ok := udpRmemChange(tl); ok {
			f.Changes = append(f.Changes, c)
		}
	}
	return Fired(f)
}

// udpStated judges receive-buffer drops the text states without the counters: a netdata
// alarm on Udp RcvbufErrors quoted in an alert or a title, a rate or a share of datagrams
// the author gives, or the counter said to grow with no figure. Each says that datagrams
// were dropped on this host; a sentence is no counter, so the finding is a warning, never
// critical, even for a stated share above udpDropCriticalShare.
func udpStated(tl *model.Timeline) (Result, bool) {
	s := tl.LastWith(func(s *model.Sample) bool {
		return s.Rates[model.RateStatedUDPRcvbufAlarm] > 0 || s.Rates[model.RateStatedUDPRcvbufPerSec] > 0 ||
			s.Rates[model.RateStatedUDPRcvbufDropPct] > 0 || s.Rates[model.RateStatedUDPRcvbufRising] > 0 ||
			s.Rates[model.RateStatedUDPSkmemDrops] > 0 || s.Rates[model.RateStatedUDPSndbufRising] > 0 ||
			s.Rates[model.RateStatedUDPSocketDrops] > 0 || s.Rates[model.RateStatedUDPRcvbufObtained] > 0 ||
			s.Rates[model.RateStatedUDPDropwatchDrops] > 0 || s.Rates[model.RateStatedUDPLossCuredByRcvbuf] > 0
	})
	if s == nil {
		return Result{}, false
	}
	var ev []Evidence
	if n := s.Rates[model.RateStatedUDPRcvbufAlarm]; n > 1 {
		ev = append(ev, Evidence{What: "Udp RcvbufErrors (netdata's 1m_ipv4_udp_receive_buffer_errors alarm)", Value: fmt.Sprintf("%.0f in the last minute", n), Source: s.Source})
	} else if n > 0 {
		ev = append(ev, Evidence{What: "Udp RcvbufErrors (netdata's 1m_ipv4_udp_receive_buffer_errors alarm)", Value: "the alarm fired: errors counted in the last minute (the count is not in the text)", Source: s.Source})
	}
	if r := s.Rates[model.RateStatedUDPRcvbufPerSec]; r > 0 {
		ev = append(ev, Evidence{What: "Udp RcvbufErrors rate", Value: fmt.Sprintf("%.0f/s", r), Source: s.Source})
	}
	if p := s.Rates[model.RateStatedUDPRcvbufDropPct]; p > 0 {
		// The author's measured share: at or above udpDropCriticalShare it would be critical
		// from the counters; from a sentence it stays a warning (StatedMark).
		ev = append(ev, Evidence{What: "UDP datagrams dropped at full receive buffers (share the text states)", Value: fmt.Sprintf("%s of the datagrams", strconv.FormatFloat(p, 'f', -1, 64)+"%"), Source: s.Source})
	}
	if n := s.Rates[model.RateStatedUDPSkmemDrops]; n > 0 {
		ev = append(ev, Evidence{What: "a UDP socket's drops (ss -m skmem d, sk_drops, as the text quotes it)", Value: fmt.Sprintf("%.0f datagrams dropped at its receive buffer", n), Source: s.Source})
	}
	if n := s.Rates[model.RateStatedUDPDropwatchDrops]; n > 0 {
		ev = append(ev, Evidence{What: "drops dropwatch counted at the UDP socket queue (udp_queue_rcv_skb: the receive queue was full, where Udp RcvbufErrors is charged)", Value: fmt.Sprintf("%.0f datagrams in the session's window", n), Source: s.Source})
	}
	if len(ev) == 0 && s.Rates[model.RateStatedUDPLossCuredByRcvbuf] > 0 {
		ev = append(ev, Evidence{What: "UDP datagrams lost on this host (the text says a larger socket receive buffer, net.core.rmem_default/rmem_max or SO_RCVBUF, cured the loss)",
			Value: "the loss is stated, with its cure; no counter is given", Source: s.Source})
	}
	if len(ev) == 0 && s.Rates[model.RateStatedUDPRcvbufRising] > 0 {
		ev = append(ev, Evidence{What: "Udp RcvbufErrors", Value: "the text states that the counter grew; no value is given", Source: s.Source})
	}
	if n := s.Rates[model.RateStatedUDPSendENOBUFS]; n > 0 {
		// A program's own record of the errno (artifact/rcvbufcapped.go noteUDPSendENOBUFS):
		// udp_sendmsg counts each -ENOBUFS it returns in SndbufErrors (net/ipv4/udp.c).
		ev = append(ev, Evidence{What: "UDP sends refused with ENOBUFS (the program's own log; udp_sendmsg counts each in Udp SndbufErrors)", Value: fmt.Sprintf("%.0f records in the text", n), Source: s.Source})
	} else if s.Rates[model.RateStatedUDPSndbufRising] > 0 {
		// udp_sendmsg counts it when the send fails with ENOBUFS (net/ipv4/udp.c
		// udp_send_skb): a full socket send buffer, or a device queue that dropped it.
		ev = append(ev, Evidence{What: "Udp SndbufErrors (netstat -su \"send buffer errors\")", Value: "the text states that the counter grew; no value is given", Source: s.Source})
	}
	if s.Rates[model.RateStatedUDPSocketDrops] > 0 {
		ev = append(ev, Evidence{What: "UDP sockets' drops (/proc/net/udp drops column, sk_drops)", Value: "the text states that they grew; no value is given", Source: s.Source})
	}
	if got := s.Rates[model.RateStatedUDPRcvbufObtained]; got > 0 {
		// A log receiver's warning (artifact/rcvbufcapped.go): the kernel capped its
		// SO_RCVBUF at net.core.rmem_max; no drop count is in it.
		req := s.Rates[model.RateStatedUDPRcvbufRequested]
		ev = append(ev, Evidence{What: "a UDP receiver's socket receive buffer, capped below its request (SO_RCVBUF is capped at net.core.rmem_max, then doubled)",
			Value: fmt.Sprintf("requested %s, obtained %s; the drops themselves (Udp RcvbufErrors) are not in the text", units.FormatBytes(int64(req)), units.FormatBytes(int64(got))), Source: s.Source})
	}
	if len(ev) == 1 && s.Rates[model.RateStatedUDPSndbufRising] > 0 {
		return Fired(udpSendRefused(tl, ev)), true
	}
	title := "UDP datagrams lost at full socket buffers"
	if len(ev) == 1 && s.Rates[model.RateStatedUDPRcvbufObtained] > 0 {
		title = "a UDP receiver's socket buffer capped below its request: bursts overflow it"
	}
	for _, k := range []string{"net.core.rmem_default", "net.core.rmem_max", "net.ipv4.udp_mem"} {
		if v, src, ok := tl.Sysctl(k); ok {
			ev = append(ev, Evidence{What: k, Value: v, Source: src})
		}
	}
	return Fired(Finding{
		Severity: Warning,
		Title:    title,
		Evidence: ev,
		Explanation: "Udp RcvbufErrors counts datagrams dropped because the socket's receive queue already held its " +
			"receive buffer (SO_RCVBUF or net.core.rmem_default, charged at skb truesize; __udp_enqueue_schedule_skb, " +
			"net/ipv4/udp.c); nothing retransmits them. SndbufErrors counts sends refused with ENOBUFS (udp_send_skb: a full " +
			"socket send buffer or a device queue that dropped the datagram), the /proc/net/udp drops column each " +
			"socket's own losses (sk_drops). A receiver that got less SO_RCVBUF than it asked for was capped at " +
			"net.core.rmem_max (net/core/sock.c sk_setsockopt): raise rmem_max to at least the request. The text states " +
			"the counter rose or the buffer was capped; the counters " +
			"themselves (`nstat -az UdpRcvbufErrors UdpInDatagrams`, twice, a few seconds apart) tell what share of " +
			"the datagrams was lost, and `ss -uamn` which socket holds a full queue.",
	}), true
}

// udpSendRefused: the text states only the send side, Udp SndbufErrors grown or a program's
// sends refused with ENOBUFS. udp_sendmsg returns it when the socket's send buffer is full
// (sk_sndbuf, SO_SNDBUF or net.core.wmem_default), when a qdisc or the device's queue dropped
// the datagram (NET_XMIT_DROP made -ENOBUFS by net_xmit_errno, seen by a socket with
// IP_RECVERR) or when the skb could not be allocated. No receive buffer is at fault, so the
// finding proposes none and names the send side's settings and where to look.
func udpSendRefused(tl *model.Timeline, ev []Evidence) Finding {
	for _, k := range []string{"net.core.wmem_default", "net.core.wmem_max", "net.ipv4.udp_mem"} {
		if v, src, ok := tl.Sysctl(k); ok {
			ev = append(ev, Evidence{What: k, Value: v, Source: src})
		}
	}
	return Finding{
		Severity: Warning,
		Title:    "UDP sends refused with ENOBUFS: datagrams dropped on the send path",
		Evidence: ev,
		Explanation: "udp_sendmsg counts Udp SndbufErrors for every send it fails with ENOBUFS (net/ipv4/udp.c): the " +
			"socket's send buffer was full (SO_SNDBUF, or net.core.wmem_default; capped at net.core.wmem_max), a qdisc " +
			"or the device's transmit queue dropped the datagram (NET_XMIT_DROP returned as -ENOBUFS to a socket with " +
			"IP_RECVERR, as OpenVPN sets it: the interface's txqueuelen, a shaper's limit), or the kernel could not " +
			"allocate the skb, which leaves a \"page allocation failure\" in the kernel log. Each datagram is lost: " +
			"a tunnel or log forwarder drops what it carries. A larger receive buffer does not help. `tc -s qdisc show " +
			"dev IF` (dropped, overlimits) names a queue that drops, `ip -s link` the device's TX drops, and " +
			"`nstat -az UdpSndbufErrors` twice, a few seconds apart, how fast the counter grows.",
	}
}

// udpSocketDrops judges a pasted /proc/net/udp table when the Udp counters are not in the
// input: its last column is each socket's sk_drops since the socket was created
// (net/ipv4/udp.c udp4_format_sock), datagrams that socket lost, a full receive buffer
// above all (__udp_enqueue_schedule_skb). How many arrived is not in the table, so the
// share is unknown: a warning. The receive queue (rx_queue, bytes at truesize) shows
// whether the socket is full now, i.e. its reader is not draining it.
func udpSocketDrops(tl *model.Timeline) (Result, bool) {
	if len(tl.UDPSockets) == 0 {
		return Result{}, false
	}
	t := tl.UDPSockets[len(tl.UDPSockets)-1]
	var worst *kernel.UDPSocketRow
	n, dropping, hasDrops := 0, 0, false
	for i := range t.Rows {
		r := &t.Rows[i]
		n++
		if !r.HasDrops {
			continue
		}
		hasDrops = true
		if r.Drops > 0 {
			dropping++
			if worst == nil || r.Drops > worst.Drops {
				worst = r
			}
		}
	}
	if !hasDrops {
		return Result{}, false
	}
	if worst == nil {
		return Healthy("%d UDP sockets in /proc/net/udp (%s), none has dropped a datagram", n, t.Source), true
	}
	v := fmt.Sprintf("%d datagrams dropped since the socket was created; %s queued to be read (rx_queue)", worst.Drops, units.FormatBytes(worst.RxQueue))
	ev := []Evidence{{What: fmt.Sprintf("UDP socket on local port %d (inode %d)", worst.LocalPort, worst.Inode), Value: v, Source: t.Source}}
	if dropping > 1 {
		ev = append(ev, Evidence{What: "other sockets dropping", Value: fmt.Sprintf("%d of %d sockets have dropped datagrams", dropping-1, n-1), Source: t.Source})
	}
	for _, k := range []string{"net.core.rmem_default", "net.core.rmem_max"} {
		if v, src, ok := tl.Sysctl(k); ok {
			ev = append(ev, Evidence{What: k, Value: v, Source: src})
		}
	}
	return Fired(Finding{
		Severity: Warning,
		Title:    fmt.Sprintf("a UDP socket (port %d) dropped datagrams at its receive buffer", worst.LocalPort),
		Evidence: ev,
		Explanation: "The drops column of /proc/net/udp is the socket's sk_drops: datagrams that arrived for it and were " +
			"dropped, almost always because its receive queue already held its receive buffer (SO_RCVBUF or " +
			"net.core.rmem_default, charged at skb truesize; __udp_enqueue_schedule_skb, net/ipv4/udp.c), the same " +
			"drops Udp RcvbufErrors counts host-wide. Nothing retransmits them. A receive queue that stays at its " +
			"buffer means the reader does not keep up: a larger buffer only absorbs bursts, it does not make a slow " +
			"reader faster. The table does not say how many datagrams arrived, so the share lost is unknown " +
			"(`nstat -az UdpInDatagrams UdpRcvbufErrors` twice, a few seconds apart).",
	}), true
}

// udpRmemChange raises net.core.rmem_max to cover the links' rate for udpBurstDrain at
// truesize (2048 bytes per full-size datagram), or doubles it when no link speed is known.
func udpRmemChange(tl *model.Timeline) (model.Change, bool) {
	curStr, _, ok := tl.Sysctl("net.core.rmem_max")
	if !ok {
		return model.Change{}, false
	}
	cur, err := strconv.ParseInt(strings.TrimSpace(curStr), 10, 64)
	if err != nil {
		return model.Change{}, false
	}
	rec := cur * 2
	why := "double the ceiling applications may ask for with SO_RCVBUF"
	if bw, bwSrc := netLinkBitsPerSec(tl); bw > 0 {
		bufBytes, _ := plan.RxBufferBytes(1500, 4096)
		pkts := plan.PacketsPerSec(bw, 1500) * udpBurstDrain.Seconds()
		want := int64(math.Ceil(pkts)) * bufBytes
		want = (want + 4095) / 4096 * 4096
		if want > cur {
			rec = want
			why = fmt.Sprintf("%s (%s) for %v at %d bytes of truesize per datagram = %s; applications must ask for it with SO_RCVBUF", netBits(bw), bwSrc, udpBurstDrain, bufBytes, units.FormatBytes(want))
		}
	}
	if rec <= cur {
		return model.Change{}, false
	}
	return model.Change{Kind: model.ChangeSysctl, Key: "net.core.rmem_max", Current: curStr, Recommended: strconv.FormatInt(rec, 10), Why: why}, true
}

// udpInErrorsOnly judges an input that has Udp InErrors but not RcvbufErrors: netstat -su
// before net-tools 1.60's 2012 releases printed only "packet receive errors", which counts
// full receive buffers together with checksum and header errors (UDP_MIB_INERRORS is bumped
// for each, net/ipv4/udp.c). It is reported as info: the share is an upper bound.
func udpInErrorsOnly(tl *model.Timeline) Result {
	s := tl.LastWith(func(s *model.Sample) bool { _, ok := s.NetStat.Get("Udp", "InErrors"); return ok })
	if s == nil {
		return NotChecked("no Udp RcvbufErrors/SndbufErrors: needs /proc/net/snmp, netstat -su or nstat")
	}
	inErr, _ := s.NetStat.Get("Udp", "InErrors")
	if inErr == 0 {
		return Healthy("Udp InErrors is 0 (the input has no RcvbufErrors; InErrors includes them)")
	}
	src := sampleSource(s, "/proc/net/snmp")
	v := fmt.Sprintf("%d %s", inErr, netGrowth(tl, "/proc/net/snmp", "Udp", "InErrors").since())
	if in, ok := s.NetStat.Get("Udp", "InDatagrams"); ok && in+inErr > 0 {
		v += fmt.Sprintf(" = %s of datagrams arriving", netPct(float64(inErr)/float64(in+inErr)))
	}
	return Fired(Finding{
		Severity: Info,
		Title:    "UDP receive errors (full socket buffers among them; this output does not split them out)",
		Evidence: []Evidence{
			{What: "Udp InErrors (packet receive errors)", Value: v, Source: src},
			{What: "Udp RcvbufErrors", Value: "not in the input: this netstat prints only the total; `nstat -az UdpRcvbufErrors` or /proc/net/snmp on the host tells how many were full buffers", Source: src},
		},
		Explanation: "InErrors counts every datagram UDP dropped on receive: full socket receive buffers (RcvbufErrors, " +
			"the usual cause under load), bad checksums and malformed headers. A large share points to a reader " +
			"that cannot keep up or a buffer too small for the bursts; the split needs RcvbufErrors.",
	})
}
