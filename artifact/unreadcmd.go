package artifact

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"headroom/internal/lazyre"
	"headroom/model"
)

// Output of this domain's commands and kernel files that no reader takes (issue 29 item 4).
//
// A paste often shows a command and its output, and headroom has no reader for many of them:
// "# cat /sys/class/net/eth1/qos/buffer_size" then "Port buffer size = 262016" and a table
// of per-priority buffers (corpus 820), `ethtool -c`, `ethtool --show-priv-flags`, `tc -s
// class`. Their lines hold too few numbers each for unreadEvidence, so they were counted as
// prose, and a paste of nothing else exited 3 ("nothing ... is evidence") as if the
// reporter had written only sentences. The command says what the lines are: the output
// lines under a shell prompt that runs one of this domain's commands or reads one of its
// kernel files (or under such a command standing alone as a heading) are listed as unparsed
// with the command in their reason, so the report names what it could not read and the run
// is not refused. A prompt running anything else, a sentence, or a line some reader took
// ends the run; lines with no number ("Buffer Size", a table's header) are taken only
// between the command and output lines.

// unreadCmd is the state of the domain command whose output is being listed.
type unreadCmd struct {
	cmd       string // the command as written, "" when no run is open
	entry     int    // index in tl.Unparsed of the run's entry, -1 before its first line
	lastNo    int    // the number of the last line taken: the command's, or an output line
	blank     int    // d.acct.Blank when lastNo was taken
	heads     int    // lines since lastNo without numbers and not sentences ("Buffer Size")
	headNo    int    // the first of them
	headBlank int    // d.acct.Blank at headNo
	entries   int    // unread entries this text made (maxUnreadEntries)
	// foreign: the last prompt ran a command of another domain ("ls -l", "df -h",
	// "docker ps"), whose output is not evidence: its tables are prose, not unread output,
	// until a sentence or the next prompt.
	foreign bool
	// form: the run was opened by a line of a tool's own form (unreadvswitch.go), and cmd
	// holds the reason that names the tool.
	form bool
	// seenNo and seenBlank: the last line this test saw and d.acct.Blank after it; lines
	// between that are not blank were taken by a reader, which ends foreign output.
	seenNo, seenBlank int
}

const (
	// maxUnreadEntries bounds the unread entries one text adds (this class and
	// unparsedUnread's): a paste of a million commands each with a line of output lists
	// the first ones, the rest stay prose, and memory stays bounded.
	maxUnreadEntries = 128
	// A run of output crosses at most this many blank lines between two of its lines (a
	// web page's copy puts one between every line, corpus 820) and this many lines
	// without numbers ("Buffer Size", "Private flags for eth0:").
	maxUnreadGapBlanks = 3
	maxUnreadHeads     = 3
	maxUnreadCmdBytes  = 80
)

// unreadCommandOutput is prose's test for line i: a line that opens, continues or ends a run
// of a domain command's output. It reports whether the line was listed as unread output
// (the caller then reads it no further).
func (d *doc) unreadCommandOutput(i int) bool {
	u := &d.ucmd
	t := d.ls[i].Text
	no := d.ls[i].No
	if u.foreign && no-u.seenNo-1 != d.acct.Blank-u.seenBlank {
		u.foreign = false
	}
	defer func() { u.seenNo, u.seenBlank = no, d.acct.Blank }()
	if cmd, prompt, ok := shellCommandLine(t); ok {
		u.cmd, u.foreign = "", false
		if domainRead(cmd, prompt) && !vyattaStorage(cmd) {
			*u = unreadCmd{cmd: clipCmd(cmd), entry: -1, lastNo: no, blank: d.acct.Blank, entries: u.entries, seenNo: u.seenNo, seenBlank: u.seenBlank}
		} else if prompt && foreignCommand(cmd) {
			u.foreign = true
		}
		return false
	}
	if u.foreign && endsSentence(t) {
		u.foreign = false // the author writes again; a table's header ("Mounted on") does not end it
	}
	formWhy, isForm := toolFormLine(t)
	if isForm {
		d.captureIfDrops(i)
		// A line of a tool's own form is that tool's output with or without its command:
		// it opens a run under the form's name unless it continues that run.
		if b := d.acct.Blank - u.blank; u.cmd != formWhy || !u.form || no-u.lastNo-1 != b+u.heads || b > maxUnreadGapBlanks*(u.heads+1) {
			*u = unreadCmd{cmd: formWhy, form: true, entry: -1, lastNo: no - 1, blank: d.acct.Blank, entries: u.entries, seenNo: u.seenNo, seenBlank: u.seenBlank}
		}
	}
	if u.cmd == "" {
		return false
	}
	blanks := d.acct.Blank - u.blank
	if no-u.lastNo-1 != blanks+u.heads || blanks > maxUnreadGapBlanks*(u.heads+1) {
		u.cmd = "" // a reader took a line between, or the output ended long ago
		return false
	}
	kind := outputLineKind(t)
	if isForm {
		kind = lineOutput
	}
	if kind == lineSentence && strings.HasPrefix(u.cmd, "nohang ") && strings.HasPrefix(strings.TrimSpace(t), "WARNING: ") {
		// nohang's configuration check warns inside its output (src/nohang errprint:
		// "WARNING: PSI metrics are not provided by the kernel: ...") and goes on.
		kind = lineOutput
	}
	if kind == lineSentence && u.entry < 0 && u.heads == 0 && countResultLine(u.cmd, t) {
		// A count pipeline's one number retyped with the author's words after it
		// ("netstat -putan|grep x|wc -l" then "~ 3K for a server with 4 rooms."): the
		// figure is the command's output.
		kind = lineOutput
	}
	switch kind {
	case lineSentence:
		u.cmd = ""
		return false
	case lineQuiet:
		if u.heads == 0 {
			u.headNo, u.headBlank = no, d.acct.Blank
		}
		u.heads++
		if u.heads > maxUnreadHeads {
			u.cmd = ""
		}
		return false // prose until an output line follows: then the entry takes it
	}
	if u.entry >= 0 && u.entry < len(d.tl.Unparsed) && d.tl.Unparsed[u.entry].LastLine == u.lastNo {
		// The blank lines and the heads between are the output's: not blank, not prose.
		d.tl.Unparsed[u.entry].LastLine = no
		d.acct.Blank -= blanks
		d.acct.Prose -= u.heads
	} else {
		if u.entries >= maxUnreadEntries {
			u.cmd = ""
			return false
		}
		first := no
		if u.heads > 0 {
			first = u.headNo
			d.acct.Blank = u.headBlank
			d.acct.Prose -= u.heads
		}
		e := unreadCommandEntry(first, no, u.cmd)
		if u.form {
			e.Why = u.cmd
		}
		d.tl.Unparsed = append(d.tl.Unparsed, e)
		u.entry = len(d.tl.Unparsed) - 1
		u.entries++
	}
	u.lastNo, u.blank, u.heads = no, d.acct.Blank, 0
	d.keepUnreadLine(i)
	return true
}

