package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// fix54c: a mail thread that a web archive's index flattened onto one line, its quote
// markers kept inline: "On Wed, Sep 18, 2013 ..., J. W. wrote: > On Tue ... wrote: > > >>
// [<ffffffff810d1a5e>] dump_header+0x7e/0x1e0 > > >> [<ffffffff810d1f25>] oom_kill_process
// ...". Each original line started with its quote marks ("> ", ">> ", "> > >> "), so a run
// of them after white space is where a line broke. The line is cut back there (appendLine,
// as a joined syslog line: every piece keeps the paste's one line number) and each piece
// read as the quoted line it was (stripQuote takes the marks off), so a kernel trace
// quoted in the thread is read as a trace. Only a line that is such a mail: an attribution
// ("wrote: >") and at least quotedMailMinRuns runs; a '>' glued to a word ("<a@b>",
// "->") is no mark. And only a mail that quotes a kernel stack (two frames "[<addr>]"):
// a flattened mail of anything else is cut by the commands' own words (flattened.go:
// ifconfig, ethtool -S, meminfo, vmstat ...), and a cut at the quote runs would glue the
// poster's own unquoted output to the last quoted piece, where those readers no longer
// find it (the lead's forms check: four flattened mails of corpus cases lost their
// findings that way).

// quotedMailMinRuns: the quote-mark runs a flattened mail line holds at least (one
// attribution and a few quoted lines); "x > 5" once in a sentence is not a mail.
const quotedMailMinRuns = 4

// reQuotedFrame: a kernel stack frame's address, "[<ffffffff810d1a5e>]".
var reQuotedFrame = lazyre.New(`\[<[0-9a-f]{8,16}>\]`)

// reQuoteRun: a run of quote marks after white space, up to the quoted text.
var reQuoteRun = lazyre.New(`[ \t]+(?:>[ \t]?)*>`)

// quotedMailPieces: the lines a flattened mail line held, or nil when it is not one.
func quotedMailPieces(line string) []string {
	if strings.Contains(line, "wrote: &gt;") {
		// The archive page's source: its quote marks as entities (parseLine decodes
		// them later, one piece at a time).
		if u, ok := unescapeHTML(line); ok {
			line = u
		}
	}
	if !strings.Contains(line, "wrote: >") && !strings.Contains(line, "wrote:>") {
		return nil
	}
	if len(reQuotedFrame.FindAllStringIndex(line, 2)) < 2 {
		return nil
	}
	runs := reQuoteRun.FindAllStringIndex(line, -1)
	if len(runs) < quotedMailMinRuns {
		return nil
	}
	var out []string
	at := 0
	for _, r := range runs {
		// The run ends the piece before it; the quote marks open the next one.
		if piece := strings.TrimRight(line[at:r[0]], " \t"); piece != "" || at > 0 {
			out = append(out, piece)
		}
		at = r[0] + len(line[r[0]:r[1]]) - len(strings.TrimLeft(line[r[0]:r[1]], " \t"))
	}
	return append(out, strings.TrimRight(line[at:], " \t"))
}
