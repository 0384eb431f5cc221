package artifact

import (
	"strings"
)

// EMQX's own lines about one client connection (fix17b, round 12's g63): its congestion
// alarm and the shutdown of a connection process by its own limits. Each is the broker's
// word about one connection's Erlang process and socket, not a kernel record:
//   - emqx_congestion.erl raises the alarm "connection congested: ~0p" (named
//     "conn_congestion/<clientid>/<username>", cleared by emqx_alarm's alarm_is_deactivated)
//     when inet's send_pend for the socket is above 0: bytes the Erlang port holds because
//     the socket's send buffer toward that one peer is full. Its details are an Erlang map
//     (#{send_pend => 53,sndbuf => 46080,recbuf => 131072, ...}): the socket's counters
//     (inet:getstat), its options (inet:getopts, sndbuf and recbuf as the kernel granted
//     them for that socket) and the process's mailbox and memory. One slow or lossy peer,
//     no host counter and no memory shortage.
//   - the force_shutdown policy (emqx_misc/emqx_utils check_oom) ends a connection process
//     whose mailbox or heap passed force_shutdown.max_mailbox_size / max_heap_size: the
//     reason message_queue_too_long (mailbox_overflow since 5.6) or proc_heap_too_large,
//     logged as "check_oom_shutdown" and by esockd's connection supervisor as
//     "errorContext: connection_shutdown, reason: #{max => M,reason => R,value => V}".
//     An Erlang process's own limit (its name says "oom"), not the kernel's OOM killer.
//
// The lines are named as unread, so a text of only them runs; their integers are kept as
// program figures (KindProgramLimit), which no rule reads.

const maxBrokerLineBytes = 8192

const (
	emqxCongestionWhy = "EMQX's own connection congestion alarm (emqx_congestion: \"connection congested: #{...}\", raised while inet's send_pend for one client's socket is above 0, cleared as alarm_is_deactivated): bytes waiting for one peer's socket to drain; the sndbuf and recbuf in it are that socket's options, the rest its counters and its Erlang process's mailbox: one client's link, not the host's memory, no kernel counter; headroom has no reader for this log"
	emqxShutdownWhy   = "EMQX ended a connection process by its own force_shutdown limit (check_oom: the process's mailbox past force_shutdown.max_mailbox_size, \"message_queue_too_long\"/\"mailbox_overflow\", or its heap past max_heap_size, \"proc_heap_too_large\"; esockd's connection supervisor reports it as connection_shutdown): a subscriber or client that does not keep up, an Erlang process's limit, not the kernel's OOM killer or socket memory; headroom has no reader for this log"
	esockdShutdownWhy = "esockd's connection supervisor reports a connection process that ended (\"errorContext: connection_shutdown\", the reason in it is EMQX's): one client connection of the broker, no kernel counter; headroom has no reader for this log"
)

// brokerConnWhy says why t is one of EMQX's connection lines above.
func brokerConnWhy(t string) (string, bool) {
	if len(t) > maxBrokerLineBytes || strings.IndexByte(t, '_') < 0 && !strings.Contains(t, "congested") {
		return "", false
	}
	if formatString(t) {
		return "", false // emqx_congestion's format "connection congested: ~0p" quoted
	}
	if k := strings.Index(t, "connection congested: "); k >= 0 {
		rest := t[k+len("connection congested: "):]
		if strings.HasPrefix(rest, "#{") || strings.Contains(rest, "send_pend") {
			return emqxCongestionWhy, true
		}
	}
	if strings.Contains(t, "conn_congestion/") && strings.Contains(t, "alarm_is_") {
		return emqxCongestionWhy, true // the alarm's name as emqx_alarm logs it (de)activated
	}
	if strings.Contains(t, "check_oom_shutdown") && (strings.Contains(t, "shutdown: #{") || strings.Contains(t, `"shutdown":{`)) {
		return emqxShutdownWhy, true // the record with its figures, not a guide naming it
	}
	if strings.Contains(t, "errorContext: connection_shutdown") {
		for _, r := range []string{"message_queue_too_long", "mailbox_overflow", "proc_heap_too_large"} {
			if strings.Contains(t, r) {
				return emqxShutdownWhy, true
			}
		}
		if strings.Contains(t, "esockd_connection_sup") {
			return esockdShutdownWhy, true
		}
	}
	return "", false
}

// brokerFigures keeps the integers of an Erlang map that line i (named by brokerConnWhy)
// prints ("send_pend => 53,sndbuf => 46080"), by their keys, as program figures.
func (d *doc) brokerFigures(i int) {
	t := d.ls[i].Text
	if d.programFigureCount >= maxProgramFigureArtifacts || !strings.Contains(t, " => ") {
		return
	}
	if _, ok := brokerConnWhy(t); !ok {
		return
	}
	data := map[string]any{"program": "emqx"}
	n := 0
	for rest := t; n < 32; {
		k := strings.Index(rest, " => ")
		if k < 0 {
			break
		}
		name := erlangKeyBefore(rest[:k])
		rest = rest[k+len(" => "):]
		v := leadingDigits(rest)
		if name == "" || v == "" || len(v) > 18 || len(v) < len(rest) && isNameByte(rest[len(v)]) {
			continue // a binary, an atom or a map as the value; a number cut where the line is
		}
		if len(v) == len(rest) || strings.HasPrefix(rest[len(v):], "...") || strings.HasPrefix(rest[len(v):], "\"...") {
			break // the number ends the line or the logger's cut ("recv_oct => 87\"...>>"): cut short
		}
		x, _ := atoi(v)
		data[name] = x
		n++
	}
	if n == 0 {
		return
	}
	data["message"] = clip(strings.TrimSpace(t), 120)
	d.programFigureCount++
	d.addArtifact(KindProgramLimit, d.ls[i].No, d.ls[i].No, data)
}

// erlangKeyBefore: the atom that ends s ("#{buffer", ",sndbuf"), or "".
func erlangKeyBefore(s string) string {
	j := len(s)
	for j > 0 && (s[j-1] >= 'a' && s[j-1] <= 'z' || s[j-1] >= '0' && s[j-1] <= '9' || s[j-1] == '_') {
		j--
	}
	if j == len(s) || j > 0 && s[j-1] != '{' && s[j-1] != ',' && s[j-1] != ' ' {
		return ""
	}
	return s[j:]
}
