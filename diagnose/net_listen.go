package diagnose

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// listen-overflow: a listening socket's accept queue was full when a handshake completed, so
// the kernel dropped the final ACK (tcp_v4_syn_recv_sock → sk_acceptq_is_full, net/ipv4/
// tcp_ipv4.c: TcpExt ListenOverflows) and the client's connection stalls until it
// retransmits; ListenDrops counts every segment a listener dropped, overflows included
// (tcp_listendrop). The accept queue holds min(listen() backlog, net.core.somaxconn)
// connections (__sys_listen, net/socket.c); somaxconn defaults to 4096 since 5.4 (commit
// 19f92a030ca6, "net: increase SOMAXCONN to 4096") and 128 before. The queue fills when the
// application accepts too slowly (seed 002's forking proxy under 5 × 200 concurrent clients)
// or its backlog is small.
func init() {
	Register(Rule{
		ID:     "listen-overflow",
		Title:  "connections dropped at full listen (accept) queues",
		Family: FamilyNetwork,
		Check:  checkListenOverflow,
	})
}

var listenCounters = []netCounter{
	{Group: "TcpExt", Name: "ListenOverflows", Rising: Warning, Meaning: "accept queue full: completed handshakes dropped"},
	{Group: "TcpExt", Name: "ListenDrops", Rising: Warning, Meaning: "segments dropped at listeners, overflows included"},
	{Group: "TcpExt", Name: "TCPReqQFullDrop", Rising: Warning, Meaning: "SYN queue full, no syncookies: SYNs dropped"},
}

// listenCriticalPerSec: at one dropped handshake a second or more, clients see connect
// delays of a retransmission timeout (1 s initially, RFC 6298) continuously.
const listenCriticalPerSec = 1.0

// listenCriticalShare: at or above the rate, overflows are critical only when they are also
// this share of the handshakes completed in the window (Tcp PassiveOpens, counted in
// tcp_create_openreq_child, plus the overflows, which never made a child socket). On a host
// accepting fifty thousand connections a second one overflow a second is one client in fifty
// thousand waiting a retransmission; at 0.1% the slowest thousandth of connects takes over a
// second. With PassiveOpens unread the rate alone decides, as before.
const listenCriticalShare = 0.001

