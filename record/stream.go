package record

import (
	"fmt"
	"time"

	"headroom/kernel"
	"headroom/model"
)

// DefaultMaxSampleBytes is the memory the samples of one recording may keep, by sampleCost's
// estimate of the decoded and compacted samples. A sample of the development VM (27 KB of
// JSON, 2 CPUs, 4 interfaces) is estimated at 19.5 KB (303 KB with 600 veths), so 48 MiB
// keeps up to about 2 580 samples: 43 minutes at 1 s are read whole, and a day at 1 s is kept
// as one sample in 64 (1 351 of 86 400) and the last. docs/performance.md has the measured
// peaks (179 MB for that day).
const DefaultMaxSampleBytes = 48 << 20

// builder streams an archive's entries into a Timeline whose samples stay within a memory
// budget (issue 30 item 4: holding every decoded sample cost about 180 KB each, so a day at
// 1 s needed some 15 GB). Every sample is decoded one line at a time and compacted against
// the one before it (the same counter names share one name list and index; repeated names
// are interned). While the kept samples fit the budget every sample is kept, so a recording
// of up to about an hour reads exactly as before. Beyond it the builder keeps the samples on
// a grid of every stride-th sample, doubling the stride (and dropping every other kept
// sample) each time the budget is reached, and always the first and the last sample: the
// rules' first/last comparisons, since-boot counters and counter growth (summed sample to
// sample) read the same numbers, and rates are derived over the kept intervals (stride ×
// the recording interval), which ThinNote says in the Timeline's NotAvailable.
//
// The entries of a gzip member are only trusted once the member has ended intact (Read), so
// the builder keeps a checkpoint of its state at the last Commit and returns to it on
// Rollback; the checkpoint holds at most the samples kept then, so the peak is bounded by
// twice the budget, never by the size of a member or of the file.
type builder struct {
	tl      *model.Timeline
	unavail map[string]bool
	budget  int64 // < 0: keep every sample

	kept   []kept
	bytes  int64 // sampleCost of kept and last
	stride int   // every stride-th sample (by its number in the archive) is kept
	seen   int   // samples handed so far
	last   *kept // the newest sample when it is not on the grid
	brk    bool  // a session header since the newest sample: the next one starts a session
	intern map[string]string
	like   *model.Sample // the sample the next one is compacted against

	ck checkpoint
}

// kept is one kept sample: its number in the archive, and whether a session began since
// the kept sample before it (a break: no rate across it).
type kept struct {
	s    model.Sample
	n    int
	brk  bool
	cost int64
}

type checkpoint struct {
	kept                      []kept
	bytes                     int64
	stride, seen              int
	last                      *kept
	brk                       bool
	host                      model.Host
	markers, log, unavailable int
	traces                    int
}

func newBuilder(name string, budget int64) *builder {
	if budget == 0 {
		budget = DefaultMaxSampleBytes
	}
	b := &builder{tl: &model.Timeline{Source: model.SourceInfo{Kind: model.SourceArchive, Name: name}},
		unavail: map[string]bool{}, budget: budget, stride: 1, intern: map[string]string{}}
	b.Commit()
	return b
}

// Entry takes one entry of the archive.
func (b *builder) Entry(e *Entry) error {
	tl := b.tl
	switch {
	case e.Header != nil:
		// The newest header's host facts win: a recorder restarted after a tune or an
		// upgrade describes the host as it is now.
		tl.Host = e.Header.Host
		tl.Host.SetPageSize(e.Header.Host.PageSize)
		b.brk = true
	case e.Sample != nil:
		b.sample(e.Sample)
	case e.Marker != nil:
		tl.Markers = append(tl.Markers, *e.Marker)
	case len(e.Log) > 0:
		tl.Log.Append(e.Log...)
	case e.Trace != nil:
		tl.TraceParts = append(tl.TraceParts, *e.Trace)
	case len(e.NotAvailable) > 0:
		for _, u := range e.NotAvailable {
			if !b.unavail[u.What] {
				b.unavail[u.What] = true
				tl.NotAvailable = append(tl.NotAvailable, u)
			}
		}
	}
	return nil
}

