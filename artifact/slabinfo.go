package artifact

import (
	"headroom/model"
	"strings"
)

// /proc/slabinfo (mm/slab_common.c slab_show and cache_show, format "slabinfo - version:
// 2.1" since 2.6.10), whole or grep'd to a few caches:
//
//	slabinfo - version: 2.1
//	# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>
//	dentry            2369308 2369325    192   21    1 : tunables    0    0    0 : slabdata 112825 112825      0
//
// Kept as an artifact; it gives no sample: a cache's memory is num_slabs × pagesperslab
// pages, but which caches are reclaimable the file does not say (SReclaimable in meminfo
// does), so the rules read slab memory from meminfo.

// SlabinfoRow is one cache.
type SlabinfoRow struct {
	Name         string `json:"name"`
	ActiveObjs   int64  `json:"active_objs"`
	NumObjs      int64  `json:"num_objs"`
	ObjSize      int64  `json:"objsize"`
	ObjPerSlab   int64  `json:"objperslab"`
	PagesPerSlab int64  `json:"pagesperslab"`
	Limit        int64  `json:"limit"`
	BatchCount   int64  `json:"batchcount"`
	SharedFactor int64  `json:"sharedfactor"`
	ActiveSlabs  int64  `json:"active_slabs"`
	NumSlabs     int64  `json:"num_slabs"`
	SharedAvail  int64  `json:"sharedavail"`
}

// slabinfoRow reads a row; ok is false for anything else.
func slabinfoRow(t string) (SlabinfoRow, bool) {
	// A row the poster made Markdown bold to point at it ("**ndpi_ctinfo 4147038 ... 0**",
	// corpus 448) is still the row.
	if s := strings.TrimSpace(t); len(s) > 4 && strings.HasPrefix(s, "**") && strings.HasSuffix(s, "**") {
		t = s[2 : len(s)-2]
	}
	head, rest, ok := strings.Cut(t, ": tunables")
	if !ok {
		return SlabinfoRow{}, false
	}
	tun, slabdata, ok := strings.Cut(rest, ": slabdata")
	if !ok {
		return SlabinfoRow{}, false
	}
	h, tu, sd := fields(head), fields(tun), fields(slabdata)
	if len(h) != 6 || len(tu) != 3 || len(sd) != 3 {
		return SlabinfoRow{}, false
	}
	var n [11]int64
	for j, f := range append(append(h[1:], tu...), sd...) {
		v, ok := atoi(f)
		if !ok {
			return SlabinfoRow{}, false
		}
		n[j] = v
	}
	return SlabinfoRow{Name: h[0], ActiveObjs: n[0], NumObjs: n[1], ObjSize: n[2], ObjPerSlab: n[3], PagesPerSlab: n[4],
		Limit: n[5], BatchCount: n[6], SharedFactor: n[7], ActiveSlabs: n[8], NumSlabs: n[9], SharedAvail: n[10]}, true
}

// slabinfoRow1 reads a row of 2.2's and 2.4's /proc/slabinfo ("slabinfo - version: 1.0",
// "1.1" and "1.1 (SMP)"; mm/slab.c s_show): name, active_objs, num_objs, objsize,
// active_slabs, num_slabs and pages per slab, then on SMP " : limit batchcount".
//
//	slabinfo - version: 1.1 (SMP)
//	buffer_head       667847 672390    128 22413 22413    1 :  252  126
//
// Seven numbers after a name are an ordinary table's too, so the rows are read only under
// their version line (trySlabinfo).
func slabinfoRow1(t string) (SlabinfoRow, bool) {
	head, tun, smp := strings.Cut(t, " : ")
	h := fields(head)
	if len(h) != 7 {
		return SlabinfoRow{}, false
	}
	var n [8]int64
	vals := h[1:]
	if smp {
		tu := fields(tun)
		if len(tu) != 2 {
			return SlabinfoRow{}, false
		}
		vals = append(vals, tu...)
	}
	for j, f := range vals {
		v, ok := atoi(f)
		if !ok {
			return SlabinfoRow{}, false
		}
		n[j] = v
	}
	return SlabinfoRow{Name: h[0], ActiveObjs: n[0], NumObjs: n[1], ObjSize: n[2], ActiveSlabs: n[3], NumSlabs: n[4],
		PagesPerSlab: n[5], Limit: n[6], BatchCount: n[7]}, true
}

