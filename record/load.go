package record

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"headroom/model"
)

// IsArchive reports whether path names a recording by its extension (.jsonl.gz).
func IsArchive(path string) bool { return strings.HasSuffix(path, ".jsonl.gz") }

// Load reads one archive file into a Timeline: host facts from its header, the samples, a
// break (model.Timeline.Breaks) at each session after the first, the markers placed at the
// first sample at or after their time, one phase segment per marker-delimited stretch, and
// the kernel log. A torn tail is reported in NotAvailable, not as an error. Rates and the
// events of the kernel log are derived by input.Finish, as for every input.
func Load(path string) (*model.Timeline, error) {
	tl, _, err := LoadStats(path)
	return tl, err
}

// LoadStats is Load that also returns what reading found.
func LoadStats(path string) (*model.Timeline, ReadStats, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, ReadStats{}, err
	}
	defer f.Close()
	return FromReader(f, filepath.Base(path))
}

// FromReader reads an archive from r; name is the source name of the timeline.
func FromReader(r io.Reader, name string) (*model.Timeline, ReadStats, error) {
	return FromReaderLimits(r, name, Limits{})
}

// FromReaderLimits is FromReader within lim; what the limits dropped is said in
// NotAvailable.
func FromReaderLimits(r io.Reader, name string, lim Limits) (*model.Timeline, ReadStats, error) {
	b := newBuilder(name)
	st, err := ReadLimits(r, lim, b.add)
	if err != nil {
		return nil, st, fmt.Errorf("%s: %w", name, err)
	}
	tl := b.finish()
	if st.Truncated {
		tl.NotAvailable = append(tl.NotAvailable, model.Unavailable{What: name + " (end of the recording)", Why: st.TruncatedWhy})
	}
	if st.Skipped > 0 {
		why := fmt.Sprintf("%d lines skipped (not JSON, or written by a newer headroom)", st.Skipped)
		if st.SkippedLong > 0 {
			why = fmt.Sprintf("%d lines skipped (%d longer than %d MiB, the rest not JSON or written by a newer headroom)", st.Skipped, st.SkippedLong, max(lim.MaxLineBytes, DefaultMaxLineBytes)>>20)
		}
		tl.NotAvailable = append(tl.NotAvailable, model.Unavailable{What: name, Why: why})
	}
	if st.LogSkipped > 0 {
		tl.NotAvailable = append(tl.NotAvailable, model.Unavailable{What: name + " (kernel log)",
			Why: fmt.Sprintf("%d kernel log lines skipped after the first %d MiB of log (the most headroom keeps)", st.LogSkipped, lim.MaxLogBytes>>20)})
	}
	if st.Duplicates > 0 {
		tl.NotAvailable = append(tl.NotAvailable, model.Unavailable{What: name,
			Why: fmt.Sprintf("%d duplicated lines read once (%s): the file was copied or replayed wrongly", st.Duplicates, st.FirstDuplicate)})
	}
	return tl, st, nil
}

type builder struct {
	tl       *model.Timeline
	sessions []int // index of the first sample of each session
	unavail  map[string]bool
}

func newBuilder(name string) *builder {
	return &builder{tl: &model.Timeline{Source: model.SourceInfo{Kind: model.SourceArchive, Name: name}}, unavail: map[string]bool{}}
}

func (b *builder) add(e *Entry) error {
	tl := b.tl
	switch {
	case e.Header != nil:
		// The newest header's host facts win: a recorder restarted after a tune or an
		// upgrade describes the host as it is now.
		tl.Host = e.Header.Host
		tl.Host.SetPageSize(e.Header.Host.PageSize)
		b.sessions = append(b.sessions, len(tl.Samples))
	case e.Sample != nil:
		tl.Samples = append(tl.Samples, *e.Sample)
	case e.Marker != nil:
		tl.Markers = append(tl.Markers, *e.Marker)
	case len(e.Log) > 0:
		tl.Log = append(tl.Log, e.Log...)
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

func (b *builder) finish() *model.Timeline {
	tl := b.tl
	// No rates across a session boundary: a restarted recorder may follow a reboot, after
	// which every counter restarted from zero.
	for _, i := range b.sessions {
		if i > 0 && i < len(tl.Samples) && !slices.Contains(tl.Breaks, i) {
			tl.Breaks = append(tl.Breaks, i)
		}
	}
	placeMarkers(tl)
	tl.Segments = phaseSegments(tl)
	tl.Trace = model.MergeTraces(tl.TraceParts)
	return tl
}

// placeMarkers sorts the markers by time and sets each Index to the first sample at or
// after it (len(Samples) when none is).
func placeMarkers(tl *model.Timeline) {
	sort.SliceStable(tl.Markers, func(i, j int) bool { return tl.Markers[i].Time.Before(tl.Markers[j].Time) })
	for k := range tl.Markers {
		m := &tl.Markers[k]
		m.Index = sort.Search(len(tl.Samples), func(i int) bool { return !tl.Samples[i].Time.Before(m.Time) })
	}
}

// phaseSegments cuts the samples at the markers: "before <first marker>" when samples
// precede it, then one segment per marker up to the next. Rules that compare phases
// (kernel-time-growth) compare these.
func phaseSegments(tl *model.Timeline) []model.Segment {
	var out []model.Segment
	n := len(tl.Samples)
	if len(tl.Markers) == 0 || n == 0 {
		return nil
	}
	if first := tl.Markers[0].Index; first > 0 {
		out = append(out, model.Segment{Name: "before " + tl.Markers[0].Text, Kind: "phase", First: 0, Last: min(first, n) - 1, Label: "before " + tl.Markers[0].Text})
	}
	for k, m := range tl.Markers {
		end := n - 1
		if k+1 < len(tl.Markers) {
			end = tl.Markers[k+1].Index - 1
		}
		if m.Index >= n || m.Index > end {
			continue
		}
		out = append(out, model.Segment{Name: "phase " + m.Text, Kind: "phase", First: m.Index, Last: end, Label: m.Text})
	}
	return out
}
