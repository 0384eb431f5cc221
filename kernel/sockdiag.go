package kernel

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"slices"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// Socket is one TCP socket from a sock_diag (inet_diag) dump with INET_DIAG_SKMEMINFO and
// INET_DIAG_INFO: queues, the socket memory as the kernel accounts it (SK_MEMINFO_*,
// include/uapi/linux/sock_diag.h), and the parts of struct tcp_info the rules read.
//
// RecvQ and SendQ are inet_diag_msg idiag_rqueue and idiag_wqueue as tcp_diag_get_info
// (net/ipv4/tcp_diag.c) fills them: for a LISTEN socket the current accept queue length
// and its limit (the listen backlog); otherwise the bytes received but not read
// (rcv_nxt - copied_seq) and the bytes sent but not acknowledged (write_seq - snd_una).
// TIME_WAIT and SYN_RECV request sockets are mini sockets: they have zero queues and
// neither Mem nor Info.
type Socket struct {
	Family string `json:"family"` // "inet", "inet6"
	// Netid is ss's first column where the table has one ("udp", "tcp", "u_dgr"): the
	// protocol, which State alone does not tell (UNCONN is UDP's, raw's and unix's).
	Netid  string `json:"-"`
	State  string `json:"state"` // "ESTABLISHED", "FIN_WAIT1", ... (as ss -t prints, with underscores)
	Local  string `json:"local"` // "addr:port"
	Remote string `json:"remote"`
	Inode  uint32 `json:"inode"` // 0 for orphans (no file)
	RecvQ  int64  `json:"recv_q"`
	SendQ  int64  `json:"send_q"`

	Mem  *SKMemInfo `json:"mem,omitempty"`
	Info *TCPInfo   `json:"info,omitempty"`
}

// SKMemInfo is SK_MEMINFO_* in bytes (net/core/sock.c sk_get_meminfo). The array grew:
// BACKLOG and DROPS were appended after the first seven (3.x-4.x kernels), which is why
// iproute2's ss checks the attribute length before printing "bl" and "d". Entries the
// kernel did not send are zero, and Len says how many it sent.
type SKMemInfo struct {
	RmemAlloc  int64 `json:"rmem_alloc"`
	Rcvbuf     int64 `json:"rcvbuf"`
	WmemAlloc  int64 `json:"wmem_alloc"`
	Sndbuf     int64 `json:"sndbuf"`
	FwdAlloc   int64 `json:"fwd_alloc"`
	WmemQueued int64 `json:"wmem_queued"`
	Optmem     int64 `json:"optmem"`
	Backlog    int64 `json:"backlog"`
	Drops      int64 `json:"drops"`
	// Len is the number of SK_MEMINFO_* u32 entries the kernel sent (9 since 4.x).
	Len int `json:"len,omitempty"`
}

