package artifact

import (
	"strconv"
	"strings"

	"headroom/model"
)

// Ettus UHD's own words about its UDP socket buffers (pre-round 22, h22c). UHD sizes each
// streaming socket's SO_RCVBUF/SO_SNDBUF (recv_buff_size, send_buff_size; 20 ms of a 1 GbE
// link, 2500000 bytes, by default) and reads the size back; when the kernel gave less it
// warns (host/lib/include/uhdlib/transport/udp_common.hpp
// resize_udp_socket_buffer_with_warning; UHD 3's udp_zero_copy.cpp the same text after
// "UHD Warning:"):
//
//	[WARNING] [UDP] The recv buffer could not be resized sufficiently.
//	Target sock buff size: T bytes.
//	Actual sock buff size: A bytes.
//	See the transport application notes on buffer resizing.
//	Please run: sudo sysctl -w net.core.rmem_max=T
//
// A is getsockopt's answer after the kernel capped the request at net.core.rmem_max
// (net/core/sock.c sk_setsockopt): the receive buffer held below what UHD sized it for, the
// condition under which a sample stream's bursts overflow it (Udp RcvbufErrors, UHD's "D"
// and "O"). It reaches udp-rcvbuf-errors as a stated cap (noteRcvbufCapped), with both
// figures. "Please run: sudo sysctl -w net.core.rmem_max=T" is UHD's advice, printed with
// the target: never the host's setting, so the block's lines are consumed here before the
// setting reader sees them. The send buffer's twin ("The send buffer ...", wmem_max) caps
// the send side, where no kernel counter records a loss (UHD retries a send refused with
// ENOBUFS, udp_common.hpp send_udp_packet): named, no finding.
//
// UHD 4 adds (udp_boost_asio_link.cpp, mpmd_link_if_ctrl_udp.cpp): "The current
// recv_buff_size of A is less than the minimum recommended size of M and may result in
// dropped packets on some NICs", M = num_recv_frames × 9600: the same cap stated against
// UHD's minimum.
//
// Gated: one fixed needle per form with strings.Index; no regexp.

const (
	uhdResizeNeedle = " buffer could not be resized sufficiently."
	uhdMinNeedle    = " is less than the minimum recommended size of "
)

const uhdSendCappedWhy = "UHD's warning that its UDP send buffer (send_buff_size) got less than it asked for (udp_common.hpp resize_udp_socket_buffer_with_warning: \"The send buffer could not be resized sufficiently\", the kernel capped SO_SNDBUF at net.core.wmem_max; \"Please run: sudo sysctl -w net.core.wmem_max=N\" is UHD's advice, not the host's setting): transmit-side only, where no kernel counter records a loss (UHD retries a send refused with ENOBUFS); no rule applies"

const uhdRecvNoFigureWhy = "UHD's warning that its UDP receive buffer got less than it asked for (udp_common.hpp: \"The recv buffer could not be resized sufficiently\"), without its Target/Actual sock buff size lines: the cap is stated, its figures are not in the text"

const uhdMarksWhy = "UHD's stream marks (printed one character each to stderr: O an overflow, the host did not take the samples in time; D a sequence error, packets lost between the radio and the host; U an underflow; L a late command; S a transmit sequence error): UHD's own counts, not the kernel's; `netstat -su` (receive buffer errors) and `ethtool -S` (rx_missed_errors, rx_fifo_errors) pasted beside them say whether the host's socket buffer or NIC dropped the packets"

// uhdLead: what precedes UHD's sentence is a prefix only (nothing, "[WARNING] [UDP]",
// "UHD Warning:", a quote's ">" or a compose service's "|").
func uhdLead(head string) bool {
	h := strings.TrimSpace(head)
	return h == "" || strings.HasSuffix(h, "[UDP]") || strings.HasSuffix(h, "Warning:") ||
		strings.HasSuffix(h, ">") || strings.HasSuffix(h, "|")
}

