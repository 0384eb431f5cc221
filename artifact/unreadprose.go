package artifact

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"headroom/internal/lazyre"
	"headroom/model"
)

// Prose that states a figure of headroom's domain, in a text where nothing else was read
// (issue 29 item 4). "Memory total/free/available: 2036172/73636/41152" logged by a
// program under its own tag, "700 Mbps is a limit of RPi4", "76650 msgs by minute ... falling
// down to 366", "fs-filemax already increased to 65543": a reporter's or a program's numbers
// about memory or the network, in no form a reader takes. Such a text exited 3 ("nothing
// ... is evidence"), as if it held no number at all. It is evidence headroom cannot read:
// the lines are listed as unread, with what they hold, so the verdict says "nothing could be
// checked" and names the lines; every rule stays "not checked". Exit 3 stays for empty,
// binary and evidence-free text: prose without a figure ("my server is slow"), or whose
// numbers are not of the domain ("a team of 12 on 4 floors", a df row, a version string).
//
// Only when nothing else was read: in a text with evidence, prose figures are the story
// around it (stated.go reads those whose subject is this host), and listing every sentence
// with a number as unread would bury the lines that matter.

const whyStatedFigure = "a sentence states a memory or network figure in words; no counter, log line or setting headroom reads holds it"

// statedFiguresUnread lists the kept prose lines, and other programs' log lines ("valheim_1
// | ... Memory total/free/available: 2036172/73636/41152"), that state a domain figure as
// unparsed when the text gave headroom nothing else: no sample, log, event, setting or
// artifact, no unread output, and no other system's evidence.
func (d *doc) statedFiguresUnread() {
	if !NothingRead(d.tl) || len(d.tl.Unparsed) > 0 || d.tl.Host.OtherOS != "" {
		return
	}
	var hits []unreadHit
	for _, p := range d.otherLines {
		if why, ok := unreadFigureWhy(p.text, otherLineForms); ok {
			hits = append(hits, unreadHit{p.no, true, why})
		}
	}
	for _, p := range d.proseLines {
		why, ok := unreadFigureWhy(p.text, proseLineForms)
		if !ok {
			why, ok = quotedErrnoWhy(p.text) // fix41b (unreadquotederrno.go)
		}
		if ok {
			hits = append(hits, unreadHit{p.no, false, why})
		}
	}
	hits = append(hits, wrappedCPUShares(d.proseLines, hits)...)
	hits = append(hits, measuredSizeLists(d.proseLines, hits)...) // fix42c (unreadappmem.go)
	d.markUnread(hits)
}

// wrappedCPUShares: statedCPUShare over two consecutive prose lines that no other form
// named, a sentence a mail wrapped ("bird load cpu about" / "> >30-89%)."): both lines.
func wrappedCPUShares(ps []proseLine, hits []unreadHit) []unreadHit {
	named := make(map[int]bool, len(hits))
	for _, h := range hits {
		named[h.no] = true
	}
	var out []unreadHit
	for i := 0; i+1 < len(ps); i++ {
		a, b := ps[i], ps[i+1]
		if b.no != a.no+1 || named[a.no] || named[b.no] {
			continue
		}
		if statedCPUShare(mailQuoteStripped(a.text) + " " + mailQuoteStripped(b.text)) {
			out = append(out, unreadHit{a.no, false, whyStatedCPUShare}, unreadHit{b.no, false, whyStatedCPUShare})
			named[a.no], named[b.no] = true, true
		}
	}
	return out
}

// figureForm: a form of a line statedFiguresUnread lists, and what it holds.
type figureForm struct {
	is  func(string) bool
	why string
}

