package artifact

import (
	"strconv"
	"strings"
)

// netperf's UDP_STREAM result (netperf src/nettest_bsd.c send_udp_stream, the default
// non-verbose form): a three-line header, then the sender's row (socket size, message size,
// elapsed seconds, messages sent, send errors, throughput in 10^6 bits/sec) and the
// receiver's row (socket size, elapsed seconds, messages received, throughput). The
// difference between the two message counts is datagrams lost on the way: in a qdisc, a tap
// or a NIC queue, or at the receiver's socket buffer; the table alone does not say where.
//
//	Socket  Message  Elapsed      Messages
//	Size    Size     Time         Okay Errors   Throughput
//	bytes   bytes    secs            #      #   10^6bits/sec
//
//	212992   65507   10.00      144710      0    7583.56
//	212992           10.00          32              1.68
//
// Kept as an artifact with its values, as iperf's tables are: no rule judges a benchmark.
type NetperfUDPStream struct {
	SendSocketBytes int64   `json:"send_socket_bytes"`
	MessageBytes    int64   `json:"message_bytes"`
	SendSecs        float64 `json:"send_secs"`
	Sent            int64   `json:"sent"`
	SendErrors      int64   `json:"send_errors"`
	SendMbps        float64 `json:"send_mbps"`
	// The receiver's row; absent when the paste stops after the sender's.
	RecvSocketBytes *int64   `json:"recv_socket_bytes,omitempty"`
	RecvSecs        *float64 `json:"recv_secs,omitempty"`
	Received        *int64   `json:"received,omitempty"`
	RecvMbps        *float64 `json:"recv_mbps,omitempty"`
	// LostShare is (sent - received) / sent, when both rows were read.
	LostShare *float64 `json:"lost_share,omitempty"`
}

// netperfHeaderLine: a line's words with a mail client's soft-break "=" at its end dropped.
func netperfWords(t string) []string {
	fs := fields(t)
	if n := len(fs); n > 0 && fs[n-1] == "=" {
		fs = fs[:n-1]
	}
	return fs
}

func netperfNumbers(fs []string) ([]float64, bool) {
	out := make([]float64, len(fs))
	for k, f := range fs {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || v < 0 {
			return nil, false
		}
		out[k] = v
	}
	return out, true
}

// tryNetperfUDP reads the table whose header starts at line i.
func (d *doc) tryNetperfUDP(i int) int {
	if !strings.HasPrefix(d.ls[i].Text, "Socket") {
		return 0
	}
	h := netperfWords(d.ls[i].Text)
	if len(h) != 4 || h[1] != "Message" || h[2] != "Elapsed" || h[3] != "Messages" {
		return 0
	}
	k := i + 1
	for k < len(d.ls) && isBlank(d.ls[k].Text) && k-i < 3 {
		k++ // a mail client's soft break leaves a blank line under the first header line
	}
	if k+1 >= len(d.ls) || !strings.Contains(d.ls[k].Text, "Okay Errors") || !strings.Contains(d.ls[k+1].Text, "10^6bits/sec") {
		return 0
	}
	k += 2
	for k < len(d.ls) && isBlank(d.ls[k].Text) && k-i < 8 {
		k++
	}
	if k >= len(d.ls) {
		return 0
	}
	send, ok := netperfNumbers(netperfWords(d.ls[k].Text))
	if !ok || len(send) != 6 {
		return 0
	}
	r := &NetperfUDPStream{SendSocketBytes: int64(send[0]), MessageBytes: int64(send[1]), SendSecs: send[2],
		Sent: int64(send[3]), SendErrors: int64(send[4]), SendMbps: send[5]}
	k++
	if k < len(d.ls) {
		if recv, ok := netperfNumbers(netperfWords(d.ls[k].Text)); ok && len(recv) == 4 {
			sock, got := int64(recv[0]), int64(recv[2])
			r.RecvSocketBytes, r.RecvSecs, r.Received, r.RecvMbps = &sock, &recv[1], &got, &recv[3]
			if r.Sent > 0 {
				lost := float64(r.Sent-got) / float64(r.Sent)
				r.LostShare = &lost
			}
			k++
		}
	}
	for j := i; j < k; j++ {
		d.used[j] = true
	}
	d.addArtifact(KindNetperf, d.ls[i].No, d.ls[k-1].No, r)
	return k - i
}
