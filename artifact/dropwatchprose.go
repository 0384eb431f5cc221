package artifact

import (
	"strconv"

	"headroom/internal/lazyre"
)

// A dropwatch line quoted inside a prose line with no code span around it (fix54d): "the
// place dropwatch saw the drops is: 101 drops at udp_queue_rcv_skb+3df (0xffffffff94c68abf)",
// a Chinese note's "上面dropwatch看到的丢包的地点是: 101 drops at ...". inlineDropwatchDrops
// reads the line in backticks; here the quote must carry dropwatch's whole location, the
// symbol with its offset and the address in brackets (net/core/drop_monitor.c reports the
// kfree_skb caller's address, the client prints "%d drops at %s+%llx (%p)"), so "5 drops at
// the switch" or "drops at udp_queue_rcv_skb" named in a sentence is no quote. Only drops at
// the UDP socket-queue sites count (udpQueueDropSite); the number must stand alone (after
// the start, a space, a colon or a CJK character).
var reProseDropwatch = lazyre.New(`(?:^|[\s:：(（\x{3000}-\x{9fff}])(\d+) drops? at ([A-Za-z_][\w.]*)\+(?:0x)?[0-9a-fA-F]+(?:/(?:0x)?[0-9a-fA-F]+)?\s+\(0x[0-9a-fA-F]+\)`)

// proseDropwatchDrops returns the drops the prose t quotes at a UDP socket-queue site and the
// offset of the first such quote, or 0.
func proseDropwatchDrops(t string) (int64, int) {
	var n int64
	at := -1
	for _, m := range reProseDropwatch.FindAllStringSubmatchIndex(t, -1) {
		if !udpQueueDropSite(t[m[4]:m[5]]) {
			continue
		}
		v, err := strconv.ParseInt(t[m[2]:m[3]], 10, 64)
		if err != nil || v <= 0 {
			continue
		}
		n += v
		if at < 0 {
			at = m[2]
		}
	}
	return n, max(at, 0)
}
