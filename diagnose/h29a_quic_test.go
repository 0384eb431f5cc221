package diagnose

import (
	"fmt"
	"strings"
	"testing"

	"headroom/artifact"
	"headroom/model"
)

// h29a: QUIC and HTTP/3 stacks' own lines, written from their format strings (quinn-udp
// src/unix.rs log_sendmsg_error, nginx src/os/unix/ngx_udp_sendmsg.c ngx_sendmsg, curl
// lib/vquic/vquic.c do_sendmsg, quic-go sys_conn.go, HAProxy src/stats.c and
// src/quic_sock.c). A failed UDP send with ENOBUFS reaches the send side of
// udp-rcvbuf-errors; another errno (EMSGSIZE, EIO from GSO) is named and raises nothing;
// quic-go's buffer warning stays without a finding, its figures kept as the program's.

// h29aForms: text bare, in a code fence and quoted "> ".
func h29aForms(text string) []string {
	return []string{text, "```\n" + text + "```\n", "> " + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n> ") + "\n"}
}

// h29aNamedNoFinding: text, in each of h29aForms, is named with want and raises no finding.
func h29aNamedNoFinding(t *testing.T, text, want string) {
	t.Helper()
	for _, form := range h29aForms(text) {
		tl := parseText19b(t, form)
		if !h23cNamed(tl, want) {
			t.Errorf("%q: not named %q; unparsed %+v", form, want, tl.Unparsed)
		}
		if d := Run(tl, nil); len(d.Findings) != 0 {
			t.Errorf("%q: findings %+v, want none", form, d.Findings)
		}
	}
}

func TestH29aQUICSendENOBUFS(t *testing.T) {
	for _, c := range []struct{ name, text, records string }{
		{"quinn tracing", "2026-11-02T10:00:01.123456Z  WARN quinn_udp: sendmsg error: Os { code: 105, kind: Uncategorized, message: \"No buffer space available\" }, Transmit: { destination: 192.0.2.7:4433, src_ip: None, ecn: Some(Ect0), len: 14400, segment_size: Some(1200) }\n", "1 records"},
		{"quinn journal", "Nov 02 10:00:01 relay1 iroh-relay[900]: 2026-11-02T10:00:01.123456Z  WARN quinn_udp::imp: sendmsg error: Os { code: 105, kind: Uncategorized, message: \"No buffer space available\" }, Transmit: { destination: [2001:db8::7]:4433, src_ip: None, enc: None, len: 1200, segment_size: None }\n", "1 records"},
		{"quinn env_logger", "[2026-11-02T10:00:01Z WARN  quinn_udp] sendmsg error: Os { code: 105, kind: Uncategorized, message: \"No buffer space available\" }\n", "1 records"},
		{"nginx quic", "2026/11/02 10:00:01 [alert] 1234#1234: *56789 sendmsg() failed (105: No buffer space available) while sending to client, client: 192.0.2.7, server: 0.0.0.0:443\n2026/11/02 10:00:01 [alert] 1234#1234: *56790 sendmsg() failed (105: No buffer space available) while sending to client, client: 192.0.2.8, server: 0.0.0.0:443\n", "2 records"},
		{"nginx compose", "nginx-1  | 2026/11/02 10:00:01 [alert] 29#29: *1203 sendmsg() failed (105: No buffer space available), client: 192.0.2.7, server: 0.0.0.0:443\n", "1 records"},
		{"curl verbose", "* sendmsg() returned -1 (errno 105)\ncurl: (55) sendmsg() returned -1 (errno 105)\n", "1 records"},
		{"curl exit line", "$ curl --http3-only -sS https://example.net/big -o /dev/null\ncurl: (55) sendmsg() returned -1 (errno 105)\n", "1 records"},
		{"quiche OnWriteError", "[1102/100001.123456:ERROR:quic_connection.cc(2510)] Server: Write failed with error: 105 (No buffer space available)\n", "1 records"},
	} {
		for _, form := range h29aForms(c.text) {
			f := findingOf(Run(parseText19b(t, form), nil), "udp-rcvbuf-errors")
			if f == nil {
				t.Errorf("%s %q: no udp-rcvbuf-errors", c.name, form)
				continue
			}
			ev := fmt.Sprint(f.Evidence)
			if !strings.Contains(f.Title, "ENOBUFS") || !strings.Contains(ev, "Udp SndbufErrors") || !strings.Contains(ev, c.records) {
				t.Errorf("%s: title %q evidence %s, want the send side with %s", c.name, f.Title, ev, c.records)
			}
		}
	}
}

// Another errno of the same calls is no memory evidence: named, no finding; a sentence that
// quotes the message and nginx's channel line (no "*N") are not the QUIC stack's record.
func TestH29aQUICSendOtherErrnoNamed(t *testing.T) {
	for _, text := range []string{
		"2026-11-02T10:00:01.123456Z  WARN quinn_udp: sendmsg error: Os { code: 90, kind: Uncategorized, message: \"Message too long\" }, Transmit: { destination: 192.0.2.7:4433, src_ip: None, ecn: Some(Ect0), len: 14400, segment_size: Some(1200) }\n",
		"2026/11/02 10:00:01 [alert] 1234#1234: *56789 sendmsg() failed (90: Message too long) while sending to client, client: 192.0.2.7, server: 0.0.0.0:443\n",
		"* sendmsg() returned -1 (errno 5); disable GSO\n",
		"Nov 02 10:00:01 web1 caddy[812]: {\"level\":\"debug\",\"ts\":1762077601.5,\"logger\":\"http.stdlib\",\"msg\":\"write udp [::]:443->[2001:db8::7]:53122: sendmsg: message too long\"}\n",
	} {
		h29aNamedNoFinding(t, text, "no memory shortage")
	}
	// macOS's and the BSDs' ENOBUFS is 55: no Linux counter.
	tl := parseText19b(t, "* sendmsg() returned -1 (errno 55)\n")
	if !h23cNamed(tl, "other than Linux's ENOBUFS") || findingOf(Run(tl, nil), "udp-rcvbuf-errors") != nil {
		t.Errorf("curl's errno 55: unparsed %+v", tl.Unparsed)
	}
	for _, text := range []string{
		"curl said sendmsg() returned -1 (errno 105) once, then it worked.\n",
		"Does quinn print sendmsg error: Os { code: 105, kind: Uncategorized } when the queue is full?\n",
		"2026/11/02 10:00:01 [alert] 1234#0: sendmsg() failed (105: No buffer space available)\n",
	} {
		tl := parseText19b(t, text)
		if h23cNamed(tl, "no memory shortage") || h23cNamed(tl, "QUIC") {
			t.Errorf("%q: named as a QUIC stack's send: %+v", text, tl.Unparsed)
		}
		for _, s := range tl.Samples {
			if s.Rates[model.RateStatedUDPSendENOBUFS] > 0 {
				t.Errorf("%q: read as a QUIC stack's ENOBUFS", text)
			}
		}
	}
}

// quic-go's buffer warning is a per-socket cap, not a loss: no finding in any form users
// paste it in, its figures kept as the program's (program_limit), and the sysctl beside it
// read as the host's.
func TestH29aQUICGoBufferWarningHealthy(t *testing.T) {
	const w = "failed to sufficiently increase receive buffer size (was: 208 kiB, wanted: 7168 kiB, got: 416 kiB). See https://github.com/quic-go/quic-go/wiki/UDP-Buffer-Sizes for details."
	for _, text := range []string{
		"2026/11/02 10:00:01 " + w + "\n",
		"Nov 02 10:00:01 web1 caddy[812]: 2026/11/02 10:00:01 " + w + "\n",
		"adguardhome  | 2026/11/02 10:00:01.123456 " + w + "\n",
		`{"level":"info","ts":1762077601.123,"msg":"` + w + `"}` + "\n",
		"```\n$ sysctl net.core.rmem_max\nnet.core.rmem_max = 212992\n```\nand caddy logs:\n```\n2026/11/02 10:00:01 " + w + "\n```\n",
	} {
		tl := parseText19b(t, text)
		if d := Run(tl, nil); len(d.Findings) != 0 {
			t.Errorf("%q: findings %+v, want none (a per-socket cap, no loss)", text, d.Findings)
		}
		var got bool
		for _, a := range tl.Artifacts {
			m, _ := a.Data.(map[string]any)
			if a.Kind == artifact.KindProgramLimit && fmt.Sprint(m["was_kib"], m["wanted_kib"], m["got_kib"]) == "208 7168 416" {
				got = true
			}
		}
		if !got {
			t.Errorf("%q: quic-go's was/wanted/got not kept; artifacts %+v", text, tl.Artifacts)
		}
		if v, _, ok := tl.Sysctl("net.core.rmem_max"); strings.Contains(text, "rmem_max = ") && (!ok || v != "212992") {
			t.Errorf("%q: the host's rmem_max not read: %q %v", text, v, ok)
		}
	}
}

// HAProxy's QUIC counters (show stat typed, the CSV header with its quic_ columns) are named
// as HAProxy's, and raise nothing.
func TestH29aHAProxyQUICCountersNamed(t *testing.T) {
	for _, text := range []string{
		"F.4.0.0.quic_rxbuf_full.1:MCP:u64:0\nF.4.0.0.quic_socket_full.1:MCP:u64:1523\nF.4.0.0.quic_sendto_err_unknwn.1:MCP:u64:8821\n",
		"# pxname,svname,quic_rxbuf_full,quic_dropped_pkt,quic_socket_full,quic_sendto_err,quic_sendto_err_unknwn\n",
	} {
		h29aNamedNoFinding(t, text, "HAProxy's QUIC counters")
	}
	tl := parseText19b(t, "F.4.0.0.scur.1:MGP:u32:12\n")
	if !h23cNamed(tl, "show stat typed") {
		t.Errorf("a typed field: unparsed %+v", tl.Unparsed)
	}
	// A sentence with the field's name is prose.
	tl = parseText19b(t, "Our quic_socket_full counter in HAProxy keeps growing.\n")
	if h23cNamed(tl, "HAProxy's QUIC counters") {
		t.Errorf("a sentence named as HAProxy's counters")
	}
}

// Chromium's net log: ERR_NO_BUFFER_SPACE and QUIC_PACKET_WRITE_ERROR are named (the OS is
// not in the log), no finding; a write error of another errno in quiche's form is named too.
func TestH29aChromeNetLogNamed(t *testing.T) {
	text := "t=  24301 [st=  5012]   UDP_SEND_ERROR\n                        --> net_error = -55 (ERR_NO_BUFFER_SPACE)\nt=  24302 [st=  5013]   QUIC_SESSION_CLOSED\n                        --> quic_error = 27 (QUIC_PACKET_WRITE_ERROR)\n"
	for _, form := range h29aForms(text) {
		tl := parseText19b(t, form)
		n := 0
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "ERR_NO_BUFFER_SPACE (-55)") {
				n += u.LastLine - u.FirstLine + 1
			}
		}
		if n != 2 {
			t.Errorf("%q: %d lines named, want 2; %+v", form, n, tl.Unparsed)
		}
		if d := Run(tl, nil); len(d.Findings) != 0 {
			t.Errorf("%q: findings %+v", form, d.Findings)
		}
	}
	tl := parseText19b(t, "[1102/100001.123456:ERROR:quic_connection.cc(2510)] Client: Write failed with error: 90 (Message too long)\n")
	if !h23cNamed(tl, "no memory shortage") || len(Run(tl, nil).Findings) != 0 {
		t.Errorf("quiche's EMSGSIZE: %+v", tl.Unparsed)
	}
	// Another program's "Write failed with error:" (no QUIC) is not quiche's.
	tl = parseText19b(t, "PipeClient: Write failed with error: 105 (No buffer space available)\n")
	if findingOf(Run(tl, nil), "udp-rcvbuf-errors") != nil {
		t.Errorf("a pipe's write read as a QUIC send")
	}
}

