package artifact

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A big regular file is mapped from its start, cut at the last line end before the limit,
// and left where a read would have left it; anything else is read as before.
func TestMapText(t *testing.T) {
	dir := t.TempDir()
	line := "Jan  1 00:00:02 host kernel: [ 1.000000] a line of the log\n"
	text := strings.Repeat(line, mapTextMin/len(line)+10)
	f := writeOpen(t, filepath.Join(dir, "big"), text)
	data, more, ok := MapText(f, int64(len(text)))
	if !ok || more || string(data) != text {
		t.Fatalf("whole file: ok %v more %v, %d bytes of %d equal %v", ok, more, len(data), len(text), string(data) == text)
	}
	if off, _ := f.Seek(0, io.SeekCurrent); off != int64(len(text)) {
		t.Errorf("offset after mapping %d, want %d", off, len(text))
	}
	// Not from its start: not mapped.
	if _, _, ok := MapText(f, int64(len(text))); ok {
		t.Error("a file read to its end was mapped from its start")
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	limit := int64(len(text) - len(line)/2)
	data, more, ok = MapText(f, limit)
	if want := text[:len(text)-len(line)]; !ok || !more || string(data) != want {
		t.Fatalf("limited: ok %v more %v, %d bytes, want %d", ok, more, len(data), len(want))
	}
	// A small file is read.
	if _, _, ok := MapText(writeOpen(t, filepath.Join(dir, "small"), line), 1<<30); ok {
		t.Error("a one-line file was mapped")
	}
	// Parse of the mapped file is the parse of its text.
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	tl, err := Parse(f, "big", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := ParseString(text, "big", Options{}); len(tl.Log) != len(want.Log) || len(tl.Log) == 0 {
		t.Errorf("mapped parse: %d records, read parse %d", len(tl.Log), len(want.Log))
	}
}

// writeOpen writes text to path and opens it for the rest of the test.
func writeOpen(t *testing.T, path, text string) *os.File {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
