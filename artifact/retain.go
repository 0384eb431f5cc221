package artifact

import (
	"fmt"
	"sort"
	"strings"

	"headroom/model"
)

// What a text keeps of repeated tables is bounded by what is kept, not by the text (issue 30
// item 6, issue 33 item 2). A paste holds a few tables; a text that holds thousands of one
// kind (200,000 zoneinfo blocks, a million buddyinfo lines, a 50 MB paste of one report over
// and over) kept a Sample, a Segment and an Artifact for each: 795 MB for 28 MB of zoneinfo,
// 846 MB for the buddyinfo lines. Now, per kind:
//
//   - samples: the first maxKindSamples are kept as read. A table that does not fit in what
//     is left is thinned to it (evenly spaced rows, its first and last among them); once
//     the budget is spent, only the kind's last table is kept (thinned to maxHeldSamples),
//     in its place in the text, so that the rules still see the first and the last state;
//   - artifacts: the first maxKindArtifacts, and the kind's last one.
//
// Every table left out is counted and named once per kind in Timeline.NotAvailable, so the
// report says what was not kept. The rules compare phases (first and last) and look for the
// worst row of a table: the first thousands and the last keep both for a paste of any
// sensible size, and a table of more rows than that is thinned, never cut off at its end.
const (
	maxKindSamples   = 2048
	maxHeldSamples   = 512
	maxKindArtifacts = 256
	minThinSamples   = 64 // a table thinned to fewer rows than this is held instead
)

// retention is the per-kind account of what was kept and left out.
type retention struct {
	samples   map[string]int // samples kept, by segment kind
	artifacts map[string]int // artifacts kept, by kind
	held      map[string]*heldSegment
	heldArt   map[string]*model.Artifact
	dropped   map[string]*dropCount // by kind
	order     []string              // kinds in the order their first drop was noted
}

// heldSegment is a kind's last table once its budget is spent: inserted at finish where
// it was read (before the segment and the sample it was read before).
type heldSegment struct {
	seg     model.Segment // First/Last relative to samples
	samples []model.Sample
	atSeg   int // len(tl.Segments) when it was read
	atSamp  int // len(tl.Samples) when it was read
}

type dropCount struct {
	tables, samples, artifacts int
	first, last                int // lines of the tables left out
}

func (r *retention) drop(kind string, first, last int) *dropCount {
	if r.dropped == nil {
		r.dropped = map[string]*dropCount{}
	}
	c := r.dropped[kind]
	if c == nil {
		c = &dropCount{first: first}
		r.dropped[kind] = c
		r.order = append(r.order, kind)
	}
	c.first, c.last = min(c.first, first), max(c.last, last)
	return c
}

// thin returns n evenly spaced samples of ss, its first and last among them.
func thin(ss []model.Sample, n int) []model.Sample {
	if len(ss) <= n {
		return ss
	}
	out := make([]model.Sample, n)
	for k := range n {
		out[k] = ss[k*(len(ss)-1)/(n-1)]
	}
	return out
}

// addSamples appends the samples of one table as a segment, within the kind's budget.
func (d *doc) addSamples(kind, label string, first, last int, ss []model.Sample) {
	if len(ss) == 0 {
		return
	}
	r := &d.keep
	if r.samples == nil {
		r.samples = map[string]int{}
	}
	name := fmt.Sprintf("%s at %s", kind, spanSource(first, last))
	room := maxKindSamples - r.samples[kind]
	if len(ss) > room && room >= minThinSamples {
		c := r.drop(kind, first, last)
		c.samples += len(ss) - room
		ss = thin(ss, room)
	}
	if len(ss) <= room {
		r.samples[kind] += len(ss)
		start := len(d.tl.Samples)
		d.tl.Samples = append(d.tl.Samples, ss...)
		d.tl.Segments = append(d.tl.Segments, model.Segment{Name: name, Kind: kind,
			First: start, Last: len(d.tl.Samples) - 1, Label: label})
		return
	}
	// The budget is spent: this table is the kind's last so far.
	if r.held == nil {
		r.held = map[string]*heldSegment{}
	}
	c := r.drop(kind, first, last)
	if h := r.held[kind]; h != nil {
		c.tables++
		c.samples += len(h.samples)
	}
	kept := thin(ss, maxHeldSamples)
	c.samples += len(ss) - len(kept)
	// A copy: ss may share its backing array with what the parser keeps.
	kept = append([]model.Sample(nil), kept...)
	r.held[kind] = &heldSegment{
		seg:     model.Segment{Name: name, Kind: kind, First: 0, Last: len(kept) - 1, Label: label},
		samples: kept, atSeg: len(d.tl.Segments), atSamp: len(d.tl.Samples),
	}
}

