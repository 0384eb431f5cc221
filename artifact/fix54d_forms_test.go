package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix54d: a dropwatch line quoted in a prose line without a code span, a swap rate stated in
// pages per second, and top's Swap line with its used field alone; each with texts that must
// not be read so.
func TestFix54dProseDropwatch(t *testing.T) {
	read := map[string]string{
		"zh colon":    "上面dropwatch看到的丢包的地点是: 101 drops at udp_queue_rcv_skb+3df (0xffffffff94c68abf)\n",
		"en sentence": "dropwatch keeps printing 95255 drops at __udp_queue_rcv_skb+374 (0xffffffff815e1c64) while the stream runs.\n",
	}
	for name, text := range read {
		tl := fix54dParse(t, text)
		if got := fix54dRate(tl, model.RateStatedUDPDropwatchDrops); got <= 0 {
			t.Errorf("%s: no dropwatch drops read", name)
		}
	}
	none := map[string]string{
		"another site": "dropwatch showed: 101 drops at __netif_receive_skb_core+4a1 (0xffffffff8147b4ef)\n",
		"no address":   "we saw 101 drops at udp_queue_rcv_skb in the graph.\n",
		"words":        "There were 5 drops at the switch last night.\n",
		"hypothetical": "If you see 101 drops at udp_queue_rcv_skb+3df (0xffffffff94c68abf), raise rmem_max.\n",
	}
	for name, text := range none {
		if got := fix54dRate(fix54dParse(t, text), model.RateStatedUDPDropwatchDrops); got > 0 {
			t.Errorf("%s: read %v drops", name, got)
		}
	}
}

func TestFix54dSwapPagesPerSecond(t *testing.T) {
	read := map[string]struct {
		key string
		kbs float64
	}{
		"range":        {model.RateSwapOutKBPerSec, 2985 * 4},
		"swaps out":    {model.RateSwapOutKBPerSec, 3000 * 4},
		"number first": {model.RateSwapInKBPerSec, 800 * 4},
	}
	texts := map[string]string{
		"range":        "so: Heavy swap out activity (2985-3151 pages/sec)\n",
		"swaps out":    "During the backup the box swaps out 3000 pages per second.\n",
		"number first": "While it runs, 800 pages per second are swapped in again.\n",
	}
	for name, want := range read {
		tl := fix54dParse(t, texts[name])
		if got := fix54dRate(tl, want.key); got != want.kbs {
			t.Errorf("%s: %s = %v, want %v", name, want.key, got, want.kbs)
		}
	}
	none := map[string]string{
		"scanned":      "With swap enabled kswapd scanned 3000 pages per second.\n",
		"hypothetical": "If the host swaps out 3000 pages per second, add RAM.\n",
		"no swap word": "The writeback flushes 3000 pages per second.\n",
		"negated":      "The server is not swapping out 3000 pages/sec anymore.\n",
	}
	for name, text := range none {
		tl := fix54dParse(t, text)
		if got := fix54dRate(tl, model.RateSwapOutKBPerSec) + fix54dRate(tl, model.RateSwapInKBPerSec); got > 0 {
			t.Errorf("%s: read %v KiB/s of swap", name, got)
		}
	}
}

func TestFix54dTopSwapUsedAlone(t *testing.T) {
	tl := fix54dParse(t, "top - 10:00:01 up 3 days,  2:01,  1 user,  load average: 67.10, 70.02, 79.00\nMem: 1034784k total, 1021256k used, 13528k free\nSwap: 1023960k total, 635752k used\n")
	var used, total int64
	for i := range tl.Samples {
		if v, ok := tl.Samples[i].Mem("SwapUsed"); ok {
			used = v
		}
		if v, ok := tl.Samples[i].Mem("SwapTotal"); ok {
			total = v
		}
	}
	if used != 635752 || total != 1023960 {
		t.Errorf("SwapUsed %d of SwapTotal %d, want 635752 of 1023960", used, total)
	}
}

func fix54dParse(t *testing.T, text string) *model.Timeline {
	t.Helper()
	tl, err := Parse(strings.NewReader(text), "snippet", Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func fix54dRate(tl *model.Timeline, key string) float64 {
	var v float64
	for i := range tl.Samples {
		if r, ok := tl.Samples[i].Rates[key]; ok && strings.Contains(tl.Samples[i].Source, "stated") || ok && strings.Contains(tl.Samples[i].Source, "dropwatch") {
			v = max(v, r)
		}
	}
	return v
}