func (b *builder) sample(s *model.Sample) {
	b.compact(s)
	k := kept{s: *s, n: b.seen, brk: b.brk && b.seen > 0, cost: sampleCost(s)}
	b.seen++
	b.brk = false
	b.like = &k.s
	if b.last != nil {
		// The newest sample was off the grid: the new one replaces it, and carries its
		// session start.
		k.brk = k.brk || b.last.brk
		b.bytes -= b.last.cost
		b.last = nil
	}
	b.bytes += k.cost
	if k.n%b.stride != 0 {
		b.last = &k
		return
	}
	b.kept = append(b.kept, k)
	for b.budget > 0 && b.bytes > b.budget && len(b.kept) > 2 {
		b.thin()
	}
}

// thin doubles the stride: of the kept samples, those off the new grid go, each handing its
// session start to the next that stays. The newest kept sample stays (as last) until a newer
// one comes.
func (b *builder) thin() {
	b.stride *= 2
	out := b.kept[:0]
	carry := false
	n := len(b.kept)
	var newest kept
	for i, k := range b.kept {
		k.brk = k.brk || carry
		carry = false
		switch {
		case k.n%b.stride == 0:
			out = append(out, k)
		case i == n-1 && b.last == nil:
			newest = k
			b.last = &newest
		default:
			carry = k.brk
			b.bytes -= k.cost
		}
	}
	if carry && b.last != nil {
		l := *b.last // the checkpoint may hold the old one
		l.brk = true
		b.last = &l
	}
	clear(b.kept[len(out):]) // let the dropped samples go
	b.kept = out
}

// Commit makes the state a checkpoint: the member read since the last one ended intact.
func (b *builder) Commit() {
	b.ck.kept = append(b.ck.kept[:0], b.kept...)
	b.ck.bytes, b.ck.stride, b.ck.seen, b.ck.last, b.ck.brk = b.bytes, b.stride, b.seen, b.last, b.brk
	b.ck.host = b.tl.Host
	b.ck.markers, b.ck.log, b.ck.unavailable = len(b.tl.Markers), b.tl.Log.Len(), len(b.tl.NotAvailable)
	b.ck.traces = len(b.tl.TraceParts)
}

// Rollback forgets every entry since the last Commit: their member failed its check.
func (b *builder) Rollback() {
	clear(b.kept)
	b.kept = append(b.kept[:0], b.ck.kept...)
	b.bytes, b.stride, b.seen, b.last, b.brk = b.ck.bytes, b.ck.stride, b.ck.seen, b.ck.last, b.ck.brk
	b.tl.Host = b.ck.host
	b.tl.Markers = b.tl.Markers[:b.ck.markers]
	b.tl.Log.Truncate(b.ck.log)
	b.tl.TraceParts = b.tl.TraceParts[:b.ck.traces]
	for _, u := range b.tl.NotAvailable[b.ck.unavailable:] {
		delete(b.unavail, u.What)
	}
	b.tl.NotAvailable = b.tl.NotAvailable[:b.ck.unavailable]
	b.like = nil
}

// finish lays the kept samples out as the Timeline's: a break at each session start after
// the first sample, the markers placed, one phase segment per marker-delimited stretch.
func (b *builder) finish() *model.Timeline {
	tl := b.tl
	all := b.kept
	if b.last != nil {
		all = append(all, *b.last)
	}
	b.ck = checkpoint{}
	if len(all) > 0 {
		tl.Samples = make([]model.Sample, len(all))
	}
	for i := range all {
		tl.Samples[i] = all[i].s
		// No rates across a session boundary: a restarted recorder may follow a reboot,
		// after which every counter restarted from zero.
		if all[i].brk && i > 0 {
			tl.Breaks = append(tl.Breaks, i)
		}
	}
	if b.stride > 1 {
		tl.NotAvailable = append(tl.NotAvailable, model.Unavailable{What: tl.Source.Name + " (samples kept)",
			Why: ThinNote(len(all), b.seen, b.stride, b.budget, tl.Samples)})
	}
	b.kept, b.last = nil, nil
	placeMarkers(tl)
	tl.Segments = phaseSegments(tl)
	tl.Trace = model.MergeTraces(tl.TraceParts)
	return tl
}

