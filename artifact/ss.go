package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// Socket tables:
//
//	netstat -tn[po] (net-tools): "Proto Recv-Q Send-Q Local Address Foreign Address State [PID/Program name] [Timer]"
//	  rows "tcp 0 82389 host:44803 peer:20003 ESTABLISHED 1234/java off (0.00/0/0)"
//	ss -t[n][m][i][p] (iproute2): "State Recv-Q Send-Q Local Address:Port Peer Address:Port [Process]"
//	  (with -a/-u a leading "Netid" column), rows "ESTAB 0 0 10.0.0.1:22 10.0.0.2:5555 users:((...))",
//	  detail lines indented below a row: "skmem:(r0,rb369280,t0,tb87040,f0,w0,o0,bl0,d0)" (-m,
//	  SK_MEMINFO_* in bytes, include/uapi/linux/sock_diag.h) and "cubic wscale:7,7 rto:204 rtt:0.5/0.25 ..." (-i).
//	ss -s: "Total: 190 (kernel 0)", "TCP:   7 (estab 2, closed 0, orphaned 0, synrecv 0, timewait 0/0), ports 0"
//	  (orphaned and timewait come from /proc/net/sockstat's TCP orphan and tw).
//
// Recv-Q and Send-Q of a connected TCP socket are bytes not yet read by the application and
// bytes not yet acknowledged by the peer (tcp_diag / netstat read them from the same fields).

// SocketTable is one parsed socket table.
type SocketTable struct {
	Tool    string                `json:"tool"` // "netstat" or "ss"
	Sockets []kernel.Socket       `json:"sockets"`
	Summary *kernel.SocketSummary `json:"summary"`
	Elided  int                   `json:"elided_rows,omitempty"` // "..." rows in the paste
	Label   string                `json:"label,omitempty"`
	Note    string                `json:"note,omitempty"`
	// Details are each ss socket's detail words as numbers, index-aligned with Sockets
	// (nil for a socket without them): every "key:number" of ss -i/-m/-e ("mss:1320",
	// "rcv_space:3058440", "busy:24ms", "rtt:34.249/16.545" as rtt and rtt_var, skmem's
	// r/rb/t/tb/f/w/o/bl/d as skmem_rb...), as iproute2's misc/ss.c tcp_show_info prints them.
	Details []map[string]float64 `json:"details,omitempty"`
}

// detail reads one detail line of socket idx: into its kernel.Socket (addSSDetail) and its
// Details words.
func (tb *SocketTable) detail(idx int, t string) {
	addSSDetail(&tb.Sockets[idx], t)
	w := ssDetailWords(t)
	if len(w) == 0 {
		return
	}
	for len(tb.Details) <= idx {
		tb.Details = append(tb.Details, nil)
	}
	if tb.Details[idx] == nil {
		tb.Details[idx] = map[string]float64{}
	}
	for k, v := range w {
		tb.Details[idx][k] = v
	}
}

// ssDetailWords reads the "key:number" words of an ss detail line.
func ssDetailWords(t string) map[string]float64 {
	out := map[string]float64{}
	for _, f := range fields(t) {
		k, v, ok := strings.Cut(f, ":")
		if !ok || k == "" || v == "" {
			continue
		}
		if k == "skmem" {
			for _, kv := range strings.Split(strings.Trim(v, "()"), ",") {
				i := 0
				for i < len(kv) && (kv[i] < '0' || kv[i] > '9') {
					i++
				}
				if n, ok := atoi(kv[i:]); ok && i > 0 {
					out["skmem_"+kv[:i]] = float64(n)
				}
			}
			continue
		}
		a, b, slash := strings.Cut(v, "/")
		a = strings.TrimSuffix(a, "ms")
		if a == "" || a[0] < '0' || a[0] > '9' {
			continue
		}
		if n, err := strconv.ParseFloat(a, 64); err == nil {
			out[k] = n
		}
		if slash && b != "" && b[0] >= '0' && b[0] <= '9' {
			if n, err := strconv.ParseFloat(b, 64); err == nil {
				out[k+"_var"] = n
			}
		}
	}
	return out
}

