package diagnose

import (
	"strings"
	"testing"
)

// h24b: packet-capture tools' and IDS sensors' own drop and memory lines, written from the
// programs' format strings (tcpdump.c info(), dumpcap.c report_packet_drops, tshark.c
// capture_input_drops, Snort 2's util.c DropStats, Arkime's packet.c arkime_packet_log,
// Suricata's source-af-packet.c ring setup). Each is named as the capture's own count and
// raises no kernel finding; the NIC's counters pasted beside a capture's drops reach
// nic-rx-overruns, and a capture's drops beside a NIC showing no loss raise nothing.

var h24bNICIDs = []string{"nic-rx-overruns", "rx-dropped-software", "softnet-backlog-drops", "udp-rcvbuf-errors",
	"alloc-fail-fragmented", "alloc-fail-reserve", "alloc-fail-lowmem", "oom-kill", "overcommit-exposed"}

func TestH24bCaptureLinesNamed(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Capturing on 'eth0'\nPackets captured: 981234\nPackets received/dropped on interface 'eth0': 981234/4521 (pcap:4521/dumpcap:0/flushed:0/ps_ifdrop:0) (99.5%)\n", "dumpcap.c report_packet_drops"},
		{"^C38211 packets captured\n1234 packets dropped from eth0\n", "tshark.c capture_input_drops"},
		{"1 packet dropped\n", "tshark.c capture_input_drops"},
		{"^C4421345 packets captured\n4421345 packets received by filter\n59133 packets dropped by kernel\n0 packets dropped by interface\n", "ps_ifdrop"},
		{"Packet I/O Totals:\n   Received:     52311234\n   Analyzed:     48211234 ( 92.162%)\n    Dropped:      4100000 (  7.838%)\n   Filtered:            0 (  0.000%)\n", "Snort 2's packet I/O totals"},
		{"Nov 30 10:11:12 sensor1 capture[3321]: packet.c:1234 arkime_packet_log(): packets: 123456789 current sessions: 81234/123456 oldest: 0 - recv: 123999999 drop: 543210 (0.44) queue: 0 disk: 0 packet: 0 close: 0 ns: 0 frags: 0/0 pstats: 123456789/1/0/0/0/0/0\n", "arkime_packet_log"},
		{"suricata  | [2213 - W#01-ens4] 2026-11-30 10:11:12 Error: af-packet: ens4: failed to activate TPACKET_V3 on packet socket: Cannot allocate memory\n", "AF_PACKET ring setup failed with ENOMEM"},
		{"Nov 30 10:11:12 ids1 suricata[2211]: [2213] <Error> -- [ERRCODE: SC_ERR_MEM_ALLOC(1)] - Unable to mmap, error Cannot allocate memory\n", "AF_PACKET ring setup failed with ENOMEM"},
	} {
		namedNoNICFinding(t, c.text, c.want, "a capture's own count")
	}
}

// A capture's drops are a NIC overrun only when the NIC says so: tcpdump's summary beside
// `ip -s link` with missed frames reaches nic-rx-overruns (its figure from the interface's
// counter); the same summary beside a NIC with nothing missed raises no NIC finding.
func TestH24bCaptureBesideNICCounters(t *testing.T) {
	const capture = "$ sudo tcpdump -ni eth1 -w /tmp/x.pcap\n^C1843211 packets captured\n1902344 packets received by filter\n59133 packets dropped by kernel\n12000 packets dropped by interface\n"
	link := func(missed string) string {
		return "$ ip -s link show eth1\n3: eth1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP mode DEFAULT group default qlen 1000\n" +
			"    link/ether 52:54:00:12:34:56 brd ff:ff:ff:ff:ff:ff\n    RX:  bytes  packets errors dropped  missed   mcast\n" +
			"    9876543210 88776655      0       0   " + missed + "       0\n    TX:  bytes  packets errors dropped carrier collsns\n    1234567890  5544332      0       0       0       0\n"
	}
	d := Run(parseText19b(t, capture+link("12000")), nil)
	f := findingOf(d, "nic-rx-overruns")
	if f == nil {
		t.Fatalf("tcpdump beside ip -s link with 12000 missed: no nic-rx-overruns")
	}
	var all []string
	for _, e := range f.Evidence {
		all = append(all, e.What+" "+e.Value)
	}
	if s := strings.Join(all, "; "); !strings.Contains(s, "12000") || strings.Contains(s, "59133") {
		t.Errorf("nic-rx-overruns evidence %q: want the NIC's 12000, not tcpdump's 59133", s)
	}
	d = Run(parseText19b(t, capture+link("0")), nil)
	for _, id := range h24bNICIDs {
		if findingOf(d, id) != nil {
			t.Errorf("tcpdump's drops beside a NIC with nothing missed: %s fired", id)
		}
	}
}

