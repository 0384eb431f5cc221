package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"headroom/artifact"
	"headroom/diagnose"
	"headroom/judge"
)

// The metamorphic test of the text reader (issue 29): the held-out batches kept losing
// findings because an artifact the corpus holds arrived in a form it does not (quoted in
// mail, HTML-escaped, under another syslog prefix). Each form below is a pure function of a
// whole paste that a real paste shows; a case must tell the same story in every form: the
// must ids the original reports are reported, and a healthy case gains no warning or
// critical finding. The relation is checked against the original's own run, not the
// label, so a case headroom already misses does not count against a form.

// form is one way a real paste rewrites a text. applies says whether the form is one a
// paste of this text would show (a syslog prefix goes on kernel log lines, not on a
// vmstat table pasted alone); nil means every text.
type form struct {
	name    string
	apply   func(string) string
	applies func(string) bool
}

// eachLine applies f to every line of text, keeping the line ends.
func eachLine(text string, f func(i int, line string) string) string {
	var b strings.Builder
	b.Grow(len(text) + len(text)/8)
	i := 0
	for len(text) > 0 {
		line, rest, nl := text, "", false
		if k := strings.IndexByte(text, '\n'); k >= 0 {
			line, rest, nl = text[:k], text[k+1:], true
		}
		b.WriteString(f(i, line))
		if nl {
			b.WriteByte('\n')
		}
		text = rest
		i++
	}
	return b.String()
}

func quoteMail(text string) string {
	return eachLine(text, func(_ int, l string) string { return "> " + l })
}

func quoteMailTwice(text string) string {
	return eachLine(text, func(_ int, l string) string { return ">> " + l })
}

// quoteMailTrimmed is "> " quoting by a client that strips trailing white space: an empty
// line becomes ">" and every line loses its trailing blanks.
func quoteMailTrimmed(text string) string {
	return eachLine(text, func(_ int, l string) string { return strings.TrimRight("> "+l, " \t") })
}

func crlf(text string) string {
	return eachLine(text, func(_ int, l string) string { return l + "\r" })
}

func fenced(text string) string {
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return "```\n" + text + "```\n"
}

func indented4(text string) string {
	return eachLine(text, func(_ int, l string) string {
		if l == "" {
			return l
		}
		return "    " + l
	})
}

// bulleted is a page that rendered each line of the paste as a list item, copied back as
// text: HTML drops the white space that led the line, and the copy puts "- " before it.
func bulleted(text string) string {
	return eachLine(text, func(_ int, l string) string {
		if strings.TrimSpace(l) == "" {
			return l
		}
		return "- " + strings.TrimLeft(l, " \t")
	})
}

// numberedFirst is a paste that follows a numbered step: "1. " before its first line.
func numberedFirst(text string) string { return "1. " + text }

func htmlEscaped(text string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "'", "&#39;", "\"", "&quot;").Replace(text)
}

// nbspRuns is a web page's text copied from the browser: a run of spaces is kept by writing
// every second one as U+00A0 (&nbsp;).
func nbspRuns(text string) string {
	return eachLine(text, func(_ int, l string) string {
		var b strings.Builder
		for i := 0; i < len(l); i++ {
			if l[i] == ' ' && i > 0 && l[i-1] == ' ' {
				b.WriteString("\u00a0")
				continue
			}
			b.WriteByte(l[i])
		}
		return b.String()
	})
}

// zeroWidth is chat and wiki copy: U+200B at the start of a line and after each '=' and
// ':' where the page allowed a break.
func zeroWidth(text string) string {
	return eachLine(text, func(_ int, l string) string {
		if l == "" {
			return l
		}
		return "\u200b" + strings.NewReplacer("=", "=\u200b", ":", ":\u200b").Replace(l)
	})
}

// tabsToSpaces expands tabs to eight-column stops, as a terminal's copy does.
func tabsToSpaces(text string) string {
	return eachLine(text, func(_ int, l string) string {
		if strings.IndexByte(l, '\t') < 0 {
			return l
		}
		var b strings.Builder
		col := 0
		for _, r := range l {
			if r == '\t' {
				n := 8 - col%8
				b.WriteString(strings.Repeat(" ", n))
				col += n
				continue
			}
			b.WriteRune(r)
			col++
		}
		return b.String()
	})
}

// spacesToTabs is `unexpand -a` (an editor's "convert indentation to tabs"): a run of two
// or more spaces that ends at an eight-column tab stop becomes a tab.
func spacesToTabs(text string) string {
	return eachLine(text, func(_ int, l string) string {
		if strings.IndexByte(l, '\t') >= 0 {
			return l // columns after a tab are the terminal's; unexpand keeps such lines simple
		}
		var b strings.Builder
		col, run := 0, 0
		for i := 0; i < len(l); i++ {
			c := l[i]
			if c == ' ' {
				run++
				col++
				if col%8 == 0 {
					if run >= 2 {
						b.WriteByte('\t')
					} else {
						b.WriteByte(' ')
					}
					run = 0
				}
				continue
			}
			b.WriteString(strings.Repeat(" ", run))
			run = 0
			b.WriteByte(c)
			col++
		}
		b.WriteString(strings.Repeat(" ", run))
		return b.String()
	})
}

// proseAround is a post: a sentence before the paste, a question after it.
func proseAround(text string) string {
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return "Hi all, we see the following on one of our servers since last week:\n\n" + text +
		"\nDoes anyone know what is going on here? Any hint is appreciated, thanks.\n"
}

// criPrefixed is a container's output read with kubectl logs from the node's files: each
// line behind the CRI log prefix.
func criPrefixed(text string) string {
	return eachLine(text, func(_ int, l string) string { return "2024-01-01T00:00:00.000000000Z stdout F " + l })
}

// The syslog forms put a prefix on the lines of a kernel log that carry a dmesg stamp:
// what rsyslog, journalctl or a grep of /var/log/messages print for the same records. They
// apply to texts whose log is stamped and not already behind a syslog prefix.
func stampedLog(text string) bool {
	stamped := 0
	for _, l := range artifact.SplitLines(text) {
		if l.Syslog {
			return false
		}
		if l.UptimeUsec >= 0 && l.Quote == 0 {
			stamped++
		}
	}
	return stamped >= 3
}

// restamp rewrites each stamped line of text with f(stamp in seconds as printed, message).
func restamp(text string, f func(stamp, msg string) string) string {
	return eachLine(text, func(_ int, raw string) string {
		i := strings.IndexByte(raw, '[')
		if i < 0 || strings.TrimSpace(raw[:i]) != "" {
			return raw
		}
		j := strings.IndexByte(raw[i:], ']')
		if j < 0 {
			return raw
		}
		stamp := strings.TrimSpace(raw[i+1 : i+j])
		if !isStamp(stamp) {
			return raw
		}
		msg := strings.TrimPrefix(raw[i+j+1:], " ")
		return f(stamp, msg)
	})
}

func isStamp(s string) bool {
	dot := strings.IndexByte(s, '.')
	if dot <= 0 || dot == len(s)-1 {
		return false
	}
	for k := 0; k < len(s); k++ {
		if k != dot && (s[k] < '0' || s[k] > '9') {
			return false
		}
	}
	return true
}

func syslogDots(text string) string {
	return restamp(text, func(_, msg string) string { return "Jan  2 03:04:05 ... kernel: " + msg })
}

func syslogHostPlaceholder(text string) string {
	return restamp(text, func(_, msg string) string { return "Jan  2 03:04:05 <hostname> kernel: " + msg })
}

func journalShortISO(text string) string {
	return restamp(text, func(_, msg string) string { return "2024-01-02T03:04:05+0000 web01 kernel: " + msg })
}

func journalShortPrecise(text string) string {
	return restamp(text, func(_, msg string) string { return "Jan 02 03:04:05.123456 web01 kernel: " + msg })
}

// The journal's output modes for the same kernel records (systemd src/shared/logs-show.c:
// output_json, output_export, output_verbose, output_short with OUTPUT_SHORT_MONOTONIC):
// journald stores a kernel record with _TRANSPORT=kernel, its priority, SYSLOG_IDENTIFIER
// "kernel" and the record's own time as _SOURCE_MONOTONIC_TIMESTAMP (µs since boot,
// src/journal/journald-kmsg.c dev_kmsg_record).
func journalFields(stamp, msg string, i int) [][2]string {
	us := "0"
	if dot := strings.IndexByte(stamp, '.'); dot > 0 {
		frac := (stamp[dot+1:] + "000000")[:6]
		us = strings.TrimLeft(stamp[:dot]+frac, "0")
		if us == "" {
			us = "0"
		}
	}
	return [][2]string{{"__CURSOR", fmt.Sprintf("s=6c3f1e7a;i=%x;b=0f1e2d3c;m=%s;t=5f1;x=99", i, us)},
		{"__REALTIME_TIMESTAMP", fmt.Sprint(1704164645000000 + i)}, {"__MONOTONIC_TIMESTAMP", us},
		{"_BOOT_ID", "0f1e2d3c4b5a69788796a5b4c3d2e1f0"}, {"_TRANSPORT", "kernel"}, {"PRIORITY", "4"},
		{"SYSLOG_FACILITY", "0"}, {"SYSLOG_IDENTIFIER", "kernel"}, {"_SOURCE_MONOTONIC_TIMESTAMP", us},
		{"_HOSTNAME", "web01"}, {"MESSAGE", msg}}
}

func journalJSON(text string) string {
	i := 0
	return restamp(text, func(st, msg string) string {
		i++
		var b strings.Builder
		b.WriteByte('{')
		for k, f := range journalFields(st, msg, i) {
			if k > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%q:%s", f[0], jsonString(f[1]))
		}
		b.WriteByte('}')
		return b.String()
	})
}

func journalJSONPretty(text string) string {
	i := 0
	return restamp(text, func(st, msg string) string {
		i++
		fs := journalFields(st, msg, i)
		var b strings.Builder
		b.WriteString("{\n")
		for k, f := range fs {
			fmt.Fprintf(&b, "\t%q : %s", f[0], jsonString(f[1]))
			if k < len(fs)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString("}")
		return b.String()
	})
}

func journalExport(text string) string {
	i := 0
	return restamp(text, func(st, msg string) string {
		i++
		var b strings.Builder
		for _, f := range journalFields(st, msg, i) {
			b.WriteString(f[0] + "=" + f[1] + "\n")
		}
		return b.String() // the blank line export writes after each record
	})
}

func journalVerbose(text string) string {
	i := 0
	return restamp(text, func(st, msg string) string {
		i++
		fs := journalFields(st, msg, i)
		var b strings.Builder
		fmt.Fprintf(&b, "Tue 2024-01-02 03:04:05.%06d UTC [%s]", i%1000000, fs[0][1])
		for _, f := range fs[1:] {
			if !strings.HasPrefix(f[0], "__") {
				b.WriteString("\n    " + f[0] + "=" + f[1])
			}
		}
		return b.String()
	})
}

// journalJSONSSE and journalJSONSeq are -o json-sse ("data: " and the record, a blank line
// after it) and -o json-seq (an RS byte before the record, RFC 7464).
func journalJSONSSE(text string) string {
	return restampJSON(journalJSON(text), func(rec string) string { return "data: " + rec + "\n" })
}

func journalJSONSeq(text string) string {
	return restampJSON(journalJSON(text), func(rec string) string { return "\x1e" + rec })
}

// restampJSON rewrites each -o json record line of text with f.
func restampJSON(text string, f func(string) string) string {
	return eachLine(text, func(_ int, l string) string {
		if strings.HasPrefix(l, `{"__CURSOR"`) {
			return f(l)
		}
		return l
	})
}

func journalShortDelta(text string) string {
	return restamp(text, func(st, msg string) string { return fmt.Sprintf("[%12s <    0.000001>] web01 kernel: %s", st, msg) })
}

func journalShortMonotonic(text string) string {
	return restamp(text, func(st, msg string) string { return fmt.Sprintf("[%12s] web01 kernel: %s", st, msg) })
}

func journalCat(text string) string {
	return restamp(text, func(_, msg string) string { return msg })
}

// jsonString is s as a JSON string (what journalctl prints; Go's %q escapes differ).
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func kernelTagStamp(text string) string {
	return restamp(text, func(st, msg string) string { return fmt.Sprintf("kernel: [%12s] %s", st, msg) })
}

func kernelTagBareStamp(text string) string {
	return restamp(text, func(st, msg string) string { return fmt.Sprintf("kernel: %s %s", st, msg) })
}

// wrapProse wraps the prose lines of a text at width as a mail client does: at the last
// space before the width, the rest on the next line. A prose line is one of eight words or
// more, most of them letters only; log lines and tables are left as they are (wrapLog is
// their form).
func wrapProse(width int) func(string) string {
	return func(text string) string {
		return eachLine(text, func(_ int, l string) string {
			if !isProse(l) {
				return l
			}
			return wrapLine(l, width)
		})
	}
}

// wrapLog wraps every line of a text longer than width at the last space before it, as a
// mail client without format=flowed does to a pasted kernel log: the pieces after the first
// carry no prefix (unwrap.go joins them back).
func wrapLog(width int) func(string) string {
	return func(text string) string {
		return eachLine(text, func(_ int, l string) string { return wrapLine(l, width) })
	}
}

// wrapLine breaks l at the last space at or before width, again and again; a run without a
// space (or only blanks before it) passes the width, as mail clients let it.
func wrapLine(l string, width int) string {
	var b strings.Builder
	for len(l) > width {
		cut := strings.LastIndexByte(l[:width+1], ' ')
		if cut <= 0 || strings.TrimSpace(l[:cut]) == "" {
			break
		}
		b.WriteString(l[:cut])
		b.WriteByte('\n')
		l = l[cut+1:]
	}
	b.WriteString(l)
	return b.String()
}

func isProse(l string) bool {
	f := strings.Fields(l)
	if len(f) < 8 {
		return false
	}
	words, small := 0, 0
	for _, w := range f {
		w = strings.TrimRight(w, ".,;!?")
		ok := w != ""
		for _, r := range w {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '\'' || r == '-') {
				ok = false
				break
			}
		}
		if ok {
			words++
		}
		if functionWords[strings.ToLower(w)] {
			small++
		}
	}
	// A sentence has the small words of English; a table's header row of counter names
	// ("TcpExt: SyncookiesSent SyncookiesRecv ...") has none.
	return words*10 >= len(f)*7 && small >= 2
}