func checkListenOverflow(tl *model.Timeline) Result {
	rs, present := netReadCounters(tl, "/proc/net/netstat", listenCounters)
	floods := logMatches(tl, kernel.MsgSynFlood...)
	// A record whose port is a placeholder ("port X") is the message's form, not a flood: a
	// KB's list joined to a real record by a wrapped paste (kernel.SynFloodPortPlaceholder).
	// A record with the 4.4+ slab name whose port the reporter redacted is their own
	// (kernel.SynFloodRedacted, fix38a).
	floods = slices.DeleteFunc(floods, func(r model.LogRecord) bool {
		return kernel.SynFloodPortPlaceholder(r.Message) && !kernel.SynFloodRedacted(r.Message)
	})
	synDrops := slices.DeleteFunc(logMatches(tl, kernel.MsgSynDrop...), func(r model.LogRecord) bool { return !kernel.SynDropAddressed(r.Message) })
	full, stalled, listeners, fullSrc := fullAcceptQueues(tl)
	progFull := programListenEvidence(tl)
	bsdFull := bsdListenEvidence(tl)
	cookieEv, cookieSev, cookies := synCookieEvidence(tl)
	if !present && !cookies && len(floods) == 0 && len(synDrops) == 0 && listeners == 0 && len(progFull) == 0 && len(bsdFull) == 0 {
		if r, ok := listenStated(tl); ok {
			return r
		}
		return NotChecked("no TcpExt ListenOverflows/ListenDrops, no \"Possible SYN flooding\" in the kernel log and no listening sockets with their queues: needs /proc/net/netstat, netstat -s, nstat, the kernel log or ss -lnt")
	}
	var ev []Evidence
	sev := Severity(-1)
	if len(full) > 0 {
		sev = Warning
		ev = append(ev, Evidence{What: "listeners whose accept queue is at its backlog now (ss: Recv-Q queued ≥ Send-Q backlog)", Value: strings.Join(full, ", "), Source: fullSrc})
	}
	if len(stalled) > 0 {
		sev = Warning
		ev = append(ev, Evidence{What: fmt.Sprintf("listeners holding %d or more completed connections nobody accept()ed (netstat: Recv-Q is the accept queue; the queue drops handshakes at its backlog + 1)", listenStalledQueue), Value: strings.Join(stalled, ", "), Source: fullSrc})
	}
	if len(progFull) > 0 {
		sev = Warning
		ev = append(ev, progFull...)
	}
	if len(bsdFull) > 0 {
		sev = max(sev, Warning)
		ev = append(ev, bsdFull...)
	}
	if len(floods) > 0 {
		// tcp_syn_flood_action warns once per listener (request_sock_queue.synflood_warned)
		// when its SYN queue is full: the count is of listeners and restarts, not of SYNs,
		// so it gives no rate; a full SYN queue is a warning either way (with cookies the
		// handshake survives but, before 4.x timestamps-encoded options, loses window
		// scaling and SACK; without them the SYN is dropped).
		sev = Warning
		ev = append(ev, Evidence{What: "SYN queues full: \"Possible SYN flooding\" in the kernel log (tcp_syn_flood_action)", Value: synFloodPorts(floods), Source: floods[0].Where()})
	}
	if len(synDrops) > 0 {
		// One rate-limited line per dropped SYN: the count is a floor, and no rate.
		sev = max(sev, Warning)
		ev = append(ev, Evidence{What: "SYNs dropped: \"TCP: drop open request from\" in the kernel log (tcp_v4_conn_request: tcp_syncookies off, the SYN queue in the last quarter of tcp_max_syn_backlog)",
			Value: fmt.Sprintf("%d line(s), first %q", len(synDrops), clipMsg(synDrops[0].Message)), Source: synDrops[0].Where()})
	}
	if cookies {
		sev = max(sev, cookieSev)
		ev = append(ev, cookieEv)
	}
	for _, r := range rs {
		switch {
		case r.rising():
			s := r.Rising
			if netPerSec(r.growth) >= listenCriticalPerSec {
				s = Critical
			}
			ev = append(ev, Evidence{What: fmt.Sprintf("TcpExt %s (%s)", r.Name, r.Meaning), Value: r.describe(), Source: r.source})
			if s == Critical {
				if share, den, ok := netWindowShare(tl, r.growth, "/proc/net/snmp", "Tcp", "PassiveOpens", true); ok && share < listenCriticalShare {
					s = Warning
					ev = append(ev, netBelowShare(share, r.delta, den, "the handshakes completed (Tcp PassiveOpens + "+r.Name+")", listenCriticalShare))
				}
			}
			sev = max(sev, s)
		case r.last > 0:
			sev = max(sev, Info)
			ev = append(ev, Evidence{What: fmt.Sprintf("TcpExt %s (%s)", r.Name, r.Meaning), Value: r.describe(), Source: r.source})
		}
	}
	if sev < 0 {
		if !present {
			return Healthy("%d listening sockets below their backlog; not checked: no TcpExt ListenOverflows/ListenDrops (netstat -s, nstat)", listeners)
		}
		return Healthy("%s", netZeroText(rs, listenCounters[:2]))
	}
	title := "listening sockets dropped connections: accept queues were full"
	// ListenDrops counts every segment a listener dropped (tcp_listendrop: a full SYN queue,
	// a failed child socket, an out-of-memory, a full accept queue); only ListenOverflows says
	// the accept queue was full. With ListenDrops alone, or ListenOverflows read as 0, the
	// finding names the drops, not their cause.
	overflows, overflowsRead, dropsOnly := int64(0), false, true
	for _, r := range rs {
		switch r.Name {
		case "ListenOverflows":
			overflows, overflowsRead = r.last, true
		case "ListenDrops":
		default:
			if r.last > 0 {
				dropsOnly = false
			}
		}
	}
	switch {
	case dropsOnly && len(floods) == 0 && len(full) == 0 && !overflowsRead:
		title = "listening sockets dropped connection attempts (TcpExt ListenDrops; ListenOverflows, which tells a full accept queue apart, is not in the input)"
	case dropsOnly && len(floods) == 0 && len(full) == 0 && overflows == 0:
		title = "listening sockets dropped connection attempts, none for a full accept queue (ListenOverflows 0)"
	}
	switch {
	case cookies && len(ev) == 1:
		title = synCookieTitle
	case len(synDrops) > 0 && len(ev) == 1:
		title = "listening sockets' SYN queues were nearly full with syncookies off: SYNs were dropped (\"TCP: drop open request\")"
	case len(floods) > 0 && len(ev) == 1 && len(full) == 0:
		title = "listening sockets' SYN queues overflowed (\"Possible SYN flooding\"): handshakes fell back to cookies or were dropped"
	case len(full) > 0 && len(ev) == 1:
		title = "listening sockets' accept queues are at their backlog now: the next completed handshakes are dropped"
	case len(stalled) > 0 && len(ev) == 1:
		title = "listening sockets' accept queues hold connections nobody accepts: the application stopped calling accept(), and a full queue drops the next handshakes"
	case len(progFull) > 0 && len(ev) == len(progFull):
		title = "a program reported its listening socket's accept queue full: the kernel drops the handshakes that complete meanwhile"
	case len(bsdFull) > 0 && len(ev) == len(bsdFull):
		title = "FreeBSD's kernel refused connections at a full listen queue (sonewconn: Listen queue overflow)"
	}
	f := Finding{
		Severity: sev,
		Title:    title,
		Evidence: ev,
		Facts:    listenOverflowCount(rs),
		Explanation: "A connection whose handshake completes while its listener's accept queue is full is dropped " +
			"(the client retransmits and waits: 1 s, then 3 s, ...). The queue is min(the application's listen() " +
			"backlog, net.core.somaxconn) long. Raising somaxconn helps only if the application asks for a larger " +
			"backlog (many pass SOMAXCONN or -1, some a fixed 128 or 511); otherwise the application must accept " +
			"faster (more acceptor threads, SO_REUSEPORT) — a forking proxy that forks per connection accepts " +
			"slowest exactly when the box is busiest (the LKML firewall report)." + programListenAdvice(tl),
	}
	if len(bsdFull) > 0 && tl.Host.Kernel == "" && !present {
		// FreeBSD's record with no Linux kernel or counter read: FreeBSD's knobs, no Linux change.
		f.Explanation += bsdListenAdvice
		return Fired(f)
	}
	cur := int64(0)
	curStr := ""
	if v, src, ok := tl.Sysctl("net.core.somaxconn"); ok {
		curStr = strings.TrimSpace(v)
		cur, _ = strconv.ParseInt(curStr, 10, 64)
		f.Evidence = append(f.Evidence, Evidence{What: "net.core.somaxconn", Value: curStr, Source: src})
	}
	// A stalled queue alone (netstat, backlog unknown) is an application that stopped
	// accepting: a longer queue only holds more connections nobody will take.
	onlyStalled := len(stalled) > 0 && len(ev) == 1
	if sev >= Warning && !onlyStalled {
		rec := int64(4096)
		if cur >= 4096 {
			rec = min(cur*2, 65535)
		}
		// ss's Send-Q of a listener is its effective backlog, min(listen() backlog,
		// somaxconn) (__sys_listen): somaxconn is at least the largest shown, so a ceiling
		// at or below it changes nothing (a full queue of 80000 is an application that
		// stopped accepting, not a short ceiling).
		if floor := listenBacklogFloor(tl); floor >= rec {
			rec = cur
		}
		if rec > cur {
			f.Changes = append(f.Changes, model.Change{
				Kind: model.ChangeSysctl, Key: "net.core.somaxconn", Current: curStr, Recommended: strconv.FormatInt(rec, 10),
				Why: "a longer accept-queue ceiling (each queued connection is a full socket, a few KiB); takes effect for listen() calls made after the change, and only up to the backlog the application asks for",
			})
		}
	}
	if len(synDrops) > 0 {
		if len(ev) == 1 {
			// Only the SYN queue is proven full: its own settings come first, somaxconn after.
			f.Changes = append(synDropChanges(tl), f.Changes...)
		} else {
			f.Changes = append(f.Changes, synDropChanges(tl)...)
		}
	}
	return Fired(f)
}

