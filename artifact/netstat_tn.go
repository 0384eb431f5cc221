package artifact

import (
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// netstat -tn[po] (net-tools): the socket table, "Proto Recv-Q Send-Q Local Address Foreign
// Address State [PID/Program name] [Timer]" (ss.go holds the table type and ss's own forms).

func isNetstatHeader(t string) bool {
	return strings.HasPrefix(strings.TrimSpace(t), "Proto") && strings.Contains(t, "Recv-Q") && strings.Contains(t, "Send-Q") && strings.Contains(t, "Foreign")
}

// isNetstatRow: a row of netstat -tn[p] without its header (`netstat -np | grep :9000`):
// "tcp 0 0 127.0.0.1:9000 127.0.0.1:45603 TIME_WAIT -", the protocol, two queue numbers and
// two addresses with ports.
func isNetstatRow(t string) bool {
	fs := fields(t)
	if len(fs) < 5 {
		return false
	}
	switch fs[0] {
	case "tcp", "tcp6", "udp", "udp6":
	default:
		return false
	}
	return isDigits(fs[1]) && isDigits(fs[2]) && strings.LastIndexByte(fs[3], ':') > 0 && strings.LastIndexByte(fs[4], ':') > 0
}

// wrappedState: the line after a five-column row that holds only the row's state and what
// follows it ("TIME_WAIT  -", "ESTABLISHED 2212/nginx"): a terminal or a mail client wrapped
// the row after the foreign address.
func wrappedState(ls []Line, k int) (string, bool) {
	if k >= len(ls) {
		return "", false
	}
	fs := fields(ls[k].Text)
	if len(fs) == 0 || len(fs) > 3 {
		return "", false
	}
	st, ok := ssStates[fs[0]]
	return st, ok
}

// netstatTableAt parses a netstat -t table whose header is ls[i], or, headerless, whose first
// row is ls[i]. A row wrapped after its foreign address has its state on the next line.
func netstatTableAt(ls []Line, i int, headerless bool) (*SocketTable, int, []model.Unparsed) {
	tb := &SocketTable{Tool: "netstat", Sockets: []kernel.Socket{}}
	var bad []model.Unparsed
	k := i + 1
	if headerless {
		k = i
		tb.Note = "rows without netstat's header (filtered by grep?): columns taken as Proto Recv-Q Send-Q Local Foreign State"
	}
	for ; k < len(ls); k++ {
		if headerless && !isNetstatRow(ls[k].Text) {
			break
		}
		fs := fields(ls[k].Text)
		if len(fs) == 0 {
			break
		}
		if isElision(fs) {
			tb.Elided++
			continue
		}
		proto := fs[0]
		if !strings.HasPrefix(proto, "tcp") && !strings.HasPrefix(proto, "udp") && !strings.HasPrefix(proto, "raw") {
			break
		}
		if len(fs) < 5 {
			bad = append(bad, model.Unparsed{FirstLine: ls[k].No, LastLine: ls[k].No, Why: "netstat row with fewer than 5 columns"})
			continue
		}
		rq, ok1 := atoi(fs[1])
		sq, ok2 := atoi(fs[2])
		if !ok1 || !ok2 {
			bad = append(bad, model.Unparsed{FirstLine: ls[k].No, LastLine: ls[k].No, Why: "netstat row with non-numeric Recv-Q or Send-Q"})
			continue
		}
		s := kernel.Socket{Family: "inet", Local: fs[3], Remote: fs[4], RecvQ: rq, SendQ: sq}
		if strings.HasSuffix(proto, "6") {
			s.Family = "inet6"
		}
		if len(fs) > 5 {
			if st, ok := ssStates[fs[5]]; ok {
				s.State = st
			}
		} else if st, ok := wrappedState(ls, k+1); ok {
			s.State = st
			k++
		}
		tb.Sockets = append(tb.Sockets, s)
	}
	tb.Summary = summarize(tb.Sockets)
	return tb, k - i, bad
}
