package report

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"headroom/diagnose"
	"headroom/judge"
	"headroom/model"
	"headroom/record"
)

// fuzzMaxInput bounds the recordings FuzzRecordingReports runs: a larger one only makes each
// execution (and the minimisation of an interesting input) slower, without new paths — the
// rules and renderers loop over samples and fields the small seeds already have.
const fuzzMaxInput = 64 << 10

// recordingSeeds cuts small recordings (JSON lines, not yet gzipped) out of the committed
// loopback-flood recording: its 30 KB samples would make every execution slow, so each seed
// keeps a few samples and the fields of one family of rules.
func recordingSeeds(t testing.TB) [][]byte {
	t.Helper()
	f, err := os.Open("../record/testdata/loopback-flood.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var header *record.Header
	var samples []model.Sample
	var markers []model.Marker
	if _, err := record.Read(f, func(e *record.Entry) error {
		switch {
		case e.Header != nil && header == nil:
			header = e.Header
		case e.Sample != nil:
			samples = append(samples, *e.Sample)
		case e.Marker != nil:
			markers = append(markers, *e.Marker)
		}
		return nil
	}); err != nil || header == nil || len(samples) < 14 {
		t.Fatalf("loopback-flood recording: %v (%d samples)", err, len(samples))
	}
	lines := func(entries ...record.Entry) []byte {
		var b bytes.Buffer
		for _, e := range entries {
			j, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(j)
			b.WriteByte('\n')
		}
		return b.Bytes()
	}
	h := record.Entry{Header: header}
	cut := func(keep func(s model.Sample) model.Sample, from, n int, extra ...record.Entry) []byte {
		es := []record.Entry{h}
		for i := from; i < from+n; i++ {
			s := keep(samples[i])
			es = append(es, record.Entry{Sample: &s})
		}
		return lines(append(es, extra...)...)
	}
	memory := func(s model.Sample) model.Sample {
		return model.Sample{Time: s.Time, Source: s.Source, MemInfo: s.MemInfo, VMStat: s.VMStat, Buddy: s.Buddy, Zones: s.Zones, PSI: s.PSI, LoadAvg: s.LoadAvg, Threads: s.Threads}
	}
	network := func(s model.Sample) model.Sample {
		return model.Sample{Time: s.Time, Source: s.Source, NetStat: s.NetStat, SockStat: s.SockStat, Softnet: s.Softnet, NetDev: s.NetDev, Stat: s.Stat, Sockets: s.Sockets}
	}
	t0 := samples[10].Time
	logged := record.Entry{Log: []model.LogRecord{
		model.LogRecord{UptimeUsec: -1, Priority: 4, Message: "java: page allocation failure: order:3, mode:0x40a20(GFP_ATOMIC|__GFP_COMP), nodemask=(null)"}.WithTime(t0.Add(500 * time.Millisecond)).WithSource("/dev/kmsg seq 1"),
		model.LogRecord{UptimeUsec: -1, Priority: 3, Message: "Out of memory: Killed process 1234 (java) total-vm:100kB"}.WithTime(t0.Add(time.Second)).WithSource("/dev/kmsg seq 2"),
	}}
	seeds := [][]byte{
		cut(memory, 10, 4),
		cut(network, 10, 3, record.Entry{Marker: &markers[0]}),
		cut(memory, 10, 2, logged, record.Entry{NotAvailable: []model.Unavailable{{What: "/proc/pagetypeinfo", Why: "needs root"}}}),
		lines(h),
	}
	for i, s := range seeds {
		if len(s) > fuzzMaxInput {
			t.Fatalf("seed %d is %d bytes, above the bound of %d", i, len(s), fuzzMaxInput)
		}
	}
	return seeds
}

// gzipped returns data compressed, as an archive is.
func gzipped(data []byte) *bytes.Buffer {
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(data)
	zw.Close()
	return &z
}

// renderAll reads a recording (JSON lines, gzipped here as an archive is), runs every rule
// over it and renders the result with every renderer, checking what each promises.
func renderAll(t *testing.T, data []byte) {
	tl, _, err := record.FromReader(gzipped(data), "fuzz.jsonl.gz")
	if err != nil {
		if err.Error() == "" {
			t.Fatal("empty error message")
		}
		return
	}
	judge.Finish(tl) // as input.Open does for every recording the commands read
	d := diagnose.Run(tl, nil)
	judge.PlaceFindings(tl, &d)
	var text, md, js, html bytes.Buffer
	if err := WriteText(&text, tl, d, TextOptions{Verbose: true}); err != nil {
		t.Fatalf("WriteText: %v", err)
	}
	if err := WriteMarkdown(&md, tl, d); err != nil {
		t.Fatalf("WriteMarkdown: %v", err)
	}
	if err := WriteJSON(&js, tl, d); err != nil {
		t.Fatalf("WriteJSON: %v", err)
	}
	if err := WriteHTML(&html, tl, d, HTMLOptions{}); err != nil {
		t.Fatalf("WriteHTML: %v", err)
	}
	if !json.Valid(js.Bytes()) {
		t.Fatalf("WriteJSON wrote invalid JSON: %.300s", js.Bytes())
	}
	for name, b := range map[string][]byte{"text": text.Bytes(), "markdown": md.Bytes(), "json": js.Bytes(), "html": html.Bytes()} {
		if !utf8.Valid(b) {
			t.Fatalf("%s report is not UTF-8", name)
		}
	}
	if !strings.HasSuffix(strings.TrimSpace(html.String()), "</html>") {
		t.Fatalf("HTML report does not end with </html>: ...%q", html.String()[max(0, html.Len()-80):])
	}
}

// TestRecordingSeedsRender: the fuzz seeds are recordings the rules find something in, so
// the fuzzer starts from inputs that reach the findings' renderers.
func TestRecordingSeedsRender(t *testing.T) {
	seeds := recordingSeeds(t)
	found := 0
	for _, s := range seeds {
		renderAll(t, s)
		tl, _, err := record.FromReader(gzipped(s), "seed")
		if err != nil {
			t.Fatal(err)
		}
		judge.Finish(tl)
		var ids []string
		for _, f := range diagnose.Run(tl, nil).Findings {
			ids = append(ids, f.ID)
		}
		t.Logf("seed of %d bytes, %d samples: findings %v", len(s), len(tl.Samples), ids)
		found += len(ids)
	}
	if found == 0 {
		t.Error("no seed recording has a finding: the fuzzer would not reach the findings' renderers")
	}
}

// FuzzRecordingReports: a recording, through the rules, to every renderer (text, markdown,
// JSON, HTML): no panic, no renderer error, and well-formed output.
func FuzzRecordingReports(f *testing.F) {
	for _, s := range recordingSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > fuzzMaxInput {
			t.Skip("above the input bound")
		}
		renderAll(t, data)
	})
}