// TCPInfo holds the struct tcp_info fields headroom uses (include/uapi/linux/tcp.h). The
// kernel sends its whole struct, which grew over the versions; fields beyond the length it
// sent are zero, and Len (bytes sent) tells absent from zero. Offsets and the versions that
// added them:
//
//	  0 state, retransmits (2), probes (3), backoff (4)   all versions
//	  8 rto; 16 snd_mss; 20 rcv_mss; 68 rtt; 72 rttvar; 80 snd_cwnd; 96 rcv_space;
//	100 total_retrans                                      2.6.x
//	104 pacing_rate (u64)                                  3.15 (commit 977cb0ecf82e)
//	120 bytes_acked, 128 bytes_received (u64)              4.1 (commits 0df48c26d841, bdd1f9edacb5)
//	144 notsent_bytes                                      4.6 (commit cd9b266095f4)
//	160 delivery_rate (u64)                                4.9 (commit eb8329e0a04d)
//	168 busy_time, 176 rwnd_limited, 184 sndbuf_limited    4.10 (commit efd901741675)
type TCPInfo struct {
	Len               int   `json:"len"`
	State             uint8 `json:"state"`
	Retransmits       uint8 `json:"retransmits"`
	Probes            uint8 `json:"probes"`
	Backoff           uint8 `json:"backoff"`
	RTOUsec           int64 `json:"rto_usec"`
	SndMSS            int64 `json:"snd_mss"`
	RcvMSS            int64 `json:"rcv_mss"`
	RTTUsec           int64 `json:"rtt_usec"`
	RTTVarUsec        int64 `json:"rttvar_usec"`
	SndCwnd           int64 `json:"snd_cwnd"`
	TotalRetrans      int64 `json:"total_retrans"`
	RcvSpace          int64 `json:"rcv_space"`
	PacingRateBps     int64 `json:"pacing_rate_bps"` // bytes per second
	BytesAcked        int64 `json:"bytes_acked"`
	BytesReceived     int64 `json:"bytes_received"`
	DeliveryRateBps   int64 `json:"delivery_rate_bps"` // bytes per second
	BusyUsec          int64 `json:"busy_usec"`
	RwndLimitedUsec   int64 `json:"rwnd_limited_usec"`
	SndbufLimitedUsec int64 `json:"sndbuf_limited_usec"`
	NotsentBytes      int64 `json:"notsent_bytes"`
}

// Where struct tcp_info's fields end (include/uapi/linux/tcp.h): a TCPInfo whose Len does
// not reach the end of a field did not come with it, and its zero is "not sent".
const (
	tcpInfoBytesReceivedEnd = 136 // tcpi_bytes_received, __u64 at 128 (4.1)
	tcpInfoDeliveryRateEnd  = 168 // tcpi_delivery_rate, __u64 at 160 (4.9)
)

// Delivered returns tcpi_bytes_acked and tcpi_bytes_received, cumulative over the
// connection, and whether the kernel's tcp_info reached both (4.1 and later).
func (t *TCPInfo) Delivered() (acked, received int64, ok bool) {
	if t == nil || t.Len < tcpInfoBytesReceivedEnd {
		return 0, 0, false
	}
	return t.BytesAcked, t.BytesReceived, true
}

// DeliveryRate returns tcpi_delivery_rate, the sender's latest estimate of the rate its
// data is delivered at in bytes per second (net/ipv4/tcp_rate.c tcp_rate_gen, reported by
// tcp_get_info, net/ipv4/tcp.c), and whether the kernel's tcp_info reached it (4.9 and
// later). A receive-only socket delivers nothing of its own, so its rate says nothing.
func (t *TCPInfo) DeliveryRate() (int64, bool) {
	if t == nil || t.Len < tcpInfoDeliveryRateEnd {
		return 0, false
	}
	return t.DeliveryRateBps, true
}

// SocketStateTotal is the sum over the sockets in one TCP state.
type SocketStateTotal struct {
	Count    int64 `json:"count"`
	RecvQ    int64 `json:"recv_q"`
	SendQ    int64 `json:"send_q"`
	MemBytes int64 `json:"mem_bytes"` // sum of Socket.MemBytes
	Orphans  int64 `json:"orphans"`   // see Socket.Orphaned
	// Holding counts the sockets that hold memory or queued data (Socket.Holds): the flows
	// autotuning may grow towards their maxima. An idle socket holds none, since its
	// sk_forward_alloc is given back (sk_mem_reclaim, include/net/sock.h).
	Holding int64 `json:"holding,omitempty"`
}

// SocketSummary is a dump summarised per state, with the sockets holding most memory.
type SocketSummary struct {
	Total   int64                       `json:"total"`
	ByState map[string]SocketStateTotal `json:"by_state"`
	Top     []Socket                    `json:"top,omitempty"`
	// CountsOnly: only the number of sockets per state was read (ss -s, a count per state
	// printed by awk or uniq -c), not their queues or memory: zero queues mean unknown.
	CountsOnly bool `json:"counts_only,omitempty"`
}

