package artifact

import (
	"fmt"
	"strings"
)

// Remote desktop and game streaming hosts' own lines (h29c, pre-round 29, from source):
//
//   - Sunshine (LizardByte/Sunshine src/logging.cpp formatter): "[%Y-%m-%d %H:%M:%S.mmm]: "
//     then "Verbose: ", "Debug: ", "Info: ", "Warning: ", "Error: " or "Fatal: " and the
//     message; older releases stamped "[%Y:%m:%d:%H:%M:%S]: ". Its video and audio go out on
//     a UDP socket (boost::asio udp) through src/platform/linux/misc.cpp send_batch/send:
//     EAGAIN is waited for with poll(), any other errno is logged as a number, "sendmmsg()
//     failed: %d" (warning) or "sendmsg() failed: %d" (GSO path, verbose; send(), warning).
//     105 is Linux's ENOBUFS: udp_sendmsg returned it and counted it in Udp SndbufErrors
//     (the socket's send buffer, a qdisc or device queue that dropped the datagram, a failed
//     skb allocation), so the line is the send side of udp-rcvbuf-errors, read with
//     noteUDPSendENOBUFS as h27a's DNS servers and h28b's SIPp are. The Windows build logs
//     "WSASendMsg() failed: %d" (src/platform/windows/misc.cpp) with a WinSock code
//     (10055 is WSAENOBUFS): another system's evidence, named, no Linux counter; errno 55
//     is macOS's and FreeBSD's ENOBUFS, no Linux sendmsg's. Any other errno (111
//     ECONNREFUSED: the client's port closed; 101 ENETUNREACH) is named, no buffer.
//   - Moonlight (moonlight-qt app/streaming/video/ffmpeg.cpp stringifyVideoStats, in its
//     overlay and in its log's "Global video stats" block): "Frames dropped by your network
//     connection: %.2f%%", "Frames dropped due to network jitter: %.2f%%", "Average network
//     latency: %u ms (variance: %u ms)" and the frame rates and decode/queue/render times.
//     The client's own account of the stream, the symptom: named with its figure, no rule.
//   - xrdp and xrdp-sesman (neutrinolabs/xrdp common/log.c): "[%FT%T.mmm%z] " or the older
//     "[%Y%m%d-%H:%M:%S] ", then "[CORE ] ", "[ERROR] ", "[WARN ] ", "[INFO ] ", "[DEBUG] " or
//     "[TRACE] " and the message; under syslog the level block alone after the xrdp tag.
//     Its "out of memory" messages are its own malloc returning NULL, and sesman's "Window
//     manager (pid %d, display %d) exited with signal %s" says a signal, not who sent it:
//     named, neither is the kernel's OOM kill (whose own line, if pasted, gives oom-kill).
//
// Gated: each form is tested by its fixed punctuation at the line's start (Sunshine's "]: "
// or ": " then a level word, xrdp's "] [", Moonlight's prefixes by their first byte) before
// any other test; a sentence quoting the words does not start that way.

// sunshineLevels: Sunshine's severities as its formatter prints them.
var sunshineLevels = [...]string{"Verbose: ", "Debug: ", "Info: ", "Warning: ", "Error: ", "Fatal: "}

// sunshineMsg returns the message of a Sunshine log line: "[stamp]: Level: msg", or ": Level:
// msg" when the line reader took the lead stamp (stamped says it did).
func sunshineMsg(t string, stamped bool) (string, bool) {
	if len(t) > 0 && t[0] == '[' {
		end := strings.IndexByte(t, ']')
		if end < 20 || end > 24 || !isStampBytes(t[1:end]) || !strings.HasPrefix(t[end+1:], ": ") {
			return "", false
		}
		t = t[end+1:]
	} else if !stamped {
		return "", false
	}
	rest, ok := strings.CutPrefix(t, ": ")
	if !ok {
		return "", false
	}
	for _, lv := range sunshineLevels {
		if m, ok := strings.CutPrefix(rest, lv); ok && m != "" {
			return m, true
		}
	}
	return "", false
}

// isStampBytes: s holds only a date and time's bytes (digits, '-', ':', 'T', '.', '+', ' '),
// and some digits.
func isStampBytes(s string) bool {
	return stampBytes(s, "-:T.+ ", 12)
}

