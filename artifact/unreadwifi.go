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

// isWiFiDaemonTag: hostapd's and wpa_supplicant's syslog tags.
func isWiFiDaemonTag(tag string) bool {
	return tag == "hostapd" || tag == "wpa_supplicant"
}