// synDropChanges: the SYN queue's own settings, which "TCP: drop open request" names: the
// queue's length (tcp_max_syn_backlog, also bounded by the listen() backlog) and cookies,
// which answer a full queue instead of dropping.
func synDropChanges(tl *model.Timeline) []model.Change {
	var out []model.Change
	if v, _, ok := tl.Sysctl("net.ipv4.tcp_syncookies"); !ok || strings.TrimSpace(v) == "0" {
		out = append(out, model.Change{Kind: model.ChangeSysctl, Key: "net.ipv4.tcp_syncookies", Current: strings.TrimSpace(v), Recommended: "1",
			Why: "with cookies a full SYN queue answers the SYN statelessly instead of dropping it (the drop needs tcp_syncookies 0); risk: before 4.x a cookie handshake loses window scaling and SACK unless timestamps carry them"})
	}
	curStr, _, _ := tl.Sysctl("net.ipv4.tcp_max_syn_backlog")
	curStr = strings.TrimSpace(curStr)
	cur, _ := strconv.ParseInt(curStr, 10, 64)
	if rec := max(4096, min(cur*2, 65535)); rec > cur {
		out = append(out, model.Change{Kind: model.ChangeSysctl, Key: "net.ipv4.tcp_max_syn_backlog", Current: curStr, Recommended: strconv.FormatInt(rec, 10),
			Why: "the drop happens once the SYN queue holds three quarters of tcp_max_syn_backlog (the listen() backlog bounds the queue too); each queued request is a small request_sock"})
	}
	return out
}

