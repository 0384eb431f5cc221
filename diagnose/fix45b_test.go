package diagnose

import "testing"

// fix45b: the stated out-of-memory classes of round 40 (corpus 3784, 3792) decide oom-kill as
// a warning from the text; the shortage sentence of 3811 decides nothing.
func TestFix45bStatedOOMFindings(t *testing.T) {
	for _, text := range []string{
		"## Issue\nAfter a few attempts, the system crashes with an Out of Memory exception.\n",
		"```\nprocess didn't exit successfully: `rustc [...]` (signal: 9, SIGKILL: kill)\n```\n\nScaled to 2GB RAM, installation went fine.\n",
	} {
		mustFire(t, run(t, "oom-kill", pasteTimeline(t, text)), Warning)
	}
	tl := pasteTimeline(t, "# memory issues\n\nThe lack of available memory has caused serious issues on the server and lots of crashes.\n")
	for _, id := range []string{"oom-kill", "swap-under-load", "overcommit-exposed"} {
		if res := run(t, id, tl); len(res.Findings) > 0 {
			t.Errorf("%s fired on a stated shortage: %+v", id, res.Findings)
		}
	}
}
