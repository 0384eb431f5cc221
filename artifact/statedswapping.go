package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// The author says this host swaps, without a rate: "make my system crawl because of the
// swapping", "the server is swapping heavily", "it saturates the RAM and finally eats all the
// SWAP", "runs out of swap", "swap is full" (issue reports of media servers, corpus 1753,
// 1755). It is one stated fact, RateStatedSwapping = 1, never a rate: swap-under-load says
// the rate is unmeasured and stays at warning. Advice ("add more swap", "to prevent
// swapping"), a possibility ("if it starts swapping"), a general statement and another
// machine's swap state nothing about this host (hypotheticalUpTo, genericStatement,
// addHostDrop's subject).
var reStatedSwapping = lazyre.New(`(?i)\b(?:(?:is|was|are|were|starts?|started|begins?|began|keeps?|kept|goes|went)\s+(?:heavily\s+|constantly\s+|massively\s+)?(?:into\s+)?swapping\b|because\s+of\s+(?:the\s+|all\s+the\s+)?swapping\b|(?:eat|eats|ate|eating|eaten|use|uses|used|using|fill|fills|filled|filling|consume[sd]?|consuming)\s+(?:up\s+|out\s+)?all\s+(?:of\s+)?(?:the\s+|my\s+|its\s+)?swap\b|(?:runs?|ran|running)\s+out\s+of\s+swap\b|swap\s+(?:is|was|gets|got|get|getting|is\s+getting|becomes?|became|goes|went)\s+(?:completely\s+|totally\s+)?(?:full|exhausted|filled(?:\s+up)?)\b` +
	// fix34c: a cluster admin's "jobs pushing swap to zero", "drove the free swap down to 0",
	// "I see swap filling" (corpus 2943): the swap consumed, seen; not "swap fills when ..."
	// (a mechanism, present tense: not matched). h31b: "the swap become full" (a non-native
	// verb of change) is the same statement.
	`|\b(?:push|pushes|pushed|pushing|drive|drives|drove|driven|driving)\s+(?:the\s+|its\s+)?(?:free\s+)?swap\s+(?:(?:all\s+the\s+way\s+)?down\s+)?to\s+(?:zero|0|nothing)\b|\bswap\s+(?:space\s+)?(?:filling|has\s+filled|had\s+filled)(?:\s+up)?\b` +
	// fix40a: a process that filled memory and then the swap, the two named together ("the
	// immich-microservices filled the RAM and the Swap", "ate all the memory and swap",
	// corpus 3405): the swap consumed, as "filled all the swap". Not "uses RAM and swap" (a
	// use, no amount).
	`|\b(?:fill|fills|filled|filling|eat|eats|ate|eating|eaten|consume[sd]?|consuming)\s+(?:up\s+)?(?:all\s+(?:of\s+)?)?(?:the\s+|my\s+|its\s+)?(?:ram|memory|mem)\s+(?:and|&|as\s+well\s+as|plus)\s+(?:then\s+)?(?:all\s+(?:of\s+)?)?(?:the\s+|my\s+|its\s+)?swap\b` +
	// fix41a (corpus 3464): the host out of RAM, then swap taken into use, in the past: "The
	// machine went out of RAM and began using swapspace". The present ("runs out of memory
	// and starts using swap") is how a guide tells the mechanism: not matched.
	`|\b(?:out\s+of\s+(?:ram|memory)|(?:ram|memory)\s+(?:was|got|became)\s+(?:completely\s+)?(?:full|exhausted))\s+and\s+(?:then\s+)?(?:began|started)\s+(?:(?:using|to\s+use)\s+(?:the\s+|its\s+)?swap(?:\s*space)?|to\s+swap|swapping)\b` +
	// fix41a (corpus 3465): memory filled, told in the passive, with an amount of swap
	// counted in: "the entire memory is filled by that from zebra, including a fair amount of
	// swap as well". Not "memory is used, plus some swap" (a use, no amount).
	`|\b(?:ram|memory)\s+(?:is|was|gets|got|has\s+been|had\s+been)\s+(?:completely\s+|entirely\s+|totally\s+|fully\s+)?(?:filled|eaten|consumed|used)(?:\s+up)?\b[^.;!?]{0,60}?\b(?:including|plus|as\s+well\s+as|and\s+(?:also\s+)?)\s+(?:a\s+(?:fair|good|large|huge|big|significant)\s+(?:amount|deal|chunk|part)|all|most|much|lots|a\s+lot)\s+of\s+(?:the\s+|its\s+)?swap\b)` +
	// fix46a (corpus 3851): the swap entered, told in the past with how far: "GtS gnawed
	// about 500mb and went well into my swap", "it had gone deep into swap". The present
	// ("it never starts going into swap", "dips into swap when ...") tells a habit or a
	// mechanism: not matched.
	// fix46a (corpus 3849): Japanese with the Latin word, swap used heavily, the verb's
	// suffix of excess ("swapが使われまくる", "swapが大量に使われている"); a condition
	// ("使われまくると", "使われたら") is cut off by reJaCondition below.
	`|\bswap(?:領域)?(?:が|を)(?:大量に使われ|使われまく|食いまく|使いまく)` +
	`|\b(?:went|gone|dipped|dug|sank|sunk)\s+(?:well\s+|deep(?:ly)?\s+|far\s+|way\s+|heavily\s+)?into\s+(?:the\s+|my\s+|its\s+|our\s+)?swap(?:\s*(?:space|file|partition))?\b` +
	// fix46b (corpus 3884): the host found out of RAM and of swap both, sizes in brackets
	// beside each: "the machine was almost entirely out of RAM (8GB) & swap (16GB)", "the
	// server ran out of memory and swap". The swap used up, as "ran out of swap". "runs out
	// of RAM and swap when ..." is a mechanism (present: not matched), "if it runs out of
	// memory and swap" a condition (reSwappingAdvice).
	`|\b(?:was|were|is|are|got|gets|ran|had\s+run|went|been)\s+(?:(?:almost|nearly|completely|entirely|totally|fully|practically|virtually|basically)\s+){0,2}out\s+of\s+(?:ram|memory|mem)(?:\s*\([^()]{1,24}\))?\s*(?:,\s*|\s+)?(?:and|&|as\s+well\s+as|plus)\s+(?:out\s+of\s+)?(?:the\s+|its\s+)?swap\b`)

