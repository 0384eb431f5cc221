package diagnose

import (
	"fmt"
	"strings"

	"headroom/model"
)

// A program's own report of a full accept queue (model.ProgramListenFull, fix19a): uWSGI's
// master read its listener's queue and backlog (TCP_INFO) and logged the queue at or past
// the backlog. The kernel drops the handshakes that complete while the queue is full
// (sk_acceptq_is_full, TcpExt ListenOverflows), so listen-overflow fires from the program's
// reading when the kernel's counter is not in the text.

// programListenEvidence says the programs' reports, one evidence line per socket.
func programListenEvidence(tl *model.Timeline) []Evidence {
	var ev []Evidence
	for _, p := range tl.ProgramListenFulls {
		v := fmt.Sprintf("socket %s: %d queued of a backlog of %d", p.Socket, p.Queued, p.Backlog)
		if p.Count > 1 {
			v += fmt.Sprintf(", reported %d times", p.Count)
		}
		ev = append(ev, Evidence{
			What:   fmt.Sprintf("%s's own report that its listening socket's accept queue was full (the program read queue and backlog itself; the kernel's TcpExt ListenOverflows counter is not in the text): %q", p.Program, p.Line),
			Value:  v,
			Source: p.Source,
		})
	}
	return ev
}

// programListenAdvice: the program's own backlog setting, which the kernel caps at
// net.core.somaxconn (__sys_listen, net/socket.c).
func programListenAdvice(tl *model.Timeline) string {
	var progs []string
	seen := map[string]bool{}
	for _, p := range tl.ProgramListenFulls {
		if seen[p.Program] {
			continue
		}
		seen[p.Program] = true
		switch p.Program {
		case "uwsgi":
			progs = append(progs, "uWSGI's --listen (listen = N in its ini; default 100; it refuses to start when the value exceeds net.core.somaxconn)")
		default:
			progs = append(progs, p.Program+"'s listen backlog setting")
		}
	}
	if len(progs) == 0 {
		return ""
	}
	for _, b := range tl.ProgramBacklogs {
		progs = append(progs, fmt.Sprintf("the text sets %s's %s to %d, %s", b.Program, b.Setting, b.Value, b.Source))
	}
	return " The program reported the queue full itself: raise its backlog (" + strings.Join(progs, "; ") +
		") together with net.core.somaxconn, which caps it, and check why its workers accept slowly " +
		"(all busy on slow requests, stalled, too few); `ss -lnt` (Recv-Q against Send-Q) and " +
		"`nstat -az TcpExtListenOverflows` would show the kernel's side."
}