// countResultLine: cmd ends in a line count ("| wc -l") and t opens with a figure, exact or
// approximate ("3012", "~ 3K", "about 3000", "≈3k"), before any word.
func countResultLine(cmd, t string) bool {
	c := strings.TrimSpace(cmd)
	if !strings.HasSuffix(c, "wc -l") || strings.IndexByte(c, '|') < 0 {
		return false
	}
	s := strings.TrimSpace(t)
	for _, p := range []string{"~", "≈", "about ", "around ", "approx. ", "approximately "} {
		s = strings.TrimSpace(strings.TrimPrefix(s, p))
	}
	f, _, ok := nextField(s)
	if !ok {
		return false
	}
	f = strings.TrimRight(f, ",.;:")
	if n := len(f); n > 1 && (f[n-1] == 'k' || f[n-1] == 'K') {
		f = f[:n-1]
	}
	f = strings.ReplaceAll(f, ",", "")
	return f != "" && len(f) <= 12 && isDigits(strings.Replace(f, ".", "", 1)) && f[0] != '.'
}

func unreadCommandEntry(first, last int, cmd string) model.Unparsed {
	return model.Unparsed{FirstLine: first, LastLine: last, Why: fmt.Sprintf("output of `%s`: no reader for it", cmd)}
}

// clipCmd shortens a long command line for the reason, on a rune boundary.
func clipCmd(c string) string {
	if len(c) <= maxUnreadCmdBytes {
		return c
	}
	k := maxUnreadCmdBytes
	for k > 0 && !utf8.RuneStart(c[k]) {
		k--
	}
	return c[:k] + "…"
}

// Output lines under a command, by what they look like.
const (
	lineOutput   = iota // numbers, or "name: on/off": output
	lineQuiet           // no number and no sentence: a table's header, a title ("Buffer Size")
	lineSentence        // words: the output has ended
)

// outputLineKind classifies a line under a domain command. Output is "name: value" or
// "name = value" with a number (and a unit) or on/off as the value ("Port buffer size =
// 262016", "rx-usecs: 3", "rx_cqe_moder : on"), a row of numbers ("0 130944", "4096 87380
// 6291456"), or a line with numbers that is not a sentence ("Sent 1502918 bytes 9870 pkt
// (dropped 12, overlimits 0 requeues 0)"). A sentence has four words or more, more than
// twice its numbers and two, or ends in '.', '?' or '!' after three words. Versions
// ("5.1.0-k"), hex and dates and times are not numbers here: a line whose only numbers
// stand in a date ("Sun Nov 29 14:48:24 UTC 2026") is quiet.
func outputLineKind(t string) int {
	s := strings.TrimSpace(t)
	if s == "" {
		return lineQuiet
	}
	if strings.HasPrefix(s, "**") || strings.HasPrefix(s, "##") || strings.IndexByte(s, '`') >= 0 || shellStatement(s) {
		// Markdown's bold and headings, inline code, a command typed without a prompt
		// ("echo 4096 33554432 33554432 > ..."): the author writes again.
		return lineSentence
	}
	if (s[0] == '-' || s[0] == '*' || s[0] == '+') && len(s) > 2 && s[1] == ' ' {
		// a Markdown list item of words ("- man 8 vmstat"); "- 2166" is a row of output
		if f, _, _ := nextField(s[2:]); f != "" {
			if w, _ := proseWords(f); w > 0 {
				return lineSentence
			}
		}
	}
	if toolBanner(s) || versionLine(s) {
		return lineQuiet
	}
	if kvOutput(s) {
		return lineOutput
	}
	nums, words := 0, 0
	dated, function := false, false
	for rest := s; ; {
		f, r, ok := nextField(rest)
		if !ok {
			break
		}
		rest = r
		switch {
		case isNumberToken(f):
			nums++
		case isClock(strings.TrimRight(f, ",.")):
			dated = true
		default:
			w, fw := proseWords(f)
			words += w
			function = function || fw
			if w > 0 && monthOrDay(f) {
				dated = true
			}
		}
	}
	end := s[len(s)-1]
	if words >= 4 && function && words > 2*nums+2 || words >= 8 && words > 3*nums+2 ||
		words >= 3 && (end == '.' || end == '?' || end == '!' || function && words > 2*nums && end != ':') {
		// The last: "It shows 2048 MB used" under "$ free -m"; "Private flags for eth0:"
		// is a title of the output.
		return lineSentence
	}
	if nums == 0 || dated && nums <= 2 {
		return lineQuiet
	}
	return lineOutput
}