// stampBytes: s holds only digits and the bytes in punct, with at least minDigits digits.
// Each log format allows its own punctuation in its time stamp.
func stampBytes(s, punct string, minDigits int) bool {
	digits := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case strings.IndexByte(punct, c) < 0:
			return false
		}
	}
	return digits >= minDigits
}

const (
	sunshineLineWhy      = "Sunshine's own log line (src/logging.cpp \"[stamp]: Level: message\": its encoder, capture, client sessions and streams): the streaming host's own account, not a kernel counter; no rule reads it"
	sunshineSendOtherWhy = "Sunshine's UDP send of video or audio failed with an errno other than ENOBUFS (src/platform/linux/misc.cpp \"sendmmsg() failed: N\"; 111 ECONNREFUSED: the client's port is gone, an ICMP unreachable came back; 101 ENETUNREACH: no route): not a buffer or memory shortage, no kernel counter of this host's memory; no rule reads it"
	sunshineSendOSWhy    = "Sunshine's UDP send refused with another system's code (\"WSASendMsg() failed: N\" is the Windows build's WinSock error, 10055 WSAENOBUFS; errno 55 is macOS's and FreeBSD's ENOBUFS, never a Linux sendmsg's): another system's evidence, no Linux counter (Udp SndbufErrors) or rule applies"
)

// sunshineSend reads Sunshine's failed UDP send: the call and the number it logged.
func sunshineSend(msg string) (call, code string, ok bool) {
	k := strings.Index(msg, "() failed: ")
	if k < 0 {
		return "", "", false
	}
	call = msg[:k]
	if call != "sendmmsg" && call != "sendmsg" && call != "WSASendMsg" {
		return "", "", false
	}
	code = strings.TrimRight(msg[k+len("() failed: "):], " \r")
	if code == "" || !isDigits(code) {
		return "", "", false
	}
	return call, code, true
}

// Moonlight's statistics: each line's prefix (stringifyVideoStats) and whether it is the
// network's dropped-frames figure.
var moonlightStats = [...]string{
	"Video stream: ", "Bitrate: ", "Incoming frame rate from network: ", "Decoding frame rate: ",
	"Rendering frame rate: ", "Host processing latency min/max/average: ",
	"Frames dropped by your network connection: ", "Frames dropped due to network jitter: ",
	"Average network latency: ", "Average decoding time: ", "Average frame queue delay: ",
	"Average rendering time (including monitor V-sync latency): ",
}

const moonlightStatsWhy = "Moonlight's own stream statistics (moonlight-qt stringifyVideoStats, its overlay or its log's \"Global video stats\": frame rates received, decoded and rendered, the host's processing latency, decode, queue and render times, the network's round trip): the client's account of the stream, the symptom, not a kernel counter; no rule reads it"

// moonlightStatLine says why t is a line of Moonlight's statistics.
func moonlightStatLine(t string) (string, bool) {
	if len(t) < 12 {
		return "", false
	}
	switch t[0] {
	case 'V', 'B', 'I', 'D', 'R', 'H', 'F', 'A':
	default:
		return "", false
	}
	for _, p := range moonlightStats {
		v, ok := strings.CutPrefix(t, p)
		if !ok {
			continue
		}
		if v == "N/A" || v == "" || v[0] < '0' || v[0] > '9' {
			return "", false
		}
		if strings.HasPrefix(p, "Frames dropped ") {
			pct := strings.TrimSpace(v)
			if !strings.HasSuffix(pct, "%") || !isDecimal(strings.TrimSuffix(pct, "%")) {
				return "", false
			}
			cause := "lost or late between the host's send and this client's decoder: the path, Wi-Fi, the host's send side or the client's receive"
			if strings.Contains(p, "jitter") {
				cause = "dropped by the client's frame pacer because they came too unevenly"
			}
			return fmt.Sprintf("Moonlight's own figure: %s of frames %s (moonlight-qt stringifyVideoStats \"%s%%.2f%%%%\"): the client's symptom, not a kernel counter; whether a socket buffer dropped them shows in `nstat -az Udp*` (RcvbufErrors on the client, SndbufErrors on the host) taken twice; no rule fires on the client's figure", pct, cause, p), true
		}
		// The overlay joined onto one line (a ticket's text that lost the newlines): the
		// network's dropped-frames figure, wherever it stands, is the one kept.
		const net = "Frames dropped by your network connection: "
		if k := strings.Index(t, net); k > 0 {
			v := t[k+len(net):]
			if e := strings.IndexByte(v, '%'); e > 0 && isDecimal(v[:e]) {
				if why, ok := moonlightStatLine(net + v[:e+1]); ok {
					return why, true
				}
			}
		}
		return moonlightStatsWhy, true
	}
	return "", false
}

