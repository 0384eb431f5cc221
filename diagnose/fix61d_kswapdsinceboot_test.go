package diagnose

import (
	"fmt"
	"strings"
	"testing"
)

// fix61d: one /proc/vmstat with no rate: kswapd's since-boot scan count against RAM and its
// efficiency.
func kswapdSinceBootText(vm string) string {
	return "$ cat /proc/meminfo\nMemTotal:        4046676 kB\nMemFree:          201304 kB\nBuffers:           41200 kB\nCached:          2912344 kB\n\n$ cat /proc/vmstat\n" + vm
}

func TestFix61dKswapdSinceBoot(t *testing.T) {
	old := "pgfree 3329793080\npgsteal_dma 0\npgsteal_dma32 465191578\npgsteal_normal 651178518\npgscan_kswapd_dma 0\npgscan_kswapd_dma32 768300403\npgscan_kswapd_normal 34614572907\npgscan_direct_dma32 2853983\npgscan_direct_normal 885799\n"
	res := fired(t, "kswapd-saturated", kswapdSinceBootText(old))
	if len(res.Findings) != 1 || res.Findings[0].Severity != Info || !strings.Contains(res.Findings[0].Evidence[1].Value, "3.2%") {
		t.Fatalf("2.6-era per-zone counters: %+v", res)
	}
	split := "pgsteal_kswapd 20000000\npgsteal_direct 100\npgscan_kswapd 9000000000\npgscan_direct 200\n"
	if res := fired(t, "kswapd-saturated", kswapdSinceBootText(split)); len(res.Findings) != 1 {
		t.Fatalf("split counters: %+v", res)
	}
	// Counter-cases: efficient reclaim, too few passes, no RAM size: nothing is judged from
	// the since-boot counters.
	for name, text := range map[string]string{
		"efficient":  kswapdSinceBootText("pgsteal_kswapd 8000000000\npgscan_kswapd 9000000000\n"),
		"few passes": kswapdSinceBootText(fmt.Sprintf("pgsteal_kswapd %d\npgscan_kswapd %d\n", 1000, 500000000)),
		"no ram":     "$ cat /proc/vmstat\npgsteal_kswapd 20000000\npgscan_kswapd 9000000000\npgfree 1\npgactivate 2\n",
	} {
		if res := fired(t, "kswapd-saturated", text); len(res.Findings) != 0 {
			t.Errorf("%s: %+v", name, res.Findings)
		}
	}
}
