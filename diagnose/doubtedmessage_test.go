package diagnose

import "testing"

// A kernel message quoted in a yes/no question about the host, or named as what to search
// the log for, records nothing; a question that takes the message as given, or a sentence
// that says it was seen, still does. Each text in the paste forms a person writes
// it in (h31c's, but a container's log prefix).
func TestQuotedMessageDoubtedOrAdvised(t *testing.T) {
	const msg = `"TCP: out of memory -- consider tuning tcp_mem"`
	for _, c := range []struct {
		text string
		want bool
	}{
		{`Does the kernel print ` + msg + `?`, false},
		{`Is there ` + msg + ` in your dmesg?`, false},
		{`Check the kernel logs for ` + msg + `.`, false},
		{`Please grep dmesg for ` + msg + ` after the load test.`, false},
		{`Why does my server keep printing ` + msg + `?`, true},
		{`Is it normal? I see ` + msg + ` in dmesg.`, true},
		{`The kernel logs ` + msg + ` every few seconds.`, true},
	} {
		for form, text := range h31cPasteForms(c.text) {
			if form == "compose" {
				continue // a container's log line is the program's output, not a person's question
			}
			d, _ := rootOf(t, text)
			if got := findingOf(d, "tcp-memory-pressure") != nil; got != c.want {
				t.Errorf("%s %q: tcp-memory-pressure %v, want %v", form, c.text, got, c.want)
			}
		}
	}
}