// isDecimal: s is a decimal number ("12", "12.34").
func isDecimal(s string) bool {
	a, b, _ := strings.Cut(s, ".")
	return a != "" && isDigits(a) && (b == "" || isDigits(b))
}

// xrdpLevels: xrdp's severities as internal_log_lvl2str prints them.
var xrdpLevels = [...]string{"[CORE ] ", "[ERROR] ", "[WARN ] ", "[INFO ] ", "[DEBUG] ", "[TRACE] "}

// xrdpMsg returns the message of an xrdp or xrdp-sesman log line: "[stamp] [LEVEL] msg", or
// "[LEVEL] msg" under the xrdp programs' syslog tags.
func xrdpMsg(t, tag string) (string, bool) {
	if len(t) < 10 || t[0] != '[' {
		return "", false
	}
	if end := strings.IndexByte(t, ']'); end >= 18 && end <= 30 && isStampBytes(t[1:end]) && strings.HasPrefix(t[end+1:], " [") {
		t = t[end+2:]
	} else if !strings.HasPrefix(tag, "xrdp") {
		return "", false
	}
	for _, lv := range xrdpLevels {
		if m, ok := strings.CutPrefix(t, lv); ok && m != "" {
			return m, true
		}
	}
	return "", false
}

const (
	xrdpLineWhy   = "xrdp's or xrdp-sesman's own log line (common/log.c \"[stamp] [LEVEL] message\": connections, logins, sessions, its channels): the remote desktop server's own account, not a kernel counter; no rule reads it"
	xrdpOOMWhy    = "xrdp's own allocation failed (its \"out of memory\" messages follow a malloc that returned NULL): the process's address space, vm.overcommit_memory's accounting or a memory cgroup refused it; no kill by the kernel's OOM killer, whose own line (\"Out of memory: Killed process N\") would say so"
	xrdpSignalWhy = "xrdp-sesman saw the session's window manager or X server end on a signal (sesexec/session.c \"Window manager (pid N, display N) exited with signal S\"): a SIGKILL may be the kernel's OOM killer, a user-space killer (earlyoom, systemd-oomd) or a person; the signal does not say which: the kernel log's \"Out of memory: Killed process N\" with that pid, or the killer's own line, tells"
)

// xrdpWhy says what an xrdp message proves.
func xrdpWhy(msg string) string {
	switch {
	case strings.HasPrefix(msg, "Tdarr_"): // h40a: Tdarr's log4js line has xrdp's shape
		return tdarrWhy(msg)
	case strings.Contains(msg, "ut of memory"):
		return xrdpOOMWhy
	case strings.Contains(msg, ") exited with signal "):
		return xrdpSignalWhy
	}
	return xrdpLineWhy
}

// sunshineFlatENOBUFS counts Sunshine's records of a UDP send refused with Linux's ENOBUFS in
// a log joined onto one line (a ticket's or a page's text that lost the newlines): each
// "msg() failed: 105" is read back to its own "[stamp]: Level: " and read as a whole record
// is; a sentence naming the words without Sunshine's stamp counts nothing.
func sunshineFlatENOBUFS(t string) int {
	const tail = "msg() failed: 105"
	n, from := 0, 0
	for {
		k := strings.Index(t[from:], tail)
		if k < 0 {
			return n
		}
		k += from
		end := k + len(tail)
		from = end
		if rest := strings.TrimLeft(t[end:], " \r"); rest != "" && rest[0] != '[' {
			continue // "1050", or a sentence runs on: the next record or the line's end only
		}
		j := strings.LastIndex(t[:k], "]: ")
		if j < 0 {
			continue
		}
		s := strings.LastIndexByte(t[:j], '[')
		if s < 0 {
			continue
		}
		if msg, ok := sunshineMsg(t[s:end], false); ok {
			if call, code, ok := sunshineSend(msg); ok && call != "WSASendMsg" && code == "105" {
				n++
			}
		}
	}
}

