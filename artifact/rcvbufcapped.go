package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/model"
)

// A log receiver's own warning that the kernel gave its UDP socket a smaller receive buffer
// than it asked for (pre-round 21, h21b). The kernel caps a SO_RCVBUF request at
// net.core.rmem_max and doubles it (net/core/sock.c sk_setsockopt); getsockopt returns the
// doubled value. A receiver that compares the two states the cap with both figures:
//
//   - Logstash's UDP input (logstash-input-udp lib/logstash/inputs/udp.rb): after
//     setsockopt it reads SO_RCVBUF back and, when it differs from receive_buffer_bytes,
//     warns "Unable to set receive_buffer_bytes to desired size. Requested R but obtained O
//     bytes." O above R (the kernel's doubling of a request under the cap) is no cap.
//   - syslog-ng's afsocket (unreadmetrics.go sockBufRefused): so_rcvbuf='R',
//     so_rcvbuf_set='O'.
//
// A buffer held below what the receiver's owner sized it for is the condition under which
// bursts overflow it (Udp RcvbufErrors): the rule udp-rcvbuf-errors reports it as a
// warning with both figures and asks for the counters (diagnose/net_udp.go udpStated). No
// drop is invented: the finding says the drops are not in the text.
//
// Gated: one fixed needle per form with strings.Index; no regexp.

const logstashRcvbufNeedle = "Unable to set receive_buffer_bytes to desired size. Requested "

// logstashRcvbufCapped reads Logstash's warning: the requested and obtained sizes, ok when
// the line is that warning (capped or not).
func logstashRcvbufCapped(t string) (req, got int64, ok bool) {
	k := strings.Index(t, logstashRcvbufNeedle)
	if k < 0 {
		return 0, 0, false
	}
	rest := t[k+len(logstashRcvbufNeedle):]
	r := leadingDigits(rest)
	rest = strings.TrimPrefix(rest[len(r):], " but obtained ")
	g := leadingDigits(rest)
	if r == "" || g == "" || len(r) > 12 || len(g) > 12 || !strings.HasPrefix(rest[len(g):], " bytes") {
		return 0, 0, true
	}
	req, _ = strconv.ParseInt(r, 10, 64)
	got, _ = strconv.ParseInt(g, 10, 64)
	return req, got, true
}

const logstashRcvbufNotCappedWhy = "Logstash's UDP input warns whenever SO_RCVBUF reads back other than receive_buffer_bytes (logstash-input-udp udp.rb: \"Requested R but obtained O bytes\"); O at or above R is the kernel's doubling of a request under net.core.rmem_max: the buffer was not capped, and the line says nothing of drops (Udp RcvbufErrors)"

// rsyslog's omfwd (plugins/omfwd/omfwd.c UDPSend) logs a failed sendto as "omfwd: socket
// N: error E sending via udp" (LogError appends strerror: ": No buffer space available");
// E 105 is ENOBUFS, which udp_sendmsg counts as Udp SndbufErrors (net/ipv4/udp.c: the
// send buffer or the device queue full). Another errno (ENETUNREACH, EMSGSIZE) is no
// buffer's and is left to the errno readers.
const omfwdUDPNeedle = " sending via udp"

// omfwdNoBuffer: t is omfwd's UDP send error with ENOBUFS.
func omfwdNoBuffer(t string) bool {
	k := strings.Index(t, omfwdUDPNeedle)
	if k < 0 || !strings.Contains(t[:k], "omfwd: ") {
		return false
	}
	return strings.HasSuffix(t[:k], "error 105") || strings.Contains(t[k:], "No buffer space available")
}

// Fluent Bit's input paused at its own buffer limit (src/flb_input_chunk.c
// flb_input_chunk_protect: "[input] %s paused (mem buf overlimit)", and "(storage buf
// overlimit)" for storage.max_chunks_up): the chunks it holds in memory passed the input's
// Mem_Buf_Limit. Fluent Bit's own limit, not the kernel's memory, OOM killer or socket
// buffers: named as unread with what it proves (the resume line is its end).
const fluentBitPausedWhy = "Fluent Bit paused an input at its own buffer limit (src/flb_input_chunk.c: \"[input] NAME paused (mem buf overlimit)\" at the input's Mem_Buf_Limit, \"storage buf overlimit\" at storage.max_chunks_up): its outputs are not flushing fast enough; a UDP or TCP input may lose what arrives while paused, but this is Fluent Bit's configured limit, not the host's memory, the OOM killer or a kernel socket buffer (Udp RcvbufErrors would count the kernel's drops)"

func fluentBitPaused(t string) bool {
	k := strings.Index(t, " buf overlimit)")
	if k < 0 {
		return false
	}
	j := strings.Index(t[:k], "[input] ")
	return j >= 0 && (strings.HasSuffix(t[:k], "paused (mem") || strings.HasSuffix(t[:k], "paused (storage"))
}

