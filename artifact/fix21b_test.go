package artifact

import "testing"

// Round 16's g79/g80 misses fixed by class (fix21b).

// An issue's title that is the OOM killer's whole victim phrase, as a markdown heading over
// a body of configs: the kill, with its pid and comm.
func TestFix21bKillPhraseHeading(t *testing.T) {
	body := "\nwhen I used the daemon with the storage backend it was killed by the os\n\n```\nEXPORT { Export_Id = 101; }\n```\n"
	tl := ParseString("# Kill process 204002 (ganesha.nfsd)\n"+body, "t", Options{})
	ks := f15Kills(tl)
	if len(ks) != 1 || ks[0].KilledPID != 204002 || ks[0].KilledComm != "ganesha.nfsd" {
		t.Fatalf("kills %+v, want ganesha.nfsd (204002)", ks)
	}
	checkAccount(t, tl)
	// Counters: a heading that says more, a sentence, the phrase without a heading's '#'
	// run and another shell's "kill" are no kill.
	for _, h := range []string{
		"# Kill process 1234 (java) to free memory?",
		"# How do I kill process 1234 (java)",
		"#Kill process 1234 (java)",
		"Please kill process 1234 (java) before the upgrade.",
		"# Kill process <pid> (<comm>)",
	} {
		tl := ParseString(h+body, "t", Options{})
		if ks := f15Kills(tl); len(ks) != 0 {
			t.Errorf("%q: kills %+v, want none", h, ks)
		}
	}
}

// A design text that says a program can end up OOM killed, or that a host avoids getting
// OOM killed, states no OOM of a host.
func TestFix21bOOMPossibleOrAvoided(t *testing.T) {
	for _, s := range []string{
		"When we hit memory pressure there are many unfreeable pages, so we can end up OOM killed because we cannot free them.\n",
		"On systems without cgroups we stay below the global limits and avoid getting OOM killed.\n",
	} {
		tl := ParseString("Description\n\n"+s, "t", Options{})
		if statedOOM(tl) {
			t.Errorf("%q: stated OOM, want none", s)
		}
	}
	// Counters: a kill the author saw still states it.
	for _, s := range []string{
		"Last night the client ended up OOM killed twice while writing.\n",
		"The mount process got OOM killed during the copy.\n",
	} {
		tl := ParseString("Description\n\n"+s, "t", Options{})
		if !statedOOM(tl) {
			t.Errorf("%q: no stated OOM, want one", s)
		}
	}
}
