package kernel

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"net"
	"os"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
	"golang.org/x/sys/unix"
)

// socketInode returns the inode of a socket's file, the number sock_diag reports.
func socketInode(c syscall.Conn) (uint32, error) {
	rc, err := c.SyscallConn()
	if err != nil {
		return 0, err
	}
	var st unix.Stat_t
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = unix.Fstat(int(fd), &st) }); err != nil {
		return 0, err
	}
	return uint32(st.Ino), serr
}

// findSocket returns the socket with the local address (and state, if not "").
func findSocket(socks []Socket, local, state string) *Socket {
	for i := range socks {
		if socks[i].Local == local && (state == "" || socks[i].State == state) {
			return &socks[i]
		}
	}
	return nil
}

// findConn returns the socket with both addresses.
func findConn(socks []Socket, local, remote string) *Socket {
	for i := range socks {
		if socks[i].Local == local && socks[i].Remote == remote {
			return &socks[i]
		}
	}
	return nil
}

// waitConn dumps until ok accepts the connection local→remote, or 3 s pass.
func waitConn(t *testing.T, local, remote string, ok func(*Socket) bool) *Socket {
	t.Helper()
	var s *Socket
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		socks, err := DumpTCP()
		if err != nil {
			t.Fatal(err)
		}
		if s = findConn(socks, local, remote); s != nil && ok(s) {
			return s
		}
	}
	if s != nil {
		t.Fatalf("connection %s -> %s never reached the expected state; last seen %+v mem %+v", local, remote, *s, diagMemOf(s))
	}
	t.Fatalf("connection %s -> %s not in the dump", local, remote)
	return nil
}

func diagMemOf(s *Socket) any {
	if s == nil || s.Mem == nil {
		return nil
	}
	return *s.Mem
}

func TestDumpTCPLoopback(t *testing.T) {
	for _, tc := range []struct{ network, addr, family string }{
		{"tcp4", "127.0.0.1:0", "inet"},
		{"tcp6", "[::1]:0", "inet6"},
	} {
		t.Run(tc.family, func(t *testing.T) {
			l, err := net.Listen(tc.network, tc.addr)
			if err != nil {
				t.Skipf("cannot listen on %s: %v", tc.addr, err)
			}
			defer l.Close()
			c, err := net.Dial(tc.network, l.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			s, err := l.Accept()
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			const n = 1000
			if _, err := s.Write(make([]byte, n)); err != nil {
				t.Fatal(err)
			}
			cInode, err := socketInode(c.(*net.TCPConn))
			if err != nil {
				t.Fatal(err)
			}
			lInode, err := socketInode(l.(*net.TCPListener))
			if err != nil {
				t.Fatal(err)
			}
			laddr, caddr := l.Addr().String(), c.LocalAddr().String()

			// The client holds n unread bytes.
			cl := waitConn(t, caddr, laddr, func(s *Socket) bool { return s.RecvQ == n })
			if cl.Family != tc.family || cl.State != "ESTABLISHED" || cl.Inode != cInode || cl.SendQ != 0 {
				t.Errorf("client socket = %+v, want %s ESTABLISHED inode %d", *cl, tc.family, cInode)
			}
			if cl.Mem == nil || cl.Mem.RmemAlloc < n || cl.Mem.Len < 9 || cl.Mem.Rcvbuf <= 0 || cl.Mem.Sndbuf <= 0 {
				t.Errorf("client skmeminfo = %+v, want rmem_alloc >= %d", diagMemOf(cl), n)
			}
			if cl.MemBytes() < n {
				t.Errorf("client MemBytes = %d, want >= %d", cl.MemBytes(), n)
			}
			if cl.Info == nil {
				t.Fatal("client has no tcp_info")
			}
			if cl.Info.Len < 192 || cl.Info.State != 1 || cl.Info.BytesReceived != n || cl.Info.RcvMSS <= 0 ||
				cl.Info.RTOUsec < 200000 || cl.Info.SndCwnd <= 0 {
				t.Errorf("client tcp_info = %+v", *cl.Info)
			}

			// The server's n bytes were acknowledged.
			sv := waitConn(t, laddr, caddr, func(s *Socket) bool { return s.Info != nil && s.Info.BytesAcked == n })
			if sv.State != "ESTABLISHED" || sv.SendQ != 0 || sv.RecvQ != 0 || sv.Inode == 0 || sv.Inode == lInode {
				t.Errorf("server socket = %+v", *sv)
			}

			// The listener: accept queue empty, wqueue is the backlog limit.
			socks, err := DumpTCP()
			if err != nil {
				t.Fatal(err)
			}
			ls := findSocket(socks, laddr, "LISTEN")
			if ls == nil {
				t.Fatalf("listener %s not in the dump", laddr)
			}
			if ls.Inode != lInode || ls.RecvQ != 0 || ls.SendQ <= 0 || ls.Remote == "" {
				t.Errorf("listener = %+v, want inode %d, empty accept queue, backlog limit > 0", *ls, lInode)
			}
			if b, err := os.ReadFile("/proc/sys/net/core/somaxconn"); err == nil {
				if max, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); max > 0 && ls.SendQ > max {
					t.Errorf("listener backlog %d exceeds net.core.somaxconn %d", ls.SendQ, max)
				}
			}
		})
	}
}