// pmacct's NetFlow and sFlow collectors (nfacctd.c, sfacctd.c) set SO_RCVBUF to
// nfacctd_pipe_size, read it back and log "INFO ( NAME/core ): nfacctd_pipe_size:
// obtained=O target=T." (sfacctd_pipe_size likewise), O being getsockopt's doubled value:
// the same comparison as Logstash's. The BGP, BMP and telemetry daemons' pipe sizes are TCP
// sockets' and are not read.
const pmacctPipeNeedle = "acctd_pipe_size: obtained="

const pmacctPipeNotCappedWhy = "pmacct's collector read SO_RCVBUF back at or above its nfacctd_pipe_size (nfacctd.c/sfacctd.c: \"nfacctd_pipe_size: obtained=O target=T.\", O is getsockopt's doubled value): the buffer was not capped by net.core.rmem_max, and the line says nothing of drops (Udp RcvbufErrors)"

func pmacctPipeSize(t string) (req, got int64, ok bool) {
	k := strings.Index(t, pmacctPipeNeedle)
	if k < 2 || (t[k-2:k] != "nf" && t[k-2:k] != "sf") {
		return 0, 0, false
	}
	o, rest, found := strings.Cut(t[k+len(pmacctPipeNeedle):], " target=")
	if !found {
		return 0, 0, false
	}
	got, err1 := strconv.ParseInt(o, 10, 64)
	req, err2 := strconv.ParseInt(strings.TrimRight(strings.TrimSpace(rest), "."), 10, 64)
	return req, got, err1 == nil && err2 == nil
}

// pmacct's core-to-plugin channel (src/plugin_hooks.c load_plugins, fix32b corpus 2779):
// for each plugin the core opens an AF_UNIX SOCK_DGRAM socketpair and a shared-memory ring,
// and with a large plugin_pipe_size (or debug) logs "INFO ( NAME/TYPE ): plugin_pipe_size=P
// bytes plugin_buffer_size=B bytes" and "ctrl channel: obtained=O bytes target=T bytes"
// (INFO when O >= T, WARN when the socketpair's buffer stayed below its target). Neither is
// a UDP socket's receive buffer nor the host's memory: the ring is sized by pmacct's
// configuration and the control channel carries pointers into it. Named as unread.
const pmacctChannelWhy = "pmacct's core-to-plugin channel (plugin_hooks.c: plugin_pipe_size and plugin_buffer_size size the shared-memory ring from its configuration; \"ctrl channel: obtained=O bytes target=T bytes\" is the AF_UNIX socketpair that carries pointers into it, a WARN when O < T): pmacct's own sizes, not a UDP socket's receive buffer (no datagram dropped: Udp RcvbufErrors would count it) nor the host's memory; headroom has no reader for it"

// pmacctChannelLine: t is one of those two lines, after pmacct's "( NAME/TYPE ): " tag.
func pmacctChannelLine(t string) bool {
	k := strings.Index(t, " ): ")
	if k < 0 || strings.IndexByte(t[:k], '(') < 0 || strings.IndexByte(t[:k], '/') < 0 {
		return false
	}
	rest := t[k+len(" ): "):]
	if o, ok := strings.CutPrefix(rest, "ctrl channel: obtained="); ok {
		return strings.Contains(o, " bytes target=")
	}
	if p, ok := strings.CutPrefix(rest, "plugin_pipe_size="); ok {
		return strings.Contains(p, " bytes plugin_buffer_size=")
	}
	return false
}

// A flow collector's own count of flows missing from its exporters' sequence numbers:
// nfcapd's and sfcapd's per-file statistics, "Ident: '%s' Flows: %llu, Packets: %llu, Bytes:
// %llu, Sequence Errors: %u, Bad Packets: %u" (nfdump src/nfcapd: LogInfo at each rotation),
// and pmacct's "expecting flow '%u' but received '%u' collector=%s:%u agent=%s:%u"
// (nfacctd's sequence check). The gap is lost between the exporter and the collector's read,
// in the network or at this host's socket; the line does not say which, so it is named, not
// read as a kernel counter.
const flowSeqGapWhy = "a flow collector's own count of gaps in its exporters' sequence numbers (nfcapd's \"Sequence Errors: N\" per file, pmacct's \"expecting flow 'X' but received 'Y'\"): flows lost between the exporter and the collector's read, in the network or at this host's socket buffer; not a kernel counter: `nstat -az UdpRcvbufErrors UdpInDatagrams`, twice a minute apart, tells whether this host dropped them"

func flowSeqGapLine(t string) bool {
	if k := strings.Index(t, ", Sequence Errors: "); k > 0 {
		return strings.Contains(t[:k], "Ident: '") && strings.Contains(t[:k], "' Flows: ")
	}
	k := strings.Index(t, "expecting flow '")
	return k >= 0 && strings.Contains(t[k:], "' but received '")
}