// shellStatement: a line that types a command rather than prints output: it starts with a
// shell builtin that writes or loops, or redirects into a file.
func shellStatement(s string) bool {
	f, _, _ := nextField(s)
	switch f {
	case "echo", "printf", "export", "for", "while", "if", "do", "done", "then", "fi", "sudo":
		return true
	}
	return strings.HasSuffix(s, ">") || strings.Contains(s, " > /") || strings.Contains(s, " >> /")
}

// toolBanner: the first line sysstat's tools print ("Linux 3.13.0-49-generic (host)
// 07/14/2015 _x86_64_ (32 CPU)"): the kernel's release, the host and the date, read by the
// host facts, not a reading.
func toolBanner(s string) bool {
	return strings.HasPrefix(s, "Linux ") && (strings.Contains(s, "CPU)") || strings.Contains(s, "_x86_64_") || strings.Contains(s, "_i686_"))
}

// versionLine: "version: 5.4.0-k", "firmware-version: 1.61, 0x8000090e", "bus-info:
// 0000:01:00.0" (ethtool -i): names and versions, not quantities.
func versionLine(s string) bool {
	name, _, ok := strings.Cut(s, ":")
	if !ok {
		return false
	}
	name = strings.ToLower(name)
	return strings.Contains(name, "version") || strings.Contains(name, "firmware") || strings.Contains(name, "bus-info") ||
		strings.Contains(name, "driver") || strings.Contains(name, "release")
}

// endsSentence: a line of three words or more that ends in '.', '?' or '!'.
func endsSentence(t string) bool {
	s := strings.TrimSpace(t)
	if s == "" || strings.IndexByte(".?!", s[len(s)-1]) < 0 {
		return false
	}
	words := 0
	for rest := s; ; {
		f, r, ok := nextField(rest)
		if !ok {
			break
		}
		rest = r
		w, _ := proseWords(f)
		words += w
	}
	return words >= 3
}

// kvOutput: "name: value" or "name = value" whose name is one to six words and whose value
// is one to four numbers with at most a unit after each, or on/off ("on [fixed]").
func kvOutput(s string) bool {
	k := strings.IndexAny(s, ":=")
	if k <= 0 {
		return false
	}
	name, value := strings.TrimSpace(s[:k]), strings.TrimSpace(s[k+1:])
	if name == "" || value == "" || strings.ContainsAny(name, ".,;!?\"'`") && !strings.Contains(name, "_") {
		return false
	}
	if nw := len(strings.Fields(name)); nw > 6 {
		return false
	}
	vs := strings.Fields(value)
	if v := strings.ToLower(vs[0]); v == "on" || v == "off" {
		return len(vs) == 1 || len(vs) == 2 && vs[1] == "[fixed]"
	}
	if len(vs) > 8 {
		return false
	}
	nums := 0
	for j, f := range vs {
		switch {
		case isNumberToken(f):
			nums++
		case j > 0 && isNumberToken(vs[j-1]) && isUnitWord(f):
		default:
			return false
		}
	}
	return nums >= 1 && nums <= 4
}

// isUnitWord: a unit after a number in command output ("kB", "bytes", "pages", "usecs").
func isUnitWord(f string) bool {
	f = strings.TrimRight(f, ",;")
	if len(f) == 0 || len(f) > 8 {
		return false
	}
	for i := 0; i < len(f); i++ {
		c := f[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '/' || c == '%') {
			return false
		}
	}
	return true
}

