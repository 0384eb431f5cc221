package artifact

import "strings"

// fix40c (corpus 3425): a tracker thread's title is its opener's words. An excerpt of a
// thread as the search tool's issues corpus keeps it (and as the tracker's page heads it)
// is the breadcrumb ("owner/repo · issue #1836 · closed · Shell", trackerCrumbs), the
// title heading ("# MySQL uses too much memory, causing OOM"), then each post under its
// author line ("pachulo · comment · 2023-10-28"; the opener's post is "· description ·").
// When the excerpt keeps posts but none is the opener's, the title is what another person
// said of another host: the thread's reporter, whose report the text leaves out, and the
// posts are replies ("I'm using this on a Raspberry 3 ... and I don't experience any
// problems"). Its numbers and events are that person's (subjectAt: SubjectOther), as a
// `>` quote of someone else's message is. With the opener's post in the text, or with no
// author lines at all (a page copied whole, a title over its own body), the title stays the
// author's.

// trackerPostKind is the kind of post an author line heads ("description", "comment",
// "review", "review thread"): the author's login, the kind and the date, joined by " · "
// ("pachulo · comment · 2023-10-28"). ok is false for any other line.
func trackerPostKind(line string) (kind string, ok bool) {
	f := strings.Split(strings.TrimSpace(line), " · ")
	if len(f) != 3 || f[0] == "" || strings.ContainsAny(f[0], " \t") || !isoDate(f[2]) {
		return "", false
	}
	switch f[1] {
	case "description", "comment", "review", "review thread":
		return f[1], true
	}
	return "", false
}

// isoDate: "2023-10-28".
func isoDate(s string) bool {
	return len(s) == 10 && s[4] == '-' && s[7] == '-' && isDigits(s[:4]) && isDigits(s[5:7]) && isDigits(s[8:])
}

// openerTitleLine is the line number of a tracker excerpt's title heading when the excerpt
// holds posts but not the opener's (the title is another person's words), 0 otherwise.
func openerTitleLine(ps []proseLine) int {
	n := trackerCrumbs(ps)
	if n == 0 || !strings.HasPrefix(strings.TrimSpace(ps[n].text), "# ") {
		return 0
	}
	posts := 0
	for _, p := range ps[n+1:] {
		kind, ok := trackerPostKind(p.text)
		if !ok {
			continue
		}
		if kind == "description" {
			return 0
		}
		posts++
	}
	if posts == 0 {
		return 0
	}
	return ps[n].no
}

// anyKernelLine: the text holds the kernel's log (a record read into the log).
func (d *doc) anyKernelLine() bool {
	return d.logCount > 0 || d.tl.Log.Len() > 0
}
