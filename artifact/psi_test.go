package artifact

import "testing"

// PSI lines quoted in an issue with "> " (Markdown block quote, here around a fence or with
// a tab indent) and no /proc/pressure path: the sentence before the quote names the
// resource, as the PSI patch description ("The cpu file contains one line:") and
// Documentation/accounting/psi.rst do. The line format is psi_show() in kernel/sched/psi.c.
func TestPSIResourceFromProseBeforeQuote(t *testing.T) {
	for _, c := range []struct {
		name, text, res string
		avg10           float64
		full            bool
	}{
		{"memory pressure, quoted fence", "it could be useful to monitor the memory pressure.\n\n> ```\n> some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n> full avg10=1.50 avg60=0.00 avg300=0.00 total=0\n> ```\n", "memory", 1.50, true},
		{"cpu file, tab indent", "> The cpu file contains one line:\n> \n> \tsome avg10=2.04 avg60=0.75 avg300=0.40 total=157656722\n> \n", "cpu", 2.04, false},
	} {
		tl := ParseString(c.text, c.name, Options{})
		if len(tl.Samples) != 1 || len(tl.Unparsed) != 0 {
			t.Fatalf("%s: samples %+v unparsed %+v", c.name, tl.Samples, tl.Unparsed)
		}
		p := tl.Samples[0].Pressure(c.res)
		if p == nil {
			t.Fatalf("%s: no %s pressure in %+v", c.name, c.res, tl.Samples[0].PSI)
		}
		got := p.Some.Avg10
		if c.full {
			if p.Full == nil {
				t.Fatalf("%s: no full line", c.name)
			}
			got = p.Full.Avg10
		}
		if got != c.avg10 {
			t.Errorf("%s: avg10 %v, want %v", c.name, got, c.avg10)
		}
	}
	// Prose naming two resources does not say which one the lines are.
	tl := ParseString("compare cpu pressure with memory pressure:\n\nsome avg10=2.04 avg60=0.75 avg300=0.40 total=1\n", "two", Options{})
	if len(tl.Samples) != 0 || len(tl.Unparsed) != 1 {
		t.Errorf("ambiguous prose: samples %+v unparsed %+v", tl.Samples, tl.Unparsed)
	}
}
