package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix57b (round 52): atop's screen lines, a vmstat command's delay, a Pastebin page's header.

func TestFix57bAtopScreen(t *testing.T) {
	text := "ATOP - box   2019/05/20  10:00:00   ------------   10s elapsed\n" +
		"PRC | sys 1.2s | user 3.4s | #proc 312 | #zombie 0 |\n" +
		"MEM | tot 7.7G | free 3.7G | cache 608.3M | buff 19.1M | slab 264.6M |\n" +
		"SWP | tot 2.0G | free 1.4G | swcac 0.0M | vmcom 13.4G | vmlim 5.8G |\n" +
		"PAG | scan 167264 | steal 109112 | stall 0 | swin 0 | swout 2560 |\n"
	tl, err := Parse(strings.NewReader(text), "p.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var s *model.Sample
	for i := range tl.Samples {
		if strings.Contains(tl.Samples[i].Source, "atop") {
			s = &tl.Samples[i]
		}
	}
	if s == nil {
		t.Fatalf("no atop sample: %v", tl.Samples)
	}
	for name, want := range map[string]int64{"MemTotal": 8074035, "SwapTotal": 2097152, "Committed_AS": 14050918, "CommitLimit": 6081740, "Slab": 270950} {
		if v, ok := s.Mem(name); !ok || v < want-1 || v > want+1 {
			t.Errorf("%s = %d, %v; want %d", name, v, ok, want)
		}
	}
	if v, _ := s.Mem("SwapFree"); v != 1468006 {
		t.Errorf("SwapFree %d", v)
	}
	// swout 2560 pages in 10 s: 1024 KiB/s.
	if r, ok := s.Rates.Get(model.RateSwapOutKBPerSec); !ok || r != 1024 {
		t.Errorf("swap-out rate %v %v", r, ok)
	}
	// Counter-cases: a table with bars that is no atop line, and PAG without the header
	// gives no rate.
	for _, text := range []string{
		"NAME | tot 7.7G | free 3.7G |\n",
		"| MEM | 7.7G | 3.7G |\n",
		"MEM usage | 45% |\n",
	} {
		tl, _ := Parse(strings.NewReader(text), "p.txt", Options{})
		for i := range tl.Samples {
			if _, ok := tl.Samples[i].Mem("MemTotal"); ok {
				t.Errorf("%q read as memory: %v", text, tl.Samples[i])
			}
		}
	}
	tl, _ = Parse(strings.NewReader("PAG | scan 1 | steal 1 | stall 0 | swin 0 | swout 23834 |\n"), "p.txt", Options{})
	for i := range tl.Samples {
		if _, ok := tl.Samples[i].Rates.Get(model.RateSwapOutKBPerSec); ok {
			t.Errorf("a rate without the interval: %v", tl.Samples[i])
		}
	}
}

func TestFix57bVMStatDelay(t *testing.T) {
	for label, want := range map[string]int{
		"$ vmstat 10": 10, "5.0.16-200.fc29.x86_64 / $ vmstat 10": 10, "# vmstat -w 5 3": 5,
		"vmstat -S M 10": 10, "$ vmstat": 0, "vmstat -s": 0, "$ vmstat -d 5": 0, "some text 10": 0, "vmstat 1": 1,
	} {
		if got := vmstatDelay(label); got != want {
			t.Errorf("vmstatDelay(%q) = %d, want %d", label, got, want)
		}
	}
}

func TestFix57bPastebinHeader(t *testing.T) {
	for text, want := range map[string]bool{
		"ajhlinuxuser\n\nArch Linux ARM - OOM killer misbehaving\n\nNov 16th, 2018\ntext 44.96 KB | None | 0 0\n": true,
		"Guest User\n\nUntitled\n\na guest\nDec 2nd, 2017\n":                                                      true,
		"Alpe\n\njbd2_log_wait_commit 8\n\nAug 30th, 2018\nBash 77.89 KB | None | 0 0\n":                          true,
		// Counter-cases: a mail's first lines, a title over its body.
		"Hello all,\n\nI see OOM kills on my box.\n\nThanks\n": false,
		"# OOM killer misbehaving\n\nThe box kills java.\n":    false,
	} {
		if got := pastebinAuthorHeader(text); got != want {
			t.Errorf("pastebinAuthorHeader(%q) = %v", text, got)
		}
	}
}