// isSSDetailLine: a detail line that a terminal or mail client wrapped to column 0 ("cubic
// wscale:7,6 rto:236 ...", "bytes_received:211495680 segs_out:46198 ...", "rcv_space:3058440
// minrtt:23.34"): its first word is one of ss's detail words or a key:value word.
func isSSDetailLine(fs []string) bool {
	if len(fs) == 0 || isSSState(fs[0]) {
		return false
	}
	switch fs[0] {
	case "cubic", "bbr", "reno", "dctcp", "ts", "sack", "ecn", "send", "pacing_rate", "delivery_rate", "app_limited", "lastsnd", "timer":
		return true
	}
	k, v, ok := strings.Cut(fs[0], ":")
	return ok && k != "" && v != "" && !strings.ContainsAny(k, "[.") && (v[0] >= '0' && v[0] <= '9' || v[0] == '(')
}

var ssStates = map[string]string{
	"ESTAB": "ESTABLISHED", "SYN-SENT": "SYN_SENT", "SYN-RECV": "SYN_RECV", "FIN-WAIT-1": "FIN_WAIT1",
	"FIN-WAIT-2": "FIN_WAIT2", "TIME-WAIT": "TIME_WAIT", "CLOSE-WAIT": "CLOSE_WAIT", "LAST-ACK": "LAST_ACK",
	"LISTEN": "LISTEN", "CLOSING": "CLOSING", "UNCONN": "UNCONN", "CLOSED": "CLOSE", "UNKNOWN": "UNKNOWN",
	"SYN_RECV": "SYN_RECV", "SYN_SENT": "SYN_SENT", "ESTABLISHED": "ESTABLISHED", "FIN_WAIT1": "FIN_WAIT1",
	"FIN_WAIT2": "FIN_WAIT2", "TIME_WAIT": "TIME_WAIT", "CLOSE_WAIT": "CLOSE_WAIT", "LAST_ACK": "LAST_ACK",
	"CLOSE": "CLOSE",
}

// isSSHeader matches ss's header; with a state filter ("ss -t state established") ss
// leaves out the State column and the header starts with Recv-Q.
func isSSHeader(t string) bool {
	s := strings.TrimSpace(t)
	return (strings.HasPrefix(s, "State") || strings.HasPrefix(s, "Netid") || strings.HasPrefix(s, "Recv-Q")) &&
		strings.Contains(s, "Recv-Q") && strings.Contains(s, "Send-Q") && (strings.Contains(s, "Peer") || ssHeaderCutAfterLocal(s))
}

// ssHeaderCutAfterLocal: a header that ends at "Local Address:Port" (g265's slskd 1800: "State
// Recv-Q Send-Q Local Address:Port" over "LISTEN 4097 4096 0.0.0.0:<listen_port>"): the
// reporter kept the columns up to the local address, so every row ends there too.
func ssHeaderCutAfterLocal(s string) bool {
	return strings.HasSuffix(s, "Local Address:Port") || strings.HasSuffix(s, "Local Address")
}

// ssLocalColumn: a local address with its port, a listener's "*", or the port a reporter
// replaced by a placeholder in angle brackets ("0.0.0.0:<listen_port>").
func ssLocalColumn(a string) bool {
	i := strings.LastIndexByte(a, ':')
	if i <= 0 {
		return false
	}
	port := a[i+1:]
	return isDigits(port) || port == "*" || len(port) > 2 && port[0] == '<' && port[len(port)-1] == '>'
}

func isElision(fs []string) bool {
	return len(fs) > 0 && strings.HasPrefix(fs[0], "...")
}

func summarize(ss []kernel.Socket) *kernel.SocketSummary {
	sum := &kernel.SocketSummary{ByState: map[string]kernel.SocketStateTotal{}}
	for _, s := range ss {
		sum.Total++
		st := s.State
		if st == "" {
			st = "UNKNOWN"
		}
		t := sum.ByState[st]
		t.Count++
		t.RecvQ += s.RecvQ
		t.SendQ += s.SendQ
		if s.Mem != nil {
			t.MemBytes += s.Mem.RmemAlloc + s.Mem.WmemQueued + s.Mem.FwdAlloc + s.Mem.Optmem + s.Mem.Backlog
		}
		sum.ByState[st] = t
	}
	return sum
}

var reSkmem = lazyre.New(`skmem:\(([^)]*)\)`)

