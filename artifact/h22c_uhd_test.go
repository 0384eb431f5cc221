package artifact

import (
	"strings"
	"testing"
)

// h22c: UHD's stream marks are named unread (what they prove, no figure); a word of the
// same letters, or one mark, is not.
func TestH22cUHDStreamMarks(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"OOOOOOOOOOOO", true},
		{"DDDDOOO", true},
		{"  UUUUUUU  ", true},
		{"OLD", false},
		{"SOLD", false},
		{"O", false},
		{"OOOO overflow", false},
	} {
		if got := uhdMarks(c.line); got != c.want {
			t.Errorf("uhdMarks(%q) = %v, want %v", c.line, got, c.want)
		}
	}
	tl, err := Parse(strings.NewReader("[INFO] [X300] Radio 1x clock: 200 MHz\nOOOOOOOOOOOOOOOOOOOO\n"), "paste.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, u := range tl.Unparsed {
		found = found || strings.Contains(u.Why, "UHD's stream marks")
	}
	if !found {
		t.Errorf("UHD's overflow marks not named: %+v", tl.Unparsed)
	}
}

// h22c: UHD benchmark_rate's summary is named as UHD's own counts (all its "Num" lines), not
// "a sentence states a figure"; the words in a sentence are not the block.
func TestH22cUHDBenchmarkSummary(t *testing.T) {
	const bench = "Benchmark rate summary:\n  Num received samples:     1998765432\n  Num dropped samples:      1234560\n  Num overruns detected:    17\n  Num sequence errors (Rx): 0\n\nDone!\n"
	tl, err := Parse(strings.NewReader(bench), "paste.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Unparsed) != 1 || !strings.Contains(tl.Unparsed[0].Why, "benchmark_rate summary") || tl.Unparsed[0].LastLine-tl.Unparsed[0].FirstLine != 4 {
		t.Errorf("benchmark_rate summary: %+v", tl.Unparsed)
	}
	tl, err = Parse(strings.NewReader("I pasted the Benchmark rate summary: it shows 1234560 dropped samples.\n"), "paste.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range tl.Unparsed {
		if strings.Contains(u.Why, "benchmark_rate") {
			t.Errorf("a sentence read as the summary: %+v", u)
		}
	}
}