// proseWords counts the words of a sentence in field f (letters with two lower-case ones
// at least, punctuation at their ends: "buffer,", "(dropped"; not "RX:" or "eth0"; a run of
// another script counts a word per two letters) and says whether one is a function word
// ("the", "to", "which", "的"), which a sentence has and a tool's keywords ("class htb 1:1
// root rate 1Gbit") do not.
func proseWords(f string) (words int, function bool) {
	f = strings.Trim(f, "()[],.;:!?\"'")
	lower, other := 0, 0
	for _, r := range f {
		switch {
		case r >= 'a' && r <= 'z':
			lower++
		case r >= 'A' && r <= 'Z', r == '\'', r == '-':
		case r > utf8.RuneSelf && unicode.IsLetter(r):
			other++
		default:
			return 0, false
		}
	}
	if other > 0 {
		return (other + 1) / 2, strings.ContainsAny(f, "的了是在我这有不")
	}
	if fw := functionWords[strings.ToLower(f)]; fw {
		return 1, true // "It", "A", "We" too
	}
	if lower < 2 {
		return 0, false
	}
	return 1, false
}

// functionWords leave out "on", which output prints as a value ("Adaptive RX: on  TX: off").
var functionWords = map[string]bool{"the": true, "a": true, "an": true, "to": true, "of": true, "in": true,
	"is": true, "are": true, "was": true, "were": true, "be": true, "and": true, "but": true, "or": true, "for": true,
	"with": true, "which": true, "that": true, "this": true, "these": true, "it": true, "we": true, "you": true,
	"can": true, "not": true, "my": true, "our": true, "your": true, "if": true, "when": true, "after": true,
	"before": true, "from": true, "as": true, "so": true, "have": true, "has": true, "see": true, "there": true,
	"der": true, "die": true, "das": true, "und": true, "le": true, "la": true, "les": true, "et": true, "de": true,
	"el": true, "los": true, "и": true, "в": true, "не": true, "на": true}

var monthDay = [...]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
	"mon", "tue", "wed", "thu", "fri", "sat", "sun"}

func monthOrDay(f string) bool {
	f = strings.ToLower(strings.TrimRight(f, ",."))
	if len(f) < 3 {
		return false
	}
	for _, m := range monthDay {
		if strings.HasPrefix(f, m) && (len(f) == 3 || len(f) <= 9) {
			return true
		}
	}
	return false
}

// shellCommandLine returns the command of a line that runs one: after a shell prompt ("$ ",
// "# ", "root@host:~# ", "[root@host ~]# ", "sh-4.2# ", "host:~ # "), with prompt true; or
// a line that is only a command of this domain, as a heading ("ethtool -c eth0", "`cat
// /proc/sys/vm/min_free_kbytes`:", "### tc -s class show dev eth0") or a bare kernel path
// ("/sys/kernel/mm/transparent_hugepage/enabled:"), with prompt false. "sudo", "time" and
// "watch -n N" before the command are dropped.
func shellCommandLine(t string) (cmd string, prompt bool, ok bool) {
	s := strings.TrimSpace(t)
	if s == "" {
		return "", false, false
	}
	if rest, p := cutPrompt(s); p {
		rest = strings.TrimSpace(rest)
		if rest == "" {
			return "", false, false
		}
		return dropCommandPrefix(rest), true, true
	}
	if len(s) >= 2 && s[0] == '#' && (s[1] == ' ' || s[1] == '\t') {
		// "# " is root's prompt and Markdown's heading alike ("# free memory on the
		// host"): its command is held to a heading's stricter arguments, but a line
		// that does not pass them still ends the run as a prompt would.
		rest := dropCommandPrefix(strings.TrimSpace(s[2:]))
		if rest == "" {
			return "", false, false
		}
		return rest, false, true
	}
	h := strings.TrimLeft(s, "#*_>` ")
	if f, _, _ := nextField(h); !domainTools[f] && f != "sudo" && !strings.HasPrefix(f, "/proc/") && !strings.HasPrefix(f, "/sys/") {
		return "", false, false // most prose: no command, no path first (checked before any copy)
	}
	h = strings.TrimRight(h, ":*_` ")
	if h == "" || strings.ContainsAny(h, "`") {
		return "", false, false
	}
	h = dropCommandPrefix(h)
	if domainRead(h, false) {
		return h, false, true
	}
	return "", false, false
}

// cutPrompt removes a shell prompt from the start of s.
func cutPrompt(s string) (string, bool) {
	if len(s) >= 2 && (s[0] == '$' || s[0] == '%') && (s[1] == ' ' || s[1] == '\t') {
		return s[2:], true
	}
	if s[0] == '[' {
		// "[root@host ~]# ", "[user@host dir]$ "
		if k := strings.IndexByte(s, ']'); k > 1 && k < 80 && k+1 < len(s) && (s[k+1] == '#' || s[k+1] == '$') && strings.IndexByte(s[:k], '@') > 0 {
			return s[k+2:], true
		}
		return "", false
	}
	f, rest, ok := nextField(s)
	if !ok || len(f) < 2 || len(f) > 80 {
		return "", false
	}
	last := f[len(f)-1]
	if last == '#' || last == '$' {
		body := f[:len(f)-1]
		// "root@host:~#", "user@h:/tmp$", "sh-4.2#", "bash-5.1$"
		if strings.ContainsAny(body, "@:~") || isShellVersion(body) {
			return rest, true
		}
		return "", false
	}
	// "host:~ # cmd" (SUSE): the prompt's path, then the mark as a word of its own.
	if strings.Contains(f, ":") && (strings.HasSuffix(f, ":~") || strings.Contains(f, ":/")) {
		if m, r2, ok := nextField(rest); ok && (m == "#" || m == "$") {
			return r2, true
		}
	}
	return "", false
}

