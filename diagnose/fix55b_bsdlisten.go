package diagnose

import (
	"fmt"
	"slices"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// FreeBSD's own record of a full listen queue (fix55b; kernel.MsgBSDListenOverflow): sonewconn
// refused connections because the listener's queue held more than 1.5 × its limit. It is the
// drop Linux counts in TcpExt ListenOverflows, logged by the kernel itself, so listen-overflow
// fires from it; the limit is FreeBSD's (the listen() backlog capped by
// kern.ipc.soacceptqueue), so no Linux setting is proposed.

// bsdListenOverflows reads the kernel log's sonewconn records.
func bsdListenOverflows(tl *model.Timeline) (recs []model.LogRecord, parsed []kernel.BSDListenOverflow) {
	for _, r := range logMatches(tl, kernel.MsgBSDListenOverflow[1]) {
		if p, ok := kernel.ParseBSDListenOverflow(r.Message); ok {
			recs = append(recs, r)
			parsed = append(parsed, p)
		}
	}
	return recs, parsed
}

// bsdListenEvidence says the records: how many, the largest queue and the limit it implies,
// and the connections refused that the records count.
func bsdListenEvidence(tl *model.Timeline) []Evidence {
	recs, parsed := bsdListenOverflows(tl)
	if len(recs) == 0 {
		return nil
	}
	queued, refused, counted := int64(0), int64(0), 0
	listeners := map[string]bool{}
	for _, p := range parsed {
		queued = max(queued, p.Queued)
		if p.Occurrences >= 0 {
			refused += p.Occurrences
			counted++
		}
		if p.Listener != "" {
			listeners[p.Listener] = true
		}
	}
	v := fmt.Sprintf("%d record(s), up to %d connections already queued", len(recs), queued)
	if l, ok := kernel.BSDListenLimit(queued); ok {
		v += fmt.Sprintf(" (the first count over 1.5 × a limit of %d)", l)
	}
	if counted > 0 {
		v += fmt.Sprintf("; %d connections refused by the %d record(s) that count them", refused, counted)
	}
	if copies, lines := syslogRepeatsAfter(tl, func(m string) bool { _, ok := kernel.ParseBSDListenOverflow(m); return ok }); lines > 0 {
		v += fmt.Sprintf("; syslogd's %d \"last message repeated\" line(s) after them stand for %d more", lines, copies) // fix56a
	}
	if len(listeners) > 0 {
		names := make([]string, 0, len(listeners))
		for n := range listeners {
			names = append(names, n)
		}
		slices.Sort(names)
		v += "; listener " + strings.Join(names, ", ")
	}
	return []Evidence{{
		What:   "FreeBSD's kernel refused connections at a full listen queue: \"sonewconn: ... Listen queue overflow\" (sys/kern/uipc_socket.c: the queue held more than 1.5 × its limit; one line a minute at most, counting the refusals since the last)",
		Value:  v,
		Source: recs[0].Where(),
	}}
}

// bsdListenAdvice: FreeBSD's own knobs for the queue.
const bsdListenAdvice = " On FreeBSD the queue's limit is the listen() backlog capped by kern.ipc.soacceptqueue " +
	"(kern.ipc.somaxconn before 10.0; default 128) and `netstat -Lan` shows each listener's qlen/incqlen/maxqlen: " +
	"raise both the sysctl and the application's backlog (Apache's ListenBackLog, nginx's listen ... backlog=), " +
	"and check why the application accepts slowly; headroom proposes no Linux setting for it."