// tcpdump's "dropped by interface" alone is the NIC's missed and fifo counts (libpcap's
// ps_ifdrop): nic-rx-overruns at warning with its figure; "dropped by kernel" alone is not.
func TestH24bTcpdumpIfDrops(t *testing.T) {
	const sum = "^C4421345 packets captured\n4421345 packets received by filter\n0 packets dropped by kernel\n18234 packets dropped by interface\n"
	for _, form := range []string{sum, "```\n# tcpdump -ni ens3f0 -w out.pcap\n" + sum + "```\n", "> " + strings.ReplaceAll(strings.TrimSuffix(sum, "\n"), "\n", "\n> ") + "\n"} {
		d := Run(parseText19b(t, form), nil)
		f := findingOf(d, "nic-rx-overruns")
		if f == nil {
			t.Errorf("%q: no nic-rx-overruns", form)
			continue
		}
		if f.Severity != Warning || len(f.Evidence) == 0 || f.Evidence[0].Value != "18234" {
			t.Errorf("%q: nic-rx-overruns %v %+v: want a warning with 18234", form, f.Severity, f.Evidence)
		}
	}
	for _, text := range []string{
		"^C4421345 packets captured\n4421345 packets received by filter\n59133 packets dropped by kernel\n",
		"^C4421345 packets captured\n4421345 packets received by filter\n59133 packets dropped by kernel\n0 packets dropped by interface\n",
		"Why would tcpdump report 18234 packets dropped by interface?\n",
	} {
		if findingOf(Run(parseText19b(t, text), nil), "nic-rx-overruns") != nil {
			t.Errorf("%q: nic-rx-overruns fired", text)
		}
	}
}

// Counter-cases: the words in a sentence or advice, another program's line, a dropped row
// under another heading, an ENOMEM of another program.
func TestH24bCaptureCounterCases(t *testing.T) {
	for _, text := range []string{
		"tcpdump says packets dropped by kernel, what does that mean?\n",
		"I saw 1234 packets dropped from the switch last night, is that a lot?\n",
		"Increase the dumpcap buffer (-B) if Packets received/dropped shows drops.\n",
		"Memory usage summary:\n    Dropped:      4100000 (  7.838%)\n",
		"Nov 30 10:11:12 host myapp[12]: mmap failed: Cannot allocate memory\n",
		"arkime drops packets: raise the number of packet threads\n",
	} {
		tl := parseText19b(t, text)
		for _, u := range tl.Unparsed {
			for _, w := range []string{"dumpcap.c", "tshark.c", "Snort 2", "arkime_packet_log", "AF_PACKET ring setup"} {
				if strings.Contains(u.Why, w) {
					t.Errorf("%q: named as a capture line (%s): %q", text, w, u.Why)
				}
			}
		}
	}
}

// namedNoNICFinding: text, bare, fenced and "> " quoted, is named with want and fires none of
// h24bNICIDs (whose says what the line is, for the message).
func namedNoNICFinding(t *testing.T, text, want, whose string) {
	t.Helper()
	for _, form := range []string{text, "```\n" + text + "```\n", "> " + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n> ") + "\n"} {
		tl := parseText19b(t, form)
		if !h23cNamed(tl, want) {
			t.Errorf("%q: not named %q; unparsed %+v", form, want, tl.Unparsed)
		}
		d := Run(tl, nil)
		for _, id := range h24bNICIDs {
			if findingOf(d, id) != nil {
				t.Errorf("%q: %s fired from %s", form, id, whose)
			}
		}
	}
}
