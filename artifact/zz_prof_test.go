package artifact

import (
	"os"
	"testing"
)

// throwaway: not committed
func BenchmarkZZFile(b *testing.B) {
	p := os.Getenv("ZZFILE")
	if p == "" {
		b.Skip()
	}
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ParseBytes(data, "bench", Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
