package artifact

import (
	"bytes"
	"strings"
	"testing"
)

// The generated syslog is the benchmark's input; check first that the parser finds every
// report grep would count, so the speed figure is for a parse that does its job.
func TestGenerateSyslogParses(t *testing.T) {
	var buf bytes.Buffer
	if err := GenerateSyslog(&buf, 2<<20, 1); err != nil {
		t.Fatal(err)
	}
	if buf.Len() < 2<<20 || buf.Len() > 2<<20+4096 {
		t.Fatalf("generated %d bytes for 2 MiB", buf.Len())
	}
	text := buf.String()
	want := strings.Count(text, "page allocation failure")
	if want == 0 {
		t.Fatal("no failure in 2 MiB of generated syslog")
	}
	tl := ParseString(text, "gen", Options{})
	got := 0
	for _, ev := range tl.Events {
		if ev.AllocFailure != nil {
			got += ev.AllocFailure.Count
			if len(ev.AllocFailure.Zones) != 2 || len(ev.AllocFailure.CallTrace) != 11 {
				t.Fatalf("report at %s: %d zones, trace %v", ev.Source, len(ev.AllocFailure.Zones), ev.AllocFailure.CallTrace)
			}
		}
	}
	if got != want {
		t.Errorf("parsed %d failures, grep counts %d", got, want)
	}
	if len(tl.Unparsed) != 0 {
		t.Errorf("unparsed %+v", tl.Unparsed[:min(3, len(tl.Unparsed))])
	}
	var again bytes.Buffer
	_ = GenerateSyslog(&again, 2<<20, 1)
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("the same seed gave different bytes")
	}
}

// BenchmarkParseSyslog reports MB/s on a generated syslog; the target is ≥ 50 MB/s.
func BenchmarkParseSyslog(b *testing.B) {
	var buf bytes.Buffer
	if err := GenerateSyslog(&buf, 32<<20, 1); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tl, err := Parse(bytes.NewReader(data), "bench", Options{})
		if err != nil || len(tl.Events) == 0 {
			b.Fatal(err)
		}
	}
}