// ssTableAt parses an ss table whose header is ls[i], or, headerless, whose first row is
// (`ss -tn | grep :8080` keeps the rows and drops the header).
func ssTableAt(ls []Line, i int, headerless bool) (*SocketTable, int, []model.Unparsed) {
	var hdr []string
	k := i
	if !headerless {
		hdr = fields(ls[i].Text)
		k = i + 1
	}
	netid := len(hdr) > 0 && hdr[0] == "Netid"
	noState := len(hdr) > 0 && hdr[0] == "Recv-Q"
	peerless := !headerless && ssHeaderCutAfterLocal(strings.TrimSpace(ls[i].Text))
	tb := &SocketTable{Tool: "ss", Sockets: []kernel.Socket{}}
	if headerless {
		tb.Note = "rows without ss's header (filtered by grep?): columns taken as State Recv-Q Send-Q Local Peer"
	}
	var bad []model.Unparsed
	rowLead := 0 // the indentation of the table's rows (the last row read)
	for ; k < len(ls); k++ {
		t := ls[k].Text
		fs := fields(t)
		if len(fs) == 0 {
			break
		}
		if isElision(fs) {
			tb.Elided++
			continue
		}
		// A detail line (ss -i, -m, -e) is indented under its row: past the row's own
		// indentation when the whole paste is indented (a mail's two spaces, corpus 7068,
		// where the next command's "# nstat ..." line is no detail).
		lead := len(t) - len(strings.TrimLeft(t, " \t"))
		indented := lead > rowLead
		if noState {
			if indented && len(tb.Sockets) > 0 || !isDigits(fs[0]) {
				if len(tb.Sockets) > 0 {
					tb.detail(len(tb.Sockets)-1, strings.TrimSpace(t))
					continue
				}
				break
			}
			if len(fs) < 4 {
				break
			}
			rq, _ := atoi(fs[0])
			sq, _ := atoi(fs[1])
			s := kernel.Socket{Family: "inet", RecvQ: rq, SendQ: sq, Local: fs[2], Remote: fs[3]}
			tb.Sockets = append(tb.Sockets, s)
			rowLead = lead
			continue
		}
		if len(tb.Sockets) > 0 && !isSSState(fs[0]) && !(netid && len(fs) > 1 && isSSState(fs[1])) && (indented || isSSDetailLine(fs)) {
			tb.detail(len(tb.Sockets)-1, strings.TrimSpace(t))
			continue
		}
		off := 0
		family := "inet"
		if netid {
			if len(fs) < 5 {
				break
			}
			if strings.Contains(fs[0], "6") {
				family = "inet6"
			}
			off = 1
		}
		cut := len(fs) == off+4 && (peerless && ssLocalColumn(fs[off+3]) || ssRowCutAfterLocal(ls, k, fs[off:]))
		if len(fs) < off+5 && !cut || !isSSState(fs[off]) {
			break
		}
		rq, ok1 := atoi(fs[off+1])
		sq, ok2 := atoi(fs[off+2])
		if !ok1 || !ok2 {
			bad = append(bad, model.Unparsed{FirstLine: ls[k].No, LastLine: ls[k].No, Why: "ss row with non-numeric Recv-Q or Send-Q"})
			continue
		}
		remote := ""
		if !cut {
			remote = fs[off+4]
		} else if peerless {
			tb.Note = "the header and its rows end at the local address (the peer column was not kept): read as State Recv-Q Send-Q Local"
		} else {
			tb.Note = joinNote(tb.Note, "the last row is cut after its local address (no peer column): read as State Recv-Q Send-Q Local")
		}
		s := kernel.Socket{Family: family, State: ssStates[fs[off]], RecvQ: rq, SendQ: sq, Local: fs[off+3], Remote: remote}
		if netid {
			s.Netid = fs[0]
		}
		if strings.HasPrefix(s.Local, "[") || strings.Count(s.Local, ":") > 1 {
			s.Family = "inet6"
		}
		tb.Sockets = append(tb.Sockets, s)
		rowLead = lead
		if cut {
			continue
		}
		if rest := strings.Join(fs[off+5:], " "); rest != "" {
			tb.detail(len(tb.Sockets)-1, rest)
		}
	}
	tb.Summary = summarize(tb.Sockets)
	return tb, k - i, bad
}

// ssRowCutAfterLocal: a row of four columns from the state on ("LISTEN 80001 80000
// 0.0.0.0:443"), the table's last line, is ss's row cut after the local address: a paste or
// a copy that lost the end of a very wide line (ss pads each column to the terminal's
// width). No ss row ends at the local address otherwise (the peer column always prints, "*"
// or "0.0.0.0:*" for a listener), so only the last row may be cut, and only when its queues
// are numbers and its local column an address with a port.
func ssRowCutAfterLocal(ls []Line, k int, fs []string) bool {
	if len(fs) != 4 || !isDigits(fs[1]) || !isDigits(fs[2]) {
		return false
	}
	if !ssLocalColumn(fs[3]) {
		return false
	}
	return k+1 >= len(ls) || len(fields(ls[k+1].Text)) == 0
}

