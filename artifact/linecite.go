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
			continue
		}
		if last, err := strconv.Atoi(m[2]); err == nil && last >= first && !strings.Contains(src, StatedMark) {
			*spans = append(*spans, model.Unparsed{FirstLine: first, LastLine: last})
		}
	}
}

// creditCited moves the cited prose and other programs' log lines of a to read.
func (d *doc) creditCited(a *model.LineAccount) {
	var spans []model.Unparsed
	for _, ar := range d.tl.Artifacts {
		if ar.Kind != KindStated && ar.Kind != KindKernelLog && ar.FirstLine > 0 && ar.LastLine >= ar.FirstLine {
			spans = append(spans, model.Unparsed{FirstLine: ar.FirstLine, LastLine: ar.LastLine})
		}
	}
	d.citeSources(&spans)
	if len(d.cited) == 0 && len(spans) == 0 {
		return
	}
	taken := func(ls []proseLine, skip map[int]bool) int {
		nos := make([]int, 0, len(ls))
		for _, p := range ls {
			if !skip[p.no] {
				nos = append(nos, p.no)
			}
		}
		slices.Sort(nos)
		nos = slices.Compact(nos)
		listed, inSpan := unparsedLines(d.tl.Unparsed), unparsedLines(spans)
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

// markNotProse records a kept prose line that is not counted as prose.
func (d *doc) markNotProse(no int) {
	if d.notProse == nil {
		d.notProse = map[int]bool{}
	}
	d.notProse[no] = true
}
