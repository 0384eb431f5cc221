package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix37a: a CAN driver's receive FIFO overflow in the kernel log is a stated overrun with
// its count; a CAN socket's full transmit queue is named, not read as memory or UDP.

func loggedRxFIFO(tl *model.Timeline) float64 {
	for _, s := range tl.Samples {
		if v, ok := s.Rates[model.RateLoggedRxFIFOOverflows]; ok {
			return v
		}
	}
	return 0
}

func TestFix37aDriverRxFIFOOverflowLogged(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"[  621.952753] mcp251xfd spi0.0 can0: RX-0: FIFO overflow.\n[  628.696688] mcp251xfd spi0.0 can0: RX-0: FIFO overflow.\n", 2},
		{"Feb 28 19:21:06 test kernel: [ 1470.418732] mcp25xxfd spi0.0 can0: RX-FIFO overflow in FIFO 2.\n", 1},
		{"[  100.000001] m_can_platform 4400e000.can can0: msg lost in rxf0\n", 1},
		{"[   55.100000] sja1000_platform 1a000000.can can1: data overrun interrupt\n", 1},
		{"[  569.1] mcp251xfd spi0.0 can0: RX-1: MAB overflow detected.\n", 1},
	} {
		tl := ParseString(c.text, "t", Options{})
		if got := loggedRxFIFO(tl); got != c.want {
			t.Errorf("%q: %v logged RX FIFO overflows, want %v", c.text, got, c.want)
		}
	}
	// Counter-cases: a TX error, bus-off, the TEF, and a sentence naming the overflow as a
	// possibility are no RX FIFO overflow record.
	for _, s := range []string{
		"[  569.070135] mcp251xfd spi0.0 can0: CRC write command format error.\n",
		"[  700.000000] mcp251xfd spi0.0 can0: Transmit Event FIFO buffer not empty. (seq=0x000001a3, tef_tail=0x000001a4, tef_head=0x000001a4, tx_head=0x000001a5).\n",
		"[  701.000000] gs_usb 1-1:1.0 can0: bus-off\n",
		"[  702.000000] mcp251xfd spi0.0 can0: TX-0: FIFO underflow.\n",
		"If the host is too slow you may see an RX-0: FIFO overflow in dmesg.\n",
		"A FIFO overflow could explain the dropped frames.\n",
	} {
		tl := ParseString(s, "t", Options{})
		if got := loggedRxFIFO(tl); got != 0 {
			t.Errorf("%q: read as %v RX FIFO overflows", s, got)
		}
	}
}

func TestFix37aCANTxQueueFullUnread(t *testing.T) {
	for _, s := range []string{
		"Under high bus load, CAN messages don't always get transmitted quickly. They can then fill up the transmit queue, causing an `ENOBUFS` error.\n",
		"When starting the python script, I receive the \"Transmit Buffer Full\" Error from `can/interfaces/socketcan/socketcan.py`.\n",
		"running `cangen can0` yields `write: no buffer space available`\n",
		"The can0 is initialised with `txqueuelen = 65536`.\n",
		"It sometimes happens that running `cangen can0` and `candump can0` yields `write: no buffer space available`, in which case the CAN doesn't work. " + strings.Repeat("Attempting to change the CAN interface settings fails. ", 8) + "The can0 is initialised with `txqueuelen = 65536`.\n",
	} {
		wantUnreadOnly(t, s, s, "CAN")
	}
	// Counter-cases: the errno without CAN (a UDP sender's), a canister, and "can" as a verb.
	for _, s := range []string{
		"sendto failed: No buffer space available\n",
		"We can see ENOBUFS from the UDP sender when the qdisc is full.\n",
		"The canister logged ENOBUFS twice.\n",
	} {
		tl := ParseString(s, "p", Options{})
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "CAN socket") || strings.Contains(u.Why, "CAN interface") {
				t.Errorf("%q: read as a CAN queue", s)
			}
		}
	}
}
