package artifact

import (
	"strings"
	"testing"
)

// fix42c: round 37's healthy texts whose programs' own memory figures exited 3 (corpus
// 3539, 3550, 3568, 3592), by class; each with the lines that must not be named.

// A console progress bar whose message is glued to its percent column (Symfony Console,
// sulu-sylius:sync-all): the memory figure is named, as a sentence's stated figure.
func TestFix42cProgressBarGluedPercent(t *testing.T) {
	text := "bin/console sulu-sylius:sync-all --no-debug --env=prod\nSync products\n" +
		"     0/34529 [>---------------------------]   0%Memory usage: 68263936\n" +
		"     1/34529 [>---------------------------]   0%Memory usage: 68263936\n"
	if w := fix40bWhys(text); w[whyStatedFigure] != [2]int{3, 4} || len(w) != 1 {
		t.Errorf("unread: %v", w)
	}
	if got := spaceGluedPercent("   0%Memory usage: 68263936"); got != "   0% Memory usage: 68263936" {
		t.Errorf("spaceGluedPercent: %q", got)
	}
	for _, s := range []string{
		"     3/34529 [>-----]   0%Elapsed: 00:01 items 68263936", // no memory word glued or not
		"50%off for 3 items in the shop",                          // a word after a percent, no domain
		"the CPU was at 100%",                                     // nothing glued
	} {
		if statesDomainFigure(s) {
			t.Errorf("%q named", s)
		}
	}
	if s := "no%Memory 12"; spaceGluedPercent(s) != s {
		t.Errorf("a percent sign after a letter parted")
	}
}

// Elixir DBConnection's pool queue (Plausible on a 1GB droplet): named as the application's
// pool, not a kernel listen queue; advice and a question naming it are not.
func TestFix42cDBConnectionQueueDropped(t *testing.T) {
	line := "plausible_1            |     ** (DBConnection.ConnectionError) connection not available and request was dropped from queue after 2330ms. This means requests are coming in and your connection pool cannot serve them fast enough. You can address this by:"
	why, oom, ok := serverOwnLine(line)
	if !ok || oom || !strings.Contains(why, "DBConnection") || !strings.Contains(why, "not a kernel listen queue") {
		t.Errorf("%v %v %q", ok, oom, why)
	}
	text := "Things work fine for a while.\n```\n" + line + "\nplausible_1            |   2. Increasing the pool_size (albeit it increases resource consumption)\n```\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].FirstLine != 3 || tl.Unparsed[0].Why != why {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
	for _, s := range []string{
		"Why was my request dropped from queue after a while?",                               // no figure
		"DBConnection drops a request from its queue after queue_interval ms",                // a doc's sentence
		"  3. Allow requests to wait longer by increasing :queue_target and :queue_interval", // the advice
	} {
		if _, _, ok := serverOwnLine(s); ok {
			t.Errorf("%q named", s)
		}
	}
}

// RStudio's get_events log with memory_usage_changed events, CSV-quoted: each row named
// with RStudio's report; a doc's sentence or another program's "kb" JSON is not.
func TestFix42cIDEMemoryEvent(t *testing.T) {
	row := `1647706091144,-246345706,"{""method"":""get_events"", ""params"":[125]}",1,1647706101135,"{""result"":[{""id"":126,""type"":""memory_usage_changed"",""data"":{""total"":{""kb"":2047012,""provider"":6},""used"":{""kb"":551044,""provider"":6},""process"":{""kb"":190728,""provider"":5}}}],""ep"":""false""}"`
	text := "```\n" + row + "\n" + strings.Replace(row, "551044", "551172", 1) + "\n```\n"
	if w := fix40bWhys(text); w[whyIDEMemoryEvent] != [2]int{2, 3} || len(w) != 1 {
		t.Errorf("unread: %v", w)
	}
	if !ideMemoryEvent(`{"type":"memory_usage_changed","data":{"total":{"kb": 2047012,"provider":6}}}`) {
		t.Errorf("plain JSON not named")
	}
	for _, s := range []string{
		"The memory_usage_changed event is sent every 10 seconds with total and used kB", // a sentence
		`{"total":{"kb":2047012},"used":{"kb":551044}}`,                                  // no event type
		`{"type":"memory_usage_changed","data":{"total":{"kb":null}}}`,                   // no figure
	} {
		if ideMemoryEvent(s) {
			t.Errorf("%q named", s)
		}
	}
}

