package artifact

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// KindLKPCompare is 0-day's (LKP's) comparison table of two kernels' runs of one test.
const KindLKPCompare = "lkp_compare"

// 0-day's comparison table (lkp-tests lib/compare.rb, as the kernel test robot mails it):
//
//	         %stddev     %change         %stddev
//	             \          |                \
//	    611160 ±  9%     -87.7%      74985 ±  2%  vmstat.swap.so
//	      1888 ± 49%    +325.2%       8030 ±  8%  proc-vmstat.compact_stall
//	     44.93          +635.3%     330.35 ± 10%  vm-scalability.time.elapsed_time
//
// Each row is one statistic of the base kernel's runs (left) and of the tested commit's
// (right), each the mean over the runs, the change between them, and the statistic's name:
// the monitor that took it and its key. The report is about the tested commit, so its column
// is the state the table describes; the base column is the same machine on another kernel.
//
// What a value is depends on its monitor (lkp-tests lib/matrix.rb create_stats_matrix): a
// monitor's samples over the test's run are averaged, except the event counters of
// etc/event-counter-prefixes (proc-vmstat.compact_, .pg, .pswp, .allocstall, .kswapd_, ...),
// which are their growth over the run (last sample less the first). vmstat's columns
// (programs/vmstat/parse: procs.r, swap.si, system.cs, cpu.id ...) are vmstat's own per-second
// rates and shares, in vmstat's units (KiB/s for si and so).
//
// The table is read into one sample of the tested column: vmstat's columns as the rates they
// are, and the run's growth of the reclaim, swap and compaction counters as rates over the
// test's elapsed time (the <test>.time.elapsed_time row) when the table has it. Every row is
// kept in the artifact. A table of three or more kernels has no single tested column and is
// named as not read.

// LKPCompareData is the table's rows.
type LKPCompareData struct {
	Rows []LKPCompareRow `json:"rows"`
	// ElapsedSeconds is the tested kernel's <test>.time.elapsed_time, 0 when not in the table.
	ElapsedSeconds float64 `json:"elapsed_seconds,omitempty"`
}

// LKPCompareRow is one statistic: its mean on the base kernel and on the tested commit.
type LKPCompareRow struct {
	Metric string  `json:"metric"`
	Base   float64 `json:"base"`
	Tested float64 `json:"tested"`
	Change string  `json:"change"`
}

// lkpSource says what the sample's numbers are (model.RunMeanMark: a mean over a run counts
// as many samples, not one instant).
const lkpSource = " (LKP comparison table, the tested commit's column: " + model.RunMeanMark + "; event counters as their growth over the run)"

func (d *doc) tryLKPCompare(i int) int {
	h := strings.Fields(d.ls[i].Text)
	if len(h) < 3 || h[0] != "%stddev" || h[1] != "%change" {
		return 0
	}
	if len(h) != 3 || h[2] != "%stddev" {
		if len(h) >= 5 && h[len(h)-1] == "%stddev" {
			d.used[i] = true
			d.unparsed(i, i, "0-day's comparison table of three or more kernels (no single tested column), not read")
			return 1
		}
		return 0
	}
	end := i + 1
	if end < len(d.ls) && strings.Trim(strings.Join(strings.Fields(d.ls[end].Text), ""), `\|`) == "" && !isBlank(d.ls[end].Text) {
		end++ // the column guides "\   |   \"
	}
	var data LKPCompareData
	for ; end < len(d.ls) && !d.used[end]; end++ {
		r, ok := lkpCompareRow(d.ls[end].Text)
		if !ok {
			break
		}
		data.Rows = append(data.Rows, r)
		if strings.HasSuffix(r.Metric, ".time.elapsed_time") {
			data.ElapsedSeconds = r.Tested
		}
	}
	if len(data.Rows) == 0 {
		return 0
	}
	s := lkpSample(&data)
	first, last := d.ls[i].No, d.ls[end-1].No
	s.Source = spanSource(first, last) + lkpSource
	d.segSeq++
	if len(s.Rates) > 0 {
		d.addSamples(KindLKPCompare, d.label(i), first, last, []model.Sample{s})
	}
	d.addArtifact(KindLKPCompare, first, last, data)
	return end - i
}

