package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// g56–g58 fixed by class (fix15b): the UDP buffer-error counters stated to grow by the words
// netstat -su prints and /proc/net/udp's drops column; PowerDNS's re-export of the kernel's
// UDP counters; a BSD's netstat -s udp section; a program's own counters as one JSON line;
// network loss named in prose with no counter. Every snippet is written for its class.

// netstat -su's "send buffer errors" / "receive buffer errors" said to grow (net-tools
// statistics.c prints SndbufErrors and RcvbufErrors under these words). Before: not read.
func TestFix15bStatedBufferErrorsWords(t *testing.T) {
	wantStated(t, model.RateStatedUDPSndbufRising, []statedCase{
		{"Under the fan-out test our relay keeps pushing up the count of send buffer errors in netstat.\n", 1},
		{"During the upload the send buffer errors kept climbing on the edge box.\n", 1},
		{"I ran netstat -su | grep 'send buffer errors' on the gateway and saw that the counter has been increasing all morning.\n", 1},
		{"A QUIC load test increased the number of `send buffer errors` on our proxy.\n", 1},
		// counter-cases: a negation, a possibility, the receive side, no growth
		{"The send buffer errors did not increase during the test.\n", 0},
		{"If send buffer errors increase, raise wmem_max.\n", 0},
		{"The receive buffer errors kept climbing on the edge box.\n", 0},
		{"netstat -su shows 0 send buffer errors and the number of receive buffer errors stays the same.\n", 0},
	})
	wantStated(t, model.RateStatedUDPRcvbufRising, []statedCase{
		{"Our syslog relay's receive buffer errors jumped after the upgrade.\n", 1},
		{"We noticed a rise in receive buffer errors on the collector.\n", 1},
		// counter-cases
		{"The number of receive buffer errors remains the same while we benchmark.\n", 0},
		{"The send buffer errors kept climbing on the edge box.\n", 0},
	})
}

// /proc/net/udp's drops column (sk_drops, udp4_format_sock) said to show drops. Before: not read.
func TestFix15bStatedProcNetUDPDrops(t *testing.T) {
	wantStated(t, model.RateStatedUDPSocketDrops, []statedCase{
		{"The receiver shows lots of datagram drops reported in /proc/net/udp for its socket.\n", 1},
		{"On the ingest box /proc/net/udp shows increasing drops for port 5000.\n", 1},
		{"The drops column of /proc/net/udp keeps rising for our listener.\n", 1},
		// counter-cases: none reported, no drop word, a possibility
		{"The other listener's entries in `/proc/net/udp` report no drops at all.\n", 0},
		{"I will look at /proc/net/udp next week.\n", 0},
		{"If the drops column of /proc/net/udp keeps rising, raise rmem_default.\n", 0},
	})
}

// PowerDNS's udp-* metrics are /proc/net/snmp's Udp counters (pdns/misc.cc udpErrorStats).
// Before: the text was prose (exit 3).
func TestFix15bPowerDNSUDPMetrics(t *testing.T) {
	get := "$ rec_control get udp-recvbuf-errors udp-in-errors questions\n5512\n90210\n77\n"
	if v, ok := udpCounter(get, "RcvbufErrors"); !ok || v != 5512 {
		t.Errorf("rec_control get: RcvbufErrors %d %v, want 5512", v, ok)
	}
	if v, ok := udpCounter(get, "InErrors"); !ok || v != 90210 {
		t.Errorf("rec_control get: InErrors %d %v, want 90210", v, ok)
	}
	rows := "udp-answers 18\nudp-in-errors 31\nudp-noport-errors 7\nudp-sndbuf-errors 2\n"
	if v, ok := udpCounter(rows, "SndbufErrors"); !ok || v != 2 {
		t.Errorf("get-all rows: SndbufErrors %d %v, want 2", v, ok)
	}
	dump := "udp-in-errors             44       udp-noport-errors         3\n"
	if v, ok := udpCounter(dump, "NoPorts"); !ok || v != 3 {
		t.Errorf("dumpStats row: NoPorts %d %v, want 3", v, ok)
	}
	// counter-cases: the daemon's own metrics only; a value missing; another program
	for _, text := range []string{
		"$ rec_control get questions cache-hits\n881\n12\n",
		"$ rec_control get udp-in-errors udp-noport-errors\n107\n",
		"udp-queries 881\nudp-answers 880\n",
	} {
		if _, ok := udpCounter(text, "InErrors"); ok {
			t.Errorf("%q: read Udp InErrors", text)
		}
	}
}