// fullAcceptQueues lists the listening sockets of the last socket table whose accept queue
// holds its backlog or more: for a listener ss shows the queued connections as Recv-Q and the
// backlog as Send-Q (inet_diag: sk_ack_backlog, sk_max_ack_backlog; tcp_diag_get_info), and
// the queue is full when the first passes the second (sk_acceptq_is_full, include/net/sock.h),
// so the next completed handshake is dropped. netstat shows no backlog (Send-Q 0): not judged.
//
// netstat (net-tools) prints a listener from /proc/net/tcp, whose rx_queue is the accept
// queue (sk_ack_backlog) and whose tx_queue is write_seq - snd_una, 0 for a listener
// (get_tcp4_sock, net/ipv4/tcp_ipv4.c): no backlog to compare with. A snapshot whose queue
// holds listenStalledQueue or more completed connections says the application is not calling
// accept(): those are stalled, returned apart from full.
func fullAcceptQueues(tl *model.Timeline) (full, stalled []string, listeners int, src string) {
	tables := netSocketTables(tl)
	for k := len(tables) - 1; k >= 0; k-- {
		t := tables[k]
		for _, r := range t.Rows {
			if netState(r.State) != "LISTEN" {
				continue
			}
			if r.SendQ <= 0 {
				// netstat's form: Recv-Q is the accept queue, no backlog is shown.
				if r.RecvQ >= listenStalledQueue {
					listeners++
					stalled = append(stalled, fmt.Sprintf("%s %d queued (backlog not shown)", r.Local, r.RecvQ))
				}
				continue
			}
			listeners++
			if r.RecvQ >= r.SendQ {
				full = append(full, fmt.Sprintf("%s %d queued of %d", r.Local, r.RecvQ, r.SendQ))
			}
		}
		if listeners > 0 {
			return full, stalled, listeners, t.Source
		}
	}
	return nil, nil, 0, ""
}

