package kernel

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// FreeBSD's record of a full listen queue (fix55b). sonewconn (sys/kern/uipc_socket.c) makes
// the socket of each connection a listener takes in; when the listener's queue already holds
// more than one and a half times its limit (`over = sol_qlen > 3 * sol_qlimit / 2`; so_qlen
// and so_qlimit before 12.0) it refuses the connection (the handshake is dropped, the client
// retransmits) and logs, at most once a minute (ratecheck, overinterval 60 s):
//
//	sonewconn: pcb %p: Listen queue overflow: %i already in queue awaiting acceptance (%d occurrences)
//
// 12.0 and later name the listener ("sonewconn: pcb %p (%s): ..." with "0.0.0.0:443 (proto
// 6)") and, with credentials, append ", euid %d, rgid %d, jail %s"; before 10.x the message
// had no "(N occurrences)". The occurrences are the connections refused since the last line
// (overcount). The queue's limit is the listen() backlog capped by kern.ipc.soacceptqueue
// (kern.ipc.somaxconn before 10.0; default 128), and `netstat -Lan` prints each listener's
// qlen/incqlen/maxqlen. Linux drops the same handshakes silently (TcpExt ListenOverflows).
//
// MsgBSDListenOverflow: the message's words; a record is FreeBSD's when it has both.
var MsgBSDListenOverflow = []string{"sonewconn", "Listen queue overflow: "}

// BSDListenOverflow is one sonewconn record as read.
type BSDListenOverflow struct {
	Listener    string // "0.0.0.0:443" when printed (12.0+), "" otherwise
	Queued      int64  // connections in the queue awaiting accept()
	Occurrences int64  // connections refused since the last record; -1 when not printed
}

var reBSDListenOverflow = lazyre.New(`sonewconn: pcb 0x[0-9a-fA-F]+(?: \(([^ ()]+)(?: \(proto \d+\))?\))?: Listen queue overflow: (\d+) already in\s+queue(?:\s+awaiting\s+acceptance\s+\((\d+) occurrences\))?`)

// ParseBSDListenOverflow reads FreeBSD's sonewconn record in msg; ok is false when msg holds
// none.
func ParseBSDListenOverflow(msg string) (r BSDListenOverflow, ok bool) {
	if !strings.Contains(msg, "sonewconn") {
		return r, false
	}
	m := reBSDListenOverflow.FindStringSubmatch(msg)
	if m == nil {
		return r, false
	}
	r.Listener = m[1]
	r.Queued, _ = strconv.ParseInt(m[2], 10, 64)
	r.Occurrences = -1
	if m[3] != "" {
		r.Occurrences, _ = strconv.ParseInt(m[3], 10, 64)
	}
	return r, true
}

// BSDListenLimit is the listen queue's limit (sol_qlimit) for which a queue of queued is the
// first sonewconn refuses: the smallest limit L with queued > 3*L/2 is the limit exactly when
// the queue stopped growing there, as it does (sonewconn refuses every further connection),
// so queued-1 == 3*L/2. ok is false for a count no limit gives (queued 0, or 3*L/2 skipping
// queued-1), e.g. a listener whose backlog a later listen() changed.
func BSDListenLimit(queued int64) (limit int64, ok bool) {
	if queued < 1 {
		return 0, false
	}
	l := (2*(queued-1) + 2) / 3 // ceil(2*(queued-1)/3)
	if 3*l/2 != queued-1 {
		return 0, false
	}
	return l, true
}