// MemBytes is the memory the socket holds, in bytes:
//
//	rmem_alloc + wmem_queued + fwd_alloc + backlog
//
// rmem_alloc is the truesize of the receive and out-of-order queues, wmem_queued that of
// the write and retransmit queues, and fwd_alloc the memory already charged to the
// protocol but not yet used (sk_forward_alloc): these three together are what the socket
// has charged to TCP's memory_allocated, the figure compared with net.ipv4.tcp_mem
// (include/net/sock.h sk_mem_charge, sk_wmem_queued_add; net/core/sock.c
// __sk_mem_raise_allocated). backlog is the truesize of packets that arrived while the
// application held the socket lock; they are not charged yet but occupy memory
// (net/ipv4/tcp_ipv4.c tcp_add_backlog). wmem_alloc is left out because for TCP it counts
// clones of queued data in flight below TCP (the same pages as wmem_queued), and optmem
// (socket options, filters) is charged to net.core.optmem_max, not tcp_mem. Since 6.0
// memory_allocated is updated in per-CPU batches (include/net/sock.h
// SK_MEMORY_PCPU_RESERVE), so a sum over sockets differs from the "mem" page count of
// /proc/net/sockstat by up to that batch per CPU. 0 for sockets without Mem (TIME_WAIT, SYN_RECV requests, text sources).
func (s *Socket) MemBytes() int64 {
	if s.Mem == nil {
		return 0
	}
	return s.Mem.RmemAlloc + s.Mem.WmemQueued + s.Mem.FwdAlloc + s.Mem.Backlog
}

// Orphaned reports whether the socket is an orphan as the kernel counts them (sockstat
// "orphan", tcp_orphan_count): a full socket that the application closed (sock_orphan
// drops its file, so the inode reads 0) while TCP still has work to do. Only FIN_WAIT1,
// FIN_WAIT2, CLOSING and LAST_ACK qualify: a socket without a file in ESTABLISHED,
// SYN_RECV or CLOSE_WAIT is one not yet accept()ed, LISTEN sockets always have a file,
// and TIME_WAIT is a mini socket. A FIN_WAIT2 mini socket (a timewait socket in its
// FIN_WAIT2 substate, inet_twsk_diag_fill) is told apart by its missing Mem, so the test
// needs a source that carries memory info and inodes (sock_diag, ss -tem).
func (s *Socket) Orphaned() bool {
	if s.Inode != 0 {
		return false
	}
	switch s.State {
	case "FIN_WAIT1", "CLOSING", "LAST_ACK":
		return true
	case "FIN_WAIT2":
		return s.Mem != nil
	}
	return false
}

// Holds reports whether the socket holds memory charged to TCP or data in its queues: a
// socket with none is idle and costs TCP's accounting nothing, whatever its maxima. A
// listener's Recv-Q and Send-Q are its accept queue and backlog limit (inet_diag), not data.
func (s *Socket) Holds() bool {
	if s.MemBytes() > 0 {
		return true
	}
	return s.State != "LISTEN" && (s.RecvQ > 0 || s.SendQ > 0)
}

