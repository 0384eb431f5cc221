package artifact

import "strings"

// An errno's own words quoted in a sentence as the error a program hit (fix41b, corpus 3455:
// actix-net#351, "a lot of `ESTABLISHED` connections left there hanging, eventually causing
// `too many open files` error"). errnoLine names the errno on a program's log line (after
// ": ", after its number, Go's and Rust's forms); a reporter who retells the error quotes
// strerror's text alone, in backticks or quotes, either case. With nothing else read, such a
// text exited 3 as if it held no evidence, though it says the program met a descriptor,
// port or memory limit on this host. The line is named unread with the errno's meaning;
// nothing is diagnosed from it (no count, no limit's value, no log record).
//
// Only errnoReasons' errnos (this domain's: ENOBUFS, EAGAIN, EMFILE, ENFILE, ENOMEM,
// EADDRNOTAVAIL, libusb's NO_MEM), the text whole between two quotes of one kind, and the
// sentence that holds it a statement: a question, a condition, advice or a negation
// (reNotAStatement: "if you get `too many open files`, raise the limit", "we never saw
// \"Cannot allocate memory\"") states nothing that happened.

// quotedErrnoPrefix: what the reason adds before the errno's meaning.
const quotedErrnoPrefix = "a sentence quotes the error a program got, in the errno's own words (no log line of it is in the text): "

// quotedErrnoWhy says why prose line t quotes one of errnoReasons' texts as an error that
// happened.
func quotedErrnoWhy(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes*4 {
		return "", false
	}
	l := strings.ToLower(t)
	if why, ok := browserNetErrorWhy(t, l); ok {
		return why, true // fix47a (unreadfix47a.go)
	}
	for _, e := range errnoReasons {
		k := strings.Index(l, strings.ToLower(e.text))
		if k < 1 {
			continue
		}
		end := k + len(e.text)
		if end >= len(t) || !quotePair(t[k-1], t[end]) {
			continue
		}
		if reNotAStatement.MatchString(quotedSentence(l, k, end)) {
			continue
		}
		return quotedErrnoPrefix + e.why, true
	}
	return "", false
}

// quotePair: a and b are one kind of quote around a text (backticks, straight quotes).
func quotePair(a, b byte) bool {
	return a == b && (a == '`' || a == '"' || a == '\'')
}

// quotedSentence: the sentence of l that holds l[k:end] (stated.go's sentenceAround), with
// the mark that ends it, so that a question keeps its '?'.
func quotedSentence(l string, k, end int) string {
	s := sentenceAround(l, k, end)
	for i := end; i < len(l); i++ {
		if sentenceEnd(l, i) {
			return s + l[i:i+1]
		}
	}
	return s
}
