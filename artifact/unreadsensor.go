package artifact

import "strings"

// Packet-capture sensors' own drop counters and messages (pre-round 13, h13a; every format
// string checked in the program's source). Suricata, Zeek and Snort 3 count the packets
// their capture path lost: the capture socket's ring (AF_PACKET's PACKET_STATISTICS
// tp_drops, PF_RING's, netmap's), libpcap's buffer, or the DAQ module's. Those are the
// sensor's own capture drops: its threads did not read the ring in time (CPU, ring size,
// workers), not the NIC's missed packets, the backlog (softnet_stat) or a UDP socket's
// receive buffer. A paste of them held nothing headroom read (exit 3) or was read as a
// figure in words. Each is listed as unread with what it counts; nothing is diagnosed
// from it.
//
// Gated: sensorOwnLine runs on prose lines (doc.prose) and on the syslog lines of the
// sensors' tags (isSensorTag, a switch); it returns at once for a line without "drop",
// "loss" or "memcap" (three substring searches), then asks each form's fixed needles. The
// Snort 3 form looks back at most snortDAQLookback lines for its "daq" heading. No regexp.

// sensorCaptureWhy: what a capture-drop counter of a sensor proves.
const sensorCaptureWhy = "a packet-capture sensor's own capture drops: packets its capture ring or buffer (AF_PACKET's PACKET_STATISTICS tp_drops, PF_RING, netmap, libpcap, the DAQ) dropped because the sensor's threads did not read them in time (its CPU, ring size or worker count); not the NIC's missed packets, the backlog (softnet_stat) or a socket receive buffer; headroom has no rule for a sensor's capture ring"

// sensorForms: needles that must all be in the line, in order, and why it is listed.
var sensorForms = []struct {
	needles []string
	why     string
}{
	// Suricata util-device.c LiveDeviceListClean: "Stats for '%s':  pkts: %" PRIu64 ",
	// drop: %" PRIu64 " (%.2f%%), invalid chksum: %" PRIu64.
	{[]string{"Stats for '", "pkts: ", ", drop: "}, "Suricata's per-interface totals at exit (util-device.c LiveDeviceListClean: \"Stats for 'IF':  pkts: N, drop: M (P%)\"): " + sensorCaptureWhy},
	// Suricata source-af-packet.c / source-pfring.c / source-netmap.c thread exit stats:
	// "(%s) Kernel: Packets %" PRIu64 ", dropped %" PRIu64 (tp_packets, tp_drops).
	{[]string{") Kernel: Packets ", ", dropped "}, "Suricata's capture thread's totals at exit (source-af-packet.c, source-pfring.c, source-netmap.c: \"(RX#01) Kernel: Packets N, dropped M\", the capture socket's tp_packets and tp_drops): " + sensorCaptureWhy},
	// Zeek src/RunState.cc get_final_stats: "%" PRIu64 " packets received on interface %s,
	// %" PRIu64 " (%.2f%%) dropped" (", ... not processed" since 5.x).
	{[]string{" packets received on interface ", " dropped"}, "Zeek's packet source totals at exit (RunState.cc get_final_stats: \"N packets received on interface IF, M (P%) dropped\", the packet source's own drop count): " + sensorCaptureWhy},
	// zeekctl netstats: each node's reply to Control::net_stats_request (Zeek's
	// policy/frameworks/control/controllee.zeek, "%.6f recvd=%d dropped=%d link=%d"),
	// printed after the node's name ("worker-1: 1764324000.123456 recvd=N dropped=M link=L").
	{[]string{" recvd=", " dropped=", " link="}, "zeekctl netstats (controllee.zeek net_stats_request: \"NODE: TIME recvd=N dropped=M link=L\", the packet source's own pkts_recvd, pkts_dropped and pkts_link): " + sensorCaptureWhy},
	// Zeek scripts/policy/misc/capture-loss.zeek: NOTICE Too_Much_Loss, "The capture loss
	// script detected an estimated loss rate above %.3f%%".
	{[]string{"capture loss script detected an estimated loss rate"}, zeekCaptureLossWhy},
	{[]string{"CaptureLoss::Too_Much_Loss"}, zeekCaptureLossWhy},
	// dumpcap's summary at exit (Wireshark dumpcap.c report_packet_drops: "Packets
	// received/dropped on interface '%s': %u/%u (pcap:%u/dumpcap:%u/flushed:%u/ps_ifdrop:%u)
	// (%.1f%%)"): pcap is libpcap's ps_drop, dumpcap its own, ps_ifdrop the interface's.
	{[]string{"Packets received/dropped on interface '", "': "}, "dumpcap's capture summary (dumpcap.c report_packet_drops: \"Packets received/dropped on interface 'IF': N/M (pcap:P/dumpcap:D/flushed:F/ps_ifdrop:I)\"; pcap is libpcap's ps_drop, the capture socket's ring; ps_ifdrop the interface's own count since the capture began, which libpcap sums from the interface's counters and no rule judges as a sum; the NIC's missed and fifo counters read from ip -s link or ethtool -S reach nic-rx-overruns): " + sensorCaptureWhy},
	// Arkime (Moloch) capture's periodic log (capture/packet.c arkime_packet_log: "packets: %
	// current sessions: %u/%u oldest: %d - recv: % drop: % (%0.2f) queue: ..."): recv and drop
	// are the reader's statistics (libpcap's ps_drop, tpacketv3's tp_drops, PF_RING's).
	{[]string{"packets: ", " current sessions: ", " recv: ", " drop: "}, "Arkime capture's packet log (capture/packet.c arkime_packet_log: \"packets: N current sessions: S/M oldest: T - recv: R drop: D (P)\", recv and drop from its reader: libpcap, tpacketv3, PF_RING): " + sensorCaptureWhy},
	// Suricata flow.c FlowInitConfig: "preallocating flows failed: max flow memcap reached.
	// Memcap %, Memuse %." (SC_ERR_FLOW_INIT), and exits.
	{[]string{"max flow memcap reached"}, sensorMemcapWhy},
}