// lkpCompareRow reads "611160 ±  9%  -87.7%  74985 ±  2%  vmstat.swap.so"; the spread
// ("± 9%", "±100%") may be absent, the change is signed ("+635.3%", or "-35.3" for a
// statistic that is itself a percentage).
func lkpCompareRow(t string) (LKPCompareRow, bool) {
	f := strings.Fields(t)
	if len(f) < 4 {
		return LKPCompareRow{}, false
	}
	metric := f[len(f)-1]
	if !strings.Contains(metric, ".") || !isLower(metric[0]) {
		return LKPCompareRow{}, false
	}
	var cells [3]string
	n := 0
	for k := 0; k < len(f)-1; k++ {
		c := f[k]
		if strings.HasPrefix(c, "±") {
			if c == "±" {
				k++ // the spread's percentage is the next field
			}
			continue
		}
		if n == 3 {
			return LKPCompareRow{}, false
		}
		cells[n] = c
		n++
	}
	if n != 3 || (cells[1][0] != '+' && cells[1][0] != '-') {
		return LKPCompareRow{}, false
	}
	base, err1 := strconv.ParseFloat(cells[0], 64)
	tested, err2 := strconv.ParseFloat(cells[2], 64)
	if err1 != nil || err2 != nil || math.IsNaN(base) || math.IsNaN(tested) || math.IsInf(base, 0) || math.IsInf(tested, 0) {
		return LKPCompareRow{}, false
	}
	return LKPCompareRow{Metric: metric, Base: base, Tested: tested, Change: cells[1]}, true
}

// lkpEventCounterPrefixes are the proc-vmstat statistics LKP reports as their growth over the
// run (lkp-tests etc/event-counter-prefixes); every other proc-vmstat row (nr_free_pages,
// nr_slab_unreclaimable ...) is a gauge's mean.
var lkpEventCounterPrefixes = []string{"allocstall", "compact_", "htlb_buddy_alloc_", "kswapd_", "nr_dirtied",
	"nr_vmscan_immediate_reclaim", "nr_written", "numa_", "pageoutrun", "pg", "pswp", "slabs_scanned", "thp_",
	"unevictable_pgs_", "zone_reclaim_failed"}

// lkpGrowth is the tested run's growth of proc-vmstat's event counters, under the kernel's
// names: model.GrowthRates knows which rate each feeds (and sums the per-zone reclaim
// counters of kernels before 4.8).
func lkpGrowth(data *LKPCompareData) *kernel.Counters {
	g := &kernel.Counters{}
	for _, r := range data.Rows {
		name, ok := strings.CutPrefix(r.Metric, "proc-vmstat.")
		if !ok || !slices.ContainsFunc(lkpEventCounterPrefixes, func(p string) bool { return strings.HasPrefix(name, p) }) || r.Tested < 0 || r.Tested > math.MaxInt64/2 {
			continue
		}
		g.Set(name, int64(math.Round(r.Tested)))
	}
	return g
}

func lkpSample(data *LKPCompareData) model.Sample {
	s := model.Sample{Rates: model.Rates{}}
	if data.ElapsedSeconds > 0 {
		if g := lkpGrowth(data); g.Len() > 0 {
			// 0-day's machines are x86 (4 KiB pages) for the swap counters; vmstat's si
			// and so, when the table has them, replace those rates below.
			s.Rates = model.GrowthRates(g, data.ElapsedSeconds, 4)
		}
	}
	for _, r := range data.Rows {
		col, ok := strings.CutPrefix(r.Metric, "vmstat.")
		if !ok {
			continue
		}
		_, col, _ = strings.Cut(col, ".") // "swap.so" → "so"
		if key, ok := vmstatRateKey[col]; ok {
			s.Rates[key] = r.Tested
		}
	}
	return s
}