// otherLineForms and proseLineForms: the forms statedFiguresUnread tries, in order, on other
// programs' log lines and on prose lines; the first that matches names the line.
// programCountsUnread (unreadulimitpool.go), whose reason depends on the line, comes last.
var (
	otherLineForms = []figureForm{
		{statesDomainFigure, whyStatedFigure},
		{ownAllocatorOut, whyOwnAllocatorOut},
		{erlangAllocOut, whyErlangAllocOut},
		{fdLimitTooLow, whyFDLimitTooLow},           // fix35c (statedlimits.go)
		{watchfrrRestartLine, whyWatchfrrRestart},   // fix41b (unreadroutingd.go)
		{bgpHoldTimerLine, whyBGPHoldTimer},         // fix41b
		{ideMemoryEvent, whyIDEMemoryEvent},         // fix42c (unreadappmem.go)
		{appMinFreeMemory, whyAppMinFreeMemory},     // fix46a (unreadappmemcheck.go)
		{installerMemNeeded, whyInstallerMemNeeded}, // fix46a
		{pbsLogRecord, pbsLogRecordWhy},             // fix50d (unreadhpc.go)
		{ejabberdOverloadKill, ejabberdOverloadWhy}, // fix50d
	}
	proseLineForms = []figureForm{
		{statesDomainFigure, whyStatedFigure},
		{allocFailuresLoggedInWords, whyAllocFailuresInWords},
		{libvirtMemoryLine, whyLibvirtMemory},
		{ownAllocatorOut, whyOwnAllocatorOut},
		{erlangAllocOut, whyErlangAllocOut},
		{statedFDExhausted, whyStatedFDExhausted},
		{statedOOMCause, whyStatedOOMCause},
		{statedUsedUpCrash, whyStatedUsedUpCrash}, // fix41a
		{psutilMemOut, whyPsutilMemory},
		{statedOOMScore, whyStatedOOMScore},               // fix29a
		{bufferSizeSetting, whyBufferSizeSetting},         // fix29a
		{unboundConfSize, whyUnboundConfSize},             // fix32a (dnsownfigures.go)
		{tcQdiscLimitSet, whyTCQdiscLimitSet},             // fix35c (statedlimits.go)
		{fdLimitTooLow, whyFDLimitTooLow},                 // fix35c
		{quotedKernelBug, whyQuotedKernelBug},             // fix37b (unreadkernelbug.go)
		{radiusSockBufFailed, whyRadiusSockBufFailed},     // fix38b (unreadidentity.go)
		{dirsrvCgroupMemFile, whyDirsrvCgroupMemFile},     // fix38b
		{panelMemLine, whyPanelMemLine},                   // fix40b (unreadpanelmem.go)
		{dumpStringCount, whyDumpStringCount},             // fix40b
		{reportSwapfileRow, whyReportSwapfile},            // fix40b
		{reportServiceRow, whyReportService},              // fix40b
		{watchfrrRestartLine, whyWatchfrrRestart},         // fix41b (unreadroutingd.go)
		{bgpHoldTimerLine, whyBGPHoldTimer},               // fix41b
		{statedCPUShare, whyStatedCPUShare},               // fix41b
		{ideMemoryEvent, whyIDEMemoryEvent},               // fix42c (unreadappmem.go)
		{statedShortageCrash, whyStatedShortageCrash},     // fix45b (statedhostcrash.go)
		{statedShortageReboot, whyStatedShortageReboot},   // fix49c (statedshortagecjk.go)
		{statedMemoryLimit, whyStatedMemoryLimit},         // fix45c (unreadphplimit.go)
		{appMinFreeMemory, whyAppMinFreeMemory},           // fix46a (unreadappmemcheck.go)
		{installerMemNeeded, whyInstallerMemNeeded},       // fix46a
		{viewerMemoryExhausted, whyViewerMemoryExhausted}, // fix46a
		{pbsLogRecord, pbsLogRecordWhy},                   // fix50d (unreadhpc.go)
		{ejabberdOverloadKill, ejabberdOverloadWhy},       // fix50d
	}
)

// unreadFigureWhy returns the reason of the first of forms that line t matches, else
// programCountsUnread's.
func unreadFigureWhy(t string, forms []figureForm) (string, bool) {
	for _, f := range forms {
		if f.is(t) {
			return f.why, true
		}
	}
	return programCountsUnread(t)
}

// maxOtherLinesKept bounds the other programs' log lines kept for statedFiguresUnread; past
// it a text has long stopped being "nothing but figures in words".
const maxOtherLinesKept = 4096

