package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// uncommentDataLines: a program's source keeps a host's output as an example in its
// comments: Mesos's port_mapping.cpp has "// $ cat /proc/net/sockstat" and the file's lines
// each behind "// " (corpus 7355), a Datadog check's Python has `conntrack -S`'s per-CPU rows
// behind "# " (7349). A run of two or more lines behind the same indentation and comment
// marker loses the marker when a line of it is a host's output: a kernel record's stamp, a
// counter "name: number", sockstat's "TCP: inuse N", conntrack's "cpu=N found=N". Behind
// '#' only the stamped records and conntrack's rows are taken, and a run is of them alone:
// a '#' line is as often a root prompt, a heading ("# Sample output:") or a disabled
// setting ("# vm.min_free_kbytes = 65536" is not the host's). A line keeps its number.
func uncommentDataLines(text string) string {
	if !strings.Contains(text, "// ") && !strings.Contains(text, "# cpu=") && !strings.Contains(text, "# [") {
		return text
	}
	type cut struct{ start, end int } // the marker's bytes, to drop
	var out []cut
	var run []cut
	runPrefix, runData := "", false
	flush := func() {
		if len(run) >= 2 && runData {
			out = append(out, run...)
		}
		run, runPrefix, runData = run[:0], "", false
	}
	for rest := text; rest != ""; {
		pos := len(text) - len(rest)
		var line string
		line, rest = cutLine(rest)
		ind := len(line) - len(strings.TrimLeft(line, " \t"))
		body := line[ind:]
		var marker string
		switch {
		case strings.HasPrefix(body, "//"):
			marker = "//"
		case strings.HasPrefix(body, "#"):
			marker = "#"
		default:
			flush()
			continue
		}
		prefix := line[:ind] + marker
		if runPrefix != "" && prefix != runPrefix {
			flush()
		}
		inner := strings.TrimRight(body[len(marker):], "\r")
		end := ind + len(marker)
		if strings.HasPrefix(inner, " ") {
			inner, end = inner[1:], end+1
		}
		row := reCommentedRow.MatchString(inner)
		if marker == "#" && !row {
			flush() // "# Sample output:" above the rows stays a comment
			continue
		}
		runPrefix = prefix
		runData = runData || row || marker == "//" && reCommentedCounter.MatchString(inner)
		run = append(run, cut{pos + ind, pos + end})
	}
	flush()
	if len(out) == 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	last := 0
	for _, c := range out {
		b.WriteString(text[last:c.start])
		last = c.end
	}
	b.WriteString(text[last:])
	return b.String()
}

// reCommentedRow: a kernel record's stamp, or one of `conntrack -S`'s per-CPU rows.
var reCommentedRow = lazyre.New(`^(?:<\d{1,2}>)?\[\s*\d{1,10}\.\d{3,9}\]|^cpu=\d{1,4}\s+\w+=\d`)

// reCommentedCounter: a counter line of /proc ("MemFree:  123 kB", "sockets: used 1391",
// "TCP: inuse 33 orphan 0 ...", "nr_free_pages 78730").
var reCommentedCounter = lazyre.New(`^(?:[A-Za-z_][\w()]{1,40}:\s+(?:[a-z]+\s+)?\d{1,20}(?:\s|$)|[a-z]+_[a-z_]+\s+\d{1,20}\s*$)`)