var functionWords = map[string]bool{"the": true, "a": true, "an": true, "is": true, "are": true, "was": true,
	"to": true, "of": true, "and": true, "in": true, "that": true, "it": true, "we": true, "i": true,
	"this": true, "for": true, "on": true, "with": true, "but": true, "not": true, "be": true, "have": true}

// forms are the transforms the test applies; the wrapped log forms are documented as a
// limit in docs/accuracy.md.
var forms = []form{
	{"quote-mail", quoteMail, nil},
	{"quote-mail-2", quoteMailTwice, nil},
	{"quote-mail-trimmed", quoteMailTrimmed, nil},
	{"crlf", crlf, nil},
	{"code-fence", fenced, nil},
	{"indent-4", indented4, nil},
	{"bullets", bulleted, nil},
	{"numbered-first", numberedFirst, nil},
	{"html-escaped", htmlEscaped, nil},
	{"nbsp-runs", nbspRuns, nil},
	{"zero-width", zeroWidth, nil},
	{"tabs-to-spaces", tabsToSpaces, nil},
	{"spaces-to-tabs", spacesToTabs, nil},
	{"prose-around", proseAround, nil},
	{"cri-prefix", criPrefixed, nil},
	{"syslog-dots", syslogDots, stampedLog},
	{"syslog-hostname", syslogHostPlaceholder, stampedLog},
	{"journal-short-iso", journalShortISO, stampedLog},
	{"journal-short-precise", journalShortPrecise, stampedLog},
	{"journal-short-monotonic", journalShortMonotonic, stampedLog},
	{"journal-short-delta", journalShortDelta, stampedLog},
	{"journal-cat", journalCat, stampedLog},
	{"journal-json-sse", journalJSONSSE, stampedLog},
	{"journal-json-seq", journalJSONSeq, stampedLog},
	{"journal-json", journalJSON, stampedLog},
	{"journal-json-pretty", journalJSONPretty, stampedLog},
	{"journal-export", journalExport, stampedLog},
	{"journal-verbose", journalVerbose, stampedLog},
	{"kernel-tag-stamp", kernelTagStamp, stampedLog},
	{"kernel-tag-bare-stamp", kernelTagBareStamp, stampedLog},
	{"wrap-prose-72", wrapProse(72), nil},
	{"wrap-prose-80", wrapProse(80), nil},
	{"wrap-log-72", wrapLog(72), stampedLog},
	{"wrap-log-80", wrapLog(80), stampedLog},
	// layout forms (forms10b): what a page's layout does to the lines of a paste.
	{"squashed-spaces", squashedSpaces, nil},
	{"backslash-ends", backslashEnds, nil},
	{"backslash-ends-tight", backslashEndsTight, nil},
	{"double-spaced", doubleSpaced, nil},
	{"double-spaced-quoted", doubleSpacedQuoted, nil},
	{"inline-code-lines", inlineCodeLines, nil},
	{"inline-code-indented", inlineCodeIndented, nil},
	{"flattened", flattened, nil},
	{"bbcode", bbcode, nil},
	{"jira-noformat", jiraNoformat, nil},
	{"jira-code", jiraCode, nil},
	{"discourse-quote", discourseQuote, nil},
	// line-prefix forms (forms10a)
	{"chat-header", chatHeader, nil},
	{"chat-bracket-nick", chatBracketNick, nil},
	{"irc-log", ircLog, nil},
	{"compose-logs", composeLogs, nil},
	{"kubectl-prefix", kubectlPrefix, nil},
	{"stern", stern, nil},
	{"dmesg-decode", dmesgDecode, stampedLog},
	{"dmesg-ctime", dmesgCtime, stampedLog},
	{"dmesg-human", dmesgHuman, stampedLog},
	{"gutter-bar", gutterBar, nil},
	{"gutter-dot", gutterDot, nil},
	{"gutter-zero-colon", gutterZeroColon, nil},
	{"shell-prompt", shellPrompt, nil},
	{"shell-prompt-root", shellPromptRoot, nil},
	{"details-summary", detailsSummary, nil},
	{"html-br", htmlBr, nil},
	{"html-pre", htmlPre, nil},
	// forum-page forms (h17b): what a forum engine's rendering of a code block, a
	// Markdown emphasis, a truncating tracker and a list or bar quoting leave in a copy.
	{"phpbb3-codebox", phpbbCodebox, nil},
	{"code-caption", codeCaption, nil},
	{"smf-code-select", smfCodeSelect, nil},
	{"spoiler-caption", spoilerCaption, nil},
	{"heading-first", headingFirst, firstIsLogLine},
	{"bold-first", boldFirst, firstIsLogLine},
	{"cut-last-line", cutLastLine, nil},
	{"kernel-tag", kernelTag, stampedLog},
	{"bullets-star", bulletsStar, nil},
	{"quote-bar", quoteBar, nil},
	{"gutter-tab", gutterTab, nil},
}

// The forum-page forms (h17b). A forum's code box copied from the page brings the box's
// caption as a line of its own above the code: phpBB 3's "Code: Select all" (prosilver's
// bbcode.html code_open, "{L_CODE}{L_COLON} <a ...>{L_SELECT_ALL_CODE}</a>"), phpBB 2's,
// vBulletin's and XenForo's "Code:", SMF's and ElkArte's "Code: [Select]" (the codeheader
// div, $txt['code'] ": " $txt['code_select']), Invision's "Spoiler" header over a folded
// block.
func captioned(caption string) func(string) string {
	return func(text string) string { return caption + "\n" + text }
}

var (
	phpbbCodebox   = captioned("Code: Select all")
	codeCaption    = captioned("Code:")
	smfCodeSelect  = captioned("Code: [Select]")
	spoilerCaption = captioned("Spoiler")
)

// emphasizeFirst rewrites the first non-empty line of text with f: a report that made its
// key line a Markdown heading ("### <line>") or bold ("**<line>**"). A line that is
// already markup ('#', '*') is left as it is.
func emphasizeFirst(f func(string) string) func(string) string {
	return func(text string) string {
		done := false
		return eachLine(text, func(_ int, l string) string {
			t := strings.TrimSpace(l)
			if done || t == "" {
				return l
			}
			done = true
			if t[0] == '#' || t[0] == '*' {
				return l
			}
			return f(t)
		})
	}
}

// firstIsLogLine: the text's first non-empty line is a kernel log line of its own (a dmesg
// stamp or a syslog prefix, not quoted): the line a report emphasizes.
func firstIsLogLine(text string) bool {
	for _, l := range artifact.SplitLines(text) {
		if strings.TrimSpace(l.Text) == "" && l.UptimeUsec < 0 && !l.Syslog {
			continue
		}
		return l.Quote == 0 && (l.UptimeUsec >= 0 || l.Syslog)
	}
	return false
}

var (
	headingFirst = emphasizeFirst(func(l string) string { return "### " + l })
	boldFirst    = emphasizeFirst(func(l string) string { return "**" + l + "**" })
)

// cutLastLine is a paste that a tracker's or a mail's limit cut inside its last line: the
// last non-empty line keeps its first 60% (in bytes, back to a rune's start), and nothing
// follows it.
func cutLastLine(text string) string {
	t := strings.TrimRight(text, " \t\r\n")
	k := strings.LastIndexByte(t, '\n') + 1
	last := t[k:]
	n := len(last) * 6 / 10
	for n > 0 && n < len(last) && last[n]&0xc0 == 0x80 {
		n--
	}
	return t[:k] + last[:n]
}

// kernelTag is an old rsyslog excerpt (RHEL 5/6 /var/log/messages grepped and cut to the
// tag): "kernel: " before each record, no stamp, no host.
func kernelTag(text string) string {
	return restamp(text, func(_, msg string) string { return "kernel: " + msg })
}

// bulletsStar is a Confluence or Markdown list of log lines copied back: " * " before each
// line, its own indent dropped.
func bulletsStar(text string) string {
	return eachLine(text, func(_ int, l string) string {
		if strings.TrimSpace(l) == "" {
			return l
		}
		return " * " + strings.TrimLeft(l, " \t")
	})
}

// quoteBar is the quoting of mail clients that mark a quoted line with "| " instead of
// "> " (Outlook's and some webmails' plain-text reply).
func quoteBar(text string) string {
	return eachLine(text, func(_ int, l string) string { return "| " + l })
}

// gutterTab is a code block shown as a table of two cells, the line's number and its
// text, copied from the page: the browser writes a tab between the cells.
func gutterTab(text string) string {
	return eachLine(text, func(i int, l string) string { return fmt.Sprintf("%d\t%s", i+1, l) })
}

// The line-prefix forms (forms10a): what a chat, a log multiplexer, dmesg's own options, a
// paste site's gutter, a terminal's prompt or an issue tracker's HTML put before (or after)
// each line of a paste.

// chatHeader is a message copied from Slack or Discord: the author and the time on a line
// of their own above the message's lines ("Jane Doe  12:03 PM"; Discord "jdoe — Today at
// 12:03 PM").
func chatHeader(text string) string { return "Jane Doe  12:03 PM\n" + text }

// prefixNonEmpty puts p before every line that is not empty: a chat sends no empty
// message, an IRC log has no line for one.
func prefixNonEmpty(text, p string) string {
	return eachLine(text, func(_ int, l string) string {
		if strings.TrimSpace(l) == "" {
			return l
		}
		return p + l
	})
}

// chatBracketNick is a chat client's log or copy with one message a line (Matrix/Element,
// HexChat, Slack's plain-text export): "[12:03] <nick> line".
func chatBracketNick(text string) string { return prefixNonEmpty(text, "[12:03] <jdoe> ") }

// ircLog is an IRC client's log (irssi's default "HH:MM <nick> line", weechat's copy).
func ircLog(text string) string { return prefixNonEmpty(text, "12:03 <jdoe> ") }

// composeLogs is docker compose logs: the container's name padded to the widest and " | "
// (compose v2 cmd/formatter/logs.go), on every line the container printed.
func composeLogs(text string) string {
	return eachLine(text, func(_ int, l string) string { return "netmon-1  | " + l })
}

// kubectlPrefix is kubectl logs --prefix: "[pod/NAME/CONTAINER] " on every line.
func kubectlPrefix(text string) string {
	return eachLine(text, func(_ int, l string) string { return "[pod/node-problem-detector-x2b9k/npd] " + l })
}

