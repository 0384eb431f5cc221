package artifact

import (
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// TCPStateCounts is a count of sockets per TCP state that a pipeline printed, the way every
// "too many TIME_WAIT" post measures it:
//
//	netstat -n | awk '/^tcp/ {++S[$NF]} END {for (a in S) print a, S[a]}'   → "TIME_WAIT 3979"
//	ss -tan | awk 'NR>1 {++s[$1]} END {for (k in s) print k, s[k]}'         → "TIME-WAIT 3979"
//	netstat -ant | awk '{print $6}' | sort | uniq -c                          → "   3979 TIME_WAIT"
//
// It says how many sockets each state holds and nothing of their queues or memory, so the
// sample's summary is marked CountsOnly: a rule may count flows from it but not call them
// idle (corpus 559).
type TCPStateCounts struct {
	// States by the kernel's names (tcp_states.h: ESTABLISHED, FIN_WAIT1, ...), as netstat
	// prints them; ss's names (ESTAB, FIN-WAIT-1) are mapped to them.
	States map[string]int64 `json:"states"`
	Total  int64            `json:"total"`
}

// tcpStateCountRow reads "STATE N" or "N STATE" with a state of netstat or ss.
func tcpStateCountRow(t string) (state string, n int64, ok bool) {
	fs := fields(t)
	if len(fs) != 2 {
		return "", 0, false
	}
	a, b := strings.TrimSuffix(fs[0], ":"), fs[1]
	if v, isNum := atoi(a); isNum && isSSState(b) {
		return ssStates[b], v, true
	}
	if v, isNum := atoi(b); isNum && isSSState(a) {
		return ssStates[a], v, true
	}
	return "", 0, false
}

// isTCPStateCountLine is the registry's test (formats.go).
func isTCPStateCountLine(_, t string) bool {
	_, _, ok := tcpStateCountRow(t)
	return ok || uniqHeaderNoise(t)
}

// uniqHeaderNoise: `netstat -ant | awk '{print $6}' | sort | uniq -c` also counts the words
// of netstat's two header lines ("1 established)", "1 Foreign"); they are part of the block.
func uniqHeaderNoise(t string) bool {
	fs := fields(t)
	if len(fs) != 2 || !isDigits(fs[0]) {
		return false
	}
	switch fs[1] {
	case "established)", "Foreign", "servers)", "Address", "State":
		return true
	}
	return false
}

func (d *doc) tryTCPStateCounts(i int) int {
	c := TCPStateCounts{States: map[string]int64{}}
	k := i
	for ; k < len(d.ls); k++ {
		if d.used[k] {
			break
		}
		t := d.ls[k].Text
		if st, n, ok := tcpStateCountRow(t); ok {
			c.States[st] += n
			c.Total += n
			continue
		}
		if uniqHeaderNoise(t) {
			continue
		}
		break
	}
	if len(c.States) == 0 {
		return 0
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	sum := &kernel.SocketSummary{Total: c.Total, ByState: map[string]kernel.SocketStateTotal{}, CountsOnly: true}
	for st, n := range c.States {
		sum.ByState[st] = kernel.SocketStateTotal{Count: n}
	}
	d.segSeq++
	d.addSamples(KindTCPStates, d.label(i), first, last, []model.Sample{{Source: spanSource(first, last), Sockets: sum}})
	d.addArtifact(KindTCPStates, first, last, c)
	return k - i
}
