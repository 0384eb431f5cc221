// Package recgen writes long synthetic recordings (headroom record archives) for measuring
// what reading them costs: `doctor --from`, `report` and the memory tests of record.
//
// The shape is real: the template (testdata/host.jsonl.gz) was written by `headroom record
// --interval 1s` on the development VM (Linux 6.18, 2 CPUs, 24 GiB), so every sample has the
// files, counter names and sizes of a real one (27 KB of JSON). The values progress as the
// template's did: the generator takes two samples of the template, and every integer that
// grew between them grows by the same amount per interval (with jitter, never backwards), one
// that fell wanders between the two values (a gauge: free pages, socket memory), and one that
// did not move stays. Interfaces adds that many veths to /proc/net/dev, ethtool and the host's
// NIC list (a container host; 600 of them make a sample line about 420 KB).
package recgen

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"headroom/kernel"
	"headroom/model"
)

//go:embed testdata/host.jsonl.gz
var template []byte

// Options say what to generate.
type Options struct {
	Samples    int           // samples to write (one line each)
	Interval   time.Duration // time between samples (0: 1 s)
	Interfaces int           // veths to add to every sample
	// MemberLines closes the gzip member every this many lines (0: 3600, as the recorder
	// does at 1 s).
	MemberLines int
	// Markers adds this many phase markers, spread evenly.
	Markers int
	Seed    uint64
	Start   time.Time // first sample's time (zero: 2026-11-28 00:00 UTC)
}

// Generate writes a recording of opt.Samples samples to w.
func Generate(w io.Writer, opt Options) error {
	if opt.Interval <= 0 {
		opt.Interval = time.Second
	}
	if opt.MemberLines <= 0 {
		opt.MemberLines = 3600
	}
	if opt.Start.IsZero() {
		opt.Start = time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	}
	header, samples, err := readTemplate()
	if err != nil {
		return err
	}
	// The first sample is read right after the recorder started; pair the second with the
	// latest one of the same shape (a socket or interrupt line can come and go).
	var prog *progression
	for j := len(samples) - 1; j > 1 && prog == nil; j-- {
		a, b := copySample(samples[1]), copySample(samples[j])
		prog, err = build(header, a, b, j-1, opt)
		if errors.Is(err, errShape) {
			err = nil
		}
		if err != nil {
			return err
		}
	}
	if prog == nil {
		return errors.New("template: no two samples of the same shape")
	}
	header = prog.header
	bw := bufio.NewWriterSize(w, 1<<20)
	zw := gzip.NewWriter(bw)
	lines := 0
	line := func(p []byte) error {
		if _, err := zw.Write(p); err != nil {
			return err
		}
		if err := zw.Flush(); err != nil { // the recorder's sync flush per sample
			return err
		}
		lines++
		if lines%opt.MemberLines == 0 {
			if err := zw.Close(); err != nil {
				return err
			}
			zw.Reset(bw)
		}
		return nil
	}
	if err := line(append(header, '\n')); err != nil {
		return err
	}
	every := 0
	if opt.Markers > 0 {
		every = max(1, opt.Samples/(opt.Markers+1))
	}
	var buf []byte
	for i := 0; i < opt.Samples; i++ {
		t := opt.Start.Add(time.Duration(i) * opt.Interval)
		if every > 0 && i > 0 && i%every == 0 && i/every <= opt.Markers {
			m, _ := json.Marshal(map[string]any{"marker": model.Marker{Time: t.Add(-opt.Interval / 2), Text: fmt.Sprintf("phase %d", i/every)}})
			if err := line(append(m, '\n')); err != nil {
				return err
			}
		}
		buf = prog.next(buf[:0], t)
		if err := line(buf); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return bw.Flush()
}

var errShape = errors.New("template samples differ in shape")

func build(header []byte, a, b *model.Sample, k int, opt Options) (*progression, error) {
	var err error
	if opt.Interfaces > 0 {
		if header, err = addNICs(header, opt.Interfaces); err != nil {
			return nil, err
		}
		addVeths(a, opt.Interfaces, 0)
		addVeths(b, opt.Interfaces, k)
	}
	if header, err = setStarted(header, opt.Start); err != nil {
		return nil, err
	}
	p, err := newProgression(a, b, k, opt.Seed)
	if err != nil {
		return nil, err
	}
	p.header = header
	return p, nil
}

func copySample(s *model.Sample) *model.Sample {
	j, _ := json.Marshal(s)
	var c model.Sample
	_ = json.Unmarshal(j, &c)
	return &c
}

// readTemplate returns the template's header line and its samples.
func readTemplate() (header []byte, samples []*model.Sample, err error) {
	zr, err := gzip.NewReader(bytes.NewReader(template))
	if err != nil {
		return nil, nil, err
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, nil, err
	}
	for i, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		if i == 0 {
			header = l
			continue
		}
		var e struct {
			Sample *model.Sample `json:"sample"`
		}
		if err := json.Unmarshal(l, &e); err != nil {
			return nil, nil, fmt.Errorf("template line %d: %w", i+1, err)
		}
		if e.Sample != nil {
			samples = append(samples, e.Sample)
		}
	}
	if len(samples) < 3 {
		return nil, nil, fmt.Errorf("template has %d samples, want 3 or more", len(samples))
	}
	return header, samples, nil
}

