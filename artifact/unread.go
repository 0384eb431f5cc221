package artifact

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

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
//
// It runs on every line that no parser took, so it walks the fields in place: a line
// without a digit is settled by one scan, and no field slice is allocated (strings.Fields
// here was most of the parse of a 50 MB paste of prose, issue 30 item 6).
func unreadEvidence(t string) (string, bool) {
	if !hasDigit(t) {
		return "", false
	}
	nums, pairs, n := 0, 0, 0
	labelled, rate := false, false
	prev := ""
	for rest := t; ; {
		f, r, ok := nextField(rest)
		if !ok {
			break
		}
		rest = r
		n++
		if n == 1 && isPairName(f) {
			labelled = true // "sender:   200 Mbit/s, 267876 datagrams"
		}
		if n > 1 && isRateUnit(f) && isNumberToken(prev) {
			rate = true
		}
		if isNumberToken(f) {
			nums++
			if n > 1 && isPairName(prev) {
				pairs++ // "errors: 21"
			}
		} else if i := strings.IndexAny(f, ":="); i > 0 && i < len(f)-1 && isNumberToken(f[i+1:]) && isPairName(f[:i+1]) {
			pairs++ // "errors:21", "rx_fifo=3"
		}
		prev = f
	}
	if n == 1 {
		if why, ok := unreadCSVRow(t); ok {
			return why, true
		}
	}
	if n < 3 {
		return "", false
	}
	switch {
	case pairs >= 3:
		return "name: value counters in a form headroom does not read (output flattened onto one line, or an unknown tool's)", true
	case nums >= 8:
		return "more numbers than a sentence states (output flattened onto one line, or an unknown tool's)", true
	case n >= 4 && nums >= 4 && nums*5 >= n*3:
		return "rows of numbers headroom does not read (a table of an unknown tool, or a known one re-printed)", true
	case labelled && rate && nums >= 2 && n <= 8:
		// A summary row a tool printed or a reporter retyped, a label then a rate and a count
		// (corpus 519, an iperf3 UDP result: "receiver: 102 Mbit/s, 137290 received"); a
		// sentence does not start with "name:".
		return "a throughput summary headroom does not read (a tool's result line, or one retyped)", true
	}
	return "", false
}

// unreadCSVRow: a line with no blank that is a row of comma-separated values, at least four
// of them and three in five numbers ("1624430232,18211875,14057686,489037,...", g293's 6912:
// Snort's perf_monitor CSV). A sentence has blanks; a list of words has no numbers.
func unreadCSVRow(t string) (string, bool) {
	t = strings.TrimSpace(t)
	if strings.Count(t, ",") < 3 {
		return "", false
	}
	n, nums := 0, 0
	for f := range strings.SplitSeq(t, ",") {
		n++
		if isNumberToken(f) {
			nums++
		}
	}
	if nums >= 4 && nums*5 >= n*3 {
		return "rows of comma-separated numbers headroom does not read (a tool's CSV)", true
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
	for len(f) > 0 && isNumberPunct(f[0]) {
		f = f[1:]
	}
	for len(f) > 0 && isNumberPunct(f[len(f)-1]) {
		f = f[:len(f)-1]
	}
	f = strings.TrimPrefix(f, "-")
	if f == "" || f[0] < '0' || f[0] > '9' {
		return false // before the units: most tokens of a line are words
	}
	for _, u := range numberUnits {
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
	if n := len(d.tl.Unparsed); n > 0 && d.tl.Unparsed[n-1].Why == why && d.tl.Unparsed[n-1].LastLine == no-1 {
		d.keepUnreadLine(i)
		d.tl.Unparsed[n-1].LastLine = no
		return
	}
	if d.ucmd.entries >= maxUnreadEntries {
		d.keepProse(i) // past the bound the text's unread lines are prose (unreadcmd.go)
		return
	}
	d.ucmd.entries++
	d.keepUnreadLine(i)
	d.unparsed(i, i, why)
}

var numberUnits = [...]string{"kB", "KB", "KiB", "MiB", "GiB", "K", "M", "G", "B", "%"}

// isNumberPunct: what isNumberToken trims around a number ("(2.2", "21,", "3.4)").
func isNumberPunct(c byte) bool {
	return c == '(' || c == ')' || c == '[' || c == ']' || c == ',' || c == ';'
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			return true
		}
	}
	return false
}

// nextField returns the first field of s as strings.Fields splits it (on ASCII white space
// and Unicode spaces) and the rest after it, without allocating.
func nextField(s string) (field, rest string, ok bool) {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if !asciiSpace(c) {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += n
	}
	if i == len(s) {
		return "", "", false
	}
	j := i
	for j < len(s) {
		c := s[j]
		if c < utf8.RuneSelf {
			if asciiSpace(c) {
				break
			}
			j++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[j:])
		if unicode.IsSpace(r) {
			break
		}
		j += n
	}
	return s[i:j], s[j:], true
}

// isRateUnit: a network rate's unit after its number ("Mbit/s", "Gbits/sec", "Mbps",
// "kpps"), trailing punctuation ignored.
func isRateUnit(f string) bool {
	f = strings.TrimRight(f, ",;.)")
	if len(f) < 3 || len(f) > 9 {
		return false
	}
	for _, u := range rateUnits {
		if strings.EqualFold(f, u) {
			return true
		}
	}
	return false
}

var rateUnits = []string{"bit/s", "kbit/s", "mbit/s", "gbit/s", "bits/sec", "kbits/sec", "mbits/sec", "gbits/sec",
	"bps", "kbps", "mbps", "gbps", "pps", "kpps", "mpps"}
