package artifact

import "strings"

// hostapd's and wpa_supplicant's own words for a failed netlink read (h19a, from
// src/drivers/driver_nl80211.c send_and_recv: wpa_printf(MSG_INFO, "nl80211: %s->nl_recvmsgs
// failed: %d (%s)", __func__, res, nl_geterror(res))). libnl's -5 is NLE_NOMEM, printed
// "Out of memory", and libnl maps both ENOMEM and ENOBUFS to it (lib/error.c
// nl_syserr2nlerr): on the nl80211 event or command socket it is almost always ENOBUFS, the
// kernel dropping notifications that did not fit the socket's receive buffer
// (net/netlink/af_netlink.c netlink_overrun), as a scan's burst of BSS events does. Its "Out
// of memory" is libnl's name for the errno, not the host's memory, nor the kernel's OOM
// killer. Gate: one strings.Index for "nl_recvmsgs failed: -5".

const wifiNlRecvWhy = "hostapd's or wpa_supplicant's nl80211 read failed with libnl's -5 (src/drivers/driver_nl80211.c send_and_recv: \"nl80211: FUNC->nl_recvmsgs failed: -5 (Out of memory)\"): libnl's NLE_NOMEM, which it also gives for ENOBUFS (lib/error.c nl_syserr2nlerr), so most often the kernel dropped nl80211 notifications that did not fit the netlink socket's receive buffer (net/netlink/af_netlink.c netlink_overrun; a scan's burst of BSS results); the daemon retries. Its \"Out of memory\" is libnl's name for the errno: no statement about the host's free memory and no kill by the kernel's OOM killer; headroom has no rule for a netlink socket's overrun"

// wifiDaemonOwnLine says why t is hostapd's or wpa_supplicant's nl_recvmsgs failure.
func wifiDaemonOwnLine(t string) (string, bool) {
	k := strings.Index(t, "nl_recvmsgs failed: -5")
	if k < 0 || len(t) > maxErrnoLineBytes && !jsonLogRecord(t) {
		return "", false
	}
	if rest := t[k+len("nl_recvmsgs failed: -5"):]; rest != "" && rest[0] >= '0' && rest[0] <= '9' {
		return "", false // -50, -52: another errno
	}
	return wifiNlRecvWhy, true
}

// isWiFiDaemonTag: hostapd's and wpa_supplicant's syslog tags, and dhcpcd's (fix29c: its
// carrier lines, wifiLinkEventLine).
func isWiFiDaemonTag(tag string) bool {
	return tag == "hostapd" || tag == "wpa_supplicant" || tag == "dhcpcd"
}

// fix29c: the Wi-Fi link's state as its daemons log it, under their own syslog tags
// (isWiFiDaemonTag): wpa_supplicant's control-interface events (src/common/wpa_ctrl.h
// WPA_EVENT_REGDOM_CHANGE "CTRL-EVENT-REGDOM-CHANGE init=%s type=%s", relayed from
// cfg80211's NL80211_CMD_REG_CHANGE; WPA_EVENT_DISCONNECTED "CTRL-EVENT-DISCONNECTED
// bssid=%s reason=%d") and dhcpcd's carrier changes (src/dhcpcd.c dhcpcd_handlecarrier:
// "%s: carrier lost" / "%s: carrier acquired", the kernel's IFF_RUNNING of the interface).
// They are the host's network lines, but events of the radio link and its regulatory
// setting: no counter, no drop and no memory figure a rule reads. Named, not read.
var wifiLinkForms = []struct{ needle, why string }{
	{"CTRL-EVENT-REGDOM-CHANGE ", "wpa_supplicant relayed the kernel's regulatory-domain change (CTRL-EVENT-REGDOM-CHANGE init=I type=T, cfg80211's NL80211_CMD_REG_CHANGE: init=CORE type=WORLD is the kernel's own world domain, init=COUNTRY_IE a country learned from the access point's beacon): the Wi-Fi's allowed channels and power, a setting event of the host's radio; no counter, no drop and no memory figure; headroom has no reader for Wi-Fi regulatory events"},
	{"CTRL-EVENT-DISCONNECTED ", "wpa_supplicant's notice that the station left its access point (CTRL-EVENT-DISCONNECTED bssid=B reason=R, the 802.11 reason code): a Wi-Fi link event of the host; no counter, no drop and no memory figure; headroom has no reader for Wi-Fi link events"},
	{": carrier lost", "dhcpcd saw the interface's carrier drop (dhcpcd.c dhcpcd_handlecarrier: \"IF: carrier lost\", the kernel's IFF_RUNNING cleared: the Wi-Fi disassociated or the cable went out) and removes the interface's addresses and routes: a link-state event of the host; no counter, no drop and no memory figure; headroom has no reader for link-state events"},
	{": carrier acquired", "dhcpcd saw the interface's carrier come back (dhcpcd.c dhcpcd_handlecarrier: \"IF: carrier acquired\", IFF_RUNNING set) and starts its lease again: a link-state event of the host; no counter, no drop and no memory figure; headroom has no reader for link-state events"},
}

// wifiLinkEventLine says why t, a line under a Wi-Fi daemon's or dhcpcd's tag, is one of
// wifiLinkForms. Gate: 'C' or "carrier", then one Index per form.
func wifiLinkEventLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes || !strings.Contains(t, "CTRL-EVENT-") && !strings.Contains(t, ": carrier ") {
		return "", false
	}
	for _, f := range wifiLinkForms {
		if k := strings.Index(t, f.needle); k >= 0 {
			if f.needle[0] == ':' && strings.TrimRight(t[k+len(f.needle):], " .") != "" {
				continue // "IF: carrier lost" is the whole record
			}
			return f.why, true
		}
	}
	return "", false
}
