package artifact

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// Whose numbers (issue 29). A number read from prose has a subject: this host, another
// machine the text describes (a `>` quote of someone else's message, a test box, a slide about
// machines this host is not), a recommendation, or an outcome ("after changing it to 20000
// the problem went away"). Only the host's numbers become evidence of its state; an outcome
// weighs between causes; the rest is kept as context, marked with model.ForeignMark so that
// the registry never lets it raise a finding about this host.
//
// The subject is decided from the line (a quote), its sentence (a test box, advice, an
// outcome), and its section (the prose from one markdown heading to the next): a section
// that names a machine whose memory or word size contradicts the host's is about that
// machine.

var (
	// "on my test box", "our test machine", "a test rig": a machine the author tested on.
	// The author's own box called a rig in passing is still theirs, so only a sentence that
	// puts the number on it counts (subjectAt's sentence), never its whole section.
	reTestMachine = lazyre.New(`(?i)\b(?:on|with|using)\s+(?:my|our|a|the|his|her|their)\s+(?:separate\s+)?test\s+(?:box|machine|rig|system|server|host)\b|\bbenchmark(?:ed)?\s+(?:on|from)\b|\bin\s+(?:my|our|his|her|their)\s+benchmarks?\b`)
	// "256MByte machine", "8 GB box": a machine named by its memory size.
	reMachineMem = lazyre.New(`(?i)\b(\d+(?:\.\d+)?)\s*([MG])\s*(?:B|Bytes?|iB)\s+(?:machines?|box(?:es)?|hosts?|servers?)\b`)
	// "(64 bit machines)", "32-bit boxes": machines named by their word size.
	reMachineBits = lazyre.New(`(?i)\b(32|64)[ -]?bit\s+(?:machines?|box(?:es)?|hosts?|servers?)\b`)
	// Advice: what someone should do, not what the host has.
	// "you can see ..." is an observation, so only the verbs of a change count.
	reAdvice = lazyre.New(`(?i)\b(?:run the command|you (?:can|could|should|may|might) (?:set|change|raise|lower|increase|decrease|add|use|try|run|make)|you should|should be (?:set|changed|raised|lowered|increased|reduced)|could just set|we recommend|i recommend|recommended|try setting|set it to)\b`)
	// "after changing it to 20000 (~20MB), the problem went away": the value set and its
	// result, in one sentence.
	reStatedOutcome = lazyre.New(`(?i)\b(?:after|by|when)\s+(?:changing|setting|raising|increasing|bumping|lowering|reducing|decreasing|putting)\s+(?:it|this|that|the\s+value|the\s+setting|([a-z][\w.]*[a-z]))\s+(?:up\s+|down\s+)?to\s+(\d+)\b`)
	reOutcomeGood   = lazyre.New(`(?i)\b(?:went away|go(?:ne)? away|disappeared|solved|fixed|resolved|no more|no longer|stopped|works? (?:fine|now))\b`)
)

// A kernel message a sentence says this host prints now is the host's log: "Linux kernel
// print keeps printing \"TCP:Too many of orphaned sockets\"", "dmesg is full of ...", "I keep
// getting ..." (corpus 537). One a sentence says may come is not: "the kernel will start
// throwing the \"Out of socket memory\" error", "you may see ..." (corpus 216, 478). Only the
// clause before the message decides: what follows it is commonly the question about it.
var (
	reLoggedNow = lazyre.New(`(?i)\b(?:keeps?|kept|keeping)\s+(?:on\s+)?(?:printing|getting|showing|seeing|logging|spamming|throwing|reporting|spitting(?:\s+out)?|popping\s+up)\b` +
		`|\b(?:is|are|was|were|gets?|got|getting)\s+(?:full\s+of|flooded\s+with|filled\s+with|spammed\s+with|littered\s+with)` +
		`|\bi(?:'m|\s+am)\s+(?:getting|seeing|hitting)\b|\b(?:i|we)\s+(?:(?:constantly|repeatedly|always|often)\s+)?(?:get|see|got|saw|noticed|found|encountered|hit|ran\s+into)\b` +
		`|\b(?:dmesg|syslog|kern\.log|messages|journal|logs?|console)\s+(?:(?:constantly|repeatedly|always)\s+)?(?:shows?|showed|says|said|prints?|printed|reports?|reported|has|had|contains?|contained)\b` +
		`|\b(?:constantly|repeatedly|continuously)\s+(?:printing|prints|printed|showing|shows|logging|logs|logged|reporting)\b` +
		// fix57a: the author's past report of what the log held ("In /var/log/kern.log there
		// were errors \"TCP: out of memory\""); the past tense is the author's, a guide's
		// voice is the present ("there are errors like ...").
		`|\bthere\s+(?:were|was|have\s+been|had\s+been)\s+(?:(?:many|lots\s+of|a\s+lot\s+of|several|multiple|some|numerous|plenty\s+of|tons\s+of|frequent|repeated)\s+)?(?:(?:kernel|tcp)\s+)?(?:errors?|messages?|warnings?|entries)\b` +
		`|一直|总是?出现|不断|频繁|反复|大量|日志(?:里|中)?(?:出现|有|报|显示)|报错`)
	// "The kernel logs \"TCP: out of memory ...\" every few seconds", "the node printed ..."
	// (h31c): the host or its kernel as the subject of a printing verb right before the
	// message (so "the kernel logs show" is reLoggedNow's noun). A present tense is the
	// voice of documentation ("the kernel prints 'Out of socket memory' from
	// tcp_check_oom") unless the sentence says how often or where (reLoggedHow).
	reLoggedByHost = lazyre.New(`(?i)\b(?:kernel|host|server|node|box|machine|system)\s+(?:(?:constantly|repeatedly|continuously|always|often|periodically|now)\s+)?(logs|logged|prints|printed|reports|reported|emits|emitted|spits\s+out|spat\s+out|throws|threw|is\s+(?:logging|printing|throwing|reporting))\s*[:"'“「` + "`" + `]*\s*(?:[A-Za-z_]+:\s*)*$`)
	reLoggedHow    = lazyre.New(`(?i)\b(?:every|each|all\s+the\s+time|constantly|repeatedly|continuously|again|now|since|today|tonight|nightly|hourly|daily|per\s+(?:second|minute|hour)|\d+\s+times|on\s+(?:this|our|my|the|all|every)\s+(?:\w+\s+)?(?:hosts?|servers?|nodes?|box(?:es)?|machines?|prox(?:y|ies)|gateways?|routers?|vms?))\b`)
	reHypothetical = lazyre.New(`(?i)\b(?:will|would|could|might|may|if|unless|otherwise|eventually|when\s+you|you(?:'ll|\s+can)|can\s+(?:cause|lead|result|trigger|end\s+up))\b|如果|可能|将会|就会` +
		// fix39c (corpus 3326): Indonesian and Malay "if": "jika terjadi kondisi OOM, kernel
		// panic" (if an OOM happens, the kernel panics) is a condition.
		`|(?i:\b(?:jika|jikalau|apabila|kalau)\b)` +
		// fix56b: "would" contracted before the verb it rules ("I'd be very grateful to be
		// OOM killed", "we'd expect"): "'d" before "be" or a verb of wish is never "had".
		`|(?i:\b(?:i|you|we|he|she|it|they|one|that)['’]d\s+(?:be|expect|rather|prefer|like|love|want|hope|guess|think|imagine|need|see|get)\b)`)
)

