package diagnose

import "testing"

// fix59c: a cause whose count cannot account for its effect's is no root of it. A listen
// overflow adds at most tcp_synack_retries (5) SYN-ACKs; a segment the receive-queue pruning
// dropped is resent at most tcp_retries2 (15) times.
func TestCountBoundEdges(t *testing.T) {
	retrans := func(n int64, boot bool) Finding {
		return Finding{ID: "retransmit-rate", Severity: Warning, Facts: Facts{Counted: n, CountedSinceBoot: boot}}
	}
	listen := func(n int64, boot bool) Finding {
		return Finding{ID: "listen-overflow", Severity: Info, Facts: Facts{Counted: n, CountedSinceBoot: boot}}
	}
	prune := func(n int64, boot bool) Finding {
		return Finding{ID: "rcvq-pruning", Severity: Info, Facts: Facts{Counted: n, CountedSinceBoot: boot}}
	}
	for _, c := range []struct {
		name          string
		cause, effect Finding
		want          bool
	}{
		// 2003 squid proxy: 8670444 overflows and 8104 prune calls since boot against
		// 74153475 retransmitted segments.
		{"overflows too few", listen(8670444, true), retrans(74153475, true), false},
		{"prunes too few", prune(8104, true), retrans(74153475, true), false},
		// Counter-cases: enough events, spans that differ, a count not read.
		{"overflows enough", listen(20000000, true), retrans(74153475, true), true},
		{"prunes enough", prune(10000, false), retrans(120000, false), true},
		{"different spans", listen(10, false), retrans(74153475, true), true},
		{"overflows not counted", listen(0, false), retrans(1000, false), true},
		{"pruning without a bound (OfoPruned)", prune(0, true), retrans(74153475, true), true},
	} {
		if _, got := edgeBetween(c.cause, c.effect); got != c.want {
			t.Errorf("%s: edge %s → %s = %v, want %v", c.name, c.cause.ID, c.effect.ID, got, c.want)
		}
	}
}

// The rules set the counts the edges compare.
func TestCountFacts(t *testing.T) {
	rs := []netCounterReading{
		{netCounter: netCounter{Name: "PruneCalled"}, growth: growth{last: 8104, hasLast: true}},
		{netCounter: netCounter{Name: "TCPRcvCollapsed"}, growth: growth{last: 346121, hasLast: true}},
	}
	if f := rcvqDropCount(rs); f.Counted != 8104 || !f.CountedSinceBoot {
		t.Errorf("rcvqDropCount = %+v, want 8104 since boot (collapses drop nothing)", f)
	}
	rs = append(rs, netCounterReading{netCounter: netCounter{Name: "OfoPruned"}, growth: growth{last: 3, hasLast: true}})
	if f := rcvqDropCount(rs); f.Counted != 0 {
		t.Errorf("rcvqDropCount with OfoPruned = %+v, want no bound", f)
	}
	lo := []netCounterReading{{netCounter: netCounter{Name: "ListenOverflows"}, growth: growth{last: 12, delta: 5, hasLast: true, hasDelta: true}}}
	if f := listenOverflowCount(lo); f.Counted != 5 || f.CountedSinceBoot {
		t.Errorf("listenOverflowCount = %+v, want 5 while sampled", f)
	}
}
