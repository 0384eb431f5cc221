package diagnose

import "testing"

// fix51b: round 46's OOM kills told in words (corpus 4311, 4255, 4280), end to end from a
// minimal snippet of each case to the oom-kill warning, with counter-cases of the same shape.
func TestFix51bOOMStatedFindings(t *testing.T) {
	wantWarnings(t, []warningCase{
		{"if i send an\n  UID fetch 1:59029\nto the imap server, i can see the memory consumtion of the imap process is more and more increasing\nuntil it is killed by the kernel because he is out of memory.\n", "oom-kill", true},
		{"If you send an UID fetch to the imap server, you can see the memory of the imap process is increasing until it is killed by the kernel because he is out of memory.\n", "oom-kill", false},
		{"After about 15 minutes it the OOM killer cleans it up but after about 10 minutes SSH becomes unresponsive due to low system resources.\n", "oom-kill", true},
		{"If the OOM killer takes it out, restart it.\n", "oom-kill", false},
		{"But I got oom-killer error.\n", "oom-kill", true},
		{"I got an out of memory error.\n", "oom-kill", false},
	})
}
