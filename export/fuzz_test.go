package export

import (
	"os"
	"strings"
	"testing"
	"time"

	"headroom/kernel"
	"headroom/model"
)

// FuzzLogWatch feeds arbitrary kernel-log text to the incremental report parser in
// arbitrary chunks: no input may panic, counts never go down, and everything settles.
func FuzzLogWatch(f *testing.F) {
	seed, err := os.ReadFile("testdata/alloc_6x_warn_alloc.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(seed), uint8(7))
	f.Add(string(seed)+string(seed), uint8(1))
	f.Add("page allocation failure: order:2, mode:0x20\n", uint8(0))
	f.Fuzz(func(t *testing.T, text string, chunk uint8) {
		w := &logWatch{kernel: "6.1.0", settle: logSettle, counts: map[allocKey]int64{}}
		now := time.Unix(1_000_000, 0)
		step := int(chunk%16) + 1
		var recs []model.LogRecord
		for i, line := range strings.Split(text, "\n") {
			recs = append(recs, model.LogRecord{UptimeUsec: int64(i) * 1000, Priority: 4, Message: line})
		}
		total := func() (n int64) {
			for _, v := range w.counts {
				n += v
			}
			return n
		}
		var last int64
		for i := 0; i < len(recs); i += step {
			for _, r := range recs[i:min(i+step, len(recs))] {
				w.pending = append(w.pending, pendingRec{rec: r, at: now})
			}
			now = now.Add(time.Second)
			w.process(now)
			if n := total(); n < last {
				t.Fatalf("count went down: %d after %d", n, last)
			} else {
				last = n
			}
		}
		w.process(now.Add(time.Minute))
		if len(w.pending) != 0 {
			t.Fatalf("%d records never settled", len(w.pending))
		}
		w.window(now.Add(-time.Hour))
	})
}

// FuzzUnpack unpacks a window sample whose data is arbitrary (the codec's reader is the only
// code here that trusts lengths it reads): no input may panic or allocate past what the
// packing could describe.
func FuzzUnpack(f *testing.F) {
	samples := samplesOf(f, kernel.TxtarRoot(loadCapture(f), "vm.txtar"), 1)
	var p packer
	ps := p.pack(&samples[0])
	f.Add(ps.data)
	f.Add(ps.data[:len(ps.data)/2])
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, data []byte) {
		q := ps
		q.data = data
		q.unpack(nil)
		q.unpack(&counterTemplates{})
	})
}
