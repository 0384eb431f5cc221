package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// iperf, iperf3 and bwctl (which runs either and prints its output) throughput tables
// (issue 29): the throughput symptom itself, with iperf3's retransmits and congestion window
// per interval, kept as an artifact with its values.
//
//	[ ID] Interval           Transfer     Bitrate         Retr  Cwnd
//	[  5]   0.00-1.00   sec   123 MBytes  1.03 Gbits/sec   13    603 KBytes
//	[  5]   0.00-10.00  sec  1.17 GBytes  1.00 Gbits/sec  120             sender
//	[SUM]   0.00-10.00  sec  9.45 GBytes  8114 Mbits/sec                  receiver
//	[  3]  0.0-10.0 sec  1.09 GBytes   938 Mbits/sec                      (iperf 2)

// With -f K (or M, G) the rate is in bytes: "684 KBytes/sec", a binary prefix as Transfer's.
var reIperfRow = lazyre.New(`^\[\s*(\d+|SUM)\]\s+(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s*sec\s+(\d+(?:\.\d+)?)\s*([KMGT]?)Bytes\s+(\d+(?:\.\d+)?)\s*([KMGT]?)(bits|Bytes)/sec\b(.*)$`)

// reIperfDebug reads iperf3 -d's TCP_INFO line printed before each interval row:
// "tcpi_snd_cwnd 50 tcpi_snd_mss 1326 tcpi_rtt 93887" (iperf_tcp.c, debug builds of the
// report), whose MSS is the flow's own.
var reIperfDebug = lazyre.New(`^tcpi_snd_cwnd\s+\d+\s+tcpi_snd_mss\s+(\d+)\s+tcpi_rtt\s+\d+\s*$`)

// IperfInterval is one row of an iperf table.
type IperfInterval struct {
	Stream     string  `json:"stream"` // "5", "SUM"
	Start      float64 `json:"start_sec"`
	End        float64 `json:"end_sec"`
	Bytes      int64   `json:"bytes"`
	BitsPerSec float64 `json:"bits_per_sec"`
	// Retransmits and CwndBytes are iperf3's Retr and Cwnd columns (TCP_INFO on the
	// sender), absent on the receiver's rows and in iperf 2.
	Retransmits *int64 `json:"retransmits,omitempty"`
	CwndBytes   *int64 `json:"cwnd_bytes,omitempty"`
	// RTTUsec is iperf3 -J's "rtt" (tcpi_rtt, microseconds), absent from the text table.
	RTTUsec *int64 `json:"rtt_usec,omitempty"`
	Role    string `json:"role,omitempty"` // "sender", "receiver" on iperf3's summary rows
	// JitterMs, Lost and Datagrams are a UDP test's receiver columns ("0.041 ms
	// 412/8883 (4.6%)"): the datagrams lost on the way, NIC and socket drops included.
	JitterMs  *float64 `json:"jitter_ms,omitempty"`
	Lost      *int64   `json:"lost,omitempty"`
	Datagrams *int64   `json:"datagrams,omitempty"`
}

// IperfData is one iperf table.
type IperfData struct {
	Intervals []IperfInterval `json:"intervals,omitempty"`
	// Sender and Receiver are iperf3's summary rows (the [SUM] row with -P), when present.
	Sender   *IperfInterval `json:"sender,omitempty"`
	Receiver *IperfInterval `json:"receiver,omitempty"`
	// WindowBytes is iperf 2's "TCP window size: 85.0 KByte (default)" or "UDP buffer size:
	// 208 KByte": the socket buffer the test ran with (SO_RCVBUF/SO_SNDBUF as the kernel
	// reports it, doubled), which bounds a TCP flow at window / RTT.
	// MSS is the flow's segment size when iperf3 -d prints it (tcpi_snd_mss).
	MSS         int64  `json:"mss,omitempty"`
	WindowBytes int64  `json:"window_bytes,omitempty"`
	WindowKind  string `json:"window_kind,omitempty"` // "TCP window size", "UDP buffer size"
}

func iperfScale(unit string) float64 {
	switch unit {
	case "K":
		return 1 << 10
	case "M":
		return 1 << 20
	case "G":
		return 1 << 30
	case "T":
		return 1 << 40
	}
	return 1
}

func iperfBitScale(unit string) float64 {
	switch unit {
	case "K":
		return 1e3
	case "M":
		return 1e6
	case "G":
		return 1e9
	case "T":
		return 1e12
	}
	return 1
}

// reIperfTail reads what follows the bitrate: "13    603 KBytes", "120   sender", "receiver".
var reIperfTail = lazyre.New(`^\s*(?:(\d+)\s*)?(?:(\d+(?:\.\d+)?)\s*([KMGT]?)Bytes\s*)?(sender|receiver)?\s*$`)