// uhdResizeHead: t is UHD's resize warning; dir is "recv" or "send".
func uhdResizeHead(t string) (dir string, ok bool) {
	k := strings.Index(t, uhdResizeNeedle)
	if k < 0 {
		return "", false
	}
	for _, d := range [...]string{"recv", "send"} {
		if p := "The " + d; strings.HasSuffix(t[:k], p) && uhdLead(t[:k-len(p)]) {
			return d, true
		}
	}
	return "", false
}

// uhdFigure reads "LABEL N bytes." anywhere in t.
func uhdFigure(t, label string) (int64, bool) {
	k := strings.Index(t, label)
	if k < 0 {
		return 0, false
	}
	rest := t[k+len(label):]
	n := leadingDigits(rest)
	if n == "" || len(n) > 15 || !strings.HasPrefix(rest[len(n):], " bytes") {
		return 0, false
	}
	v, err := strconv.ParseInt(n, 10, 64)
	return v, err == nil
}

// uhdResizeBlock reads UHD's resize warning at line i and its continuation lines (blank
// lines between them, as a mail client leaves, are skipped).
func (d *doc) uhdResizeBlock(i int, dir string) {
	var target, actual int64
	last := i
	for j := i + 1; j < len(d.ls) && j <= last+3; j++ {
		t := d.ls[j].Text
		if isBlank(t) || strings.TrimSpace(t) == ">" {
			continue
		}
		switch {
		case strings.Contains(t, "Target sock buff size: "):
			target, _ = uhdFigure(t, "Target sock buff size: ")
		case strings.Contains(t, "Actual sock buff size: "):
			actual, _ = uhdFigure(t, "Actual sock buff size: ")
		case strings.Contains(t, "See the transport application notes"),
			strings.Contains(t, "Please run: sudo sysctl -w net.core.") && strings.Contains(t, "mem_max="):
		default:
			j = len(d.ls)
			continue
		}
		last = j
	}
	if dir == "recv" && target > 0 && actual > 0 && actual < target {
		for j := i; j <= last; j++ {
			d.used[j] = true
		}
		d.noteRcvbufCapped(target, actual, i)
		d.uhdCapped = true
		return
	}
	why := uhdSendCappedWhy
	if dir == "recv" {
		why = uhdRecvNoFigureWhy
	}
	for j := i; j <= last; j++ {
		if !isBlank(d.ls[j].Text) {
			d.unparsedUnread(j, why)
		}
		d.used[j] = true
	}
}

// uhdMinLine reads UHD 4's "The current recv_buff_size of A is less than the minimum
// recommended size of M ..." (a mail client may wrap it after "less than the"); n is the
// number of lines it spans.
func (d *doc) uhdMinLine(i int, t string) (dir string, cur, min int64, n int, ok bool) {
	var head string
	for _, dd := range [...]string{"recv", "send"} {
		p := "The current " + dd + "_buff_size of "
		if k := strings.Index(t, p); k >= 0 && uhdLead(t[:k]) {
			dir, head = dd, t[k+len(p):]
			break
		}
	}
	if dir == "" {
		return "", 0, 0, 0, false
	}
	n = 1
	s := head
	if !strings.Contains(s, uhdMinNeedle) && i+1 < len(d.ls) {
		s = strings.TrimRight(s, " ") + " " + strings.TrimSpace(strings.TrimLeft(d.ls[i+1].Text, "> "))
		n = 2
	}
	c := leadingDigits(s)
	if c == "" || len(c) > 15 || !strings.HasPrefix(s[len(c):], uhdMinNeedle) {
		return "", 0, 0, 0, false
	}
	m := leadingDigits(s[len(c)+len(uhdMinNeedle):])
	if m == "" || len(m) > 15 {
		return "", 0, 0, 0, false
	}
	cur, _ = strconv.ParseInt(c, 10, 64)
	min, _ = strconv.ParseInt(m, 10, 64)
	if n == 2 && i+2 < len(d.ls) && strings.TrimSpace(strings.TrimLeft(d.ls[i+2].Text, "> ")) == "some NICs" {
		n = 3
	}
	return dir, cur, min, n, true
}

