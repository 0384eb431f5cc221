package artifact

import "testing"

// TestStatedEvents: each stated form is read with its kind; advice, a question, a modal, a
// negation, the voice of documentation, another machine and a program's own message are not.
func TestStatedEvents(t *testing.T) {
	read := []struct {
		text string
		kind eventKind
	}{
		{"On a 2x (1GB) Dyno, metabase now has a demand of ~1100 MB of RAM\n\nCausing a lot of swapping and consistent R14 errors", eventSwapping},
		{"It takes all the memory of the server (like 15 GB and even the swap file) making the server unresponsive while the query runs.", eventSwapping},
		{"When running the jobs on many devices we ran out of memory on our worker PODs and the task getting killed by the OS.", eventOOMKill},
		{"Upgrade fails : composer upgrade being killed (way to high memory usage issue)", eventOOMKill},
		{"The worker pods were OOMKilled under the 512Mi limit last week.", eventOOMKill},
		{"Our indexer was reaped by OOMKiller twice yesterday.", eventOOMKill},
		{"The api container was killed for exceeding 2GB during the import.", eventOOMKill},
		{"The build server went OOM during the nightly run.", eventOOMKill},
		{"The swap file was completely full when I logged in.", eventSwapping},
		{"The backup job is thrashing the swap.", eventSwapping},
	}
	for _, c := range read {
		evs := statedEvents(c.text)
		found := false
		for _, ev := range evs {
			found = found || ev.kind == c.kind
		}
		if !found {
			t.Errorf("%q: no event of kind %d read (got %v)", c.text, c.kind, evs)
		}
	}
	notRead := []string{
		"You should add swap so it stops swapping heavily.",                    // advice
		"Does it get OOM killed when the import runs?",                         // a question
		"If the import grows, it will get killed for exceeding 2GB.",           // a modal and a condition
		"It was not OOM killed, the service exited by itself.",                 // a negation
		"There was no swapping at all during the test.",                        // a negation
		"The kernel kills a process when memory runs out.",                     // documentation's voice
		"A process gets OOMKilled when it exceeds its memory limit.",           // documentation's voice
		"On my laptop it is swapping a lot, but the server is fine.",           // another machine
		"The app crashed with java.lang.OutOfMemoryError: Java heap space.",    // a program's own message
		"Your container was killed for exceeding 512MiB, raise the limit.",     // the reader's machine
		"To avoid the pod getting killed for exceeding 1GB, set a lower heap.", // a purpose
		"vmstat 1 on a system that is swapping heavily will look like this:",   // any system's, a guide's example
		"It might go OOM if the cache keeps growing.",                          // a possibility
	}
	for _, text := range notRead {
		if evs := statedEvents(text); len(evs) > 0 {
			t.Errorf("%q: read as a stated event %v", text, evs)
		}
	}
}

// TestNotTheHostsEventOptions: the one guard's options add to its core, never take away.
func TestNotTheHostsEventOptions(t *testing.T) {
	para := "The OOM killer was not invoked, the job never got OOM-killed."
	m := []int{len("The OOM killer was not invoked, the job never got "), len("The OOM killer was not invoked, the job never got OOM-killed")}
	if notTheHostsEvent(para, m, guardOpts{}) {
		t.Errorf("core guard alone dropped a plain sentence")
	}
	for _, o := range []guardOpts{{neg: negLead}, {neg: negNear}, {neg: negLeadTail}, {neg: negJustBefore}} {
		if !notTheHostsEvent(para, m, o) {
			t.Errorf("negation window %d did not see %q", o.neg, para[:m[0]])
		}
	}
	q := "Did it get OOM-killed?"
	qm := []int{len("Did it get "), len("Did it get OOM-killed")}
	if !notTheHostsEvent(q, qm, guardOpts{}) || notTheHostsEvent(q, qm, guardOpts{noQuestion: true}) && !notTheHostsEvent(q, qm, guardOpts{noQuestion: true, qmark: true}) {
		t.Errorf("question options misbehave on %q", q)
	}
}
