package artifact

import (
	"slices"
	"strings"
)

// tcpretrans traces TCP retransmits one a line: bcc's tools/tcpretrans.py (a kprobe on
// tcp_retransmit_skb; -l adds tail loss probes as "L>") and perf-tools' ftrace version:
//
//	TIME     PID    IP LADDR:LPORT          T> RADDR:RPORT          STATE
//	01:55:05 0      4  10.153.223.157:22    R> 69.53.245.40:34619   ESTABLISHED
//	TIME     PID    LADDR:LPORT          -- RADDR:RPORT          STATE
//	05:16:44 3375   10.150.18.225:53874  R> 10.105.152.3:6001    ESTABLISHED
//
// Each line is one segment sent again: a count over the trace's seconds, with no total of
// segments sent beside it, so no retransmit rate is made of it; it is read and shown.

// TCPRetransTrace is one run of tcpretrans's lines.
type TCPRetransTrace struct {
	Retransmits int    `json:"retransmits"`
	LossProbes  int    `json:"loss_probes,omitempty"`
	First       string `json:"first"`
	Last        string `json:"last"`
	// TopPeer is the remote address with the most lines, and its count.
	TopPeer      string `json:"top_peer"`
	TopPeerCount int    `json:"top_peer_count"`
}

// isTCPRetransHeader: tcpretrans's header: TIME, PID, the two address columns and STATE.
func isTCPRetransHeader(_, t string) bool {
	fs := fields(t)
	return len(fs) >= 6 && fs[0] == "TIME" && fs[1] == "PID" && slices.Contains(fs, "LADDR:LPORT") &&
		slices.Contains(fs, "RADDR:RPORT") && slices.Contains(fs, "STATE")
}

// tryTCPRetrans reads the header at line i and the lines under it, up to the first that is
// not one ("^C", "Ending tracing...", a blank line).
func (d *doc) tryTCPRetrans(i int) int {
	hdr := fields(d.ls[i].Text)
	l := slices.Index(hdr, "LADDR:LPORT")
	if l < 2 || l+2 >= len(hdr) || hdr[l+2] != "RADDR:RPORT" {
		return 0
	}
	tr := &TCPRetransTrace{}
	peers := map[string]int{}
	k := i + 1
	for ; k < len(d.ls); k++ {
		fs := fields(d.ls[k].Text)
		if len(fs) < l+4 || !reClockLine.MatchString(fs[0]) || !isDigits(fs[1]) || !strings.Contains(fs[l], ":") || !strings.Contains(fs[l+2], ":") ||
			fs[l+1] != "R>" && fs[l+1] != "L>" {
			break
		}
		if fs[l+1] == "R>" {
			tr.Retransmits++
		} else {
			tr.LossProbes++
		}
		if tr.First == "" {
			tr.First = fs[0]
		}
		tr.Last = fs[0]
		peer := fs[l+2]
		if c := strings.LastIndexByte(peer, ':'); c > 0 {
			peer = peer[:c]
		}
		peers[peer]++
		if n := peers[peer]; n > tr.TopPeerCount || n == tr.TopPeerCount && peer < tr.TopPeer {
			tr.TopPeer, tr.TopPeerCount = peer, n
		}
	}
	if k == i+1 {
		return 0
	}
	d.addArtifact(KindTCPRetrans, d.ls[i].No, d.ls[k-1].No, tr)
	return k - i
}