// uhdMarks: t is a run of UHD's stream marks only ("OOOOOOO", "DDD", "UUUUL"): at least
// three, one of them repeated in a row, so a word of those letters ("OLD", "LOUD") is not.
func uhdMarks(t string) bool {
	s := strings.TrimSpace(t)
	if len(s) < 3 {
		return false
	}
	rep := false
	for k := 0; k < len(s); k++ {
		switch s[k] {
		case 'O', 'D', 'U', 'L', 'S':
		default:
			return false
		}
		rep = rep || k > 0 && s[k] == s[k-1]
	}
	return rep
}

const uhdBenchWhy = "UHD's benchmark_rate summary (examples/benchmark_rate.cpp: \"Num dropped samples\", \"Num overruns detected\", \"Num sequence errors (Rx)\" ...): UHD's own counts of samples lost between the radio and the program, not a kernel counter; no rule applies to them alone: `netstat -su` (receive buffer errors) and `ethtool -S` (rx_missed_errors, rx_fifo_errors) taken around the run say whether the host's socket buffer or NIC dropped the packets"

// uhdBenchBlock names UHD benchmark_rate's summary: its title line at i and the "Num ...:"
// lines under it.
func (d *doc) uhdBenchBlock(i int) {
	d.unparsedUnread(i, uhdBenchWhy)
	for j := i + 1; j < len(d.ls) && j <= i+14; j++ {
		c := strings.TrimSpace(d.ls[j].Text)
		if !strings.HasPrefix(c, "Num ") || strings.IndexByte(c, ':') < 0 {
			return
		}
		d.unparsedUnread(j, uhdBenchWhy)
		d.used[j] = true
	}
}

// uhdLine reads UHD's buffer warnings and stream marks on a line that is not the kernel's.
func (d *doc) uhdLine(i int, t string) bool {
	if strings.Contains(t, "Benchmark rate summary:") && uhdLead(t[:strings.Index(t, "Benchmark rate summary:")]) && !d.exampleLog(i) {
		d.uhdBenchBlock(i)
		return true
	}
	if c := strings.TrimSpace(t); c != "" && strings.IndexByte("ODULS", c[0]) >= 0 && uhdMarks(c) {
		if d.exampleLog(i) {
			return false
		}
		d.unparsedUnread(i, uhdMarksWhy)
		return true
	}
	if strings.Contains(t, uhdResizeNeedle) {
		dir, ok := uhdResizeHead(t)
		if !ok || d.exampleLog(i) {
			return false
		}
		d.uhdResizeBlock(i, dir)
		return true
	}
	if !strings.Contains(t, "_buff_size of ") {
		return false
	}
	dir, cur, min, n, ok := d.uhdMinLine(i, t)
	if !ok || d.exampleLog(i) {
		return false
	}
	if dir == "recv" && cur > 0 && cur < min {
		for j := i; j < i+n; j++ {
			d.used[j] = true
		}
		if d.uhdCapped {
			// The resize warning's figures, read before, say more: this line is kept as an
			// artifact of what it states, not as the finding's sample.
			no := d.ls[i].No
			d.addArtifact(KindStated, no, no, model.Rates{model.RateStatedUDPRcvbufRequested: float64(min), model.RateStatedUDPRcvbufObtained: float64(cur)})
		} else {
			d.noteRcvbufCapped(min, cur, i)
		}
		return true
	}
	why := uhdSendCappedWhy
	if dir == "recv" {
		why = uhdRecvNoFigureWhy
	}
	for j := i; j < i+n; j++ {
		d.unparsedUnread(j, why)
		d.used[j] = true
	}
	return true
}