// Summarize sums socks per state and keeps the topN sockets by MemBytes (largest first;
// ties ordered by state, local, remote address for a stable result).
func Summarize(socks []Socket, topN int) SocketSummary {
	sum := SocketSummary{Total: int64(len(socks)), ByState: make(map[string]SocketStateTotal)}
	for i := range socks {
		s := &socks[i]
		t := sum.ByState[s.State]
		t.Count++
		t.RecvQ += s.RecvQ
		t.SendQ += s.SendQ
		t.MemBytes += s.MemBytes()
		if s.Holds() {
			t.Holding++
		}
		if s.Orphaned() {
			t.Orphans++
		}
		sum.ByState[s.State] = t
	}
	if topN <= 0 {
		return sum
	}
	idx := make([]int, 0, len(socks))
	for i := range socks {
		if socks[i].MemBytes() > 0 {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int {
		x, y := &socks[a], &socks[b]
		return cmp.Or(
			cmp.Compare(y.MemBytes(), x.MemBytes()),
			cmp.Compare(x.State, y.State),
			cmp.Compare(x.Local, y.Local),
			cmp.Compare(x.Remote, y.Remote))
	})
	if len(idx) > topN {
		idx = idx[:topN]
	}
	for _, i := range idx {
		sum.Top = append(sum.Top, socks[i])
	}
	return sum
}

// SocketsCapturePath is where a capture stores the socket dump: a JSON array of Socket.
const SocketsCapturePath = "headroom/sockets.json"

// ReadSockets returns the TCP sockets of root: a sock_diag dump of the calling thread's
// network namespace for the live host (call it from InNetns for another namespace), or
// the JSON array "headroom/sockets.json" of a capture (see CaptureSockets).
func ReadSockets(root Root) ([]Socket, error) {
	if root.IsHost() {
		return DumpTCP()
	}
	return parseFile(root, SocketsCapturePath, ParseSockets)
}

// ParseSockets reads a JSON array of Socket, the capture layout.
func ParseSockets(r io.Reader) ([]Socket, error) {
	var socks []Socket
	dec := json.NewDecoder(r)
	if err := dec.Decode(&socks); err != nil {
		return nil, fmt.Errorf("sockets: %w", err)
	}
	return socks, nil
}

// CaptureSockets returns the bytes a capture stores as "headroom/sockets.json".
func CaptureSockets(socks []Socket) ([]byte, error) {
	if socks == nil {
		socks = []Socket{}
	}
	return json.Marshal(socks)
}

// DumpTCP dumps every TCP socket (IPv4 and IPv6, all states) of the network namespace of
// the calling OS thread through NETLINK_SOCK_DIAG, as `ss -tmi` does. The netlink socket
// belongs to the namespace of the thread that creates it, so from inside InNetns this
// dumps that namespace.
func DumpTCP() ([]Socket, error) {
	d, err := OpenSockDiag()
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.DumpTCP(nil)
}

// SockDiag is an open NETLINK_SOCK_DIAG socket for repeated dumps (the sampler): the
// socket and its receive buffer are reused. Like any netlink socket it stays in the
// network namespace it was created in, so one opened inside InNetns dumps that namespace
// from any goroutine afterwards. Not safe for concurrent use.
type SockDiag struct {
	fd  int
	seq uint32
	buf []byte
}

// sockDiagBuf is the receive buffer. netlink_recvmsg lets dump skbs grow up to the
// reader's buffer size but caps them at 32 KiB (net/netlink/af_netlink.c,
// max_recvmsg_len), so a larger buffer would not reduce the number of reads.
const sockDiagBuf = 32 << 10

// OpenSockDiag opens a sock_diag netlink socket in the calling thread's namespace.
func OpenSockDiag() (*SockDiag, error) {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_SOCK_DIAG)
	if err != nil {
		return nil, fmt.Errorf("sock_diag: socket: %w", err)
	}
	if err := unix.Bind(fd, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("sock_diag: bind: %w", err)
	}
	return &SockDiag{fd: fd, buf: *sockDiagBufs.Get().(*[]byte)}, nil
}

// Close closes the socket.
func (d *SockDiag) Close() error {
	if d.fd < 0 {
		return nil
	}
	err := unix.Close(d.fd)
	d.fd = -1
	b := d.buf
	d.buf = nil
	sockDiagBufs.Put(&b)
	return err
}

// DumpTCP dumps all TCP sockets, appending to dst (pass dst[:0] to reuse a slice).
func (d *SockDiag) DumpTCP(dst []Socket) ([]Socket, error) {
	if d.fd < 0 {
		return dst, errors.New("sock_diag: closed")
	}
	var slab memSlab
	for _, fam := range []uint8{unix.AF_INET, unix.AF_INET6} {
		var err error
		dst, err = d.dump(dst, fam, &slab)
		if err != nil {
			if fam == unix.AF_INET6 && (errors.Is(err, unix.ENOENT) || errors.Is(err, unix.EAFNOSUPPORT)) {
				continue // IPv6 not built or not loaded
			}
			return dst, err
		}
	}
	return dst, nil
}