// keepOther remembers another program's log line that holds a digit, for
// statedFiguresUnread: the first maxOtherLinesKept of them, each at most 1 KiB.
func (d *doc) keepOther(no int, t string) {
	if len(d.platformLines) < 256 && len(t) <= 1<<10 && (platformNeedle(t) || strings.Contains(t, "Process running mem=") || strings.Contains(t, "sample#memory_")) {
		d.platformLines = append(d.platformLines, proseLine{no: no, text: t})
	}
	if len(d.otherLines) < maxOtherLinesKept && len(t) <= 1<<10 && hasDigit(t) {
		d.otherLines = append(d.otherLines, proseLine{no: no, text: t})
	}
}

// statesDomainFigure: line t, not a command, holds a figure (a number that is not a date, a
// time, a version, a year, an issue number or part of an address) and a word of memory or
// the network ("memory", "swap", "buffer", "socket", "packets", "dropped", "file-max", ...)
// or a network rate unit ("700 Mbps", "30 kpps"): anywhere in the line for a number with a
// unit ("4gb", "95%"), within figureReach words for a bare one that counts no other thing.
func statesDomainFigure(t string) bool {
	if !hasDigit(t) || commandLine(t) {
		return false
	}
	domain := false // a CJK domain word anywhere in the line
	for _, w := range domainWordsUnspaced {
		if strings.Contains(t, w) {
			domain = true // a script that writes no spaces between words
			break
		}
	}
	if domain || hasWideRune(t) {
		// Words of an unspaced script glued to a figure or a field name
		// ("即使\"MemFree\"在600MB 左右"): each such rune parts the words around it.
		t = spaceWideRunes(t)
	}
	t = spaceGluedPercent(t) // fix42c: a progress bar's "0%Memory usage: 68263936"
	prev, n := "", 0
	var figures []figureAt
	var domains []int
	for rest := t; ; {
		f, r, ok := nextField(rest)
		if !ok {
			break
		}
		rest = r
		w := strings.ToLower(strings.Trim(f, "*_`'\"()[]{},.;:!?<>~")) // fix38b: "~23.8 GiB", about
		k := figureKind(w)
		if k == noFigure && bareRange(w) {
			// fix47c (corpus 3986): a range whose unit is the next word, "increases for
			// 40-100 Mb", is a size; a bare range ("ports 20000-50000") stays none.
			if next, _, _ := nextField(rest); sizeUnitWord(strings.ToLower(strings.Trim(next, "*_`'\"()[]{},.;:!?<>"))) {
				k = unitFigure
			}
		}
		if k != noFigure && !versionContext(prev) {
			// A number with a unit is a figure wherever the line names the domain; a bare
			// one only near a domain word and not counting things ("3 hosts", "2021").
			next, _, _ := nextField(rest)
			next = strings.ToLower(strings.Trim(next, "*_`'\"()[]{},.;:!?<>"))
			if k == bareFigure && (sizeUnitWord(next) || percentWord(next)) { // fix50c: "83 percent"
				k = unitFigure // fix37b: "660.3 MiB Free / 3.8 GiB Total", the unit its own word
			}
			if k == unitFigure || !countNoun(next) {
				figures = append(figures, figureAt{n, k})
			}
		}
		if domainWord(w) || rateUnitWord(w) || usageVerb(prev) && sizeFigure(w) {
			domains = append(domains, n) // fix38c: "it uses 10MB+", a program's size
		}
		prev = w
		n++
	}
	for _, f := range figures {
		if f.kind == unitFigure && (domain || len(domains) > 0) {
			return true
		}
		if domain {
			continue // CJK text: no word distance to measure
		}
		for _, at := range domains {
			if at-f.at <= figureReach && f.at-at <= figureReach {
				return true
			}
		}
	}
	return false
}

// usageVerb: a verb whose object is what a program holds ("it uses 10MB+", "consuming
// 2GB"): a size figure after it is memory's (fix38c).
func usageVerb(w string) bool {
	switch w {
	case "uses", "using", "consumes", "consuming", "occupies", "occupying":
		return true
	}
	return false
}

