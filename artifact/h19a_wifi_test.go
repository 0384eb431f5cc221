package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

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

// h19a: hostapd's and wpa_supplicant's "nl_recvmsgs failed: -5 (Out of memory)" is libnl's
// NLE_NOMEM (ENOBUFS too): read as unread with what it proves, under its syslog tag or bare,
// never as the host's OOM; another errno or a sentence is not it.
func TestH19aWiFiDaemonNlRecvmsgs(t *testing.T) {
	for _, s := range []string{
		"nl80211: send_and_recv->nl_recvmsgs failed: -5 (Out of memory)",
		"nl80211: recv->nl_recvmsgs failed: -5",
	} {
		if why, oom, ok := serverOwnLine(s); !ok || !oom || !strings.Contains(why, "NLE_NOMEM") {
			t.Errorf("%q: %v %v %q", s, ok, oom, why)
		}
	}
	for _, s := range []string{
		"nl80211: send_and_recv->nl_recvmsgs failed: -52 (Unknown error)",
		"nl80211: send_and_recv->nl_recvmsgs failed: -33 (Object not found)",
		"wlan0: CTRL-EVENT-CONNECTED - Connection to 11:22:33:44:55:66 completed",
	} {
		if _, ok := wifiDaemonOwnLine(s); ok {
			t.Errorf("%q: read as the nl_recvmsgs -5 form", s)
		}
	}
	tl := ParseString("Nov 30 09:12:01 ap hostapd[812]: nl80211: send_and_recv->nl_recvmsgs failed: -5 (Out of memory)\n", "t", Options{})
	kills := 0
	for _, e := range tl.Events {
		if e.Kind == model.EventOOMKill {
			kills++
		}
	}
	if len(tl.Unparsed) == 0 || !strings.Contains(tl.Unparsed[0].Why, "NLE_NOMEM") || kills != 0 || len(tl.RuntimeOOMs) != 0 {
		t.Errorf("syslog line: unread %+v, OOM kills %d", tl.Unparsed, kills)
	}
}