// joinNote appends a note to a table's note.
func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// isSSRow: "FIN-WAIT-1 0 966799 127.0.0.1:46394 127.0.0.1:8080 ...", a row of ss -tn
// without its header.
func isSSRow(t string) bool {
	fs := fields(t)
	return len(fs) >= 5 && isSSState(fs[0]) && isDigits(fs[1]) && isDigits(fs[2]) &&
		strings.Contains(fs[3], ":") && strings.Contains(fs[4], ":")
}

func isSSState(s string) bool { _, ok := ssStates[s]; return ok && strings.ToUpper(s) == s }

// addSSDetail reads skmem:(...) and the tcp_info words of ss -m / -i into a socket.
func addSSDetail(s *kernel.Socket, t string) {
	if m := reSkmem.FindStringSubmatch(t); m != nil {
		mem := &kernel.SKMemInfo{}
		for _, kv := range strings.Split(m[1], ",") {
			i := 0
			for i < len(kv) && (kv[i] < '0' || kv[i] > '9') {
				i++
			}
			v, _ := strconv.ParseInt(kv[i:], 10, 64)
			switch kv[:i] {
			case "r":
				mem.RmemAlloc = v
			case "rb":
				mem.Rcvbuf = v
			case "t":
				mem.WmemAlloc = v
			case "tb":
				mem.Sndbuf = v
			case "f":
				mem.FwdAlloc = v
			case "w":
				mem.WmemQueued = v
			case "o":
				mem.Optmem = v
			case "bl":
				mem.Backlog = v
			case "d":
				mem.Drops = v
			}
		}
		s.Mem = mem
	}
	// tcp_info words, on any line: a wrapped paste puts bytes_received or rcv_space on a
	// line with no rto, cwnd or rtt.
	if !strings.Contains(t, "rto:") && !strings.Contains(t, "cwnd:") && !strings.Contains(t, "rtt:") &&
		!strings.Contains(t, "bytes_") && !strings.Contains(t, "rcv_space:") && !strings.Contains(t, "notsent:") &&
		!strings.Contains(t, "mss:") && !strings.Contains(t, "retrans:") {
		return
	}
	if s.Info == nil {
		s.Info = &kernel.TCPInfo{}
	}
	in := s.Info
	for _, f := range fields(t) {
		k, v, ok := strings.Cut(f, ":")
		if !ok {
			continue
		}
		num := func(x string) int64 { n, _ := strconv.ParseInt(x, 10, 64); return n }
		ms := func(x string) int64 { f, _ := strconv.ParseFloat(x, 64); return int64(f * 1000) }
		switch k {
		case "rto":
			in.RTOUsec = ms(v)
		case "rtt":
			a, b, _ := strings.Cut(v, "/")
			in.RTTUsec, in.RTTVarUsec = ms(a), ms(b)
		case "mss":
			in.SndMSS = num(v)
		case "rcvmss":
			in.RcvMSS = num(v)
		case "cwnd":
			in.SndCwnd = num(v)
		case "bytes_acked":
			in.BytesAcked = num(v)
		case "bytes_received":
			in.BytesReceived = num(v)
		case "rcv_space":
			in.RcvSpace = num(v)
		case "notsent":
			in.NotsentBytes = num(v)
		case "retrans":
			_, tot, _ := strings.Cut(v, "/")
			in.TotalRetrans = num(tot)
		}
	}
}

// ParseSocketTable parses a netstat -t or ss -t table.
func ParseSocketTable(text string) (*SocketTable, error) {
	ls := SplitLines(text)
	for i := range ls {
		if isNetstatHeader(ls[i].Text) {
			if tb, n, _ := netstatTableAt(ls, i, false); n > 0 {
				return tb, nil
			}
		}
		if isSSHeader(ls[i].Text) || isSSRow(ls[i].Text) {
			if tb, n, _ := ssTableAt(ls, i, !isSSHeader(ls[i].Text)); n > 0 {
				return tb, nil
			}
		}
	}
	return nil, fmt.Errorf("artifact: no netstat or ss socket table in the text")
}

