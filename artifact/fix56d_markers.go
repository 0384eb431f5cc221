package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// stripSecondMarker removes a second list marker behind the one stripOtherPrefixes took
// ("- - 353828 segments retransmited"): a bulleted paste put in a bulleted list again, or
// a nested list's item, each line of command output behind both (corpus 4623 under the
// bullets form). The same rules as the first (stripListMarker): a word must follow it.
func stripSecondMarker(s string) string {
	if len(s) < 4 || s[0] != '-' && s[0] != '*' && s[0] != '+' && s[0] != 0xe2 {
		return s
	}
	return stripListMarker(s)
}

// stripDeepMarker removes a list marker behind an indent of two to eight blanks or a tab
// ("    - 353828 segments retransmited", "\t- Tcp:"): a bulleted paste indented as a
// Markdown code block or nested in a list (corpus 4623 under indent-4). The indent stays,
// as it is for an indented line without a marker, and only before a line of output
// (outputAfterMarker); only "- ", "* " and "+ " before a word
// go (stripListMarker); a page's rendered "•" stays, as the stated readers take a bulleted
// sentence with it ("  • 02:33 - OOM-killer finally kills a convert process", corpus 3857), so a unified diff's indented removed line ("-   foo") and a
// YAML sequence's "- " before a blank keep theirs. A numbered marker stays: an indented
// number and a dot is a column of some table as often as a list's.
func stripDeepMarker(s string) string {
	i := 0
	for i < len(s) && i < 9 && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i < 2 && s[0] == ' ' || i == len(s) || i > 8 {
		return s
	}
	c := s[i]
	if c != '-' && c != '*' && c != '+' {
		return s
	}
	if t := stripListMarker(s[i:]); len(t) < len(s)-i && outputAfterMarker(t) {
		return s[:i] + t
	}
	return s
}

// reSyslogDate starts a syslog line ("Sep 7 20:09:20 ", "Sep  7 20:09:20 ").
var reSyslogDate = lazyre.New(`^(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) {1,2}\d{1,2} \d\d:\d\d:\d\d `)

// outputAfterMarker: what an indented marker stands before is a line of command output or a
// log, not a nested item of a post's list ("  * mlx4_en: page allocation failure ... under
// NFS load") or a YAML sequence ("     - name: eth0"), which keep their markers
// (TestH17bForumFormLines): a figure first ("353828 segments retransmited"), a section
// header alone ("Tcp:", "IcmpMsg:"), a log's stamp or a syslog date, or a file's row of
// one name and its figure ("MemTotal: 122220 kB", "net.core.rmem_max = 4194304";
// corpus 4782 under indent-4), a shell prompt's command or atop's row (4788).
func outputAfterMarker(t string) bool {
	if t == "" {
		return false
	}
	if isDigit(t[0]) || startsLogPrefix(t) || reSyslogDate.MatchString(t) || reNamedFigure.MatchString(t) || reRowOrPrompt.MatchString(t) {
		return true
	}
	h, ok := strings.CutSuffix(strings.TrimRight(t, " \t"), ":")
	return ok && h != "" && !strings.ContainsAny(h, " \t:")
}

// reRowOrPrompt is a shell prompt before a command ("$ vmstat 10", "# cat /proc/meminfo")
// or atop's screen row, a label of three capitals and a bar ("MEM | tot 7.7G | ..."), or
// vmstat's two header lines ("procs -----memory----- ...", "r b swpd free ...").
var reRowOrPrompt = lazyre.New(`^(?:[$#] [a-z/.]|[A-Z]{3} +\| |procs -|r +b +swpd )`)

// reNamedFigure is a row of /proc/meminfo, /proc/vmstat's "name: N" readers or sysctl -a:
// one name (no blank in it), a colon or " = ", and figures alone, the last maybe with
// meminfo's unit ("Note: 5 hosts were affected" is a sentence); or a name and two or more
// figures (a user_beancounters row, "lockedpages 0 0 256 256 0").
var reNamedFigure = lazyre.New(`^[A-Za-z][\w.()/-]*(?:(?::[ \t]+| = )\d+(?:\.\d+)?(?:[ \t]+\d+)*(?:[ \t]+kB)?|(?:[ \t]+\d+){2,})[ \t]*$`)