// messageLoggedNow is the kernel message a prose line t states this host logs now, as the
// kernel prints it; ok is false when t names no message, or names one only as a possibility.
func messageLoggedNow(t string) (msg string, ok bool) {
	m, i, _, found := kernel.FindMessage(t)
	named := false
	if !found {
		if i, found = quotedNamedConntrackFull(t); found {
			m, named = "nf_conntrack: "+kernel.MsgConntrackFull[0], true
		} else if i, found = synFloodShortened(t); found {
			m = kernel.MsgSynFlood[0]
			// The port's number makes the words the kernel's: only a question in their
			// own sentence ("... on port 443?") is one about them.
			tail := t[i:]
			if k := strings.Index(tail, ". "); k >= 0 {
				tail = tail[:k]
			}
			if strings.ContainsAny(tail, "?？") {
				return "", false
			}
		} else {
			return "", false
		}
	}
	clause := t[:i]
	if k := strings.LastIndexAny(clause, ".!?;。！？；"); k >= 0 && !strings.HasSuffix(strings.TrimRight(clause, " \t\"'“「`"), ":") {
		// The sentence that holds the message ("...properly.Linux kernel print keeps
		// printing"), unless the mark ends a prefix such as "kern.log:".
		clause = clause[k+1:]
	}
	if !reLoggedNow.MatchString(clause) && !loggedByHost(clause, t[i:]) || reHypothetical.MatchString(clause) {
		return "", false
	}
	if named {
		// The short form stands for the whole record; a question about it ("why do I get
		// \"nf_conntrack: table full\"?") states nothing.
		if strings.ContainsAny(t[i:], "?？") {
			return "", false
		}
		return m, true
	}
	// The record is the message with what the author kept of its prefix ("TCP:") before it.
	p := strings.TrimRight(clause, " \t")
	if c := strings.LastIndexAny(p, " \t\"'“「`"); c >= 0 {
		p = p[c+1:]
	}
	if !strings.HasSuffix(p, ":") {
		p = ""
	}
	return p + m, true
}

// quotedNamedConntrackFull finds the words people shorten the conntrack-full message to
// (kernel.MsgConntrackFullNamed: "nf_conntrack: table full") quoted in a sentence: "I
// encountered an \"nf_conntrack: table full\" warning" (corpus 998). Quoted, the words are the
// message's; unquoted in a sentence they are as often a question's subject, so only the quoted
// form is found. i is where the quoted words start.
func quotedNamedConntrackFull(t string) (i int, ok bool) {
	lt := strings.ToLower(t)
	for _, m := range kernel.MsgConntrackFullNamed {
		k := strings.Index(lt, m)
		if k < 0 {
			continue
		}
		start := k
		for _, p := range []string{"nf_", "ip_"} {
			if strings.HasSuffix(lt[:start], p) {
				start -= len(p)
			}
		}
		before := strings.TrimRight(t[:start], " ")
		if strings.HasSuffix(before, "\"") || strings.HasSuffix(before, "'") || strings.HasSuffix(before, "`") || strings.HasSuffix(before, "“") || strings.HasSuffix(before, "「") {
			return start, true
		}
	}
	return 0, false
}

