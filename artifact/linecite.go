package artifact

import (
	"reflect"
	"slices"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// fix50a: the line account counts a line a reader took evidence from as read. Prose and other
// programs' log lines are counted as such when the segmenter passes them; a reader of prose
// (stated.go's statements, the container states kubectl describe prints, a platform's kill
// notice) may then take evidence from one, and a finding cites it ("[container state at line
// 25]", "line 15 (stated in the text)"). A row saying "0 of 44 read" beside a finding citing
// line 25 contradicts itself: account moves each such line from prose (or other programs'
// log) to read, so the row's counts still sum to the total and every cited line is read.
//
// The lines a reader took evidence from are: the lines a statement was read on (cite, from
// stated.go's add and the program's own log lines), the single lines and ranges the sources
// of the timeline's samples, events, settings and other records name (a stated source's
// "lines 3-25" is the span of several statements, not every line in it: only its single
// lines count), and the ranges of the artifacts other than the stated ones (a stated
// artifact spans its statements) and the kernel log's (read already). A line listed as
// unread stays unread.

// cite records line no as one a reader took evidence from.
func (d *doc) cite(no int) {
	if no <= 0 {
		return
	}
	if d.cited == nil {
		d.cited = map[int]bool{}
	}
	d.cited[no] = true
}

// reSourceLine: a line or a range of lines a source names ("line 25", "kubelet log line
// 21", "lines 8-17 (/proc/net/udp)").
var reSourceLine = lazyre.New(`\blines? (\d+)(?:-(\d+))?\b`)

// citeSources cites the lines every record's Source of the timeline names, by reflection
// over the timeline's slices of records (the kernel log excepted: its records are read).
func (d *doc) citeSources(spans *[]model.Unparsed) {
	v := reflect.ValueOf(d.tl).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if f.Kind() != reflect.Slice || v.Type().Field(i).Name == "Log" {
			continue
		}
		for j := 0; j < f.Len(); j++ {
			e := f.Index(j)
			if e.Kind() == reflect.Pointer {
				if e.IsNil() {
					continue
				}
				e = e.Elem()
			}
			if e.Kind() != reflect.Struct {
				continue
			}
			if s := e.FieldByName("Source"); s.IsValid() && s.Kind() == reflect.String {
				d.citeSource(s.String(), spans)
			}
		}
	}
}

// citeSource cites the line a source names, or its range unless the source is a
// statement's span (StatedMark).
func (d *doc) citeSource(src string, spans *[]model.Unparsed) {
	if !strings.Contains(src, "line") {
		return
	}
	for _, m := range reSourceLine.FindAllStringSubmatch(src, -1) {
		first, err := strconv.Atoi(m[1])
		if err != nil {
			continue
		}
		if m[2] == "" {
			d.cite(first)
			if first > 0 {
				if d.recCited == nil {
					d.recCited = map[int]bool{}
				}
				d.recCited[first] = true
			}
			continue
		}
		if last, err := strconv.Atoi(m[2]); err == nil && last >= first && !strings.Contains(src, StatedMark) {
			*spans = append(*spans, model.Unparsed{FirstLine: first, LastLine: last})
		}
	}
}

// creditCited moves the cited prose and other programs' log lines of a to read. It runs
// before a's unparsed count: a cited line that is also listed unread is read (readCitedUnread).
func (d *doc) creditCited(a *model.LineAccount) {
	var spans []model.Unparsed
	for _, ar := range d.tl.Artifacts {
		if ar.Kind != KindStated && ar.Kind != KindKernelLog && ar.FirstLine > 0 && ar.LastLine >= ar.FirstLine {
			spans = append(spans, model.Unparsed{FirstLine: ar.FirstLine, LastLine: ar.LastLine})
		}
	}
	d.citeSources(&spans)
	moved := d.readCitedUnread()
	if moved != nil {
		a.Unparsed = unparsedCount(d.tl.UnparsedLeft, a.Total)
	}
	// fix52a: a host fact read from a line (the kernel release in "Si ves algo como esto (en
	// un Kernel 2.4.23 o superior):") makes the line read, as a statement does; a line listed
	// unread stays unread (a release taken from a line no reader could read says nothing more
	// of it: corpus 1897's "~ 3K for a 2.2.28 server" is BigBlueButton's version).
	d.cite(d.tl.Host.KernelLine)
	if len(d.cited) == 0 && len(spans) == 0 {
		return
	}
	taken := func(ls []proseLine, skip map[int]bool) int {
		nos := make([]int, 0, len(ls))
		for _, p := range ls {
			if !skip[p.no] && !moved[p.no] {
				nos = append(nos, p.no)
			}
		}
		slices.Sort(nos)
		nos = slices.Compact(nos)
		left := d.tl.Unparsed
		if moved != nil {
			left = d.tl.UnparsedLeft
		}
		listed, inSpan := unparsedLines(left), unparsedLines(spans)
		n := 0
		for _, no := range nos {
			if !listed(no) && (inSpan(no) || d.cited[no]) {
				n++
			}
		}
		return n
	}
	notProse := d.notProse
	if n := min(taken(d.proseLines, notProse), a.Prose); n > 0 {
		a.Prose -= n
	}
	if n := min(taken(slices.Concat(d.otherLines, d.platformLines), nil), a.Other); n > 0 {
		a.Other -= n
	}
}

