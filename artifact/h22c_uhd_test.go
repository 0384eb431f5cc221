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
