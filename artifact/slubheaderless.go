package artifact

import (
	"strings"

	"headroom/model"
)

// fix44b: a SLUB failure whose header line is cut or comes after its details. mm/slub.c
// slab_out_of_memory prints, in this order, "SLUB: Unable to allocate memory on node N,
// gfp=..." then "  cache: NAME, object size: N, buffer size: N, default order: N, min
// order: N" then one "  node N: slabs: N, objs: N, free: N" per node. A paste may cut the
// header to "SLUB:" (a forum's excerpt, a screen's width), or quote the log newest first
// (journalctl -r, a kernel log shown reversed), so that the cache line is met before its
// header or without one. The cache line in that whole form is printed only by
// slab_out_of_memory: with a node line or a (cut) header next to it, or on a kernel log
// line, it is the failure, read as one; its node and GFP mode are those of a whole header
// beside it, else unknown. A "cache: ..." line alone in prose (a doc quoting the format) is
// not read.

// slubCacheLine: t is slab_out_of_memory's whole cache line (after a log prefix the line
// reader kept: "> 2021-11-08T06:36:01+01:00\t[107367.710213][   T98]   cache: ...").
func slubCacheLine(t string) bool {
	if !strings.Contains(t, ", default order: ") {
		return false
	}
	b := slubBody(t)
	return strings.HasPrefix(b, "cache: ") && reSlubCache.MatchString(b)
}

// slubBody: t's message after a kernel log prefix that ends in "]" (dmesg's uptime, a
// caller id "[   T98]"), trimmed.
func slubBody(t string) string {
	s := strings.TrimSpace(t)
	if i := strings.LastIndex(s, "]"); i >= 0 && strings.Contains(s[:i], "[") && !strings.Contains(s[i:], "[") {
		s = strings.TrimSpace(s[i+1:])
	}
	return s
}

// cutSlubHead: the SLUB header cut before its node and gfp ("SLUB:", "SLUB: Unable to
// allocate memo").
func cutSlubHead(t string) bool {
	s := slubBody(t)
	if s == "SLUB:" || strings.HasSuffix(s, " SLUB:") {
		return true
	}
	return strings.HasPrefix(s, "SLUB: Unable") && !reSlubHead.MatchString(s)
}

// slubPiece: a line of the same report: a detail, a whole header or a cut one.
func slubPiece(t string) bool {
	s := slubBody(t)
	return isSlabDetail(s) || isSlabHeader(s) || cutSlubHead(s)
}

// headerlessSlub reads the SLUB failure around the cache line i when its header is not
// above it (the header above would have read it): the pieces next to it, up and down.
func (d *doc) headerlessSlub(i int) bool {
	if d.used[i] || !slubCacheLine(d.ls[i].Text) {
		return false
	}
	first, last := i, i
	for first > 0 && !d.used[first-1] && slubPiece(d.ls[first-1].Text) {
		first--
	}
	for last+1 < len(d.ls) && !d.used[last+1] && slubPiece(d.ls[last+1].Text) {
		last++
	}
	if first == last && !d.ls[i].Kernel {
		return false // a cache line alone, not in a kernel log: a quote of the format
	}
	s := &model.SlabFailure{Node: -1}
	var v uint64
	head := false
	for k := first; k <= last; k++ {
		if h, hv, ok := parseSlabHeader(d.ls[k].Text); ok {
			s, v, head = h, hv, true
			break
		}
	}
	r := report{kind: "slab", slab: s}
	for k := first; k <= last; k++ {
		b := slubBody(d.ls[k].Text)
		r.addSlabDetail(b)
		if strings.HasPrefix(b, "node ") {
			r.x.addSlabNode(b)
		}
		r.used = append(r.used, k)
	}
	if !head {
		r.notes = append(r.notes, "a SLUB failure (mm/slub.c slab_out_of_memory) whose header is cut or not above its cache line (a log quoted newest first): its node and GFP mode are not in the text")
	}
	// The node line above the cache line was met first and listed as unread counters
	// (unreadEvidence): it is this report's, no longer unread.
	lo, hi := d.ls[first].No, d.ls[last].No
	kept := d.tl.Unparsed[:0]
	for _, u := range d.tl.Unparsed {
		if u.FirstLine < lo || u.LastLine > hi {
			kept = append(kept, u)
		}
	}
	d.tl.Unparsed = kept
	r.first = &d.ls[i]
	d.addSlabReport(&r, v)
	return true
}

// addSlabReport adds a collected SLUB failure's event and artifact (v: its mode's value).
func (d *doc) addSlabReport(r *report, v uint64) {
	d.markUsed(r.used)
	d.reportKernel(r)
	ev := r.finishSlab(d.ls)
	d.tl.Events = append(d.tl.Events, ev)
	a := &slabArtifact{SlabFailure: r.slab, reportExtras: r.x, ModeValue: v, Notes: r.notes}
	d.gfpLater = append(d.gfpLater, a)
	d.addArtifact(KindSlabFailure, ev.FirstLine, ev.LastLine, a)
}
