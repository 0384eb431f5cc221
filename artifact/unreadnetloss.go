package artifact

import (
	"strings"

	"headroom/model"
)

// Network loss named in prose, with no counter (issue 29 item 4, g56–g58 fix15b): "watch UDP
// `InErrors` counters ... notice hefty UDP loss", "the OS was getting the packets ... but
// dropped as the rx buffer was full", "RTP Packet Lost". Such a text names the kernel's
// counters or a loss at a socket buffer, evidence of this domain that no rule can judge
// without a figure; before, it exited 3 as if it held nothing. Its lines are listed as
// unread with what they name, and nothing is diagnosed from them (a counter said to grow is
// stated.go's, read before this).
//
// Gated: it runs once, after everything else is read and the other OS is asked
// (parseText), and only when nothing was read and no line was listed (the text would exit
// 3 otherwise); it walks the prose lines already kept (at most statedMaxLines) with
// substring searches.

// netLossClasses: each names what a line must hold (every group: one of its words) and why
// it is listed.
var netLossClasses = []struct {
	all     [][]string
	why     string
	noDigit bool // only a line with no figure: one with a figure is the stated figures' (unreadprose.go)
}{
	{all: [][]string{{"rcvbuferrors", "sndbuferrors", "receive buffer errors", "send buffer errors", "packet receive errors"}},
		why: netLossCountersWhy},
	{all: [][]string{{"udp"}, {"inerrors", "in errors"}}, why: netLossCountersWhy},
	{all: [][]string{{"dropped", "drops", "dropping", "discarded"}, {"rx buffer", "receive buffer", "recv buffer", "socket buffer", "udp buffer", "rcvbuf"}},
		why: "datagrams said to be dropped at a full socket receive buffer, with no counter: Udp RcvbufErrors (/proc/net/snmp, netstat -su) would count them, and the text gives none; headroom judges the counters, not the sentence"},
	{all: [][]string{{"udp", "rtp"}, {" loss", " lost", "packet loss", "packets lost"}},
		why: "UDP (RTP) packet loss stated with no counter: where the datagrams were lost (the receiving socket's buffer, Udp RcvbufErrors; the backlog, softnet_stat; the NIC, its drop counters) is not in the text; headroom judges the counters, not the sentence"},
	// Packets said to drop or be lost with no protocol, counter or place (fix36b): "Thrift
	// packets drop", "the number of processed/dropped thrift packets". Where they were lost
	// (a program's own queue, the socket's buffer, the backlog, the NIC) is not in the text.
	// "packets" plural with a loss word, so "drop the packet filter" is not.
	{all: [][]string{{"packets"}, {"packets drop", "dropped", "drops", "dropping", " lost", "losing", " loss"}}, noDigit: true,
		why: "packets said to be dropped or lost with no counter and no place named: a program's own queue (a channel or ring it drops from when full, which no kernel counter sees), the receiving socket's buffer (Udp RcvbufErrors), the backlog (softnet_stat) or the NIC (its drop counters); headroom judges the counters, not the sentence"},
	// IP reassembly failures (Ip ReasmFails, /proc/net/snmp; netstat -s "packet reassemblies
	// failed"): fragments that did not complete within net.ipv4.ipfrag_time or were evicted
	// when the fragment memory passed ipfrag_high_thresh (net/ipv4/ip_fragment.c,
	// inet_frag_kill/ip_expire count IPSTATS_MIB_REASMFAILS). Named only with IP or
	// fragments in the line, so an application's own "reassembly" is not.
	{all: [][]string{{"reassembl"}, {"fail", "could not", "couldn't", "cannot", "unable"}, {"ip ", "ipv4", "ipv6", "fragment"}},
		why: "IP reassembly failures named with no value (Ip ReasmFails, /proc/net/snmp, netstat -s \"packet reassemblies failed\"; fragments expire after net.ipv4.ipfrag_time or are dropped past ipfrag_high_thresh, net/ipv4/ip_fragment.c): `nstat -az IpReasmFails IpReasmReqds` twice tells the rate; headroom has no rule for reassembly failures"},
}

const netLossCountersWhy = "the kernel's UDP error counters named (Udp InErrors, RcvbufErrors, SndbufErrors: /proc/net/snmp, netstat -su) without their values: `nstat -az UdpInErrors UdpRcvbufErrors UdpInDatagrams`, twice a few seconds apart, tells the share lost; headroom judges the counters, not the sentence"

// maxNetLossLines bounds the lines listed: a few name the evidence; a long post is not
// listed line by line.
const maxNetLossLines = 6

// namedNetLoss lists the prose lines that name network loss when the text holds nothing
// else headroom reads.
func (d *doc) namedNetLoss() {
	if !NothingRead(d.tl) || len(d.tl.Unparsed) > 0 {
		return
	}
	listed := 0
	for _, p := range d.proseLines {
		if listed >= maxNetLossLines {
			break
		}
		if why, ok := netLossLine(p.text); ok {
			d.tl.Unparsed = append(d.tl.Unparsed, model.Unparsed{FirstLine: p.no, LastLine: p.no, Why: why})
			if d.tl.Lines != nil {
				// counted as prose when it was kept (account ran); now it is listed instead
				d.tl.Lines.Prose--
				d.tl.Lines.Unparsed++
			}
			listed++
		}
	}
}

// netLossLine says why prose line t names network loss: every word group of a class has a
// word in t, and no negation stands before the first ("No UDP drops" is an expectation).
func netLossLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false
	}
	l := strings.ToLower(t)
classes:
	for _, c := range netLossClasses {
		if c.noDigit && hasDigit(t) {
			continue
		}
		first := -1
		for _, group := range c.all {
			at := -1
			for _, w := range group {
				if k := strings.Index(l, w); k >= 0 && (at < 0 || k < at) {
					at = k
				}
			}
			if at < 0 {
				continue classes
			}
			if first < 0 || at < first {
				first = at
			}
		}
		if reNegated.MatchString(l[max(0, first-16):first]) {
			continue
		}
		return c.why, true
	}
	return "", false
}
