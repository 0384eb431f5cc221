package artifact

import "strings"

// A per-stream traffic table of a load tester or media tool (fix25b, round 20's g95, corpus
// 2189: an SFU load test's box-drawing rows "│ Sub 325 │ TR_… │ audio │ 11278 │ 7.2kbps │
// 121 (1.061%) │" and its "Total │ 1500/1500 │ 10.4mbps (20.9kbps avg) │ 235025 (1.29%) │"):
// each row a stream's bitrate and a count with its share, the packets the receiving client
// found missing. That is loss on the whole path as the application counts it (RTP sequence
// gaps), no kernel counter: where the packets went (the sender, the network, a socket
// buffer's Udp RcvbufErrors, the NIC) is not in it. Before, a paste of such rows and prose
// exited 3 as if it held no evidence; the rows are listed as unread with what they state
// and nothing is diagnosed from them.
//
// A row: at least four cells between '│' or '|', one cell a rate ("7.2kbps", "10.4 Mbit/s",
// "10.4mbps (20.9kbps avg)"), one cell a count and its share ("121 (1.061%)"). Counter-cases:
// a table without a rate (a CPU or memory table), a sentence with the same figures and no
// cells. Gate: "%)" and "bps" or "bit/s" before the cells are split.

const streamLossRowWhy = "a row of per-stream traffic as a load tester or media client prints it (a bitrate and a count with its share, the packets the receiver found missing): loss on the whole path as the application counts it, not a kernel counter; where the packets were lost (the sender, the network, the receiving socket's buffer: Udp RcvbufErrors in /proc/net/snmp, the NIC's drop counters) is not in the text; headroom has no reader for this table"

// streamLossRow says why t is such a row.
func streamLossRow(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes || !strings.Contains(t, "%)") {
		return "", false
	}
	l := strings.ToLower(t)
	if !strings.Contains(l, "bps") && !strings.Contains(l, "bit/s") {
		return "", false
	}
	cells := strings.FieldsFunc(t, func(r rune) bool { return r == '│' || r == '|' })
	if len(cells) < 4 {
		return "", false
	}
	rate, share := false, false
	for _, c := range cells {
		c = strings.TrimSpace(c)
		rate = rate || rateCell(c)
		share = share || shareCell(c)
	}
	if rate && share {
		return streamLossRowWhy, true
	}
	return "", false
}

// rateCell: a cell that starts with a number and a rate unit ("7.2kbps", "10.4 Mbit/s",
// "10.4mbps (20.9kbps avg)").
func rateCell(c string) bool {
	n := 0
	for n < len(c) && (c[n] >= '0' && c[n] <= '9' || c[n] == '.') {
		n++
	}
	if n == 0 {
		return false
	}
	u := strings.TrimLeft(c[n:], " ")
	if k := strings.IndexByte(u, ' '); k > 0 {
		u = u[:k]
	}
	return isRateUnit(u)
}

// shareCell: a count and its share, "121 (1.061%)".
func shareCell(c string) bool {
	n := len(leadingDigits(c))
	if n == 0 {
		return false
	}
	p, ok := strings.CutPrefix(strings.TrimLeft(c[n:], " "), "(")
	if !ok {
		return false
	}
	p, ok = strings.CutSuffix(p, "%)")
	if !ok || p == "" {
		return false
	}
	for i := 0; i < len(p); i++ {
		if !(p[i] >= '0' && p[i] <= '9' || p[i] == '.') {
			return false
		}
	}
	return true
}
