package artifact

import "strings"

// The forms a paste arrives in around the text it holds (issue 29; the metamorphic test in
// internal/accuracy/forms_test.go applies each to the corpus): mail quoting, Markdown
// fences, a container's CRI prefix, HTML entities. parseLine undoes them before the
// readers see a line; each step is ruled out by the line's first byte or one byte search,
// so a syslog line pays nothing for them (stripUsualSyslog takes it before).

// stripFront removes the marks a paste puts in front of a line: mail quoting, a diff's '+',
// a code fence, an open inline code span, a rendered table's borders.
func stripFront(s string, l *Line) string {
	if len(s) > 0 && (s[0] == '`' || s[0] == ' ') {
		s = unwrapLineCode(s)
	}
	var q int
	if len(s) > 1 && s[0] == '|' {
		// "| " quoting (some mail clients quote with a bar) around mail quoting ("| >> [...]"):
		// the bar goes first so that the '>' after it is read as quoting too.
		s, q = stripBarQuote(s)
		l.Quote += q
	}
	s, q = stripQuote(s)
	l.Quote += q
	if len(s) > 4 && (s[0] == '#' || s[0] == '*') {
		s = stripLineEmphasis(s)
	}
	if q == 0 && len(s) > 0 && (s[0] <= ' ' || s[0] == '-' || s[0] == '*' || s[0] == '+' || s[0] >= '1' && s[0] <= '9' || s[0] == 0xe2) {
		s = stripOuterQuote(s, l)
	}
	s = stripDiffAdd(s)
	s = stripFence(s)
	s = stripOpenCode(s)
	return stripCellBorders(s)
}

// unwrapLineCode takes out the inline code span that is a whole line ("`> [  12.3] ...`",
// "    `Node 0, zone   Normal ...`  "): a chat client or a post that put each line of a
// paste in its own span, around whatever the line held, mail quoting included, which must
// come off after the span. The span's indent stays (stripOpenCode, which does the same for a
// span inside the quoting). A line with a second pair (`cmd` and `arg` in a sentence) keeps
// its backticks.
func unwrapLineCode(s string) string {
	i := 0
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if i == len(s) || s[i] != '`' {
		return s
	}
	// One backtick or two ("``RX errors 0``", a span around a line that was one already,
	// CommonMark 6.1), the same run closing it and nothing after it.
	n := 1
	if i+1 < len(s) && s[i+1] == '`' {
		n = 2
	}
	t := strings.TrimRight(s, " \t")
	if len(t) < i+2*n+1 || t[len(t)-n:] != "``"[:n] {
		return s
	}
	inner := t[i+n : len(t)-n]
	if strings.IndexByte(inner, '`') >= 0 {
		return s
	}
	return s[:i] + inner
}

// htmlEntities are the entities a page's source or an HTML mail archive writes for the
// characters that kernel logs and command output hold: "&gt; " quoting, "&lt;4&gt;[ 12.3]"
// priorities, "users:((&quot;nginx&quot;", "&amp;" in a URL's query, "&nbsp;" runs.
var htmlEntities = [...]struct{ name, char string }{
	{"&gt;", ">"}, {"&lt;", "<"}, {"&amp;", "&"}, {"&quot;", "\""}, {"&#39;", "'"},
	{"&#x27;", "'"}, {"&#34;", "\""}, {"&#62;", ">"}, {"&#60;", "<"}, {"&nbsp;", " "},
}

// entityStart are the bytes that follow the '&' of an entity of htmlEntities: an "&&" or
// "& " is ruled out without comparing it with each of them.
var entityStart = func() (t [256]bool) {
	for _, e := range htmlEntities {
		t[e.name[1]] = true
	}
	return t
}()