// addTable adds the block of lines i..end-1, read as one table of kind: its sample s, placed
// at those lines (Source), and its data as the artifact, each within retain's bounds. It
// returns the lines the block took, what a format's parse returns.
func (d *doc) addTable(kind string, i, end int, s model.Sample, data any) int {
	first, last := d.ls[i].No, d.ls[end-1].No
	s.Source = spanSource(first, last)
	d.segSeq++
	d.addSamples(kind, d.label(i), first, last, []model.Sample{s})
	d.addArtifact(kind, first, last, data)
	return end - i
}

func (d *doc) addArtifact(kind string, first, last int, data any) {
	a := model.Artifact{Kind: kind, FirstLine: first, LastLine: last, Data: data}
	r := &d.keep
	if r.artifacts == nil {
		r.artifacts = map[string]int{}
	}
	if kind == KindKernelLog || r.artifacts[kind] < maxKindArtifacts {
		r.artifacts[kind]++
		d.tl.Artifacts = append(d.tl.Artifacts, a)
		return
	}
	if r.heldArt == nil {
		r.heldArt = map[string]*model.Artifact{}
	}
	c := r.drop(kind, first, last)
	if r.heldArt[kind] != nil {
		c.artifacts++
	}
	r.heldArt[kind] = &a
}

// placeHeld puts each kind's held table where it was read and its last artifact among the
// artifacts (finish sorts them by line), and says in NotAvailable what was left out.
func (d *doc) placeHeld() {
	r := &d.keep
	if len(r.held) > 0 {
		hs := make([]*heldSegment, 0, len(r.held))
		for _, h := range r.held {
			hs = append(hs, h)
		}
		sort.Slice(hs, func(a, b int) bool { return hs[a].atSeg < hs[b].atSeg })
		samples := make([]model.Sample, 0, len(d.tl.Samples)+len(hs)*maxHeldSamples)
		segs := make([]model.Segment, 0, len(d.tl.Segments)+len(hs))
		from, fromSeg, shift := 0, 0, 0
		for _, h := range hs {
			samples = append(samples, d.tl.Samples[from:h.atSamp]...)
			for _, g := range d.tl.Segments[fromSeg:h.atSeg] {
				g.First, g.Last = g.First+shift, g.Last+shift
				segs = append(segs, g)
			}
			g := h.seg
			g.First, g.Last = len(samples), len(samples)+len(h.samples)-1
			samples = append(samples, h.samples...)
			segs = append(segs, g)
			shift += len(h.samples)
			from, fromSeg = h.atSamp, h.atSeg
		}
		samples = append(samples, d.tl.Samples[from:]...)
		for _, g := range d.tl.Segments[fromSeg:] {
			g.First, g.Last = g.First+shift, g.Last+shift
			segs = append(segs, g)
		}
		d.tl.Samples, d.tl.Segments = samples, segs
	}
	for _, a := range r.heldArt {
		d.tl.Artifacts = append(d.tl.Artifacts, *a)
	}
	for _, kind := range r.order {
		c := r.dropped[kind]
		var what []string
		if c.tables > 0 {
			what = append(what, fmt.Sprintf("%d tables", c.tables))
		}
		if c.samples > 0 {
			what = append(what, fmt.Sprintf("%d samples", c.samples))
		}
		if c.artifacts > 0 {
			what = append(what, fmt.Sprintf("%d artifacts", c.artifacts))
		}
		if len(what) == 0 {
			continue
		}
		d.tl.NotAvailable = append(d.tl.NotAvailable, model.Unavailable{
			What: fmt.Sprintf("%s at %s", kind, spanSource(c.first, c.last)),
			Why: fmt.Sprintf("not kept: %s (a text keeps at most %d samples and %d artifacts of one kind: the first, the kind's last table, and tables longer than that thinned to evenly spaced rows)",
				strings.Join(what, ", "), maxKindSamples, maxKindArtifacts),
		})
	}
}
