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
	limitTitleUnderPrompt      = "the case's evidence is its title: under a shell prompt's command line ('$ cat notes.txt') the first line is what the command printed, not a title a person wrote over a report, so it is rightly not read as one (a terminal's copy of an issue's title is no real paste)"
	limitTitleInFold           = "the case's evidence is its title: a <details> fold puts the whole text in a fenced block, and a first line inside a code block is output, not a title (an issue's title stands above the fold, never inside it)"
	limitPrefixOnQPSource      = "quoted-printable mail source ('=' soft breaks at the line ends, '=0A', '=3D'): a prefix or a suffix on each encoded line (a chat's nick, a multiplexer's name, a gutter, '<br>') lands inside the decoded lines when the soft breaks join them, since the mail is decoded before the lines are read; chats, log multiplexers, paste sites and pages show a mail decoded, not its encoded source"
	limitWrappedLogWidth       = "a kernel log wrapped at 72/80 by a mail client: unwrap.go infers the width from the kernel lines' lengths and joins a piece only when its first word would not have fitted; here too few lines reach the width (short records, stack-word rows of a MIPS or Android report, an unbreakable token longer than the width) and a piece holding the mode or the gfp stays a line of its own"
)

var formsKnownLimits = map[string]string{
	// line-prefix forms (forms10a)
	"chat-bracket-nick 1161-lkp-lockdep-4051a81774-2022-i386-qemu-5.19-rc2-swapper-rtrs-order5-0xcc0-normal-3040-min-2940-qp-quoted":   limitPrefixOnQPSource,
	"compose-logs 1161-lkp-lockdep-4051a81774-2022-i386-qemu-5.19-rc2-swapper-rtrs-order5-0xcc0-normal-3040-min-2940-qp-quoted":        limitPrefixOnQPSource,
	"compose-logs 741-sui-18768-ubuntu-64gb-validator-oom-normal-free-65140kb-below-min-65180-buddy-cut":                               limitTitleInContainerLog,
	"compose-logs 742-cockpit-12949-two-node-numa-oom-buddy-lists-only-swap-cache-add-4.5-billion":                                     limitTitleInContainerLog,
	"compose-logs 756-percona-forum-1833-mysql-5.5-32g-oom-restart-top-free-m-rhel5-zone-dump-cut":                                     limitTitleInContainerLog,
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
	"shell-prompt 756-percona-forum-1833-mysql-5.5-32g-oom-restart-top-free-m-rhel5-zone-dump-cut":                                     limitTitleUnderPrompt,
	"shell-prompt 869-synapse-6587-dmesg-T-normal-present-1gb-free-16432-below-min-16564-swap-cache-0-oom-each-minute":                 limitTitleUnderPrompt,
	"shell-prompt-root 1275-netdata-9996-2020-varnish-host-16gb-ram-200gb-swap-used-netdata-oom-victim-adj-1000-maintainer-prose":      limitTitleUnderPrompt,
	"shell-prompt-root 527-segfault-50-title-conntrack-table-full-cat-nf-conntrack-max-262144-masscan":                                 limitTitleUnderPrompt,
	"shell-prompt-root 660-sing-box-3366-openwrt-title-tcp-out-of-memory-considering-tuning-tcpmem-template":                           limitTitleUnderPrompt,
	"shell-prompt-root 741-sui-18768-ubuntu-64gb-validator-oom-normal-free-65140kb-below-min-65180-buddy-cut":                          limitTitleUnderPrompt,
	"shell-prompt-root 742-cockpit-12949-two-node-numa-oom-buddy-lists-only-swap-cache-add-4.5-billion":                                limitTitleUnderPrompt,
	"shell-prompt-root 756-percona-forum-1833-mysql-5.5-32g-oom-restart-top-free-m-rhel5-zone-dump-cut":                                limitTitleUnderPrompt,
	"shell-prompt-root 869-synapse-6587-dmesg-T-normal-present-1gb-free-16432-below-min-16564-swap-cache-0-oom-each-minute":            limitTitleUnderPrompt,
	"stern 1161-lkp-lockdep-4051a81774-2022-i386-qemu-5.19-rc2-swapper-rtrs-order5-0xcc0-normal-3040-min-2940-qp-quoted":               limitPrefixOnQPSource,
	"stern 132-linux-mips-3.17-loongson2e-16k-pages-pipe-quoted-gfp-dma-empty-dma-zone":                                                limitHardWrapWidth,
	"stern 741-sui-18768-ubuntu-64gb-validator-oom-normal-free-65140kb-below-min-65180-buddy-cut":                                      limitTitleInContainerLog,
	"stern 742-cockpit-12949-two-node-numa-oom-buddy-lists-only-swap-cache-add-4.5-billion":                                            limitTitleInContainerLog,
	"stern 756-percona-forum-1833-mysql-5.5-32g-oom-restart-top-free-m-rhel5-zone-dump-cut":                                            limitTitleInContainerLog,
	"stern 869-synapse-6587-dmesg-T-normal-present-1gb-free-16432-below-min-16564-swap-cache-0-oom-each-minute":                        limitTitleInContainerLog,
	"bullets 1342-usrp-users-2021-n321-embedded-ifconfig-squashed-spaces-eth0-dropped-11485-of-618374-sfp-dropped-804-796":             limitBulletsOnSpacedRows,
	"bullets 1345-usrp-users-2023-n321-quoted-ifconfig-eth0-errors-211-overruns-96-frame-115-of-108385-blank-quoted-lines":             limitBulletsOnSpacedRows,
	"journal-cat 416-acs-engine-220-hv-netvsc-3.10-el7-tab-indented-trace-only-page-frag-alloc-netvsc-recv-shrink-inactive":            limitJournalCatNoStamp,
	"journal-cat 736-rtw88-246-rtl8723du-usb-failed-to-allocate-rx-skb-32kib-contiguous-maintainer-prose":                              limitJournalCatNoStamp,
	"journal-json 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":      limitJournalOfQPSource,
	"journal-verbose 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":   limitJournalOfQPSource,
	"journal-json-seq 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":  limitJournalOfQPSource,
	"prose-around 741-sui-18768-ubuntu-64gb-validator-oom-normal-free-65140kb-below-min-65180-buddy-cut":                               limitTitleOnly,
	"prose-around 742-cockpit-12949-two-node-numa-oom-buddy-lists-only-swap-cache-add-4.5-billion":                                     limitTitleOnly,
	"prose-around 756-percona-forum-1833-mysql-5.5-32g-oom-restart-top-free-m-rhel5-zone-dump-cut":                                     limitTitleOnly,
	"prose-around 869-synapse-6587-dmesg-T-normal-present-1gb-free-16432-below-min-16564-swap-cache-0-oom-each-minute":                 limitTitleOnly,
	"cri-prefix 741-sui-18768-ubuntu-64gb-validator-oom-normal-free-65140kb-below-min-65180-buddy-cut":                                 limitTitleInContainerLog,
	"cri-prefix 742-cockpit-12949-two-node-numa-oom-buddy-lists-only-swap-cache-add-4.5-billion":                                       limitTitleInContainerLog,
	"cri-prefix 756-percona-forum-1833-mysql-5.5-32g-oom-restart-top-free-m-rhel5-zone-dump-cut":                                       limitTitleInContainerLog,
	"cri-prefix 869-synapse-6587-dmesg-T-normal-present-1gb-free-16432-below-min-16564-swap-cache-0-oom-each-minute":                   limitTitleInContainerLog,
	"wrap-prose-72 763-e-com-net-udp-netstat-su-1629m-receive-errors-of-2829m-rmem-max-131071-flattened":                               limitFlattenedThenWrapped,
	"wrap-prose-80 763-e-com-net-udp-netstat-su-1629m-receive-errors-of-2829m-rmem-max-131071-flattened":                               limitFlattenedThenWrapped,
	"zero-width 780-netdev-2025-axienet-microblaze-6.13.8-ifconfig-rx-dropped-99-of-164-arp-ethtool-s-g-gcc-bug-qp":                    limitZeroWidthInQP,
	"zero-width 781-lkml-2024-kondratiev-riscv-6.11-dram-at-32g-swapper0-order7-gfp-kernel-dma32-atomic-pool-qp-0a-line-breaks":        limitZeroWidthInQP,
	"wrap-log-72 006-arm64-android-fork-order2-dma-4.1":                                                                                limitWrappedLogWidth,
	"wrap-log-80 006-arm64-android-fork-order2-dma-4.1":                                                                                limitWrappedLogWidth,
	"bullets 1010-pragasdigitais-pt-ifconfig-old-format-eth0-10mbps-rx-errors-217-overrun-26-of-3136-ppp0-imq0-clean":                  limitColumnShape,
	"bullets 1064-dpvs-454-2019-i40e-dpdk-dpip-link-show-imissed-8488-rx-nombuf-0-mbuf-avail-1040450":                                  limitColumnShape,
	"indent-4 010-busybox-ifconfig-sdio-wifi-rx-dropped":                                                                               limitColumnShape,
	"indent-4 122-android-unisoc-gfp-noio-order0-cma-only-dma32-highatomic-normal-seq-prefix":                                          "Unisoc's sequence prefix before the stamp is read only at column 0 (stripUnisocSeq), and startsLogPrefix does not know it, so the code block's indent stays",
	"wrap-log-72 122-android-unisoc-gfp-noio-order0-cma-only-dma32-highatomic-normal-seq-prefix":                                       limitWrappedLogWidth,
	"wrap-log-80 122-android-unisoc-gfp-noio-order0-cma-only-dma32-highatomic-normal-seq-prefix":                                       limitWrappedLogWidth,
	"bullets 132-linux-mips-3.17-loongson2e-16k-pages-pipe-quoted-gfp-dma-empty-dma-zone":                                              limitHardWrapWidth,
	"cri-prefix 132-linux-mips-3.17-loongson2e-16k-pages-pipe-quoted-gfp-dma-empty-dma-zone":                                           limitHardWrapWidth,
	"indent-4 132-linux-mips-3.17-loongson2e-16k-pages-pipe-quoted-gfp-dma-empty-dma-zone":                                             limitHardWrapWidth,
	"nbsp-runs 132-linux-mips-3.17-loongson2e-16k-pages-pipe-quoted-gfp-dma-empty-dma-zone":                                            limitHardWrapWidth,
	"zero-width 132-linux-mips-3.17-loongson2e-16k-pages-pipe-quoted-gfp-dma-empty-dma-zone":                                           limitHardWrapWidth,
	"indent-4 260-jp-notes-ifconfig-masked-eth1-1.2G-dropped-ring-256-on-eth0":                                                         limitColumnShape,
	"wrap-log-72 436-openwrt-packages-417-lantiq-mips-3.10-dsl-cpe-control-order4-0x2000d0-mips-stack-words":                           limitWrappedLogWidth,
	"bullets 469-tinylab-190-zh-lwn-translation-diff-buddyinfo-normal-258-9-5-1gb":                                                     "buddyinfo quoted in a diff ('+      Node 0, zone   Normal ...'): behind a code block's indent the '+' is no diff mark at column 0, and a list marker in front of it hides it too",
	"indent-4 469-tinylab-190-zh-lwn-translation-diff-buddyinfo-normal-258-9-5-1gb":                                                    "buddyinfo quoted in a diff ('+      Node 0, zone   Normal ...'): behind a code block's indent the '+' is no diff mark at column 0, and a list marker in front of it hides it too",
	"prose-around 527-segfault-50-title-conntrack-table-full-cat-nf-conntrack-max-262144-masscan":                                      limitTitleOnly,
	"wrap-log-72 546-k8s-82534-slub-mnt-cache-blkdev-ioc-kmalloc-128-gfp-0x2088020-two-nodes":                                          limitWrappedLogWidth,
	"wrap-log-80 555-photon-1535-vmware-log-guest-prefix-memcg-stats-task-table-oom-cut":                                               limitWrappedLogWidth,
	"bullets 620-sc4s-2604-ubuntu22-netstat-anus-memerrors-1945378-of-6834146-rmem-default-512mib":                                     limitColumnShape,
	"indent-4 620-sc4s-2604-ubuntu22-netstat-anus-memerrors-1945378-of-6834146-rmem-default-512mib":                                    limitColumnShape,
	"prose-around 660-sing-box-3366-openwrt-title-tcp-out-of-memory-considering-tuning-tcpmem-template":                                limitTitleOnly,
	"wrap-prose-72 660-sing-box-3366-openwrt-title-tcp-out-of-memory-considering-tuning-tcpmem-template":                               limitMessageInWrappedProse,
}

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
