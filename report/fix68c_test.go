package report

import (
	"testing"

	"headroom/artifact"
)

// g283 (6506): free -h rounds swap's total and free to the same "11Gi" while 242 MiB is
// used; the summary says the used figure free printed, not total - free (0). Without a used
// column (/proc/meminfo) it is total - free.
func TestFix68cSwapUsedAsPrinted(t *testing.T) {
	for text, want := range map[string]int64{
		"$ free -h\n               total        used        free      shared  buff/cache   available\nMem:           7.8Gi       4.3Gi       104Mi       0.0Ki       3.3Gi       3.3Gi\nSwap:           11Gi       242Mi        11Gi\n": 242 * 1024,
		"MemTotal:        8000000 kB\nMemFree:          100000 kB\nSwapTotal:       2000000 kB\nSwapFree:        1500000 kB\n":                                                                                                          500000,
	} {
		s := Summarize(artifact.ParseString(text, "t", artifact.Options{}))
		if s.SwapUsedKB == nil || *s.SwapUsedKB != want {
			t.Errorf("%q: swap used %v, want %d kB", text, s.SwapUsedKB, want)
		}
	}
}