// inet_diag constants (include/uapi/linux/inet_diag.h, sock_diag.h, netlink.h).
const (
	nlmsgHdrLen       = 16
	nlmsgError        = 2 // NLMSG_ERROR
	nlmsgDone         = 3 // NLMSG_DONE
	sockDiagByFamily  = 20
	inetDiagReqV2Len  = 56 // family, protocol, ext, pad, states, inet_diag_sockid (48)
	inetDiagMsgLen    = 72 // family, state, timer, retrans, sockid (48), expires, rqueue, wqueue, uid, inode
	inetDiagInfo      = 2  // INET_DIAG_INFO: struct tcp_info
	inetDiagSKMemInfo = 7  // INET_DIAG_SKMEMINFO: u32[SK_MEMINFO_VARS]
	nlaTypeMask       = 0x3fff
)

func (d *SockDiag) dump(dst []Socket, family uint8, slab *memSlab) ([]Socket, error) {
	d.seq++
	seq := d.seq
	var req [nlmsgHdrLen + inetDiagReqV2Len]byte
	ne := binary.NativeEndian
	ne.PutUint32(req[0:], uint32(len(req)))
	ne.PutUint16(req[4:], sockDiagByFamily)
	ne.PutUint16(req[6:], unix.NLM_F_REQUEST|unix.NLM_F_DUMP)
	ne.PutUint32(req[8:], seq)
	r := req[nlmsgHdrLen:]
	r[0] = family
	r[1] = unix.IPPROTO_TCP
	// idiag_ext is a bit mask of the INET_DIAG_* attributes wanted, bit (type - 1).
	r[2] = 1<<(inetDiagInfo-1) | 1<<(inetDiagSKMemInfo-1)
	ne.PutUint32(r[4:], 0xffffffff) // all states, TCP_NEW_SYN_RECV and TCP_BOUND_INACTIVE included
	if err := unix.Sendto(d.fd, req[:], 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return dst, fmt.Errorf("sock_diag: send: %w", err)
	}
	for {
		n, _, flags, _, err := unix.Recvmsg(d.fd, d.buf, nil, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return dst, fmt.Errorf("sock_diag: receive: %w", err)
		}
		if flags&unix.MSG_TRUNC != 0 {
			return dst, fmt.Errorf("sock_diag: message truncated at %d bytes", n)
		}
		var done bool
		dst, done, err = parseDiagDump(dst, d.buf[:n], seq, slab)
		if err != nil {
			return dst, err
		}
		if done {
			return dst, nil
		}
	}
}

// parseDiagDump parses one datagram of a sock_diag dump: a sequence of netlink messages.
// It reports done at NLMSG_DONE. Messages of another sequence number are skipped (a
// stale reply to an earlier, abandoned dump).
func parseDiagDump(dst []Socket, b []byte, seq uint32, slab *memSlab) ([]Socket, bool, error) {
	ne := binary.NativeEndian
	for len(b) > 0 {
		if len(b) < nlmsgHdrLen {
			return dst, false, fmt.Errorf("sock_diag: %d trailing bytes, shorter than a netlink header", len(b))
		}
		l := int(ne.Uint32(b[0:]))
		typ := ne.Uint16(b[4:])
		mseq := ne.Uint32(b[8:])
		if l < nlmsgHdrLen || l > len(b) {
			return dst, false, fmt.Errorf("sock_diag: netlink message length %d, %d bytes left", l, len(b))
		}
		body := b[nlmsgHdrLen:l]
		next := align4(l)
		if next > len(b) {
			next = len(b)
		}
		b = b[next:]
		if mseq != seq {
			continue
		}
		switch typ {
		case nlmsgDone:
			// Since 4.x the DONE payload carries the dump's error, 0 on success.
			if len(body) >= 4 {
				if e := int32(ne.Uint32(body)); e < 0 {
					return dst, true, fmt.Errorf("sock_diag: dump: %w", unix.Errno(-e))
				}
			}
			return dst, true, nil
		case nlmsgError:
			if len(body) < 4 {
				return dst, false, errors.New("sock_diag: short NLMSG_ERROR")
			}
			e := int32(ne.Uint32(body))
			if e == 0 {
				continue // an ACK
			}
			return dst, false, fmt.Errorf("sock_diag: %w", unix.Errno(-e))
		case sockDiagByFamily:
			s, err := parseInetDiagMsg(body, slab)
			if err != nil {
				return dst, false, err
			}
			dst = append(dst, s)
		default:
			// NLMSG_NOOP, NLMSG_OVERRUN and unknown types carry no socket.
		}
	}
	return dst, false, nil
}