// A BSD's netstat -s udp section (usr.bin/netstat/inet.c udp_stats) is another OS's.
func TestFix15bBSDNetstatUDP(t *testing.T) {
	bsd := "udp:\n\t812 datagrams received\n\t0 with bad data length field\n\t31 dropped due to no socket\n\t0 dropped due to full socket buffers\n\t0 not for hashed pcb\n"
	if tl := ParseString(bsd, "t", Options{}); tl.Host.OtherOS == "" || !strings.Contains(tl.Host.OtherOS, "dropped due to") {
		t.Errorf("BSD netstat -s udp: other OS %q", tl.Host.OtherOS)
	}
	// counter-case: Linux's netstat -su
	linux := "Udp:\n    812 packets received\n    31 packets to unknown port received\n    0 packet receive errors\n    900 packets sent\n    0 receive buffer errors\n    0 send buffer errors\n"
	if tl := ParseString(linux, "t", Options{}); tl.Host.OtherOS != "" {
		t.Errorf("Linux netstat -su: other OS %q", tl.Host.OtherOS)
	}
}

func fix15bUnread(text string) []string {
	tl := ParseString(text, "p", Options{})
	var out []string
	for _, u := range tl.Unparsed {
		out = append(out, u.Why)
	}
	return out
}

// A program's own counters as a one-line JSON object are listed unread. Before: prose.
func TestFix15bOneLineJSONCounters(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{`{"dns.server.packets_received":4410,"dns.server.packets_dropped":3}` + "\n", true},
		{`{"rx_bytes": 1200, "tx_bytes": 900}` + "\n", true},
		// counter-cases: one number; no counter key; not an object on one line
		{`{"packets_dropped":3}` + "\n", false},
		{`{"port":8080,"workers":4}` + "\n", false},
		{`{"a":{"packets_dropped":3,"packets_received":9}}` + "\n", false},
	} {
		got := false
		for _, w := range fix15bUnread(c.text) {
			got = got || w == jsonAppCountersWhy
		}
		if got != c.want {
			t.Errorf("%q: listed %v, want %v", c.text, got, c.want)
		}
	}
}

// Network loss named in prose with no counter, in a text with nothing else read: listed
// unread (not exit 3). Before: nothing listed.
func TestFix15bNamedNetLoss(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"Replay 300k queries and keep an eye on the UDP InErrors counters.\n", true},
		{"The listener loses datagrams: they were dropped because the socket buffer filled up.\n", true},
		{"Viewers see UDP packet loss when the relay is busy.\n", true},
		{"Our monitoring graphs RcvbufErrors for every node.\n", true},
		// counter-cases: negated, unrelated, TCP loss
		{"Expected: no UDP loss at this rate.\n", false},
		{"The build failed after the upgrade.\n", false},
		{"We lost the TCP session after a minute.\n", false},
	} {
		got := len(fix15bUnread(c.text)) > 0
		if got != c.want {
			t.Errorf("%q: listed %v, want %v", c.text, got, c.want)
		}
	}
	// counter-case: a text with something read lists nothing more (the namer runs only on
	// texts that would exit 3).
	tl := ParseString("net.core.rmem_max = 212992\nViewers see UDP packet loss when the relay is busy.\n", "p", Options{})
	if len(tl.Unparsed) != 0 {
		t.Errorf("a text with a setting read: listed %v", tl.Unparsed)
	}
}

// A BSD's text is named as another OS, its netstat lines not listed as Linux loss.
func TestFix15bNamedNetLossNotOnBSD(t *testing.T) {
	tl := ParseString("udp:\n\t40 datagrams received\n\t2 dropped due to full socket buffers\n", "t", Options{})
	if tl.Host.OtherOS == "" || len(tl.Unparsed) != 0 {
		t.Errorf("BSD netstat: other OS %q, listed %v", tl.Host.OtherOS, tl.Unparsed)
	}
}

// A pasted /proc/net/udp6 table (its header says "remote_address") is read with its drops
// column (sk_drops, __ip6_dgram_sock_seq_show). Before: listed unread.
func TestFix15bProcNetUDP6Table(t *testing.T) {
	text := "$ cat /proc/net/udp6\n" +
		"  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops\n" +
		"   97: 00000000000000000000000001000000:14E9 00000000000000000000000000000000:0000 07 00000000:00021000 00:00000000 00000000   999        0 55501 2 0000000000000000 310\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.UDPSockets) != 1 || len(tl.UDPSockets[0].Rows) != 1 || tl.UDPSockets[0].Rows[0].Drops != 310 || !tl.UDPSockets[0].Rows[0].IPv6Address {
		t.Fatalf("udp6 table: %+v", tl.UDPSockets)
	}
	// counter-case: /proc/net/tcp6's header and row are no UDP table
	tcp6 := "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n" +
		"   0: 00000000000000000000000000000000:0016 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 20843 1 0000000000000000 100 0 0 10 0\n"
	if tl := ParseString(tcp6, "p", Options{}); len(tl.UDPSockets) != 0 {
		t.Errorf("tcp6 table read as UDP sockets: %+v", tl.UDPSockets)
	}
}