// reIperfUDPTail reads a UDP receiver's columns: "0.041 ms  412/ 8883 (4.6%)  receiver".
var reIperfUDPTail = lazyre.New(`^\s*(\d+(?:\.\d+)?)\s*ms\s+(\d+)\s*/\s*(\d+)\s*\(\s*[\d.e+-]+%\)\s*(sender|receiver)?\s*$`)

// reIperfWindow reads iperf 2's buffer line: "TCP window size: 85.0 KByte (default)", "UDP
// buffer size:  208 KByte (default)", "TCP window size:  416 KByte (WARNING: requested  512
// KByte)".
var reIperfWindow = lazyre.New(`^(TCP window size|UDP buffer size):\s*(\d+(?:\.\d+)?)\s*([KMG]?)Byte`)

func isIperfWindowLine(_, t string) bool {
	return (strings.HasPrefix(t, "TCP window size:") || strings.HasPrefix(t, "UDP buffer size:")) && reIperfWindow.MatchString(t)
}

func (d *doc) tryIperfWindow(i int) int {
	m := reIperfWindow.FindStringSubmatch(strings.TrimSpace(d.ls[i].Text))
	if m == nil {
		return 0
	}
	v, _ := strconv.ParseFloat(m[2], 64)
	d.addArtifact(KindIperf, d.ls[i].No, d.ls[i].No, IperfData{WindowBytes: int64(v * iperfScale(m[3])), WindowKind: m[1]})
	return 1
}

func parseIperfRow(t string) (IperfInterval, bool) {
	m := reIperfRow.FindStringSubmatch(strings.TrimSpace(t))
	if m == nil {
		return IperfInterval{}, false
	}
	var r IperfInterval
	r.Stream = m[1]
	r.Start, _ = strconv.ParseFloat(m[2], 64)
	r.End, _ = strconv.ParseFloat(m[3], 64)
	b, _ := strconv.ParseFloat(m[4], 64)
	r.Bytes = int64(b * iperfScale(m[5]))
	bps, _ := strconv.ParseFloat(m[6], 64)
	r.BitsPerSec = bps * iperfBitScale(m[7])
	if m[8] == "Bytes" {
		r.BitsPerSec = bps * iperfScale(m[7]) * 8
	}
	if u := reIperfUDPTail.FindStringSubmatch(m[9]); u != nil {
		j, _ := strconv.ParseFloat(u[1], 64)
		lost, _ := strconv.ParseInt(u[2], 10, 64)
		total, _ := strconv.ParseInt(u[3], 10, 64)
		r.JitterMs, r.Lost, r.Datagrams, r.Role = &j, &lost, &total, u[4]
		return r, true
	}
	tail := reIperfTail.FindStringSubmatch(m[9])
	if tail == nil {
		return r, true // columns iperf adds elsewhere
	}
	if tail[1] != "" {
		if v, err := strconv.ParseInt(tail[1], 10, 64); err == nil {
			r.Retransmits = &v
		}
	}
	if tail[2] != "" {
		c, _ := strconv.ParseFloat(tail[2], 64)
		v := int64(c * iperfScale(tail[3]))
		r.CwndBytes = &v
	}
	r.Role = tail[4]
	return r, true
}

// tryIperf reads a run of iperf rows, its "[ ID] Interval" headers and separators between them.
func (d *doc) tryIperf(i int) int {
	var data IperfData
	// A header without Retr (a UDP client's "Total Datagrams", a receiver's table) says the
	// number after the bitrate is no retransmit count.
	noRetr := false
	k := i
	for k < len(d.ls) {
		t := strings.TrimSpace(d.ls[k].Text)
		if strings.HasPrefix(t, "[ ID]") || strings.HasPrefix(t, "- - -") {
			if strings.HasPrefix(t, "[ ID]") {
				noRetr = !strings.Contains(t, "Retr")
			}
			k++
			continue
		}
		if dm := reIperfDebug.FindStringSubmatch(t); dm != nil {
			data.MSS, _ = strconv.ParseInt(dm[1], 10, 64)
			k++
			continue
		}
		r, ok := parseIperfRow(t)
		if !ok {
			break
		}
		if noRetr {
			r.Retransmits, r.CwndBytes = nil, nil
		}
		switch r.Role {
		case "sender":
			if data.Sender == nil || r.Stream == "SUM" {
				data.Sender = &r
			}
		case "receiver":
			if data.Receiver == nil || r.Stream == "SUM" {
				data.Receiver = &r
			}
		default:
			data.Intervals = append(data.Intervals, r)
		}
		k++
	}
	if len(data.Intervals) == 0 && data.Sender == nil && data.Receiver == nil {
		return 0
	}
	d.addArtifact(KindIperf, d.ls[i].No, d.ls[k-1].No, data)
	d.addIperfRetrans(d.ls[i].No, d.ls[k-1].No, &data)
	return k - i
}