// vethStats are the ethtool -S names of a veth (drivers/net/veth.c veth_rq_stats_desc and
// veth_tq_stats_desc, one queue).
var vethStats = []string{"peer_ifindex", "rx_queue_0_xdp_packets", "rx_queue_0_xdp_bytes",
	"rx_queue_0_drops", "rx_queue_0_xdp_redirect", "rx_queue_0_xdp_drops", "rx_queue_0_xdp_tx",
	"rx_queue_0_xdp_tx_errors", "tx_queue_0_xdp_xmit", "tx_queue_0_xdp_xmit_errors"}

// addVeths adds n veths to s, their counters as after step intervals of traffic.
func addVeths(s *model.Sample, n, step int) {
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("veth%04x", i)
		var c kernel.Counters
		rate := int64(1000 + 37*i)
		for j, col := range []string{"rx_bytes", "rx_packets", "rx_errors", "rx_dropped", "rx_fifo_errors", "rx_frame_errors",
			"rx_compressed", "multicast", "tx_bytes", "tx_packets", "tx_errors", "tx_dropped", "tx_fifo_errors", "collisions",
			"tx_carrier_errors", "tx_compressed"} {
			var v int64
			switch j {
			case 0, 8:
				v = 1e6*int64(i) + rate*100*int64(step)
			case 1, 9:
				v = 1e3*int64(i) + rate*int64(step)
			}
			c.Set(col, v)
		}
		s.NetDev = append(s.NetDev, kernel.NetDev{Name: name, Counters: c})
		var st kernel.Counters
		for j, k := range vethStats {
			v := int64(0)
			if j == 0 {
				v = int64(1000 + i)
			}
			st.Set(k, v)
		}
		s.NICStats = append(s.NICStats, kernel.NICStats{Name: name, Stats: &st,
			RingErr: "ethtool -g " + name + ": not supported here: operation not supported"})
	}
}

// addNICs adds n veths to the header's NIC list.
func addNICs(header []byte, n int) ([]byte, error) {
	var h map[string]any
	if err := json.Unmarshal(header, &h); err != nil {
		return nil, err
	}
	host, _ := h["host"].(map[string]any)
	nics, _ := host["nics"].([]any)
	for i := 0; i < n; i++ {
		nics = append(nics, map[string]any{"name": fmt.Sprintf("veth%04x", i), "driver": "veth", "speed_mbps": 10000,
			"mtu": 1500, "tx_queue_len": 1000, "operstate": "up", "rx_queues": 1, "tx_queues": 1, "virtual": true})
	}
	host["nics"] = nics
	return json.Marshal(h)
}

