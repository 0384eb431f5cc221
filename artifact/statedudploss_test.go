package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// Round 27 g124 (flow collectors) fixed by class (fix32b): UDP receive-side loss stated in
// prose (netstat -su's share, drops put down to the receive buffer, a "UDP errors" rate),
// /proc/net/udp rows under their command without the header, pmacct's core-to-plugin
// channel lines. Snippets from corpus 2765-2767, 2777, 2779 and written for their classes.

// A share of packets read off netstat -su (corpus 2765). Before: not read.
func TestFix32bNetstatSuShare(t *testing.T) {
	wantStated(t, model.RateStatedUDPRcvbufDropPct, []statedCase{
		{"Changing the heap did not help. `netstat -su` is showing about 80% of packets are dropped\n", 80},
		{"On the collector netstat -su shows 12.5% of the datagrams were lost during the test.\n", 12.5},
		// counter-cases: netstat -s (every protocol), a possibility, a threshold, no drop
		{"netstat -s is showing about 80% of packets are dropped\n", 0},
		{"If netstat -su shows 5% of packets dropped, raise rmem_max.\n", 0},
		{"Alert when netstat -su shows more than 5% of packets dropped.\n", 0},
		{"netstat -su shows 80% of packets are for port 2055.\n", 0},
	})
}

// Drops put down to the receive buffer in a UDP text (corpus 2767). Before: not read.
func TestFix32bDropsBecauseRcvbufOverflowed(t *testing.T) {
	const udp = "These UDP InErrors turned out to be receive errors.\n\n"
	wantStated(t, model.RateStatedUDPRcvbufRising, []statedCase{
		{udp + "<b>A</b>ll this means is that packets drop because RCVBUF is overflowed<sup>*</sup>.\n", 1},
		{udp + "The datagrams were dropped because the socket receive buffer was full.\n", 1},
		{udp + "Packets are lost due to receive buffer overflow on the collector.\n", 1},
		// counter-cases: a possibility, a negation, a text not about UDP, no buffer
		{udp + "If packets drop because RCVBUF is overflowed, raise rmem_max.\n", 0},
		{udp + "Packets are not dropped because the receive buffer is full; the NIC drops them.\n", 0},
		{"On our web server packets drop because the receive buffer is full.\n", 0},
		{udp + "Packets drop because the exporter is too slow.\n", 0},
	})
}

// A "UDP errors" rate read off a graph in a text that names RcvbufErrors (corpus 2777).
// Before: not read.
func TestFix32bUDPErrorsRate(t *testing.T) {
	const title = "# Performance of ELK cluster. UDP packet loss (RcvBufErrors)\n\n"
	wantStated(t, model.RateStatedUDPRcvbufPerSec, []statedCase{
		{title + "The problem I'm having is lost UDP packets.  In the screen shot below you'll see 1200 events/s for UDP Errors:\n", 1200},
		{title + "Our UDP errors peak at about 1,500/s on the busiest node.\n", 1500},
		// counter-cases: RcvbufErrors not named, a possibility, another rate, a threshold
		{"# Performance of ELK cluster\n\nIn the screen shot below you'll see 1200 events/s for UDP Errors:\n", 0},
		{title + "You'll see 1200 events/s for UDP errors if the buffer is too small.\n", 0},
		{title + "Logstash handles 1200 events/s for UDP input.\n", 0},
		{title + "Alert above 100 per second of UDP errors.\n", 0},
	})
}

// /proc/net/udp rows under their command, the header left out (corpus 2766). Before: the
// row was "output of `grep ... /proc/net/udp`: no reader for it".
func TestFix32bProcNetUDPBareRows(t *testing.T) {
	row := "52807: 00000000:2711 00000000:0000 07 00000000:00000000 00:00000000 00000000   521        0 441182764 2 ffff883ff2eaea40 134813340\n"
	text := "We noticed steadily increasing UDP drops:\n\n```\n[root@relay01 ~]# grep 441182764 /proc/net/udp\n" + row + "\n```\nNote the final col.\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.UDPSockets) != 1 || len(tl.UDPSockets[0].Rows) != 1 {
		t.Fatalf("tables %+v", tl.UDPSockets)
	}
	if r := tl.UDPSockets[0].Rows[0]; r.LocalPort != 10001 || r.Drops != 134813340 || r.Inode != 441182764 {
		t.Errorf("row %+v", r)
	}
	// counter-cases: /proc/net/raw's rows (the same columns), a row under prose, another
	// file named like it
	for _, c := range []string{
		"$ cat /proc/net/raw\n" + row,
		"The socket's row:\n" + row,
		"$ cat /proc/net/udplite\n" + row,
	} {
		if tl := ParseString(c, "p", Options{}); len(tl.UDPSockets) != 0 {
			t.Errorf("%q read as /proc/net/udp: %+v", c, tl.UDPSockets)
		}
	}
}

// pmacct's plugin_pipe_size and ctrl channel lines (corpus 2779): named as unread, no
// capped-buffer sample. Before: exit 3, nothing read.
func TestFix32bPmacctChannelLines(t *testing.T) {
	text := "INFO ( in/memory ): plugin_pipe_size=185152000 bytes plugin_buffer_size=1851520 bytes\n" +
		"INFO ( in/memory ): ctrl channel: obtained=212992 bytes target=800 bytes\n" +
		"WARN ( out/memory ): ctrl channel: obtained=212992 bytes target=4000000 bytes\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Samples) != 0 {
		t.Errorf("samples %+v", tl.Samples)
	}
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].FirstLine != 1 || tl.Unparsed[0].LastLine != 3 || !strings.Contains(tl.Unparsed[0].Why, "pmacct") {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
	// counter-cases: nfacctd's own UDP socket (nfacctd_pipe_size) keeps its reader; another
	// program's "obtained=" line is not pmacct's
	tl = ParseString("INFO ( default/core ): nfacctd_pipe_size: obtained=212992 target=33554432.\n", "p", Options{})
	if len(tl.Samples) == 0 || tl.Samples[0].Rates[model.RateStatedUDPRcvbufObtained] != 212992 {
		t.Errorf("nfacctd_pipe_size capped: %+v", tl.Samples)
	}
	for _, u := range ParseString("ctrl channel: obtained=212992 bytes target=800 bytes\n", "p", Options{}).Unparsed {
		if strings.Contains(u.Why, "pmacct") {
			t.Errorf("untagged line read as pmacct's: %+v", u)
		}
	}
}
