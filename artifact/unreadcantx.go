package artifact

import (
	"strings"
)

// A CAN socket's send refused for a full transmit queue (fix37a): SocketCAN's raw socket
// queues a frame to the interface's qdisc (a pfifo_fast whose limit is the interface's
// txqueuelen, 10 for a CAN device: drivers/net/can/dev/dev.c can_setup) and the send fails
// with ENOBUFS ("No buffer space available", cangen's and cansend's "write: No buffer space
// available") when that queue is full: the controller is not sending as fast as frames are
// written (bus load, no acknowledgement, bus-off, an unpowered peer). python-can's socketcan
// interface raises it as "Transmit buffer full" (can/interfaces/socketcan/socketcan.py
// send, on ENOBUFS). The interface's transmit queue, not the host's memory nor a UDP socket's
// buffer: no rule of headroom judges a CAN queue, so such a line (and a line stating a CAN
// interface's txqueuelen) is named as unread evidence, and the text no longer exits 3.
//
// The line must name CAN (an interface "canN"/"vcanN"/"slcanN", SocketCAN, can-utils'
// cangen/cansend/candump/canplayer, python-can, or "CAN" before bus/message/frame/interface/
// socket/controller) beside the errno's words; the errno alone stays errnoLogLine's. Gate:
// "can"/"CAN" (two byte searches) before the rest.

const canTxQueueWhy = "a CAN socket's send refused because the interface's transmit queue was full: SocketCAN's ENOBUFS (\"No buffer space available\"; python-can's \"Transmit buffer full\"), the qdisc queue of the CAN interface at its txqueuelen (10 by default for CAN devices) while the controller did not send (bus load, no acknowledgement, bus-off, an unpowered node): the interface's TX queue, not the host's memory nor a UDP socket buffer; ip -s link show dev canN (the TX dropped count and the CAN state) and tc -s qdisc tell; headroom has no rule for a CAN queue"

const canTxQueueLenWhy = "a CAN interface's txqueuelen stated (the length of its qdisc's queue of frames to send, 10 by default for CAN devices): a setting of the CAN interface, not memory nor a sysctl; headroom has no rule for a CAN queue"

// maxCANLineBytes bounds the line asked: a paragraph that tells the error and the queue's
// length together (a tracker's description on one line) runs past an errno line's bound.
const maxCANLineBytes = 1024

// canTxQueueLine says why a prose line t names a CAN transmit queue full (or a CAN
// interface's txqueuelen with its figure).
func canTxQueueLine(t string) (string, bool) {
	if len(t) > maxCANLineBytes || !strings.Contains(t, "can") && !strings.Contains(t, "CAN") {
		return "", false
	}
	if !namesCAN(t) {
		return "", false
	}
	if containsFoldASCII(t, "no buffer space available") || strings.Contains(t, "ENOBUFS") || containsFoldASCII(t, "transmit buffer full") {
		return canTxQueueWhy, true
	}
	if k := strings.Index(t, "txqueuelen"); k >= 0 && hasDigit(t[k:]) {
		return canTxQueueLenWhy, true
	}
	return "", false
}

// namesCAN: t names a CAN interface, SocketCAN or a CAN tool.
func namesCAN(t string) bool {
	for _, w := range []string{"socketcan", "SocketCAN", "cangen", "cansend", "candump", "canplayer", "python-can"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	for _, w := range []string{"CAN bus", "CAN message", "CAN frame", "CAN interface", "CAN socket", "CAN controller"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	// An interface name: "can0", "vcan1", "slcan0" as a word.
	for k := 0; k+3 < len(t); {
		j := strings.Index(t[k:], "can")
		if j < 0 {
			return false
		}
		j += k
		e := j + 3
		n := e
		for n < len(t) && t[n] >= '0' && t[n] <= '9' {
			n++
		}
		start := j
		if start >= 2 && t[start-2:start] == "sl" {
			start -= 2
		} else if start >= 1 && t[start-1] == 'v' {
			start--
		}
		if n > e && (start == 0 || !nameChar(t[start-1])) && (n == len(t) || !nameChar(t[n])) {
			return true
		}
		k = e
	}
	return false
}

func nameChar(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
