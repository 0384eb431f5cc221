package artifact

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"headroom/internal/lazyre"
)

// The kernel's listen-queue counters stated to grow in the author's words, with no figure
// (issue 29, fix28d; corpus 2383, a Red Hat KB's Issue: "netstat -sで確認したところ、x times
// the listen queue of a socket overflowedやSYNs to LISTEN sockets droppedが増加しています。
// /proc/net/netstatのListenOverflowsやListenDropsの値が増加しています。"). The counters go by
// their /proc/net/netstat names (TcpExt ListenOverflows, ListenDrops; nstat's
// TcpExtListenOverflows) and by the words netstat -s prints them with (net-tools
// statistics.c: "%u times the listen queue of a socket overflowed", "%u SYNs to LISTEN sockets
// dropped"). The growth is English ("keeps increasing", "is growing", "went up"), Japanese
// (増加しています, 増えています, 増え続けて) or Chinese (持续增加, 不断增加, 一直在增长).
//
// Not read: a question or a check ("is ListenOverflows increasing?", "ListenOverflowsが増加して
// いるか確認します", "检查ListenOverflows是否增加"), a condition ("増加している場合",
// "如果ListenDrops持续增加"), a negation ("増加していません", "没有增加", "not increasing"),
// and the names in a list of counters to watch (no growth stated). Each is a statement, not a
// counter: the finding is a warning naming the sentence (diagnose/net_listen.go).
var (
	// reListenCounterWords is the part of the regexps that names a counter.
	reListenCounterWords = `(?:(?:TcpExt)?Listen(?:Overflows|Drops)|times\s+the\s+listen\s+queue\s+of\s+a\s+socket\s+overflowed|SYNs\s+to\s+LISTEN\s+sockets\s+dropped)`
	// English, the counter first: "ListenOverflows keeps increasing", "the ListenDrops counter
	// is growing", "TcpExtListenOverflows went up".
	reStatedListenRising = lazyre.New(`(?i)` + reListenCounterWords + `\b[` + "`" + `'"”’)]*\s*(?:(?:and|or|/|,)\s*[` + "`" + `'"“‘]*` + reListenCounterWords + `[` + "`" + `'"”’)]*\s*)?(?:(?:counters?|count|values?|numbers?)\s+)?(?:(?:has|have|had|was|were|is|are|keeps?|kept|started|starts|began|continues|continued)\s+(?:been\s+|to\s+)?)?(skyrocket\w*|soar\w*|spik(?:es|ed|ing)|climb(?:s|ed|ing)|ris(?:es|ing|en)|rose|grow(?:s|ing|n)|grew|increas(?:es|ed|ing)|jump(?:s|ed|ing)|(?:goes|went|going|shot)\s+up)\b` +
		// The growth first: "an increase in ListenOverflows", "a rise of TcpExtListenDrops".
		`|\b(?:rise|surge|growth|increase|spike|jump)s?\s+(?:in|of)\s+(?:the\s+)?[` + "`" + `'"“‘]*` + reListenCounterWords + `\b`)
	// Japanese and Chinese: the counter, then in the same clause (no 。！？) its growth.
	reStatedListenRisingCJK = lazyre.New(`(?i)` + reListenCounterWords + `[^。！？!?\n]{0,60}?(増加(?:して(?:います|いる|いた|いました|おり)|しました|した|し続け|中)|増え(?:て(?:います|いる|いた|おり)|ました|た|続け)|上昇(?:して(?:います|いる|おり)|しました|した)|(?:持续|持續|不断|不斷|一直在?|在|还在|還在|仍在)(?:增加|增长|增長|上升|上涨|上漲)|(?:增加|增长|增長|上升)了)`)
	// After the growth: a question or a check ("…増加しているか", "…増加していますか?"), or a
	// condition ("…増加している場合", "…増加していれば").
	reListenRisingCJKAfter = lazyre.New(`^(?:か|\?|？|場合|なら|と(?:き|、)|時|ことが|かどうか|吗|嗎|时|時)`)
	// Before the growth in its clause: a check, a condition or a negation ("检查…是否增加",
	// "如果…持续增加", "没有增加").
	reListenRisingCJKBefore = lazyre.New(`是否|有没有|如果|若是|假如|检查|檢查|确认|確認|没有|沒有|未|不再|并未|並未`)
)