// rcvbufCappedLine reads Logstash's warning and omfwd's ENOBUFS on any line that is not
// the kernel's.
func (d *doc) rcvbufCappedLine(i int, t string) bool {
	if d.ls[i].Kernel {
		return false
	}
	if omfwdNoBuffer(t) && !d.exampleLog(i) {
		d.noteUDPSendENOBUFS(i)
		return true
	}
	if d.pktSenderLine(i, t) {
		return true // a packet generator's or scanner's own counters and sends (pktsender.go)
	}
	if d.quicSendLine(i, t) {
		return true // a QUIC stack's failed UDP send: quinn, nginx, curl (quicsend.go)
	}
	if d.streamerLine(i, t) {
		return true // Sunshine's UDP send refused, its, Moonlight's and xrdp's own lines (streamer.go)
	}
	if jaegerSpanSendENOBUFS(t) && !d.exampleLog(i) {
		d.noteUDPSendENOBUFS(i) // jaeger-client-cpp's UDP span send refused (vpnudpsend.go)
		return true
	}
	if d.vpnUDPSendLine(i, t) {
		return true // a tunnel daemon's UDP send refused with ENOBUFS (vpnudpsend.go)
	}
	if d.dnsServerSendLine(i, t) {
		return true // Unbound's or NSD's UDP answer refused with ENOBUFS (dnsserver.go)
	}
	if strings.IndexByte(t, '>') >= 0 && d.ovpnSockBufLine(i, t) {
		return true // OpenVPN's socket buffer sizes, named (vpnudpsend.go)
	}
	if charonSPILine(t) && !d.exampleLog(i) {
		d.unparsedUnread(i, charonSPIWhy)
		return true
	}
	if d.uhdLine(i, t) {
		return true // Ettus UHD's socket-buffer warnings and stream marks (uhdbuf.go)
	}
	if fluentBitPaused(t) && !d.exampleLog(i) {
		d.unparsedUnread(i, fluentBitPausedWhy)
		return true
	}
	if flowSeqGapLine(t) && !d.exampleLog(i) {
		d.unparsedUnread(i, flowSeqGapWhy)
		return true
	}
	if pmacctChannelLine(t) && !d.exampleLog(i) {
		d.unparsedUnread(i, pmacctChannelWhy)
		return true
	}
	if strings.IndexByte(t, '_') < 0 {
		return false
	}
	why := logstashRcvbufNotCappedWhy
	req, got, ok := logstashRcvbufCapped(t)
	if !ok {
		req, got, ok = pmacctPipeSize(t)
		why = pmacctPipeNotCappedWhy
	}
	if !ok || d.exampleLog(i) {
		return false
	}
	if req <= 0 || got < req {
		d.used[i] = true
		d.noteRcvbufCapped(req, got, i)
		return true
	}
	d.unparsedUnread(i, why)
	return true
}

// noteUDPSendENOBUFS records a program's own line of a UDP send refused with ENOBUFS as
// this host's Udp SndbufErrors growing: udp_sendmsg counts every -ENOBUFS it returns there
// (net/ipv4/udp.c), whatever gave it (the socket's send buffer, a qdisc or device queue
// that dropped the datagram, a failed skb allocation). One decision for every program that
// logs the errno (omfwd here, the tunnel daemons in vpnudpsend.go): the send side of
// udp-rcvbuf-errors, whose finding says which of those the operator should look at and
// proposes no receive buffer for it (diagnose/net_udp.go udpStated).
func (d *doc) noteUDPSendENOBUFS(i int) {
	d.used[i] = true
	d.udpSendENOBUFS++
	no := d.ls[i].No
	rates := model.Rates{model.RateStatedUDPSndbufRising: 1, model.RateStatedUDPSendENOBUFS: float64(d.udpSendENOBUFS)}
	d.tl.Samples = append(d.tl.Samples, model.Sample{Source: fmt.Sprintf("line %d (%s)", no, StatedMark), Rates: rates})
	d.addArtifact(KindStated, no, no, rates)
}

// noteRcvbufCapped records a receive buffer obtained below its request as a stated sample
// for udp-rcvbuf-errors; an obtained size at or above the request is healthy and records
// nothing.
func (d *doc) noteRcvbufCapped(req, got int64, i int) {
	if req <= 0 || got <= 0 || got >= req {
		return
	}
	no := d.ls[i].No
	rates := model.Rates{model.RateStatedUDPRcvbufRequested: float64(req), model.RateStatedUDPRcvbufObtained: float64(got)}
	d.tl.Samples = append(d.tl.Samples, model.Sample{Source: fmt.Sprintf("line %d (%s)", no, StatedMark), Rates: rates})
	d.addArtifact(KindStated, no, no, rates)
}