// readCitedUnread (fix52a) settles a line both listed unread and taken evidence from: a
// finding citing "[line 6]" beside "could not read lines 6-6" contradicts itself, and the
// line account cannot count it both ways. The line is read: a reader took what it proves
// (uWSGI's "listen queue ... full !!! (101/100)", the first of two flattened allocation
// failure headers, a statement in a flattened paragraph). What in it could not be read is
// kept, said as a remark in Timeline.ReadInPart with the entry's own words, and the rest of
// the entry stays unread. A line is taken evidence from when a record of the timeline names
// it as its single-line source (citeSource: an event, a sample, a setting) or when an
// artifact other than the stated aggregate spans only lines of the entry (a reader read the
// whole artifact from lines listed unread). A statement's line alone does not count: a figure stated beside a
// program's line named unread (an `xe vm-list` record's memory-static-max) is the story
// around it, and no rule's evidence cites it unless a record names it. It returns the lines
// moved.
func (d *doc) readCitedUnread() map[int]bool {
	if len(d.tl.Unparsed) == 0 {
		return nil
	}
	var nos []int
	for no := range d.recCited {
		nos = append(nos, no)
	}
	slices.Sort(nos)
	var moved map[int]bool
	var out, remarks []model.Unparsed
	for _, u := range d.tl.Unparsed {
		in := map[int]bool{}
		k, _ := slices.BinarySearch(nos, u.FirstLine)
		for ; k < len(nos) && nos[k] <= u.LastLine; k++ {
			in[nos[k]] = true
		}
		for _, ar := range d.tl.Artifacts {
			if ar.Kind != KindStated && ar.FirstLine >= u.FirstLine && ar.LastLine <= u.LastLine && ar.FirstLine > 0 && ar.LastLine >= ar.FirstLine {
				for no := ar.FirstLine; no <= ar.LastLine; no++ {
					in[no] = true
				}
			}
		}
		if len(in) == 0 {
			out = append(out, u)
			continue
		}
		if moved == nil {
			moved = map[int]bool{}
		}
		// Split u into runs of read and unread lines, in order, each keeping u's Why.
		read := make([]int, 0, len(in))
		for no := range in {
			read = append(read, no)
		}
		slices.Sort(read)
		cur := u.FirstLine
		for i := 0; i < len(read); {
			j := i
			for j+1 < len(read) && read[j+1] == read[j]+1 {
				j++
			}
			if read[i] > cur {
				out = append(out, model.Unparsed{FirstLine: cur, LastLine: read[i] - 1, Why: u.Why})
			}
			remarks = append(remarks, model.Unparsed{FirstLine: read[i], LastLine: read[j], Why: u.Why})
			for _, no := range read[i : j+1] {
				moved[no] = true
			}
			cur, i = read[j]+1, j+1
		}
		if cur <= u.LastLine {
			out = append(out, model.Unparsed{FirstLine: cur, LastLine: u.LastLine, Why: u.Why})
		}
	}
	if moved != nil {
		// Unparsed keeps every entry whole (the lines are still named with what they
		// prove, for JSON readers and the rules); the account and the text report use
		// UnparsedLeft, the entries without the lines read.
		d.tl.UnparsedLeft, d.tl.ReadInPart = out, append(d.tl.ReadInPart, remarks...)
	}
	return moved
}

// markNotProse records a kept prose line that is not counted as prose.
func (d *doc) markNotProse(no int) {
	if d.notProse == nil {
		d.notProse = map[int]bool{}
	}
	d.notProse[no] = true
}