// TestDumpTCPOrphanFinWait1 reproduces the sockets of seed 004: the application closed a
// connection whose peer does not read, so the socket lingers in FIN_WAIT1 without a file,
// holding its send queue.
func TestDumpTCPOrphanFinWait1(t *testing.T) {
	lc := net.ListenConfig{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) {
			// A small receive buffer, inherited by accepted sockets, so the window closes soon.
			serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_RCVBUF, 4096)
		})
		return errors.Join(err, serr)
	}}
	l, err := lc.Listen(context.Background(), "tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c, err := net.Dial("tcp4", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close() // with unread data: sends RST, which frees the orphan
	laddr, caddr := l.Addr().String(), c.LocalAddr().String()

	// Fill the send queue until writes block.
	buf := make([]byte, 64<<10)
	c.SetWriteDeadline(time.Now().Add(300 * time.Millisecond))
	for {
		if _, err := c.Write(buf); err != nil {
			break
		}
	}
	before := waitConn(t, caddr, laddr, func(s *Socket) bool { return s.SendQ > 0 })
	if before.Orphaned() {
		t.Errorf("open connection counted as orphan: %+v", *before)
	}
	c.Close()

	o := waitConn(t, caddr, laddr, func(s *Socket) bool { return s.State == "FIN_WAIT1" && s.Inode == 0 })
	if o.SendQ <= 0 || o.Mem == nil || o.Mem.WmemQueued < o.SendQ || !o.Orphaned() {
		t.Errorf("orphan = %+v mem %+v: want send queue held, wmem_queued >= send_q, Orphaned", *o, diagMemOf(o))
	}
	sum := Summarize([]Socket{*o, *before}, 1)
	fw := sum.ByState["FIN_WAIT1"]
	if sum.Total != 2 || fw.Count != 1 || fw.Orphans != 1 || fw.SendQ != o.SendQ || fw.MemBytes != o.MemBytes() {
		t.Errorf("Summarize = %+v", sum)
	}
	if len(sum.Top) != 1 {
		t.Errorf("Top = %+v, want 1 socket", sum.Top)
	}
}

