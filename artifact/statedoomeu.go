package artifact

import "headroom/internal/lazyre"

// An OOM kill stated in the words of German, French, Spanish, Portuguese, Italian, Polish and
// Dutch posts (h25b): the English reStatedOOMKill reads "the OOM killer killed mysqld"; these
// read the same statement in the past tense of each language, the killer named in English as
// those posts name it ("OOM-Killer", "OOM killer", Polish "OOM killera"):
//
//	active:  de "der OOM-Killer hat mysqld beendet/getötet/gekillt/abgeschossen", "hat
//	         zugeschlagen"; fr "l'OOM killer a tué/killé/buté mysqld"; es "el OOM killer
//	         mató/eliminó/ha matado"; pt "o OOM killer matou/finalizou/encerrou"; it "l'OOM
//	         killer ha ucciso/terminato/killato"; pl "OOM killer zabił/ubił"; nl "de
//	         OOM-killer heeft mysqld gekilld/gedood/beëindigd"
//	passive: de "wurde vom OOM-Killer beendet"; fr "a été tué par l'OOM killer", "s'est fait
//	         tuer par l'OOM killer"; es "fue matado por el OOM killer"; pt "foi morto pelo OOM
//	         killer"; it "è stato ucciso dall'OOM killer"; pl "został zabity przez OOM
//	         killera"; nl "werd door de OOM-killer gekilld", "werd gekilld door de OOM-killer"
//
// The present ("der OOM-Killer beendet dann den Prozess", "l'OOM killer tue le processus le
// plus gros") is the mechanism, not an event, and is not read; nor a negation in the
// language's words (reNegatedEU), a condition (reConditionalEU) or a question.
var reStatedOOMKillEU = lazyre.New(`(?i)\boom[- _]?killer\w{0,2}\b[^.;!?\n]{0,60}?(?:\bhat\b[^.;!?\n]{0,50}?\b(?:beendet|getötet|gekillt|abgeschossen|abgewürgt|erschossen)\b|\bhat\s+zugeschlagen\b|\bschlug\s+zu\b` +
	`|\ba\s+(?:tué|killé|buté|flingué)(?:[^\pL]|$)|\b(?:mató|eliminó|ha\s+(?:matado|eliminado))(?:[^\pL]|$)|\b(?:matou|finalizou|encerrou|eliminou)\b|\bha\s+(?:ucciso|terminato|killato)\b` +
	`|\b(?:zabił|ubił|zabil)(?:[^\pL]|$)|\bheeft\b[^.;!?\n]{0,50}?\b(?:gekilld|gedood|afgeschoten|beëindigd)\b)` +
	`|\bwurden?\b[^.;!?\n]{0,60}?\bvom\s+(?:linux[- ])?oom[- _]?killer\b[^.;!?\n]{0,40}?\b(?:beendet|getötet|gekillt|abgeschossen|abgewürgt|erschossen)\b` +
	`|\b(?:a|ont)\s+été\s+(?:tué|killé|arrêté|terminé)e?s?(?:[^\pL]|$)[^.;!?\n]{0,40}?\bpar\s+(?:l['’]\s*|le\s+)oom[- _]?killer\b|\bs['’]est\s+fait\s+(?:tuer|killer|buter)\s+par\s+(?:l['’]\s*|le\s+)oom[- _]?killer\b` +
	`|\b(?:fue|fueron|ha\s+sido|han\s+sido)\s+(?:matad|eliminad|terminad|finalizad)[oa]s?\b[^.;!?\n]{0,40}?\bpor\s+el\s+oom[- _]?killer\b` +
	`|\b(?:foi|foram)\s+(?:mort|finalizad|encerrad|eliminad|terminad)[oa]s?\b[^.;!?\n]{0,40}?\bpelo\s+oom[- _]?killer\b` +
	`|(?:(?:^|[^\pL])è|\bsono)\s+stat[oaie]\s+(?:uccis|terminat|killat)[oaie]\b[^.;!?\n]{0,40}?\bdall['’]\s*oom[- _]?killer\b` +
	`|\b(?:został[aoy]?|zostały|zostali)\s+(?:zabit|ubit)[yaeo]?(?:[^\pL]|$)[^.;!?\n]{0,40}?\bprzez\s+oom[- _]?killer\w{0,2}\b` +
	`|\b(?:werd|werden|is|zijn)\s+(?:[^.;!?\n]{0,40}?\bdoor\s+de\s+oom[- _]?killer\s+(?:gekilld|gedood|afgeschoten|beëindigd)|(?:gekilld|gedood|afgeschoten|beëindigd)\b[^.;!?\n]{0,40}?\bdoor\s+de\s+oom[- _]?killer)\b`)