// loggedByHost: clause ends with the host or its kernel printing the message (reLoggedByHost),
// in the past or progressive, or in the present with how often or where in the sentence
// after the message (reLoggedHow).
func loggedByHost(clause, after string) bool {
	m := reLoggedByHost.FindStringSubmatch(clause)
	if m == nil {
		return false
	}
	v := strings.ToLower(m[1])
	if strings.HasSuffix(v, "ed") || strings.HasPrefix(v, "is") || v == "threw" || strings.HasPrefix(v, "spat") {
		return true
	}
	if k := strings.IndexAny(after, ".!?;\n"); k >= 0 && k+1 < len(after) && (after[k+1] == ' ' || after[k+1] == '\n') {
		after = after[:k]
	}
	return reLoggedHow.MatchString(after)
}

// synFloodShortened finds the SYN-flood message retyped without its "Possible" ("dmesg shows
// SYN flooding on port 443", h31c): the kernel's words with the port's number after them
// (tcp_syn_flood_action's "%s: Possible SYN flooding on port %s:%u"; the address before the
// port since 6.x), which only that message prints. i is where the words start.
func synFloodShortened(t string) (i int, ok bool) {
	const w = "SYN flooding on port "
	k := strings.Index(t, w)
	if k < 0 {
		return 0, false
	}
	rest := t[k+len(w):]
	if rest == "" || (!isDigit(rest[0]) && rest[0] != '[') || strings.HasSuffix(strings.TrimRight(t[:k], " "), "ossible") {
		return 0, false
	}
	return k, true
}

// A kernel message named first, then said in the same sentence to be in this host's log:
// "'Out of socket memory' is the possible issue here due I see that in dmesg when crash
// happens" (corpus 667), "... table full, dropping packet - we get it in syslog every
// night". The author (I, we) saw it; "if I see that in dmesg", "you will see it in the
// log" and "I don't see that in dmesg" state nothing.
var reSeenInLogAfter = lazyre.New(`(?i)\b(?:i|we)\s+(?:(?:also|still|often|always|constantly|repeatedly|can|do)\s+)?(?:see|saw|get|got|found|find|notice|noticed|have|had)\s+(?:that|it|this|them|these|those)(?:\s+(?:message|error|line|warning)s?)?\s+(?:\w+\s+)?(?:in|on|into)\s+(?:the\s+|my\s+|our\s+)?(?:dmesg|syslog|kern\.log|messages|journal|kernel\s+logs?|logs?|console)\b`)

// The message named, then said to recur on a schedule (h31c): "... table full, dropping
// packets happens every night at 2am", "... keeps appearing several times a day". Right after
// the message (the next words), with how often: a general "happens when the table fills" is
// documentation's.
var reRecursAfter = lazyre.New(`(?i)^[` + "`" + `'"”’)]*\s*(?:\w+\s+)?(?:(?:happens|happened|occurs|occurred|appears|appeared|shows\s+up|showed\s+up|pops\s+up|popped\s+up|comes\s+back|came\s+back)|keeps\s+(?:happening|occurring|appearing|showing\s+up|coming\s+back|popping\s+up))\s+(?:again\s+)?(?:every|each|several|many|multiple|a\s+few|\d+\s+times|all\s+the\s+time|daily|nightly|hourly|constantly|repeatedly|since|again)\b`)

// messageSeenAfter is the kernel message a prose line t names and then says the author saw
// in the host's log, as the kernel prints it; ok is false otherwise.
func messageSeenAfter(t string) (msg string, ok bool) {
	m, i, j, found := kernel.FindMessage(t)
	if !found {
		return "", false
	}
	rest := t[j:]
	for k := 0; k < len(rest); k++ {
		// The sentence's end: a mark before a space or the line's end ("kern.log" is no end).
		if strings.IndexByte(".!?;", rest[k]) >= 0 && (k+1 == len(rest) || rest[k+1] == ' ') {
			rest = rest[:k]
			break
		}
	}
	loc := reSeenInLogAfter.FindStringIndex(rest)
	if loc == nil && !conditionLead(t[:i]) && !reHypothetical.MatchString(t[:i]) && !strings.ContainsAny(rest, "?？") {
		loc = reRecursAfter.FindStringIndex(rest)
	}
	if loc == nil || reHypothetical.MatchString(rest[:loc[0]]) {
		return "", false
	}
	return m, true
}

// A text's title states the problem it is about ("# nf_conntrack table full", an issue's
// title line): a kernel message it names, whole or in the words a title shortens it to, is
// the host's log (corpus 527). A title that asks ("How to fix nf_conntrack table full?",
// "为什么...") is a question about it.
var reTitleQuestion = lazyre.New(`(?i)\?|？|^\W*(?:how|why|what|when|where|is|are|can|could|should|does|do|any)\b|如何|怎么|为什么|为何|吗` +
	// A guide's title names the message it explains ("Linux Error Guide: 'TCP: out of
	// memory -- consider tuning tcp_mem'", "Troubleshooting ...", "... Explained"): its
	// subject for every reader, no host's log.
	`|\b(?:guides?|how\s+to|troubleshoot\w*|explained|tutorial|understanding|meaning\s+of)\b`)

