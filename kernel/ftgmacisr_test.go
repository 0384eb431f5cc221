package kernel

import "testing"

// fix40b: ftgmac100's interrupt-status line (drivers/net/ethernet/faraday/ftgmac100.c
// ftgmac100_poll: "[ISR] = 0x%x: %s%s%s%s") is a receive overrun when it sets NO_RXBUF or
// RPKT_LOST, and names the interface.
func TestFtgmacISROverrun(t *testing.T) {
	for _, c := range []struct{ msg, dev string }{
		{"ftgmac100 1e660000.ethernet eth0: [ISR] = 0x200: NO_RXBUF ", "eth0"},
		{"ftgmac100 1e660000.ethernet eth0: [ISR] = 0x300: NO_RXBUF RPKT_LOST ", "eth0"},
		{"ftgmac100 1e680000.ethernet eth1: [ISR] = 0x100: RPKT_LOST ", "eth1"},
		{"[ISR] = 0x304: NO_RXBUF RPKT_LOST ", ""},
	} {
		dev, ok := IsDriverRxFIFOOverflow(c.msg)
		if !ok || dev != c.dev {
			t.Errorf("%q: dev %q ok %v, want %q", c.msg, dev, ok, c.dev)
		}
	}
	for _, msg := range []string{
		"ftgmac100 1e660000.ethernet eth0: [ISR] = 0x400: AHB_ERR ",    // a bus error only
		"ftgmac100 1e660000.ethernet eth0: [ISR] = 0x800: PHYSTS_CHG",  // the PHY's link
		"ftgmac100 1e660000.ethernet eth0: [ISR] = 0xzz: NO_RXBUF ",    // no status word
		"ftgmac100 1e660000.ethernet eth0: failed to allocate rx page", // the allocation failure
		"ftgmac100 1e660000.ethernet eth0: NO_RXBUF seen in a sentence",
	} {
		if _, ok := IsDriverRxFIFOOverflow(msg); ok {
			t.Errorf("%q read as an overrun", msg)
		}
	}
}