// The queue itself in plain words (h31c): "the listen queue overflows", "the accept queue is
// full", "accept queue overflowed 1532 times", "the listen backlog keeps filling up". Each is
// what ListenOverflows counts (tcp_v4_syn_recv_sock: sk_acceptq_is_full, the accept queue of
// a listener at its backlog, min(listen()'s backlog, net.core.somaxconn)). The verb is the
// first group, as statedCounterRose reads it. Not read: a purpose or a remedy before it ("to
// avoid listen queue overflows", "prevents accept queue overflow"), advice or a condition
// (conditionLead), and statedCounterRose's question, negation and hypothesis.
var (
	reStatedListenQueueFull = lazyre.New(`(?i)\b(?:listen(?:ing)?|accept|syn)\s+(?:queue|backlog)s?\s+(?:(?:is|was|are|were|keeps?|kept|gets?|got|getting|becomes?|became|has|have|had|started|starts|began|continues|continued|constantly|repeatedly|frequently|often|still)\s+(?:been\s+|to\s+)?)*(overflow(?:s|ed|ing)?|full|fill(?:s|ed|ing)\s+up|maxed\s+out)\b`)
	// fix59a: the queue as the object of the filling, the author's connections the subject:
	// "new connections fill up the LISTEN queue until it finally overflows", "the clients
	// overflowed the accept queue". The verb is the first group as above.
	reStatedListenQueueFilled = lazyre.New(`(?i)\b(fill(?:s|ed|ing)?\s+up|overflow(?:s|ed|ing)?)\s+(?:the|its|their|our|my|his|her|this|that)\s+(?:listen(?:ing)?|accept|syn)\s+(?:queue|backlog)s?\b`)
	reListenRowOrKey          = lazyre.New(`(?i)(?:^[\s>#*-]*\d+\s+|\b(?:summary|info|alarm|template|description|help)\s*:\s*)(?:\w+\s+){0,3}$`)
	reListenRemedyBefore      = lazyre.New(`(?i)\b(?:avoid\w*|prevent\w*|against|reduc\w*|mitigat\w*|fix\w*|handl\w*|stop\w*|risk\w*|protect\w*|no\s+more|without)\s+(?:\w+\s+){0,3}$`)
)

// statedListenRising reads the statements of a prose paragraph that this host's listen-queue
// counters grew and emits the line and sentence of each.
func statedListenRising(para string, has func(...string) bool, lineAt func(int) int, emit func(no int, sentence string)) {
	if has("queue", "backlog") {
		for _, m := range submatches(true, reStatedListenQueueFilled, para) {
			if no, sentence, ok := listenFilledOwn(para, m, lineAt); ok {
				emit(no, sentence)
				return
			}
		}
		for _, m := range submatches(true, reStatedListenQueueFull, para) {
			sentence := sentenceAround(para, m[0], m[1])
			lead := sentence
			if k := strings.Index(sentence, para[m[0]:m[1]]); k >= 0 {
				lead = sentence[:k]
			}
			if conditionLead(lead) || reListenRemedyBefore.MatchString(lead) || strings.HasPrefix(para[m[1]:], ":") ||
				reListenRowOrKey.MatchString(lineBefore(para, m[0], lineAt)) {
				// ": " after the words: a message's own (FreeBSD's sonewconn "Listen queue
				// overflow: N already in queue", whyBSDListenOverflow) or a label's; a count
				// before them on its line is a counter's row (FreeBSD's netstat -sp tcp "N
				// listen queue overflows"), a key before them a configuration's text (netdata's
				// health.d "summary: System TCP accept queue overflows").
				continue
			}
			if no, sentence, ok := statedCounterRose(para, m, lineAt); ok && !listenQuestion(sentence, para[m[1]:]) {
				emit(no, sentence)
				break
			}
		}
	}
	if !has("listenoverflows", "listendrops", "listen queue of a socket", "to listen sockets") {
		return
	}
	for _, m := range submatches(true, reStatedListenRising, para) {
		if no, sentence, ok := statedCounterRose(para, m, lineAt); ok && !listenQuestion(sentence, para[m[1]:]) {
			emit(no, sentence)
		}
	}
	for _, m := range submatches(true, reStatedListenRisingCJK, para) {
		clause := cjkClause(para, m[0], m[1])
		if reListenRisingCJKAfter.MatchString(strings.TrimLeft(para[m[1]:], " ")) || reListenRisingCJKBefore.MatchString(para[m[0]:m[2]]) ||
			reHypothetical.MatchString(clause) {
			continue
		}
		emit(lineAt(m[0]), clause)
	}
}

