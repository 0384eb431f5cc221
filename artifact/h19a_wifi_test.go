package artifact

import "testing"

// h19a: Wi-Fi drivers' lines without stamp or syslog prefix. A device line whose driver's
// name starts with i or f (iwlwifi) was never read bare (the initramfs prefixes' case
// returned false); the Realtek drivers' "RTW: " prefix is read before a failed allocation.
func TestH19aBareWiFiLines(t *testing.T) {
	for _, s := range []string{
		"iwlwifi 0000:00:14.3: Failed to alloc_pages",
		"iwlwifi 0000:02:00.0: Falling back to small chunks of DMA",
		"RTW: recvbuf2recvframe: alloc_skb fail , drop frag frame",
		"R8188EU: recvbuf2recvframe: alloc_skb fail , drop frag frame",
		"Freeing initrd memory: 2048K",
	} {
		if !bareKernelLine(s) {
			t.Errorf("%q: not read as the kernel's line", s)
		}
	}
	for _, s := range []string{
		"iwlwifi 0000:00:14.3: loaded firmware version 72.daa05125.0 op_mode iwlmvm",
		"igb 0000:01:00.0 eth0: igb: eth0 NIC Link is Up 1000 Mbps Full Duplex",
		"RTW: rtw_ndev_init(wlan0) if1 mac_addr=00:11:22:33:44:55",
		"RTW: the driver could not alloc memory, said the forum",
		"if the driver says it failed to allocate, reload it",
	} {
		if bareKernelLine(s) {
			t.Errorf("%q: read as a kernel line", s)
		}
	}
}
