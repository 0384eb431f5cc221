package artifact

import "headroom/internal/lazyre"

// Memory paged out, stated (fix43c, corpus 3676): the author says a process's or the host's
// memory was paged (swapped) out to disk while it ran: "tsc ... measured at 1h10 of wall time
// for 5 minutes of CPU, com a memória do processo paginada para fora" (pt: "with the
// process's memory paged out"), "its memory was swapped out", "with the heap paged out".
// Anonymous memory leaves RAM only to swap, so this is statedSwapping's fact in other words:
// the host swapped its working set out under load, no rate (RateStatedSwapping). The forms:
// English "(memory|RAM|the heap|the working set|pages) was/were/got/has been/is being paged
// or swapped out", "with (the process's) memory paged/swapped out"; Portuguese "memória …
// paginada para fora / para o disco"; Spanish "memoria … paginada a disco / fuera". Only the
// participle of an event: a general description ("Linux pages memory out when RAM is
// short"), a condition ("if the heap gets swapped out"), advice, a question and a negation
// ("nothing was swapped out", "a memória não foi paginada") are not read.
var reStatedPagedOut = lazyre.New(`(?i)\b(?:memory|ram|heap|working\s+set|pages)\b[^.;!?\n]{0,30}?\b(?:was|were|got|had\s+been|has\s+been|have\s+been|is\s+being|are\s+being|was\s+being)\s+(?:all\s+|mostly\s+|completely\s+|constantly\s+|heavily\s+)?(?:paged|swapped)\s+out\b` +
	`|\bwith\s+(?:the\s+|its\s+|their\s+|all\s+(?:of\s+)?(?:the\s+|its\s+)?)?(?:process(?:'s|’s|es'|es’)?\s+)?(?:memory|ram|heap|working\s+set)\s+(?:(?:all|mostly|completely)\s+)?(?:paged|swapped)\s+out\b` +
	`|\bmem[óo]ria\b[^.;!?\n]{0,40}?\bpaginad[ao]s?\s+para\s+(?:fora|o\s+disco|disco|a\s+swap|o\s+swap)(?:[^\pL]|$)` +
	`|\bmemoria\b[^.;!?\n]{0,40}?\bpaginad[ao]s?\s+(?:fuera|(?:a|al|en\s+el|en)\s+(?:disco|swap))(?:[^\pL]|$)`)

// rePagedOutPurpose: a purpose or a lesser amount before the match ("so less memory is
// swapped out", "fewer pages were paged out"): advice or a comparison, not the event.
var rePagedOutPurpose = lazyre.New(`(?i)\b(?:so|less|fewer|to\s+keep|to\s+avoid)\b[^.;!?]{0,30}$`)

// rePagedOutDefinition: a relative clause or a time word inside the match ("Memory that once
// was swapped out, is swapped back in", proc(5)'s SwapCached): a definition, not the event.
var rePagedOutDefinition = lazyre.New(`(?i)\b(?:that|which|once|when|whenever|if)\b`)

// statedPagedOut: the line and sentence of such a statement; ok false for none.
func statedPagedOut(para string, lineAt func(int) int) (int, string, bool) {
	for _, m := range reStatedPagedOut.FindAllStringIndex(para, -1) {
		sentence := sentenceAround(para, m[0], m[1])
		match := para[m[0]:m[1]]
		before := para[max(0, m[0]-40):m[0]]
		if k := lastSentenceBreak(before); k >= 0 {
			before = before[k+1:]
		}
		if notTheHostsEvent(para, m, guardOpts{neg: negNear}) || rePagedOutDefinition.MatchString(match) || reNegated.MatchString(match) || reSwappingAdvice.MatchString(para[max(0, m[0]-60):m[0]]) ||
			reNegatedEU.MatchString(before) || rePagedOutPurpose.MatchString(before) || reNegatedEU.MatchString(match) || reConditionalEU.MatchString(before) {
			continue
		}
		return lineAt(m[0]), sentence, true
	}
	return 0, "", false
}
