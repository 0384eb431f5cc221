package artifact

import (
	"testing"

	"headroom/model"
)

// fix51b: OOM kills told in words in round 46 (corpus 4311, 4255): the author's reproduction
// told as a condition with his own sighting in the main clause, the pronoun written lower-case,
// and the OOM killer as the subject of a phrasal verb of removal.
func TestFix51bStatedOOMKillForms(t *testing.T) {
	for _, text := range []string{
		// corpus 4311 (grommunio/gromox#214), as pasted: condition, indented command, sighting
		"if i send an\n  UID fetch 1:59029\nto the imap server, i can see the memory consumtion of the imap process is more and more increasing\nuntil it is killed by the kernel because he is out of memory.\n",
		"If I send an UID fetch to the imap server, I can see the memory of the imap process is increasing until it is killed by the kernel because he is out of memory.\n",
		"i can see the memory of the imap process is increasing until it is killed by the kernel because he is out of memory.\n",
		// corpus 4255 (OpenRCT2/OpenRCT2#7351)
		"After about 15 minutes it the OOM killer cleans it up but after about 10 minutes SSH becomes unresponsive due to low system resources.\n",
		"Memory usage shortly before OOM killer took it out: https://i.imgur.com/2su2ySh.png\n",
		// corpus 4280 (ceccocats/tkDNN#194)
		"First, I was getting \"killed\" when trying to create the rt file, so I disabled the GUI to get more free space to the GPU.\nBut I got oom-killer error.\n",
	} {
		if got := statedRate(t, text, model.RateStatedOOM); got != 1 {
			t.Errorf("%q: stated OOM %v, want 1", text, got)
		}
	}
	// Counter-cases: advice to the reader ("if you send"), a condition kept by "would", a loop's
	// "i" that is no person, a condition, a question, a negation, a habit.
	for _, text := range []string{
		"If you send an UID fetch to the imap server, you can see the memory of the imap process is increasing until it is killed by the kernel because he is out of memory.\n",
		"If I send an UID fetch to the imap server, I can see that it would be killed by the kernel because it is out of memory.\n",
		"for i in 1 2 3; do echo; done. The process takes memory until it is killed by the kernel because he is out of memory.\n",
		"If the OOM killer takes it out, restart it.\n",
		"Does the OOM killer take it out?\n",
		"The OOM killer never took it out.\n",
		"Usually the OOM killer cleans it up.\n",
		"If I got oom-killer error, what should I do?\n",
		"I never got oom-killer error.\n",
		"I got an out of memory error.\n",
	} {
		if got := statedRate(t, text, model.RateStatedOOM); got != 0 {
			t.Errorf("%q: stated OOM %v, want none", text, got)
		}
	}
	for s, want := range map[string]bool{
		"to the imap server, i can see the memory": true,
		"i've tried everything":                    true,
		"for i in 1 2 3":                           false,
		"i = 0; i++":                               false,
		"grep -i oom":                              false,
	} {
		if got := reFirstPerson.MatchString(s); got != want {
			t.Errorf("reFirstPerson(%q) = %v, want %v", s, got, want)
		}
	}
}