// ThinNote says what a thinned recording kept.
func ThinNote(kept, seen, stride int, budget int64, samples []model.Sample) string {
	every := ""
	if n := len(samples); n > 2 && !samples[0].Time.IsZero() && !samples[n-1].Time.IsZero() {
		every = fmt.Sprintf(", about %s apart", (samples[n-1].Time.Sub(samples[0].Time) / time.Duration(n-1)).Round(time.Second))
	}
	return fmt.Sprintf("kept %d of %d samples (one in %d and the last%s) within the %d MiB the samples of a recording may hold: rates are over the kept intervals; first and last values and counter growth are exact",
		kept, seen, stride, every, budget>>20)
}

// compact makes s share what it repeats of the sample before it: counter name lists and
// their indexes (kernel.Counters.ShareLayout), and names (interned).
func (b *builder) compact(s *model.Sample) {
	p := b.like
	if p == nil {
		p = &model.Sample{}
	}
	s.Source = b.str(s.Source)
	if s.MemInfo != nil {
		s.MemInfo.ShareLayout(p.MemInfo)
	}
	if s.VMStat != nil {
		s.VMStat.ShareLayout(p.VMStat)
	}
	if s.Conntrack != nil {
		s.Conntrack.ShareLayout(p.Conntrack)
	}
	for i := range s.Buddy {
		s.Buddy[i].Zone = b.str(s.Buddy[i].Zone)
	}
	for i := range s.Zones {
		z := &s.Zones[i]
		z.Name = b.str(z.Name)
		var like *kernel.Counters
		if i < len(p.Zones) && p.Zones[i].Node == z.Node && p.Zones[i].Name == z.Name {
			like = &p.Zones[i].Fields
		}
		z.Fields.ShareLayout(like)
	}
	for i := range s.NetDev {
		d := &s.NetDev[i]
		d.Name = b.str(d.Name)
		var like *kernel.Counters
		if i < len(p.NetDev) {
			like = &p.NetDev[i].Counters
		} else if len(p.NetDev) > 0 {
			like = &p.NetDev[0].Counters // every interface has the same 16 columns
		}
		if !d.Counters.ShareLayout(like) && i > 0 {
			d.Counters.ShareLayout(&s.NetDev[0].Counters)
		}
	}
	b.groups(s.NetStat, p.NetStat)
	b.groups(s.SockStat, p.SockStat)
	for i := range s.Protocols {
		s.Protocols[i].Name = b.str(s.Protocols[i].Name)
		s.Protocols[i].Pressure = b.str(s.Protocols[i].Pressure)
		s.Protocols[i].Module = b.str(s.Protocols[i].Module)
	}
	for i := range s.PSI {
		s.PSI[i].Resource = b.str(s.PSI[i].Resource)
	}
	if s.Stat != nil {
		var sc, si *kernel.Counters
		if p.Stat != nil {
			sc, si = &p.Stat.Scalars, &p.Stat.SoftIRQ
		}
		s.Stat.Scalars.ShareLayout(sc)
		s.Stat.SoftIRQ.ShareLayout(si)
	}
	if s.Interrupts != nil {
		in := s.Interrupts
		if p.Interrupts != nil && equalStrings(in.CPUs, p.Interrupts.CPUs) {
			in.CPUs = p.Interrupts.CPUs
		}
		for i := range in.Lines {
			in.Lines[i].Name = b.str(in.Lines[i].Name)
			in.Lines[i].Desc = b.str(in.Lines[i].Desc)
		}
	}
	for i := range s.Threads {
		s.Threads[i].Comm = b.str(s.Threads[i].Comm)
		s.Threads[i].State = b.str(s.Threads[i].State)
	}
	for i := range s.NICStats {
		n := &s.NICStats[i]
		n.Name = b.str(n.Name)
		n.StatsErr = b.str(n.StatsErr)
		n.RingErr = b.str(n.RingErr)
		if n.Stats == nil {
			continue
		}
		var like *kernel.Counters
		if i < len(p.NICStats) && p.NICStats[i].Name == n.Name {
			like = p.NICStats[i].Stats
		}
		if !n.Stats.ShareLayout(like) && i > 0 && s.NICStats[i-1].Stats != nil {
			n.Stats.ShareLayout(s.NICStats[i-1].Stats) // veths share one driver's names
		}
	}
}