// stern is stern's default template "{{.PodName}} {{.ContainerName}} {{.Message}}".
func stern(text string) string {
	return eachLine(text, func(_ int, l string) string { return "node-problem-detector-x2b9k npd " + l })
}

// dmesgDecode is dmesg -x (--decode): "%-6s:%-6s: " facility and level before each record
// (util-linux sys-utils/dmesg.c print_record).
func dmesgDecode(text string) string {
	return restamp(text, func(st, msg string) string { return fmt.Sprintf("kern  :warn  : [%12s] %s", st, msg) })
}

// dmesgCtime is dmesg -T: the record's time as ctime in brackets.
func dmesgCtime(text string) string {
	return restamp(text, func(_, msg string) string { return "[Sun Nov 29 12:00:00 2026] " + msg })
}

// dmesgHuman is dmesg -H (--human, the reltime format): the first record of a minute
// "[Nov29 12:00]", the next ones the delta from the record before, "[  +0.000123]".
func dmesgHuman(text string) string {
	first := true
	return restamp(text, func(_, msg string) string {
		if first {
			first = false
			return "[Nov29 12:00] " + msg
		}
		return "[  +0.000123] " + msg
	})
}

// The paste sites' gutters: "  1 | " (a rendered gist or a code viewer's copy), "1. " on
// every line (pastebin's list), "001: " (a viewer that pads the number with zeros).
func gutterBar(text string) string {
	return eachLine(text, func(i int, l string) string { return fmt.Sprintf("%3d | %s", i+1, l) })
}

func gutterDot(text string) string {
	return eachLine(text, func(i int, l string) string { return fmt.Sprintf("%d. %s", i+1, l) })
}

func gutterZeroColon(text string) string {
	return eachLine(text, func(i int, l string) string { return fmt.Sprintf("%03d: %s", i+1, l) })
}

// shellPrompt and shellPromptRoot are a terminal's copy: the command at its prompt, its
// output untouched, the next prompt after it.
func shellPrompt(text string) string {
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return "$ cat notes.txt\n" + text + "$\n"
}

func shellPromptRoot(text string) string {
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return "root@web01:~# cat notes.txt\n" + text + "root@web01:~# \n"
}

// detailsSummary is a GitHub or GitLab comment that folds a long paste:
// "<details><summary>...</summary>" around a fenced block.
func detailsSummary(text string) string {
	return "<details>\n<summary>full output</summary>\n\n" + fenced(text) + "\n</details>\n"
}

// htmlBr is a page's source (a forum post, an HTML mail) that ends each line with "<br>".
func htmlBr(text string) string {
	return eachLine(text, func(_ int, l string) string { return l + "<br>" })
}

// htmlPre is a page's source with the paste in "<pre>...</pre>", its text escaped.
func htmlPre(text string) string { return "<pre>" + htmlEscaped(text) + "</pre>\n" }

// The layout forms (forms10b). squashedSpaces is a page that rendered the paste as HTML
// without <pre>: every run of spaces and tabs shows as one space.
func squashedSpaces(text string) string {
	return eachLine(text, func(_ int, l string) string {
		var b strings.Builder
		blank := false
		for i := 0; i < len(l); i++ {
			if l[i] == ' ' || l[i] == '\t' {
				if !blank {
					b.WriteByte(' ')
				}
				blank = true
				continue
			}
			blank = false
			b.WriteByte(l[i])
		}
		return b.String()
	})
}

// backslashEnds is Markdown's hard line break written as a backslash at the line's end
// (CommonMark 6.7), " \" after each line; backslashEndsTight writes it without the space.
func backslashEnds(text string) string {
	return eachLine(text, func(_ int, l string) string { return l + " \\" })
}

func backslashEndsTight(text string) string {
	return eachLine(text, func(_ int, l string) string { return l + "\\" })
}

// doubleSpaced is a forum that made each line of the paste a paragraph: a blank line
// between every two lines when copied back; doubleSpacedQuoted is the same quoted in mail.
func doubleSpaced(text string) string {
	return strings.ReplaceAll(text, "\n", "\n\n")
}

func doubleSpacedQuoted(text string) string {
	return eachLine(text, func(i int, l string) string {
		if i == 0 {
			return "> " + l
		}
		return ">\n> " + l
	})
}

// inlineCodeLines is a chat client's inline code on every line ("`line`");
// inlineCodeIndented is each line as "    `line`  " (an indented code span with Markdown's
// two-space hard break).
func inlineCodeLines(text string) string {
	return eachLine(text, func(_ int, l string) string {
		if strings.TrimSpace(l) == "" {
			return l
		}
		return "`" + l + "`"
	})
}

func inlineCodeIndented(text string) string {
	return eachLine(text, func(_ int, l string) string {
		if strings.TrimSpace(l) == "" {
			return l
		}
		return "    `" + l + "`  "
	})
}

// flattened is a ticket system that lost the paste's newlines: the whole text on one line,
// every run of white space one space.
func flattened(text string) string {
	return strings.Join(strings.Fields(text), " ") + "\n"
}

func wrapBlock(open, close string) func(string) string {
	return func(text string) string {
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		return open + "\n" + text + close + "\n"
	}
}

// bbcode is a phpBB/vBulletin forum's code block; jiraNoformat and jiraCode Jira's wiki
// markup blocks; discourseQuote a Discourse reply quoting the post that held the paste.
var (
	bbcode         = wrapBlock("[code]", "[/code]")
	jiraNoformat   = wrapBlock("{noformat}", "{noformat}")
	jiraCode       = wrapBlock("{code}", "{code}")
	discourseQuote = wrapBlock(`[quote="user, post:3, topic:1234"]`, "[/quote]")
)

// verdict is what the test compares: the ids reported and the worst severity of each.
type verdict map[string]diagnose.Severity

func diagnoseText(text, name string) (verdict, error) {
	tl, err := artifact.ParseBytes([]byte(text), name, artifact.Options{})
	if err != nil {
		return nil, err
	}
	judge.Finish(tl)
	d := diagnose.Run(tl, nil)
	judge.PlaceFindings(tl, &d)
	v := verdict{}
	for _, f := range d.Findings {
		if s, ok := v[f.ID]; !ok || f.Severity > s {
			v[f.ID] = f.Severity
		}
	}
	return v, nil
}

// formsSample is about how many of the cases each form is checked on: the whole corpus under
// every form is 10,000 diagnoses, 5.4 s on an idle machine and 17-20 s on this busy one. Which
// cases a form takes is fixed by a hash of its name and the case's, so a run is repeatable
// and the forms cover different cases. HEADROOM_FORMS_ALL=1 checks every case.
const formsSample = 300

func picked(formName, stem string) bool {
	if os.Getenv("HEADROOM_FORMS_ALL") != "" {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(formName + "\x00" + stem))
	return h.Sum32()%1000 < formsPermille
}

// formWanted: HEADROOM_FORMS_ONLY=name,name checks only those forms (a fix's quick loop).
func formWanted(name string) bool {
	only := os.Getenv("HEADROOM_FORMS_ONLY")
	if only == "" {
		return true
	}
	for _, n := range strings.Split(only, ",") {
		if n == name {
			return true
		}
	}
	return false
}

// formsPermille is formsSample of about 600 cases.
var formsPermille = uint32(1000 * formsSample / 600)

// formsKnownLimits are the (form, case) pairs that still lose a finding, each with why: the
// test fails on any other loss, and on a pair listed here that no longer loses one.
// The classes of formsKnownLimits: what a form still loses, and why (docs/accuracy.md).
const (
	limitColumnShape           = "column-shaped output (ifconfig: the interface at column 0, its counters indented under it; netstat -s: the section at column 0, its counters indented) loses its shape when the whole block is indented as a Markdown code block or flattened into a list: undoing it needs the block's common indent, which a line reader does not know"
	limitHardWrapWidth         = "a terminal's hard wrap (pieces cut mid-word, '| B present:...') is rejoined by the raw width of the kernel lines (unwrap.go); a form that adds bytes unevenly (zero-width spaces, U+00A0, an indent or a prefix on the pieces) moves the lengths off the width, and the pieces stay apart"
	limitTitleOnly             = "the case's evidence is its title ('# nf_conntrack table full', a GitHub issue's title): a sentence above it makes it a heading inside the post, and only the text's first line is read as a title"
	limitMessageInWrappedProse = "a kernel message named in a sentence that the wrap spread over three lines: messageAcrossWrap joins a line with the one below only"
	limitTitleInContainerLog   = "the case's evidence is its title (a forum post's or an issue's first line naming the OOM): behind a CRI prefix every line is a container's stdout, and a first line there is what a program printed, not a title a person wrote over a report, so it is rightly not read as one (no real paste puts an issue's title through kubectl logs)"
	limitZeroWidthInQP         = "quoted-printable mail source ('=3D', '=20', soft breaks '=' at line ends): the form puts a zero-width space after every '=', which breaks each escape and soft break before the text is decoded; a chat or wiki that inserts zero-width spaces shows mail decoded, not its encoded source, and the same text with the spaces only after ':' keeps its verdict"
	limitFlattenedThenWrapped  = "netstat -su flattened onto one line by a page's text extraction ('Udp: 2829651752 packets received ... 1629462811 packet receive errors ...'), then wrapped at 72/80 as prose: the flattened reader reads one line, and the wrap puts 'received.' and the error count on the next one; rejoining needs the wrap width, which a single long line does not show (two damages in a row, not fixed here)"
	limitJournalCatNoStamp     = "journalctl -o cat prints each record's message alone, without its time or the kernel's tag: the case's evidence is kernel lines told apart from prose only by their dmesg stamps (a call trace alone, a header split in stamped pieces, a WARNING's indented lines), and without them nothing says they are the kernel's"
	limitJournalOfQPSource     = "quoted-printable mail source ('=0A' breaks, '=3D'): the form wraps each encoded line in a journal record before the mail is decoded, so the escapes sit inside the records' messages; journalctl prints decoded records, never a mail's encoded source"
	limitBulletsOnSpacedRows   = "a double-spaced ifconfig paste that is already mangled under the form: its rows indented with U+00A0 runs (the bullets form trims only ASCII white space, and a '- ' before white space is kept: a unified diff's removed indented line, stripListMarker) or its blank lines quoted ('>' becomes a '- >' item, no blank line): the block's rows no longer follow its header"
	// The layout forms' limits (forms10b).
	limitFlattenedBlock         = "the whole paste joined onto one line (a ticket or a page's text extraction that lost the newlines): kernel records split again at their dmesg stamps (flattenedLog) and ifconfig, 'name: value' counters, vmstat, meminfo, free, ethtool -g and a syslog'd OOM report run together are read at their commands' own words (flattened.go, fix54e_flat.go), but a block told apart only by its line breaks is not recovered here: syslog-prefixed or unstamped kernel reports, an OOM task table, netstat -s sections, ethtool -S, ip -s link, /proc tables and vmstat or meminfo columns whose names and values the one line no longer pairs"
	limitFlattenedQuotedInProse = "a kernel message quoted in a sentence that states it ('The error message is \"nf_conntrack:table full,dropping packet.\"'), and the whole post then joined onto one line: words now follow the closing quote, so the quotation reads as a sentence that names the message (kernel.namedInSentence), which it also is in a one-line post"
	limitFlattenedOneStamp      = "one dmesg-stamped kernel line quoted in prose, and the whole post then joined onto one line: flattenedLog splits a line into records only when it holds flattenedStamps (3) stamps, because a sentence that quotes one stamped line ('we see [  12.345678] eth0: ... in dmesg') stays prose; with one stamp the record's end is lost in the prose after it"
	limitLayoutOfQPSource       = "quoted-printable mail source ('=3D', soft breaks '=' at line ends): the form adds a backslash, a blank line or a backtick after each encoded line, which breaks the soft breaks before the text is decoded; a page or a chat shows a mail decoded, never its encoded source"
	limitUnisocSeqIndented      = "Unisoc's sequence prefix before the stamp is read only at column 0 (stripUnisocSeq), and startsLogPrefix does not know it, so an indent before it stays"
	limitDiffBuddyinfoIndented  = "buddyinfo quoted in a diff ('+      Node 0, zone   Normal ...'): behind a code block's indent the '+' is no diff mark at column 0, and a list marker in front of it hides it too"
	limitTitleUnderPrompt       = "the case's evidence is its title: under a shell prompt's command line ('$ cat notes.txt') the first line is what the command printed, not a title a person wrote over a report, so it is rightly not read as one (a terminal's copy of an issue's title is no real paste)"
	limitTitleInFold            = "the case's evidence is its title: a <details> fold puts the whole text in a fenced block, and a first line inside a code block is output, not a title (an issue's title stands above the fold, never inside it)"
	limitPrefixOnQPSource       = "quoted-printable mail source ('=' soft breaks at the line ends, '=0A', '=3D'): a prefix or a suffix on each encoded line (a chat's nick, a multiplexer's name, a gutter, '<br>') lands inside the decoded lines when the soft breaks join them, since the mail is decoded before the lines are read; chats, log multiplexers, paste sites and pages show a mail decoded, not its encoded source"
	// fix19a: uWSGI's listen-queue message is named, and its figures read, only as a line of
	// its own (webAppOwnLine: at most maxErrnoLineBytes, not a fence line).
	limitProgramLineOwnLine = "a program's own message (uWSGI's 'listen queue of socket ... full !!! (Q/M)') is named and its figures read only on a line of its own: joined into one long line with the whole post (webAppOwnLine's line bound) or wrapped in a one-line triple-backtick span, it is not named, so listen-overflow has no program report to read"
	limitWrappedLogWidth    = "a kernel log wrapped at 72/80 by a mail client: unwrap.go infers the width from the kernel lines' lengths and joins a piece only when its first word would not have fitted; here too few lines reach the width (short records, stack-word rows of a MIPS or Android report, an unbreakable token longer than the width) and a piece holding the mode or the gfp stays a line of its own"
	// The forum-page forms' limits (h17b).
	limitCutLastLine = "the paste cut inside its last line (cut-last-line keeps the first 60% of the last non-empty line): a dump cut inside its last zone line is read while the zone's free pages and watermarks are before the cut (showMemZoneReading's cutAtEnd), but when the evidence is the line's end it is gone from the text: a one-line paste's message or figure, a counter's value, a statement's figure, the OOM line itself cut inside its stamp, the driver-specific counter name that tells ice's rx_dropped apart, or the zone's present: that gives a dump without buddy lines its page size"
	// fix27d: a Japanese guide's colon-less example lead-in (jaExampleLeadIn) is read on the
	// line right above a bare message; joined into one line with it, the message is quoted
	// inside the sentence and the lead-in no longer stands above it.
	limitJaLeadInOwnLine    = "a Japanese guide's example lead-in without a colon ('dmesg で以下のようなメッセージを確認できる') marks the bare messages on the lines below it as an example (jaExampleLeadIn); flattened into one line with the lead-in, the message is read as quoted in the post, as on main before fix27d"
	limitTitleFirstLine     = "an explainer's title, the quoted message over its definition (titleDefined), is known only as the text's first line: with a line put above it (prose around, a shell prompt, a details summary) it is a quoted message inside the post and read as logged, as on main before fix27d"
	limitBarQuoteOnCellEnds = "lines that end in a rendered table's cell bars ('sockets: used 48476 | |', a gist in a blog page) read as a Markdown table's rows once '| ' quotes them too: a table row and a bar-quoted line differ only in the closing bar, and the row is kept as written"
)