// unescapeHTML replaces the entities of htmlEntities in s, and reports whether it replaced
// any. A URL is left as written ("https://host/?a=1&gt;2" is a link's text, and its
// "&amp;" is how its page wrote it): an entity inside a word that holds "://" stays. A line
// without '&' costs one byte search.
func unescapeHTML(s string) (string, bool) {
	amp := strings.IndexByte(s, '&')
	if amp < 0 {
		return s, false
	}
	var b strings.Builder
	last, changed := 0, false
	for i := amp; i < len(s); i++ {
		if s[i] != '&' || i+1 < len(s) && !entityStart[s[i+1]] {
			continue
		}
		for _, e := range htmlEntities {
			if !strings.HasPrefix(s[i:], e.name) || inURL(s, i) {
				continue
			}
			if !changed {
				b.Grow(len(s))
				changed = true
			}
			b.WriteString(s[last:i])
			b.WriteString(e.char)
			last = i + len(e.name)
			i = last - 1
			break
		}
	}
	if !changed {
		return s, false
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// inURL reports whether s[i] is inside a word that holds "://".
func inURL(s string, i int) bool {
	w := strings.LastIndexAny(s[:i], " \t\"'<>(") + 1
	return strings.Contains(s[w:i], "://")
}

// stripListMarker removes a list item's marker ("- ", "* ", "• ", "1. ", "2) ") when a
// word follows it. A bulleted page or a numbered step puts one before a log line or a row
// of command output; no kernel or tool output starts a line with a dash, a star or a
// number and a dot followed by a space and a word. "- " before white space, "-1", "--- ",
// "*4kB" and "1. 2" (a number) keep theirs.
func stripListMarker(s string) string {
	if len(s) < 4 {
		return s
	}
	n := 0
	switch c := s[0]; {
	case c == '-' || c == '*' || c == '+':
		n = 1
	case c == 0xe2 && strings.HasPrefix(s, "•"):
		n = len("•")
	case c >= '1' && c <= '9':
		for n < 3 && n < len(s) && isDigit(s[n]) {
			n++
		}
		if n == len(s) || s[n] != '.' && s[n] != ')' {
			return s
		}
		n++
	default:
		return s
	}
	if n+1 >= len(s) || s[n] != ' ' {
		return s
	}
	if c := s[n+1]; c == ' ' || c == '\t' || isDigit(s[0]) && isDigit(c) {
		return s
	}
	return s[n+1:]
}

// stripOuterQuote removes mail quoting that a Markdown code block's indent or a list item's
// marker put in front of ("    > [  624.86] ...", "- >> Mem-Info:"): a post that pasted a
// quoted mail. Only a '>' after them is quoting; an indented line or a list item that
// holds no '>' first is left for the readers as it was.
func stripOuterQuote(s string, l *Line) string {
	t := strings.TrimLeft(s, " \t")
	if t == "" {
		return s
	}
	if t[0] != '>' {
		t = stripListMarker(t)
		if len(t) == 0 || t[0] != '>' {
			return s
		}
	}
	t, q := stripQuote(t)
	l.Quote += q
	return t
}

// bareStampLen is the length of a dmesg stamp without its brackets at the start of s,
// blanks, seconds, '.', six digits and the space after them ("  123.456789 "), 0 when s
// does not start with one: printk's "[%5lu.%06lu] " (kernel/printk/printk.c print_time)
// without the brackets.
func bareStampLen(s string) int {
	i := 0
	for i < len(s) && s[i] == ' ' {
		i++
	}
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j == i || j-i > 10 || j+8 > len(s) || s[j] != '.' || !isDigits(s[j+1:j+7]) || s[j+7] != ' ' {
		return 0
	}
	return j + 8
}

// stripHTMLLineTags removes the tags a page's source puts at a line's ends around a paste:
// "<br>" (or "<br/>", "<br />") ending each line of a forum post or an HTML mail, and the
// "<pre>" ("<pre><code>") that opens the paste on its first line and the "</pre>" that
// closes it on its last. A kernel record or a tool's row neither starts with "<pre>" nor
// ends with "<br>"; the caller tests the first and last byte first.
func stripHTMLLineTags(s string) string {
	if s[0] == '<' && len(s) > 5 && (s[1] == 'p' || s[1] == 'P') {
		for _, t := range [...]string{"<pre><code>", "<pre>", "<PRE>"} {
			if strings.HasPrefix(s, t) {
				s = s[len(t):]
				break
			}
		}
	}
	if n := len(s); n >= 4 && s[n-1] == '>' {
		for _, t := range [...]string{"<br>", "<br/>", "<br />", "<BR>", "</code></pre>", "</pre>", "</PRE>"} {
			if strings.HasSuffix(s, t) {
				return s[:n-len(t)]
			}
		}
	}
	return s
}

// stripBarQuote removes the "| " that some mail clients and forums quote a line with; a
// Markdown or ASCII table's row, which ends with a bar too, keeps its own.
func stripBarQuote(s string) (string, int) {
	t := strings.TrimRight(s, " \t")
	if t == "|" {
		return "", 1 // an empty line of the quote
	}
	if s[1] != ' ' || strings.HasSuffix(t, "|") {
		return s, 0
	}
	return s[2:], 1
}

// stripLineEmphasis takes off the Markdown a report puts around its key log line: a
// heading ("### [  812.3] nginx invoked oom-killer: ...", one to six '#') or strong
// emphasis around the whole line ("**Jan  2 03:04:05 web01 kernel: Out of memory: ...**",
// "**Node 0 Normal free:124kB min:10088kB ...**"). Only around what reads as a log line or
// a show_mem line: a heading or a bold line of prose stays as written (a title is read as
// one: titleAt), and uWSGI's "*** ... ***" banner keeps its stars.
func stripLineEmphasis(s string) string {
	var inner string
	switch s[0] {
	case '#':
		i := 0
		for i < len(s) && i < 7 && s[i] == '#' {
			i++
		}
		if i > 6 || i+1 >= len(s) || s[i] != ' ' {
			return s
		}
		inner = s[i+1:]
	case '*':
		t := strings.TrimRight(s, " \t")
		n := len(t)
		if n < 6 || t[1] != '*' || t[2] == '*' || t[2] == ' ' || t[n-2:] != "**" || t[n-3] == '*' || t[n-3] == ' ' {
			return s
		}
		inner = t[2 : n-2]
		if strings.Contains(inner, "**") {
			return s
		}
	default:
		return s
	}
	// A '[' must open a dmesg stamp: "# [ -f /etc/x ] && ..." is a shell test at a root
	// prompt.
	if inner[0] == '[' && !dmesgStampAt(inner) {
		return s
	}
	if startsLogPrefix(inner) || showMemKind(strings.TrimSpace(inner)) != "" {
		return inner
	}
	return s
}

// forumCaption reports whether t, a trimmed line, is the caption a forum engine renders
// above a code or spoiler box, copied with the box's text: phpBB 3's "Code: Select all"
// (prosilver's codebox, "{L_CODE}{L_COLON} {L_SELECT_ALL_CODE}"), phpBB 2's, vBulletin's and
// XenForo's "Code:", SMF's and ElkArte's "Code: [Select]" (the codeheader, "$txt['code']:
// $txt['code_select']"), Invision's "Spoiler" and "Code" headers. Like a fence it only
// delimits; a sentence that starts "Code: ..." is longer than these.
func forumCaption(t string) bool {
	if len(t) < 4 || len(t) > len("Code: [Select all]") {
		return false
	}
	switch strings.ToLower(t) {
	case "code", "code:", "code: select all", "code: [select all]", "code: [select]", "code:select all",
		"spoiler", "spoiler:", "quote:":
		return true
	}
	return false
}
