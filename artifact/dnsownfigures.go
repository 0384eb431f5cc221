package artifact

import (
	"strconv"
	"strings"
)

// DNS servers' own figures that are no kernel counter or setting (fix32a, round 27 g122).
//
// dnsdist's dumpStats() (the console's showStats-style listing, dnsdist-lua-inspection.cc):
// its metrics sorted by name, printed as "name value" pairs, two pairs a row ("cache-hits
// 31599155    latency10-50    654685"); the Recursor's `rec_control get-all` prints the
// same names one pair a row. Most are the daemon's own accounting (cache-hits, responses,
// rule-drop: queries a rule dropped, dyn-blocked, fd-usage: its open descriptors,
// real-memory-usage: its own RSS); only the udp-* ones re-export the kernel's Udp counters,
// which tryPdnsUDPRows reads (pdnsudp.go): a block that holds one of them is left to it.
// The block is named as unread with what it holds, so a paste of it is no evidence-free
// text (exit 3) and nothing of it is taken for the host's state.
// Gated: the first field looked up in dnsdistMetricNames (a map), then a field count.

const pdnsOwnStatsWhy = "PowerDNS's own metrics (dnsdist's dumpStats() \"name value\" pairs, two a row; the Recursor's rec_control get-all): cache-hits/misses, responses, rule-drop (queries a rule of dnsdist dropped), dyn-blocked, latency buckets, fd-usage (the daemon's open descriptors), real-memory-usage (its own RSS): the daemon's accounting, not the kernel's counters (its udp-* metrics, re-exported from /proc/net/snmp, would be read); headroom has no rule for a DNS server's own metrics"

// dnsdistMetricNames: names of dnsdist's and the Recursor's own metrics that start a row.
var dnsdistMetricNames = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`acl-drops cache-hits cache-misses cpu-iowait cpu-steal
		cpu-sys-msec cpu-user-msec doh-query-pipe-full doh-response-pipe-full
		downstream-send-errors downstream-timeouts dyn-block-nmg-size dyn-blocked
		empty-queries fd-usage frontend-noerror frontend-nxdomain frontend-servfail
		latency-avg100 latency-avg1000 latency-avg10000 latency-avg1000000 latency-count
		latency-slow latency-sum latency0-1 latency1-10 latency10-50 latency100-1000
		latency50-100 no-policy noncompliant-queries noncompliant-responses
		over-capacity-drops packetcache-hits packetcache-misses queries rdqueries
		real-memory-usage responses rule-drop rule-nxdomain rule-refused rule-servfail
		rule-truncated security-status self-answered servfail-responses too-old-drops
		trunc-failures uptime all-outqueries answers-slow answers0-1 answers1-10
		answers10-100 answers100-1000 cache-entries concurrent-queries questions
		outgoing-timeouts throttled-out`) {
		m[n] = true
	}
	return m
}()

// isPdnsOwnStatsRow: a row of one or two "name value" pairs whose first name is one of
// dnsdistMetricNames.
func isPdnsOwnStatsRow(ft, t string) bool {
	if !dnsdistMetricNames[ft] {
		return false
	}
	n := len(fields(t))
	return n == 2 || n == 4
}

// pdnsStatsPairs: t's fields are "name value" pairs of metric names and counts; known
// counts the names dnsdistMetricNames holds, udp whether one is pdnsUDPMetrics'.
func pdnsStatsPairs(t string) (ok bool, known int, udp bool) {
	fs := fields(t)
	if len(fs) == 0 || len(fs) > 4 || len(fs)%2 != 0 {
		return false, 0, false
	}
	for p := 0; p < len(fs); p += 2 {
		if v, err := strconv.ParseInt(fs[p+1], 10, 64); err != nil || v < 0 || !isMetricName(fs[p]) {
			return false, 0, false
		}
		if dnsdistMetricNames[fs[p]] {
			known++
		}
		_, u := pdnsUDPMetrics[fs[p]]
		udp = udp || u
	}
	return true, known, udp
}

// minPdnsOwnNames: the names of dnsdistMetricNames a block must hold, so that one "queries
// 5" line of another program is not taken for the listing.
const minPdnsOwnNames = 3

// tryPdnsOwnStats names a block of such rows (a ".." elision line between them kept) as
// unread; a block that holds a udp-* metric is left to tryPdnsUDPRows.
func (d *doc) tryPdnsOwnStats(i int) int {
	k, last, known := i, i, 0
	for ; k < len(d.ls) && !d.ls[k].Kernel; k++ {
		t := strings.TrimSpace(d.ls[k].Text)
		if t == ".." || t == "..." {
			continue
		}
		ok, n, udp := pdnsStatsPairs(t)
		if udp {
			return 0
		}
		if !ok {
			break
		}
		known += n
		last = k
	}
	if known < minPdnsOwnNames {
		return 0
	}
	d.unparsed(i, last, pdnsOwnStatsWhy)
	return last + 1 - i
}

// Unbound's own settings in unbound.conf's server: clause ("\tso-rcvbuf: 8m", "\tmsg-cache-size:
// 256m", "\toutgoing-range: 8192"): the socket buffers it asks the kernel for (so-rcvbuf
// with SO_RCVBUFFORCE as root, else SO_RCVBUF capped at net.core.rmem_max:
// services/listen_dnsport.c set_recvbuf), its caches' memory and its own limits on sockets
// and queries. Settings the program asks for, not the host's state nor a kernel setting;
// named as unread (statedFiguresUnread) when nothing else was read, so a pasted config is no
// evidence-free text. Not one: a commented-out line ("# so-rcvbuf: 0", the example config's
// default), the name in a sentence, another key, a value that is no size.

var unboundSizeKeys = [...]string{"so-rcvbuf", "so-sndbuf", "msg-cache-size", "rrset-cache-size",
	"key-cache-size", "neg-cache-size", "infra-cache-numhosts", "outgoing-range",
	"num-queries-per-thread", "outgoing-num-tcp", "incoming-num-tcp", "max-udp-size",
	"edns-buffer-size", "msg-buffer-size", "stream-wait-size"}

const whyUnboundConfSize = "Unbound's own setting in unbound.conf's server: clause (so-rcvbuf/so-sndbuf: the socket buffers it asks for, SO_RCVBUFFORCE as root, else capped at net.core.rmem_max; msg-/rrset-cache-size: its caches' memory; outgoing-range, num-queries-per-thread: its own limits): what the program asks for, not the host's state; headroom has no reader for it"

// unboundConfSize: line t is "name: value" for one of unboundSizeKeys and a size (digits
// and an optional k/m/g suffix).
func unboundConfSize(t string) bool {
	t = strings.TrimSpace(t)
	c := strings.IndexByte(t, ':')
	if c < 9 || len(t) > 80 {
		return false
	}
	name, v := t[:c], strings.TrimSpace(t[c+1:])
	if h := strings.IndexByte(v, '#'); h >= 0 {
		v = strings.TrimSpace(v[:h]) // a trailing comment
	}
	known := false
	for _, k := range unboundSizeKeys {
		if name == k {
			known = true
			break
		}
	}
	if !known || v == "" {
		return false
	}
	if e := v[len(v)-1]; e == 'k' || e == 'K' || e == 'm' || e == 'M' || e == 'g' || e == 'G' {
		v = v[:len(v)-1]
	}
	return v != "" && leadingDigits(v) == v
}
