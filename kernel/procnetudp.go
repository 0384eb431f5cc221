package kernel

import (
	"strconv"
	"strings"
)

// UDPSocketRow is one row of /proc/net/udp or /proc/net/udp6 (net/ipv4/udp.c
// udp4_format_sock, net/ipv6/datagram.c __ip6_dgram_sock_seq_show): "51808:
// 00000000:232A 00000000:0000 07 00000000:3FFFFFC0 00:00000000 00000000 0 0 1326199616 2
// ffff88103e5be1c0 1875166813". The queues are sk_wmem_alloc and sk_rmem_alloc in bytes
// (hex; the receive queue charged at skb truesize, what SO_RCVBUF bounds), and drops is
// sk_drops since the socket was created (2.6.27+): datagrams dropped on this socket, a full
// receive buffer above all (__udp_enqueue_schedule_skb, counted also as Udp RcvbufErrors).
type UDPSocketRow struct {
	Slot        int    `json:"sl"`
	Local       string `json:"local_address"` // as printed: hex address, hex port
	LocalPort   int    `json:"local_port"`
	Remote      string `json:"rem_address"`
	State       int    `json:"st"`
	TxQueue     int64  `json:"tx_queue"`
	RxQueue     int64  `json:"rx_queue"`
	UID         int64  `json:"uid"`
	Inode       int64  `json:"inode"`
	Drops       int64  `json:"drops"`
	HasDrops    bool   `json:"-"` // before 2.6.27 the row ends at the pointer
	IPv6Address bool   `json:"ipv6,omitempty"`
}

// IsUDPSocketHeader reports whether t is the header /proc/net/udp and udp6 print
// ("  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid
// timeout inode ref pointer drops"). /proc/net/raw prints the same one. udp6 (and raw6)
// spell the second address "remote_address" (include/net/transp_v6.h
// IPV6_SEQ_DGRAM_HEADER, printed by udp6_seq_show), as /proc/net/tcp6 does, whose header
// ends at "inode" (net/ipv6/tcp_ipv6.c tcp6_seq_show): the datagram header's "ref pointer"
// tells them apart.
func IsUDPSocketHeader(t string) bool {
	fs := strings.Fields(t)
	return len(fs) >= 12 && fs[0] == "sl" && fs[1] == "local_address" && (fs[2] == "rem_address" || fs[2] == "remote_address" && strings.Contains(t, " pointer")) &&
		fs[3] == "st" && fs[4] == "tx_queue" && fs[5] == "rx_queue" && !strings.Contains(t, "rto")
}

// ParseUDPSocketRow reads one row; false when it is not a whole row (a paste cut it).
func ParseUDPSocketRow(t string) (UDPSocketRow, bool) {
	fs := strings.Fields(t)
	// sl, local, remote, st, tx:rx, tr:when, retrnsmt, uid, timeout, inode, ref, pointer[, drops]
	if len(fs) != 12 && len(fs) != 13 {
		return UDPSocketRow{}, false
	}
	var r UDPSocketRow
	sl, ok := strings.CutSuffix(fs[0], ":")
	n, err := strconv.Atoi(sl)
	if !ok || err != nil {
		return r, false
	}
	r.Slot = n
	addr, port, ok := strings.Cut(fs[1], ":")
	p, err := strconv.ParseUint(port, 16, 16)
	if !ok || err != nil || (len(addr) != 8 && len(addr) != 32) || !isHex(addr) || !strings.Contains(fs[2], ":") {
		return r, false
	}
	r.Local, r.LocalPort, r.Remote, r.IPv6Address = fs[1], int(p), fs[2], len(addr) == 32
	st, err := strconv.ParseUint(fs[3], 16, 8)
	if err != nil {
		return r, false
	}
	r.State = int(st)
	tx, rx, ok := strings.Cut(fs[4], ":")
	txv, err1 := strconv.ParseInt(tx, 16, 64)
	rxv, err2 := strconv.ParseInt(rx, 16, 64)
	if !ok || err1 != nil || err2 != nil {
		return r, false
	}
	r.TxQueue, r.RxQueue = txv, rxv
	uid, err1 := strconv.ParseInt(fs[7], 10, 64)
	inode, err2 := strconv.ParseInt(fs[9], 10, 64)
	if err1 != nil || err2 != nil {
		return r, false
	}
	r.UID, r.Inode = uid, inode
	if len(fs) == 13 {
		d, err := strconv.ParseInt(fs[12], 10, 64)
		if err != nil {
			return r, false
		}
		r.Drops, r.HasDrops = d, true
	}
	return r, true
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return s != ""
}
