package diagnose

import (
	"fmt"
	"strings"
	"testing"
)

// h28b: packet generators', scanners' and high-rate senders' own counters and send errors,
// written from the programs' format strings (zmap src/monitor.c and src/send.c, masscan
// src/main-status.c, nmap scan_engine.cc and tcpip.cc, hping3 statistics.c, the kernel's
// net/core/pktgen.c, tcpreplay src/common/sendpacket.c, dnsperf src/dnsperf.c). Each is named
// as the tool's own figures; a raw IP or AF_PACKET send refused with ENOBUFS is named as the
// transmit queue's drop and raises no UDP finding (udp_sendmsg never counted it).

func TestH28bPacketSenderLinesNamed(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{" 0:12 12%; send: 1234567 1.00 Mp/s (998.53 Kp/s avg); recv: 123 12 p/s (10 p/s avg); drops: 0 p/s (0 p/s avg); hitrate: 0.01%\n 0:13 13% (1m12s left); send: 2234567 1.00 Mp/s (998.53 Kp/s avg); recv: 223 12 p/s (10 p/s avg); drops: 1.20 Kp/s (900 p/s avg); hitrate: 0.01%\n", "zmap's status line"},
		{"Starting masscan 1.3.2 (http://bit.ly/14GZzcT) at 2026-11-30 10:00:00 GMT\nrate: 99.98-kpps, 1.23% done,   0:12:34 remaining, found=12\n", "masscan's status line"},
		{"Increasing send delay for 10.0.0.1 from 0 to 5 due to 11 out of 36 dropped probes since last increase.\n", "nmap's send delay raised"},
		{"--- 10.0.0.1 hping statistic ---\n100 packets transmitted, 98 packets received, 2% packet loss\n", "hping3 statistics.c"},
		{"Result: OK: 1234(c1000+d234) usec, 1000000 (60byte,0frags)\n  810372pps 388Mb/sec (388978560bps) errors: 0\n", "pktgen_if_show"},
		{"Actual: 1000 packets (600000 bytes) sent in 1.00 seconds\nRated: 600000.0 Bps, 4.80 Mbps, 1000.00 pps\nStatistics for network device: eth0\n\tSuccessful packets:        1000\n\tFailed packets:            0\n\tTruncated packets:         0\n\tRetried packets (ENOBUFS): 0\n\tRetried packets (EAGAIN):  0\n", "tcpreplay's summary"},
		{"Statistics:\n\n  Queries sent:         50000\n  Queries completed:    44229 (88.46%)\n  Queries lost:         5771 (11.54%)\n", "dnsperf's or resperf's statistics"},
		{"\tRetried packets (ENOBUFS): 1534\n", "raw IP or AF_PACKET socket"},
		{"Nov 30 10:12:16.001 [DEBUG] send: send_packet failed for 10.1.2.3. No buffer space available\n", "raw IP or AF_PACKET socket"},
		{"sendto in send_ip_packet_sd: sendto(5, packet, 44, 0, 10.0.0.1, 16) => No buffer space available\n", "raw IP or AF_PACKET socket"},
		{"Offending packet: TCP 10.0.0.2:54321 > 10.0.0.1:80 S ttl=42 id=1234 iplen=44  seq=1 win=1024 <mss 1460>\n", "nmap's description of the packet"},
		{"  12 open sockets                         0/0/0 UDP errors (send/recv/cong)\n", "SIPp's screen line"},
		{"WARNING: eth_send of ARP packet returned -1 rather than expected 42 (errno=105: No buffer space available)\n", "raw IP or AF_PACKET socket"},
	} {
		namedNoNICFinding(t, c.text, c.want, "a packet tool's own line")
	}
}

// A UDP socket's ENOBUFS (OpenVPN's) still reaches the send side of udp-rcvbuf-errors; a
// sentence naming the tools' words is not their output.
func TestH28bPacketSenderCounterCases(t *testing.T) {
	tl := parseText19b(t, "Nov 30 10:12:01 vpn1 openvpn[812]: write UDPv4: No buffer space available (fd=6,code=105)\n")
	if f := findingOf(Run(tl, nil), "udp-rcvbuf-errors"); f == nil {
		t.Errorf("OpenVPN's UDP send ENOBUFS lost its finding")
	}
	// SIPp's UDP transport sends on a UDP socket: its ENOBUFS is Udp SndbufErrors'.
	sipp := "2026-11-30\t10:00:00.123456\t1764496800.123456: Unable to send UDP message, errno = 105 (No buffer space available)\n2026-11-30\t10:00:00.223456\t1764496800.223456: Unable to send UDP message, errno = 105 (No buffer space available)\n"
	for _, form := range []string{sipp, "```\n" + sipp + "```\n", "Last Error: Unable to send UDP message, errno = 105 (No buffer space av...\n"} {
		f := findingOf(Run(parseText19b(t, form), nil), "udp-rcvbuf-errors")
		if f == nil {
			t.Errorf("%q: SIPp's UDP send ENOBUFS reached no udp-rcvbuf-errors", form)
			continue
		}
		if want := "ENOBUFS"; !strings.Contains(f.Title, want) {
			t.Errorf("%q: title %q lacks %q", form, f.Title, want)
		}
		if form == sipp && !strings.Contains(fmt.Sprint(f.Evidence), "2 records") {
			t.Errorf("SIPp: evidence %+v lacks the 2 records", f.Evidence)
		}
	}
	if f := findingOf(Run(parseText19b(t, "2026-11-30\t10:00:00.1\t1.1: Unable to send UDP message, errno = 55 (No buffer space available)\n"), nil), "udp-rcvbuf-errors"); f != nil {
		t.Errorf("FreeBSD's errno 55 read as Linux's ENOBUFS")
	}
	for _, text := range []string{
		"I set the rate: 100-kpps in masscan and it says 50% done but nothing is found.\n",
		"Should Failed packets: be zero? Our tcpreplay run had Retried packets (ENOBUFS) in the thousands.\n",
		"The docs say Queries lost: the number of queries with no answer.\n",
		"We saw \"No buffer space available\" from our scanner's transmit yesterday.\n",
	} {
		tl := parseText19b(t, text)
		for _, w := range []string{"masscan's status", "tcpreplay's summary", "dnsperf's", "raw IP or AF_PACKET"} {
			if h23cNamed(tl, w) {
				t.Errorf("%q: named %q", text, w)
			}
		}
	}
}