// listenBacklogFloor: the largest backlog (ss's Send-Q) of a listener in the socket table
// fullAcceptQueues judges, 0 if none shows one. net.core.somaxconn caps every listen()
// backlog, so it is at least this.
func listenBacklogFloor(tl *model.Timeline) int64 {
	tables := netSocketTables(tl)
	for k := len(tables) - 1; k >= 0; k-- {
		floor := int64(0)
		for _, r := range tables[k].Rows {
			if netState(r.State) == "LISTEN" && r.SendQ > 0 {
				floor = max(floor, r.SendQ)
			}
		}
		if floor > 0 {
			return floor
		}
	}
	return 0
}

// listenStalledQueue: the smallest accept queue a netstat listener row (no backlog shown) is
// judged at. An application that accepts keeps its queue near empty between polls; fifty
// completed connections waiting is the JDK ServerSocket's whole default backlog (50) and half
// of Tomcat's acceptCount (100): accept() has stopped, and once the queue reaches its backlog
// + 1 (sk_acceptq_is_full) every further handshake is dropped.
const listenStalledQueue = 50

// reSynFloodPort reads the port of tcp_syn_flood_action's message.
var reSynFloodPort = lazyre.New(`(?i)SYN flooding on port (\d+)`)

// synFloodPorts says how often each port's listener reported a full SYN queue, and whether
// the kernel sent cookies or dropped.
func synFloodPorts(recs []model.LogRecord) string {
	n := map[string]int{}
	cookies, drops := 0, 0
	for _, r := range recs {
		p := "?"
		if m := reSynFloodPort.FindStringSubmatch(r.Message); m != nil {
			p = m[1]
		}
		n[p]++
		switch {
		case strings.Contains(r.Message, "Sending cookies"):
			cookies++
		case strings.Contains(r.Message, "Dropping request"):
			drops++
		}
	}
	ports := make([]string, 0, len(n))
	for p := range n {
		ports = append(ports, p)
	}
	sort.Slice(ports, func(a, b int) bool {
		return n[ports[a]] > n[ports[b]] || n[ports[a]] == n[ports[b]] && ports[a] < ports[b]
	})
	parts := make([]string, 0, len(ports))
	for _, p := range ports {
		parts = append(parts, fmt.Sprintf("port %s %d×", p, n[p]))
	}
	s := strings.Join(parts, ", ")
	switch {
	case cookies > 0 && drops == 0:
		s += "; SYN cookies sent"
	case drops > 0 && cookies == 0:
		s += "; requests dropped (no syncookies)"
	case drops > 0:
		s += fmt.Sprintf("; %d with cookies, %d dropped", cookies, drops)
	}
	return s
}

// listenStated judges a monitoring agent's listen-queue alarm that the text says fired
// (listenAlarms), when no counter is read; else the facts the text states (listenStatedRising).
func listenStated(tl *model.Timeline) (Result, bool) {
	for _, a := range listenAlarms {
		if s := alarmSample(tl, a.windowKey); s != nil {
			return statedWarning(s, a.title, a.what, alarmValue(s, a.rateKey, a.windowKey, a.windowFmt, a.rate), a.why)
		}
	}
	return listenStatedRising(tl)
}