// isShellVersion: "sh-4.2", "bash-5.1".
func isShellVersion(s string) bool {
	name, ver, ok := strings.Cut(s, "-")
	return ok && (name == "sh" || name == "bash") && ver != "" && ver[0] >= '0' && ver[0] <= '9'
}

// dropCommandPrefix removes "sudo", "time", "nice" and "watch -n N" before a command.
func dropCommandPrefix(s string) string {
	for {
		f, rest, ok := nextField(s)
		if !ok {
			return s
		}
		switch f {
		case "sudo", "time", "nice", "watch":
			s = strings.TrimSpace(rest)
			// their options: "sudo -E", "watch -n 1", "watch -d"
			for {
				o, r2, ok := nextField(s)
				if !ok || !strings.HasPrefix(o, "-") {
					break
				}
				s = strings.TrimSpace(r2)
				if o == "-n" {
					if v, r3, ok := nextField(s); ok && isNumberToken(v) {
						s = strings.TrimSpace(r3)
					}
				}
			}
			continue
		}
		return s
	}
}

// foreignCommand: a command of another domain, whose output holds numbers that are not
// kernel, memory or network state (sizes of files and disks, containers, builds).
func foreignCommand(cmd string) bool {
	f, rest, _ := nextField(cmd)
	switch f {
	case "ls", "ll", "df", "du", "git", "cd", "pwd", "which", "whoami", "date", "hostname", "npm", "yarn", "node",
		"deno", "python", "python3", "pip", "go", "make", "curl", "wget", "k6", "java", "mvn", "gradle", "uname":
		return true
	case "docker", "podman":
		a, _, _ := nextField(rest)
		return a != "stats" // docker stats prints memory
	case "opkg":
		// Entware's and OpenWrt's package manager (h25a): package names, versions and
		// sizes, its "Collected errors:" (a disk's ENOSPC under /opt), no memory state.
		return true
	case "show":
		return vyattaStorage(cmd)
	case "cat", "head", "tail", "less", "more":
		// a file named in full outside /proc and /sys: "/etc/hosts", "/var/log/httpd/access_log";
		// a relative name may be a kernel file after a cd ("cat unusable_index", corpus 899)
		a, _, ok := nextField(rest)
		return ok && strings.HasPrefix(a, "/") && !strings.HasPrefix(a, "/proc/") && !strings.HasPrefix(a, "/sys/")
	}
	return false
}

// vyattaStorage: Vyatta's, EdgeOS's and VyOS's op-mode `show system storage` (h25a), df -h of
// the flash (ubi, overlay, the image's partitions): disk space, not memory.
func vyattaStorage(cmd string) bool {
	f, rest, _ := nextField(cmd)
	a, r, _ := nextField(rest)
	b, _, _ := nextField(r)
	return f == "show" && a == "system" && b == "storage"
}

// proxyStatsCommand: a query of a proxy's or load balancer's own counters under a prompt:
// HAProxy's runtime API ("echo 'show info' | socat stdio /run/haproxy/admin.sock": its
// Name: value lines, PoolFailed, CurrConns), Envoy's admin endpoint ("curl
// localhost:9901/stats": "cluster.NAME.upstream_cx_overflow: 12"; "pilot-agent request GET
// stats" in an Istio sidecar) or any /metrics scrape (traefik_*, envoy_* series). Their
// counters are the application's, never the kernel's: listed as unread so that they are
// neither prose (unstampedLog took HAProxy's "Name: value" run for an unstamped kernel log)
// nor, before, /proc/meminfo.
func proxyStatsCommand(cmd string) bool {
	if strings.Contains(cmd, "socat") {
		for _, w := range []string{"show info", "show stat", "show pools", "show activity", "show servers"} {
			if strings.Contains(cmd, w) {
				return true
			}
		}
		return false
	}
	f, _, _ := nextField(cmd)
	switch f {
	case "curl", "wget", "http":
		return strings.Contains(cmd, "/stats") || strings.Contains(cmd, "/metrics")
	case "pilot-agent", "kubectl":
		return strings.Contains(cmd, "request GET stats") || strings.Contains(cmd, "request GET /stats")
	}
	return false
}