// A reporter's per-step measurements ("STEP - 21MB"), in a thread about memory: the run is
// named; one line alone, or a list in a text that never says memory, is not.
func TestFix42cMeasuredSizeList(t *testing.T) {
	text := "SABnzbd · pull request #2888\n# Update SABnzbd to 2.2.1\n\n" +
		"The user noticed that if only Download is selected memory stays normal.\n\n" +
		"Stop then start and going to the main page - 21MB\n" +
		"Clicking around config then going back to main page - 34MB\n" +
		"Add a nzb and just download it, when completed - 60MB\n" +
		"Add a nzb download/verify/unrar/delete - 63MB\n\n" +
		"with pickle\nAdd a nzb download/verify/unrar/delete - 60MB\n"
	tl := ParseString(text, "p", Options{})
	if w := fix40bWhys(text); w[whyMeasuredSizeList] != [2]int{6, 9} || len(w) != 1 {
		t.Errorf("unread: %v", w)
	}
	if tl.Host.Kernel != "" {
		t.Errorf("kernel %q from the program's version", tl.Host.Kernel)
	}
	for _, text := range []string{
		"memory is fine\n\nAdd a nzb download/verify/unrar/delete - 63MB\n",              // one line
		"Downloads today:\n\nfirst nzb - 600MB\nsecond nzb - 1.2GB\nthird nzb - 700MB\n", // no memory word
		"memory is fine\n\nfirst - 21MB\n\nsecond - 34MB\n",                              // not consecutive
		"memory question\n\nIs 21MB too much?\nOr is 34MB too much?\n",                   // no separator
	} {
		if w := fix40bWhys(text); w[whyMeasuredSizeList] != [2]int{} {
			t.Errorf("%q named: %v", text, w)
		}
	}
	for _, s := range []string{"Stop then start - 21MB", "main page: 34 MB", "step – 1.5GiB."} {
		if !measuredSizeLine(s) {
			t.Errorf("%q not a measured size", s)
		}
	}
	for _, s := range []string{"- 21MB", "step - MB", "step - 21", "version - 2.2.1"} {
		if measuredSizeLine(s) {
			t.Errorf("%q a measured size", s)
		}
	}
}

// A change's title that updates a program to a version names the program's version, and a
// later bare mention of it stays the program's; the kernel's own update does not.
func TestFix42cUpdateProgramToVersion(t *testing.T) {
	for _, c := range []struct {
		before string
		want   bool
	}{
		{"# update sabnzbd to", true},
		{"bump redis to", true},
		{"we upgraded foo-bar to", true},
		{"upgraded the kernel to", false},
		{"upgraded kernel to", false},
		{"updated linux to", false},
		{"went from 2.4.20 to", false},
	} {
		if got := programVersionBefore(c.before); got != c.want {
			t.Errorf("programVersionBefore(%q) = %v, want %v", c.before, got, c.want)
		}
	}
	for _, c := range []struct{ text, kernel string }{
		{"# Update SABnzbd to 2.2.1\nthe 2.2.1 have on my computer\n", ""},
		{"I upgraded the kernel to 2.6.32 last week\n", "2.6.32"},
		{"# Update SABnzbd to 2.2.1\nthe box runs 2.6.32\n", "2.6.32"},
	} {
		if k := ParseString(c.text, "p", Options{}).Host.Kernel; k != c.kernel {
			t.Errorf("%q: kernel %q, want %q", c.text, k, c.kernel)
		}
	}
}
