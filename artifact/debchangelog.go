package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// A Debian changelog quoted in a tracker (pre-round 15, Launchpad and the Debian BTS): the
// Launchpad Janitor's "This bug was fixed in the package linux - 4.15.0-117.118" comment,
// the BTS's closing mail ("We believe that the bug you reported is fixed in the latest
// version of linux ...") with the upload's .changes, a maintainer's reply pasting an entry.
// Its entries are bug titles and commit subjects of other hosts' reports ("mlx4_en: page
// allocation failure: order:3, mode:0x4020 under NFS load (LP: #1890456)", "nf_conntrack:
// table full, dropping packet with many short connections", "- Linux 4.19.67"): no line of
// it is this host's log, setting, figure or kernel release. The whole entry is prose that
// states nothing: its lines are counted as prose and handed to no reader, not even the
// host facts (a stable update's "- Linux 4.19.67" is no running kernel).
//
// The form is deb-changelog(5) (dpkg; Debian Policy 4.4):
//
//	package (version) distribution(s); urgency=urgency [, other=value]
//
//	  * change details
//	    more change details
//
//	 -- maintainer name <email address>  date
//
// and, inside a .changes file's "Changes:" field (deb-changes(5)), the same lines with one
// more leading blank and " ." for each empty line. An entry runs from its header line over
// blank lines and indented lines (the details; a copy that lost its indentation keeps the
// "* " and "- " bullets and "[ Name ]" groups) to its trailer line, inclusive; a line of
// anything else ends it. Gate: a line that is not a log line and holds "; urgency=" (one
// substring search, only on the text's other lines) before the header's expression.

// reChangelogHeader is deb-changelog(5)'s entry header: a source package name (lower case
// letters, digits, "+", "-", "."), its version in parentheses, one or more distributions and
// the urgency.
var reChangelogHeader = lazyre.New(`^[ \t]{0,2}[a-z0-9][a-z0-9+.-]+ \([A-Za-z0-9.+:~-]+\) [A-Za-z0-9./+ -]+; urgency=[a-zA-Z]+`)

// reChangelogTrailer is the entry's trailer: " -- " (one blank, two hyphens, one blank),
// the maintainer with an address in angle brackets, two blanks and the date.
var reChangelogTrailer = lazyre.New(`^[ \t]{1,2}-- [^<>]*<[^<>]*>  \S`)

// debChangelog is the state of the entry being read: open, and the number of the line
// expected next (a line of another number, as when a streamed window is read again,
// closes it).
type debChangelog struct {
	open bool
	next int
}

// changelogLine reports whether line i is a line of a quoted Debian changelog entry (its
// header, a detail, a blank line between details, its trailer). Called for every line
// before anything reads it; cheap unless an entry is open or the line holds "; urgency=".
func (d *doc) changelogLine(i int) bool {
	l := &d.ls[i]
	c := &d.clog
	if c.open {
		if l.No != c.next {
			c.open = false
		} else if t := l.Text; changelogDetail(t) {
			c.next = l.No + 1
			if len(t) > 4 && t[0] == ' ' && strings.HasPrefix(strings.TrimLeft(t, " \t"), "-- ") && reChangelogTrailer.MatchString(t) {
				c.open = false // the trailer ends the entry
			}
			return true
		} else {
			c.open = false
		}
	}
	if l.Kernel || l.Syslog || !strings.Contains(l.Text, "; urgency=") || !reChangelogHeader.MatchString(l.Text) {
		return false
	}
	c.open, c.next = true, l.No+1
	return true
}

// changelogDetail: t may be a line inside an entry: blank, " ." (.changes' empty line),
// indented, or a detail's bullet or a "[ Name ]" group that a copy left unindented.
func changelogDetail(t string) bool {
	if isBlank(t) || t == " ." {
		return true
	}
	switch t[0] {
	case ' ', '\t':
		return true
	case '*', '-', '+':
		return len(t) > 1 && t[1] == ' '
	case '[':
		return strings.HasSuffix(strings.TrimRight(t, " \t"), "]")
	}
	return false
}