func TestSummarize(t *testing.T) {
	mem := func(r, q, f, b int64) *SKMemInfo {
		return &SKMemInfo{RmemAlloc: r, WmemQueued: q, FwdAlloc: f, Backlog: b, WmemAlloc: 1 << 20, Optmem: 1 << 20, Len: 9}
	}
	socks := []Socket{
		{State: "ESTABLISHED", Local: "a", Inode: 7, RecvQ: 10, SendQ: 20, Mem: mem(100, 200, 300, 400)},
		{State: "ESTABLISHED", Local: "b", Inode: 0, RecvQ: 1, Mem: mem(1, 0, 0, 0)}, // not yet accepted
		{State: "FIN_WAIT1", Local: "c", Inode: 0, SendQ: 5000, Mem: mem(0, 6000, 100, 0)},
		{State: "FIN_WAIT2", Local: "d", Inode: 0, Mem: mem(0, 0, 0, 0)}, // full socket: orphan
		{State: "FIN_WAIT2", Local: "e", Inode: 0},                       // timewait mini socket
		{State: "LAST_ACK", Local: "f", Inode: 0, Mem: mem(0, 10, 0, 0)},
		{State: "TIME_WAIT", Local: "g"},
		{State: "LISTEN", Local: "h", Inode: 9, RecvQ: 3, SendQ: 4096, Mem: mem(0, 0, 0, 0)},
		{State: "SYN_RECV", Local: "i"},
		{State: "CLOSE_WAIT", Local: "j", Inode: 0, Mem: mem(0, 0, 0, 0)}, // not yet accepted
	}
	sum := Summarize(socks, 3)
	want := map[string]SocketStateTotal{
		"ESTABLISHED": {Count: 2, RecvQ: 11, SendQ: 20, MemBytes: 1001, Holding: 2},
		"FIN_WAIT1":   {Count: 1, SendQ: 5000, MemBytes: 6100, Orphans: 1, Holding: 1},
		"FIN_WAIT2":   {Count: 2, Orphans: 1},
		"LAST_ACK":    {Count: 1, MemBytes: 10, Orphans: 1, Holding: 1},
		"TIME_WAIT":   {Count: 1},
		"LISTEN":      {Count: 1, RecvQ: 3, SendQ: 4096},
		"SYN_RECV":    {Count: 1},
		"CLOSE_WAIT":  {Count: 1},
	}
	if sum.Total != int64(len(socks)) || !reflect.DeepEqual(sum.ByState, want) {
		t.Errorf("Summarize = %+v\nwant by state %+v", sum, want)
	}
	var top []string
	for _, s := range sum.Top {
		top = append(top, s.Local)
	}
	if !reflect.DeepEqual(top, []string{"c", "a", "f"}) {
		t.Errorf("Top = %v, want [c a f]", top)
	}
	if s := Summarize(nil, 5); s.Total != 0 || len(s.ByState) != 0 || s.Top != nil {
		t.Errorf("Summarize(nil) = %+v", s)
	}
}

// diagMsg builds a SOCK_DIAG_BY_FAMILY netlink message as the kernel sends it.
func diagMsg(seq uint32, family, state uint8, src, dst []byte, sport, dport uint16, rq, wq, inode uint32, attrs ...[]byte) []byte {
	ne := binary.NativeEndian
	body := make([]byte, inetDiagMsgLen)
	body[0], body[1] = family, state
	binary.BigEndian.PutUint16(body[4:], sport)
	binary.BigEndian.PutUint16(body[6:], dport)
	copy(body[8:24], src)
	copy(body[24:40], dst)
	ne.PutUint32(body[56:], rq)
	ne.PutUint32(body[60:], wq)
	ne.PutUint32(body[68:], inode)
	for _, a := range attrs {
		body = append(body, a...)
	}
	return nlMsg(sockDiagByFamily, seq, body)
}

func nlMsg(typ uint16, seq uint32, body []byte) []byte {
	ne := binary.NativeEndian
	m := make([]byte, nlmsgHdrLen, nlmsgHdrLen+len(body)+3)
	ne.PutUint32(m[0:], uint32(nlmsgHdrLen+len(body)))
	ne.PutUint16(m[4:], typ)
	ne.PutUint32(m[8:], seq)
	m = append(m, body...)
	for len(m)%4 != 0 {
		m = append(m, 0)
	}
	return m
}

