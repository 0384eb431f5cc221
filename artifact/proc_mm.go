package artifact

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// The memory manager's /proc files pasted verbatim (or excerpts of them) go through the
// kernel package's parsers, the same code that reads them on a live host: meminfo, vmstat,
// zoneinfo, pagetypeinfo, buddyinfo (the /proc/net files are in proc_net.go). This file only
// finds where each starts and ends in a text.

// procBlock returns the end (exclusive) of the run of lines from i that match.
func procBlock(ls []Line, i int, match func(string) bool) int {
	k := i
	for k < len(ls) && match(ls[k].Text) {
		k++
	}
	return k
}

// isMemInfoLine matches "MemTotal:        8123456 kB" and "HugePages_Total:       0".
func isMemInfoLine(t string) bool {
	fs := fields(t)
	if len(fs) < 2 || len(fs) > 3 || !strings.HasSuffix(fs[0], ":") || len(fs[0]) < 3 {
		return false
	}
	if _, grouped := commaGroups(fs[1]); !isDigits(fs[1]) && !grouped {
		return false
	}
	if len(fs) == 3 && fs[2] != "kB" {
		return false
	}
	name := strings.TrimSuffix(fs[0], ":")
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c == '(' || c == ')' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return name[0] >= 'A' && name[0] <= 'Z'
}

func (d *doc) tryMemInfo(i int) int {
	if !isMemInfoLine(d.ls[i].Text) {
		return 0
	}
	k := procBlock(d.ls, i, isMemInfoLine)
	if k-i < 3 && !quotedMemInfo(d.ls[i:k]) {
		return 0
	}
	if !namesMemInfoField(d.ls[i:k]) {
		// "Name: value" lines none of which /proc/meminfo prints: another program's
		// (HAProxy's "show info": "PoolAlloc_MB: 512", "CurrConns: 40000"), not the file.
		return 0
	}
	var c kernel.Counters
	out, err := parseLeavingOut(ungroupMemInfo(d.ls[i:k:k]), 2, func(text string) (err error) {
		c, err = kernel.ParseMemInfo(strings.NewReader(text))
		return err
	}, func(l Line, _ error) bool {
		fs := fields(l.Text)
		return len(fs) >= 2 && unsignedUnderflow(fs[1])
	})
	if err != nil {
		d.unparsed(i, k-1, fmt.Sprintf("/proc/meminfo: %v", err))
		return k - i
	}
	d.noteLeftOut(i, k, "/proc/meminfo", out, "a count below zero printed unsigned")
	if v, ok := c.Get("MemTotal"); ok {
		d.host.memTotal(v, 4)
	}
	if v, ok := c.Get("HighTotal"); ok && v > 0 {
		d.host.highMem = true
	}
	return d.addTable(KindMemInfo, i, k, model.Sample{MemInfo: &c}, &c)
}

// ungroupMemInfo gives the block's lines with a value a person grouped by thousands
// ("SUnreclaim:       295,408 kB", g283's 6516: a mail that edited two figures of its
// meminfo for reading) written as the kernel prints it; ls itself when none is.
func ungroupMemInfo(ls []Line) []Line {
	var out []Line
	for j, l := range ls {
		fs := fields(l.Text)
		if len(fs) < 2 {
			continue
		}
		v, ok := commaGroups(fs[1])
		if !ok {
			continue
		}
		if out == nil {
			out = slices.Clone(ls)
		}
		fs[1] = v
		out[j].Text = strings.Join(fs, " ")
	}
	if out == nil {
		return ls
	}
	return out
}

// commaGroups reads digits grouped by thousands with commas ("295,408", "1,234,567"): the
// digits alone; ok is false for anything else.
func commaGroups(v string) (string, bool) {
	g := strings.Split(v, ",")
	if len(g) < 2 || len(g[0]) == 0 || len(g[0]) > 3 || !isDigits(g[0]) {
		return "", false
	}
	for _, x := range g[1:] {
		if len(x) != 3 || !isDigits(x) {
			return "", false
		}
	}
	return strings.Join(g, ""), true
}