// eveStatsLine: a stats record of Suricata's eve.json (output-json-stats.c: "event_type":
// "stats", the stats.log counters nested by their dotted names, so capture.kernel_drops is
// "capture":{"kernel_packets":N,"kernel_drops":M}); its capture drops are the sensor's own.
func eveStatsLine(t string) (string, bool) {
	if !strings.Contains(t, `"kernel_drops"`) || !strings.Contains(t, `"event_type":"stats"`) {
		return "", false
	}
	return "Suricata's eve.json stats record (output-json-stats.c: \"event_type\":\"stats\" with capture.kernel_drops, the capture socket's tp_drops): " + sensorCaptureWhy, true
}

const zeekCaptureLossWhy = "Zeek's capture-loss estimate (policy/misc/capture-loss.zeek, notice CaptureLoss::Too_Much_Loss: \"The capture loss script detected an estimated loss rate above P%\"): TCP ACKs for data Zeek never saw, so the loss may be anywhere before Zeek (the span port or tap, the NIC, its capture ring); not a counter of this host's NIC or socket buffers; headroom has no rule for it"

// sensorMemcapWhy: Suricata's own memory caps.
const sensorMemcapWhy = "Suricata's own memory cap (suricata.yaml stream.memcap, stream.reassembly.memcap, flow.memcap, defrag.memcap; stats.log counters such as tcp.segment_memcap_drop, tcp.ssn_memcap_drop, flow.memcap): the engine refused its own allocation past the configured cap and dropped or did not reassemble the traffic; not the kernel's memory and not a socket buffer"

// snortDAQLookback bounds the lines searched above a Snort 3 "dropped:" row for its "daq"
// module heading.
const snortDAQLookback = 12

// sensorOwnLine says why line t is a sensor's own capture counter or message.
func sensorOwnLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes {
		return eveStatsLine(t) // eve.json's stats records are long lines
	}
	if why, ok := eveStatsLine(t); ok {
		return why, true
	}
	hasDrop := strings.Contains(t, "drop")
	if !hasDrop && !strings.Contains(t, "loss") && !strings.Contains(t, "Loss") && !strings.Contains(t, "memcap") {
		return "", false
	}
	if why, ok := suricataStatsRow(t); ok {
		return why, true
	}
	if tsharkDropLine(t) {
		return tsharkDropWhy, true
	}
forms:
	for _, f := range sensorForms {
		rest := t
		for _, n := range f.needles {
			k := strings.Index(rest, n)
			if k < 0 {
				continue forms
			}
			rest = rest[k+len(n):]
		}
		return f.why, true
	}
	return "", false
}