// A title that says what a monitoring check reports ("check_conntrack reports that conntrack
// table is full without ...", "Zabbix alerts conntrack table full") is about the check's
// verdict, its threshold's, not a record of the kernel's log (corpus 969: the check's own
// output in the text reads 57%).
var reTitleCheckSays = lazyre.New(`(?i)\b(?:check_\w+|nagios|icinga|zabbix|munin|netdata|telegraf|prometheus|alertmanager|grafana|datadog|monitoring|monitor|plugin|probe|alert\s+rule)\b[^.;:]*?\b(?:reports?|reported|reporting|says?|said|claims?|claimed|shows?|showed|shown|complains?|alerts?|alerted|warns?|warned|thinks?|detects?|flags?)\b`)

// titleMessage is the record a title line t stands for, as the kernel prints the message.
func titleMessage(t string) (msg string, ok bool) {
	t = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(t), "#"))
	if t == "" || len(t) > 160 || reTitleQuestion.MatchString(t) || reHypothetical.MatchString(t) || reTitleCheckSays.MatchString(t) {
		return "", false
	}
	if m, _, _, found := kernel.FindMessage(t); found {
		return m, true
	}
	lt := strings.ToLower(t)
	for _, m := range kernel.MsgConntrackFullNamed {
		if strings.Contains(lt, m) {
			return "nf_conntrack: " + kernel.MsgConntrackFull[0], true
		}
	}
	return "", false
}

// messageHypothetical: a line that quotes a message the way the kernel prints it (a "TCP: "
// before it) in a clause that says it may come ("you may see TCP: too many orphaned sockets
// in dmesg") is no record of this host's log.
func messageHypothetical(t string) bool {
	_, i, _, found := kernel.FindMessage(t)
	return found && reHypothetical.MatchString(t[:i])
}

// A kernel message quoted in a sentence that asks whether the host prints it ("Does the
// kernel print \"TCP: out of memory -- consider tuning tcp_mem\"?") or tells the reader to
// look for it ("Check the kernel logs for ...", "grep dmesg for ...") records nothing: the
// question doubts it, the advice names what to search for. A question that takes the
// message as given ("Why does my server keep printing ...?") still states it, so only a
// yes/no question (led by an auxiliary verb) and a search imperative count (h31c left both
// raising tcp-memory-pressure at CRITICAL).
var (
	reYesNoLead  = lazyre.New(`(?i)^(?:does|do|did|is|are|was|were|has|have|had|can|could|should|would|will|shall|might)\s+(?:the|my|our|your|this|that|a|an|any|it|its|linux|kernel|dmesg|syslog|there|he|she|they|we|you|i|someone|anyone|anybody)\b`)
	reSearchLead = lazyre.New(`(?i)^(?:please\s+)?(?:check|look|grep|search|scan|watch|monitor|look\s+out)\b[^"'“「` + "`" + `]*\bfor\b`)
)

// messageDoubted reports whether the sentence of t that quotes a kernel message asks
// whether the host prints it or tells the reader to look for it (above).
func messageDoubted(t string) bool {
	_, i, j, found := kernel.FindMessage(t)
	if !found {
		return false
	}
	clause := t[:i]
	if k := strings.LastIndexAny(clause, ".!?;。！？；"); k >= 0 && !strings.HasSuffix(strings.TrimRight(clause, " \t\"'“「`"), ":") {
		clause = clause[k+1:]
	}
	clause = strings.TrimLeft(clause, " \t>*-#`\"'“")
	if reSearchLead.MatchString(clause) {
		return true
	}
	if !reYesNoLead.MatchString(clause) {
		return false
	}
	rest := t[j:]
	for k := 0; k < len(rest); k++ {
		if strings.IndexByte(".!;", rest[k]) >= 0 && (k+1 == len(rest) || rest[k+1] == ' ') {
			rest = rest[:k]
			break
		}
	}
	return strings.ContainsAny(rest, "?？")
}

// subjects answers whose a prose line's numbers are. It holds the prose by line and the
// section headings, and the host facts the sections are checked against.
type subjects struct {
	text    map[int]string
	quoted  map[int]bool // lines quoted from another message, when the author speaks mostly unquoted
	heads   []int        // line numbers of markdown headings, ascending
	lines   []proseLine
	memKB   int64
	bits    int
	section map[int]string // first line of a section → why it is another machine's ("" for the host's)
	opener  int            // a tracker excerpt's title line when the opener's post is not in it (trackeropener.go)
}

func (d *doc) newSubjects() *subjects {
	s := &subjects{text: make(map[int]string, len(d.proseLines)), lines: d.proseLines, section: map[int]string{}, memKB: d.tl.Host.MemTotalKB}
	if !d.anyKernelLine() {
		// Replies that paste the host's kernel log report the host the thread is about
		// ("we are seeing still OOM killed" over its dmesg, corpus 1642): the title names
		// what that log shows.
		s.opener = openerTitleLine(d.proseLines)
	}
	nq := 0
	base := baseQuote(d.proseLines) // fix56d_quote.go
	for _, p := range d.proseLines {
		if p.quote > base {
			nq++
		}
	}
	// A reply that quotes a little of someone else's message: the quoted lines are theirs.
	// A text that is mostly quoted (a maintainer replying under a reporter's whole report)
	// is the reporter's, and so is what it quotes.
	if nq > 0 && 2*nq < len(d.proseLines) {
		s.quoted = map[int]bool{}
	}
	for _, p := range d.proseLines {
		s.text[p.no] = p.text
		if s.quoted != nil && p.quote > base {
			s.quoted[p.no] = true
		}
		if strings.HasPrefix(strings.TrimSpace(p.text), "#") {
			s.heads = append(s.heads, p.no)
		}
	}
	h := &d.tl.Host
	switch {
	case h.Is32Bit() || (h.HighMem != nil && *h.HighMem):
		s.bits = 32
	case h.WordBits == 64 || kernel.ArchWordBits(h.Arch) == 64:
		s.bits = 64
	}
	return s
}

