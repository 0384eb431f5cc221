package artifact

import (
	"headroom/model"
	"strings"
)

// slabtop (procps): a summary ("Active / Total Size (% used) : 2888893.34K / 2904551.59K
// (99.5%)") and a table of caches ("OBJS ACTIVE USE OBJ SIZE SLABS OBJ/SLAB CACHE SIZE NAME").
// It is read and kept as an artifact; slabtop does not say which caches are reclaimable, so
// no SUnreclaim figure is derived from it (the rules then say "not checked" rather than
// guess).

// Slabtop is parsed slabtop output.
type Slabtop struct {
	Summary map[string]string `json:"summary,omitempty"` // "Active / Total Size (% used)" → "2888893.34K / 2904551.59K (99.5%)"
	// SummaryValues are the numbers of each summary line in order: [2888893.34 2904551.59 99.5].
	SummaryValues map[string][]float64 `json:"summary_values,omitempty"`
	Caches        [][]string           `json:"caches,omitempty"` // the table's rows as printed
	Rows          []SlabtopRow         `json:"rows,omitempty"`
}

// SlabtopRow is one cache row, as procps slabtop prints it (slabtop.c print_line:
// "%6u %6u %3.0f%% %7.2fK %6u %8u %9uK %-23s"): sizes in KiB as printed.
type SlabtopRow struct {
	Objs       int64   `json:"objs"`
	Active     int64   `json:"active"`
	UsePct     float64 `json:"use_pct"`
	ObjSizeK   float64 `json:"obj_size_k"`
	Slabs      int64   `json:"slabs"`
	ObjPerSlab int64   `json:"obj_per_slab"`
	CacheSizeK int64   `json:"cache_size_k"`
	Name       string  `json:"name"`
}

// slabtopRow reads a row of the table; ok is false when a column is not the number it
// should be.
func slabtopRow(fs []string) (SlabtopRow, bool) {
	if len(fs) < 8 {
		return SlabtopRow{}, false
	}
	var r SlabtopRow
	var ok [7]bool
	r.Objs, ok[0] = atoi(fs[0])
	r.Active, ok[1] = atoi(fs[1])
	r.UsePct, ok[2] = atof(strings.TrimSuffix(fs[2], "%"))
	r.ObjSizeK, ok[3] = atof(strings.TrimSuffix(fs[3], "K"))
	r.Slabs, ok[4] = atoi(fs[4])
	r.ObjPerSlab, ok[5] = atoi(fs[5])
	r.CacheSizeK, ok[6] = atoi(strings.TrimSuffix(fs[6], "K"))
	for _, o := range ok {
		if !o {
			return SlabtopRow{}, false
		}
	}
	r.Name = strings.Join(fs[7:], " ")
	return r, true
}

// summaryNumbers reads "2888893.34K / 2904551.59K (99.5%)" as its numbers in order.
func summaryNumbers(v string) []float64 {
	var out []float64
	for _, f := range fields(strings.NewReplacer("/", " ", "(", " ", ")", " ").Replace(v)) {
		f = strings.TrimRight(f, "K%")
		if f == "" || f[0] < '0' || f[0] > '9' {
			continue
		}
		if n, ok := atof(f); ok {
			out = append(out, n)
		}
	}
	return out
}

func isSlabtopSummary(t string) bool {
	s := strings.TrimSpace(t)
	return (strings.HasPrefix(s, "Active / Total ") || strings.HasPrefix(s, "Minimum / Average / Maximum Object")) && strings.Contains(s, ":")
}

func isSlabtopHeader(t string) bool {
	fs := fields(t)
	return len(fs) >= 8 && fs[0] == "OBJS" && fs[1] == "ACTIVE" && fs[len(fs)-1] == "NAME"
}

// addSlabTable gives the rules the caches of a slabtop or slabinfo table.
func (d *doc) addSlabTable(tool string, first, last int, caches []model.SlabCache) {
	if len(caches) > 0 {
		d.tl.SlabTables = append(d.tl.SlabTables, model.SlabTable{Tool: tool, Source: spanSource(first, last), Caches: caches})
	}
}

func slabtopCaches(rows []SlabtopRow) []model.SlabCache {
	out := make([]model.SlabCache, 0, len(rows))
	for _, r := range rows {
		out = append(out, model.SlabCache{Name: r.Name, Objs: r.Objs, SizeKB: r.CacheSizeK})
	}
	return out
}

func (d *doc) trySlabtop(i int) int {
	// Rows pasted without their header ("slabtop -o | head", a sorted excerpt): two rows
	// in a row, each with its "%" and "K" columns where slabtop prints them, are the table.
	headerless := !isSlabtopSummary(d.ls[i].Text) && !isSlabtopHeader(d.ls[i].Text)
	if headerless && !(strictSlabtopRow(d.ls[i].Text) && i+1 < len(d.ls) && strictSlabtopRow(d.ls[i+1].Text)) {
		return 0
	}
	st := &Slabtop{Summary: map[string]string{}}
	k := i
	if headerless {
		for k < len(d.ls) && strictSlabtopRow(d.ls[k].Text) {
			fs := fields(d.ls[k].Text)
			st.Caches = append(st.Caches, fs)
			r, _ := slabtopRow(fs)
			st.Rows = append(st.Rows, r)
			k++
		}
		return d.addSlabtop(i, k, st)
	}
	for k < len(d.ls) && isSlabtopSummary(d.ls[k].Text) {
		key, val, _ := strings.Cut(strings.TrimSpace(d.ls[k].Text), ":")
		st.Summary[strings.TrimSpace(key)] = strings.TrimSpace(val)
		if ns := summaryNumbers(val); len(ns) > 0 {
			if st.SummaryValues == nil {
				st.SummaryValues = map[string][]float64{}
			}
			st.SummaryValues[strings.TrimSpace(key)] = ns
		}
		k++
	}
	for k < len(d.ls) && isBlank(d.ls[k].Text) && k+1 < len(d.ls) && isSlabtopHeader(d.ls[k+1].Text) {
		k++
	}
	if k < len(d.ls) && isSlabtopHeader(d.ls[k].Text) {
		k++
		for k < len(d.ls) {
			fs := fields(d.ls[k].Text)
			if len(fs) < 8 || !isDigits(fs[0]) {
				break
			}
			st.Caches = append(st.Caches, fs)
			if r, ok := slabtopRow(fs); ok {
				st.Rows = append(st.Rows, r)
			}
			k++
		}
	}
	return d.addSlabtop(i, k, st)
}

// addSlabtop adds the slabtop table read from lines i..k-1: the artifact, and its caches
// beside the other slab tables. It returns the lines it took.
func (d *doc) addSlabtop(i, k int, st *Slabtop) int {
	d.segSeq++
	d.addArtifact(KindSlabtop, d.ls[i].No, d.ls[k-1].No, st)
	d.addSlabTable("slabtop", d.ls[i].No, d.ls[k-1].No, slabtopCaches(st.Rows))
	return k - i
}

// strictSlabtopRow: a row slabtop prints (slabtop.c print_line: "%6u %6u %3.0f%% %7.2fK %6u
// %8u %9uK %-23s"), its use column with "%" and its object size with "K": the shape that
// vouches for a row without the header above it.
func strictSlabtopRow(t string) bool {
	fs := fields(t)
	if len(fs) != 8 || !strings.HasSuffix(fs[2], "%") || !strings.HasSuffix(fs[3], "K") {
		return false
	}
	_, ok := slabtopRow(fs)
	return ok
}