func nlAttr(typ uint16, v []byte) []byte {
	a := make([]byte, 4, 4+len(v)+3)
	binary.NativeEndian.PutUint16(a[0:], uint16(4+len(v)))
	binary.NativeEndian.PutUint16(a[2:], typ)
	a = append(a, v...)
	for len(a)%4 != 0 {
		a = append(a, 0)
	}
	return a
}

// negErrno is the int the kernel puts in NLMSG_ERROR and NLMSG_DONE: -errno.
func negErrno(e unix.Errno) []byte {
	v := -int32(e)
	return diagU32s(uint32(v))
}

func diagU32s(vs ...uint32) []byte {
	b := make([]byte, 4*len(vs))
	for i, v := range vs {
		binary.NativeEndian.PutUint32(b[4*i:], v)
	}
	return b
}

// tcpInfoBytes is a struct tcp_info of n bytes with recognisable values.
func tcpInfoBytes(n int) []byte {
	ne := binary.NativeEndian
	b := make([]byte, 248)
	b[0], b[2], b[3], b[4] = 4, 1, 2, 3
	ne.PutUint32(b[8:], 204000)  // rto
	ne.PutUint32(b[16:], 1448)   // snd_mss
	ne.PutUint32(b[20:], 536)    // rcv_mss
	ne.PutUint32(b[68:], 125000) // rtt
	ne.PutUint32(b[72:], 500)
	ne.PutUint32(b[80:], 10)
	ne.PutUint32(b[96:], 14480)
	ne.PutUint32(b[100:], 7)
	ne.PutUint64(b[104:], 1<<40)
	ne.PutUint64(b[120:], 370841)
	ne.PutUint64(b[128:], 99)
	ne.PutUint32(b[144:], 12345)
	ne.PutUint64(b[160:], 125000000)
	ne.PutUint64(b[168:], 1000)
	ne.PutUint64(b[176:], 600)
	ne.PutUint64(b[184:], 300)
	return b[:n]
}

