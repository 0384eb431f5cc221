package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// The comparison table is read into rows and one sample of the tested column; a table of
// three kernels, a row without the header and prose naming the columns are not read as it.
func TestLKPCompareTable(t *testing.T) {
	text := "> =========\n" +
		">          %stddev     %change         %stddev\n" +
		">              \\          |                \\\n" +
		">  1.541e+09 ± 95%   +1137.7%  1.908e+10 ± 30%  cpuidle.C1E.time\n" +
		">       0.00 ±100%      +0.0        0.00 ± 37%  mpstat.cpu.all.iowait%\n" +
		">      44.93          +635.3%     330.35 ± 10%  vm-scalability.time.elapsed_time\n" +
		">       7293 ±  7%     -31.7%       4981        vmstat.system.cs\n" +
		">       1888 ± 49%    +325.2%       8030 ±  8%  proc-vmstat.compact_stall\n" +
		">  14635098 ±  3%     -31.8%    9975596 ± 10%  proc-vmstat.nr_free_pages\n" +
		"\nThanks for the report.\n"
	tl := ParseString(text, "p", Options{})
	data := one(t, tl, KindLKPCompare).(LKPCompareData)
	if len(data.Rows) != 6 || data.ElapsedSeconds != 330.35 {
		t.Fatalf("rows %d, elapsed %v: %+v", len(data.Rows), data.ElapsedSeconds, data)
	}
	if r := data.Rows[0]; r.Metric != "cpuidle.C1E.time" || r.Base != 1.541e9 || r.Tested != 1.908e10 || r.Change != "+1137.7%" {
		t.Errorf("row 0: %+v", r)
	}
	var s *model.Sample
	for i := range tl.Samples {
		if strings.Contains(tl.Samples[i].Source, model.RunMeanMark) {
			s = &tl.Samples[i]
		}
	}
	if s == nil {
		t.Fatalf("no sample of the tested column: %+v", tl.Samples)
	}
	if v, _ := s.Rates.Get(model.RateCtxtPerSec); v != 4981 {
		t.Errorf("cs: %v", v)
	}
	if v, _ := s.Rates.Get(model.RateCompactStallPerSec); v < 24.3 || v > 24.31 {
		t.Errorf("compact_stall/s: %v (8030 over 330.35 s)", v)
	}
	if s.VMStat != nil || s.MemInfo != nil {
		t.Errorf("the sample carries counters (the run's growth is no since-boot value): %+v", s)
	}

	three := "  %stddev  %change  %stddev  %change  %stddev\n" +
		"  1.0  +1.0%  1.01  +2.0%  1.02  vmstat.swap.so\n"
	for name, text := range map[string]string{
		"three kernels": three,
		"row alone":     "    611160 ±  9%     -87.7%      74985 ±  2%  vmstat.swap.so\n",
		"prose":         "The %stddev %change columns say how noisy it was.\n",
	} {
		tl := ParseString(text, "p", Options{})
		for _, a := range tl.Artifacts {
			if a.Kind == KindLKPCompare {
				t.Errorf("%s: read as a comparison table: %+v", name, a.Data)
			}
		}
		for _, s := range tl.Samples {
			if strings.Contains(s.Source, model.RunMeanMark) {
				t.Errorf("%s: a sample of a tested column: %+v", name, s)
			}
		}
	}
}
