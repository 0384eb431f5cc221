package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
)

// h31c: the host's network state told in plain words, and a kernel errno inside a structured
// or runtime log record. Each positive asserts the finding an expert lists and its figure
// when the text states one; each counter-case asserts that no finding of this domain fires.

// h31cPasteForms wraps a snippet the ways users paste it.
func h31cPasteForms(s string) map[string]string {
	return map[string]string{
		"plain":   s + "\n",
		"bullet":  "- " + s + "\n",
		"mail":    "> " + s + "\n",
		"crlf":    "Some context first.\r\n" + s + "\r\n",
		"compose": "collector  | " + s + "\n",
		"flat":    "Hi all. We run a fleet of proxies. " + s + " Any idea what to tune?\n",
	}
}

func TestH31cStatedNetworkState(t *testing.T) {
	for _, c := range []struct{ text, id, figure string }{
		{"The listen queue overflows on the api servers during peaks.", "listen-overflow", ""},
		{"The accept queue overflowed 1532 times since boot according to netstat -s.", "listen-overflow", ""},
		{"dmesg shows SYN flooding on port 443. Sending cookies.", "listen-overflow", "SYN"},
		{`The kernel logs "TCP: out of memory -- consider tuning tcp_mem" every few seconds on the proxy.`, "tcp-memory-pressure", ""},
		{"Retransmissions are around 10% on the replication link.", "retransmit-rate", "10%"},
		{"UDP receive errors keep climbing on the collector host.", "udp-rcvbuf-errors", ""},
		{"rx_missed_errors keeps increasing on eth1.", "nic-rx-overruns", ""},
		{"RX dropped keeps increasing on eth0, about 2000 per minute.", "rx-dropped-software", "33.3"},
		{"conntrack table full, dropping packets happens every night at 2am.", "conntrack-full", ""},
	} {
		for form, text := range h31cPasteForms(c.text) {
			d, _ := rootOf(t, text)
			f := findingOf(d, c.id)
			if f == nil {
				t.Errorf("%s %q: no %s", form, c.text, c.id)
				continue
			}
			if c.figure != "" && !strings.Contains(f.Title+" "+evidenceText(f), c.figure) {
				t.Errorf("%s %q: %s without %q: %q; %q", form, c.text, c.id, c.figure, f.Title, evidenceText(f))
			}
		}
	}
}

// The same words that state nothing of this host: a question, a threshold, a negation,
// advice, a condition, documentation, another machine's.
func TestH31cStatedNetworkStateCounterCases(t *testing.T) {
	ids := []string{"listen-overflow", "tcp-memory-pressure", "retransmit-rate", "udp-rcvbuf-errors", "nic-rx-overruns", "rx-dropped-software"}
	for _, text := range []string{
		"Should we alert when retransmissions are above 10%?",
		"Retransmissions would be 10% if the link degrades.",
		"Set net.core.somaxconn to 4096 to avoid listen queue overflows.",
		"Is the accept queue full?",
		"If the listen queue overflows, connections are dropped.",
		"When the accept queue is full, the kernel drops the ACK.",
		"The accept queue never overflows on this box.",
		"Is dmesg showing SYN flooding on port 443?",
		"If you see SYN flooding on port 443 in dmesg, raise somaxconn.",
		`The kernel prints "TCP: out of memory -- consider tuning tcp_mem" when tcp_mem is exceeded.`,
		"Check whether UDP receive errors keep climbing.",
		"UDP receive errors did not increase.",
		"Does rx_missed_errors keep increasing?",
		"rx_missed_errors increases when the ring is full.",
		"rx_missed_errors is not increasing on eth1.",
		"On our test machine rx_missed_errors keeps increasing.",
		"RX dropped keeps increasing on eth0.",
		"rx_packets keeps increasing on eth0.",
		"No packets are dropped; RX dropped stays at 0 on eth0.",
		"Dump interrupted: netlink receive buffer overrun; No buffer space available (ip monitor)",
		"If conntrack table full, dropping packets happens every night, raise the max.",
		"Does table full, dropping packet happen every night for you?",
	} {
		d, _ := rootOf(t, text+"\n")
		for _, id := range append(ids, "conntrack-full") {
			if f := findingOf(d, id); f != nil {
				t.Errorf("%q: %s fired: %s", text, id, f.Title)
			}
		}
	}
}