// reRAMAndSwap: the fix40a form ("filled the RAM and the Swap"); asked as a yes/no question
// ("does it fill the RAM and the swap on your machine?") it states nothing.
var reRAMAndSwap = lazyre.New(`(?i)\b(?:ram|memory|mem)\s+(?:and|&|as\s+well\s+as|plus)\b`)

// reJaCondition: a Japanese match's verb goes on as a condition or a negation
// ("使われまくると", "使われまくったら", "使われまくれば", "使われないように"): no statement
// of this host.
var reJaCondition = lazyre.New(`^(?:る|ります|って|った|ってる|っている|ている|てる|た|れ|ら)?(?:と|ら|れば|ば|ない|ません|ように|場合|なら)`)

// reSwappingAdvice: the match follows advice or a purpose ("to avoid swapping", "add swap so
// it stops using all the swap").
var reSwappingAdvice = lazyre.New(`(?i)\b(?:prevent|avoid|stop|reduce|add|increase|should|could|would|might|may|if|when(?:ever)?|unless|until)\b[^.;!?]{0,40}$`)

// reWhenAuthorSaw: a "when" that opens the author's own past event, closed by a comma before
// the match ("When I woke up this morning, the machine was out of RAM & swap", fix46b): the
// time he found the host so, not a condition ("when it runs out of swap" stays advice).
var reWhenAuthorSaw = lazyre.New(`(?i)\bwhen\s+(?:I|we)\s+(?:woke|came|got|returned|checked|looked|logged|went|arrived|saw|found|noticed)\b[^.;!?,]{0,40},\s*(?:[\w'-]+\s+){0,3}$`)

