package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// ev49a: the one guard of the stated-event readers. Every reader of an event the author
// states in words (an OOM kill, swapping, a stall) drops a match that is no statement of
// this host's event: a condition or a possibility up to the match (hypotheticalUpTo), the
// voice of documentation (genericStatement), a yes/no question (questionAt), and, by the
// reader, the OOM killer's mechanism told in general (oomMechanism), a sentence closed by a
// question mark (askedAt, or any "?" in it), a negation before the match, a hedge or a modal
// in the lead, a program's own out-of-memory message (programOOMText) or an orchestrator's
// guess after a SIGKILL (frameworkKillText). The readers wrote the chain out one by one;
// notTheHostsEvent is the chain once, with the reader's choices in guardOpts.

// negWindow: where a negation before the match is looked for.
type negWindow int

const (
	negNone       negWindow = iota
	negLead                 // reNegated over the sentence before the match
	negNear                 // reNegated over the 24 bytes of para before the match
	negLeadTail             // reNegated over the last 24 bytes of the sentence before the match
	negJustBefore           // reNegatedJustBefore over the 40 bytes of para before the match
)

// guardOpts: the parts of the guard a reader uses beyond hypotheticalUpTo and questionAt.
type guardOpts struct {
	noGeneric  bool // genericStatement is not asked (the reader has its own test of the voice)
	noQuestion bool // questionAt is not asked
	mechanism  bool // oomMechanism
	asked      bool // askedAt: the sentence ends with "?"
	qmark      bool // a "?" anywhere in the sentence
	neg        negWindow
	// hedge is matched against the sentence before the match (with the match when
	// hedgeMatch): a modal, a condition or a fear the reader's own words name.
	hedge      *lazyre.Regexp
	hedgeMatch bool
	andClause  bool // the lead is cut to its last clause after " and "
	programOOM bool // programOOMText: a runtime's own out-of-memory in the sentence
	framework  bool // frameworkKillText: an orchestrator's guess after a SIGKILL
}

// notTheHostsEvent reports whether the match para[m[0]:m[1]] is no statement of the host's
// event by the guard the options choose.
func notTheHostsEvent(para string, m []int, o guardOpts) bool {
	sentence := sentenceAround(para, m[0], m[1])
	match := para[m[0]:m[1]]
	lead := sentence[:max(0, strings.Index(sentence, match))]
	if i := strings.LastIndex(lead, " and "); o.andClause && i >= 0 {
		lead = lead[i+5:]
	}
	if hypotheticalUpTo(sentence, match) || !o.noGeneric && genericStatement(sentence, match) || !o.noQuestion && questionAt(para, m[0], m[1]) {
		return true
	}
	if o.mechanism && oomMechanism(sentence, match) || o.asked && askedAt(para, m[1]) || o.qmark && strings.ContainsAny(sentence, "?？") {
		return true
	}
	switch o.neg {
	case negLead:
		if reNegated.MatchString(lead) {
			return true
		}
	case negNear:
		if reNegated.MatchString(para[max(0, m[0]-24):m[0]]) {
			return true
		}
	case negLeadTail:
		if reNegated.MatchString(lead[max(0, len(lead)-24):]) {
			return true
		}
	case negJustBefore:
		if reNegatedJustBefore.MatchString(para[max(0, m[0]-40):m[0]]) {
			return true
		}
	}
	if o.hedge != nil {
		h := lead
		if o.hedgeMatch {
			h += match
		}
		if o.hedge.MatchString(h) {
			return true
		}
	}
	return o.programOOM && programOOMText(sentence) || o.framework && frameworkKillText(sentence)
}

// The guards the OOM readers share: the sentence's own question mark, a negation in the lead
// and the reader's hedge.
var (
	// guardOOMUntil: statedOOMUntil's chain (statedoomuntil.go).
	guardOOMUntil = guardOpts{mechanism: true, asked: true, qmark: true, neg: negLead, hedge: reOOMUntilModal, hedgeMatch: true, programOOM: true, framework: true}
	// guardOOMGot: statedOOMGot's chain (statedoomgot.go).
	guardOOMGot = guardOpts{mechanism: true, asked: true, neg: negLead, hedge: reOOMGotHedge}
)
