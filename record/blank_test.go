package record

import (
	"bytes"
	"compress/gzip"
	"runtime"
	"strings"
	"testing"
	"time"
)

// blankBomb is a recording whose header is followed by n newlines, then one sample line: a
// few hundred KiB of gzip that inflates to n bytes (issue 30 item 5: 8 GiB of "\n" in 8 MB
// ran 609 s, every empty line going through json.Unmarshal).
func blankBomb(t testing.TB, n int, tail string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zw.Write([]byte(`{"headroom_record":1,"started":"2026-01-01T00:00:00Z","interval":"1s"}` + "\n"))
	chunk := bytes.Repeat([]byte("\n"), 1<<20)
	for left := n; left > 0; left -= len(chunk) {
		zw.Write(chunk[:min(left, len(chunk))])
	}
	zw.Write([]byte(tail))
	zw.Close()
	return b.Bytes()
}

// Blank lines are skipped in bulk, before any JSON decoding: 64 Mi of them cost a bounded
// number of allocations (each json.Unmarshal of an empty line allocated its error), are
// counted as skipped, and the sample after them is still read.
func TestBlankLinesSkippedBeforeJSON(t *testing.T) {
	const n = 64 << 20
	data := blankBomb(t, n, `{"sample":{"time":"2026-01-01T00:00:01Z"}}`+"\n"+strings.Repeat(" \r\t\n", 1000))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	samples := 0
	st, err := ReadLimits(bytes.NewReader(data), Limits{}, func(e *Entry) error {
		if e.Sample != nil {
			samples++
		}
		return nil
	})
	el := time.Since(start)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if samples != 1 || st.Samples != 1 {
		t.Errorf("samples %d (stats %d), want the one after the blank lines", samples, st.Samples)
	}
	if want := n + 1000 + 2; st.Lines != want || st.Skipped != n+1000 {
		t.Errorf("lines %d skipped %d, want %d and %d", st.Lines, st.Skipped, want, n+1000)
	}
	// Before: about one allocation per blank line (67 million).
	if m := after.Mallocs - before.Mallocs; m > 100_000 {
		t.Errorf("%d allocations for %d blank lines", m, n)
	}
	t.Logf("%d MiB of blank lines (%d KiB of gzip) read in %v", n>>20, len(data)>>10, el)
}

// A recording whose first line is blank is still not a recording.
func TestBlankFirstLineIsNotARecording(t *testing.T) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte("\n\n" + `{"headroom_record":1}` + "\n"))
	zw.Close()
	if _, err := Read(bytes.NewReader(b.Bytes()), func(*Entry) error { return nil }); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("err %v, want not a recording: line 1", err)
	}
}