func (b *builder) groups(g, like kernel.Groups) {
	for i := range g {
		g[i].Name = b.str(g[i].Name)
		var l *kernel.Counters
		if i < len(like) && like[i].Name == g[i].Name {
			l = &like[i].Counters
		}
		g[i].Counters.ShareLayout(l)
	}
}

// str interns s; the table is bounded by what a host names (interfaces, zones, IRQs,
// threads), and stops growing past maxInterned.
func (b *builder) str(s string) string {
	if s == "" {
		return s
	}
	if v, ok := b.intern[s]; ok {
		return v
	}
	if len(b.intern) < maxInterned {
		b.intern[s] = s
	}
	return s
}

const maxInterned = 1 << 16

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// sampleCost estimates the bytes a compacted sample holds: eight per value, and the headers
// of the slices and structs that hold them. Shared name lists and indexes are not counted.
func sampleCost(s *model.Sample) int64 {
	const word = 8
	n := int64(512) // the Sample struct and its slice headers
	counters := func(c *kernel.Counters) {
		if c != nil {
			n += 72 + word*int64(c.Len())
		}
	}
	counters(s.MemInfo)
	counters(s.VMStat)
	counters(s.Conntrack)
	for i := range s.Buddy {
		n += 64 + word*int64(len(s.Buddy[i].Free))
	}
	for i := range s.Zones {
		n += 96 + word*int64(len(s.Zones[i].Protection))
		counters(&s.Zones[i].Fields)
	}
	if s.PageTypes != nil {
		n += 4096 // rare (record --pagetypeinfo): a flat guess
	}
	for i := range s.NetDev {
		n += 24
		counters(&s.NetDev[i].Counters)
	}
	for _, g := range [2]kernel.Groups{s.NetStat, s.SockStat} {
		for i := range g {
			n += 24
			counters(&g[i].Counters)
		}
	}
	n += int64(len(s.Protocols)) * 96
	n += int64(len(s.Softnet)) * 104
	n += int64(len(s.PSI)) * 96
	if s.Stat != nil {
		n += 128 + int64(len(s.Stat.PerCPU))*96
		counters(&s.Stat.Scalars)
		counters(&s.Stat.SoftIRQ)
	}
	if s.Interrupts != nil {
		for i := range s.Interrupts.Lines {
			n += 64 + word*int64(len(s.Interrupts.Lines[i].PerCPU))
		}
	}
	n += int64(len(s.Threads)) * 96
	for i := range s.NICStats {
		n += 96
		counters(s.NICStats[i].Stats)
		if s.NICStats[i].Ring != nil {
			n += 64
		}
	}
	if s.Sockets != nil {
		n += 256 + int64(len(s.Sockets.ByState))*96
	}
	n += int64(len(s.SocketList)) * 256
	n += int64(len(s.Rates)) * 48 // pasted rows only: derived rates come later, for kept samples
	return n
}