func setStarted(header []byte, t time.Time) ([]byte, error) {
	var h map[string]json.RawMessage
	if err := json.Unmarshal(header, &h); err != nil {
		return nil, err
	}
	h["started"], _ = json.Marshal(t)
	return json.Marshal(h)
}

// progression is a sample's JSON cut at its numbers, with how each number moves.
type progression struct {
	header []byte
	text   [][]byte // text before number i; text[len(nums)] is the tail
	nums   []num
	state  uint64
}

type num struct {
	kind       byte // 'c' counter, 'g' gauge, 'k' constant
	a, b, step int64
	cur        int64
	lit        []byte // the constant's text
}

func newProgression(a, b *model.Sample, k int, seed uint64) (*progression, error) {
	a.Time, b.Time = time.Time{}, time.Time{} // the time is written per sample
	ja, err := json.Marshal(a)
	if err != nil {
		return nil, err
	}
	jb, err := json.Marshal(b)
	if err != nil {
		return nil, err
	}
	ta, na := cutNumbers(ja)
	tb, nb := cutNumbers(jb)
	if len(na) != len(nb) {
		return nil, fmt.Errorf("%w: %d and %d numbers", errShape, len(na), len(nb))
	}
	p := &progression{text: ta, state: seed*2654435761 + 88172645463325252}
	for i := range na {
		if !bytes.Equal(ta[i], tb[i]) {
			return nil, fmt.Errorf("%w before number %d", errShape, i)
		}
		va, erra := strconv.ParseInt(string(na[i]), 10, 64)
		vb, errb := strconv.ParseInt(string(nb[i]), 10, 64)
		n := num{kind: 'k', lit: na[i], a: va, cur: va}
		switch {
		case erra != nil || errb != nil || va == vb: // a float or a still value
		case vb > va:
			n.kind, n.step = 'c', max((vb-va)/int64(k), 1)
		default:
			n.kind, n.b = 'g', vb
		}
		p.nums = append(p.nums, n)
	}
	return p, nil
}

// cutNumbers splits JSON text at its number tokens (outside strings).
func cutNumbers(j []byte) (text, nums [][]byte) {
	start, inStr := 0, false
	for i := 0; i < len(j); i++ {
		c := j[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '-' || (c >= '0' && c <= '9'):
			e := i + 1
			for e < len(j) && (j[e] == '.' || j[e] == 'e' || j[e] == 'E' || j[e] == '+' || j[e] == '-' || (j[e] >= '0' && j[e] <= '9')) {
				e++
			}
			text = append(text, j[start:i])
			nums = append(nums, j[i:e])
			start, i = e, e-1
		}
	}
	return append(text, j[start:]), nums
}

func (p *progression) rand() uint64 {
	p.state ^= p.state << 13
	p.state ^= p.state >> 7
	p.state ^= p.state << 17
	return p.state
}

// next appends the line of the sample at t.
func (p *progression) next(dst []byte, t time.Time) []byte {
	dst = append(dst, `{"sample":{"time":"`...)
	dst = t.AppendFormat(dst, time.RFC3339Nano)
	dst = append(dst, `",`...)
	dst = append(dst, p.text[0][1:]...) // the template's text starts with "{"
	for i := range p.nums {
		n := &p.nums[i]
		switch n.kind {
		case 'k':
			dst = append(dst, n.lit...)
		case 'c':
			// Between half and one and a half of the template's growth per interval.
			n.cur += n.step/2 + int64(p.rand()%uint64(n.step+1))
			dst = strconv.AppendInt(dst, n.cur, 10)
		case 'g':
			lo, hi := min(n.a, n.b), max(n.a, n.b)
			n.cur += int64(p.rand()%uint64(hi-lo+1)) - (hi-lo)/2
			n.cur = min(max(n.cur, lo), hi)
			dst = strconv.AppendInt(dst, n.cur, 10)
		}
		dst = append(dst, p.text[i+1]...)
	}
	return append(dst, "}\n"...)
}
