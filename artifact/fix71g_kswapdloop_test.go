package artifact

import (
	"testing"

	"headroom/model"
)

// fix71g (corpus 7285): "kswapd in tight loop" (an lkml subject) and "kswapd busy-loops"
// say kswapd runs hot without a figure; advice about a loop ("if kswapd is in a tight loop,
// ...") states nothing.
func TestKswapdTightLoopStated(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"Subject: Re: kswapd in tight loop 2.6.9-rc3-bk-recent\n", true},
		{"After the upgrade kswapd0 busy-loops on one CPU.\n", true},
		{"If kswapd is in a tight loop, check the zonelists.\n", false},
		{"Ok, bad news - I've been hit by  kswapd0 loop again -\n", true}, // fix71i (7292)
		{"Subject: Re: kswapd craziness in 3.7\n", true},
	} {
		tl := ParseString(tc.text, "t", Options{})
		got := false
		for _, s := range tl.Samples {
			if s.Rates[model.RateStatedKswapdBusy] > 0 {
				got = true
			}
		}
		if got != tc.want {
			t.Errorf("%q: stated busy %v, want %v", tc.text, got, tc.want)
		}
	}
}

// fix71h (corpus 7277): a Chinese incident write-up says allocations took the slow path and
// reclaimed, which made the CPU high: a reclaim stall stated for the host. A sentence on
// reclaim with no cost named states none.
func TestSlowPathReclaimStatedZh(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"现网该阈值已经达到慢速申请范围，导致申请内存走慢速机制，触发回收，回收扫描page，全是内核行为，该行为造成cpu高。\n", true},
		{"内存不足时内核会回收page cache。\n", false},
	} {
		tl := ParseString(tc.text, "t", Options{})
		got := false
		for _, s := range tl.Samples {
			if s.Rates[model.RateStatedReclaimStall] > 0 {
				got = true
			}
		}
		if got != tc.want {
			t.Errorf("%q: stated stall %v, want %v", tc.text, got, tc.want)
		}
	}
}