// namesMemInfoField: a line of the block names a field /proc/meminfo prints.
func namesMemInfoField(ls []Line) bool {
	for _, l := range ls {
		if f := firstField(l.Text); kernel.MemInfoField(strings.TrimSuffix(f, ":")) {
			return true
		}
	}
	return false
}

// quotedMemInfo: one or two lines of /proc/meminfo quoted alone ("SUnreclaim:     42964948
// kB" in a sentence's paragraph, corpus 470) are the file's when each names a field the
// file prints, with its kB unit (HugePages_ counts have none).
func quotedMemInfo(ls []Line) bool {
	for _, l := range ls {
		fs := fields(l.Text)
		name := strings.TrimSuffix(fs[0], ":")
		if !kernel.MemInfoField(name) || len(fs) != 3 && !strings.HasPrefix(name, "HugePages_") {
			return false
		}
	}
	return len(ls) > 0
}

// isVMStatFileLine matches "nr_free_pages 12345" of /proc/vmstat, with or without a
// paster's pointer after it ("compact_success   0     <-- 15 denemede 0 başarı", g260:
// stripAnnotation).
func isVMStatFileLine(t string) bool {
	fs := fields(stripAnnotation(t))
	if len(fs) != 2 || !isDigits(fs[1]) {
		return false
	}
	name := fs[0]
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return strings.Contains(name, "_") || strings.HasPrefix(name, "pg") || strings.HasPrefix(name, "ps") ||
		vmstatBareNames[name]
}

// vmstatBareNames are /proc/vmstat counters without an underscore or a pg/ps prefix.
var vmstatBareNames = map[string]bool{"pageoutrun": true, "allocstall": true, "slabs_scanned": true, "kswapd_steal": true,
	"thp_split": true, "unevictable": true}

func (d *doc) tryVMStatFile(i int) int {
	if !isVMStatFileLine(d.ls[i].Text) {
		return 0
	}
	k := procBlock(d.ls, i, isVMStatFileLine)
	if k-i < 3 {
		return 0
	}
	var b strings.Builder
	for _, l := range d.ls[i:k] {
		b.WriteString(stripAnnotation(l.Text))
		b.WriteByte('\n')
	}
	c, err := kernel.ParseVMStat(strings.NewReader(b.String()))
	if err != nil {
		d.unparsed(i, k-1, fmt.Sprintf("/proc/vmstat: %v", err))
		return k - i
	}
	return d.addTable(KindVMStatFile, i, k, model.Sample{VMStat: &c}, &c)
}

// "Node 0, zone   Normal   240  453 ..." (buddyinfo) versus "Node 0, zone   Normal" alone
// (zoneinfo block header).
func nodeZoneLine(t string) (rest []string, ok bool) {
	s := strings.TrimSpace(t)
	if !strings.HasPrefix(s, "Node ") {
		return nil, false
	}
	fs := fields(s)
	if len(fs) < 4 || !strings.HasSuffix(fs[1], ",") || fs[2] != "zone" {
		return nil, false
	}
	return fs[4:], true
}

func isBuddyInfoLine(t string) bool {
	rest, ok := nodeZoneLine(t)
	return ok && len(rest) >= 3 && len(rest) <= maxBuddyOrders && allNumeric(rest)
}

// BuddySeries is repeated /proc/buddyinfo snapshots ("@ 1 second intervals").
type BuddySeries struct {
	Snapshots [][]kernel.BuddyZone `json:"snapshots"`
	// Read is the number of snapshots read when Snapshots keeps fewer (evenly spaced, the
	// first and last among them); 0 when it keeps them all.
	Read  int    `json:"read,omitempty"`
	Label string `json:"label,omitempty"`
}

func (d *doc) tryBuddyInfo(i int) int {
	if !isBuddyInfoLine(d.ls[i].Text) {
		return 0
	}
	var rows []string
	k := i
	for k < len(d.ls) && isBuddyInfoLine(d.ls[k].Text) {
		row := d.ls[k].Text
		k++
		if k < len(d.ls) && isBuddyContinuation(row, d.ls[k].Text) {
			row += " " + strings.TrimSpace(d.ls[k].Text)
			k++
		}
		rows = append(rows, row)
	}
	d.addBuddyRows(i, k, rows)
	return k - i
}