var formsKnownLimits = map[string]string{
	"flattened 3724-snakemake-executor-plugin-slurm-348-2025-sacct-steps-out-of-me-0-125-jobstep-retries-slurm-24.11":                             limitSacctTableRows,
	"flattened 1703-uwsgi-2444-2022-ubuntu-20.04-openstack-listen-queue-3030-full-100-101-of-100":                                                 limitProgramLineOwnLine,
	"flattened 1705-penny-dreadful-5373-2018-uwsgi-listen-queue-127.0.0.1-5000-full-101-of-100-one-off":                                           limitProgramLineOwnLine,
	"flattened 1708-docker-mailman-362-2020-uwsgi-cron-then-listen-queue-8000-full-101-of-100-daily":                                              limitProgramLineOwnLine,
	"bullets 1342-usrp-users-2021-n321-embedded-ifconfig-squashed-spaces-eth0-dropped-11485-of-618374-sfp-dropped-804-796":                        limitBulletsOnSpacedRows,
	"bullets 1345-usrp-users-2023-n321-quoted-ifconfig-eth0-errors-211-overruns-96-frame-115-of-108385-blank-quoted-lines":                        limitBulletsOnSpacedRows,
	"journal-cat 416-acs-engine-220-hv-netvsc-3.10-el7-tab-indented-trace-only-page-frag-alloc-netvsc-recv-shrink-inactive":                       limitJournalCatNoStamp,
	"journal-json 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":                 limitJournalOfQPSource,
	"journal-verbose 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":              limitJournalOfQPSource,
	"journal-json-seq 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":             limitJournalOfQPSource,
	"prose-around 741-sui-18768-ubuntu-64gb-validator-oom-normal-free-65140kb-below-min-65180-buddy-cut":                                          limitTitleOnly,
	"prose-around 742-cockpit-12949-two-node-numa-oom-buddy-lists-only-swap-cache-add-4.5-billion":                                                limitTitleOnly,
	"prose-around 756-percona-forum-1833-mysql-5.5-32g-oom-restart-top-free-m-rhel5-zone-dump-cut":                                                limitTitleOnly,
	"prose-around 869-synapse-6587-dmesg-T-normal-present-1gb-free-16432-below-min-16564-swap-cache-0-oom-each-minute":                            limitTitleOnly,
	"cri-prefix 741-sui-18768-ubuntu-64gb-validator-oom-normal-free-65140kb-below-min-65180-buddy-cut":                                            limitTitleInContainerLog,
	"cri-prefix 742-cockpit-12949-two-node-numa-oom-buddy-lists-only-swap-cache-add-4.5-billion":                                                  limitTitleInContainerLog,
	"cri-prefix 756-percona-forum-1833-mysql-5.5-32g-oom-restart-top-free-m-rhel5-zone-dump-cut":                                                  limitTitleInContainerLog,
	"cri-prefix 869-synapse-6587-dmesg-T-normal-present-1gb-free-16432-below-min-16564-swap-cache-0-oom-each-minute":                              limitTitleInContainerLog,
	"wrap-prose-72 763-e-com-net-udp-netstat-su-1629m-receive-errors-of-2829m-rmem-max-131071-flattened":                                          limitFlattenedThenWrapped,
	"wrap-prose-80 763-e-com-net-udp-netstat-su-1629m-receive-errors-of-2829m-rmem-max-131071-flattened":                                          limitFlattenedThenWrapped,
	"zero-width 780-netdev-2025-axienet-microblaze-6.13.8-ifconfig-rx-dropped-99-of-164-arp-ethtool-s-g-gcc-bug-qp":                               limitZeroWidthInQP,
	"zero-width 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":                   limitZeroWidthInQP,
	"wrap-log-72 006-arm64-android-fork-order2-dma-4.1":                                                                                           limitWrappedLogWidth,
	"wrap-log-80 006-arm64-android-fork-order2-dma-4.1":                                                                                           limitWrappedLogWidth,
	"bullets 1064-dpvs-454-2019-i40e-dpdk-dpip-link-show-imissed-8488-rx-nombuf-0-mbuf-avail-1040450":                                             limitColumnShape,
	"indent-4 122-android-unisoc-gfp-noio-order0-cma-only-dma32-highatomic-normal-seq-prefix":                                                     "Unisoc's sequence prefix before the stamp is read only at column 0 (stripUnisocSeq), and startsLogPrefix does not know it, so the code block's indent stays",
	"wrap-log-72 122-android-unisoc-gfp-noio-order0-cma-only-dma32-highatomic-normal-seq-prefix":                                                  limitWrappedLogWidth,
	"wrap-log-80 122-android-unisoc-gfp-noio-order0-cma-only-dma32-highatomic-normal-seq-prefix":                                                  limitWrappedLogWidth,
	"bullets 132-linux-mips-3.17-loongson2e-16k-pages-pipe-quoted-gfp-dma-empty-dma-zone":                                                         limitHardWrapWidth,
	"cri-prefix 132-linux-mips-3.17-loongson2e-16k-pages-pipe-quoted-gfp-dma-empty-dma-zone":                                                      limitHardWrapWidth,
	"indent-4 132-linux-mips-3.17-loongson2e-16k-pages-pipe-quoted-gfp-dma-empty-dma-zone":                                                        limitHardWrapWidth,
	"nbsp-runs 132-linux-mips-3.17-loongson2e-16k-pages-pipe-quoted-gfp-dma-empty-dma-zone":                                                       limitHardWrapWidth,
	"zero-width 132-linux-mips-3.17-loongson2e-16k-pages-pipe-quoted-gfp-dma-empty-dma-zone":                                                      limitHardWrapWidth,
	"wrap-log-72 436-openwrt-packages-417-lantiq-mips-3.10-dsl-cpe-control-order4-0x2000d0-mips-stack-words":                                      limitWrappedLogWidth,
	"bullets 469-tinylab-190-zh-lwn-translation-diff-buddyinfo-normal-258-9-5-1gb":                                                                "buddyinfo quoted in a diff ('+      Node 0, zone   Normal ...'): behind a code block's indent the '+' is no diff mark at column 0, and a list marker in front of it hides it too",
	"indent-4 469-tinylab-190-zh-lwn-translation-diff-buddyinfo-normal-258-9-5-1gb":                                                               "buddyinfo quoted in a diff ('+      Node 0, zone   Normal ...'): behind a code block's indent the '+' is no diff mark at column 0, and a list marker in front of it hides it too",
	"prose-around 527-segfault-50-title-conntrack-table-full-cat-nf-conntrack-max-262144-masscan":                                                 limitTitleOnly,
	"wrap-log-72 546-k8s-82534-slub-mnt-cache-blkdev-ioc-kmalloc-128-gfp-0x2088020-two-nodes":                                                     limitWrappedLogWidth,
	"wrap-log-80 555-photon-1535-vmware-log-guest-prefix-memcg-stats-task-table-oom-cut":                                                          limitWrappedLogWidth,
	"bullets 620-sc4s-2604-ubuntu22-netstat-anus-memerrors-1945378-of-6834146-rmem-default-512mib":                                                limitColumnShape,
	"indent-4 620-sc4s-2604-ubuntu22-netstat-anus-memerrors-1945378-of-6834146-rmem-default-512mib":                                               limitColumnShape,
	"flattened 1585-serverfault-461032-varnish-3x-front-syn-sent-spike-netstat-states-time-wait-6124-sysctl-port-range-1024-65536-tw-recycle":     limitFlattenedBlock,
	"flattened 1810-logstash-output-elasticsearch-319-2015-nf-conntrack-table-full-port-9200-established-prose":                                   limitFlattenedQuotedInProse,
	"flattened 1816-pai-1658-2018-hdfs-datanode-killed-docker-events-status-oom-die":                                                              limitFlattenedBlock,
	"flattened 004-virtio-net-ksoftirqd-slub-oom-4.9-kvm":                                                                                         limitFlattenedBlock,
	"flattened 006-arm64-android-fork-order2-dma-4.1":                                                                                             limitFlattenedBlock,
	"flattened 018-vmstat-swap-under-write-load-3.7":                                                                                              limitFlattenedBlock,
	"flattened 020-arm64-vmalloc-space-failure-meminfo-6.1":                                                                                       limitFlattenedBlock,
	"flattened 028-imx6-fec-cma-slub-order0-3.10":                                                                                                 limitFlattenedBlock,
	"flattened 032-softnet-stat-backlog-drops-rps":                                                                                                limitFlattenedBlock,
	"flattened 054-meminfo-coreos-vm-sunreclaim-percpu-leak-truncated":                                                                            limitFlattenedBlock,
	"flattened 060-ss-tnp-fin-wait-1-large-send-q-zero-window-repro":                                                                              limitFlattenedBlock,
	"flattened 101-lkml-2.4.23-bare-oneliners-vm-killing-free":                                                                                    limitFlattenedBlock,
	"flattened 1010-pragasdigitais-pt-ifconfig-old-format-eth0-10mbps-rx-errors-217-overrun-26-of-3136-ppp0-imq0-clean":                           limitFlattenedBlock,
	"flattened 102-lkml-2.4.10aa1-quoted-0order-gfp1d2-ksymoops-vm-kill":                                                                          limitFlattenedBlock,
	"flattened 1028-r8152-138-ds418j-rtd1296-arm64-synovpcd-order4-0x2084020-alloc-rx-agg-swap-410mb-used":                                        limitFlattenedBlock,
	"flattened 1029-docker-dst-server-47-digitalocean-droplet-global-oom-dontstarve-dedi-task-list-cut":                                           limitFlattenedBlock,
	"flattened 1049-cks-blog-2022-ubuntu-22.04-unreclaimable-slab-info-kmalloc-2k-6676584kb-repeated-oom":                                         limitFlattenedBlock,
	"flattened 105-lkml-2.6.12.2-reiserfs-mail-oom-gfp-d2-syslog-wrapped-blank-lines":                                                             limitFlattenedBlock,
	"flattened 1064-dpvs-454-2019-i40e-dpdk-dpip-link-show-imissed-8488-rx-nombuf-0-mbuf-avail-1040450":                                           limitFlattenedBlock,
	"flattened 1065-i40e-32-2026-x710-vf-dpdk-l2fwd-500mbit-imissed-2281-of-6784279-port-statistics":                                              limitFlattenedBlock,
	"flattened 1093-wsl-40650-6.6.114-wsl2-buddyinfo-zero-order7-memfree-2.2gb-615-relay-pids-cut":                                                limitFlattenedBlock,
	"flattened 1117-gluon-1768-2019-ath9k-router-slabinfo-extract-kmalloc-4096-110-to-5532-objects-793-slabs-growth":                              limitFlattenedBlock,
	"flattened 116-cn-blog-dmesg-T-chinese-weekday-memcg-task-killed-grep":                                                                        limitFlattenedBlock,
	"flattened 1160-caddy-3834-2020-dmesg-T-oom-task-table-netdata-swapents-60196-conntrack-growth-title-cut":                                     limitFlattenedBlock,
	"backslash-ends 1161-lkp-lockdep-4051a81774-2022-i386-qemu-5.19-rc2-swapper-rtrs-order5-0xcc0-normal-3040-min-2940-qp-quoted":                 limitLayoutOfQPSource,
	"backslash-ends-tight 1161-lkp-lockdep-4051a81774-2022-i386-qemu-5.19-rc2-swapper-rtrs-order5-0xcc0-normal-3040-min-2940-qp-quoted":           limitLayoutOfQPSource,
	"double-spaced 1161-lkp-lockdep-4051a81774-2022-i386-qemu-5.19-rc2-swapper-rtrs-order5-0xcc0-normal-3040-min-2940-qp-quoted":                  limitLayoutOfQPSource,
	"double-spaced-quoted 1161-lkp-lockdep-4051a81774-2022-i386-qemu-5.19-rc2-swapper-rtrs-order5-0xcc0-normal-3040-min-2940-qp-quoted":           limitLayoutOfQPSource,
	"inline-code-lines 1161-lkp-lockdep-4051a81774-2022-i386-qemu-5.19-rc2-swapper-rtrs-order5-0xcc0-normal-3040-min-2940-qp-quoted":              limitLayoutOfQPSource,
	"inline-code-indented 1161-lkp-lockdep-4051a81774-2022-i386-qemu-5.19-rc2-swapper-rtrs-order5-0xcc0-normal-3040-min-2940-qp-quoted":           limitLayoutOfQPSource,
	"flattened 1174-lkp-vm-scalability-0902bb3bb8-2020-cascadelake-256g-swap-w-seq-mt-minus-86pct-swap-so-74985-compact-fail-8028-of-8030-quoted": limitFlattenedBlock,
	"flattened 1175-lkp-fs-pipe-5a519c8fe4-2022-linus-reply-warning-page_alloc.c-5364-order-ge-max-order-iter-file-splice-write-kcalloc":          limitFlattenedBlock,
	"flattened 1219-rport-408-2022-go-rportd-200-clients-prose-too-many-orphaned-sockets-tcp-mem-max-359mb-awk":                                   limitFlattenedBlock,
	"inline-code-indented 122-android-unisoc-gfp-noio-order0-cma-only-dma32-highatomic-normal-seq-prefix":                                         limitUnisocSeqIndented,
	"flattened 122-android-unisoc-gfp-noio-order0-cma-only-dma32-highatomic-normal-seq-prefix":                                                    limitFlattenedBlock,
	"flattened 1220-weaveworks-scope-579-2015-go-probe-conntrack-eof-log-then-dmesg-nf-conntrack-table-full-dropping-packet-cut":                  limitFlattenedBlock,
	"flattened 1236-talos-9215-2024-talosctl-kern-info-iso-stamps-oom-task-dump-rows-containerd-apid-vmstat-tail":                                 limitFlattenedBlock,
	"flattened 1243-rpi-6898-pi5-rp1-macb-ip-s-link-rx-dropped-617-of-27502-ethtool-0-softnet-0-prose":                                            limitFlattenedBlock,
	"flattened 1247-home-assistant-core-42636-pi3b-plus-4.19.127-v8-dmesg-T-oom-python3-page-fault-meminfo-anon-169k-cut":                         limitFlattenedBlock,
	"flattened 1272-docker-dd-agent-219-2017-ecs-ami-datadog-agent-container-memcg-oom-task-killed-as-a-result-of-limit-128mb-cut":                limitFlattenedBlock,
	"flattened 1273-rke-2817-2022-devops-sandbox-worker-oom-task-table-metricbeat-x5-adj-950-pause-minus-998-cut":                                 limitFlattenedBlock,
	"flattened 1275-netdata-9996-2020-varnish-host-16gb-ram-200gb-swap-used-netdata-oom-victim-adj-1000-maintainer-prose":                         limitFlattenedBlock,
	"flattened 1306-coturn-1902-2026-ubuntu-24.04-linode-relay-so-rcvbuf-128kib-9.4pct-rcvbuf-drops-rmem-max-8mib":                                limitFlattenedBlock,
	"backslash-ends 132-linux-mips-3.17-loongson2e-16k-pages-pipe-quoted-gfp-dma-empty-dma-zone":                                                  limitHardWrapWidth,
	"inline-code-indented 132-linux-mips-3.17-loongson2e-16k-pages-pipe-quoted-gfp-dma-empty-dma-zone":                                            limitHardWrapWidth,
	"flattened 1342-usrp-users-2021-n321-embedded-ifconfig-squashed-spaces-eth0-dropped-11485-of-618374-sfp-dropped-804-796":                      limitFlattenedBlock,
	"flattened 1359-usrp-users-2021-x310-uhd-3.10-flattened-quoted-ifconfig-one-paragraph-eno1-dropped-8713-of-543759-image-loader-error":         limitFlattenedBlock,
	"flattened 1360-usrp-users-2024-n310-host-backtick-per-line-ifconfig-enp3s0f1-dropped-198-of-1226-enp3s0f0-90-of-4616-n310-sfp-zero":          limitFlattenedBlock,
	"flattened 1361-systemd-23606-2022-omnixps-16gb-systemd-oomd-killed-chrome-gnome-shell-nautilus-swap-used-over-90pct":                         limitFlattenedBlock,
	"flattened 1365-systemd-32304-2024-arch-6.8.5-fr-journal-avril-oomd-considered-97-cgroups-slack-pressure-1.77-killed-tmux":                    limitFlattenedBlock,
	"flattened 137-lkml-2.6.10rc1mm2-64mb-syslog-no-kernel-tag-oom-negative-buddy-counts":                                                         limitFlattenedBlock,
	"flattened 1372-nohang-33-2019-user-pc-nohang-log-psi-avg-92.97-over-90-for-66s-memavail-2039m-90.7pct-swapfree-4586m":                        limitFlattenedBlock,
	"flattened 1373-nohang-25-2019-nohang-psi-system-wide-full-avg10-88.54-above-80-for-60.7s-gentoo-bees-killed-prose":                           limitFlattenedBlock,
	"flattened 141-wl500g-rt-n10-mips-2.6.22-syslog-no-host-order3-0x4020-wrapped-meminfo":                                                        limitFlattenedBlock,
	"flattened 155-healthy-blog-2.6.18-echo-order9-gfp-kernel-ip-conntrack-hashsize":                                                              limitFlattenedBlock,
	"flattened 159-raspberrypi-3.x-ntfs3g-order0-0x20-usbnet-rx-submit-arm-from-trace":                                                            limitFlattenedBlock,
	"flattened 163-dcache-debian9-4.9-ixgbe-order0-atomic-interleaved-headers-r620":                                                               limitFlattenedBlock,
	"flattened 201-veth-xdp-ip-s-s-link-rx-dropped-exceeds-packets":                                                                               limitFlattenedBlock,
	"flattened 211-blog-watch-netstat-grep-listen-cat-sysctl-separate-lines":                                                                      limitFlattenedBlock,
	"flattened 212-redis-book-netstat-grep-overflowed-top-cpu1-softirq":                                                                           limitFlattenedBlock,
	"flattened 216-cn-issue-sockstat-orphan-65738-over-max-orphans-tcp-mem-below-pressure":                                                        limitFlattenedBlock,
	"flattened 222-k8s-dmesg-T-conntrack-table-full-centos7-3.10-kube-proxy":                                                                      limitFlattenedBlock,
	"flattened 225-minio-sysctl-p-quoted-tcp-rmem-wmem-invalid-argument-centos7":                                                                  limitFlattenedBlock,
	"flattened 230-be2net-ethtool-S-rxq0-drops-no-frags-prefixed-names":                                                                           limitFlattenedBlock,
	"flattened 233-pfring-proc-stats-and-quoted-rx-missed-errors-22M":                                                                             limitFlattenedBlock,
	"flattened 235-deckhouse-issue-dmesg-tcp-oom-one-line-prose-sockstat-graph":                                                                   limitFlattenedBlock,
	"flattened 249-openstack-ovs-watch-banner-lost-i40e-rx-dropped-broadcast-storm":                                                               limitFlattenedBlock,
	"flattened 254-centos-sysctl-conf-tuning-guide-tcp-mem-927M-pages":                                                                            limitFlattenedBlock,
	"flattened 255-osdd-issue-sysctl-bytes-in-pages-tcp-mem-udp-mem-1.6G":                                                                         limitFlattenedBlock,
	"flattened 257-kiryuu-sysctl-w-doubled-prefix-typo-tcp-fin-timeout-arm-vps":                                                                   limitFlattenedBlock,
	"flattened 260-jp-notes-ifconfig-masked-eth1-1.2G-dropped-ring-256-on-eth0":                                                                   limitFlattenedBlock,
	"flattened 1624-calico-11137-2025-calico-node-memcg-oom-task-list-bird6-rss-222729-pages-constraint-memcg-cut":                                limitFlattenedBlock,
	"flattened 1630-k8s-97377-2020-nginxplus-node-conntrack-table-full-qps-1300-max-655360-close-wait-3600":                                       limitFlattenedQuotedInProse,
	"flattened 268-openeuler-bnx2x-overruns-fifo-ring-453-of-4078-bracket-queue-names":                                                            limitFlattenedBlock,
	"flattened 300-arm64-s5p6818-top-kswapd0-100pct-no-swap":                                                                                      limitFlattenedBlock,
	"flattened 302-openelec-busybox-top-kswapd0-22pct-of-4cpus":                                                                                   limitFlattenedBlock,
	"flattened 303-openelec-busybox-top-kswapd0-49pct-of-2cpus":                                                                                   limitFlattenedBlock,
	"flattened 304-okd-fcos38-top-kswapd0-99pct-88wa-no-swap":                                                                                     limitFlattenedBlock,
	"flattened 311-proc-vmstat-sorted-4.2.3-compaction-fail-99pct":                                                                                limitFlattenedBlock,
	"flattened 325-meminfo-2.6.9-x86-32-16g-hugemem-lowfree-4m-slab-684m":                                                                         limitFlattenedBlock,
	"flattened 333-slabtop-kmalloc-1024-leak-2.9g-ubuntu-4.11-rocm":                                                                               limitFlattenedBlock,
	"flattened 340-lkml-2003-2.6.0-test9-vmstat-1-swap-storm-prose-markers-repeated-header":                                                       limitFlattenedBlock,
	"flattened 341-lkml-2004-objrmap-test-vmstat-r195-b210-sy90-swap":                                                                             limitFlattenedBlock,
	"flattened 344-ubuntu-forums-2006-2.6.15-386-vmstat-a-swap-out-26m-s-iowait":                                                                  limitFlattenedBlock,
	"flattened 350-linux-mm-3.9-rc7-ppc64-slub-leak-meminfo-sunreclaim-83pct-quoted":                                                              limitFlattenedBlock,
	"flattened 353-android-anr-psi-memory-full-51-kswapd0-80pct":                                                                                  limitFlattenedBlock,
	"flattened 380-ecs-agent-dmesg-T-oom-task-list-rows-only-chrome-cat":                                                                          limitFlattenedBlock,
	"flattened 393-thrash-protect-issue-psi-memory-example-some-70-full-57-thrashing":                                                             limitFlattenedBlock,
	"flattened 397-bpi-r2-4.14-armv7-systemd-ok-lines-ip-order0-gfp-atomic-cold-mtk-rx-alloc-open":                                                limitFlattenedBlock,
	"flattened 402-cb2-issue-quoted-netstat-s-gt-prefix-retrans-5887-of-174744-truncated":                                                         limitFlattenedBlock,
	"squashed-spaces 413-rpi-2909-4.14-quoted-gt-wrapped-80col-python3-page-allocation-stalls-10060ms-order1-fork":                                limitHardWrapWidth,
	"flattened 413-rpi-2909-4.14-quoted-gt-wrapped-80col-python3-page-allocation-stalls-10060ms-order1-fork":                                      limitFlattenedBlock,
	"flattened 418-netmap-649-mlx5-native-mode-ifconfig-fragment-arrow-marker-grep-48-rx-out-of-buffer":                                           limitFlattenedBlock,
	"flattened 429-nuc980-94-arm-4.4-empty-oom-task-table-panic-no-killable-no-stamps":                                                            limitFlattenedBlock,
	"flattened 431-rpi-153-raspbian-3.6-syslog-warn-alloc-failed-5676-suppressed-swapper-order3-0x20-smsc-rx-submit":                              limitFlattenedBlock,
	"flattened 435-wl500g-90-2.4-router-0order-gfp-1d2-f0-padded-blank-lines-vm-killing-gammu":                                                    limitFlattenedBlock,
	"flattened 436-openwrt-packages-417-lantiq-mips-3.10-dsl-cpe-control-order4-0x2000d0-mips-stack-words":                                        limitFlattenedBlock,
	"flattened 444-nite4g-blog-tcp-mem-6187968-on-32gb-stated-sockstat-orphan-21564-max-orphans-65536":                                            limitFlattenedBlock,
	"flattened 448-ndpi-116-slabinfo-header-markdown-bold-row-ndpi-ctinfo-4.1m-objs-180306-slabs-leak":                                            limitFlattenedBlock,
	"flattened 450-kernel-sanitizers-21-kasan-3.18-qemu-aout-order4-0x2080d0-quarantine":                                                          limitFlattenedBlock,
	"flattened 456-cjting-repost-zh-html-pre-netstat-s-egrep-listen-667399-overflowed":                                                            limitFlattenedBlock,
	"flattened 459-ghproxy-2-var-log-messages-tcp-out-of-memory-doubled-text-one-line":                                                            limitFlattenedBlock,
	"inline-code-indented 469-tinylab-190-zh-lwn-translation-diff-buddyinfo-normal-258-9-5-1gb":                                                   limitDiffBuddyinfoIndented,
	"flattened 469-tinylab-190-zh-lwn-translation-diff-buddyinfo-normal-258-9-5-1gb":                                                              limitFlattenedBlock,
	"flattened 470-netdata-3726-sles11-sp4-3.0.101-sunreclaim-42964948kb-100-days-prose":                                                          limitFlattenedBlock,
	"flattened 471-serverdevworker-ixgbe-ifconfig-dropped-7142467-rx-missed-ethtool-g-512-of-4096":                                                limitFlattenedBlock,
	"flattened 478-kaivanov-blog-gist-pipes-out-of-socket-memory-tcp-mem-sockstat-orphan-126800":                                                  limitFlattenedBlock,
	"flattened 482-ubports-1321-rpi3-top-kswapd0-66pct-wa-75-no-swap-46mb-free":                                                                   limitFlattenedBlock,
	"flattened 485-rhel10-docs-softnet-awk-decimal-column-t-cpu1-dropped-18862-netdev-max-backlog-1000":                                           limitFlattenedBlock,
	"flattened 486-alibabacloud-softnet-hex-two-rows-dropped-0x471-0x305-comment-legend":                                                          limitFlattenedBlock,
	"flattened 491-db1000n-555-5.13-oracle-qemu-systemd-journal-invoked-oom-killer-task-frames-cut":                                               limitFlattenedBlock,
	"flattened 493-agentmail-mcp-46-node-telemetry-table-acceptq-512-listenoverflows-3378-5729":                                                   limitFlattenedBlock,
	"flattened 501-k8s-114142-cgroup-v1-memory-usage-501mb-max-usage-524mb-limit-524mb-oomkilled-prose":                                           limitFlattenedBlock,
	"flattened 516-rpi-3872-pi4-32bit-oom-dma-free-519mb-all-cma-513mb-min-10mb-highmem-816128-pages":                                             limitFlattenedBlock,
	"flattened 527-segfault-50-title-conntrack-table-full-cat-nf-conntrack-max-262144-masscan":                                                    limitFlattenedBlock,
	"flattened 531-network-builders-2007-fc5-2.6.18-netstat-s-pruned-4087-collapsed-3827052-wrapped":                                              limitFlattenedBlock,
	"flattened 536-tempesta-1432-tls-perf-ss-estab-rows-many-and-too-many-orphaned-fenced":                                                        limitFlattenedBlock,
	"flattened 555-photon-1535-vmware-log-guest-prefix-memcg-stats-task-table-oom-cut":                                                            limitFlattenedBlock,
	"flattened 565-rhbz-124058-rhel2.1-i686-prose-kswapd-100pct-cpu-60min-lowfree-decreasing":                                                     limitFlattenedBlock,
	"flattened 572-elasticsearch-23842-4.4-zone-lines-normal-free-18296-below-min-48948-unreclaimable-yes-mlocked-slab-3.8g":                      limitFlattenedBlock,
	"flattened 576-fatcache-22-2.6.32-96gb-36k-connections-kernel-out-of-socket-memory-free-5gb-prose":                                            limitFlattenedBlock,
	"flattened 582-ovn-207-gateway-ifconfig-two-samples-rx-dropped-1.22g-of-8.8g-96pct-between-top-125g-free":                                     limitFlattenedBlock,
	"flattened 601-linuxopenbook-out-of-socket-memory-1gb-ram-tcp-mem-196608-max-orphans-32768":                                                   limitFlattenedBlock,
	"flattened 618-zfs-15385-centos7-sar-B-pgscand-263678-per-s-vmeff-0.15-abd-scatter-2.5g-free":                                                 limitFlattenedBlock,
	"flattened 619-vector-5017-grep-udp-proc-net-snmp-rcvbuferrors-143m-of-653m-indatagrams-64mib-buffer":                                         limitFlattenedBlock,
	"inline-code-indented 620-sc4s-2604-ubuntu22-netstat-anus-memerrors-1945378-of-6834146-rmem-default-512mib":                                   limitColumnShape,
	"flattened 620-sc4s-2604-ubuntu22-netstat-anus-memerrors-1945378-of-6834146-rmem-default-512mib":                                              limitFlattenedBlock,
	"flattened 621-syslog-ng-3309-rhel7-proc-net-udp-port-9002-rx-queue-1g-drops-1875166813-cut":                                                  limitFlattenedBlock,
	"flattened 633-miaokee-zh-netstat-s-grep-drop-syns-to-listen-15184-softnet-stat-flattened":                                                    limitFlattenedBlock,
	"flattened 647-redhat-ko-rhel9-ethtool-s-rx-queue-drops-97326-63783-flattened":                                                                limitFlattenedBlock,
	"flattened 660-sing-box-3366-openwrt-title-tcp-out-of-memory-considering-tuning-tcpmem-template":                                              limitFlattenedBlock,
	"flattened 674-perfchron-cat-proc-net-netstat-tcpext-header-values-listenoverflows-62736-values-cut":                                          limitFlattenedBlock,
	"flattened 680-unlix-ru-ifconfig-ip-s-s-link-eth0-missed-3432-of-119.8m-ring-check-cut":                                                       limitFlattenedBlock,
	"flattened 681-webdevqa-ja-opensuse-12.3-ethtool-sys-stats-merged-rx-dropped-4738-of-25382-nic-counters-zero":                                 limitFlattenedBlock,
	"flattened 685-cyberpunk-rs-apache-lb-message-list-syn-flooding-443-cookies-conntrack-table-full-ratelimit-126":                               limitFlattenedBlock,
	"flattened 690-nomadscafe-ja-apache-dammari-syn-flooding-port-80-treason-uncloaked-syncookies-on":                                             limitFlattenedBlock,
	"flattened 700-cilium-38391-bugtool-ip-link-before-after-rx-errors-row-all-zero-healthy":                                                      limitFlattenedBlock,
	"flattened 714-ddcode-netstat-s-grep-listen-22438-overflowed-49148-syns-to-listen-dropped-container-prompt":                                   limitFlattenedBlock,
	"flattened 715-afonddream-zh-netstat-s-egrep-listen-41696-overflowed-equal-drops-ss-lnt-8765-backlog-512":                                     limitFlattenedBlock,
	"flattened 732-emqx-356-centos6-beam-smp-oom-killed-anon-rss-4.4g-out-of-socket-memory-sysctl-rmem-default-16m":                               limitFlattenedBlock,
	"flattened 736-rtw88-246-rtl8723du-usb-failed-to-allocate-rx-skb-32kib-contiguous-maintainer-prose":                                           limitFlattenedBlock,
	"flattened 741-sui-18768-ubuntu-64gb-validator-oom-normal-free-65140kb-below-min-65180-buddy-cut":                                             limitFlattenedBlock,
	"flattened 742-cockpit-12949-two-node-numa-oom-buddy-lists-only-swap-cache-add-4.5-billion":                                                   limitFlattenedBlock,
	"flattened 749-serverfault-287157-debian-squeeze-2.6.32-linode-netstat-s-pruned-254329-collapsed-50678438":                                    limitFlattenedBlock,
	"flattened 777-lkml-netdev-2006-brandeburg-reply-2.6.18-mm1-e1000-rx-missed-5865-no-buffer-310-interrupts-lost":                               limitFlattenedBlock,
	"backslash-ends-tight 780-netdev-2025-axienet-microblaze-6.13.8-ifconfig-rx-dropped-99-of-164-arp-ethtool-s-g-gcc-bug-qp":                     limitLayoutOfQPSource,
	"double-spaced 780-netdev-2025-axienet-microblaze-6.13.8-ifconfig-rx-dropped-99-of-164-arp-ethtool-s-g-gcc-bug-qp":                            limitLayoutOfQPSource,
	"double-spaced-quoted 780-netdev-2025-axienet-microblaze-6.13.8-ifconfig-rx-dropped-99-of-164-arp-ethtool-s-g-gcc-bug-qp":                     limitLayoutOfQPSource,
	"inline-code-lines 780-netdev-2025-axienet-microblaze-6.13.8-ifconfig-rx-dropped-99-of-164-arp-ethtool-s-g-gcc-bug-qp":                        limitLayoutOfQPSource,
	"backslash-ends 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":               limitLayoutOfQPSource,
	"backslash-ends-tight 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":         limitLayoutOfQPSource,
	"double-spaced 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":                limitLayoutOfQPSource,
	"double-spaced-quoted 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":         limitLayoutOfQPSource,
	"inline-code-lines 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":            limitLayoutOfQPSource,
	"inline-code-indented 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":         limitLayoutOfQPSource,
	"flattened 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":                    limitFlattenedBlock,
	"squashed-spaces 787-lkml-linux-mm-2006-piggin-reply-aubrey-buddyinfo-wrapped-nr-free-4294967295-accounting-bug-healthy":                      limitHardWrapWidth,
	"flattened 789-ykyi-zh-netstat-s-no-section-headers-udp-rcvbuf-errors-110m-of-198g-pruned-693":                                                limitFlattenedBlock,
	"flattened 790-everlong-fr-32bit-2.6-oom-java-normal-free-680kb-below-min-928kb-highmem-swap-2g-free":                                         limitFlattenedBlock,
	"flattened 793-livejournal-ru-scalaxy-mysqld-invoked-oom-killer-killed-27833-ellipsis-16gb-prose":                                             limitFlattenedBlock,
	"flattened 794-dev-lib-ru-sysrq-m-rhel3-32bit-buddy-lines-no-zone-names-12244kb-max-order3":                                                   limitFlattenedBlock,
	"flattened 801-hiboma-ja-memcg-oom-victim-46452-nginx-already-exiting-skip-killing-5.9":                                                       limitFlattenedBlock,
	"flattened 802-oracle-ja-exadata-ipoib-mtu-65520-order5-page-allocation-failures-prose-only":                                                  limitFlattenedBlock,
	"flattened 825-pastebin-sfc-watch-ethtool-s-rate-rx-nodesc-drop-cnt-451k-per-s-dash-prefixed":                                                 limitFlattenedBlock,
	"flattened 837-optimism-2228-l2geth-64gb-dmesg-T-buddy-normal-none-above-32kb-no-swap-task-header-cut":                                        limitFlattenedBlock,
	"flattened 854-jmvl-homelab-md-lxc-eth0-rx-dropped-135158-of-71.9m-softnet-4-drops-backlog-blamed":                                            limitFlattenedBlock,
	"flattened 869-synapse-6587-dmesg-T-normal-present-1gb-free-16432-below-min-16564-swap-cache-0-oom-each-minute":                               limitFlattenedBlock,
	"flattened 891-suse-kb-7017605-kswapd-cpu-sles-zoneinfo-dma-dma32-free-far-above-high-cut-healthy":                                            limitFlattenedBlock,
	"flattened 892-newbetuts-sf-877257-slabtop-kmem-cache-1.39g-3.6m-objects-slab-2.4g-swapping":                                                  limitFlattenedBlock,
	"flattened 899-flamingbytes-blog-buddyinfo-normal-3gb-free-none-above-order6-extfrag-other-host-line-numbers":                                 limitFlattenedBlock,
	"flattened 911-serverdevworker-15988e6bba-netstat-s-grep-buffer-pruned-20560-to-20587-in-10s-collapsed-rmem-16m":                              limitFlattenedBlock,
	"flattened 919-bx2-2025-openresty-ubuntu-6.8-48cpu-syns-to-listen-dropped-149m-syn-recv-496-nginx-backlog-511":                                limitFlattenedBlock,
	"flattened 923-linux-admins-net-smtp-out-n01-netstat-s-syns-to-listen-dropped-2608-tc-qdisc-no-drops-reasmfails-0":                            limitFlattenedBlock,
	"flattened 930-kernel-bugzilla-192981-4.9-backup-server-rsync-page-allocation-stalls-2102516ms-min-free-4g-netconsole-wrapped":                limitFlattenedBlock,
	"flattened 940-kernel-bugzilla-196729-fedora26-4.12-10gb-swap-on-ssd-freezes-8-min-kswapd-top-swappiness-1-min-free-32768":                    limitFlattenedBlock,
	"flattened 946-kernel-bugzilla-211375-fw-netdev-4.18.16-nginx-slabtop-tcp-30gb-sunreclaim-31405028-sockstat-used-13976123-inuse-18":           limitFlattenedBlock,
	"flattened 950-linuxppc-dev-2009-mpc8640d-1gb-2.6.30-vmap-allocation-256mb-flash-ioremap-failed":                                              limitFlattenedBlock,
	"flattened 973-xsos-258-sosreport-net-stats-listenoverflows-287-listendrops-287-outrsts-327844-aligned-columns-cut":                           limitFlattenedBlock,
	"flattened 975-kubernetes-107899-kubectl-describe-node-memorypressure-true-since-jan-20-kubeletinsufficientmemory-requests-0pct-cut":          limitFlattenedBlock,
	"flattened 976-kubeasz-799-kubectl-describe-node-events-nodehasinsufficientmemory-x4-evictionthresholdmet-x38-zh-prose-maintainer-no-problem": limitFlattenedBlock,
	"flattened 978-kubernetes-53669-k8s-1.5-aws-1gb-nodes-pod-laststate-exitcode-137-json-journalctl-u-kubelet-oom-event-cut":                     limitFlattenedBlock,
	"flattened 979-docker-for-linux-670-docker-events-container-oom-jupyter-notebook-k8s-labels-rfc3339-nanos-offset-wrapped-cut":                 limitFlattenedBlock,
	"flattened 982-kubernetes-78174-kubectl-describe-node-events-warning-systemoom-x3-system-oom-encountered-17m-at-kubelet-start":                limitFlattenedBlock,
	"flattened 983-k3s-838-kubectl-describe-node-events-systemoom-x4-over-25m-nodenotready-x3-containergcfailed-cut":                              limitFlattenedBlock,
	"flattened 985-kubernetes-100487-kubectl-describe-pod-events-cgroupoom-victim-stress-pid-470521-memory-demo-cadvisor-0.39-cut":                limitFlattenedBlock,
	"flattened 987-amazon-eks-ami-671-k8s-1.19-r5-kubectl-events-systemoom-x7-victim-process-iptables-in-2-minutes-cut":                           limitFlattenedBlock,
	"flattened 999-virtualization-list-2020-ceph-luminous-5.4.26-kworker-order0-0xa20-virtio-net-try-fill-recv-quoted-wrapped-mem-info":           limitFlattenedBlock,
	"backslash-ends-tight 1004-ceph-users-2019-mimic-broken-connexions-quoted-printable-sysctl-tried-and-reverted-rmem-134217728-healthy":         limitLayoutOfQPSource,
	"flattened 1290-apache-lists-kafka-9648-2021-jira-markup-centos7-3.10-brokers-dmesg-syn-flooding-port-22991-sending-cookies":                  limitFlattenedBlock,
	"prose-around 660-sing-box-3366-openwrt-title-tcp-out-of-memory-considering-tuning-tcpmem-template":                                           limitTitleOnly,
	"wrap-prose-72 660-sing-box-3366-openwrt-title-tcp-out-of-memory-considering-tuning-tcpmem-template":                                          limitMessageInWrappedProse,
	// line-prefix forms (forms10a)
	"chat-bracket-nick 1161-lkp-lockdep-4051a81774-2022-i386-qemu-5.19-rc2-swapper-rtrs-order5-0xcc0-normal-3040-min-2940-qp-quoted":   limitPrefixOnQPSource,
	"compose-logs 741-sui-18768-ubuntu-64gb-validator-oom-normal-free-65140kb-below-min-65180-buddy-cut":                               limitTitleInContainerLog,
	"compose-logs 742-cockpit-12949-two-node-numa-oom-buddy-lists-only-swap-cache-add-4.5-billion":                                     limitTitleInContainerLog,
	"compose-logs 869-synapse-6587-dmesg-T-normal-present-1gb-free-16432-below-min-16564-swap-cache-0-oom-each-minute":                 limitTitleInContainerLog,
	"details-summary 1275-netdata-9996-2020-varnish-host-16gb-ram-200gb-swap-used-netdata-oom-victim-adj-1000-maintainer-prose":        limitTitleInFold,
	"details-summary 527-segfault-50-title-conntrack-table-full-cat-nf-conntrack-max-262144-masscan":                                   limitTitleInFold,
	"details-summary 660-sing-box-3366-openwrt-title-tcp-out-of-memory-considering-tuning-tcpmem-template":                             limitTitleInFold,
	"details-summary 741-sui-18768-ubuntu-64gb-validator-oom-normal-free-65140kb-below-min-65180-buddy-cut":                            limitTitleInFold,
	"details-summary 742-cockpit-12949-two-node-numa-oom-buddy-lists-only-swap-cache-add-4.5-billion":                                  limitTitleInFold,
	"details-summary 756-percona-forum-1833-mysql-5.5-32g-oom-restart-top-free-m-rhel5-zone-dump-cut":                                  limitTitleInFold,
	"details-summary 869-synapse-6587-dmesg-T-normal-present-1gb-free-16432-below-min-16564-swap-cache-0-oom-each-minute":              limitTitleInFold,
	"gutter-bar 1161-lkp-lockdep-4051a81774-2022-i386-qemu-5.19-rc2-swapper-rtrs-order5-0xcc0-normal-3040-min-2940-qp-quoted":          limitPrefixOnQPSource,
	"gutter-bar 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":        limitPrefixOnQPSource,
	"gutter-dot 1161-lkp-lockdep-4051a81774-2022-i386-qemu-5.19-rc2-swapper-rtrs-order5-0xcc0-normal-3040-min-2940-qp-quoted":          limitPrefixOnQPSource,
	"gutter-zero-colon 1161-lkp-lockdep-4051a81774-2022-i386-qemu-5.19-rc2-swapper-rtrs-order5-0xcc0-normal-3040-min-2940-qp-quoted":   limitPrefixOnQPSource,
	"gutter-zero-colon 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks": limitPrefixOnQPSource,
	"html-br 1004-ceph-users-2019-mimic-broken-connexions-quoted-printable-sysctl-tried-and-reverted-rmem-134217728-healthy":           limitPrefixOnQPSource,
	"html-br 1161-lkp-lockdep-4051a81774-2022-i386-qemu-5.19-rc2-swapper-rtrs-order5-0xcc0-normal-3040-min-2940-qp-quoted":             limitPrefixOnQPSource,
	"html-br 132-linux-mips-3.17-loongson2e-16k-pages-pipe-quoted-gfp-dma-empty-dma-zone":                                              limitHardWrapWidth,
	"html-br 780-netdev-2025-axienet-microblaze-6.13.8-ifconfig-rx-dropped-99-of-164-arp-ethtool-s-g-gcc-bug-qp":                       limitPrefixOnQPSource,
	"html-br 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":           limitPrefixOnQPSource,
	"irc-log 1161-lkp-lockdep-4051a81774-2022-i386-qemu-5.19-rc2-swapper-rtrs-order5-0xcc0-normal-3040-min-2940-qp-quoted":             limitPrefixOnQPSource,
	"kubectl-prefix 1161-lkp-lockdep-4051a81774-2022-i386-qemu-5.19-rc2-swapper-rtrs-order5-0xcc0-normal-3040-min-2940-qp-quoted":      limitPrefixOnQPSource,
	"kubectl-prefix 132-linux-mips-3.17-loongson2e-16k-pages-pipe-quoted-gfp-dma-empty-dma-zone":                                       limitHardWrapWidth,
	"kubectl-prefix 741-sui-18768-ubuntu-64gb-validator-oom-normal-free-65140kb-below-min-65180-buddy-cut":                             limitTitleInContainerLog,
	"kubectl-prefix 742-cockpit-12949-two-node-numa-oom-buddy-lists-only-swap-cache-add-4.5-billion":                                   limitTitleInContainerLog,
	"kubectl-prefix 756-percona-forum-1833-mysql-5.5-32g-oom-restart-top-free-m-rhel5-zone-dump-cut":                                   limitTitleInContainerLog,
	"kubectl-prefix 869-synapse-6587-dmesg-T-normal-present-1gb-free-16432-below-min-16564-swap-cache-0-oom-each-minute":               limitTitleInContainerLog,
	"shell-prompt 1275-netdata-9996-2020-varnish-host-16gb-ram-200gb-swap-used-netdata-oom-victim-adj-1000-maintainer-prose":           limitTitleUnderPrompt,
	"shell-prompt 527-segfault-50-title-conntrack-table-full-cat-nf-conntrack-max-262144-masscan":                                      limitTitleUnderPrompt,
	"shell-prompt 660-sing-box-3366-openwrt-title-tcp-out-of-memory-considering-tuning-tcpmem-template":                                limitTitleUnderPrompt,
	"shell-prompt 741-sui-18768-ubuntu-64gb-validator-oom-normal-free-65140kb-below-min-65180-buddy-cut":                               limitTitleUnderPrompt,
	"shell-prompt 742-cockpit-12949-two-node-numa-oom-buddy-lists-only-swap-cache-add-4.5-billion":                                     limitTitleUnderPrompt,
	"shell-prompt 869-synapse-6587-dmesg-T-normal-present-1gb-free-16432-below-min-16564-swap-cache-0-oom-each-minute":                 limitTitleUnderPrompt,
	"shell-prompt-root 1275-netdata-9996-2020-varnish-host-16gb-ram-200gb-swap-used-netdata-oom-victim-adj-1000-maintainer-prose":      limitTitleUnderPrompt,
	"shell-prompt-root 527-segfault-50-title-conntrack-table-full-cat-nf-conntrack-max-262144-masscan":                                 limitTitleUnderPrompt,
	"shell-prompt-root 660-sing-box-3366-openwrt-title-tcp-out-of-memory-considering-tuning-tcpmem-template":                           limitTitleUnderPrompt,
	"shell-prompt-root 741-sui-18768-ubuntu-64gb-validator-oom-normal-free-65140kb-below-min-65180-buddy-cut":                          limitTitleUnderPrompt,
	"shell-prompt-root 742-cockpit-12949-two-node-numa-oom-buddy-lists-only-swap-cache-add-4.5-billion":                                limitTitleUnderPrompt,
	"shell-prompt-root 869-synapse-6587-dmesg-T-normal-present-1gb-free-16432-below-min-16564-swap-cache-0-oom-each-minute":            limitTitleUnderPrompt,
	"stern 132-linux-mips-3.17-loongson2e-16k-pages-pipe-quoted-gfp-dma-empty-dma-zone":                                                limitHardWrapWidth,
	"stern 741-sui-18768-ubuntu-64gb-validator-oom-normal-free-65140kb-below-min-65180-buddy-cut":                                      limitTitleInContainerLog,
	"stern 742-cockpit-12949-two-node-numa-oom-buddy-lists-only-swap-cache-add-4.5-billion":                                            limitTitleInContainerLog,
	"stern 756-percona-forum-1833-mysql-5.5-32g-oom-restart-top-free-m-rhel5-zone-dump-cut":                                            limitTitleInContainerLog,
	"stern 869-synapse-6587-dmesg-T-normal-present-1gb-free-16432-below-min-16564-swap-cache-0-oom-each-minute":                        limitTitleInContainerLog,
	// fix20a (round 15): BSD netstat -s udp is column-shaped like Linux's; ethtool -g flattened.
	"bullets 1797-f-stack-612-2021-ff-netstat-udp-65635420-received-63583585-dropped-full-socket-buffers":              limitColumnShape,
	"inline-code-indented 1797-f-stack-612-2021-ff-netstat-udp-65635420-received-63583585-dropped-full-socket-buffers": limitColumnShape,
	"flattened 1797-f-stack-612-2021-ff-netstat-udp-65635420-received-63583585-dropped-full-socket-buffers":            limitFlattenedBlock,
	// forum-page forms (h17b)
	"bullets-star 1010-pragasdigitais-pt-ifconfig-old-format-eth0-10mbps-rx-errors-217-overrun-26-of-3136-ppp0-imq0-clean":                  limitColumnShape,
	"bullets-star 1064-dpvs-454-2019-i40e-dpdk-dpip-link-show-imissed-8488-rx-nombuf-0-mbuf-avail-1040450":                                  limitColumnShape,
	"bullets-star 1161-lkp-lockdep-4051a81774-2022-i386-qemu-5.19-rc2-swapper-rtrs-order5-0xcc0-normal-3040-min-2940-qp-quoted":             limitPrefixOnQPSource,
	"bullets-star 132-linux-mips-3.17-loongson2e-16k-pages-pipe-quoted-gfp-dma-empty-dma-zone":                                              limitHardWrapWidth,
	"bullets-star 1342-usrp-users-2021-n321-embedded-ifconfig-squashed-spaces-eth0-dropped-11485-of-618374-sfp-dropped-804-796":             limitColumnShape,
	"bullets-star 1360-usrp-users-2024-n310-host-backtick-per-line-ifconfig-enp3s0f1-dropped-198-of-1226-enp3s0f0-90-of-4616-n310-sfp-zero": limitColumnShape,
	"bullets-star 1797-f-stack-612-2021-ff-netstat-udp-65635420-received-63583585-dropped-full-socket-buffers":                              limitColumnShape,
	"bullets-star 469-tinylab-190-zh-lwn-translation-diff-buddyinfo-normal-258-9-5-1gb":                                                     limitDiffBuddyinfoIndented,
	"bullets-star 620-sc4s-2604-ubuntu22-netstat-anus-memerrors-1945378-of-6834146-rmem-default-512mib":                                     limitColumnShape,
	"bullets-star 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":           limitPrefixOnQPSource,
	"cut-last-line 1063-pfring-831-2022-ice-zc-pfcount-66pct-dropped-ethtool-s-rx-dropped-20981600-cut":                                     limitCutLastLine,
	"cut-last-line 1067-sonic-swss-838-2019-vlab-01-syslog-oom-task-list-fpmsyncd-rss-315863-pages-cut":                                     limitCutLastLine,
	"cut-last-line 1267-netdata-pr-3976-2018-spirogg-alarm-email-1m-ipv4-tcp-listen-drops-0.55-10-20-mails-a-day":                           limitCutLastLine,
	"cut-last-line 1701-sh-face-rec-9-2018-raspberrypi-uwsgi-listen-queue-full-101-of-100":                                                  limitCutLastLine,
	"cut-last-line 1827-cryptopp-720-2018-godaddy-virtuozzo-1gb-no-swap-dmesg-out-of-memory-in-ub-5299-oom-killed-cut":                      limitCutLastLine,
	"cut-last-line 3318-manticore-959-2022-mem-info-tail-free-swap-0kb-of-998396kb-buddy-dma32-472588kb-normal-73832kb":                     limitCutLastLine, // the last line is "Total swap = 998396kB": cut, swap's size is gone
	"cut-last-line 230-be2net-ethtool-S-rxq0-drops-no-frags-prefixed-names":                                                                 limitCutLastLine,
	"cut-last-line 387-hotsos-issue-one-line-nf-conntrack-doubled-prefix-table-full":                                                        limitCutLastLine,
	"cut-last-line 423-lede-5072-openwrt-x86-logread-kern-info-syn-flooding-port-5000-cn-template":                                          limitCutLastLine,
	"cut-last-line 532-plantegg-chinese-blog-100m-line-20ms-sql-22mb-25s-send-buffer-16k-800kb-s":                                           limitCutLastLine,
	"cut-last-line 642-manvscloud-ko-amzn2-sar-r-commit-437pct-fork-cannot-allocate-flattened-cut":                                          limitCutLastLine,
	"cut-last-line 736-rtw88-246-rtl8723du-usb-failed-to-allocate-rx-skb-32kib-contiguous-maintainer-prose":                                 limitCutLastLine,
	"cut-last-line 978-kubernetes-53669-k8s-1.5-aws-1gb-nodes-pod-laststate-exitcode-137-json-journalctl-u-kubelet-oom-event-cut":           limitCutLastLine,
	"gutter-tab 1161-lkp-lockdep-4051a81774-2022-i386-qemu-5.19-rc2-swapper-rtrs-order5-0xcc0-normal-3040-min-2940-qp-quoted":               limitPrefixOnQPSource,
	"gutter-tab 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":             limitPrefixOnQPSource,
	"kernel-tag 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":             limitPrefixOnQPSource,
	"quote-bar 1161-lkp-lockdep-4051a81774-2022-i386-qemu-5.19-rc2-swapper-rtrs-order5-0xcc0-normal-3040-min-2940-qp-quoted":                limitPrefixOnQPSource,
	"quote-bar 478-kaivanov-blog-gist-pipes-out-of-socket-memory-tcp-mem-sockstat-orphan-126800":                                            limitBarQuoteOnCellEnds,
	"quote-bar 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":              limitPrefixOnQPSource,
	// fix27d
	"prose-around 2398-na3-hatena-ja-tcp-too-many-of-orphaned-sockets-message-explainer-tcp-max-orphans-no-host-healthy":    limitTitleFirstLine,
	"shell-prompt 2398-na3-hatena-ja-tcp-too-many-of-orphaned-sockets-message-explainer-tcp-max-orphans-no-host-healthy":    limitTitleFirstLine,
	"details-summary 2398-na3-hatena-ja-tcp-too-many-of-orphaned-sockets-message-explainer-tcp-max-orphans-no-host-healthy": limitTitleFirstLine,
	"flattened 2382-scrapbox-dojineko-ja-nf-conntrack-note-quoted-table-full-messages-max-65536-no-host-healthy":            limitJaLeadInOwnLine,
	// fix30c: sar -B's table (its header without a time) is told apart only by its line breaks, as 618's.
	"flattened 2633-moby-32195-2017-swarm-manager-3.10.0-514-nf-conntrack-falling-back-to-vmalloc-sar-b-pgscank-vmeff-5pct": limitFlattenedBlock,
	// round 33: netstat -s's Tcp section and uWSGI's own listen-queue line, each one of the
	// classes above (402's netstat -s, 1703's uWSGI line), flattened with the whole post.
	"flattened 3263-thunderpush-24-2014-tornado-errno-24-too-many-open-files-lsof-1050-netstat-s-retransmits-35pct": limitFlattenedBlock,
	"flattened 3265-sentry-self-hosted-3404-2024-uwsgi-listen-queue-full-501-of-500-web-unhealthy":                  limitProgramLineOwnLine,
	// fix43a: docker inspect's "OOMKilled": true is read in a sentence only where it ends the
	// line after the lead-in that ran the command ("a docker inspect gave me : ..."); joined
	// onto one line with the whole post, the log and prose follow it, as they follow the key
	// named in advice ("check \"OOMKilled\": true in docker inspect"), which is not read.
	"flattened 3629-valhalla-5820-2026-docker-inspect-oomkilled-true-build-tiles": limitDockerInspectQuotedEndsLine,
}