// listenFilledOwn reads reStatedListenQueueFilled's match m. Its present tense reads as a
// guide's ("until it overflows" is reGenericMarker's) unless the sentence before reports a
// problem on the author's own host ("I'm investigating a problem on one of our machines
// where the server can't keep up"), which the filling then describes.
func listenFilledOwn(para string, m []int, lineAt func(int) int) (int, string, bool) {
	if no, sentence, ok := statedCounterRose(para, m, lineAt); ok {
		return no, sentence, !listenQuestion(sentence, para[m[1]:])
	}
	match := para[m[0]:m[1]]
	sentence := sentenceAround(para, m[0], m[1])
	lead := para[:m[0]]
	if k := strings.Index(sentence, match); k >= 0 {
		lead = sentence[:k]
	}
	if conditionLead(lead) || reListenRemedyBefore.MatchString(lead) || hypotheticalUpTo(sentence, match) ||
		reNegated.MatchString(para[max(0, m[0]-24):m[0]]) || questionAt(para, m[0], m[1]) || listenQuestion(sentence, para[m[1]:]) {
		return 0, "", false
	}
	start := strings.Index(para, strings.TrimSpace(sentence))
	if start <= 0 {
		return 0, "", false
	}
	before := sentenceAround(para, max(0, start-2), max(0, start-2))
	if !reFirstPerson.MatchString(before) || !reOwnTrouble.MatchString(before) {
		return 0, "", false
	}
	return lineAt(m[0]), sentence, true
}

// reOwnTrouble: a sentence that reports trouble being worked on.
var reOwnTrouble = lazyre.New(`(?i)\b(?:problems?|issues?|investigat\w*|troubleshoot\w*|debugg?\w*|can(?:'|no)?t\s+keep\s+up|cannot\s+keep\s+up)\b`)

