package report

import (
	"strings"
	"testing"

	"headroom/artifact"
	"headroom/diagnose"
)

// Corpus 7086: atomic order-1 failures, and the author's cure written out ("echo 540732 >
// /proc/sys/vm/min_free_kbytes"). The story sizes min_free_kbytes from plan for an assumed
// 1 Gbit/s link (18578) when the finding has no current value; a value below the one the
// text shows set is no fix, and the story must not offer it. Without the written value the
// sized step stays (the counter-case).
func TestStoryNeverLowersTheReserveTheTextSet(t *testing.T) {
	failure := "swapper: page allocation failure. order:1, mode:0x20\n" +
		"Pid: 0, comm: swapper Not tainted 2.6.32-358.el6.x86_64 #1\n" +
		"Call Trace:\n <IRQ>  [<ffffffff8112c197>] ? __alloc_pages_nodemask+0x757/0x8d0\n"
	for _, tc := range []struct {
		text     string
		wantStep bool
	}{
		{failure, true},
		{failure + "\nSolved by raising min_free_kbytes:\n\n[root@proxy ~]# echo 540732 > /proc/sys/vm/min_free_kbytes\n", false},
	} {
		tl := artifact.ParseString(tc.text, "t", artifact.Options{})
		s := diagnose.TellDiagnosis(tl, diagnose.Run(tl, nil))
		var steps []string
		for _, c := range s.Chains {
			if c.Change != nil && c.Change.Key == "vm.min_free_kbytes" {
				steps = append(steps, c.Change.Value)
			}
		}
		if s.FirstChange != nil && s.FirstChange.Key == "vm.min_free_kbytes" {
			steps = append(steps, s.FirstChange.Value)
		}
		if got := len(steps) > 0; got != tc.wantStep {
			t.Errorf("min_free_kbytes steps %v, want a step: %v\n%s", steps, tc.wantStep, strings.TrimSpace(tc.text))
		}
	}
}