func (d *doc) trySockets(i int) int {
	t := d.ls[i].Text
	var tb *SocketTable
	var n int
	var bad []model.Unparsed
	switch {
	case isNetstatHeader(t):
		tb, n, bad = netstatTableAt(d.ls, i, false)
	case isNetstatRow(t):
		tb, n, bad = netstatTableAt(d.ls, i, true)
	case isSSHeader(t):
		tb, n, bad = ssTableAt(d.ls, i, false)
	case isSSRow(t):
		tb, n, bad = ssTableAt(d.ls, i, true)
	default:
		return 0
	}
	d.tl.Unparsed = append(d.tl.Unparsed, bad...)
	if n == 0 {
		return 0
	}
	tb.Label = d.label(i)
	first, last := d.ls[i].No, d.ls[i+n-1].No
	d.segSeq++
	d.addSamples(KindSockets, tb.Label, first, last, []model.Sample{{Source: spanSource(first, last), SocketList: tb.Sockets, Sockets: tb.Summary}})
	d.addArtifact(KindSockets, first, last, tb)
	return n
}

// SSSummary is `ss -s`.
type SSSummary struct {
	Total     int64              `json:"total"`
	TCP       map[string]int64   `json:"tcp"`
	Transport map[string][]int64 `json:"transport,omitempty"`
}

// Older ss prints "synrecv N, timewait N/N), ports N"; newer (iproute2 5.x+) only
// "(estab N, closed N, orphaned N, timewait N)".
var reSSTCP = lazyre.New(`^TCP:\s+(\d+) \((.*)\)`)

func (d *doc) trySSSummary(i int) int {
	t := strings.TrimSpace(d.ls[i].Text)
	if !strings.HasPrefix(t, "Total:") || i+1 >= len(d.ls) || !strings.HasPrefix(strings.TrimSpace(d.ls[i+1].Text), "TCP:") {
		return 0
	}
	sum := SSSummary{TCP: map[string]int64{}, Transport: map[string][]int64{}}
	sum.Total, _ = atoi(firstField(strings.TrimPrefix(t, "Total:")))
	k := i + 1
	for ; k < len(d.ls); k++ {
		s := strings.TrimSpace(d.ls[k].Text)
		if s == "" {
			if k+1 < len(d.ls) && strings.HasPrefix(strings.TrimSpace(d.ls[k+1].Text), "Transport") {
				continue
			}
			break
		}
		if m := reSSTCP.FindStringSubmatch(s); m != nil {
			sum.TCP["total"], _ = strconv.ParseInt(m[1], 10, 64)
			for _, part := range strings.Split(m[2], ",") {
				f := fields(part)
				if len(f) != 2 {
					continue
				}
				v, _, _ := strings.Cut(f[1], "/")
				if n, ok := atoi(v); ok {
					sum.TCP[f[0]] = n
				}
			}
			continue
		}
		fs := fields(s)
		if len(fs) >= 2 && (fs[0] == "Transport" || strings.HasPrefix(fs[0], "TCP") || strings.HasPrefix(fs[0], "UDP") ||
			fs[0] == "RAW" || fs[0] == "INET" || fs[0] == "FRAG" || fs[0] == "*") {
			if fs[0] == "Transport" || strings.HasSuffix(fs[0], ":") {
				continue
			}
			var vals []int64
			for _, f := range fs[1:] {
				v, ok := atoi(f)
				if !ok {
					v = -1 // ss prints "-" for not applicable
				}
				vals = append(vals, v)
			}
			sum.Transport[fs[0]] = vals
			continue
		}
		break
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	s := model.Sample{Source: spanSource(first, last)}
	if len(sum.TCP) > 0 {
		var c kernel.Counters
		c.Set("orphan", sum.TCP["orphaned"])
		c.Set("tw", sum.TCP["timewait"])
		s.SockStat = kernel.Groups{{Name: "TCP", Counters: c}}
		s.Sockets = &kernel.SocketSummary{Total: sum.TCP["total"], ByState: map[string]kernel.SocketStateTotal{
			"ESTABLISHED": {Count: sum.TCP["estab"]}, "SYN_RECV": {Count: sum.TCP["synrecv"]}, "TIME_WAIT": {Count: sum.TCP["timewait"]}}, CountsOnly: true}
	}
	d.segSeq++
	d.addSamples(KindSSSummary, d.label(i), first, last, []model.Sample{s})
	d.addArtifact(KindSSSummary, first, last, sum)
	return k - i
}
