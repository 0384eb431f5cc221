package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix45b: round 40's first-run misses by class (corpus 3784, 3792, 3811).

// The machine as the subject of a crash "with an Out of Memory exception" (3784): the host's
// out-of-memory, not a runtime's own exception; a program as the subject keeps fix42b's
// reading (3600: "Sonarr crashes with an out of memory exception").
func TestFix45bHostCrashedOOMException(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"## Issue\nOn Authelia versions 4.15.1-4.19 (latest), entering an invalid username or password allocates 1GB RAM on every attempt. After a few attempts, the system crashes with an Out of Memory exception.\n", 1},
		{"Memory\n\nEvery night my server crashed with an out of memory exception.\n", 1},
		// Counter-cases: a program crashes (its runtime's exception), a condition, a
		// negation, a question.
		{"Sonarr\n\nSonarr crashes with an out of memory exception. The system is not out of memory.\n", 0},
		{"Memory\n\nThe app crashes with an out of memory exception after an hour.\n", 0},
		{"Memory\n\nIf the system crashes with an out of memory exception, lower the hash memory.\n", 0},
		{"Memory\n\nDoes the system crash with an out of memory exception for you too?\n", 0},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.want {
			t.Errorf("%q: stated OOM %v, want %v", c.text, got, c.want)
		}
	}
	if !hostCrashedOOM("the system crashes with an Out of Memory exception", 11, 50) {
		t.Error("the system's crash not read")
	}
	if hostCrashedOOM("Sonarr crashes with an out of memory exception", 7, 46) {
		t.Error("Sonarr's crash read as the host's")
	}
}

// The host's shortage of memory stated as the cause of crashes, in a text with nothing else
// read (3811): named unread with what it states, no out-of-memory read from it.
func TestFix45bStatedShortageCrashUnread(t *testing.T) {
	text := "# memory issues\n\nThe lack of available memory has caused serious issues on the server and lots of crashes. The MySQL child process IDs are in the 700s or 800s when this happens.\n\n```\n[postal] web 449 MB\n[postal] worker 415 MB\n```\n"
	if w := fix40bWhys(text); w[whyStatedShortageCrash] != [2]int{3, 3} {
		t.Errorf("unread: %v", w)
	}
	if statedRate(t, text, model.RateStatedOOM) != 0 {
		t.Error("an out-of-memory read from the shortage sentence")
	}
	for _, s := range []string{
		"The lack of available memory has caused serious issues on the server and lots of crashes.",
		"The crashes were caused by a lack of free memory on the VPS.",
	} {
		if !statedShortageCrash(s) {
			t.Errorf("%q not read", s)
		}
	}
	// Counter-cases: a negation, a question, a condition, advice, a crash with another cause.
	for _, s := range []string{
		"The crashes are not caused by a lack of memory; the disk is full.",
		"Could the lack of memory have caused the crashes?",
		"If a lack of memory causes crashes, add swap.",
		"A lack of memory can cause crashes on small boards.",
		"The lack of documentation caused lots of crashes in our setup.",
	} {
		if statedShortageCrash(s) {
			t.Errorf("%q read as a stated shortage", s)
		}
	}
}

// A build's SIGKILL line with the author's word that the job went through once the machine
// had more RAM (3792): a stated out-of-memory. A retry that worked with the same memory
// (3791), the RAM sentence without a kill line, or a suggestion, states none.
func TestFix45bRAMCuredBuildKill(t *testing.T) {
	kill := "alexAubin · comment · 2020-09-06\n```\nprocess didn't exit successfully: `rustc [...]` (signal: 9, SIGKILL: kill)\n```\n\n"
	for _, c := range []struct {
		text string
		want float64
	}{
		{kill + "uyouthe · comment · 2020-09-06\nScaled to 2GB RAM, installation went fine. Scaled back to 1GB and was able to see the vault login page.\n", 1},
		{"```\nc++: fatal error: Killed signal terminated program cc1plus\n```\n\nI upgraded the VM to 4 GB of memory and the build succeeded.\n", 1},
		// Counter-cases.
		{kill + "Performed another upgrade after restoring from backup. This time without errors. 2048MB swap was left untouched.\n", 0},
		{"My notes\n\nScaled to 2GB RAM, installation went fine.\n", 0},             // no kill line
		{kill + "If you scale to 2GB RAM the installation should go through.\n", 0}, // advice
		{kill + "Could you try with 2GB RAM? Maybe the build works then.\n", 0},     // a question
		{kill + "Resized the disk to 20GB, the build still failed.\n", 0},           // disk, not RAM
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.want {
			t.Errorf("%q: stated OOM %v, want %v", c.text, got, c.want)
		}
	}
	// The kill line stays named unread: the kernel's line would say who sent the SIGKILL.
	tl := ParseString(kill+"Scaled to 2GB RAM, installation went fine.\n", "p", Options{})
	named := false
	for _, u := range tl.Unparsed {
		named = named || u.FirstLine == 3 && strings.HasPrefix(u.Why, "cargo:")
	}
	if !named {
		t.Errorf("cargo's line not named: %+v", tl.Unparsed)
	}
}
