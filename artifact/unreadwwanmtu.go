package artifact

import (
	"strconv"
	"strings"
)

// fix38c: a cellular modem's USB network driver drops a received QMAP packet longer than
// its interface's MTU. Quectel's qmi_wwan_q.c (the QMAP rx fixup, as OpenWrt's 5G modem
// packages ship it) prints dev_info(dev, "drop skb_len=%x larger than mtu=%d\n"): the
// length in hexadecimal without "0x", the MTU in decimal. One packet discarded in software
// by the driver, an MTU mismatch between the modem's network and the host's interface; no
// count, no rate, no ring or memory figure. Named as unread (with the length decoded) so a
// paste of it is evidence and no rule reads "58c" as 58.

const wwanMTUNeedle = "drop skb_len="

// wwanMTUDropLine says why t is the driver's oversized-packet drop line.
func wwanMTUDropLine(t string) (string, bool) {
	k := strings.Index(t, wwanMTUNeedle)
	if k < 0 {
		return "", false
	}
	rest := t[k+len(wwanMTUNeedle):]
	sp := strings.IndexByte(rest, ' ')
	if sp < 1 || !strings.HasPrefix(rest[sp:], " larger than mtu=") {
		return "", false
	}
	n, err := strconv.ParseUint(rest[:sp], 16, 32)
	if err != nil {
		return "", false
	}
	mtu := strings.TrimRight(rest[sp+len(" larger than mtu="):], " \r\n")
	if _, err := strconv.ParseUint(mtu, 10, 32); err != nil {
		return "", false
	}
	return "a modem network driver's own drop of one received packet (Quectel qmi_wwan_q QMAP rx: \"drop skb_len=%x larger than mtu=%d\", the length in hexadecimal): 0x" +
		rest[:sp] + " = " + strconv.FormatUint(n, 10) + " bytes against the interface's MTU of " + mtu +
		": the modem's network MTU is larger than the host interface's (raise the interface's MTU to the modem's); one packet discarded in software, no count, no rate, no ring overrun and no memory figure; headroom has no rule for a driver's MTU drop", true
}
