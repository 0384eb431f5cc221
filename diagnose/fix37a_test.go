package diagnose

import "testing"

// fix37a: a CAN driver's receive FIFO overflow records reach nic-rx-overruns with their
// count, and nothing about memory; a CAN send refused for a full TX queue is no finding.

func TestFix37aDriverRxFIFOOverflowFires(t *testing.T) {
	text := "[  621.952753] mcp251xfd spi0.0 can0: RX-0: FIFO overflow.\n" +
		"[  628.696688] mcp251xfd spi0.0 can0: RX-0: FIFO overflow.\n" +
		"[  635.661376] mcp251xfd spi0.0 can0: RX-0: FIFO overflow.\n"
	tl := pasteTimeline(t, text)
	f := mustFire(t, run(t, "nic-rx-overruns", tl), Warning)
	if !evidenceHas(f, "receive FIFO overflow", "3") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	for _, id := range []string{"alloc-fail-skb-drops", "oom-kill", "udp-rcvbuf-errors"} {
		if res := run(t, id, tl); len(res.Findings) > 0 {
			t.Errorf("%s fired: %+v", id, res.Findings)
		}
	}
	for name, text := range map[string]string{
		"tx error": "[  569.070135] mcp251xfd spi0.0 can0: CRC write command format error.\n",
		"bus-off":  "[  701.000000] gs_usb 1-1:1.0 can0: bus-off\n",
		"possible": "A FIFO overflow in the CAN controller could explain it.\n",
		"can tx":   "Under high bus load, CAN messages fill up the transmit queue, causing an `ENOBUFS` error.\n",
	} {
		if res := run(t, "nic-rx-overruns", pasteTimeline(t, text)); len(res.Findings) > 0 {
			t.Errorf("%s: fired: %+v", name, res.Findings)
		}
	}
}