// domainRead reports whether cmd prints kernel, memory or network state: one of this
// domain's tools run to show (not to set), or a reader of one of its kernel files. Without
// a prompt the arguments must all look like arguments (options, numbers, paths, interface
// names, the tool's keywords), so that a heading "free memory" or "ip address of the host"
// is no command.
func domainRead(cmd string, prompt bool) bool {
	if prompt && proxyStatsCommand(cmd) {
		return true
	}
	if k := strings.IndexAny(cmd, "|;&"); k >= 0 {
		cmd = cmd[:k] // "ethtool -S eth0 | grep drop": the first command's output, filtered
	}
	if f, _, _ := nextField(cmd); !domainTools[f[strings.LastIndexByte(f, '/')+1:]] && (prompt || !isDomainPath(f)) {
		return false // no copy of a line that is no command of ours ("# Notes on the setup")
	}
	fs := strings.Fields(cmd)
	if len(fs) == 0 {
		return false
	}
	if !prompt && len(fs) == 1 && isDomainPath(fs[0]) {
		return true // a bare path as a heading
	}
	name := fs[0]
	if k := strings.LastIndexByte(name, '/'); k >= 0 && (strings.HasPrefix(name, "/usr/") || strings.HasPrefix(name, "/sbin/") || strings.HasPrefix(name, "/bin/")) {
		name = name[k+1:]
	}
	args := fs[1:]
	for _, a := range args {
		if a == ">" || a == ">>" || strings.HasPrefix(a, ">") {
			return false // a write: "echo 1 > /proc/sys/...", "cat x > /sys/..."
		}
	}
	switch name {
	case "cat", "head", "tail", "more", "less", "grep", "egrep", "fgrep", "zcat":
		for _, a := range args {
			if isDomainPath(strings.Trim(a, `"'`)) {
				return true
			}
		}
		return false
	case "sysctl":
		for _, a := range args {
			if a == "-w" || a == "-p" || a == "--system" || a == "--load" || strings.Contains(a, "=") {
				return false
			}
		}
		return len(args) > 0
	case "ethtool":
		if len(args) == 0 || ethtoolSets(args) {
			return false
		}
		return argsLookLike(args, nil, prompt)
	case "ip":
		return !hasAny(args, ipWrites) && argsLookLike(args, ipWords, prompt) && (prompt || len(args) > 0)
	case "tc":
		return !hasAny(args, tcWrites) && len(args) > 0 && argsLookLike(args, tcWords, prompt)
	case "devlink":
		return !hasAny(args, []string{"set", "add", "del", "reload", "flash"}) && len(args) > 0 && argsLookLike(args, devlinkWords, prompt)
	case "ss", "netstat", "nstat", "lnstat", "rtstat", "free", "vmstat", "sar", "slabtop", "numastat",
		"mpstat", "ifconfig", "mlnx_qos", "conntrack", "top":
		if !prompt && len(args) == 0 {
			return false // "free" alone is a word, "### vmstat" a manual's section
		}
		if name == "mlnx_qos" && !prompt {
			return true
		}
		return argsLookLike(args, toolWords, prompt)
	case "iw", "iwconfig":
		// Wireless links: iw's station dump ("rx drop misc:", "tx failed:", iw station.c
		// print_sta_handler) and iwconfig's discarded-packet counters ("Invalid misc:",
		// wireless-tools iwconfig.c): the wireless stack's, no reader takes them.
		return name == "iwconfig" && (prompt || len(args) > 0) || len(args) > 0 && hasAny(args, []string{"station", "link", "dump", "survey"})
	case "wg":
		// WireGuard's peers ("transfer: 3.21 GiB received, 1.33 GiB sent", wireguard-tools
		// src/show.c): traffic totals of a tunnel, no drop or memory counter.
		return len(args) == 0 && prompt || len(args) > 0 && (args[0] == "show" || args[0] == "showconf")
	case "ipvsadm":
		// IPVS's virtual services ("-Ln --stats": Conns InPkts OutPkts InBytes OutBytes per
		// service and real server, ipvsadm.c print_service_entry): load balancer totals.
		for _, a := range args {
			if strings.HasPrefix(a, "-L") || strings.HasPrefix(a, "-l") || a == "--list" || a == "--stats" || a == "--rate" {
				return true
			}
		}
		return false
	case "cilium", "cilium-dbg", "calicoctl":
		// The CNI agents' views (cilium status's BPF map sizes, cilium bpf ct list,
		// cilium metrics list, calicoctl node status): their maps and counters are the
		// agent's, read by no reader; "cilium install" and the like print nothing to read.
		return len(args) > 0 && hasAny(args[:1], []string{"status", "bpf", "metrics", "map", "monitor", "node", "endpoint"})
	case "nohang":
		// nohang's configuration check ("nohang -cc FILE", "--check-config": src/nohang
		// prints each section's settings, "warning_threshold_min_mem: 2367 MiB, 20.0 %"):
		// thresholds it would act on, derived from RAM size, not the host's state.
		return hasAny(args, []string{"-cc", "--check-config"})
	case "ps", "ps_mem", "smem":
		// A process table (sorted by memory: "ps -eo pid,cmd,%mem --sort=-%mem"): each
		// process's share of RAM, which no reader takes. Only under a prompt: "ps" in a
		// sentence or a heading is a word.
		return prompt
	case "show":
		// A network OS's operational command under its prompt (VyOS, EdgeOS, "vyos@r1:~$
		// show conntrack table ipv4"): its tables hold the router's connection, interface
		// and memory state. Only the sections of this domain, and only under a prompt.
		return prompt && len(args) > 0 && hasAny(args[:1], showWords)
	}
	return false
}

// domainTools: the first words domainRead takes.
var domainTools = map[string]bool{"cat": true, "head": true, "tail": true, "more": true, "less": true, "grep": true,
	"egrep": true, "fgrep": true, "zcat": true, "sysctl": true, "ethtool": true, "ip": true, "tc": true, "devlink": true,
	"ss": true, "netstat": true, "nstat": true, "lnstat": true, "rtstat": true, "free": true, "vmstat": true, "sar": true,
	"slabtop": true, "numastat": true, "mpstat": true, "ifconfig": true, "mlnx_qos": true, "conntrack": true, "top": true,
	"ps": true, "ps_mem": true, "smem": true, "show": true, "wg": true, "ipvsadm": true, "cilium": true, "cilium-dbg": true,
	"calicoctl": true, "iw": true, "iwconfig": true, "nohang": true}