// sectionStart is the heading line at or before no (0: before the first heading).
func (s *subjects) sectionStart(no int) (start, end int) {
	end = int(^uint(0) >> 1)
	for _, h := range s.heads {
		if h <= no {
			start = h
		} else {
			end = h
			break
		}
	}
	return start, end
}

// foreignSection says why the section holding line no is about another machine, or "".
func (s *subjects) foreignSection(no int) string {
	start, end := s.sectionStart(no)
	if why, ok := s.section[start]; ok {
		return why
	}
	var b strings.Builder
	for _, p := range s.lines {
		if p.no >= start && p.no < end {
			b.WriteString(p.text)
			b.WriteByte('\n')
		}
	}
	why := s.contradicts(b.String())
	s.section[start] = why
	return why
}

// contradicts says which machine a text names that cannot be this host: one with a memory
// size off by more than half from the host's, or another word size.
func (s *subjects) contradicts(text string) string {
	if s.memKB > 0 {
		for _, m := range reMachineMem.FindAllStringSubmatch(text, -1) {
			kb, ok := statedKB(m[1], m[2])
			if !ok {
				continue
			}
			if r := kb / float64(s.memKB); r < 0.5 || r > 2 {
				return "the text describes a " + strings.TrimSpace(m[0]) + ", not this host"
			}
		}
	}
	if s.bits != 0 {
		for _, m := range reMachineBits.FindAllStringSubmatch(text, -1) {
			if b, _ := strconv.Atoi(m[1]); b != s.bits {
				return "the text describes " + strings.TrimSpace(m[0]) + ", not this " + strconv.Itoa(s.bits) + "-bit host"
			}
		}
	}
	return ""
}

// quotedWhy is subjectAt's reason for a quoted line.
const quotedWhy = "quoted from another message"

// subjectAt is whose the numbers of a sentence at line no are, and why when not the host's.
func (s *subjects) subjectAt(no int, sentence string) (subject, why string) {
	if s.quoted[no] || strings.HasPrefix(strings.TrimSpace(s.text[no]), ">") {
		return model.SubjectOther, quotedWhy
	}
	if s.opener > 0 && no == s.opener {
		return model.SubjectOther, "the thread's title, its opener's words; the opener's post is not in the text"
	}
	if m := reTestMachine.FindString(sentence); m != "" {
		return model.SubjectOther, "stated for a test machine (\"" + m + "\")"
	}
	if why := s.foreignSection(no); why != "" {
		return model.SubjectOther, why
	}
	if reStatedOutcome.MatchString(sentence) && reOutcomeGood.MatchString(sentence) {
		return model.SubjectOutcome, ""
	}
	if reAdvice.MatchString(sentence) {
		return model.SubjectAdvice, ""
	}
	return "", ""
}

// sentenceAt is the sentence of line no that holds needle (the whole line when absent).
func (s *subjects) sentenceAt(no int, needle string) string {
	t := s.text[no]
	if i := strings.Index(t, needle); needle != "" && i >= 0 {
		return sentenceAround(t, i, i+len(needle))
	}
	return t
}

// markSettings gives each setting a text names its subject; another machine's keeps its
// reason in its source, so whoever cites it says whose it is.
func (d *doc) markSettings(s *subjects) {
	for i := range d.tl.Settings {
		m := &d.tl.Settings[i]
		if m.Subject != "" || m.Line <= 0 || m.Form == "sysctl-a" {
			continue
		}
		block := m.Form == "sysctl.conf" || m.Form == "sysctl-w"
		if _, isProse := s.text[m.Line]; !isProse {
			if block && s.adviceBlock(m.Line) {
				m.Subject = model.SubjectAdvice
			}
			continue
		}
		subj, why := s.subjectAt(m.Line, s.sentenceAt(m.Line, m.Value))
		if subj == model.SubjectOutcome && m.Form != "prose" {
			subj = "" // a command on an outcome's line is what was run
		}
		if subj == "" && block && s.adviceBlock(m.Line) {
			subj = model.SubjectAdvice // a commented line of a recommended block
		}
		m.Subject = subj
		if subj == model.SubjectOther {
			m.Source = statedForeignSource(m.Source, why)
		}
	}
}

// statedForeignSource appends the foreign mark to a source.
func statedForeignSource(src, why string) string {
	if src == "" {
		src = "the text"
	}
	return src + " (" + model.ForeignMark + ": " + why + ")"
}

// segmentLineRE reads the first line number of a segment's name ("vmstat at lines 662-684").
var segmentLineRE = lazyre.New(`\blines? (\d+)`)

