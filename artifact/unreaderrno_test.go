package artifact

import (
	"strings"
	"testing"
)

// An application's log lines with a socket errno are listed as unread, with what the errno
// means, and the text is no longer evidence-free.
func TestErrnoLogLinesUnread(t *testing.T) {
	text := "Our proxy stopped forwarding today.\n\n" +
		"2024-03-01 10:00:01 proxy[812]: sendto fd 14: No buffer space available\n" +
		"2024-03-01 10:00:02 proxy[812]: sendto fd 14: No buffer space available\n" +
		"\nAny idea?\n"
	tl := ParseString(text, "t", Options{})
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].FirstLine != 3 || tl.Unparsed[0].LastLine != 4 ||
		!strings.Contains(tl.Unparsed[0].Why, "ENOBUFS") || !strings.Contains(tl.Unparsed[0].Why, "qdisc") {
		t.Fatalf("unparsed %+v, want lines 3-4 as ENOBUFS", tl.Unparsed)
	}
	checkAccount(t, tl)
	tl = ParseString("worker 3 exited: ENOMEM from mmap\n", "t", Options{})
	if len(tl.Unparsed) != 1 || !strings.Contains(tl.Unparsed[0].Why, "ENOMEM") {
		t.Fatalf("unparsed %+v, want the ENOMEM line", tl.Unparsed)
	}
}

// Prose that names the error stays prose: no digit, the strerror text not after ": ", the
// errno's name inside another word.
func TestErrnoLogLinesNotFromProse(t *testing.T) {
	for _, text := range []string{
		"We see No buffer space available errors sometimes.\n",
		"The error is: No buffer space available\n",
		"Since 2021 we get No buffer space available on 3 hosts.\n",
		"the flag XENOBUFS1 is set on 2 builds\n",
	} {
		if tl := ParseString(text, "t", Options{}); len(tl.Unparsed) != 0 {
			t.Errorf("%q: unparsed %+v, want prose", text, tl.Unparsed)
		}
	}
}
