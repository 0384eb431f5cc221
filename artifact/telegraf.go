package artifact

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// Telegraf's metrics in InfluxDB line protocol, as its log or `telegraf --test` prints them
// and people paste them into issues: a measurement, comma-separated tags, a space, the
// fields (integers with an "i" suffix), a nanosecond timestamp.
//
//	net,host=pi,interface=eth0 err_in=0i,drop_in=0i,bytes_recv=12872i 1653850490000000000
//	net,host=pi,interface=all tcp_retranssegs=0i,udp_rcvbuferrors=0i,ip_outdiscards=0i ...
//
// The fields with a kernel counter behind them (kernel.TelegrafMetric: inputs.net's
// interface counters and its interface=all copy of /proc/net/snmp, inputs.mem's meminfo)
// become one sample of those counters; every record is kept as read. A page that broke a long
// record inside a field ("udp_rcvbuferrors=" / "0i,ip_fragfails=0i") is joined again; a field
// cut at the end of the copy ("udp_") is dropped.
var (
	// The measurement and at least one tag (telegraf adds host= to every record), then a
	// first field.
	reTelegrafHead = lazyre.New(`^([a-z][a-z0-9_]*)((?:,[A-Za-z0-9_.-]+=[^ ,=]+)+) ([A-Za-z][A-Za-z0-9_]*=\S*)`)
)

// TelegrafRecord is one record: its measurement, tags, numeric fields and timestamp.
type TelegrafRecord struct {
	Measurement string             `json:"measurement"`
	Tags        map[string]string  `json:"tags"`
	Fields      map[string]float64 `json:"fields"`
	TimestampNS int64              `json:"timestamp_ns,omitempty"`
}

// TelegrafData is what the block held and how many fields became kernel counters.
type TelegrafData struct {
	Records []TelegrafRecord `json:"records"`
	Mapped  int              `json:"mapped"`
}

// isTelegrafLine: a measurement with a tag, a space and a field. The first field must hold
// the tag's "," and "=" (a cheap test before the expression, which every line starting with a
// lower-case letter would otherwise meet).
func isTelegrafLine(ft, t string) bool {
	if ft == "" {
		ft = firstField(t)
	}
	return strings.IndexByte(ft, ',') > 0 && strings.IndexByte(ft, '=') > 0 && reTelegrafHead.MatchString(strings.TrimSpace(t))
}

// telegrafRecordLines joins line k with the lines a page broke it into: while the next line
// is one word that is no record and either the record ends inside a field ("…,
// udp_rcvbuferrors=" or "…=0i,") or the word holds fields ("errors=0i,ip_fragfails=0i"
// after "…,udp_rcvbuf"), that word continues it. It returns the record and the lines it took.
func (d *doc) telegrafRecordLines(k int) (string, int) {
	rec := strings.TrimSpace(d.ls[k].Text)
	n := 1
	for k+n < len(d.ls) && strings.Count(rec, " ") < 2 { // no timestamp yet: the record goes on
		next := strings.TrimSpace(d.ls[k+n].Text)
		if next == "" || strings.ContainsAny(next, " \t") || isTelegrafLine("", next) ||
			!(strings.HasSuffix(rec, "=") || strings.HasSuffix(rec, ",") || strings.Contains(next, "=")) {
			break
		}
		rec += next
		n++
	}
	return rec, n
}

func parseTelegrafRecord(rec string) (TelegrafRecord, bool) {
	m := reTelegrafHead.FindStringSubmatch(rec)
	if m == nil {
		return TelegrafRecord{}, false
	}
	r := TelegrafRecord{Measurement: m[1], Tags: map[string]string{}, Fields: map[string]float64{}}
	for _, kv := range strings.Split(strings.TrimPrefix(m[2], ","), ",") {
		k, v, _ := strings.Cut(kv, "=")
		r.Tags[k] = v
	}
	rest := rec[len(m[1])+len(m[2])+1:]
	fieldsPart, ts, _ := strings.Cut(rest, " ")
	if n, err := strconv.ParseInt(strings.TrimSpace(ts), 10, 64); err == nil {
		r.TimestampNS = n
	}
	for _, kv := range strings.Split(fieldsPart, ",") {
		k, v, found := strings.Cut(kv, "=")
		if !found || k == "" {
			continue // a field the copy cut ("udp_")
		}
		v = strings.TrimSuffix(strings.TrimSuffix(v, "i"), "u")
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			continue // strings and booleans
		}
		r.Fields[k] = x
	}
	return r, len(r.Fields) > 0
}

// tryTelegraf reads a run of line-protocol records. A series (measurement and tags) met
// again under a later timestamp starts a new sample, so records written every interval
// (telegraf's file output, `telegraf --test` run twice) become a window with a clock.
func (d *doc) tryTelegraf(i int) int {
	var data TelegrafData
	cs := &counterSample{} // a new one per sample: its meminfo and vmstat are pointed to
	var samples []model.Sample
	var ts int64
	seen := map[string]bool{}
	flush := func() {
		if len(seen) > 0 && cs.mapped {
			s := cs.sample()
			if ts > 0 {
				s.Time = time.Unix(0, ts).UTC()
			}
			samples = append(samples, s)
		}
		cs = &counterSample{}
		clear(seen)
	}
	k := i
	for k < len(d.ls) && isTelegrafLine("", d.ls[k].Text) {
		rec, n := d.telegrafRecordLines(k)
		r, ok := parseTelegrafRecord(rec)
		if !ok {
			break
		}
		k += n
		data.Records = append(data.Records, r)
		key := telegrafSeries(rec)
		if seen[key] && r.TimestampNS != ts {
			flush()
		}
		seen[key], ts = true, r.TimestampNS
		for _, f := range slices.Sorted(maps.Keys(r.Fields)) {
			v := r.Fields[f]
			nm, ok := telegrafCounter(r, f)
			if !ok || v < 0 {
				continue
			}
			data.Mapped++
			cs.mapped = true
			cs.set(nm, int64(v)/nm.Scale)
		}
	}
	if len(data.Records) == 0 {
		return 0
	}
	flush()
	first, last := d.ls[i].No, d.ls[k-1].No
	if len(samples) > 0 {
		for j := range samples {
			samples[j].Source = spanSource(first, last) + " (telegraf)"
		}
		d.segSeq++
		d.addSamples(KindTelegraf, d.label(i), first, last, samples)
	}
	d.addArtifact(KindTelegraf, first, last, data)
	return k - i
}

// telegrafSeries is a record's measurement and tags as written ("nstat,host=a,name=snmp").
func telegrafSeries(rec string) string {
	head, _, _ := strings.Cut(rec, " ")
	return head
}

// telegrafCounter is the kernel counter behind one field: kernel.TelegrafMetric's (inputs.net,
// inputs.mem), or inputs.nstat's, which names each counter as nstat does, group and counter
// run together ("UdpRcvbufErrors", "TcpExtListenOverflows", "Udp6RcvbufErrors": its
// loadUglyTable/loadGoodTable prefix each /proc/net/snmp, netstat and snmp6 name with its
// group).
func telegrafCounter(r TelegrafRecord, field string) (kernel.NodeMetric, bool) {
	if r.Measurement == "nstat" {
		g, name, ok := splitNstatName(field)
		return kernel.NodeMetric{File: "netstat", Group: g, Name: name, Scale: 1}, ok
	}
	return kernel.TelegrafMetric(r.Measurement, r.Tags["interface"], field)
}