// reSwappingIndefinite: the match closes a relative clause on an indefinite subject ("vmstat
// on a system that is swapping heavily will look like this"): any system's, a guide's example.
var reSwappingIndefinite = lazyre.New(`(?i)\b(?:a|an|any|some|every)\s+(?:[\w-]+\s+){0,2}?(?:system|machine|host|server|box|node|computer|vm)s?\s+(?:that|which|where|who)\s+$`)

// statedSwapping reports the line and sentence of a statement that this host swaps, if any.
//
// lead is the prose line just before the paragraph when only a fence or a blank line parts
// them ("**Example output:**" over a fenced sample): an example's lead there holds too.
func statedSwapping(para, lead string, lineAt func(int) int) (int, string, bool) {
	for _, m := range matches(true, reStatedSwapping, para) {
		sentence := sentenceAround(para, m[0], m[1])
		match := para[m[0]:m[1]]
		if reJaCondition.MatchString(para[m[1]:min(len(para), m[1]+24)]) {
			continue
		}
		lead60 := para[max(0, m[0]-60):m[0]]
		if notTheHostsEvent(para, m, guardOpts{noQuestion: true, neg: negNear}) || reSwappingAdvice.MatchString(lead60) && !reWhenAuthorSaw.MatchString(lead60) || reSwappingIndefinite.MatchString(para[max(0, m[0]-60):m[0]]) ||
			reRAMAndSwap.MatchString(match) && questionAt(para, m[0], m[1]) {
			continue
		}
		return lineAt(m[0]), sentence, true
	}
	if no, sentence, ok := statedSwapUsedAllOfIt(para, lineAt); ok {
		return no, sentence, true
	}
	if no, sentence, ok := statedSwapSeenInMonitor(para, lineAt); ok {
		return no, sentence, true // "According to htop it uses all the ram and then starts using swap" (fix52b.go)
	}
	return statedSwapFigureFull(para, lead, lineAt)
}

// fix42a (corpus 3589): the swap used up, told with a pronoun for the swap the sentence
// before sized: "i installed the swap plugin and gave it a 200gb swap just so i have time to
// see what is happening. it used all of that also." The pronoun's antecedent is the swap
// only when swap, with its size, is the last memory the text named before it ("gave it 16
// GB of RAM. It used all of that too" is RAM's). A condition, advice, a question and a
// negation state nothing, as above.
var (
	reUsedAllOfIt = lazyre.New(`(?i)\b(?:it|they|that|this|which)\s+(?:also\s+|then\s+|quickly\s+|just\s+)?(?:used|ate|filled|consumed|took|eaten|burned)\s+(?:up\s+|through\s+)?(?:all|every\s+(?:bit|byte))\s+of\s+(?:that|it|this|them|those)\b`)
	// reSizedSwapLast: a sized swap ("a 200gb swap", "8 GB of swap", "a swap file of 4G")
	// and no memory word after it, up to the pronoun.
	reSizedSwapLast = lazyre.New(`(?i)(?:\b\d+(?:\.\d+)?\s*[kmgt]i?b?\s+(?:of\s+)?(?:the\s+)?swap(?:\s*(?:file|partition|space))?|\bswap(?:\s*(?:file|partition|space))?\s+(?:of\s+)?\d+(?:\.\d+)?\s*[kmgt]i?b?)\b(?:[^.!?]*[.!?]\s+)?[^.!?]*$`)
	reMemoryWord    = lazyre.New(`(?i)\b(?:ram|memory|mem|disk|storage|space|cpu)\b`)
)