// listenQuestion: an English statement that is a question ("is ListenOverflows increasing?",
// "check whether ListenDrops increases").
func listenQuestion(sentence, after string) bool {
	l := strings.ToLower(sentence)
	if strings.HasPrefix(strings.TrimLeft(after, " `'\""), "?") || strings.HasPrefix(l, "is ") || strings.HasPrefix(l, "are ") || strings.HasPrefix(l, "does ") || strings.HasPrefix(l, "do ") {
		return true
	}
	for _, w := range []string{"whether", "check if", "see if", "watch if", "monitor if"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// cjkClause is the text around [a, b) up to the nearest sentence end, CJK (。！？) or ASCII,
// or a line break.
func cjkClause(text string, a, b int) string {
	s := strings.LastIndexAny(text[:a], "。！？!?\n")
	if s < 0 {
		s = 0
	} else {
		_, size := utf8.DecodeRuneInString(text[s:])
		s += size
	}
	e := strings.IndexAny(text[b:], "。！？!?\n")
	if e < 0 {
		return strings.TrimSpace(text[s:])
	}
	return strings.TrimSpace(text[s : b+e])
}

// lineBefore is the text of para from the start of p's line up to p.
func lineBefore(para string, p int, lineAt func(int) int) string {
	no, q := lineAt(p), p
	for q > 0 && p-q < 200 && lineAt(q-1) == no {
		q--
	}
	return para[q:p]
}

// A listener's accept queue stated full by its Recv-Q (fix57a). On a LISTEN socket ss prints
// the accept queue's length as Recv-Q and its limit, the listen() backlog capped by
// net.core.somaxconn, as Send-Q (inet_diag: idiag_rqueue = sk_ack_backlog, idiag_wqueue =
// sk_max_ack_backlog); the kernel drops the next completed handshake once the first reaches
// the second (sk_acceptq_is_full, counted in ListenOverflows), as fullAcceptQueues judges an
// ss table. Two forms of the author's own observation:
//   - the figures: "ss -lnt 看到端口9091 Recv-Q达到129 超出backlog的值128" (Recv-Q reached 129,
//     over the backlog's 128), "Recv-Q 129 above Send-Q 128", "accept queue 129/128": read when
//     the queue is at or above the limit;
//   - the queue piling up, in a text about a listener (somaxconn, a backlog, listen, the
//     accept queue named in it): "Recv-Q が溜まっており" (Recv-Q had piled up), "Recv-Q堆积",
//     "the Recv-Q of the listening socket piled up".
//
// Not read: a question, a condition or advice ("Recv-Qが溜まっている場合は", "if Recv-Q piles
// up, raise somaxconn", "如果Recv-Q堆积"), a negation, and a Recv-Q below its limit ("Recv-Q 0,
// Send-Q 128") or one named with no figure of its limit ("Recv-Q approaching the backlog limit
// (128)"): a guide's words.
var (
	reStatedRecvQOver = lazyre.New(`(?i)\bRecv-?Q\b[^\d\n。；;!?？]{0,20}?(\d+)[^\d\n。；;!?？]{0,30}?(?:backlog|Send-?Q|somaxconn)[^\d\n。；;!?？]{0,12}?(\d+)` +
		`|(?:\baccept|全连接|全連接)\s*(?:queue|队列|隊列|キュー)\s*(?:is\s+|at\s+|=\s*|:\s*)?(\d+)\s*/\s*(\d+)\b`)
	reStatedRecvQPiled = lazyre.New(`(?i)\bRecv-?Q\b[^。！？!?\n]{0,12}?(?:が|は|都|也)?\s*(?:溜ま(?:って|り|った|る)|貯ま(?:って|り|った)|堆积|積壓|积压|堆積|满了|已满|打满|いっぱい)` +
		`|\bRecv-?Q\b[^.;!?\n]{0,40}?\b(?:pil(?:ed|ing|es)\s+up|built\s+up|building\s+up|(?:is|was|were|got|gets|getting)\s+full|filled\s+up|filling\s+up|maxed\s+out)\b`)
	reRecvQListenerWords = []string{"somaxconn", "backlog", "listen", "accept queue", "全连接", "全連接", "半连接", "接続待ち"}
	reRecvQNotStated     = lazyre.New(`(?i)(?:场合|場合|なら|ならば|时候|時は|吗|嗎|か[?？]?$|\bwhether\b|\bnot\b|\bnever\b|没有|沒有|ていない|ていません|如果|若|假如)`)
)

// statedListenRecvQ reads the statements of a prose paragraph that a listener's accept queue
// was full by its Recv-Q (above) and emits the line and sentence of each. listener says the
// text is about a listening socket (somaxconn, a backlog named in it).
func statedListenRecvQ(para string, has func(...string) bool, listener bool, lineAt func(int) int, emit func(no int, sentence string)) {
	if !has("recv-q", "recvq", "recv_q", "accept", "全连接", "全連接") {
		return
	}
	stated := func(a, b int) (string, bool) {
		// The sentence within the match's own line: a paragraph joins its lines with
		// spaces, and a Japanese memo's lines often end without a 。.
		lead := lineBefore(para, a, lineAt)
		if k := strings.LastIndexAny(lead, "。！？!?"); k >= 0 {
			lead = lead[k:]
			_, size := utf8.DecodeRuneInString(lead)
			lead = lead[size:]
		}
		if k := strings.LastIndex(lead, ". "); k >= 0 {
			lead = lead[k+2:]
		}
		tail := para[b:]
		for e := 0; e < len(tail); e++ {
			if lineAt(b+e) != lineAt(b) {
				tail = tail[:e]
				break
			}
		}
		if k := strings.IndexAny(tail, "。！？!?"); k >= 0 {
			tail = tail[:k]
		}
		if k := strings.Index(tail, ". "); k >= 0 {
			tail = tail[:k]
		}
		sentence := strings.TrimSpace(lead + para[a:b] + tail)
		if conditionLead(lead) || reHypothetical.MatchString(sentence) || listenQuestion(sentence, para[b:]) ||
			reRecvQNotStated.MatchString(sentence) {
			return "", false
		}
		return sentence, true
	}
	for _, m := range submatches(true, reStatedRecvQOver, para) {
		g := m[2:6]
		if g[0] < 0 {
			g = m[6:10]
		}
		n, _ := strconv.Atoi(para[g[0]:g[1]])
		lim, _ := strconv.Atoi(para[g[2]:g[3]])
		if lim <= 0 || n < lim {
			continue
		}
		if sentence, ok := stated(m[0], m[1]); ok {
			emit(lineAt(m[0]), sentence)
			return
		}
	}
	if !listener && !has(reRecvQListenerWords...) {
		return
	}
	for _, m := range submatches(true, reStatedRecvQPiled, para) {
		if sentence, ok := stated(m[0], m[1]); ok {
			emit(lineAt(m[0]), sentence)
			return
		}
	}
}

// proseNamesListener: the text's prose names a listener's queue or its limit (somaxconn, a
// backlog, listen), the context in which a Recv-Q that piles up is an accept queue's.
func proseNamesListener(ls []proseLine) bool {
	for _, l := range ls {
		t := strings.ToLower(l.text)
		for _, w := range reRecvQListenerWords {
			if strings.Contains(t, w) {
				return true
			}
		}
	}
	return false
}