// isSlabinfoStart: the version line, the "# name" header, or a row (whole, or wrapped: see
// wrappedSlabinfoRow).
func (d *doc) isSlabinfoStart(i int) bool {
	s := strings.TrimSpace(d.ls[i].Text)
	if strings.HasPrefix(s, "slabinfo - version:") || strings.HasPrefix(s, "# name") && strings.Contains(s, "<active_objs>") {
		return true
	}
	_, n := d.slabinfoRowAt(i)
	return n > 0
}

// slabinfoRowAt reads the row at line i and returns the lines it took: 1, or 2 when a mail
// client wrapped the row (format=flowed at 72 columns, corpus 1967: "ip_dst_cache 153870
// 154530 256 15 1 : tunables 120 60" then "8 : slabdata 10302 10302 0"). The second line
// joins only when the first has ": tunables" without ": slabdata", the second has
// ": slabdata" without ": tunables", and the two read as one row of the format.
func (d *doc) slabinfoRowAt(i int) (SlabinfoRow, int) {
	s := strings.TrimSpace(d.ls[i].Text)
	if r, ok := slabinfoRow(s); ok {
		return r, 1
	}
	if i+1 >= len(d.ls) || !strings.Contains(s, ": tunables") || strings.Contains(s, ": slabdata") {
		return SlabinfoRow{}, 0
	}
	next := strings.TrimSpace(d.ls[i+1].Text)
	if !strings.Contains(next, ": slabdata") || strings.Contains(next, ": tunables") {
		return SlabinfoRow{}, 0
	}
	if r, ok := slabinfoRow(s + " " + next); ok {
		return r, 2
	}
	return SlabinfoRow{}, 0
}

func (d *doc) trySlabinfo(i int) int {
	if !d.isSlabinfoStart(i) {
		return 0
	}
	var rows []SlabinfoRow
	rowAt := d.slabinfoRowAt
	if strings.HasPrefix(strings.TrimSpace(d.ls[i].Text), "slabinfo - version: 1.") {
		rowAt = func(k int) (SlabinfoRow, int) { // 2.2's and 2.4's rows, never wrapped here
			if r, ok := slabinfoRow1(strings.TrimSpace(d.ls[k].Text)); ok {
				return r, 1
			}
			return SlabinfoRow{}, 0
		}
	}
	k := i
	for k < len(d.ls) {
		s := strings.TrimSpace(d.ls[k].Text)
		if r, n := rowAt(k); n > 0 {
			rows = append(rows, r)
			k += n
			continue
		}
		if k == i || k == i+1 && strings.HasPrefix(s, "# name") {
			k++
			continue // the version line and the header
		}
		break
	}
	if len(rows) == 0 {
		return 0
	}
	d.segSeq++
	d.addArtifact(KindSlabinfo, d.ls[i].No, d.ls[k-1].No, rows)
	caches, series := slabinfoCaches(rows)
	d.addSlabTable("slabinfo", d.ls[i].No, d.ls[k-1].No, caches)
	if len(series) > 0 && len(d.tl.SlabTables) > 0 {
		d.tl.SlabTables[len(d.tl.SlabTables)-1].Series = series
	}
	return k - i
}

// slabinfoCaches is the table of rows: one cache each. /proc/slabinfo prints a cache once
// (mm/slab_common.c slab_show walks slab_caches), so a name printed again is another dump of
// the file pasted into the same table (dumps taken over time, one after another or their rows
// sorted by name together): each such cache keeps its last reading as printed (a sum would
// add one cache's memory at several times) and its readings become a series.
func slabinfoCaches(rows []SlabinfoRow) ([]model.SlabCache, []model.SlabSeries) {
	var names []string
	byName := make(map[string][]SlabinfoRow, len(rows))
	for _, r := range rows {
		if _, ok := byName[r.Name]; !ok {
			names = append(names, r.Name)
		}
		byName[r.Name] = append(byName[r.Name], r)
	}
	caches := make([]model.SlabCache, 0, len(names))
	var series []model.SlabSeries
	for _, n := range names {
		rs := byName[n]
		r := rs[len(rs)-1]
		caches = append(caches, model.SlabCache{Name: n, Objs: r.NumObjs, SizeKB: r.NumObjs * r.ObjSize / 1024})
		if len(rs) < 2 {
			continue
		}
		s := model.SlabSeries{Name: n}
		for _, r := range rs {
			s.ActiveObjs = append(s.ActiveObjs, r.ActiveObjs)
			s.ActiveKB = append(s.ActiveKB, r.ActiveObjs*r.ObjSize/1024)
		}
		series = append(series, s)
	}
	return caches, series
}
