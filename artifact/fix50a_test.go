package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix50a: round 44's leftovers by class: a RAM size that is a resize's target with its
// outcome is not the host's memory at the failure; a statement read from a program's own log
// line names that line as its source; a line a reader took evidence from is counted as read.

// The resize target followed by its outcome (corpus 3792) is not the host's memory; the size
// before it, or a resize followed by the failure again, is.
func TestFix50aResizeTargetNotHostMemory(t *testing.T) {
	const gib = 1 << 20
	for _, c := range []struct {
		text string
		kb   int64
	}{
		// corpus 3792: both sizes are what the host was given after the failure.
		{"```\nprocess didn't exit successfully: `rustc [...]` (signal: 9, SIGKILL: kill)\n```\n\nScaled to 2GB RAM, installation went fine. Scaled back to 1GB and was able to see the vault login page.\n", 0},
		{"Upgraded the droplet to 4GB RAM and the build works now.\n", 0},
		{"Moved it to a VPS with 8GB RAM, no more crashes.\n", 0},
		{"Bumped it up to 2 GB memory, the install succeeded.\n", 0},
		// counter-cases: the host's size at the failure is read
		{"My VPS has 1GB RAM and rustc gets killed.\n", 1 * gib},
		{"Upgraded to 4GB RAM but it still gets killed.\n", 4 * gib},                             // the failure again at the new size
		{"Upgraded to 4GB RAM, same error.\n", 4 * gib},                                          // the same
		{"The server has 2GB RAM. Scaled to 4GB RAM, installation went fine.\n", 2 * gib},        // the failing size stated first
		{"Scaled down to save money; the box has 2GB RAM and the install went fine.\n", 2 * gib}, // no resize target before the size
	} {
		tl := ParseString(c.text, "p", Options{})
		if tl.Host.MemTotalKB != c.kb {
			t.Errorf("%q: memory %d kB, want %d", c.text, tl.Host.MemTotalKB, c.kb)
		}
	}
}

// A stated out-of-memory read from RouterOS's own log line (corpus 4143) names that line as
// its source; the author's sentence, and a quoted line, do not.
func TestFix50aOwnLogStatedSource(t *testing.T) {
	ownBy := func(text string) (by string, found bool) {
		tl := ParseString(text, "p", Options{})
		for _, s := range tl.Samples {
			if s.Rates[model.RateStatedOOM] > 0 {
				found = true
				if b := model.StatedBy(s.Source); b != "" {
					by = b
				}
			}
		}
		return by, found
	}
	routeros := "Периодически роутер перезагружается:\n2024-11-13 09:57:40 system,error,critical router was rebooted without proper shutdown, probably kernel failure\n2024-11-13 09:57:41 system,error,critical out of memory condition was detected\n"
	if by, ok := ownBy(routeros); !ok || by != "RouterOS's own log line" {
		t.Errorf("RouterOS's record: stated by %q (found %v), want RouterOS's own log line", by, ok)
	}
	tl := ParseString(routeros, "p", Options{})
	if s := tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateStatedOOM] > 0 }); s == nil || !strings.HasPrefix(s.Source, "line 3 (") {
		t.Errorf("RouterOS's record: newest stated sample %+v, want line 3's", s)
	}
	for _, text := range []string{
		"Our router ran out of memory last night and rebooted.\n", // the author's words
		"Our hAP works fine. Someone on the forum wrote:\n> 2024-11-13 09:57:41 system,error,critical out of memory condition was detected\nIs that a RouterOS bug?\n", // a quote of another message
	} {
		if by, _ := ownBy(text); by != "" {
			t.Errorf("%q: stated by %q, want the author's (or another's) words", text, by)
		}
	}
	if got := model.StatedBy("lines 3-25 (" + StatedMark + ")"); got != "" {
		t.Errorf("the author's span: StatedBy %q, want empty", got)
	}
}

// Every line a reader took evidence from is counted as read, and the row still sums to the
// total: kubectl describe's container state read from prose-shaped lines (corpus 3964), a
// statement (3792's "line 15"), RouterOS's record (4143). A line listed unread stays unread;
// prose that gave nothing stays prose.
func TestFix50aCitedLinesRead(t *testing.T) {
	for _, c := range []struct {
		text                  string
		read, prose, unparsed int
	}{
		// corpus 3964: the state block (5 lines) and the two statements of the kill.
		{"# Call-heartbeat-server container is getting OOMKilled\n\ncall-heartbeat-server container is getting OOMKilled.\n```\n    State:          Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n      Started:      Thu, 30 Dec 2021 18:42:04 +0200\n      Finished:     Thu, 30 Dec 2021 18:44:08 +0200\n```\n", 7, 0, 0},
		// a statement on line 3; the cargo line listed unread stays unread.
		{"```\nprocess didn't exit successfully: `rustc [...]` (signal: 9, SIGKILL: kill)\n```\nmy server ran out of memory and killed rustc.\n", 1, 0, 1},
		// RouterOS's record on line 3; line 2 is another of its records, read by no rule.
		{"Периодически роутер перезагружается:\n2024-11-13 09:57:40 system,error,critical router was rebooted without proper shutdown, probably kernel failure\n2024-11-13 09:57:41 system,error,critical out of memory condition was detected\n", 1, 2, 0},
		// counter-cases: prose with no evidence; advice about memory
		{"hello\nthe build is slow on my laptop\n", 0, 2, 0},
		{"Which RAM size do you use?\nThanks!\n", 0, 2, 0},
	} {
		tl := ParseString(c.text, "p", Options{})
		a := tl.Lines
		if a == nil {
			t.Fatalf("%q: no line account", c.text)
		}
		if a.Read != c.read || a.Prose != c.prose || a.Unparsed != c.unparsed || a.Read+a.Prose+a.Blank+a.Other+a.Unparsed != a.Total {
			t.Errorf("%q: lines %+v, want read %d, prose %d, unparsed %d, summing to the total", c.text, *a, c.read, c.prose, c.unparsed)
		}
	}
}
