package artifact

import (
	"strings"
	"testing"
)

// fix70h (corpus 6749, linux-mm 2013): Fengguang Wu's reply comments between the quoted
// lines of one OOM report. The quoted lines' stamps run on within microseconds, so the
// comments are passed over and the report keeps its zones; a quoted line stamped seconds
// later is another report's (the counter-case).
func TestReplyCommentsInsideAQuotedReport(t *testing.T) {
	const text = `> [  744.754199] bash invoked oom-killer: gfp_mask=0xd0, order=1, oom_adj=0, oom_score_adj=0

It's an 2-page allocation in the Normal zone.

> [  744.754202] bash cpuset=/ mems_allowed=0
> [  744.754204] Pid: 3836, comm: bash Not tainted 3.2.0-4-686-pae #1 Debian 3.2.32-1
> ...
> [  744.754354] active_anon:13497 inactive_anon:129 isolated_anon:0
> [  744.754354]  active_file:2664 inactive_file:4144756 isolated_file:0
> [  744.754355]  unevictable:0 dirty:510 writeback:0 unstable:0

Almost no dirty/writeback pages.

> [  744.754356]  free:11867217 slab_reclaimable:68289 slab_unreclaimable:7204
> [  744.754356]  mapped:8066 shmem:250 pagetables:519 bounce:0
> [  744.754361] DMA free:4260kB min:784kB low:980kB high:1176kB active_anon:0kB inactive_anon:0kB present:15784kB pages_scanned:0 all_unreclaimable? yes
> [  744.754364] lowmem_reserve[]: 0 867 62932 62932
> [  744.754369] Normal free:43788kB min:44112kB low:55140kB high:66168kB active_anon:0kB inactive_anon:0kB present:887976kB pages_scanned:0 all_unreclaimable? no

There are 260MB reclaimable slab pages in the normal zone, however we
somehow failed to reclaim them.

> [  744.754372] lowmem_reserve[]: 0 0 496525 496525
> [  744.754377] HighMem free:47420820kB min:512kB low:789888kB high:1579264kB active_anon:53988kB inactive_anon:516kB present:63555300kB pages_scanned:0 all_unreclaimable? no
> [  744.754380] lowmem_reserve[]: 0 0 0 0
`
	for _, tc := range []struct {
		name, text string
		zones      int
	}{
		{"as replied", text, 3},
		{"a later report", strings.Replace(text, "[  744.754356]  free:", "[  749.100000]  free:", 1), 0},
	} {
		tl := ParseString(tc.text, "t", Options{})
		oom := artifactsOf(tl, KindOOMKill)
		if len(oom) != 1 {
			t.Fatalf("%s: %d OOM reports", tc.name, len(oom))
		}
		var zones int
		for i := range tl.Events {
			if o := tl.Events[i].OOMKill; o != nil {
				zones = len(o.Zones)
			}
		}
		if zones != tc.zones {
			t.Errorf("%s: the report has %d zones, want %d", tc.name, zones, tc.zones)
		}
	}
}
