package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestUsedSources(t *testing.T) {
	cases := []corpusCase{
		{Stem: "100-a", Source: "https://www.example.org/forum/t/oom-on-pi/123/ (a forum thread, 2020); the text cut"},
		{Stem: "101-b", Source: "github.com issue https://github.com/o/r/issues/7#issuecomment-9 ('title')"},
		{Stem: "102-c", Source: "from a book, no URL"},
	}
	var b bytes.Buffer
	usedSources(&b, cases, []string{
		"http://example.org/forum/t/oom-on-pi/123", // same page: scheme, www, trailing slash
		"https://github.com/o/r/issues/7",          // same page without the comment anchor
		"https://github.com/o/r/issues/8",          // another issue of the same project
		"https://github.com/o/other/issues/7",      // another project
		"https://example.net/x",                    // a host the corpus never used
	})
	got := strings.Split(strings.TrimSpace(b.String()), "\n")
	want := []string{
		"USED\thttp://example.org/forum/t/oom-on-pi/123\t100-a",
		"USED\thttps://github.com/o/r/issues/7\t101-b",
		"SAME-SECTION?\thttps://github.com/o/r/issues/8\t101-b",
		"NEW\thttps://github.com/o/other/issues/7",
		"NEW\thttps://example.net/x",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("usedSources:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