const limitSacctTableRows = "sacct's table is read by its header, its dash row and one row a job or step (slurmsacct.go sacctTable); the whole post flattened onto one line has no rows left, and an OUT_OF_ME+ word in a sentence is no sacct row (advice and questions name it too)"

const limitDockerInspectQuotedEndsLine = "docker inspect's field quoted at the end of the sentence that ran the command (kube_runner.go reDockerInspectSaid) is read only where it ends its line: flattened with the whole post, words follow it as they follow the key named in advice or a question, which are not read"

func TestFormsKeepTheVerdict(t *testing.T) {
	if testing.Short() {
		t.Skip("parses a sample of the corpus in every form")
	}
	start := time.Now()
	cases, err := loadCorpus("../../testdata/corpus")
	if err != nil {
		t.Fatal(err)
	}
	type loss struct{ form, stem, what string }
	var losses []loss
	runs := 0
	broken := map[string]int{}
	checked := map[string]int{}
	for _, c := range cases {
		if len(c.Label.Must) == 0 && !c.Label.Healthy {
			continue
		}
		raw, err := os.ReadFile(c.TextPath)
		if err != nil {
			t.Fatal(err)
		}
		text := string(raw)
		var base verdict
		for _, f := range forms {
			if !picked(f.name, c.Stem) || !formWanted(f.name) || (f.applies != nil && !f.applies(text)) {
				continue
			}
			if base == nil {
				if base, err = diagnoseText(text, c.Stem); err != nil {
					t.Fatalf("%s: %v", c.Stem, err)
				}
				runs++
			}
			got, err := diagnoseText(f.apply(text), c.Stem)
			runs++
			if err != nil {
				t.Errorf("%s in form %s: %v", c.Stem, f.name, err)
				continue
			}
			checked[f.name]++
			var what []string
			for _, id := range c.Label.Must {
				if _, was := base[id]; was {
					if _, is := got[id]; !is {
						what = append(what, "lost "+id)
					}
				}
			}
			if c.Label.Healthy {
				for id, s := range got {
					if s >= diagnose.Warning && (base[id] < diagnose.Warning || !has(base, id)) {
						what = append(what, "new "+s.String()+" "+id)
					}
				}
			}
			key := f.name + " " + c.Stem
			_, known := formsKnownLimits[key]
			switch {
			case len(what) > 0:
				sort.Strings(what)
				broken[f.name]++
				if !known {
					losses = append(losses, loss{f.name, c.Stem, strings.Join(what, ", ")})
				}
			case known:
				t.Errorf("%s: listed in formsKnownLimits but keeps its verdict now: remove it", key)
			}
		}
	}
	for _, l := range losses {
		t.Errorf("form %-22s %s: %s", l.form, l.stem, l.what)
	}
	names := make([]string, 0, len(forms))
	for _, f := range forms {
		names = append(names, f.name)
	}
	for _, n := range names {
		t.Logf("form %-22s broke %3d of %3d cases", n, broken[n], checked[n])
	}
	t.Logf("%d diagnoses in %v", runs, time.Since(start).Round(time.Millisecond))
}

func has(v verdict, id string) bool { _, ok := v[id]; return ok }