// /proc/net/snmp's Udp rows pasted twice back to back ("grep Udp: /proc/net/snmp; sleep 10;
// grep Udp: /proc/net/snmp", as QUIC users check their drops) are two readings: the growth
// reaches udp-rcvbuf-errors with its delta. One reading stays since-boot info; netstat's and
// snmp's groups pasted together (no group repeated) stay one reading.
func TestH29aSnmpUdpTwiceGrows(t *testing.T) {
	const hdr = "Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors\n"
	two := "$ grep Udp: /proc/net/snmp; sleep 10; grep Udp: /proc/net/snmp\n" + hdr + "Udp: 48211033 1203 93211 51238810 93211 0 0 12 0\n" + hdr + "Udp: 48411033 1203 98211 51438810 98211 0 0 12 0\n"
	for _, form := range h29aForms(two) {
		tl := parseText19b(t, form)
		if len(tl.Samples) != 2 {
			t.Errorf("%q: %d samples, want 2", form, len(tl.Samples))
		}
		f := findingOf(Run(tl, nil), "udp-rcvbuf-errors")
		if f == nil || f.Severity == Info || !strings.Contains(fmt.Sprint(f.Evidence), "+5000") {
			t.Errorf("%q: finding %+v, want a warning or worse with +5000", form, f)
		}
	}
	one := hdr + "Udp: 48211033 1203 93211 51238810 93211 0 0 12 0\n"
	both := "TcpExt: SyncookiesSent PruneCalled\nTcpExt: 0 12\n" + "Ip: Forwarding DefaultTTL\nIp: 1 64\n" + one
	for _, text := range []string{one, both} {
		tl := parseText19b(t, text)
		if len(tl.Samples) != 1 {
			t.Errorf("%q: %d samples, want 1", text, len(tl.Samples))
		}
		if f := findingOf(Run(tl, nil), "udp-rcvbuf-errors"); f == nil || f.Severity != Info {
			t.Errorf("%q: finding %+v, want info since boot", text, f)
		}
	}
}
