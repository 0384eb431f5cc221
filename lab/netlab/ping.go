package netlab

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
	"time"

	"golang.org/x/sys/unix"
)

// Ping sends count ICMP echo requests from host h to dst, interval apart, and returns the
// round-trip time of each reply (a lost reply is an error). It uses a raw ICMP socket
// created inside h's namespace, so it needs no ping binary and reaches only lab addresses.
func Ping(h *Host, dst netip.Addr, count int, interval, timeout time.Duration) ([]time.Duration, error) {
	if !dst.Is4() {
		return nil, fmt.Errorf("lab: ping %s: IPv4 only", dst)
	}
	var rtts []time.Duration
	err := h.Do(func() error {
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.IPPROTO_ICMP)
		if err != nil {
			return fmt.Errorf("lab: ping: raw socket in %s: %w", h.Netns(), err)
		}
		defer unix.Close(fd)
		tv := unix.NsecToTimeval(timeout.Nanoseconds())
		if err := unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv); err != nil {
			return fmt.Errorf("lab: ping: SO_RCVTIMEO: %w", err)
		}
		sa := &unix.SockaddrInet4{Addr: dst.As4()}
		id := uint16(unix.Gettid())
		buf := make([]byte, 1500)
		for seq := 1; seq <= count; seq++ {
			if seq > 1 {
				time.Sleep(interval)
			}
			req := echoRequest(id, uint16(seq), 56)
			sent := time.Now()
			if err := unix.Sendto(fd, req, 0, sa); err != nil {
				return fmt.Errorf("lab: ping %s seq %d: send: %w", dst, seq, err)
			}
			for {
				n, _, err := unix.Recvfrom(fd, buf, 0)
				if err != nil {
					if errors.Is(err, unix.EAGAIN) {
						return fmt.Errorf("lab: ping %s seq %d: no reply within %v", dst, seq, timeout)
					}
					if errors.Is(err, unix.EINTR) {
						continue
					}
					return fmt.Errorf("lab: ping %s seq %d: receive: %w", dst, seq, err)
				}
				if isEchoReply(buf[:n], id, uint16(seq)) {
					rtts = append(rtts, time.Since(sent))
					break
				}
				if time.Since(sent) >= timeout {
					return fmt.Errorf("lab: ping %s seq %d: no reply within %v", dst, seq, timeout)
				}
			}
		}
		return nil
	})
	return rtts, err
}

func echoRequest(id, seq uint16, payload int) []byte {
	b := make([]byte, 8+payload)
	b[0] = 8 // ICMP_ECHO
	binary.BigEndian.PutUint16(b[4:], id)
	binary.BigEndian.PutUint16(b[6:], seq)
	for i := 8; i < len(b); i++ {
		b[i] = byte(i)
	}
	binary.BigEndian.PutUint16(b[2:], inetChecksum(b))
	return b
}

// isEchoReply checks an IPv4 packet as a raw ICMP socket returns it (IP header included).
func isEchoReply(p []byte, id, seq uint16) bool {
	if len(p) < 20 || p[0]>>4 != 4 {
		return false
	}
	ihl := int(p[0]&0x0f) * 4
	if ihl < 20 || len(p) < ihl+8 {
		return false
	}
	icmp := p[ihl:]
	return icmp[0] == 0 && binary.BigEndian.Uint16(icmp[4:]) == id && binary.BigEndian.Uint16(icmp[6:]) == seq
}

// inetChecksum is the RFC 1071 one's-complement sum.
func inetChecksum(b []byte) uint16 {
	var s uint32
	for i := 0; i+1 < len(b); i += 2 {
		s += uint32(b[i])<<8 | uint32(b[i+1])
	}
	if len(b)%2 == 1 {
		s += uint32(b[len(b)-1]) << 8
	}
	for s>>16 != 0 {
		s = s&0xffff + s>>16
	}
	return ^uint16(s)
}
