package diagnose

import "testing"

// swap-under-load from a show_mem footer (fix26b): the kernel's "Free swap = NkB" / "Total
// swap = NkB" pair of an OOM report or a SysRq-m dump is the host's swap when it printed them;
// a swap used up there is the exhausted-swap snapshot of swapWithoutRate. Counter-cases: the
// same footer with swap left, with no swap configured, one footer line alone, and the words
// in a sentence.
func TestFix26bShowMemSwapFooter(t *testing.T) {
	const pre = "Feb 13 12:07:00 avalanche kernel: [73132.369434] 674 total pagecache pages\n" +
		"Feb 13 12:07:00 avalanche kernel: [73132.369440] 610 pages in swap cache\n" +
		"Feb 13 12:07:00 avalanche kernel: [73132.369441] Swap cache stats: add 144961940, delete 144983778, find 16919807/77207017\n"
	const post = "Feb 13 12:07:00 avalanche kernel: [73132.369445] 1099386 pages RAM\n" +
		"Feb 13 12:07:00 avalanche kernel: [73132.369450] 0 pages HighMem/MovableOnly\n" +
		"Feb 13 12:07:00 avalanche kernel: [73132.369452] 44073 pages reserved\n"
	footer := func(free, total string) string {
		return pre + "Feb 13 12:07:00 avalanche kernel: [73132.369442] Free swap  = " + free + "\n" +
			"Feb 13 12:07:00 avalanche kernel: [73132.369444] Total swap = " + total + "\n" + post
	}
	f := mustFire(t, run(t, "swap-under-load", parseText19b(t, footer("0kB", "5192696kB"))), Warning)
	if !evidenceHas(f, "swap used (one snapshot)", "5192696 of 5192696 kB") || !evidenceHas(f, "swap-in/out rate", "not in the input") {
		t.Errorf("exhausted footer: %+v", f)
	}
	quiet := map[string]string{
		"swap left":   footer("4100000kB", "5192696kB"),
		"no swap":     footer("0kB", "0kB"),
		"free alone":  pre + "Feb 13 12:07:00 avalanche kernel: [73132.369442] Free swap  = 0kB\n" + post,
		"sentence":    "The OOM report said Free swap = 0kB and Total swap = 5192696kB, is that why?\n",
		"other words": "After adding swap, free swap is 0kB of total swap 5192696kB only on the old box.\n",
	}
	for name, text := range quiet {
		res := run(t, "swap-under-load", parseText19b(t, text))
		for _, f := range res.Findings {
			if f.Severity >= Warning {
				t.Errorf("%s: fired %+v", name, f)
			}
		}
	}
}