var (
	ipWrites     = []string{"set", "add", "del", "delete", "change", "replace", "flush", "append"}
	tcWrites     = []string{"add", "del", "delete", "change", "replace", "link"}
	ipWords      = []string{"link", "l", "addr", "address", "a", "route", "r", "neigh", "n", "show", "s", "stats", "stat", "dev", "maddr", "rule", "tcp_metrics", "netconf", "list", "ls", "table", "all", "type", "up"}
	tcWords      = []string{"qdisc", "class", "filter", "show", "ls", "list", "dev", "parent", "root", "ingress", "handle", "classid"}
	devlinkWords = []string{"dev", "port", "sb", "health", "show", "param", "resource", "occupancy", "pool", "tc", "bind", "info", "trap", "name", "pci"}
	// showWords: the sections of a network OS's "show" this domain reads.
	showWords = []string{"conntrack", "conntrack-sync", "interfaces", "interface", "system", "memory", "ip", "ipv6", "queueing", "traffic-policy"}
	// toolWords: the keywords of sar -n, ss's filters and conntrack's tables.
	toolWords = []string{"DEV", "EDEV", "TCP", "ETCP", "SOCK", "SOCK6", "IP", "EIP", "UDP", "NFS", "ALL", "SOFT",
		"state", "established", "listening", "time-wait", "syn-recv", "sport", "dport", "src", "dst", "all", "(", ")", "and", "or"}
)

func hasAny(args, words []string) bool {
	for _, a := range args {
		for _, w := range words {
			if a == w {
				return true
			}
		}
	}
	return false
}

// ethtoolSets: an ethtool call that changes the device ("-G eth0 rx 4096", "-K eth0 gro
// off", "-s eth0 speed 1000") prints nothing to read.
func ethtoolSets(args []string) bool {
	switch a := args[0]; {
	case len(a) == 2 && a[0] == '-' && strings.IndexByte("sGKCALEUNXrpWf", a[1]) >= 0:
		return true
	case strings.HasPrefix(a, "--set-"), a == "--change", a == "--features", a == "--coalesce", a == "--pause",
		a == "--set-ring", a == "--offload", a == "--config-nfc", a == "--flash", a == "--identify":
		return true
	}
	return false
}

// argsLookLike: every argument is an option, a number, a path, an address, an interface
// name or one of words. After a prompt anything goes but a sentence's punctuation: the
// prompt already says a command runs.
func argsLookLike(args, words []string, prompt bool) bool {
	for _, a := range args {
		if prompt {
			if strings.HasSuffix(a, ".") || strings.HasSuffix(a, ",") {
				return false
			}
			continue
		}
		switch {
		case strings.HasPrefix(a, "-"), isNumberToken(a), strings.ContainsAny(a, "/:="), isIfaceName(a):
		case hasAny([]string{a}, words):
		case len(a) > 3 && a[0] >= 'A' && a[0] <= 'Z' && isAlnum(a): // nstat's counter names ("TcpExtListenDrops")
		default:
			return false
		}
	}
	return true
}

// isIfaceName: "eth0", "enp3s0f1", "ens5", "wlan0", "bond0.100", "mlx5_0": letters then
// a digit.
func isIfaceName(a string) bool {
	k := 0
	for k < len(a) && (a[k] >= 'a' && a[k] <= 'z') {
		k++
	}
	return k >= 2 && k < len(a) && a[k] >= '0' && a[k] <= '9' && len(a) <= 16
}