// sizeFigure: a number glued to a size unit, a lower bound's "+" allowed ("10mb+").
func sizeFigure(w string) bool {
	w = strings.TrimSuffix(w, "+")
	i := 0
	for i < len(w) && (w[i] >= '0' && w[i] <= '9' || w[i] == '.') {
		i++
	}
	return i > 0 && sizeUnitWord(w[i:])
}

// figureReach is how many words apart a bare number and a domain word may stand and still
// be one statement ("fs-filemax already increased to 65543").
const figureReach = 4

type figureAt struct {
	at   int
	kind figureKindT
}

// countNoun: a word after a bare number that says it counts things, not memory or packets.
func countNoun(w string) bool {
	switch w {
	case "hosts", "host", "servers", "server", "nodes", "node", "machines", "boxes", "vms", "times", "days", "day",
		"hours", "weeks", "months", "years", "people", "users", "cores", "cpus", "threads", "seconds", "minutes",
		"s", "sec", "min", "h", "ms", "of":
		return true
	}
	return false
}

// commandLine: a command the reporter ran or advises ("# ethtool -G eth0 rx 4096", "$ sysctl
// -w ..."), whose numbers are what it sets, not what the host had.
func commandLine(t string) bool {
	f, _, ok := nextField(t)
	if !ok {
		return false
	}
	switch f {
	case "#", "$", "sudo", "echo", "ethtool", "sysctl", "ip", "tc", "ifconfig", "ulimit", "docker", "kubectl":
		return true
	}
	return strings.HasSuffix(f, "$") || strings.HasSuffix(f, "#") && len(f) > 1
}

// figureKind: whether w is a number, possibly with a unit glued on ("41152kb", "4gb", "14g",
// "95%", "10mb") or several joined by '/' ("2036172/73636/41152"); not a date
// ("2021-03-26"), a time ("15:45:02"), a version ("1.6.1", "v0.31.1"), a year ("2021"), an
// issue number ("#272") or a path.
func figureKind(w string) figureKindT {
	if w == "" || w[0] < '0' || w[0] > '9' {
		return noFigure
	}
	kind := bareFigure
	for _, part := range strings.Split(w, "/") {
		switch k := numberWithUnit(part); k {
		case noFigure:
			return noFigure
		case unitFigure:
			kind = unitFigure
		}
	}
	if kind == bareFigure && len(w) == 4 && w >= "1970" && w <= "2039" {
		return noFigure // a year
	}
	return kind
}

type figureKindT int

const (
	noFigure figureKindT = iota
	bareFigure
	unitFigure
)

// bareRange: two plain numbers joined by a hyphen ("40-100", "1.5-2"), a range whose unit,
// when it has one, is the next word ("daily increases for 40-100 Mb", corpus 3986, fix47c).
// A date's "2021-03" is one too, but no size unit follows a date.
func bareRange(w string) bool {
	a, b, ok := strings.Cut(w, "-")
	return ok && numberWithUnit(a) == bareFigure && numberWithUnit(b) == bareFigure
}

func numberWithUnit(p string) figureKindT {
	i, dots := 0, 0
	for i < len(p) && (p[i] >= '0' && p[i] <= '9' || p[i] == '.' || p[i] == ',') {
		if p[i] == '.' {
			dots++
		}
		i++
	}
	if i == 0 || dots > 1 || p[i-1] == '.' {
		return noFigure
	}
	if i < len(p) && p[i] == '-' {
		// fix41b (corpus 3500): a range whose upper end carries the unit, "1-3G RAM",
		// "30-89%"; a bare one ("5-10", a date's "2021-03") stays no figure.
		if numberWithUnit(p[i+1:]) == unitFigure {
			return unitFigure
		}
		return noFigure
	}
	switch p[i:] {
	case "":
		return bareFigure
	case "%", "k", "kb", "kib", "m", "mb", "mib", "g", "gb", "gib", "t", "tb", "b",
		"ki", "mi", "gi", "ti", // Kubernetes' binary quantity suffixes ("256Mi", "2Gi"), lower-cased
		"bytes",             // "1500bytes", glued (fix35c): "1500 bytes" is a bare figure beside its noun
		"gbs", "mbs", "tbs", // fix46b (corpus 3896): a plural unit, "the RAM maxed out on the box (16GBs)"
		"mbps", "gbps", "kbps", "pps", "kpps", "mpps", "mbit", "gbit", "mbit/s", "gbit/s", "mb/s", "gb/s":
		return unitFigure
	}
	return noFigure
}

