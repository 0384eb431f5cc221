package artifact

import (
	"testing"
)

// Classes of issue 29 found by the held-out batches g10-g13 and the list, each on a
// minimal snippet; every test failed before its change.

// A count of sockets per TCP state printed by awk or uniq -c (corpus 559: `netstat -n | awk
// '/^tcp/ {++S[$NF]} END {for(a in S) print a, S[a]}'`). Before: the rows were prose, no
// number read.
func TestTCPStateCounts(t *testing.T) {
	for name, text := range map[string]string{
		"netstat awk": "#netstat -n|awk '/^tcp/{++S[$NF]}END{for (key in S) print key,S[key]}'\nCLOSE_WAIT 183\nESTABLISHED 139\nFIN_WAIT1 2310\nTIME_WAIT 3979\n",
		"ss awk":      "$ ss -tan | awk 'NR>1 {++s[$1]} END {for (k in s) print k, s[k]}'\nCLOSE-WAIT 183\nESTAB 139\nFIN-WAIT-1 2310\nTIME-WAIT 3979\n",
		"uniq -c":     "$ netstat -ant | awk '{print $6}' | sort | uniq -c | sort -n\n      1 established)\n      1 Foreign\n    139 ESTABLISHED\n    183 CLOSE_WAIT\n   2310 FIN_WAIT1\n   3979 TIME_WAIT\n",
	} {
		tl := ParseString(text, "p", Options{})
		if len(tl.Samples) != 1 || tl.Samples[0].Sockets == nil {
			t.Errorf("%s: samples %+v, unparsed %+v", name, tl.Samples, tl.Unparsed)
			continue
		}
		s := tl.Samples[0].Sockets
		if !s.CountsOnly || s.Total != 183+139+2310+3979 || s.ByState["TIME_WAIT"].Count != 3979 || s.ByState["FIN_WAIT1"].Count != 2310 {
			t.Errorf("%s: summary %+v", name, s)
		}
		if tl.Lines.Unparsed != 0 || tl.Lines.Prose > 1 {
			t.Errorf("%s: lines %+v", name, tl.Lines)
		}
	}
	// A sentence that names a state is no count.
	tl := ParseString("TIME_WAIT sockets hold no buffers at all, 3979 of them.\n", "p", Options{})
	for _, a := range tl.Artifacts {
		if a.Kind == KindTCPStates {
			t.Errorf("prose read as a count: %+v", a)
		}
	}
}
