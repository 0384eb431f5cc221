package artifact

import "strings"

// collectd's network plugin (fix26d): its config's "MaxPacketSize N" (src/network.c,
// network_config: the size of the UDP packets the plugin sends and the largest it accepts,
// 1452 bytes by default, 1024 to 65535) is the application's own packet size, neither a
// kernel socket buffer nor a drop counter. A forwarder whose MaxPacketSize is smaller than
// what its listener receives drops the metrics it cannot re-pack: collectd's own loss, no
// kernel counter. The line is listed as unread so the text is no evidence-free paste.
// Only the config line itself: "MaxPacketSize" in a sentence is prose.
const collectdMaxPacketWhy = "collectd's network plugin option MaxPacketSize (src/network.c: the size of the UDP packets it sends and the largest it accepts, in bytes): the application's own packet size, not a kernel socket buffer or drop counter; headroom has no reader for this config"

// collectdMaxPacketLine: t is a collectd config line "MaxPacketSize N".
func collectdMaxPacketLine(t string) bool {
	t = strings.TrimSpace(t)
	v, ok := strings.CutPrefix(t, "MaxPacketSize")
	if !ok || v == "" || (v[0] != ' ' && v[0] != '\t') {
		return false
	}
	v = strings.TrimSpace(v)
	if v == "" || len(v) > 5 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}