// markSegments marks the samples of a table that sits in a section about another machine,
// and those of a table a text shows as an example (exampleOutput).
func (d *doc) markSegments(s *subjects) {
	d.markExampleSamples(s)
	if len(s.heads) == 0 {
		return
	}
	for i := range d.tl.Segments {
		g := &d.tl.Segments[i]
		m := segmentLineRE.FindStringSubmatch(g.Name)
		if m == nil {
			continue
		}
		no, _ := strconv.Atoi(m[1])
		why := s.foreignSection(no)
		if why == "" {
			continue
		}
		for k := g.First; k <= g.Last && k < len(d.tl.Samples); k++ {
			src := d.tl.Samples[k].Source
			if src == "" {
				src = g.Name
			}
			d.tl.Samples[k].Source = statedForeignSource(src, why)
		}
		g.Name = statedForeignSource(g.Name, why)
	}
}

// statedOutcomes reads "after changing it to 20000 ..., the problem went away" as the value
// the author set (the key the paragraph named last, or the one the sentence names) with its
// result: a SubjectOutcome mention.
func (d *doc) statedOutcomes(s *subjects, para string, lineAt func(int) int, from int) {
	for _, m := range reStatedOutcome.FindAllStringSubmatchIndex(para, -1) {
		sentence := sentenceAround(para, m[0], m[1])
		// The result may be said in the next clause or sentence: "After changing it to
		// 20000 (~20MB), the problem went away".
		if !reOutcomeGood.MatchString(sentence) {
			continue
		}
		no := lineAt(m[0])
		if sub, _ := s.subjectAt(no, sentence); sub == model.SubjectOther {
			continue
		}
		key := ""
		if m[2] >= 0 {
			if k := kernel.NormaliseSysctlKey(para[m[2]:m[3]]); kernel.SysctlMeans(k) != "" {
				key = k
			}
		}
		if key == "" {
			k, ok := d.lastKeyBefore(no, from)
			if !ok {
				continue
			}
			key = k
		}
		mm := model.NewSettingMention(key, para[m[4]:m[5]], "prose", no,
			"line "+strconv.Itoa(no)+" (stated in the text: the value the author set, with its result: \""+strings.TrimSpace(clip(sentence, 90))+"\")")
		mm.Subject = model.SubjectOutcome
		d.tl.Settings = append(d.tl.Settings, mm)
	}
}

// clip shortens s to at most n bytes on a word boundary.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexByte(s[:n], ' '); i > 0 {
		return s[:i] + " …"
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n-- // text without blanks (Japanese, Chinese): cut between runes
	}
	return s[:n] + " …"
}

// messageAcrossWrap is messageLoggedNow or messageSeenAfter of line i joined with the line
// below when a mail client or a page wrapped the sentence between them ("'Out of" /
// "socket memory' is the possible issue here due I see that in dmesg", "the kernel keeps
// printing" / "TCP: too many orphaned sockets"). Only a line that ends in a word, a quote
// or a comma, followed by a line of the same quoting that starts with one, is joined: rows
// of a command's output end and start with numbers, and cost nothing more.
func (d *doc) messageAcrossWrap(i int) (string, bool) {
	if i+1 >= len(d.ls) || d.used[i+1] {
		return "", false
	}
	l, n := &d.ls[i], &d.ls[i+1]
	if n.Kernel || n.Syslog || n.Quote != l.Quote {
		return "", false
	}
	t := strings.TrimRight(l.Text, " \t")
	u := strings.TrimLeft(n.Text, " \t")
	if t == "" || u == "" || !wordEdge(t[len(t)-1]) || !wordEdge(u[0]) {
		return "", false
	}
	joined := t + " " + u
	if msg, ok := messageLoggedNow(joined); ok {
		return msg, true
	}
	return messageSeenAfter(joined)
}

// wordEdge: a byte a wrapped sentence ends or starts a line with (a letter, a quote, a
// comma, or the first byte of a character outside ASCII).
func wordEdge(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '\'' || c == '"' || c == '`' || c == ',' || c >= 0x80
}

// reExampleLeadIn: the sentence a guide puts before a message or output it shows as what a
// reader would see, not what a machine printed: in the second person or conditional ("You
// will typically see one or more of these lines via dmesg or journalctl -k:", "If you see
// something like the following in dmesg, ...:"), as what output would look like ("vmstat 1
// on a system that is swapping heavily will look like this:"), or on a machine named only
// by its kind ("Here is what /proc/buddyinfo looks like on a fragmented system:", "Example
// output of /proc/pressure/memory on a loaded system:", "A container that hit its limit
// shows:"). An author's own output comes after
// "I see", "dmesg shows", "as you can see below", "on my server": none of these. "Example
// output:" or "a typical ... message:" alone is not enough: blogs show their own machine's
// output so (corpus 644, 763, labelled as the host's).
var reExampleLeadIn = lazyre.New(`(?i)\byou(?:'ll|'d|\s+will|\s+would|\s+may|\s+might|\s+should|\s+could)\s+(?:\w+\s+)?(?:see|get|find|notice|observe)\b` +
	`|\b(?:if|when|whenever)\s+you\s+(?:\w+\s+)?(?:see|get|find|notice|observe)\b` +
	`|\b(?:will|would|might|may|should)\s+(?:\w+\s+)?(?:look|appear|read)\s+(?:something\s+)?like\b` +
	`|\b(?:looks?|appears?|example\s+output|sample\s+output)\b.*\bon\s+an?\s+(?:\w+\s+){0,2}(?:system|machine|host|server|box)\b` +
	// "A container that hit its limit shows:": a machine named by its kind is the subject.
	`|(?:^|[.!?]\s+)an?\s+(?:\w+\s+){0,2}(?:system|machine|host|server|box|node|container|pod|cgroup)\s+(?:that|which|with|under|where|in)\b.*\b(?:shows?|looks?\s+like|reports?|prints?)\b`)