func TestParseDiagDump(t *testing.T) {
	v4 := func(a, b, c, d byte) []byte { return []byte{a, b, c, d} }
	msg := diagMsg(1, unix.AF_INET, 4, v4(131, 225, 1, 2), v4(129, 93, 3, 4), 33302, 20001, 0, 370841, 0,
		nlAttr(inetDiagSKMemInfo, diagU32s(0, 87380, 2304, 16384, 1792, 400000, 0, 0, 3)),
		nlAttr(5, []byte{3}), // INET_DIAG_SHUTDOWN: ignored
		nlAttr(inetDiagInfo, tcpInfoBytes(232)))
	ip6 := make([]byte, 16)
	ip6[15] = 1
	msg6 := diagMsg(1, unix.AF_INET6, 10, ip6, make([]byte, 16), 22, 0, 0, 128, 4242)
	stale := diagMsg(0, unix.AF_INET, 1, v4(1, 1, 1, 1), v4(2, 2, 2, 2), 1, 2, 0, 0, 0)
	done := nlMsg(nlmsgDone, 1, diagU32s(0))

	var dump []byte
	dump = append(dump, msg...)
	dump = append(dump, stale...)
	dump = append(dump, msg6...)
	dump = append(dump, done...)
	socks, fin, err := parseDiagDump(nil, dump, 1, &memSlab{})
	if err != nil || !fin {
		t.Fatalf("parseDiagDump: done=%v err=%v", fin, err)
	}
	if len(socks) != 2 {
		t.Fatalf("got %d sockets, want 2 (the stale-sequence message skipped): %+v", len(socks), socks)
	}
	s := socks[0]
	if s.Family != "inet" || s.State != "FIN_WAIT1" || s.Local != "131.225.1.2:33302" || s.Remote != "129.93.3.4:20001" ||
		s.SendQ != 370841 || s.Inode != 0 {
		t.Errorf("v4 socket = %+v", s)
	}
	wantMem := SKMemInfo{Rcvbuf: 87380, WmemAlloc: 2304, Sndbuf: 16384, FwdAlloc: 1792, WmemQueued: 400000, Drops: 3, Len: 9}
	if s.Mem == nil || *s.Mem != wantMem {
		t.Errorf("mem = %+v, want %+v", diagMemOf(&s), wantMem)
	}
	wantInfo := TCPInfo{Len: 232, State: 4, Retransmits: 1, Probes: 2, Backoff: 3, RTOUsec: 204000, SndMSS: 1448,
		RcvMSS: 536, RTTUsec: 125000, RTTVarUsec: 500, SndCwnd: 10, RcvSpace: 14480, TotalRetrans: 7,
		PacingRateBps: 1 << 40, BytesAcked: 370841, BytesReceived: 99, NotsentBytes: 12345,
		DeliveryRateBps: 125000000, BusyUsec: 1000, RwndLimitedUsec: 600, SndbufLimitedUsec: 300}
	if s.Info == nil || *s.Info != wantInfo {
		t.Errorf("info = %+v\nwant   %+v", s.Info, wantInfo)
	}
	if s6 := socks[1]; s6.Family != "inet6" || s6.State != "LISTEN" || s6.Local != "[::1]:22" || s6.Remote != "[::]:0" ||
		s6.SendQ != 128 || s6.Inode != 4242 || s6.Mem != nil || s6.Info != nil {
		t.Errorf("v6 socket = %+v", s6)
	}

	// Older kernels: a 104-byte tcp_info (before pacing_rate, 3.15) and 8 SK_MEMINFO
	// entries (before DROPS) leave the later fields zero and say so in Len.
	old := diagMsg(1, unix.AF_INET, 1, v4(10, 0, 0, 1), v4(10, 0, 0, 2), 1, 2, 5, 6, 7,
		nlAttr(inetDiagSKMemInfo, diagU32s(1, 2, 3, 4, 5, 6, 7, 8)), nlAttr(inetDiagInfo, tcpInfoBytes(104)))
	socks, _, err = parseDiagDump(nil, old, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := socks[0]
	if o.Mem.Len != 8 || o.Mem.Backlog != 8 || o.Mem.Drops != 0 || o.Info.Len != 104 || o.Info.TotalRetrans != 7 ||
		o.Info.PacingRateBps != 0 || o.Info.BytesAcked != 0 || o.Info.DeliveryRateBps != 0 {
		t.Errorf("old-kernel socket = %+v mem %+v info %+v", o, *o.Mem, *o.Info)
	}
	// A tcp_info that ends inside a field leaves that field zero.
	socks, _, _ = parseDiagDump(nil, diagMsg(1, unix.AF_INET, 1, v4(1, 0, 0, 1), v4(1, 0, 0, 2), 1, 2, 0, 0, 0,
		nlAttr(inetDiagInfo, tcpInfoBytes(110))), 1, nil)
	if i := socks[0].Info; i.Len != 110 || i.PacingRateBps != 0 || i.TotalRetrans != 7 {
		t.Errorf("110-byte tcp_info = %+v", *i)
	}
}

func TestParseDiagDumpErrors(t *testing.T) {
	v4 := []byte{127, 0, 0, 1}
	good := diagMsg(1, unix.AF_INET, 1, v4, v4, 1, 2, 0, 0, 0)
	errMsg := nlMsg(nlmsgError, 1, negErrno(unix.EACCES))
	doneErr := nlMsg(nlmsgDone, 1, negErrno(unix.ENOBUFS))
	bad := make([]byte, 4) // an attribute header claiming 200 bytes
	binary.NativeEndian.PutUint16(bad[0:], 200)
	binary.NativeEndian.PutUint16(bad[2:], inetDiagInfo)
	badAttr := diagMsg(1, unix.AF_INET, 1, v4, v4, 1, 2, 0, 0, 0, bad)
	badFam := diagMsg(1, unix.AF_UNIX, 1, v4, v4, 1, 2, 0, 0, 0)
	short := nlMsg(sockDiagByFamily, 1, make([]byte, 40))
	longLen := append([]byte(nil), good...)
	binary.NativeEndian.PutUint32(longLen, uint32(len(good)+100))

	for _, tc := range []struct {
		name string
		b    []byte
		has  string
		is   error
	}{
		{"error message", errMsg, "permission denied", unix.EACCES},
		{"done with error", doneErr, "dump", unix.ENOBUFS},
		{"attribute longer than message", badAttr, "attribute 2 of length 200", nil},
		{"not inet", badFam, "address family 1", nil},
		{"short inet_diag_msg", short, "inet_diag_msg of 40 bytes", nil},
		{"length past the datagram", longLen, "netlink message length", nil},
		{"trailing bytes", append(append([]byte(nil), good...), 1, 2, 3), "trailing bytes", nil},
	} {
		_, _, err := parseDiagDump(nil, tc.b, 1, nil)
		if err == nil || !strings.Contains(err.Error(), tc.has) || (tc.is != nil && !errors.Is(err, tc.is)) {
			t.Errorf("%s: err = %v, want one containing %q", tc.name, err, tc.has)
		}
	}
	// An ACK (NLMSG_ERROR with 0) is not an error.
	if _, fin, err := parseDiagDump(nil, nlMsg(nlmsgError, 1, diagU32s(0)), 1, nil); err != nil || fin {
		t.Errorf("ACK: fin=%v err=%v", fin, err)
	}
}

func FuzzParseDiagDump(f *testing.F) {
	v4 := []byte{127, 0, 0, 1}
	f.Add(diagMsg(1, unix.AF_INET, 1, v4, v4, 1, 2, 3, 4, 5,
		nlAttr(inetDiagSKMemInfo, diagU32s(1, 2, 3, 4, 5, 6, 7, 8, 9)), nlAttr(inetDiagInfo, tcpInfoBytes(232))))
	f.Add(append(diagMsg(1, unix.AF_INET6, 10, make([]byte, 16), make([]byte, 16), 22, 0, 0, 128, 1,
		nlAttr(inetDiagInfo, tcpInfoBytes(61))), nlMsg(nlmsgDone, 1, diagU32s(0))...))
	f.Add(nlMsg(nlmsgError, 1, negErrno(unix.EACCES)))
	f.Fuzz(func(t *testing.T, b []byte) {
		socks, _, err := parseDiagDump(nil, b, 1, &memSlab{})
		for _, s := range socks {
			if s.Info != nil && s.Info.Len < 0 {
				t.Fatal("negative tcp_info length")
			}
		}
		_ = err
		// The attribute parsers alone, on arbitrary bytes.
		var i TCPInfo
		parseTCPInfo(&i, b)
		var m SKMemInfo
		parseSKMemInfo(&m, b)
		if m.Len != len(b)/4 || i.Len != len(b) {
			t.Fatalf("Len %d/%d for %d bytes", m.Len, i.Len, len(b))
		}
	})
}

func TestSocketsCaptureRoundTrip(t *testing.T) {
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	socks, err := ReadSockets(HostRoot())
	if err != nil {
		t.Fatal(err)
	}
	if findSocket(socks, l.Addr().String(), "LISTEN") == nil {
		t.Fatalf("ReadSockets(host) misses the listener %s", l.Addr())
	}
	b, err := CaptureSockets(socks)
	if err != nil {
		t.Fatal(err)
	}
	root := TxtarRoot(&txtar.Archive{Files: []txtar.File{{Name: "headroom/sockets.json", Data: b}}}, "capture")
	again, err := ReadSockets(root)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(socks, again) {
		t.Error("sockets changed through the capture")
	}
	if _, err := ReadSockets(TxtarRoot(&txtar.Archive{}, "empty")); !errors.Is(err, ErrNotSupported) {
		t.Errorf("capture without sockets.json: %v, want ErrNotSupported", err)
	}
	if _, err := ParseSockets(bytes.NewReader([]byte(`{"not":"an array"}`))); err == nil {
		t.Error("ParseSockets accepted an object")
	}
	if b, _ := CaptureSockets(nil); string(b) != "[]" {
		t.Errorf("CaptureSockets(nil) = %s, want []", b)
	}
}

// openConns makes n loopback connections (2n sockets plus a listener).
func openConns(tb testing.TB, n int) {
	tb.Helper()
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { l.Close() })
	accepted := make(chan net.Conn, n)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	for range n {
		c, err := net.Dial("tcp4", l.Addr().String())
		if err != nil {
			tb.Fatal(err)
		}
		s := <-accepted
		tb.Cleanup(func() { c.Close(); s.Close() })
	}
}