func align4(n int) int { return (n + 3) &^ 3 }

// memSlab hands out SKMemInfo and TCPInfo from chunks, so a dump of 10 000 sockets costs
// a few dozen allocations rather than 20 000.
type memSlab struct {
	mem  []SKMemInfo
	info []TCPInfo
}

const slabChunk = 256

func (s *memSlab) newMem() *SKMemInfo {
	if s == nil {
		return new(SKMemInfo)
	}
	if len(s.mem) == 0 {
		s.mem = make([]SKMemInfo, slabChunk)
	}
	m := &s.mem[0]
	s.mem = s.mem[1:]
	return m
}

func (s *memSlab) newInfo() *TCPInfo {
	if s == nil {
		return new(TCPInfo)
	}
	if len(s.info) == 0 {
		s.info = make([]TCPInfo, slabChunk)
	}
	m := &s.info[0]
	s.info = s.info[1:]
	return m
}

// tcpStates names TCP_* of include/net/tcp_states.h. The kernel reports request sockets
// (TCP_NEW_SYN_RECV, 4.4+) as SYN_RECV (inet_req_diag_fill); BOUND_INACTIVE (6.6+) is a
// socket bound but neither listening nor connected.
var tcpStates = [...]string{
	1: "ESTABLISHED", 2: "SYN_SENT", 3: "SYN_RECV", 4: "FIN_WAIT1", 5: "FIN_WAIT2",
	6: "TIME_WAIT", 7: "CLOSE", 8: "CLOSE_WAIT", 9: "LAST_ACK", 10: "LISTEN",
	11: "CLOSING", 12: "NEW_SYN_RECV", 13: "BOUND_INACTIVE",
}

// TCPStateName returns the name of a TCP_* state number as Socket.State spells it.
func TCPStateName(st uint8) string {
	if int(st) < len(tcpStates) && tcpStates[st] != "" {
		return tcpStates[st]
	}
	return "UNKNOWN_" + strconv.Itoa(int(st))
}

// parseInetDiagMsg parses the body of one SOCK_DIAG_BY_FAMILY reply: struct inet_diag_msg
// followed by netlink attributes. Every length is checked: kernel bytes that are short or
// corrupt give an error, never a panic.
func parseInetDiagMsg(b []byte, slab *memSlab) (Socket, error) {
	var s Socket
	if len(b) < inetDiagMsgLen {
		return s, fmt.Errorf("sock_diag: inet_diag_msg of %d bytes, want %d", len(b), inetDiagMsgLen)
	}
	ne := binary.NativeEndian
	switch b[0] {
	case unix.AF_INET:
		s.Family = "inet"
	case unix.AF_INET6:
		s.Family = "inet6"
	default:
		return s, fmt.Errorf("sock_diag: address family %d is not inet", b[0])
	}
	s.State = TCPStateName(b[1])
	// inet_diag_sockid: sport, dport (big endian), src[4], dst[4] (big endian u32s holding
	// the address bytes in network order), if, cookie[2].
	sport := binary.BigEndian.Uint16(b[4:])
	dport := binary.BigEndian.Uint16(b[6:])
	s.Local = diagAddr(b[0], b[8:24], sport)
	s.Remote = diagAddr(b[0], b[24:40], dport)
	s.RecvQ = int64(ne.Uint32(b[56:]))
	s.SendQ = int64(ne.Uint32(b[60:]))
	s.Inode = ne.Uint32(b[68:])

	for a := b[inetDiagMsgLen:]; len(a) > 0; {
		if len(a) < 4 {
			return s, fmt.Errorf("sock_diag: %s %s: %d trailing attribute bytes", s.Local, s.Remote, len(a))
		}
		l := int(ne.Uint16(a[0:]))
		typ := ne.Uint16(a[2:]) & nlaTypeMask
		if l < 4 || l > len(a) {
			return s, fmt.Errorf("sock_diag: %s %s: attribute %d of length %d, %d bytes left", s.Local, s.Remote, typ, l, len(a))
		}
		v := a[4:l]
		switch typ {
		case inetDiagInfo:
			s.Info = slab.newInfo()
			parseTCPInfo(s.Info, v)
		case inetDiagSKMemInfo:
			s.Mem = slab.newMem()
			parseSKMemInfo(s.Mem, v)
		}
		next := align4(l)
		if next > len(a) {
			next = len(a)
		}
		a = a[next:]
	}
	return s, nil
}