// reNegatedEU: a negation in the clause before or inside the statement ("nicht", "kein",
// "pas", "jamais", "no", "nunca", "não", "non", "mai", "nie", "nigdy", "niet", "geen").
var reNegatedEU = lazyre.New(`(?i)(?:^|[^\pL])(?:nicht|keine?[mnrs]?|niemals|ne|pas|jamais|aucun\w*|no|nunca|ningún|não|nao|non|mai|nessun\w*|nie|nigdy|niet|geen|nooit)(?:[^\pL]|$)`)

// reNegatedAfterEU: a negation right after the verb ("der Server swappt nicht", "swapt niet",
// "ne swappe pas").
var reNegatedAfterEU = lazyre.New(`(?i)^[^\pL]*(?:nicht|kaum|nie|niet|nooit|pas|jamais)(?:[^\pL]|$)`)

// reConditionalEU: a condition or a purpose before it ("wenn/falls der OOM-Killer …", "si
// l'OOM killer a tué", "se", "cuando", "quando", "jeśli", "gdy", "als", "wanneer", "damit").
var reConditionalEU = lazyre.New(`(?i)(?:^|[^\pL])(?:wenn|falls|sobald|damit|si|se|cuando|quando|qualora|jeśli|jeżeli|gdy|als|wanneer|zodra|indien)(?:[^\pL]|$)`)

// statedOOMKillEU: the offsets of the first such statement in para that is no negation,
// condition or question; ok false for none.
func statedOOMKillEU(para string) (int, int, bool) {
	return euStatementAt(reStatedOOMKillEU, para)
}

// euStatementAt: the first match of re in para that no negation (before it, inside it or
// right after its verb), condition or question takes back.
func euStatementAt(re *lazyre.Regexp, para string) (int, int, bool) {
	for _, m := range re.FindAllStringIndex(para, -1) {
		before := para[max(0, m[0]-40):m[0]]
		if k := lastSentenceBreak(before); k >= 0 {
			before = before[k+1:]
		}
		if reNegatedEU.MatchString(before) || reNegatedEU.MatchString(para[m[0]:m[1]]) || reConditionalEU.MatchString(before) || questionEndsAt(para, m[1]) ||
			reNegatedAfterEU.MatchString(para[m[1]:min(len(para), m[1]+24)]) {
			continue
		}
		return m[0], m[1], true
	}
	return 0, 0, false
}

// lastSentenceBreak: the index of the last '.', '!', '?', ';' or newline in s, -1 for none.
func lastSentenceBreak(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case '.', '!', '?', ';', '\n':
			return i
		}
	}
	return -1
}

// questionEndsAt: the sentence from j ends with '?' (any language: "… getötet?").
func questionEndsAt(para string, j int) bool {
	for k := j; k < len(para); k++ {
		switch para[k] {
		case '?':
			return true
		case '.', '!', ';', '\n':
			return false
		}
	}
	return false
}

// The author says this host swaps, in those languages' words (h25b; statedSwapping's English
// "the server is swapping heavily", "swap is full"): de "der Server swappt", "swappte", "hat
// geswappt", "der Swap ist voll"; fr "le serveur swappe", "le swap est plein/saturé"; es "está
// swapeando", "el swap está lleno"; pt "está swapando", "o swap está cheio"; it "sta
// swappando", "va in swap", "lo swap è pieno"; pl "swapuje", "swap jest pełny"; nl "swapt", "de
// swap is vol". A negation, a condition or a question in the same clause is none.
var reStatedSwappingEU = lazyre.New(`(?i)\b(?:swappt|swappte|geswappt|swappe|swappait|swapuje|swapował|swapt|swapte)(?:[^\pL]|$)` +
	`|\b(?:está|estaba|estava|sta|stava|stanno)\s+(?:swap?p?eando|swap?p?ando|haciendo\s+swap|fazendo\s+swap)\b|\bva\s+in\s+swap\b` +
	`|\bswap\s+(?:ist|war|est|était|está|estaba|estava|è|era|jest|był|is|was)\s+(?:komplett\s+|völlig\s+|ganz\s+|complètement\s+|totalement\s+|completamente\s+|całkowicie\s+|helemaal\s+)?(?:voll|belegt|aufgebraucht|plein|saturé|lleno|saturado|cheio|lotado|pieno|saturo|pełny|zapełniony|vol)(?:[^\pL]|$)`)

// statedSwappingEU: the line and sentence of such a statement; ok false for none.
func statedSwappingEU(para string, lineAt func(int) int) (int, string, bool) {
	i, j, ok := euStatementAt(reStatedSwappingEU, para)
	if !ok {
		return 0, "", false
	}
	return lineAt(i), sentenceAround(para, i, j), true
}