// maxBuddyOrders is the most orders a buddyinfo row prints (kernel.MaxBuddyInfoOrders).
const maxBuddyOrders = kernel.MaxBuddyInfoOrders

// isBuddyContinuation: next is the rest of the buddyinfo row, which a mail client or a
// terminal wrapped onto its own line: indented (frag_show_print pads each count to six
// columns, so the break falls in the padding), counts only, and with the row's own counts
// no more than a row holds. A row of 11 or more is whole already (a 14-order row wrapped
// after its 11th is not told from a table of numbers below a full row).
func isBuddyContinuation(row, next string) bool {
	if next == "" || (next[0] != ' ' && next[0] != '\t') {
		return false
	}
	have, _ := nodeZoneLine(row)
	more := fields(next)
	return len(have) < 11 && allNumeric(more) && len(have)+len(more) <= maxBuddyOrders
}

// addBuddyRows reads rows in /proc/buddyinfo's own form ("Node 0, zone   Normal  3 1 ...")
// that lines i..k-1 of the text hold, as they are or rewritten from another tool's table
// (buddy_tables.go). A new snapshot starts where a (node, zone) pair repeats.
func (d *doc) addBuddyRows(i, k int, rows []string) {
	var series BuddySeries
	start := 0
	seen := map[string]bool{}
	flush := func(end int) {
		if end <= start {
			return
		}
		zs, err := kernel.ParseBuddyInfo(strings.NewReader(strings.Join(rows[start:end], "\n") + "\n"))
		if err != nil {
			a, b := i, k-1 // rows rewritten from another table: the whole table
			if len(rows) == k-i {
				a, b = i+start, i+end-1
			}
			d.unparsed(a, b, fmt.Sprintf("/proc/buddyinfo: %v", err))
			return
		}
		series.Snapshots = append(series.Snapshots, zs)
	}
	for j, r := range rows {
		fs := fields(r)
		key := fs[1] + fs[3]
		if seen[key] {
			flush(j)
			start = j
			seen = map[string]bool{}
		}
		seen[key] = true
	}
	flush(len(rows))
	if len(series.Snapshots) == 0 {
		return
	}
	series.Label = d.label(i)
	first, last := d.ls[i].No, d.ls[k-1].No
	var ss []model.Sample
	defer func() {
		// The artifact keeps what a report shows of the series, not every snapshot
		// (addSamples bounds the samples the same way, retain.go).
		if n := len(series.Snapshots); n > maxHeldSamples {
			kept := make([][]kernel.BuddyZone, maxHeldSamples)
			for k := range kept {
				kept[k] = series.Snapshots[k*(n-1)/(maxHeldSamples-1)]
			}
			series.Snapshots, series.Read = kept, n
		}
		d.addArtifact(KindBuddyInfo, first, last, series)
	}()
	for n, snap := range series.Snapshots {
		for _, z := range snap {
			if z.Zone == "HighMem" {
				d.host.highMem = true
			}
		}
		ss = append(ss, model.Sample{Source: fmt.Sprintf("%s snapshot %d", spanSource(first, last), n+1), Buddy: snap})
	}
	d.segSeq++
	d.addSamples(KindBuddyInfo, series.Label, first, last, ss)
}

// isZoneInfoElision: "[...]" or "..." that a paste left inside a zone's block (corpus
// case 351: "Node 3, zone DMA", "[...]", "pages free 2951").
func isZoneInfoElision(t string) bool {
	s := strings.TrimSpace(t)
	return s == "[...]" || s == "..." || s == "[snip]"
}

// zoneInfoBlockLine: a line of a zone's block (mm/vmstat.c zoneinfo_show_print indents
// every line after "Node N, zone X"), or an elision.
func zoneInfoBlockLine(t string) bool {
	return len(t) > 0 && (t[0] == ' ' || t[0] == '\t') && !isBlank(t) || isZoneInfoElision(t)
}

