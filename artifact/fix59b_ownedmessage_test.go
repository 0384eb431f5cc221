package artifact

import "testing"

func TestFix59bMessageOwned(t *testing.T) {
	for _, line := range []string{
		"hopefully any bug fixen between 4.2.1 and 4.8.3 will help our `TCP: out of memory -- consider tuning tcp_mem` issue.",
		"Our \"nf_conntrack: table full, dropping packet\" problem is back after the upgrade.",
		"This patch works around my 'Out of socket memory' errors on the proxies.",
	} {
		if _, ok := messageOwned(line); !ok {
			t.Errorf("%q: not read as the author's own message", line)
		}
	}
}

func TestFix59bMessageOwnedCounterCases(t *testing.T) {
	for _, line := range []string{
		// the reader's, nobody's, or not a problem word after it
		"Raising tcp_mem should fix your `TCP: out of memory -- consider tuning tcp_mem` issue.",
		"The `TCP: out of memory -- consider tuning tcp_mem` error is common on busy proxies.",
		"Our `TCP: out of memory` dashboard panel counts how often nodes print it.",
		// a condition
		"If our `TCP: out of memory -- consider tuning tcp_mem` issue comes back, raise tcp_mem.",
		"We would see our 'Out of socket memory' errors only under a flood.",
		// the quotation not closed: no problem word after it can be told
		"our `TCP: out of memory issue",
	} {
		if _, ok := messageOwned(line); ok {
			t.Errorf("%q: read as the host's message", line)
		}
	}
	// A whole text that only explains the message reports nothing.
	tl := ParseString("# Understanding TCP memory\n\nWhen TCP exceeds tcp_mem the kernel prints \"TCP: out of memory -- consider tuning tcp_mem\". Your \"TCP: out of memory\" issue is fixed by raising it.\n", "t", Options{})
	if tl.Log.Len() != 0 {
		t.Errorf("explainer: %d log records, want 0", tl.Log.Len())
	}
}
