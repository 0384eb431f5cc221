package artifact

import (
	"slices"
	"strings"
	"testing"
)

func TestFirstFields4MatchesFields(t *testing.T) {
	for _, s := range []string{"", "   ", "Jun 29 14:06:59 host kernel: x", "Jan  2 03:04:05 kernel: y", "a\tb\v c", "one", "a b c d e f"} {
		f, n := firstFields4(s)
		want := strings.Fields(s)
		if len(want) > 4 {
			want = want[:4]
		}
		if n != len(want) || !slices.Equal(f[:n], want) {
			t.Errorf("%q: %q (%d), want %q", s, f[:n], n, want)
		}
	}
}