// zoneInfoText joins the lines of a block without its elisions.
func zoneInfoText(ls []Line) string {
	kept := make([]Line, 0, len(ls))
	for _, l := range ls {
		if !isZoneInfoElision(l.Text) {
			kept = append(kept, l)
		}
	}
	return joinText(kept)
}

func (d *doc) tryZoneInfo(i int) int {
	rest, ok := nodeZoneLine(d.ls[i].Text)
	if !ok || len(rest) != 0 || i+1 >= len(d.ls) {
		return 0
	}
	j := i + 1
	if isZoneInfoElision(d.ls[j].Text) && j+1 < len(d.ls) {
		j++
	}
	next := strings.TrimSpace(d.ls[j].Text)
	if !strings.HasPrefix(next, "pages free") && !strings.HasPrefix(next, "per-node stats") && !zoneInfoGrepped(next) {
		return 0
	}
	// A block ends where one of its zones starts again: a zoneinfo pasted twice (before and
	// after), or 200,000 times, is that many snapshots, each a sample of its own, not one
	// sample of every zone over and over.
	seen := map[string]bool{}
	k := procBlock(d.ls, i, func(t string) bool {
		if _, ok := nodeZoneLine(t); ok {
			key := strings.Join(fields(t), " ")
			if seen[key] {
				return false
			}
			seen[key] = true
			return true
		}
		return zoneInfoBlockLine(t)
	})
	zs, err := kernel.ParseZoneInfo(strings.NewReader(zoneInfoText(d.ls[i:k])))
	if err != nil && zoneInfoCutAtEnd(d.ls[i:k], err) && k-1 > i+1 {
		// A paste cut inside its last line ("      nr_zon", "        low"): read the block
		// without it and report the line.
		if z2, err2 := kernel.ParseZoneInfo(strings.NewReader(zoneInfoText(d.ls[i : k-1]))); err2 == nil {
			d.unparsed(k-1, k-1, fmt.Sprintf("/proc/zoneinfo: the paste ends inside this line (%v)", err))
			zs, err = z2, nil
			k--
		}
	}
	if err != nil {
		d.unparsed(i, k-1, fmt.Sprintf("/proc/zoneinfo: %v", err))
		return k - i
	}
	for _, z := range zs {
		if z.Name == "HighMem" {
			if v, ok := z.Fields.Get("present"); ok && v > 0 {
				d.host.highMem = true
			}
		}
	}
	return d.addTable(KindZoneInfo, i, k, model.Sample{Zones: zs}, zs)
}

// zoneInfoGrepped: the first line under a zone's header in a zoneinfo filtered by grep
// (`grep -E 'Node|present|managed|protection' /proc/zoneinfo`, corpus 670): a zone's size
// or its lowmem protection, which only /proc/zoneinfo prints under "Node N, zone X". What
// the grep left out (free pages, watermarks) stays absent.
func zoneInfoGrepped(t string) bool {
	f := fields(t)
	if len(f) < 2 {
		return false
	}
	switch f[0] {
	case "present", "managed", "spanned":
		return isDigits(f[1])
	case "protection:":
		return strings.HasPrefix(f[1], "(")
	}
	return false
}

// zoneInfoCutAtEnd reports whether err is kernel.ParseZoneInfo's complaint about the last
// line of the block ls (its lines are counted as zoneInfoText joins them, without elisions).
func zoneInfoCutAtEnd(ls []Line, err error) bool {
	var le *kernel.LineError
	if !errors.As(err, &le) {
		return false
	}
	n := 0
	for _, l := range ls {
		if !isZoneInfoElision(l.Text) {
			n++
		}
	}
	return le.Line == n
}

// ZoneInfoNoHeader is a zone's /proc/zoneinfo block pasted without its "Node N, zone X"
// line (corpus case 316).
type ZoneInfoNoHeader struct {
	Zone kernel.Zone `json:"zone"`
	Note string      `json:"note"`
}

