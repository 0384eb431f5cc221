package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// dropwatch (the netdevice drop monitor's client, NET_DM over generic netlink; kernel side
// net/core/drop_monitor.c, trace_drop_common) prints one line per location and interval:
// "19 drops at __netif_receive_skb+49f (0xffffffff8147b4ef)" (the symbol and offset of the
// kfree_skb caller, then its address), newer clients "... [software]" or "[hardware]" and a
// drop reason. Each line says how many packets the kernel freed as dropped at that place in
// the window the session ran: drops at a location, not a counter since boot. A session is
// pasted with its prompts ("dropwatch> start", "Issue Ctrl-C to stop monitoring") around
// the lines, and Ctrl-C often lands on the last ("... ^CGot a stop message").

// DropwatchSession is one run of drop lines: the drops summed per location (the symbol
// without its offset) in the order first seen, and their total.
type DropwatchSession struct {
	Locations []DropwatchLocation `json:"locations"`
	Total     int64               `json:"total"`
}

// DropwatchLocation is a symbol and the drops counted at it.
type DropwatchLocation struct {
	Symbol string `json:"symbol"`
	Drops  int64  `json:"drops"`
}

// The location must look like code: an offset ("+49f") or an address ("(0xffffffff8147b4ef)",
// "location 0x..."), so "5 drops at the switch" in prose is no dropwatch line.
var reDropwatchLine = lazyre.New(`^(\d+) drops? at (?:location (0x[0-9a-fA-F]+)|([A-Za-z_][\w.]*)(?:\+(?:0x)?[0-9a-fA-F]+(?:/(?:0x)?[0-9a-fA-F]+)?(?:\s+\(0x[0-9a-fA-F]+\))?|\s+\(0x[0-9a-fA-F]+\)))`)

func isDropwatchLine(_, t string) bool {
	return strings.Contains(t, " drop") && reDropwatchLine.MatchString(strings.TrimSpace(t))
}

// tryDropwatch reads the run of drop lines that starts at line i.
func (d *doc) tryDropwatch(i int) int {
	s := &DropwatchSession{}
	at := map[string]int{}
	k := i
	for ; k < len(d.ls); k++ {
		m := reDropwatchLine.FindStringSubmatch(strings.TrimSpace(d.ls[k].Text))
		if m == nil {
			break
		}
		n, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			break
		}
		sym := m[2] + m[3]
		j, ok := at[sym]
		if !ok {
			j = len(s.Locations)
			at[sym] = j
			s.Locations = append(s.Locations, DropwatchLocation{Symbol: sym})
		}
		s.Locations[j].Drops += n
		s.Total += n
	}
	if k == i {
		return 0
	}
	d.addArtifact(KindDropwatch, d.ls[i].No, d.ls[k-1].No, s)
	var udp int64
	for _, l := range s.Locations {
		if udpQueueDropSite(l.Symbol) {
			udp += l.Drops
		}
	}
	d.noteUDPQueueDrops(udp, i)
	return k - i
}

// udpQueueDropSite: the kfree_skb callers where a UDP datagram is freed because its
// socket's receive queue is full, the site that charges Udp RcvbufErrors (fix26d): on 3.10
// __udp_queue_rcv_skb (sock_queue_rcv_skb's -ENOMEM, inlined into udp_queue_rcv_skb, which
// also frees at sk_rcvqueues_full), since 4.10 __udp_queue_rcv_skb after
// __udp_enqueue_schedule_skb, since 5.0 udp_queue_rcv_one_skb; udpv6_ the same for IPv6
// (net/ipv4/udp.c, net/ipv6/udp.c). Other sites (__udp4_lib_rcv: no socket, NoPorts or a
// bad checksum; __netif_receive_skb; nf_hook_slow) are no receive-buffer drop.
func udpQueueDropSite(sym string) bool {
	switch strings.TrimPrefix(sym, "__") {
	case "udp_queue_rcv_skb", "udp_queue_rcv_one_skb", "udpv6_queue_rcv_skb", "udpv6_queue_rcv_one_skb":
		return true
	}
	return false
}

// noteUDPQueueDrops records drops dropwatch counted at the UDP socket-queue site (line i)
// as a sample for udp-rcvbuf-errors.
func (d *doc) noteUDPQueueDrops(n int64, i int) {
	if n <= 0 {
		return
	}
	no := d.ls[i].No
	rates := model.Rates{model.RateStatedUDPDropwatchDrops: float64(n)}
	d.tl.Samples = append(d.tl.Samples, model.Sample{Source: fmt.Sprintf("line %d (dropwatch)", no), Rates: rates})
	d.addArtifact(KindStated, no, no, rates)
}

// inlineDropwatchDrops: a paragraph that quotes a dropwatch line in an inline code span
// ("dropwatch ... is reporting dropping with `95255 drops at udp_queue_rcv_skb+374
// (0xffffffff815e1c64)`"): the drops at a UDP socket-queue site and the offset of the first
// such span, or 0. A span must be the whole dropwatch line (offset or address), so "5 drops
// at the switch" in a sentence and another site's drops give 0. Any piece between two
// backticks is asked (a paste that wraps each line in backticks turns the pairs inside
// out). Gate: " drops at " and a backtick.
func inlineDropwatchDrops(t string) (int64, int) {
	if !strings.Contains(t, " drops at ") || strings.IndexByte(t, '`') < 0 {
		return 0, 0
	}
	var n int64
	at, off := -1, 0
	parts := strings.Split(t, "`")
	for j, part := range parts {
		if j > 0 && j < len(parts)-1 && strings.Contains(part, " drops at ") {
			m := reDropwatchLine.FindStringSubmatch(strings.TrimSpace(part))
			if m != nil && udpQueueDropSite(m[3]) {
				if v, err := strconv.ParseInt(m[1], 10, 64); err == nil {
					n += v
					if at < 0 {
						at = off
					}
				}
			}
		}
		off += len(part) + 1
	}
	return n, max(at, 0)
}
