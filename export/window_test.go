package export

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
	"time"

	"headroom/kernel"
	"headroom/model"
	"headroom/source"
)

// samplesOf takes n samples of root with every costly source on, rates derived, as the
// window holds them.
func samplesOf(t testing.TB, root kernel.Root, n int) []model.Sample {
	t.Helper()
	s := source.NewSampler(root, source.Options{PageTypes: true, Sockets: true, Ethtool: true})
	defer s.Close()
	tl := model.Timeline{}
	at := captureTime
	for range n {
		tl.Samples = append(tl.Samples, s.Sample(at))
		at = at.Add(time.Second)
	}
	tl.DeriveRates()
	return tl.Samples
}

func jsonOf(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Unpacking gives back the sample field for field (compared as JSON, the archive format,
// which shows every exported field and each counter in file order), counters answer Get,
// and consecutive samples share their name lists.
func TestPackRoundTrip(t *testing.T) {
	roots := map[string]kernel.Root{"capture": kernel.TxtarRoot(loadCapture(t), "vm-6.18.txtar")}
	if _, err := os.Stat("/proc/zoneinfo"); err == nil {
		roots["live"] = kernel.HostRoot()
	}
	for name, root := range roots {
		samples := samplesOf(t, root, 3)
		var p packer
		var packed []packedSample
		for i := range samples {
			packed = append(packed, p.pack(&samples[i]))
		}
		var tm counterTemplates
		for i := range 2 * len(samples) {
			tmpl := &tm
			if i >= len(samples) {
				tmpl = nil // without templates: every counter rebuilt with Set
			}
			i := i % len(samples)
			got := packed[i].unpack(tmpl)
			want := samples[i]
			if a, b := jsonOf(t, &got), jsonOf(t, &want); !bytes.Equal(a, b) {
				t.Errorf("%s sample %d: unpacked differs:\n got %.600s\nwant %.600s", name, i, a, b)
			}
			if !got.Time.Equal(want.Time) {
				t.Errorf("%s: time %v, want %v", name, got.Time, want.Time)
			}
			if want.VMStat != nil {
				for _, k := range want.VMStat.Names() {
					a, _ := want.VMStat.Get(k)
					if b, ok := got.VMStat.Get(k); !ok || a != b {
						t.Errorf("%s: vmstat %s = %d %v after unpacking, want %d", name, k, b, ok, a)
					}
				}
			}
			if len(want.Rates) > 0 && len(got.Rates) != len(want.Rates) {
				t.Errorf("%s: %d rates after unpacking, want %d", name, len(got.Rates), len(want.Rates))
			}
		}
		if len(packed[1].lists) == 0 || &packed[1].lists[0][0] != &packed[2].lists[0][0] {
			t.Errorf("%s: consecutive samples do not share their first name list", name)
		}
		full := len(jsonOf(t, &samples[2]))
		t.Logf("%s: packed sample holds %d bytes of its own (%d as JSON)", name, packed[2].size(&packed[1]), full)
	}
}

// A packing cut short (a bug) unpacks to a partial sample rather than a panic or a huge
// allocation.
func TestUnpackTruncated(t *testing.T) {
	samples := samplesOf(t, kernel.TxtarRoot(loadCapture(t), "vm-6.18.txtar"), 1)
	var p packer
	ps := p.pack(&samples[0])
	for _, n := range []int{0, 1, len(ps.data) / 2, len(ps.data) - 1} {
		cut := ps
		cut.data = ps.data[:n]
		cut.unpack(nil)
	}
	cut := ps
	cut.strs, cut.lists = nil, nil
	cut.unpack(&counterTemplates{})
}

func BenchmarkPack(b *testing.B) {
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		b.Skip("not a Linux host")
	}
	samples := samplesOf(b, kernel.HostRoot(), 2)
	var p packer
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p.pack(&samples[i%2])
	}
}

func BenchmarkUnpack(b *testing.B) {
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		b.Skip("not a Linux host")
	}
	samples := samplesOf(b, kernel.HostRoot(), 2)
	var p packer
	ps := p.pack(&samples[1])
	var tm counterTemplates
	b.ReportAllocs()
	for b.Loop() {
		ps.unpack(&tm)
	}
}

// BenchmarkPackSame packs one sample over and over, as serve packs the sample the sampler
// rewrites in place: its unchanged names are the same strings each time.
func BenchmarkPackSame(b *testing.B) {
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		b.Skip("not a Linux host")
	}
	s := samplesOf(b, kernel.HostRoot(), 1)[0]
	s.Rates = nil // serve packs without rates
	var p packer
	b.ReportAllocs()
	for b.Loop() {
		p.pack(&s)
	}
}