func diagAddr(family uint8, b []byte, port uint16) string {
	var ip netip.Addr
	if family == unix.AF_INET {
		ip = netip.AddrFrom4([4]byte(b[:4]))
	} else {
		ip = netip.AddrFrom16([16]byte(b[:16]))
	}
	return netip.AddrPortFrom(ip, port).String()
}

// parseSKMemInfo reads the u32 array by its length: older kernels send fewer entries.
func parseSKMemInfo(m *SKMemInfo, v []byte) {
	ne := binary.NativeEndian
	fields := [...]*int64{&m.RmemAlloc, &m.Rcvbuf, &m.WmemAlloc, &m.Sndbuf, &m.FwdAlloc,
		&m.WmemQueued, &m.Optmem, &m.Backlog, &m.Drops}
	n := len(v) / 4
	m.Len = n
	for i := 0; i < n && i < len(fields); i++ {
		*fields[i] = int64(ne.Uint32(v[4*i:]))
	}
}

// parseTCPInfo reads struct tcp_info by length: a field is set only if the kernel's struct
// reaches past it (offsets in the TCPInfo comment).
func parseTCPInfo(t *TCPInfo, v []byte) {
	ne := binary.NativeEndian
	t.Len = len(v)
	u8 := func(off int, p *uint8) {
		if off+1 <= len(v) {
			*p = v[off]
		}
	}
	u32 := func(off int, p *int64) {
		if off+4 <= len(v) {
			*p = int64(ne.Uint32(v[off:]))
		}
	}
	u64 := func(off int, p *int64) {
		if off+8 <= len(v) {
			*p = int64(ne.Uint64(v[off:]))
		}
	}
	u8(0, &t.State)
	u8(2, &t.Retransmits)
	u8(3, &t.Probes)
	u8(4, &t.Backoff)
	u32(8, &t.RTOUsec)
	u32(16, &t.SndMSS)
	u32(20, &t.RcvMSS)
	u32(68, &t.RTTUsec)
	u32(72, &t.RTTVarUsec)
	u32(80, &t.SndCwnd)
	u32(96, &t.RcvSpace)
	u32(100, &t.TotalRetrans)
	u64(104, &t.PacingRateBps)
	u64(120, &t.BytesAcked)
	u64(128, &t.BytesReceived)
	u32(144, &t.NotsentBytes)
	u64(160, &t.DeliveryRateBps)
	u64(168, &t.BusyUsec)
	u64(176, &t.RwndLimitedUsec)
	u64(184, &t.SndbufLimitedUsec)
}

// sockDiagBufs keeps receive buffers between SockDiag lifetimes, so DumpTCP called once a
// second does not allocate 32 KiB each time.
var sockDiagBufs = sync.Pool{New: func() any { b := make([]byte, sockDiagBuf); return &b }}