// listenAlarms are Netdata's listen-queue alarms (artifact/statedalarm.go), each computed
// over a window of its counters' growth, so one that fired says they grew then:
//   - on TcpExt ListenDrops or ListenOverflows (1m_tcp_accept_queue_drops, formerly
//     1m_ipv4_tcp_listen_drops, averages the growth per second over a minute): listeners
//     dropped handshakes. A rate under the rule's line is said with its spacing.
//   - on TcpExt TCPReqQFullDoCookies or TCPReqQFullDrop (1m_tcp_syn_queue_cookies, _drops;
//     fix57a): SYNs that found a listener's SYN queue full (tcp_conn_request,
//     net/ipv4/tcp_input.c: inet_csk_reqsk_queue_is_full, then tcp_syn_flood_action). Netdata
//     PR #7250 (2019) made its lookup "average" of the per-second growth; it was the window's
//     "sum" before, so the value is said as the alarm quotes it.
//
// A statement, no counter: the registry keeps it below critical either way.
var listenAlarms = []struct {
	windowKey, rateKey, windowFmt string
	rate                          func(float64) string
	title, what, why              string
}{
	{model.RateStatedListenAlarmSec, model.RateStatedListenDropsPerSec, ", averaged over the alarm's window of %s",
		func(r float64) string {
			if r < listenCriticalPerSec {
				return fmt.Sprintf("%.3g/s (about one every %.0f s)", r, 1/r)
			}
			return fmt.Sprintf("%.3g/s", r)
		},
		"listening sockets dropped connection attempts (a monitoring alarm on TcpExt ListenDrops/ListenOverflows fired)",
		"TcpExt ListenDrops/ListenOverflows growth (a Netdata listen-queue alarm)",
		"The alarm computes the growth of the kernel's listen-queue counters over its window, so a raised " +
			"alarm says listeners dropped handshakes then (tcp_listendrop, net/ipv4/tcp_ipv4.c; a full accept queue " +
			"counts ListenOverflows too). Whether the accept queue was full, and which listener, needs `nstat -az " +
			"TcpExtListenOverflows TcpExtListenDrops` twice and `ss -lnt` (Recv-Q against Send-Q)."},
	{model.RateStatedSynQueueAlarmSec, model.RateStatedSynQueuePerSec, ", window %s",
		func(r float64) string {
			return fmt.Sprintf("alarm value %.3g (per second averaged over the window in Netdata since 2019, the window's count before)", r)
		},
		"listening sockets' SYN queues were full (a monitoring alarm on TcpExt TCPReqQFullDoCookies/TCPReqQFullDrop fired)",
		"TcpExt TCPReqQFullDoCookies/TCPReqQFullDrop growth (a Netdata SYN-queue alarm)",
		"The alarm computes the growth of the counters the kernel bumps when a SYN finds the listener's " +
			"SYN queue full (tcp_conn_request, net/ipv4/tcp_input.c): answered with a SYN cookie when " +
			"net.ipv4.tcp_syncookies allows, dropped otherwise. The queue's limit is the listener's own backlog " +
			"(min of listen()'s value and net.core.somaxconn, capped by tcp_max_syn_backlog), so raising somaxconn " +
			"alone does not help an application that passes a small backlog. `nstat -az TcpExtTCPReqQFullDoCookies " +
			"TcpExtTCPReqQFullDrop TcpExtListenOverflows` twice and `ss -lnt` say how often and which listener."},
}

// alarmValue says a stated alarm's value (rate says a quoted one) and its window (in
// windowFmt's words), or that it fired with no value.
func alarmValue(s *model.Sample, rateKey, windowKey, windowFmt string, rate func(float64) string) string {
	v := "the alarm fired: the counter grew in its window (the value is not in the text)"
	if r := s.Rates[rateKey]; r > 0 {
		v = rate(r)
	}
	if w := s.Rates[windowKey]; w > 0 {
		v += fmt.Sprintf(windowFmt, alarmWindow(w))
	}
	return v
}

// alarmSample is the last sample holding a stated monitoring alarm's window key.
func alarmSample(tl *model.Timeline, windowKey string) *model.Sample {
	return tl.LastWith(func(s *model.Sample) bool { _, ok := s.Rates.Get(windowKey); return ok })
}

// statedWarning is the warning for what the text states (an alarm that fired, a counter or
// a queue said to grow or fill): a statement, no counter, so never critical.
func statedWarning(s *model.Sample, title, what, value, why string) (Result, bool) {
	return Fired(Finding{
		Severity:    Warning,
		Title:       title,
		Evidence:    []Evidence{{What: what, Value: value, Source: sampleSource(s, "the text")}},
		Explanation: why,
	}), true
}

