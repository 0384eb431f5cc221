package artifact

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkParsePastes reports MB/s on the accuracy corpus's pasted texts read one after
// another: tables and command output more than kernel log, so most blocks go through the
// format registry (formats.go) rather than the kernel log's fast path.
func BenchmarkParsePastes(b *testing.B) {
	names, err := filepath.Glob("../testdata/corpus/*.txt")
	if err != nil || len(names) == 0 {
		b.Skip("no corpus texts in ../testdata/corpus")
	}
	var texts []string
	total := 0
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			b.Fatal(err)
		}
		texts = append(texts, string(data))
		total += len(data)
	}
	b.SetBytes(int64(total))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k, t := range texts {
			ParseString(t, names[k], Options{})
		}
	}
}
