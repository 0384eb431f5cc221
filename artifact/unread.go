package artifact

import "strings"

// Lines that hold numbers of the kind headroom reads, in a format no reader knows yet
// (issue 29 item 4): a row of a table another tool printed, counters flattened onto one
// line by a web page, "name: value" pairs of an unknown command. Counted as prose they made
// a paste of nothing but such lines exit 3 ("nothing ... is evidence"), as if the reporter
// had written only sentences. They are listed as unparsed instead, with what they hold, so
// the report says which lines it could not read and every rule that would have needed
// them says "not checked". Exit 3 stays for empty, binary and evidence-free text.

// unreadEvidence says why line t looks like unread output: at least three "name: number"
// (or "name=number") pairs, eight numbers or more, or a row of at least four tokens of which
// at least three in five are numbers. A sentence states a number or two among words; output lists them.
func unreadEvidence(t string) (string, bool) {
	fs := strings.Fields(t)
	if len(fs) < 3 {
		return "", false
	}
	nums, pairs := 0, 0
	for k, f := range fs {
		if isNumberToken(f) {
			nums++
			if k > 0 && isPairName(fs[k-1]) {
				pairs++ // "errors: 21"
			}
			continue
		}
		if i := strings.IndexAny(f, ":="); i > 0 && i < len(f)-1 && isNumberToken(f[i+1:]) && isPairName(f[:i+1]) {
			pairs++ // "errors:21", "rx_fifo=3"
		}
	}
	switch {
	case pairs >= 3:
		return "name: value counters in a form headroom does not read (output flattened onto one line, or an unknown tool's)", true
	case nums >= 8:
		return "more numbers than a sentence states (output flattened onto one line, or an unknown tool's)", true
	case len(fs) >= 4 && nums >= 4 && nums*5 >= len(fs)*3:
		return "rows of numbers headroom does not read (a table of an unknown tool, or a known one re-printed)", true
	}
	return "", false
}

// isPairName: a counter's name followed by its separator ("errors:", "rx_fifo=", "RX-OK:"):
// letters, digits, '_', '-', '.', '(' ')' and '/', starting with a letter.
func isPairName(f string) bool {
	if len(f) < 2 || (f[len(f)-1] != ':' && f[len(f)-1] != '=') {
		return false
	}
	f = f[:len(f)-1]
	c := f[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return false
	}
	for i := 1; i < len(f); i++ {
		c := f[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_-.()/", c) >= 0) {
			return false
		}
	}
	return true
}

// isNumberToken: a decimal number, possibly signed, with a decimal point, digit grouping
// commas, a unit (kB, K, M, G, %, B) or surrounding punctuation ("(2.2", "21,", "3.4)").
func isNumberToken(f string) bool {
	f = strings.Trim(f, "()[],;")
	f = strings.TrimPrefix(f, "-")
	for _, u := range []string{"kB", "KB", "KiB", "MiB", "GiB", "K", "M", "G", "B", "%"} {
		if strings.HasSuffix(f, u) && len(f) > len(u) {
			f = f[:len(f)-len(u)]
			break
		}
	}
	if f == "" || f[0] < '0' || f[0] > '9' {
		return false
	}
	dots := 0
	for i := 0; i < len(f); i++ {
		switch c := f[i]; {
		case c >= '0' && c <= '9':
		case c == '.':
			dots++
		case c == ',':
		default:
			return false
		}
	}
	return dots <= 1
}

// unparsedUnread lists line i as unread evidence, extending the entry of the line above when
// it was listed for the same reason (the rows of one table are one entry). The line stays
// among the prose lines whose stated numbers stated.go reads ("Max In: 1896.2 Mb/s" in seed
// 004's MRTG summary), without being counted as prose.
func (d *doc) unparsedUnread(i int, why string) {
	no := d.ls[i].No
	if len(d.proseLines) < statedMaxLines {
		d.proseLines = append(d.proseLines, proseLine{no: no, text: d.ls[i].Text})
	}
	if n := len(d.tl.Unparsed); n > 0 && d.tl.Unparsed[n-1].Why == why && d.tl.Unparsed[n-1].LastLine == no-1 {
		d.tl.Unparsed[n-1].LastLine = no
		return
	}
	d.unparsed(i, i, why)
}
