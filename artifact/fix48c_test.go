package artifact

import (
	"strings"
	"testing"
)

// fix48c (corpora 4041, 4047): an OOM kill told in words in two more forms: the kernel's
// out-of-memory messages seen by the author in the kernel's log, and the host's running out
// of memory followed by the kill of a named victim.

func TestFix48cOOMMessagesSeenInKernelLog(t *testing.T) {
	// corpus 4041's sentence
	const text = "Shortly after boot I get prompted when I look at my dmesg log for any errors or alerts I get the following out of memory messages.\n"
	if got := statedOOMGot(strings.TrimSpace(text)); len(got) != 1 || text[got[0][0]:got[0][1]] != "I get the following out of memory messages" {
		t.Errorf("statedOOMGot = %v, want the clause \"I get the following out of memory messages\"", got)
	}
	if tl := ParseString(text, "t", Options{}); !statedOOM(tl) {
		t.Errorf("%q: the kernel's OOM messages seen in dmesg not read as a stated OOM", text)
	}
	// counter-cases: a program's own log, a question, a negation, a condition, advice.
	for _, text := range []string{
		"I get the following out of memory messages in the app's log when the import runs.\n",
		"Do I get the following out of memory messages in dmesg too?\n",
		"I have never seen OOM messages in dmesg on this box.\n",
		"If I get OOM messages in dmesg, I will add swap.\n",
		"You should check whether you get OOM messages in dmesg.\n",
	} {
		if tl := ParseString(text, "t", Options{}); statedOOM(tl) {
			t.Errorf("%q: read as a stated OOM", text)
		}
	}
}

func TestFix48cHostRanOutThenKilled(t *testing.T) {
	// corpus 4047's sentence
	const text = "With the default configuration of umbrel, the electrs container starts up, but after a few minutes (usually 3-10min), my system got out of memory and started to kill electrs, which was then restarted again automatically through docker and the cycle repeated.\n"
	got := statedOOMUntil(strings.TrimSpace(text))
	if len(got) != 1 || text[got[0][0]:got[0][1]] != "my system got out of memory and started to kill electrs" {
		t.Errorf("statedOOMUntil = %v, want the clause \"my system got out of memory and started to kill electrs\"", got)
	}
	if tl := ParseString(text, "t", Options{}); !statedOOM(tl) {
		t.Errorf("%q: the host's OOM kill of electrs not read", text)
	}
	if tl := ParseString("The server ran out of memory and killed mysqld last night.\n", "t", Options{}); !statedOOM(tl) {
		t.Error("\"the server ran out of memory and killed mysqld\" not read")
	}
	// counter-cases: a possibility, a question, a negation, a program's own out-of-memory, no
	// victim, documentation's voice.
	for _, text := range []string{
		"The system will run out of memory and kill electrs if you keep the defaults.\n",
		"Does the system run out of memory and kill electrs?\n",
		"The system never ran out of memory and killed nothing.\n",
		"Electrs ran out of memory and restarted its indexer.\n",
		"Would it make sense to add these values so the system does not run out of memory and kill electrs?\n",
	} {
		if tl := ParseString(text, "t", Options{}); statedOOM(tl) {
			t.Errorf("%q: read as a stated OOM", text)
		}
	}
}