func statedSwapUsedAllOfIt(para string, lineAt func(int) int) (int, string, bool) {
	if !containsFoldASCII(para, "swap") {
		return 0, "", false
	}
	for _, m := range reUsedAllOfIt.FindAllStringIndex(para, -1) {
		before := para[max(0, m[0]-240):m[0]]
		sm := reSizedSwapLast.FindStringIndex(before)
		if sm == nil {
			continue
		}
		if tail := before[sm[0]:]; reMemoryWord.MatchString(reSwapNameTail.ReplaceAllString(tail, "")) {
			continue // RAM or disk named after the swap: the pronoun may be theirs
		}
		if notTheHostsEvent(para, m, guardOpts{neg: negNear}) || reSwappingAdvice.MatchString(para[max(0, m[0]-60):m[0]]) {
			continue
		}
		return lineAt(m[0]), sentenceAround(para, m[0], m[1]), true
	}
	return 0, "", false
}

// reSwapNameTail: the swap's own words in the tail ("swap file", "swap space") are no other memory.
var reSwapNameTail = lazyre.New(`(?i)\bswap\s*(?:file|partition|space)\b`)

// reStatedSwapFigure (fix35b): the swap's used and total stated as figures of one unit, the
// way top's header is retyped in prose ("SWAP 511/512 MB full", "swap: 1.9 of 2 GB used",
// "swap usage 2047/2048 MiB"). Only a swap nearly full (used at least 95% of the total) is
// the author's statement that this host swapped its working set out; a swap partly used is
// old pages parked on disk and states nothing. Counter-cases: advice ("set swap to 512/512
// MB"), a possibility ("if swap reaches 511/512 MB"), a negation, a swap half used.
var reStatedSwapFigure = lazyre.New(`(?i)\bswap(?:\s+(?:space|usage|used))?\s*[:=]?\s*(\d+(?:\.\d+)?)\s*([kmgt])?(?:i?b)?\s*(?:/|of|out\s+of)\s*(\d+(?:\.\d+)?)\s*([kmgt])i?b?\b(?:\s+(?:full|used|in\s+use|exhausted))?` +
	// h31b: the figures before the word ("7.9 of 8 GB swap used", "3.9G/4G of swap in use"),
	// with a used word after it: "1 of 2 GB swap files" is a count.
	`|\b(\d+(?:\.\d+)?)\s*([kmgt])?(?:i?b)?\s*(?:/|of|out\s+of)\s*(\d+(?:\.\d+)?)\s*([kmgt])i?b?\s+(?:of\s+)?swap\b(?:\s+space)?\s+(?:is\s+|was\s+)?(?:used|in\s+use|full|taken|exhausted)\b` +
	// h31b: the share stated ("swap usage at 100%", "swap is 97% full", "uses 100% of swap",
	// "100% swap usage"); a bare "CPU 100% swap 0%" row gives the swap its own figure.
	`|\bswap(?:\s+(?:space|usage|use|utili[sz]ation|partition))?\s*(?:is\s+|was\s+|stays\s+|[:=]\s*|reached\s+|reaches\s+|hits?\s+)?(?:at\s+)?(?:about\s+|around\s+|~\s*)?(\d{1,3}(?:\.\d+)?)\s*%` +
	`|\b(\d{1,3}(?:\.\d+)?)\s*%\s+(?:of\s+(?:the\s+|my\s+|its\s+|our\s+|all\s+)?swap\b|swap\s+(?:usage|used|in\s+use|utili[sz]ation)\b)` +
	// "our vps use 100% swap": the share after a verb of use.
	`|\b(?:use|uses|using|used|eats?|eating|ate|consum(?:es|ed|ing))\s+(?:up\s+)?(\d{1,3}(?:\.\d+)?)\s*%\s+(?:of\s+)?swap\b`)

// swapUnitKB is the multiplier of a unit letter ("" when none: the other figure's unit).
func swapUnitKB(u string) float64 {
	switch strings.ToLower(u) {
	case "k":
		return 1
	case "m":
		return 1 << 10
	case "g":
		return 1 << 20
	case "t":
		return 1 << 30
	}
	return 0
}

