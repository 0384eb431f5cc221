package artifact

import "strings"

// A capture device's own stream statistics (fix27c, round 22's g104: software radio and
// GigE Vision cameras). Two forms, each the receiving program's count of its own stream:
//   - Aravis's GvStream finalize dump, one "[GvStream::finalize] n_missing_packets = 786"
//     per line (src/arvgvstream.c prints its counters so; corpus 2372): the packets of
//     the camera's stream that the library found missing, asked to be resent or got twice;
//   - SoapySDR's readStream error as an application prints it, "readStream failed:
//     OVERFLOW" (SOAPY_SDR_OVERFLOW, SoapySDR/Errors.h; also TIMEOUT, UNDERFLOW,
//     TIME_ERROR, CORRUPTION; corpus 2378): the driver's sample buffer filled because the
//     program read it too slowly.
// Neither is a kernel counter: the loss may be the camera's, the link's, the socket's
// (Udp RcvbufErrors) or the NIC's, and an SDR's overflow is a USB or library buffer.
// Before, such a paste exited 3 as if it held no evidence; the lines are listed as unread
// with what they state, and nothing is diagnosed from them.
// Counter-cases: a sentence naming the counters ("n_missing_packets grows"), a C++ "Foo::bar"
// log line without an "n_" counter, "Overflows may be normal" without readStream.

const whyCameraStreamStats = "a GigE Vision library's own statistics of the camera's stream (Aravis's \"[GvStream::finalize] n_missing_packets = N\": packets received, missing, resent, duplicated): the receiving program's count, not a kernel counter; where the packets were lost (the camera, the link, the socket's Udp RcvbufErrors, the NIC's drop counters) is not in it; headroom has no reader for it"

const whySDRStreamError = "a software radio's stream error as its application prints it (SoapySDR's \"readStream failed: OVERFLOW\": the driver's sample buffer filled because the program read it too slowly): the program's own buffer, not a kernel counter of memory or of the network; headroom has no reader for it"

const whyCameraStreamDebug = "a GigE Vision library's own debug line about the camera's stream (Aravis's \"[GvStream::process_packet] Error packet ...\", \"[GvStream::stream_new] Packet size = 1476\"): the receiving program's view of its stream, not a kernel counter; headroom has no reader for it"

const whyAppMissingPackets = "a receiving program's own log line counting the packets it found missing (sequence gaps: \"missing 22 packets\", \"Packet loss during receive (75.2% missing)\"): loss on the whole path as the application counts it, not a kernel counter; where the packets were lost (the sender, the network, the socket's Udp RcvbufErrors, the NIC's drop counters) is not in it; headroom has no reader for it"

// deviceStreamLine says why t is such a line.
func deviceStreamLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false
	}
	if strings.Contains(t, "::") && strings.Contains(t, "] n_") {
		if gvStreamStat(t) {
			return whyCameraStreamStats, true
		}
	}
	if why, ok := mavlinkStatLine(t); ok {
		return why, true // mavlink-router's endpoint statistics (fix51aown.go)
	}
	if strings.Contains(t, "[Gv") && aravisDebugLine(t) {
		return whyCameraStreamDebug, true
	}
	if strings.Contains(t, "missing") && appMissingPacketsLine(t) {
		return whyAppMissingPackets, true
	}
	if k := strings.Index(t, "readStream"); k >= 0 {
		rest := strings.TrimLeft(t[k+len("readStream"):], " ")
		if r, ok := strings.CutPrefix(rest, "failed:"); ok {
			r = strings.TrimLeft(r, " ")
			for _, code := range []string{"OVERFLOW", "UNDERFLOW", "TIMEOUT", "TIME_ERROR", "CORRUPTION"} {
				if strings.HasPrefix(r, code) {
					return whySDRStreamError, true
				}
			}
		}
	}
	return "", false
}

// gvStreamStat: "[Class::method] n_name = 123", the bracketed prefix at the line's start.
func gvStreamStat(t string) bool {
	s := strings.TrimLeft(t, " \t")
	if !strings.HasPrefix(s, "[") {
		return false
	}
	e := strings.IndexByte(s, ']')
	if e < 0 || !strings.Contains(s[:e], "::") {
		return false
	}
	s = strings.TrimLeft(s[e+1:], " ")
	if !strings.HasPrefix(s, "n_") {
		return false
	}
	name, val, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	val = strings.TrimSpace(val)
	if !ok || !isPairName(name+"=") || val == "" {
		return false
	}
	for i := 0; i < len(val); i++ {
		if val[i] < '0' || val[i] > '9' {
			return false
		}
	}
	return true
}

// aravisDebugLine: a line that starts with Aravis's "[GvStream::fn]" or "[GvDevice::fn]"
// debug prefix and holds a number.
func aravisDebugLine(t string) bool {
	s := strings.TrimLeft(t, " \t")
	if !strings.HasPrefix(s, "[Gv") || !hasDigit(s) {
		return false
	}
	e := strings.IndexByte(s, ']')
	return e > 0 && strings.Contains(s[:e], "::") && !strings.ContainsAny(s[:e], " ")
}

// appMissingPacketsLine: a program's log line (it starts with "[", a date or a time, after
// indentation) that counts missing packets: "missing 22 packets", "(75.2% missing)". A
// sentence that says the same starts with a word. A frame missing whole counts too.
func appMissingPacketsLine(t string) bool {
	s := strings.TrimLeft(t, " \t")
	if s == "" || s[0] != '[' && (s[0] < '0' || s[0] > '9') {
		return false
	}
	l := strings.ToLower(s)
	if !strings.Contains(l, "packet") && !strings.Contains(l, "frame") {
		return false
	}
	if k := strings.Index(l, "missing "); k >= 0 && len(leadingDigits(l[k+len("missing "):])) > 0 {
		return true // "missing 22 packets"
	}
	return strings.Contains(l, "% missing)")
}