// tryZoneInfoHeaderless reads a block that starts at "pages free" with no "Node N, zone X"
// line above it. It is kept as an artifact and gives no sample: the rules judge a zone by
// its name and node (a DMA zone's watermarks mean something else than Normal's), and the
// paste does not say which zone this is.
func (d *doc) tryZoneInfoHeaderless(i int) int {
	if !strings.HasPrefix(strings.TrimSpace(d.ls[i].Text), "pages free") {
		return 0
	}
	k := procBlock(d.ls, i+1, zoneInfoBlockLine)
	if k-i < 3 {
		return 0
	}
	zs, err := kernel.ParseZoneInfo(strings.NewReader("Node 0, zone unknown\n" + zoneInfoText(d.ls[i:k])))
	if err != nil || len(zs) != 1 {
		return 0
	}
	z := zs[0]
	z.Node, z.Name = -1, ""
	d.tl.ZoneFragments = append(d.tl.ZoneFragments, model.ZoneFragment{Zone: z, Source: spanSource(d.ls[i].No, d.ls[k-1].No)})
	d.segSeq++
	d.addArtifact(KindZoneInfo, d.ls[i].No, d.ls[k-1].No, ZoneInfoNoHeader{Zone: z,
		Note: "a zone's block without its \"Node N, zone X\" line: kept, not judged (which zone it is decides what its watermarks mean)"})
	return k - i
}

// pageTypeTableHeader: the header of one of /proc/pagetypeinfo's tables (its free lists by
// migrate type, its pageblocks by type), where a paste that leaves out the "Page block order"
// lines starts.
func pageTypeTableHeader(t string) bool {
	t = strings.TrimSpace(t)
	return strings.HasPrefix(t, "Free pages count per migrate type at order") || strings.HasPrefix(t, "Number of blocks type")
}

func (d *doc) tryPageTypeInfo(i int) int {
	if t := strings.TrimSpace(d.ls[i].Text); !strings.HasPrefix(t, "Page block order:") &&
		!(pageTypeTableHeader(t) && i+1 < len(d.ls) && strings.HasPrefix(strings.TrimSpace(d.ls[i+1].Text), "Node")) {
		return 0
	}
	k := i
	last := i
	for k < len(d.ls) {
		s := strings.TrimSpace(d.ls[k].Text)
		switch {
		case s == "":
		case strings.HasPrefix(s, "Page block order:"), strings.HasPrefix(s, "Pages per block:"),
			strings.HasPrefix(s, "Free pages count"), strings.HasPrefix(s, "Number of blocks type"),
			strings.HasPrefix(s, "Number of mixed blocks"), strings.HasPrefix(s, "Node "),
			// `unexpand -a` (an editor's or a terminal's copy) turns "Node    0" into
			// "Node\t0": the row is the table's all the same (kernel.txtNodeZone reads
			// either), and read by another reader it was a buddy list of zeros.
			strings.HasPrefix(s, "Node\t"):
			last = k
		default:
			k = len(d.ls)
			continue
		}
		k++
	}
	k = last + 1
	pt, err := kernel.ParsePageTypeInfo(strings.NewReader(joinText(d.ls[i:k])))
	if err != nil {
		// A paste cut short leaves a broken last line or two: read what comes before them
		// and report the rest.
		for cut := 1; cut <= 3 && k-cut > i+3; cut++ {
			if p2, err2 := kernel.ParsePageTypeInfo(strings.NewReader(joinText(d.ls[i : k-cut]))); err2 == nil {
				d.unparsed(k-cut, k-1, fmt.Sprintf("/proc/pagetypeinfo: the paste ends inside the table (%v)", err))
				pt, err = p2, nil
				k -= cut
				break
			}
		}
	}
	if err != nil {
		d.unparsed(i, k-1, fmt.Sprintf("/proc/pagetypeinfo: %v", err))
		return k - i
	}
	first, lastNo := d.ls[i].No, d.ls[k-1].No
	d.segSeq++
	d.addSamples(KindPageTypeInfo, d.label(i), first, lastNo, []model.Sample{{Source: spanSource(first, lastNo), PageTypes: &pt}})
	d.addArtifact(KindPageTypeInfo, first, lastNo, &pt)
	return k - i
}