// exampleLog reports whether the kernel line i is part of a guide's example of the message
// rather than this host's log: the block of log lines it belongs to comes right after a
// prose line that introduces an example (reExampleLeadIn), blank lines and code fences
// between. The lines of the block after the first are known by exampleNo.
func (d *doc) exampleLog(i int) bool {
	if i > 0 && d.exampleNo != 0 && d.ls[i-1].No == d.exampleNo {
		d.markExample(i)
		return true
	}
	for j := i - 1; j >= 0 && j >= i-4; j-- {
		t := strings.TrimSpace(d.ls[j].Text)
		if t == "" || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") || t == "::" {
			continue
		}
		if d.ls[j].Kernel || d.used[j] {
			return false
		}
		// The lead-in may be wrapped: its line and the one before it.
		lead := t
		if j > 0 && !isBlank(d.ls[j-1].Text) && !d.ls[j-1].Kernel && !d.used[j-1] {
			lead = strings.TrimSpace(d.ls[j-1].Text) + " " + t
		}
		if jaExampleLeadIn(t) && !stampedLine(&d.ls[i]) {
			d.markExample(i)
			return true
		}
		if !strings.HasSuffix(t, ":") && !strings.HasSuffix(t, "::") {
			return false // an example is introduced, the sentence ends in a colon
		}
		if reExampleLeadIn.MatchString(lead) {
			d.markExample(i)
			return true
		}
		return false
	}
	return false
}

// Japanese guides introduce a message without a colon, in the potential or as what may
// happen: "dmesg で以下のようなメッセージを確認できる" (one can see messages like the
// following), "次のようなログが出力されることがあります" (a log like the following may be
// written). An author's own log is introduced in the past or the progressive
// ("確認したところ、以下のようなエラーが出ていました", "以下のようなエラーが出ます" in a
// question is the asker's machine: no modal), or as theirs ("私の", "うちの"). Only a bare
// message is taken for an example so (stampedLine).
var (
	jaLikeCues  = []string{"以下のような", "次のような", "下記のような", "以下の様な", "次の様な", "のようなメッセージ", "のようなログ", "のようなエラー"}
	jaModalCues = []string{"確認できる", "確認できます", "確認することができ", "見ることができ", "見られる", "見られます", "ことがある", "ことがあります", "はずです", "はずだ", "でしょう"}
	jaOwnCues   = []string{"ました", "ていた", "ている", "ています", "でした", "たところ", "私の", "自分の", "うちの", "当方", "弊社"}
)

// stampedLine: line l kept a log's own stamp (a syslog prefix, a dmesg time): a record a
// machine wrote, which a guide pasted (corpus 650: "次のような警告メッセージをログに記録する
// ことがあります:" over "Mar 7 09:17:14 hostname kernel: ..." is labelled the host's), not
// the message's bare form.
func stampedLine(l *Line) bool {
	return l.Syslog || l.Stamp != "" || l.UptimeUsec >= 0
}

// jaExampleLeadIn reports whether the prose line t introduces what follows as a Japanese
// guide's example (jaLikeCues with jaModalCues, none of jaOwnCues). Gate: a byte outside
// ASCII, then substring searches.
func jaExampleLeadIn(t string) bool {
	if len(t) > 600 || !cjkNonASCII(t) {
		return false
	}
	return cjkContainsAny(t, jaLikeCues) && cjkContainsAny(t, jaModalCues) && !cjkContainsAny(t, jaOwnCues)
}

// reLogsVerbEnd: a line that ends in a verb of logging, in the present of what the kernel
// does in general ("When total TCP memory crosses this, the kernel refuses to allocate more
// buffer space, drops queued data, and logs"), whose object is the next line.
var reLogsVerbEnd = lazyre.New(`(?i)\b(?:logs|prints|emits|writes|outputs|throws|raises|produces|generates|issues|complains)(?:\s+(?:out|the\s+message|the\s+error|the\s+warning))?\s*$`)

// messageEndsSentence reports whether the quoted message on line i is the end of the
// sentence on the line above, which a page wrapped before it (reLogsVerbEnd), and that
// sentence does not say the host logs it now (messageLoggedNow): a guide saying what the
// kernel logs, not a line of this host's log.
func (d *doc) messageEndsSentence(i int) bool {
	if i == 0 {
		return false
	}
	p, l := &d.ls[i-1], &d.ls[i]
	if p.Kernel || p.Syslog || p.Quote != l.Quote || isBlank(p.Text) {
		return false
	}
	t := strings.TrimRight(p.Text, " \t")
	if !reLogsVerbEnd.MatchString(t) {
		return false
	}
	_, ok := messageLoggedNow(t + " " + strings.TrimLeft(l.Text, " \t"))
	return !ok
}

// markExample notes line i as part of a guide's example (exampleLog).
func (d *doc) markExample(i int) {
	d.exampleNo = d.ls[i].No
	if d.exampleLines == nil {
		d.exampleLines = map[int]bool{}
	}
	d.exampleLines[d.exampleNo] = true
}

