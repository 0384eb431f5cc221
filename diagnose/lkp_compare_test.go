package diagnose

import (
	"testing"
)

// 0-day's comparison table (artifact/lkpcompare.go) judged from its tested column: vmstat's
// swap columns are means over the run and count as the samples swap-under-load asks for; the
// run's growth of compact_stall and compact_fail over its elapsed time is a rate that
// compaction-failing judges with its window thresholds. The snippet is written for the class
// (lkp-tests lib/compare.rb's layout), not a case's text. Before: the table was named as not
// read, and both rules said "not checked". Counter-cases: the same table whose tested column
// swaps little and compacts successfully, and one without its elapsed time (no rate: the
// compaction rule is not checked rather than guessing a duration).
func TestLKPCompareTableJudgedFromTestedColumn(t *testing.T) {
	table := func(so, stall, fail, elapsed string) string {
		s := "commit:\n  1111111111 (\"base\")\n  2222222222 (\"tested\")\n\n" +
			"1111111111111111 2222222222222222222222222\n---------------- ---------------------------\n" +
			"         %stddev     %change         %stddev\n" +
			"             \\          |                \\\n" +
			"    716935 ±  3%     -86.2%      99160 ±  9%  vm-scalability.median\n"
		if elapsed != "" {
			s += "     44.93          +635.3%     " + elapsed + " ± 10%  vm-scalability.time.elapsed_time\n"
		}
		return s +
			"    909.25 ±  2%     -86.3%     124.33 ±  3%  vmstat.swap.si\n" +
			"    611160 ±  9%     -87.7%      " + so + " ±  2%  vmstat.swap.so\n" +
			"      1888 ± 49%    +325.1%       " + fail + " ±  8%  proc-vmstat.compact_fail\n" +
			"      1888 ± 49%    +325.2%       " + stall + " ±  8%  proc-vmstat.compact_stall\n" +
			"  25092321 ±  2%     +16.8%   29316619 ±  3%  proc-vmstat.nr_active_anon\n"
	}
	d, _ := rootOf(t, table("74985", "8030", "8028", "330.35"))
	if f := findingOf(d, "swap-under-load"); f == nil {
		t.Errorf("swap-under-load did not fire on vmstat.swap.so 74985 KiB/s over the run: %+v", d.Findings)
	}
	if f := findingOf(d, "compaction-failing"); f == nil || f.Severity != Critical {
		t.Errorf("compaction-failing: want critical (8028 of 8030 stalls failed, 24/s): %+v", f)
	}

	d, _ = rootOf(t, table("12", "8030", "300", "330.35"))
	for _, id := range []string{"swap-under-load", "compaction-failing"} {
		if f := findingOf(d, id); f != nil {
			t.Errorf("%s fired on a run that swaps 12 KiB/s and compacts successfully: %+v", id, f)
		}
	}
	d, _ = rootOf(t, table("74985", "8030", "8028", ""))
	if f := findingOf(d, "compaction-failing"); f != nil {
		t.Errorf("compaction-failing fired without the run's elapsed time: %+v", f)
	}
}
