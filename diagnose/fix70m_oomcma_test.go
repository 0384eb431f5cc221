package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
)

// fix70m (corpus 7070, linux-mm 2014 LKP report): an OOM on an i386 VM whose Normal zone
// shows 18184 kB free, 16228 kB of it CMA's, which the GFP_KERNEL request could not use:
// alloc-fail-cma names the cause from the OOM's own dump. The same dump without CMA memory
// is no CMA cause (the counter-case).
func TestOOMWhoseFreeMemoryWasCMAs(t *testing.T) {
	const text = `[ 1573.296414] trinity-main invoked oom-killer: gfp_mask=0x2840d0, order=0, oom_score_adj=-1000
[ 1573.296442] CPU: 0 PID: 3366 Comm: trinity-main Not tainted 3.18.0-g6ec6c96 #1
[ 1573.296600] Mem-Info:
[ 1573.296661] DMA free:1164kB min:116kB low:144kB high:172kB active_anon:888kB inactive_anon:84kB active_file:0kB inactive_file:0kB unevictable:16kB isolated(anon):0kB isolated(file):0kB present:15992kB managed:15916kB mlocked:0kB dirty:0kB writeback:0kB mapped:80kB shmem:88kB slab_reclaimable:11404kB slab_unreclaimable:2076kB kernel_stack:24kB pagetables:32kB unstable:0kB bounce:0kB free_cma:0kB writeback_tmp:0kB pages_scanned:0 all_unreclaimable? yes
[ 1573.296666] lowmem_reserve[]: 0 262 262
[ 1573.296673] Normal free:18184kB min:2012kB low:2512kB high:3016kB active_anon:13748kB inactive_anon:752kB active_file:0kB inactive_file:0kB unevictable:19352kB isolated(anon):0kB isolated(file):0kB present:311288kB managed:269200kB mlocked:0kB dirty:0kB writeback:0kB mapped:3816kB shmem:776kB slab_reclaimable:175184kB slab_unreclaimable:33580kB kernel_stack:760kB pagetables:300kB unstable:0kB bounce:0kB free_cma:16228kB writeback_tmp:0kB pages_scanned:0 all_unreclaimable? yes
[ 1573.296674] lowmem_reserve[]: 0 0 0
[ 1573.296900] Out of memory: Kill process 3366 (trinity-main) score 0 or sacrifice child
`
	for _, tc := range []struct {
		name, text string
		cma        bool
	}{
		{"CMA's free memory", text, true},
		{"no CMA", strings.Replace(text, "free_cma:16228kB", "free_cma:0kB", 1), false},
	} {
		tl := artifact.ParseString(tc.text, "t", artifact.Options{})
		d := Run(tl, nil)
		got := false
		for _, f := range d.Findings {
			got = got || f.ID == "alloc-fail-cma"
		}
		if got != tc.cma {
			t.Errorf("%s: alloc-fail-cma %v, want %v (%v)", tc.name, got, tc.cma, ids(d))
		}
	}
}
