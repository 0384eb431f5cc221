package artifact

import "headroom/internal/lazyre"

// A kill for lack of memory stated in French or German words without the word "OOM"
// (fix30b, corpus 2581): "le backend se fait tuer car le système n'a plus de mémoire", "a
// été tué parce que le serveur manquait de mémoire", "wurde beendet, weil der
// Arbeitsspeicher voll war". The English reStatedOOM reads "killed ... out of memory"; these
// read the kill verb followed by its cause, a lack of memory. The lack's own negation ("n'a
// pas assez de mémoire", "nicht genug Speicher") is part of the cause, so only the clause
// before the verb is tested for a negation, a condition, or a generic explanation ("le code
// 137 indique généralement que le processus a été tué car ...": what an exit code means,
// not an event of this host's).
var reStatedKilledNoMemEU = lazyre.New(`(?i)(?:^|[^\pL])(?:tu(?:é|ée|és|ées|er)|kill(?:é|ée|és|ées)|but(?:é|ée|er))\s+(?:car|parce\s+qu|faute\s+de|par\s+manque\s+de|à\s+cause\s+d)[^.;!?\n]{0,50}?(?:(?:plus|pas\s+assez|manque|manquait|court|faute)\s+de\s+(?:la\s+)?(?:mémoire|ram)(?:[^\pL]|$)|mémoire\s+(?:insuffisante|saturée|pleine|épuisée))` +
	`|(?:^|[^\pL])(?:beendet|getötet|gekillt|abgeschossen|abgewürgt)\s*,?\s+(?:weil|da)\s+[^.;!?\n]{0,50}?(?:(?:arbeits)?speicher|ram)\s+(?:voll|aus|knapp|erschöpft|ausgegangen)(?:[^\pL]|$)|(?:^|[^\pL])(?:beendet|getötet|gekillt|abgeschossen|abgewürgt)\s*,?\s+(?:weil|da)\s+[^.;!?\n]{0,50}?(?:nicht\s+genug|zu\s+wenig|kein(?:en)?)\s+(?:arbeits)?speicher`)

// reGenericEU: words before the statement that make it an explanation of what usually
// happens, not an event ("indique généralement que", "signifie que", "bedeutet, dass",
// "normalerweise").
var reGenericEU = lazyre.New(`(?i)(?:^|[^\pL])(?:généralement|en\s+général|habituellement|normalement|typiquement|souvent|signifie|indique|veut\s+dire|bedeutet|heißt|normalerweise|meistens|üblicherweise|typischerweise)(?:[^\pL]|$)`)

// reConditionalFrDe: a condition before it in French or German ("si", "s'il", "wenn",
// "falls", "sobald"); reConditionalEU's Italian "se" is the French reflexive ("se fait tuer").
var reConditionalFrDe = lazyre.New(`(?i)(?:^|[^\pL])(?:si|s['’]il|s['’]ils|lorsque|quand|wenn|falls|sobald|ob)(?:[^\pL]|$)`)

// statedKilledNoMemEU: the offsets of the first such statement in para whose clause before
// the verb holds no negation, condition or generic explanation and that ends no question;
// ok false for none. Gate: the paragraph holds "mémoire", "ram" or "speicher" (has).
func statedKilledNoMemEU(para string) (int, int, bool) {
	for _, m := range reStatedKilledNoMemEU.FindAllStringIndex(para, -1) {
		before := para[max(0, m[0]-80):m[0]]
		if k := lastSentenceBreak(before); k >= 0 {
			before = before[k+1:]
		}
		if reNegatedEU.MatchString(before) || reConditionalFrDe.MatchString(before) || reGenericEU.MatchString(before) || questionEndsAt(para, m[1]) {
			continue
		}
		return m[0], m[1], true
	}
	return 0, 0, false
}
