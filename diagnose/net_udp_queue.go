package diagnose

import (
	"fmt"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// A UDP socket in a pasted ss table whose Recv-Q stands at its receive buffer (issue 29,
// fix18b; corpus 1647: rsyslogd's "UNCONN 214272 0 0.0.0.0:514"). For a UDP socket ss's
// Recv-Q is sk_rmem_alloc (net/ipv4/udp_diag.c → inet_diag's idiag_rqueue =
// sk_rmem_alloc_get), the truesize of the datagrams queued, and __udp_enqueue_schedule_skb
// (net/ipv4/udp.c) drops each arriving datagram once rmem_alloc exceeds sk_rcvbuf, counting
// it as Udp RcvbufErrors. A queue at its buffer is therefore dropping whatever arrives, in
// the one snapshot the table is. The buffer is ss -m's rb where the table shows skmem;
// otherwise net.core.rmem_default (the host's setting where the text gives it, else the
// stock 212992 of 64-bit kernels), which every socket that does not set SO_RCVBUF has. The
// queue may pass its buffer by at most the last datagram's truesize (the check runs before
// the charge), so a Recv-Q between the buffer and half again above it is "at" it; a larger
// one belongs to a socket that set a larger SO_RCVBUF, whose fill the table does not tell.

// udpStockRmemDefault is net.core.rmem_default's stock value on 64-bit kernels (SK_RMEM_MAX,
// include/net/sock.h: 256 packets of SKB_TRUESIZE(256)).
const udpStockRmemDefault = 212992

type udpFullQueue struct {
	s       kernel.Socket
	buf     int64
	bufFrom string
	src     string
}

// udpQueueAtBuffer finds the UDP sockets of the last pasted socket table whose receive queue
// stands at the buffer.
func udpQueueAtBuffer(tl *model.Timeline) (full []udpFullQueue, n int, src string) {
	s := tl.LastWith(func(s *model.Sample) bool {
		for i := range s.SocketList {
			if udpSocketRow(&s.SocketList[i]) {
				return true
			}
		}
		return false
	})
	if s == nil {
		return nil, 0, ""
	}
	src = sampleSource(s, "socket table")
	def, defFrom := int64(udpStockRmemDefault), "the stock net.core.rmem_default; the text does not give the host's"
	if c, ok := currentSetting(tl, "net.core.rmem_default"); ok {
		x, ok := settingInt(c)
		if !ok || x <= 0 {
			return nil, 0, ""
		}
		def, defFrom = x, "net.core.rmem_default, "+c.Source
	} else if len(settingValues(tl, "net.core.rmem_default")) > 0 {
		// The text sets rmem_default (sysctl -w, sysctl.conf) but does not say what the host
		// ran with when the table was taken: the buffer is unknown.
		return nil, 0, ""
	}
	for i := range s.SocketList {
		r := s.SocketList[i]
		if !udpSocketRow(&r) {
			continue
		}
		n++
		buf, from := def, defFrom
		q := r.RecvQ
		if r.Mem != nil && r.Mem.Rcvbuf > 0 {
			buf, from = r.Mem.Rcvbuf, "the socket's own, ss -m rb"
			q = max(q, r.Mem.RmemAlloc)
		}
		if q >= buf && q <= buf+buf/2 {
			full = append(full, udpFullQueue{s: r, buf: buf, bufFrom: from, src: src})
		}
	}
	return full, n, src
}

// udpSocketRow: an inet socket that is UDP's: Netid udp, or, in a table without Netid, the
// UNCONN state with an address and a numeric port (ss -u; unix datagram sockets have a path).
func udpSocketRow(r *kernel.Socket) bool {
	if r.Netid != "" {
		return strings.HasPrefix(r.Netid, "udp")
	}
	if r.State != "UNCONN" {
		return false
	}
	k := strings.LastIndexByte(r.Local, ':')
	if k <= 0 || k == len(r.Local)-1 {
		return false
	}
	for _, c := range r.Local[k+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// udpQueueFull is the finding for UDP sockets whose queue stands at the buffer.
func udpQueueFull(tl *model.Timeline) (Result, bool) {
	full, n, src := udpQueueAtBuffer(tl)
	if len(full) == 0 {
		return Result{}, false
	}
	var ev []Evidence
	for _, f := range full {
		ev = append(ev, Evidence{
			What:   fmt.Sprintf("UDP socket %s: Recv-Q (bytes queued, truesize)", f.s.Local),
			Value:  fmt.Sprintf("%d, at its receive buffer %d (%s): datagrams arriving now are dropped", f.s.RecvQ, f.buf, f.bufFrom),
			Source: f.src,
		})
	}
	if n > len(full) {
		ev = append(ev, Evidence{What: "other UDP sockets in the table", Value: fmt.Sprintf("%d, their queues below the buffer", n-len(full)), Source: src})
	}
	for _, k := range []string{"net.core.rmem_max", "net.ipv4.udp_mem"} {
		if v, s, ok := tl.Sysctl(k); ok {
			ev = append(ev, Evidence{What: k, Value: v, Source: s})
		}
	}
	return Fired(Finding{
		Severity: Warning,
		Title:    "a UDP socket's receive queue is at its buffer: arriving datagrams are dropped",
		Evidence: ev,
		Explanation: "For a UDP socket ss's Recv-Q is the truesize of the datagrams queued (sk_rmem_alloc); once it passes " +
			"the socket's receive buffer (SO_RCVBUF, or net.core.rmem_default for a socket that does not set it) every " +
			"further datagram is dropped and counted as Udp RcvbufErrors (__udp_enqueue_schedule_skb, net/ipv4/udp.c); " +
			"nothing retransmits it. A queue at its buffer means the reader does not keep up: a larger buffer " +
			"(the application's SO_RCVBUF up to net.core.rmem_max) absorbs bursts, a faster reader fixes a steady " +
			"excess. The table is one snapshot; `nstat -az UdpRcvbufErrors` twice, a few seconds apart, counts the loss.",
	}), true
}