// versionContext: the word before a number that makes it a version or a name, not a
// figure ("kernel 5.13", "Linux 6.1", "version 2", "v", "issue", "#").
func versionContext(prev string) bool {
	switch prev {
	case "kernel", "linux", "version", "v", "release", "issue", "pr", "ubuntu", "debian", "centos", "rhel", "fedora", "python", "java", "jdk", "go", "node", "php", "rocky", "alma", "alpine":
		return true
	}
	return false
}

// sizeUnitWord: a size unit with its prefix standing as its own word after a number ("660.3
// MiB", "3.8 GiB", "512 MB"); "bytes" alone stays a noun beside a bare figure (fix37b).
func sizeUnitWord(w string) bool {
	switch w {
	case "kb", "kib", "mb", "mib", "gb", "gib", "tb", "tib",
		"mbs", "gbs", "tbs", // fix46b: plural, "16 GBs"
		"کیلوبایت", "مگابایت", "گیگابایت", "ترابایت", "كيلوبايت", "ميغابايت", "ميجابايت", "جيجابايت", "غيغابايت": // fix39c: Persian, Arabic
		return true
	}
	return false
}

// rateUnitWord: a network rate unit standing as its own word ("700 Mbps", "30 kpps").
func rateUnitWord(w string) bool {
	switch w {
	case "mbps", "gbps", "kbps", "mbit/s", "gbit/s", "kbit/s", "mb/s", "gb/s", "pps", "kpps", "mpps", "mbit", "gbit", "msgs/s", "packets/s":
		return true
	}
	return false
}

// domainWord: a word of memory or the network that makes a number beside it one of
// headroom's figures. Plain words of quantity ("free", "used") are not enough alone: a
// product is "available in 3 sizes".
func domainWord(w string) bool {
	switch w {
	case "memory", "mem", "ram", "swap", "swapping", "swapped", "buffer", "buffers", "heap", "rss", "oom", "oom-killer",
		"socket", "sockets", "tcp", "udp", "packet", "packets", "pkts", "msgs", "datagrams", "dropped", "drops", "drop",
		"overruns", "overrun", "backlog", "connections", "bandwidth", "throughput", "nic", "ethernet", "lowmem", "highmem",
		"memfree", "memavailable", "memtotal", "cmafree", "cmatotal", "dram", "sdram", "ddr",
		"file-max", "filemax", "fs-filemax", "fs.file-max", "descriptors", "fds", "ulimit", "nofile", "sysctl", "slab",
		"rmem_max", "wmem_max", "somaxconn", "conntrack", "min_free_kbytes", "hugepages", "thp", "page-cache", "cache",
		"retransmits", "retransmissions", "mtu", "rx", "tx",
		// Other languages' words for memory, packets and buffers (issue 29: non-English posts).
		"speicher", "arbeitsspeicher", "mémoire", "memoire", "memoria", "memória", "pamięć", "pamięci",
		"память", "памяти", "оперативной", "paquets", "pakete", "paquetes", "pacotes", "pakiety", "pakietów",
		"пакеты", "пакетов", "puffer", "tampon", "búfer",
		// fix39c (corpus 3329): Persian and Arabic memory ("حافضه" is a common misspelling
		// of "حافظه"), RAM, and the Persian and Arabic names of the size units standing
		// after a number ("511 مگابایت", "437204 کیلو بایت").
		"حافظه", "حافضه", "رم", "ذاكرة", "الذاكرة", "الذاکره":
		return true
	}
	return strings.HasPrefix(w, "net.") || strings.HasPrefix(w, "vm.") || strings.HasPrefix(w, "rx_") || strings.HasPrefix(w, "tx_")
}