// isStreamerTag: the syslog tags under which streamerLine reads Sunshine's and xrdp's lines
// (journald's "sunshine[N]:", "xrdp[N]:", "xrdp-sesman[N]:"), for the fast path (readsTag).
func isStreamerTag(tag string) bool {
	switch tag {
	case "sunshine", "xrdp", "xrdp-sesman", "xrdp-chansrv", "guacd", "hbbs", "hbbr":
		return true
	}
	return false
}

// Apache Guacamole's proxy daemon (guacamole-server src/guacd/log.c): each message goes to
// syslog as it is, under guacd's tag, and to stderr as "guacd[%i]: %s:\t%s" with its level
// ("INFO", "ERROR", "WARNING", "DEBUG", "TRACE"; older releases "INFO:  ", "ERROR: "), the
// form a container's log shows. The web application's JVM (Tomcat) is read elsewhere
// (its OutOfMemoryError: the JVM's heap, unreadjvm.go).
const guacdLineWhy = "Apache Guacamole's proxy daemon's own log line (guacd's log.c, to syslog under its tag or to stderr as \"guacd[N]: LEVEL: message\": connections, protocols, users joining and leaving): the gateway's own account, not a kernel counter; no rule reads it"

// guacdStderr: t is guacd's stderr form, "guacd[N]: LEVEL:".
func guacdStderr(t string) bool {
	rest, ok := strings.CutPrefix(t, "guacd[")
	if !ok {
		return false
	}
	k := strings.Index(rest, "]: ")
	if k < 1 || !isDigits(rest[:k]) {
		return false
	}
	rest = rest[k+3:]
	for _, lv := range [...]string{"INFO:", "ERROR:", "WARNING:", "DEBUG:", "TRACE:"} {
		if strings.HasPrefix(rest, lv) {
			return true
		}
	}
	return false
}

// RustDesk's ID and relay servers (rustdesk-server src/hbbr.rs, src/main.rs): flexi_logger's
// opt_format to stdout, "[%Y-%m-%d %H:%M:%S%.6f %:z] LEVEL [src/FILE.rs:N] message"; named
// when the source file is one of the servers' own (rendezvous_server.rs, relay_server.rs,
// peer.rs, common.rs, database.rs, hbbr.rs, main.rs, lib.rs), so another Rust program's line
// of the same logger stays unread.
const rustdeskLineWhy = "RustDesk's ID or relay server's own log line (hbbs/hbbr, flexi_logger \"[stamp] LEVEL [src/FILE.rs:N] message\": peers registering, punch-hole and relay requests): the server's own account, not a kernel counter; no rule reads it"

var rustdeskFiles = [...]string{"rendezvous_server.rs:", "relay_server.rs:", "peer.rs:", "common.rs:", "database.rs:", "hbbr.rs:", "main.rs:", "lib.rs:"}

// rustdeskLine: t is hbbs's or hbbr's log line; stamped: the line reader took its lead stamp
// (t starts with the level).
func rustdeskLine(t string, stamped bool) bool {
	rest := " " + t
	if !stamped {
		end := strings.IndexByte(t, ']')
		if len(t) == 0 || t[0] != '[' || end < 26 || end > 40 || !isStampBytes(t[1:end]) {
			return false
		}
		rest = t[end+1:]
	}
	lv := strings.IndexByte(rest, '[')
	if lv < 5 || lv > 7 {
		return false
	}
	switch strings.TrimSpace(rest[:lv]) {
	case "INFO", "WARN", "ERROR", "DEBUG", "TRACE":
	default:
		return false
	}
	src, ok := strings.CutPrefix(rest[lv:], "[src/")
	if !ok {
		return false
	}
	for _, f := range rustdeskFiles {
		if strings.HasPrefix(src, f) || strings.HasPrefix(src, "hbbr/"+f) {
			return true
		}
	}
	return false
}