// iperfMSS is the segment size the sent bytes are divided by to count segments when the text
// gives none (iperf3 -d prints the flow's own): Ethernet's 1500-byte MTU less 20 bytes of IP, 20 of TCP and 12 of timestamps.
// A jumbo-frame path sends fewer, larger segments (a higher share); a tunnel's smaller MSS
// sends more (a share up to a tenth lower).
const iperfMSS = 1448

// addIperfRetrans keeps the test flow's retransmissions as a sample for retransmit-rate: the
// sender's summary row (the [SUM] row with -P), or without one (a cut paste) the interval
// rows, [SUM] rows alone when the table has them. iperf3 counts Retr on the sender from
// TCP_INFO (tcpi_total_retrans): with -R that is the remote server, still the same path.
func (d *doc) addIperfRetrans(first, last int, data *IperfData) {
	var retr, bytes int64
	switch {
	case data.Sender != nil && data.Sender.Retransmits != nil:
		retr, bytes = *data.Sender.Retransmits, data.Sender.Bytes
	default:
		sum := false
		for _, r := range data.Intervals {
			sum = sum || r.Stream == "SUM"
		}
		for _, r := range data.Intervals {
			if r.Retransmits == nil || (sum && r.Stream != "SUM") {
				continue
			}
			retr += *r.Retransmits
			bytes += r.Bytes
		}
	}
	if bytes <= 0 {
		return
	}
	mss := int64(iperfMSS)
	if data.MSS > 0 {
		mss = data.MSS
	}
	segs := bytes / mss
	if segs < 1 {
		return
	}
	d.tl.Samples = append(d.tl.Samples, model.Sample{
		Source: spanSource(first, last) + " (an iperf3 run)",
		Rates:  model.Rates{model.RateIperfRetransSegs: float64(retr), model.RateIperfSegsSent: float64(segs), model.RateIperfMSS: float64(mss)}})
}

// iperf3 -J output (corpus 509: a fragment of the intervals array pasted into an issue): one
// "key": value a line, the stream objects and each interval's "sum". Each object holding
// bits_per_second is one row: its bytes, its retransmits and snd_cwnd (sender side, bytes)
// are the table's Transfer, Retr and Cwnd columns.
//
//	"bytes":        328990720,
//	"bits_per_second":      2631880894.5148187,
//	"retransmits":  173,
//	"snd_cwnd":     590784,
var reIperfJSONKey = lazyre.New(`^"([a-z_]+)":\s*(-?[0-9][0-9.eE+-]*|true|false|"[^"]*"|\[\{?|\{)\s*,?\s*$`)

// iperfJSONKeys are the keys of iperf3's interval and stream objects (iperf_api.c
// iperf_json_printf "start", "end", "seconds", "bytes", "bits_per_second", "retransmits",
// "snd_cwnd", "rtt", "rttvar", "pmtu", "omitted", "sender").
var iperfJSONKeys = map[string]bool{"socket": true, "start": true, "end": true, "seconds": true, "bytes": true,
	"bits_per_second": true, "retransmits": true, "snd_cwnd": true, "snd_wnd": true, "rtt": true, "rttvar": true,
	"pmtu": true, "omitted": true, "sender": true, "streams": true, "sum": true, "jitter_ms": true,
	"lost_packets": true, "packets": true, "lost_percent": true}

func iperfJSONLine(t string) (key, val string, ok bool) {
	m := reIperfJSONKey.FindStringSubmatch(t)
	if m == nil || !iperfJSONKeys[m[1]] {
		return "", "", false
	}
	return m[1], m[2], true
}

func (d *doc) tryIperfJSON(i int) int {
	var data IperfData
	var cur IperfInterval
	have := false
	flush := func() {
		if have {
			data.Intervals = append(data.Intervals, cur)
		}
		cur, have = IperfInterval{}, false
	}
	k := i
	for ; k < len(d.ls); k++ {
		t := strings.TrimSpace(d.ls[k].Text)
		if strings.Trim(t, "{}[], ") == "" && t != "" {
			if strings.Contains(t, "}") {
				flush()
			}
			continue
		}
		key, val, ok := iperfJSONLine(t)
		if !ok {
			break
		}
		f, err := strconv.ParseFloat(val, 64)
		switch {
		case key == "streams" || key == "sum":
			flush()
			if key == "sum" {
				cur.Stream = "SUM"
			}
		case err != nil:
		case key == "start":
			cur.Start = f
		case key == "end":
			cur.End = f
		case key == "bytes":
			cur.Bytes = int64(f)
		case key == "bits_per_second":
			cur.BitsPerSec, have = f, true
		case key == "retransmits":
			n := int64(f)
			cur.Retransmits = &n
		case key == "snd_cwnd":
			n := int64(f)
			cur.CwndBytes = &n
		case key == "rtt":
			n := int64(f)
			cur.RTTUsec = &n
		}
	}
	flush()
	if len(data.Intervals) == 0 {
		return 0
	}
	d.addArtifact(KindIperf, d.ls[i].No, d.ls[k-1].No, data)
	return k - i
}
