package artifact

import (
	"strings"
	"testing"
)

// Prose that names the kernel's "page allocation failure" message, in a text with nothing
// else read, is listed as unread (corpus 1672); negated, it is not, and a text with a report
// reads the report and lists nothing.
func TestNamedAllocFailureUnread(t *testing.T) {
	tl := ParseString("blog\n\nある種のネットワークカード(特にe1000とtg3)は高負荷時にしばしばpage allocation failureのメッセージを出すが、特に対処は必要ない。\n", "p", Options{})
	if len(tl.Unparsed) != 1 || !strings.Contains(tl.Unparsed[0].Why, "page allocation failure") {
		t.Errorf("named message not listed: %+v", tl.Unparsed)
	}
	for _, text := range []string{
		"Hi\n\nThere is no page allocation failure in dmesg, the box is just slow.\n",
		"Hi\n\nmy server is slow since the upgrade.\n",
	} {
		if tl := ParseString(text, "p", Options{}); len(tl.Unparsed) != 0 {
			t.Errorf("%q listed: %+v", text, tl.Unparsed)
		}
	}
	tl = ParseString("[ 12.3] nginx: page allocation failure: order:4, mode:0x2040d0\nWe see page allocation failure every night.\n", "p", Options{})
	for _, u := range tl.Unparsed {
		if u.Why == allocNamedWhy {
			t.Errorf("listed beside a report: %+v", u)
		}
	}
	if len(artifactsOf(tl, KindAllocFailure)) == 0 {
		t.Errorf("report not read")
	}
}