// reSampleFirstLine reads the first line of a sample's or segment's source ("lines 3-4",
// "vmstat at lines 3-6", "line 6").
var reSampleFirstLine = lazyre.New(`\blines? (\d+)`)

// exampleOutput is why the output starting at line no is a text's example rather than the
// host's: the prose line right above it (blank lines between) introduces an example, ending
// in a colon ("Example output of /proc/pressure/memory on a loaded system:", "vmstat 1 on a
// system that is swapping heavily will look like this:", "Here is what /proc/buddyinfo looks
// like on a fragmented system:"); "" when it does not.
func (s *subjects) exampleOutput(no int) string {
	for j := no - 1; j >= no-3 && j > 0; j-- {
		t, ok := s.text[j]
		if !ok {
			continue
		}
		t = strings.TrimSpace(t)
		if atShellPrompt(t) {
			continue // the command whose output follows ("$ cat /sys/fs/cgroup/memory.events")
		}
		if !strings.HasSuffix(t, ":") {
			return ""
		}
		lead := t
		if p, ok := s.text[j-1]; ok {
			lead = strings.TrimSpace(p) + " " + t
		}
		if m := reExampleLeadIn.FindString(lead); m != "" {
			return "an example the text shows (\"" + clip(t, 70) + "\")"
		}
		return ""
	}
	return ""
}

// A block of settings a guide recommends is introduced by a line that ends in a colon and
// gives advice: "建议修改值:" (suggested values), "Add the following to /etc/sysctl.conf:",
// "the recommended settings are:". One that says what the author ran or has is the host's:
// "Here are my current settings:", "I applied the recommended values:".
var (
	reAdviceLeadIn = lazyre.New(`(?i)\b(?:add|append|put|apply|use)\s+(?:the\s+following|these|this|below)\b|\b(?:recommended|suggested|optimal)\b|建议|推荐|需要.{0,40}(?:配置|设置|修改|调整)`)
	reOwnLeadIn    = lazyre.New(`(?i)\b(?:i|we)\s+(?:have\s+|had\s+|already\s+)?(?:applied|set|added|changed|used|tried|put|configured|have|had|run|ran)\b|\b(?:my|our|current|currently)\b|当前|目前|我的|我们的|我已|我们已`)
)

// adviceBlock reports whether the setting at line no, which is not prose, sits in a block the
// nearest prose line above introduces as advice (comment lines, fences and shell prompts
// inside the block are skipped; at most 60 lines are walked).
func (s *subjects) adviceBlock(no int) bool {
	for j := no - 1; j > 0 && j >= no-60; j-- {
		t, ok := s.text[j]
		if !ok {
			continue
		}
		t = strings.TrimSpace(t)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "```") || atShellPrompt(t) {
			continue
		}
		if !strings.HasSuffix(t, ":") && !strings.HasSuffix(t, "：") {
			return false
		}
		return reAdviceLeadIn.MatchString(t) && !reOwnLeadIn.MatchString(t) && !s.quoted[j]
	}
	return false
}

// markExampleSamples marks the samples of output a text shows as an example (exampleOutput)
// as another machine's: a guide's numbers are no host's state.
func (d *doc) markExampleSamples(s *subjects) {
	whyAt := map[int]string{}
	// example is why the output a source names ("lines 3-4", "vmstat at lines 3-6") is an
	// example, "" when it is not or the source is already another machine's.
	example := func(src string) string {
		m := reSampleFirstLine.FindStringSubmatch(src)
		if m == nil || strings.Contains(src, model.ForeignMark) {
			return ""
		}
		no, _ := strconv.Atoi(m[1])
		why, seen := whyAt[no]
		if !seen {
			why = s.exampleOutput(no)
			whyAt[no] = why
		}
		return why
	}
	mark := func(src *string) {
		if why := example(*src); why != "" {
			*src = statedForeignSource(*src, why)
		}
	}
	for k := range d.tl.Samples {
		mark(&d.tl.Samples[k].Source)
	}
	// A cgroup's own files shown as an example ("A container that hit its limit shows:"),
	// and a kernel report ("If you see something like the following in dmesg, ...:" over a
	// page allocation failure).
	for k := range d.tl.CgroupMemory {
		mark(&d.tl.CgroupMemory[k].Source)
	}
	for k := range d.tl.Events {
		mark(&d.tl.Events[k].Source)
	}
	for i := range d.tl.Segments {
		g := &d.tl.Segments[i]
		why := example(g.Name)
		if why == "" {
			continue
		}
		for k := g.First; k <= g.Last && k < len(d.tl.Samples); k++ {
			if src := d.tl.Samples[k].Source; !strings.Contains(src, model.ForeignMark) {
				if src == "" {
					src = g.Name
				}
				d.tl.Samples[k].Source = statedForeignSource(src, why)
			}
		}
		g.Name = statedForeignSource(g.Name, why)
	}
}

// atShellPrompt reports whether t is a command at a shell prompt ("$ cat
// /proc/meminfo", "# sysctl -a"): what prints the output below it, not a sentence.
func atShellPrompt(t string) bool {
	return len(t) > 2 && (t[0] == '$' || t[0] == '#' || t[0] == '%') && t[1] == ' ' && t[2] != ' ' && !strings.HasSuffix(t, ":")
}
