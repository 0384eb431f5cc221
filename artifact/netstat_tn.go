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

// netstatTableAt parses a netstat -t table whose header is ls[i].
func netstatTableAt(ls []Line, i int) (*SocketTable, int, []model.Unparsed) {
	tb := &SocketTable{Tool: "netstat", Sockets: []kernel.Socket{}}
	var bad []model.Unparsed
	k := i + 1
	for ; k < len(ls); k++ {
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
		}
		tb.Sockets = append(tb.Sockets, s)
	}
	tb.Summary = summarize(tb.Sockets)
	return tb, k - i, bad
}