// BenchmarkDumpTCP1k dumps a namespace holding 1000 loopback connections (2001 sockets
// plus whatever else the host has), opening a socket per dump as DumpTCP does.
func BenchmarkDumpTCP1k(b *testing.B) {
	openConns(b, 1000)
	var n int
	for b.Loop() {
		socks, err := DumpTCP()
		if err != nil {
			b.Fatal(err)
		}
		n = len(socks)
	}
	b.ReportMetric(float64(n), "sockets")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/socket")
}

// BenchmarkSockDiagReuse is the sampler's way: one SockDiag and one slice reused.
func BenchmarkSockDiagReuse(b *testing.B) {
	openConns(b, 1000)
	d, err := OpenSockDiag()
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	var socks []Socket
	for b.Loop() {
		socks, err = d.DumpTCP(socks[:0])
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(socks)), "sockets")
}

// The guards of tune --verify ask whether tcp_info came with a field before they trust its
// zero: the struct ends earlier on older kernels (delivery_rate at 160, 4.9; bytes_received
// at 128, 4.1).
func TestTCPInfoFieldsByLength(t *testing.T) {
	v4 := func(a, b, c, d byte) []byte { return []byte{a, b, c, d} }
	info := func(n int) *TCPInfo {
		t.Helper()
		socks, _, err := parseDiagDump(nil, diagMsg(1, unix.AF_INET, 1, v4(10, 0, 0, 1), v4(10, 0, 0, 2), 1, 2, 0, 0, 0,
			nlAttr(inetDiagInfo, tcpInfoBytes(n))), 1, nil)
		if err != nil || len(socks) != 1 || socks[0].Info == nil {
			t.Fatalf("%d-byte tcp_info: %v %+v", n, err, socks)
		}
		return socks[0].Info
	}
	cases := []struct {
		n              int
		rate           int64
		rateOK         bool
		acked, recv    int64
		deliveredKnown bool
	}{
		{104, 0, false, 0, 0, false},             // 3.14: neither
		{128, 0, false, 0, 0, false},             // bytes_acked but not bytes_received
		{136, 0, false, 370841, 99, true},        // 4.1
		{160, 0, false, 370841, 99, true},        // 4.6: ends just before delivery_rate
		{167, 0, false, 370841, 99, true},        // ends inside delivery_rate
		{168, 125000000, true, 370841, 99, true}, // 4.9
		{232, 125000000, true, 370841, 99, true},
	}
	for _, c := range cases {
		ti := info(c.n)
		if r, ok := ti.DeliveryRate(); r != c.rate || ok != c.rateOK {
			t.Errorf("%d bytes: DeliveryRate() = %d, %v; want %d, %v", c.n, r, ok, c.rate, c.rateOK)
		}
		if a, r, ok := ti.Delivered(); a != c.acked || r != c.recv || ok != c.deliveredKnown {
			t.Errorf("%d bytes: Delivered() = %d, %d, %v; want %d, %d, %v", c.n, a, r, ok, c.acked, c.recv, c.deliveredKnown)
		}
	}
	var none *TCPInfo
	if _, ok := none.DeliveryRate(); ok {
		t.Error("a socket without tcp_info has a delivery rate")
	}
}