// swapFigureShare is the share of the swap in use a reStatedSwapFigure match states.
func swapFigureShare(para string, m []int) (float64, bool) {
	for _, k := range []int{2, 10} { // used/total with units, either order of the words
		if m[k] < 0 {
			continue
		}
		used, err1 := strconv.ParseFloat(para[m[k]:m[k+1]], 64)
		total, err2 := strconv.ParseFloat(para[m[k+4]:m[k+5]], 64)
		tu := swapUnitKB(para[m[k+6]:m[k+7]])
		uu := tu
		if m[k+2] >= 0 {
			uu = swapUnitKB(para[m[k+2]:m[k+3]])
		}
		if err1 != nil || err2 != nil || total <= 0 || tu == 0 {
			return 0, false
		}
		return used * uu / (total * tu), true
	}
	for _, k := range []int{18, 20, 22} {
		if m[k] >= 0 {
			v, err := strconv.ParseFloat(para[m[k]:m[k+1]], 64)
			return v / 100, err == nil
		}
	}
	return 0, false
}

// statedSwapFigureFull reports the line and sentence of a stated swap figure nearly full.
func statedSwapFigureFull(para, lead string, lineAt func(int) int) (int, string, bool) {
	for _, m := range submatches(true, reStatedSwapFigure, para) {
		share, ok := swapFigureShare(para, m)
		if !ok || share > 1 || share < swapFullShare {
			continue
		}
		match := para[m[0]:m[1]]
		sentence := fromMatchLine(para, m[0], sentenceAround(para, m[0], m[1]), match, lineAt)
		if hypotheticalUpTo(sentence, match) || genericStatement(sentence, match) || reSwappingAdvice.MatchString(para[max(0, m[0]-60):m[0]]) || reNegated.MatchString(para[max(0, m[0]-24):m[0]]) ||
			reSwapExampleBefore.MatchString(lead+"\n"+para[max(0, m[0]-300):m[0]]) || reSwapAlarmLine.MatchString(lineOf(para, m[0])) {
			continue
		}
		return lineAt(m[0]), sentence, true
	}
	return 0, "", false
}

// reSwapExampleBefore (h31b): the figure follows an example's lead ("**Example output:**",
// "e.g.", "something like"): a proposal's or a guide's sample, not this host's swap.
var reSwapExampleBefore = lazyre.New(`(?i)\b(?:example|sample)\s+(?:output|alert|report|message)\b|\be\.\s?g\.|\bsomething\s+like\b|\bwould\s+(?:look|show|print|say)\b`)

// reSwapAlarmLine (h31b): the figure is a monitor's alarm label ("Severity: Critical (99.9%
// swap utilization)", Netdata's "System Swap Memory Utilization Critical"): a swap full of
// pages parked long ago raises it as well, so the alarm alone states no load.
var reSwapAlarmLine = lazyre.New(`(?i)\b(?:alerts?|alarms?|severity|threshold|critical|warning)\b`)

// lineOf is the line of para that holds offset i.
func lineOf(para string, i int) string {
	start := strings.LastIndexByte(para[:i], '\n') + 1
	end := strings.IndexByte(para[i:], '\n')
	if end < 0 {
		return para[start:]
	}
	return para[start : i+end]
}

// fromMatchLine cuts sentence to the part on the match's own line and after: the items of
// a list without full stops are joined into one sentence, and an earlier item's words ("up
// to 12 contexts") are not the figure's. A condition or advice just before the figure on an
// earlier line is still seen by the 60 bytes before it (reSwappingAdvice).
func fromMatchLine(para string, start int, sentence, match string, lineAt func(int) int) string {
	ln := lineAt(start)
	o := start
	for o > 0 && start-o < 200 && lineAt(o-1) == ln {
		o--
	}
	head := para[o:start]
	if j := strings.Index(sentence, head+match); j > 0 {
		return sentence[j:]
	}
	return sentence
}

// swapFullShare: the share of the swap in use that makes a stated figure "full" (the
// snapshot rule's swapExhaustedShare, diagnose/mem_swap_norate.go).
const swapFullShare = 0.95