// listenStatedFlags are the listen-queue facts the text states with no figure, each with its
// warning: a sentence is no counter or table, so no rate or change.
//   - the author states that TcpExt ListenOverflows or ListenDrops grew
//     ("/proc/net/netstatのListenOverflowsやListenDropsの値が増加しています",
//     artifact/statedlisten.go);
//   - a listener's accept queue full by its Recv-Q ("ss -lnt 看到端口9091 Recv-Q达到129
//     超出backlog的值128", "Recv-Q が溜まっており" in a text about somaxconn; fix57a). On a
//     listener Recv-Q is the accept queue and Send-Q its limit, as fullAcceptQueues reads an
//     ss table.
var listenStatedFlags = []struct{ key, title, what, value, why string }{
	{model.RateStatedListenRising,
		"listening sockets dropped connection attempts (the text states that TcpExt ListenOverflows/ListenDrops grew)",
		"TcpExt ListenOverflows/ListenDrops (netstat -s: \"times the listen queue of a socket overflowed\", \"SYNs to LISTEN sockets dropped\")",
		"the text states that the counters grew; no value is given",
		"ListenOverflows counts completed handshakes dropped because the listener's accept queue was full " +
			"(tcp_v4_syn_recv_sock, net/ipv4/tcp_ipv4.c); ListenDrops every segment a listener dropped, overflows included " +
			"(tcp_listendrop). The text says they grew but gives no figure, so how often is unknown: `nstat -az " +
			"TcpExtListenOverflows TcpExtListenDrops` twice, a few seconds apart, gives the rate, and `ss -lnt` (Recv-Q " +
			"against Send-Q) the listener whose queue fills."},
	{model.RateStatedAcceptQueueFull,
		"a listener's accept queue was full (the text states its Recv-Q at its backlog or piled up)",
		"a listening socket's Recv-Q (its accept queue) against its backlog (Send-Q)",
		"the text states the queue full; no ss table is given",
		"On a listening socket ss prints the accept queue's length as Recv-Q and its limit, min(listen()'s " +
			"backlog, net.core.somaxconn), as Send-Q; once the queue reaches the limit the kernel drops completed " +
			"handshakes (sk_acceptq_is_full in tcp_v4_syn_recv_sock, counted in TcpExt ListenOverflows) and clients " +
			"time out or retry. The application does not accept() fast enough, or its backlog is too small: `ss -lnt` " +
			"and `nstat -az TcpExtListenOverflows TcpExtListenDrops` twice say which listener and how often."},
}

// listenStatedRising judges the first of listenStatedFlags the text states.
func listenStatedRising(tl *model.Timeline) (Result, bool) {
	for _, f := range listenStatedFlags {
		if s := tl.LastWith(func(s *model.Sample) bool { return s.Rates[f.key] > 0 }); s != nil {
			return statedWarning(s, f.title, f.what, f.value, f.why)
		}
	}
	return Result{}, false
}

// alarmWindow says a window in seconds as an alarm's name does ("1 minute", "1 hour").
func alarmWindow(sec float64) string {
	switch {
	case sec >= 3600 && int64(sec)%3600 == 0:
		return fmt.Sprintf("%d h", int64(sec)/3600)
	case sec >= 60 && int64(sec)%60 == 0:
		return fmt.Sprintf("%d min", int64(sec)/60)
	}
	return fmt.Sprintf("%.0f s", sec)
}

// listenOverflowCount is the handshakes dropped at a full accept queue that the finding
// counted: ListenOverflows' growth while sampled, else its count since boot; without
// ListenOverflows, ListenDrops', which counts every drop at a listener, overflows among them,
// and so bounds them (7275: 3 drops cannot be the root of 10 million retransmissions).
func listenOverflowCount(rs []netCounterReading) Facts {
	for _, name := range []string{"ListenOverflows", "ListenDrops"} {
		for _, r := range rs {
			switch {
			case r.Name != name:
			case r.rising():
				return Facts{Counted: r.delta}
			case !r.hasDelta && r.last > 0:
				return Facts{Counted: r.last, CountedSinceBoot: true}
			}
		}
	}
	return Facts{}
}
