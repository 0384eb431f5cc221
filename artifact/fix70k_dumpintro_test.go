package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix70k (corpus 7124, linux-vm-notes): a Mem-Info dump without its header, introduced by
// the sentence above it as the OOM killer's output. The dump is an OOM report's tail; the
// same dump introduced as show_free_areas' output is no OOM (the counter-case).
func TestDumpIntroducedAsTheOOMKillers(t *testing.T) {
	const dump = "\n```\nactive_anon:467951 inactive_anon:17639 isolated_anon:0\n" +
		" active_file:451743 inactive_file:273949 isolated_file:0\n" +
		" free:32589 free_pcp:188 free_cma:0\n" +
		"Node 0 DMA32 free:64456kB min:28176kB low:35220kB high:42264kB active_anon:700000kB inactive_anon:20000kB present:3653620kB managed:3573376kB\n" +
		"lowmem_reserve[]: 0 0 4462 4462\n```\n"
	for _, tc := range []struct {
		intro string
		want  float64
	}{
		{"show_free_areas() outputs a summary of each zone to the kernel ring buffer. Some sample output from an OOM killer invocation:", 1},
		{"show_free_areas() outputs a summary of each zone to the kernel ring buffer. Some sample output:", 0},
	} {
		text := "## Free Memory Areas\n\n" + tc.intro + "\n" + dump
		if got := statedRate(t, text, model.RateStatedOOM); got != tc.want {
			t.Errorf("%q: stated OOM %v, want %v", strings.TrimSpace(tc.intro), got, tc.want)
		}
	}
}