// A kernel errno in the record forms modern programs print, bare and under a journal's tag.
func TestH31cErrnoInStructuredLogs(t *testing.T) {
	for _, line := range []string{
		`level=error ts=2026-11-30T10:00:01Z caller=exporter.go:120 msg="export failed" err="write udp 10.0.0.1:4317->10.0.0.2:4317: sendto: no buffer space available"`,
		"2026-11-30T10:00:01.123Z\terror\texporter/exporter.go:77\tExporting failed\t{\"error\": \"write udp 10.0.0.1:4317->10.0.0.2:4317: sendto: no buffer space available\"}",
		`{"time":"2026-11-30T10:00:01Z","level":"ERROR","msg":"write failed","err":"write udp 127.0.0.1:8125: write: no buffer space available"}`,
		// a retry that succeeded is still the record of a refused send
		`level=debug msg="retry succeeded" attempt=2 err="write udp 10.0.0.1:53->10.0.0.9:53: sendmsg: no buffer space available"`,
	} {
		for _, text := range []string{line + "\n", "Nov 30 10:00:01 host1 tempo[812]: " + line + "\n"} {
			wantUDPSendSide(t, text)
		}
	}
}

// Errnos no rule judges are named, so the text runs (no exit 3) and nothing fires: a
// descriptor limit, a port limit, a netlink listener's lost events.
func TestH31cErrnoNamedNotDiagnosed(t *testing.T) {
	for _, c := range []struct{ text, why string }{
		{`{"level":"error","msg":"dial failed","error":"dial tcp 10.1.2.3:443: connect: cannot assign requested address"}`, "EADDRNOTAVAIL"},
		{"2026-11-30T10:00:01.123Z\terror\tx.go:77\tdial failed\t{\"error\": \"dial tcp 10.1.2.3:443: connect: cannot assign requested address\"}", "EADDRNOTAVAIL"},
		{`Nov 30 10:00:01 host1 tor[123]: level=error err="accept tcp [::]:9000: accept4: too many open files"`, "EMFILE"},
		{`Nov 30 10:00:01 host1 app[123]: time="2026-11-30T10:00:01Z" level=error msg="dial failed" error="dial tcp 10.1.2.3:443: connect: cannot assign requested address"`, "EADDRNOTAVAIL"},
		{"netlink receive buffer overrun: No buffer space available", "netlink"},
		{"Dump interrupted: netlink receive buffer overrun; No buffer space available (ip monitor)", "netlink"},
		{"netlink receive error No buffer space available (105)", "netlink"},
		{"conntrack v1.4.6 (conntrack-tools): Operation failed: No buffer space available", "netlink"},
	} {
		tl, err := artifact.Parse(strings.NewReader(c.text+"\n"), "paste.txt", artifact.Options{})
		if err != nil {
			t.Fatal(err)
		}
		named := false
		for _, u := range tl.Unparsed {
			named = named || strings.Contains(u.Why, c.why)
		}
		if !named {
			t.Errorf("%q: not named (%s): %+v", c.text, c.why, tl.Unparsed)
		}
		d := Run(tl, nil)
		for _, f := range d.Findings {
			if f.Severity >= Warning {
				t.Errorf("%q: %s fired", c.text, f.ID)
			}
		}
	}
}

// Not the record: a config key, a docs sentence, a structured record whose field only names
// the text, a netlink request's answer.
func TestH31cErrnoCounterCases(t *testing.T) {
	for _, text := range []string{
		`# udp_send_retry: retry sends that fail with "no buffer space available" (ENOBUFS)`,
		"sndbuf_retry_on_enobufs: true   # retry a send that returns No buffer space available",
		"The docs say: ENOBUFS (No buffer space available) is returned when the output queue of an interface is full.",
		`Nov 30 10:00:01 host1 app[123]: {"level":"info","msg":"config loaded","retry_on":"no buffer space available"}`,
		"RTNETLINK answers: No buffer space available",
	} {
		d, _ := rootOf(t, text+"\n")
		for _, f := range d.Findings {
			if f.Severity >= Warning {
				t.Errorf("%q: %s fired", text, f.ID)
			}
		}
	}
}