// hasWideRune: t holds a rune of a script written without spaces between words (CJK
// ideographs, kana, hangul, and their full-width punctuation), checked by its lead byte
// first so that ASCII text costs one scan.
func hasWideRune(t string) bool {
	for i := 0; i < len(t); i++ {
		if t[i] >= 0xe1 {
			r, _ := utf8.DecodeRuneInString(t[i:])
			if wideRune(r) {
				return true
			}
		}
	}
	return false
}

func wideRune(r rune) bool {
	return r >= 0x1100 && r <= 0x11ff || r >= 0x2e80 && r <= 0x9fff || r >= 0xac00 && r <= 0xd7af || r >= 0xf900 && r <= 0xfaff || r >= 0xff00 && r <= 0xffef
}

// spaceWideRunes replaces each wide rune (wideRune) with a space, so the ASCII words and
// figures between them are fields of their own.
func spaceWideRunes(t string) string {
	var b strings.Builder
	b.Grow(len(t))
	for _, r := range t {
		if wideRune(r) {
			b.WriteByte(' ')
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// spaceGluedPercent parts a percentage from a word glued to it: a console progress bar
// whose message follows its percent column with no blank (Symfony Console's ProgressBar
// format "%percent:3s%%" then "%message%" or the application's own "Memory usage: %s":
// "0%Memory usage: 68263936"), so that the word is seen as a word (fix42c, corpus 3539).
// Only a '%' after a digit and before an ASCII letter; t is returned as is when none is.
func spaceGluedPercent(t string) string {
	var b strings.Builder
	from := 0
	for i := 1; i+1 < len(t); i++ {
		if t[i] == '%' && t[i-1] >= '0' && t[i-1] <= '9' && isASCIILetter(t[i+1]) {
			if from == 0 {
				b.Grow(len(t) + 4)
			}
			b.WriteString(t[from : i+1])
			b.WriteByte(' ')
			from = i + 1
		}
	}
	if from == 0 {
		return t
	}
	b.WriteString(t[from:])
	return b.String()
}

// domainWordsUnspaced: memory, packet and buffer in Chinese, Japanese and Korean, matched
// inside a line (these scripts do not put spaces around words, or not always).
var domainWordsUnspaced = [...]string{"内存", "記憶體", "メモリ", "메모리", "丢包", "数据包", "封包", "パケット", "패킷", "缓冲", "緩衝", "バッファ", "버퍼", "带宽", "帯域"}

const whyAllocFailuresInWords = "a sentence says this host logged page allocation failures, in words: no order, mode or zone is given, so the failure cannot be classed; the log lines themselves (dmesg) are what headroom reads"

// reAllocFailuresLogged: a verb of the log printing, or of the author seeing, what it names
// ("started emitting \"page allocation errors\" in the system log", "dmesg shows page
// allocation failures", "we got page allocation failures").
var reAllocFailuresLogged = lazyre.New(`(?i)\b(?:emit(?:s|ted|ting)?|log(?:s|ged|ging)|print(?:s|ed|ing)|show(?:s|ed|ing)|spew(?:s|ed|ing)?|throw(?:s|ing)|threw|report(?:s|ed|ing)|got|gets?|getting|see(?:ing)?|saw|seen|full\s+of)\b`)

// allocFailuresLoggedInWords: a prose sentence that says page allocation failures ("page
// allocation errors", "page allocation failures") were logged on this host, by a verb of
// logging or seeing before the phrase in its sentence and nothing hypothetical there ("you
// may see page allocation failures", "if the kernel logs ..." state nothing). The kernel's
// own line is read as a log line elsewhere; this is its paraphrase, with no figure.
func allocFailuresLoggedInWords(t string) bool {
	lt := strings.ToLower(t)
	k := strings.Index(lt, "page allocation ")
	if k < 0 {
		return false
	}
	rest := lt[k+len("page allocation "):]
	if !strings.HasPrefix(rest, "error") && !strings.HasPrefix(rest, "failure") {
		return false
	}
	before := t[:k]
	if j := strings.LastIndexAny(before, ".!?;"); j >= 0 {
		before = before[j+1:] // the sentence that holds the phrase
	}
	return reAllocFailuresLogged.MatchString(before) && !reHypothetical.MatchString(before)
}

const whyOwnAllocatorOut = "a program's or a device firmware's own allocator says it ran out, in its own log line (\"mem_alloc: no free chunks\"): that program's or chip's memory pool, not a kernel report of this host's memory; headroom has no reader for it"

// ownAllocatorOut: a log line whose message is an allocator function's name and its own
// words for running out, "(5822)mem_alloc: no free chunks in the found pool" (a Wi-Fi
// chip's firmware UART log), "pool_alloc: no free blocks": "<name>: no free chunk(s)/
// block(s)/buffer(s)" after at most a bracketed or parenthesised stamp. A sentence that
// names the words ("it fails with no free chunks") has no "name:" before them.
func ownAllocatorOut(t string) bool {
	k := strings.Index(t, ": no free ")
	if k <= 0 {
		return false
	}
	switch w, _, _ := nextField(t[k+len(": no free "):]); strings.TrimRight(w, ".,;!") {
	case "chunk", "chunks", "block", "blocks", "buffer", "buffers", "slot", "slots", "entries", "memory":
	default:
		return false
	}
	name := strings.TrimSpace(t[:k])
	if j := strings.LastIndexAny(name, ")]"); j >= 0 {
		name = name[j+1:] // the firmware's "(5822)" tick or a "[tag]"
	}
	if name == "" || strings.ContainsAny(name, " \t") {
		return false
	}
	for _, c := range name {
		if !(c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return strings.ContainsAny(name, "_") || strings.Contains(strings.ToLower(name), "alloc")
}

const whyLibvirtMemory = "a libvirt domain XML's memory element (<memory>, <currentMemory>, <maxMemory>; KiB unless its unit says otherwise): the memory a guest is configured with, a setting of the VM, not a reading of the host's memory; headroom has no reader for it"

// libvirtMemoryLine: one of a libvirt domain definition's memory elements on a line of its
// own, "<memory unit='KiB'>8388608</memory>" (virsh dumpxml; docs/formatdomain: memory,
// currentMemory, maxMemory), its quotes possibly mail-encoded ("unit=3D'KiB'"). Prose that
// names the element ("set <memory> to 8 GiB") is not the element.
func libvirtMemoryLine(t string) bool {
	t = strings.TrimSpace(t)
	if len(t) < 10 || t[0] != '<' {
		return false
	}
	for _, e := range []string{"memory", "currentMemory", "maxMemory"} {
		if strings.HasPrefix(t[1:], e) && len(t) > 1+len(e) && (t[1+len(e)] == ' ' || t[1+len(e)] == '>') && strings.HasSuffix(t, "</"+e+">") {
			return hasDigit(t)
		}
	}
	return false
}

// unreadHit is a line to list as unread: its number, whether it was counted as another
// program's line (else as prose), and why.
type unreadHit struct {
	no    int
	other bool
	why   string
}

// markUnread lists hits as unread lines, in line order, a run of lines with one reason as one
// entry, and moves them from prose (or other programs' lines) to unread in the account.
func (d *doc) markUnread(hits []unreadHit) {
	slices.SortFunc(hits, func(a, b unreadHit) int { return cmp.Compare(a.no, b.no) })
	for _, h := range hits {
		n := len(d.tl.Unparsed)
		if n > 0 && d.tl.Unparsed[n-1].LastLine == h.no-1 && d.tl.Unparsed[n-1].Why == h.why {
			d.tl.Unparsed[n-1].LastLine = h.no // a statement wrapped across lines is one entry
		} else if n >= maxUnreadEntries {
			break
		} else {
			d.tl.Unparsed = append(d.tl.Unparsed, model.Unparsed{FirstLine: h.no, LastLine: h.no, Why: h.why})
		}
		if a := d.tl.Lines; a != nil { // account ran: the line was counted as prose or as another program's
			if h.other {
				a.Other--
			} else {
				a.Prose--
			}
			a.Unparsed++
		}
	}
}