// streamerLine reads a streaming or remote desktop program's own line (above): Sunshine's
// UDP send refused with Linux's ENOBUFS as Udp SndbufErrors, the rest named.
func (d *doc) streamerLine(i int, t string) bool {
	if len(t) < 8 {
		return false
	}
	why := ""
	l := &d.ls[i]
	switch {
	case t[0] == '[' || t[0] == ':':
		if msg, ok := sunshineMsg(t, l.Stamp != ""); ok {
			why = sunshineLineWhy
			if call, code, ok := sunshineSend(msg); ok {
				switch {
				case call != "WSASendMsg" && code == "105":
					if d.exampleLog(i) {
						return false
					}
					d.noteUDPSendENOBUFS(i)
					return true
				case call == "WSASendMsg" || code == "55":
					why = sunshineSendOSWhy
					if call == "WSASendMsg" {
						d.noteWinsock("Sunshine's WSASendMsg() failed with WinSock error " + code)
					}
				default:
					why = sunshineSendOtherWhy
				}
			}
		} else if msg, ok := xrdpMsg(t, l.Tag); ok {
			why = xrdpWhy(msg)
		} else if rustdeskLine(t, false) {
			why = rustdeskLineWhy
		}
	case l.Tag == "guacd" && l.Syslog || guacdStderr(t):
		why = guacdLineWhy
	case l.Stamp != "" && !l.Syslog && rustdeskLine(t, true):
		why = rustdeskLineWhy
	default:
		if why, _ = moonlightStatLine(t); why == "" {
			why = moonlightCommonWhy(t)
		}
	}
	if why == "" {
		if n := sunshineFlatENOBUFS(t); n > 0 && !d.exampleLog(i) {
			for ; n > 0; n-- {
				d.noteUDPSendENOBUFS(i) // one per record of the joined log
			}
			return true
		}
	}
	if why == "" || d.exampleLog(i) {
		return false
	}
	d.unparsedUnread(i, why)
	return true
}

// moonlight-common-c's own messages (fix34c), the library every Moonlight client (Qt,
// Embedded, Android, iOS) prints through its log callback, each a whole line:
//
//   - src/RtpReorderQueue.c, its user-space queue reordering the video's RTP packets (16
//     entries, 40 ms by default): "Discarding RTP packet queued for too long" and
//     "Discarding RTP packet after queue overgrowth". The packets had reached the client's
//     process: the queue ran out of room or time waiting for a missing one, or the client
//     drained it too slowly (a slow CPU's decode, a bitrate above what it keeps up with).
//   - src/VideoDepacketizer.c: "Network dropped beginning of a frame", "... middle of a
//     frame", "... end of a frame" (a frame whose packets did not all arrive), then "Waiting
//     for IDR frame" and "Resync complete" while it asks the host for a new key frame.
//
// The words "dropped" and "discarding" are the library's own accounting: no kernel counter
// (Udp RcvbufErrors, a NIC's rx_dropped, softnet_stat) and no rule reads them. A sentence
// that uses the words ("keeps discarding packets") is not one of these whole lines.
var moonlightCommonLines = [...]string{
	"Discarding RTP packet queued for too long",
	"Discarding RTP packet after queue overgrowth",
	"Network dropped beginning of a frame",
	"Network dropped middle of a frame",
	"Network dropped end of a frame",
	"Waiting for IDR frame",
	"Resync complete",
}

const (
	moonlightRTPQueueWhy = "moonlight-common-c's own RTP reorder queue discarded a video packet (src/RtpReorderQueue.c \"Discarding RTP packet queued for too long\" / \"after queue overgrowth\"): the packet had reached the client's process and waited in the library's queue (16 packets, 40 ms) for a missing one, or the client drained it too slowly (its decode, a bitrate above what it keeps up with); the library's accounting, not a kernel counter: a socket buffer's drops show in `nstat -az UdpRcvbufErrors` taken twice; no rule reads it"
	moonlightFrameWhy    = "moonlight-common-c's depacketizer lost part of a video frame and resynchronises (src/VideoDepacketizer.c \"Network dropped beginning/middle/end of a frame\", \"Waiting for IDR frame\", \"Resync complete\"): packets missing or discarded by its own reorder queue before the frame was whole; the client's symptom, not a kernel counter; `nstat -az UdpRcvbufErrors` taken twice, `ip -s link` on the client, tell whether this host dropped them; no rule reads it"
)

// moonlightCommonWhy says why t, a whole line, is one of moonlight-common-c's messages.
func moonlightCommonWhy(t string) string {
	switch t[0] {
	case 'D', 'N', 'W', 'R':
	default:
		return ""
	}
	t = strings.TrimRight(t, " \r")
	for k, m := range moonlightCommonLines {
		if t == m {
			if k < 2 {
				return moonlightRTPQueueWhy
			}
			return moonlightFrameWhy
		}
	}
	return ""
}
