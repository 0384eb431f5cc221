package main

import (
	"fmt"
	"io"
	"strings"

	"headroom/internal/lazyre"
)

// A held-out batch is only held out if its sources are new: a text the corpus already holds,
// or the same thread read again, measures what was already fixed. -used URL... answers, for
// each candidate a gatherer found, whether a case already came from it, before anything is
// copied or labelled.

var reSourceURL = lazyre.New(`https?://[^\s'"()<>,;]+`)

// normURL is a URL as the same page: no scheme, no "www.", no fragment or query, no
// trailing slash, lower case.
func normURL(u string) string {
	u = strings.ToLower(strings.TrimSpace(u))
	u = strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
	u = strings.TrimPrefix(u, "www.")
	if i := strings.IndexAny(u, "#?"); i >= 0 {
		u = u[:i]
	}
	return strings.TrimRight(u, "/.")
}

// sectionOf is the host and the first three path segments ("github.com/o/r/issues",
// "example.org/forum/t/oom-on-pi"): another issue of the same project, or the same forum
// thread under another suffix ("/page-2", a post's own path), shares it.
func sectionOf(n string) string {
	parts := strings.Split(n, "/")
	if len(parts) > 4 {
		parts = parts[:4]
	}
	return strings.Join(parts, "/")
}

// usedSources reports, for each candidate, USED and the case that came from the same page,
// SAME-SECTION? and a case whose page shares its host and first path segments (open that
// case and compare: the same thread is used, a sibling issue of a project may be new), or
// NEW.
func usedSources(w io.Writer, cases []corpusCase, candidates []string) {
	page := map[string]string{}
	section := map[string]string{}
	for _, c := range cases {
		for _, u := range reSourceURL.FindAllString(c.Source, -1) {
			n := normURL(u)
			if _, ok := page[n]; !ok {
				page[n] = c.Stem
			}
			if _, ok := section[sectionOf(n)]; !ok && strings.Count(n, "/") >= 3 {
				section[sectionOf(n)] = c.Stem
			}
		}
	}
	for _, u := range candidates {
		n := normURL(u)
		switch {
		case page[n] != "":
			fmt.Fprintf(w, "USED\t%s\t%s\n", u, page[n])
		case strings.Count(n, "/") >= 3 && section[sectionOf(n)] != "":
			fmt.Fprintf(w, "SAME-SECTION?\t%s\t%s\n", u, section[sectionOf(n)])
		default:
			fmt.Fprintf(w, "NEW\t%s\n", u)
		}
	}
}