func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// isDomainPath: a kernel file of memory or networking state: under /proc/sys, /proc/net,
// /sys/class/net, /sys/kernel/mm, /sys/fs/cgroup, a NUMA node's or a NIC module's sysfs
// directory, or one of /proc's memory files.
func isDomainPath(p string) bool {
	for _, pre := range domainPathPrefixes {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	if rest, ok := strings.CutPrefix(p, "/proc/"); ok {
		// /proc/PID/..., /proc/self/...: a process's memory and its network namespace
		pid, file, ok := strings.Cut(rest, "/")
		if ok && (pid == "self" || isDigits(pid) || pid == "$pid" || pid == "<pid>") {
			for _, f := range []string{"net/", "status", "smaps", "statm", "numa_maps", "meminfo"} {
				if strings.HasPrefix(file, f) {
					return true
				}
			}
		}
	}
	if strings.HasPrefix(p, "/sys/devices/") && (strings.Contains(p, "/net/") || strings.Contains(p, "/node")) {
		return true
	}
	if rest, ok := strings.CutPrefix(p, "/sys/module/"); ok {
		return strings.Contains(rest, "/parameters")
	}
	return false
}

var domainPathPrefixes = []string{"/proc/sys/", "/proc/net/", "/proc/meminfo", "/proc/vmstat", "/proc/zoneinfo",
	"/proc/buddyinfo", "/proc/pagetypeinfo", "/proc/slabinfo", "/proc/swaps", "/proc/pressure/", "/proc/interrupts",
	"/proc/softirqs", "/proc/irq/", "/sys/class/net/", "/sys/kernel/mm/", "/sys/fs/cgroup/", "/sys/devices/system/node/",
	"/sys/devices/system/memory/", "/sys/bus/pci/drivers/", "/sys/kernel/debug/extfrag/"}

// keepUnreadLine keeps an unread output line among the prose lines whose stated numbers
// stated.go reads, as unparsedUnread does, without counting it as prose.
func (d *doc) keepUnreadLine(i int) {
	if len(d.proseLines) < statedMaxLines && len(d.ls[i].Text) <= statedMaxLineBytes {
		d.proseLines = append(d.proseLines, proseLine{no: d.ls[i].No, text: d.ls[i].Text})
		d.markNotProse(d.ls[i].No)
	}
}

// unparsedLines returns a test for "line no is in one of us", asked with line numbers that
// never decrease (a walk over the prose lines).
func unparsedLines(us []model.Unparsed) func(no int) bool {
	if len(us) == 0 {
		return func(int) bool { return false }
	}
	rs := slices.Clone(us)
	slices.SortFunc(rs, func(a, b model.Unparsed) int { return cmp.Compare(a.FirstLine, b.FirstLine) })
	k := 0
	end := rs[0].LastLine // the furthest end among rs[:k+1]
	return func(no int) bool {
		for k+1 < len(rs) && rs[k+1].FirstLine <= no {
			k++
			end = max(end, rs[k].LastLine)
		}
		// Every range up to k starts at or before no; the one that ends last holds no
		// if any does.
		return rs[0].FirstLine <= no && no <= end
	}
}

// unparsedCount is the number of lines in the union of us, within the text's total lines:
// ranges that overlap count once. It sorts a copy rather than marking each line in a set,
// so a range of a million lines costs nothing more than one of a line.
func unparsedCount(us []model.Unparsed, total int) int {
	if len(us) == 0 {
		return 0
	}
	rs := slices.Clone(us)
	slices.SortFunc(rs, func(a, b model.Unparsed) int { return cmp.Compare(a.FirstLine, b.FirstLine) })
	n, end := 0, 0 // end: the last line counted so far
	for _, r := range rs {
		first, last := max(r.FirstLine, end+1, 1), min(r.LastLine, total)
		if last >= first {
			n += last - first + 1
			end = last
		}
	}
	return n
}

// reIwStation is the first line of each station iw prints for "iw dev IF station dump" or
// "station get" (iw station.c print_sta_handler: "Station %s (on %s)"), its fields indented
// below ("\tinactive time:\t304 ms", "\ttx retries:\t298", "\trx drop misc:\t0").
var reIwStation = lazyre.New(`^Station (?:[0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2} \(on [\w.@-]+\)\s*$`)

// iwStationFields: field names print_sta_handler prints; two of them under the Station line
// make it iw's.
var iwStationFields = []string{"inactive time:", "rx bytes:", "rx packets:", "tx bytes:", "tx packets:",
	"tx retries:", "tx failed:", "rx drop misc:", "signal:", "signal avg:", "tx bitrate:", "rx bitrate:",
	"authorized:", "authenticated:", "associated:", "connected time:", "beacon loss:"}

// tryIwStation names iw's station dump as unread, with or without its command line: each
// station's link-layer counters (802.11 MAC retries and failed frames, "rx drop misc", the
// signal) belong to the wireless stack, which no rule reads. A tx retry is the Wi-Fi MAC
// sending a frame again, no TCP retransmission, so nothing here may feed the TCP rules.
func (d *doc) tryIwStation(i int) int {
	if !reIwStation.MatchString(strings.TrimSpace(d.ls[i].Text)) {
		return 0
	}
	k, known := i+1, 0
	for k < len(d.ls) {
		t := d.ls[k].Text
		if isBlank(t) {
			// A blank line between stations; the dump goes on at the next Station line.
			j := k
			for j < len(d.ls) && isBlank(d.ls[j].Text) {
				j++
			}
			if j < len(d.ls) && reIwStation.MatchString(strings.TrimSpace(d.ls[j].Text)) {
				k = j + 1
				continue
			}
			break
		}
		if t[0] != ' ' && t[0] != '\t' {
			if !reIwStation.MatchString(strings.TrimSpace(t)) {
				break
			}
			k++
			continue
		}
		ft := strings.TrimSpace(t)
		for _, f := range iwStationFields {
			if strings.HasPrefix(ft, f) {
				known++
				break
			}
		}
		k++
	}
	if known < 2 {
		return 0
	}
	why := "iw station dump: a Wi-Fi station's link-layer counters (802.11 retries and failed frames, rx drop misc, signal, bitrates), which headroom has no reader for"
	if c := d.ucmd.cmd; strings.HasPrefix(c, "iw ") {
		why = "output of `" + c + "`: " + strings.TrimPrefix(why, "iw station dump: ")
		d.ucmd.cmd = ""
	}
	d.unparsed(i, k-1, why)
	return k - i
}
