package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// The conntrack-full message stated, not logged (fix22c, issue 29 round 17). A reporter
// quotes the kernel's "nf_conntrack: table full, dropping packet" inside a sentence that says
// the host's log or console shows it: "In system log there will be continuous \"conntrack
// table full, dropping packet\"" (a numbered step of a Google Code "What steps will reproduce
// the problem?" form, corpus 1931), "犯病时控制台持续输出nf_conntrack: table full, dropping
// packet。" ("when it acts up the console keeps printing ...", corpus 1932). No log line of the
// host is in the text, so the event is stated by the author (RateStatedConntrackFull, a
// warning that says so), not a kernel-log record: messageLoggedNow reads the forms it knows
// ("keeps printing", "dmesg is full of", 一直, 不断) as log records; these are the forms it
// does not, read the weaker way.
//
// The message is the kernel's full text ("table full, dropping packet" after an optional
// "nf_"/"ip_" "conntrack"), or its shortened "conntrack table full" inside quotation marks.
// The clause before it (from the last sentence mark) must place it in the host's log or
// console: "in (the) (system) log there is/are/was/were/will be", "the console shows",
// 控制台/日志/终端 ... 输出/打印/显示/出现/刷. Not stated: a condition or possibility in the
// clause ("if there are ... in the log", 如果, 可能), a negation, a question after the
// message, the voice of documentation (genericStatement), advice (addHostDrop's subject).
// "will" is a prediction (reHypothetical) except where the clause opens a step of a
// reproduction recipe (the paragraph says "reproduce"; opensStep):
// there it is what the reporter's own steps gave, and only a condition or a modal
// (reObservedHedge) makes it a possibility.
var (
	reCTFullMessage = lazyre.New(`(?i)(?:\b(?:nf_|ip_)?conntrack:?\s+)?\btable\s+full,\s+dropping\s+packet\b` +
		"|[\"'`“「]\\s*(?:nf_|ip_)?conntrack:?\\s+table\\s+(?:is\\s+)?full\\b")
	reCTLogPlaceLead = lazyre.New(`(?i)\b(?:in|on|into)\s+(?:the\s+|my\s+|our\s+|its\s+|their\s+)?(?:system\s+|kernel\s+|router'?s?\s+)?(?:logs?|syslog|dmesg|kern\.log|messages|journal|console)\s*,?\s+there\s+(?:is|are|was|were|will\s+be)\b` +
		`|\b(?:logs?|syslog|dmesg|kern\.log|journal|console)\s+(?:(?:constantly|continuously|repeatedly|always)\s+)?(?:shows?|showed|prints?|printed|displays?|displayed|outputs?)\b` +
		`|(?:控制台|终端|終端|日志|日誌|屏幕)(?:里|裡|中|上)?(?:持续|持續|一直|不断|不斷|频繁|頻繁|反复|反復|大量)?(?:地)?(?:输出|輸出|打印|显示|顯示|出现|出現|刷屏|报|報)`)
)

// statedCTFullMessages: the lines and sentences of the conntrack-full messages para quotes in
// a clause that states the host's log shows them.
func statedCTFullMessages(para string, lineAt func(int) int, has func(...string) bool) (out []statedAt) {
	if !has("conntrack") {
		return nil
	}
	for _, m := range reCTFullMessage.FindAllStringIndex(para, -1) {
		clause := ctClauseBefore(para, m[0])
		lead := reCTLogPlaceLead.FindStringIndex(clause)
		if lead == nil {
			continue
		}
		hedge, said, neg := reHypothetical, clause, clause[max(0, lead[0]-24):]
		if has("reproduc") && opensStep(para, m[0]-len(clause)+lead[0], lineAt) {
			// A step of its own line: its words from the line's start are the sentence.
			hedge, said, neg = reObservedHedge, clause[lead[0]:], clause[lead[0]:]
		}
		if reNegated.MatchString(neg) || cjkContainsAny(said, cjkNotStated) || hedge.MatchString(reCouldNot.ReplaceAllString(said, "")) {
			continue
		}
		if q := ctSentenceTail(para[m[1]:]); strings.ContainsAny(q, "?？") {
			continue // a question about the message
		}
		sentence := said + para[m[0]:m[1]]
		if genericStatement(sentence, para[m[0]:m[1]]) {
			continue
		}
		out = append(out, statedAt{no: lineAt(m[0]), sentence: strings.TrimSpace(sentence)})
	}
	return out
}

// statedAt is a statement's line and sentence.
type statedAt struct {
	no       int
	sentence string
}

// ctClauseBefore is the clause of para before byte i, from the last sentence mark.
func ctClauseBefore(para string, i int) string {
	before := para[max(0, i-240):i]
	k := -1
	for j := len(before) - 1; j >= 0; j-- {
		if strings.IndexByte(".!?;", before[j]) >= 0 && (j+1 == len(before) || before[j+1] == ' ' || before[j+1] == '\t') {
			k = j
			break
		}
	}
	if c := cjkLastIndexAny(before, "。", "！", "？", "；"); c > k {
		return before[c:]
	}
	return before[k+1:]
}

// opensStep reports whether byte p of para opens a step of a recipe: only blanks, a list
// marker the parse kept ("3. " behind a bullet or an indent) or an inline-code mark stand
// between it and where its line starts in the paragraph (lineAt changes there), or a step's
// number ends the text right before it (a recipe whose newlines a ticket system dropped:
// "... popular file 3. In system log ...").
func opensStep(para string, p int, lineAt func(int) int) bool {
	no := lineAt(p)
	q := p
	for q > 0 && lineAt(q-1) == no {
		q--
	}
	return reStepLead.MatchString(para[q:p]) || reStepNumberBefore.MatchString(para[max(0, p-8):p])
}

var (
	reStepLead         = lazyre.New("^[ \\t`]*" + `(?:[-*+•][ \t]+)?(?:\d{1,3}[.)][ \t]+)?$`)
	reStepNumberBefore = lazyre.New(`(?:^|\s)\d{1,2}[.)]\s+$`)
)

// ctSentenceTail is the rest of the sentence after a message: up to the next sentence mark.
func ctSentenceTail(s string) string {
	s = s[:min(len(s), 200)]
	for j := 0; j < len(s); j++ {
		if strings.IndexByte(".!;", s[j]) >= 0 && (j+1 == len(s) || s[j+1] == ' ') {
			return s[:j]
		}
	}
	if c := cjkIndexAny(s, "。", "！", "；"); c >= 0 {
		return s[:c]
	}
	return s
}