// suricataStatsRow: a row of Suricata's stats.log ("capture.kernel_drops  | Total  | 2345678",
// output-stats.c / log-stats.c: the counter name, the thread module, the value, separated by
// " | "): the capture counters and the memcap counters are named.
func suricataStatsRow(t string) (string, bool) {
	s := strings.TrimSpace(t)
	k := strings.IndexByte(s, ' ')
	if k <= 0 || strings.Count(s, " | ") != 2 {
		return "", false
	}
	name := s[:k]
	last := strings.TrimSpace(s[strings.LastIndex(s, " | ")+3:])
	if last == "" || !allDigits(last) {
		return "", false
	}
	switch {
	case strings.HasPrefix(name, "capture.") && strings.Contains(name, "drop"):
		return "Suricata's stats.log capture counter (" + name + ": the capture socket's tp_drops, or PF_RING's, netmap's, AF_XDP's, read by the capture thread): " + sensorCaptureWhy, true
	case strings.Contains(name, "memcap"):
		return sensorMemcapWhy, true
	}
	return "", false
}

// tsharkDropLine: tshark's drop count at the end of a capture (Wireshark tshark.c
// report_counts / capture_input_drops: "%u packet%s dropped from %s", "%u packet%s dropped"),
// printed alone on its line, after the ^C that stopped it.
func tsharkDropLine(t string) bool {
	s := strings.TrimPrefix(strings.TrimSpace(t), "^C")
	k := 0
	for k < len(s) && s[k] >= '0' && s[k] <= '9' {
		k++
	}
	if k == 0 || len(s) > 160 {
		return false
	}
	rest := s[k:]
	for _, f := range [...]string{" packets dropped", " packet dropped"} {
		if tail, ok := strings.CutPrefix(rest, f); ok {
			return tail == "" || strings.HasPrefix(tail, " from ") && len(tail) > len(" from ")
		}
	}
	return false
}

const tsharkDropWhy = "tshark's drop count at exit (tshark.c capture_input_drops: \"N packets dropped from IF\", the drops dumpcap reported: libpcap's ps_drop of the capture socket's ring plus its own): " + sensorCaptureWhy

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return len(s) > 0
}

// snortDAQDropped: Snort's drop counter at exit under its heading. Snort 3's DAQ module
// (src/packet_io/sfdaq_module.cc, under a "daq" heading: "                  dropped: N")
// and Snort 2's "Packet I/O Totals:" (src/util.c DropStats, LogStat "%11s%12u (%7.3f%%)":
// "    Dropped:      4100000 (  7.838%)"): packets the DAQ (afpacket's ring, pcap's buffer)
// dropped before Snort analyzed them. It returns the reason, "" for another line.
func (d *doc) snortDAQDropped(i int) string {
	t := strings.TrimSpace(d.ls[i].Text)
	heading, why := "daq", snortDAQWhy
	v, ok := strings.CutPrefix(t, "dropped: ")
	if !ok {
		if v, ok = strings.CutPrefix(t, "Dropped:"); !ok {
			return ""
		}
		heading, why = "Packet I/O Totals:", snort2DropWhy
		v, _, _ = strings.Cut(strings.TrimSpace(v), " (") // the share, "(  7.838%)"
	}
	if !allDigits(strings.TrimSpace(v)) {
		return ""
	}
	for j := i - 1; j >= 0 && j >= i-snortDAQLookback; j-- {
		u := strings.TrimSpace(d.ls[j].Text)
		if u == heading {
			return why
		}
		if !strings.Contains(u, ": ") {
			return "" // another module's heading or text: not the DAQ's block
		}
	}
	return ""
}

const snort2DropWhy = "Snort 2's packet I/O totals at exit (src/util.c DropStats, \"Packet I/O Totals:\" then \"Dropped: N (P%)\", the DAQ's hw_packets_dropped): " + sensorCaptureWhy

const snortDAQWhy = "Snort 3's DAQ counter dropped (the daq module's statistics at exit, src/packet_io/sfdaq_module.cc): " + sensorCaptureWhy

// isSensorTag: the syslog tags of the capture sensors.
func isSensorTag(tag string) bool {
	switch tag {
	case "suricata", "Suricata-Main", "zeek", "bro", "snort", "snort3", "ntopng", "capture", "arkime", "moloch-capture", "netsniff-ng":
		return true
	}
	return false
}
