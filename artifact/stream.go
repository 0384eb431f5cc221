package artifact

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"headroom/model"
)

// A syslog file is mostly lines that the segmenter only logs (the kernel's) or skips (other
// programs'); a 100 MB file has about 900,000 of them and a few hundred reports. runText
// therefore reads such lines without keeping a Line for each (the fast path), and gives the
// segmenter's loop (run) a window of Lines only around an interesting line: one that can
// start a kernel report, a show_mem dump, command output or prose. The output is the same as
// running the loop over every line of the text, because:
//
//   - a boring line is one on which the loop does nothing but host.scan and log or skip it
//     (boring), and the fast path does exactly that, in the same order;
//   - nothing that starts outside a window reads inside it or the other way round. Looking
//     back, only label reads lines before the one it labels, eight at most, stopping at a
//     logged kernel line; the window starts eight lines early (ctxLines), and the line
//     before a window is the last line of the previous one, a logged kernel line.
//     Looking forward, a window ends only after tailLines quiet lines (quiet: boring
//     kernel log lines, not blank, not comments) of which the last is one that the report
//     collectors (collectReport, showMemReport) stop at rather than skip or take (stops),
//     so every report ends inside its window. Command parsers take blocks of lines, and
//     may take kernel lines too (ethtool -g reads "e1000: eth0: ..." as a setting), so
//     before one runs for real, fitCommand runs it on a scratch copy of the state and
//     grows the window until the block ends before the quiet lines. What a parser reads
//     past its block then stays inside the window: the parsers look at most a line or two
//     past it (more only over blank or '#' lines, which are not quiet), and those that
//     want a few rows before they take any (three at most: readprofile, /proc/meminfo,
//     /proc/vmstat) take the quiet lines too when they match, which fitCommand sees.
//
// A text without such a stretch (a pasted forum post, a single table) is one window: the
// loop then runs over every line, as it always did.
const (
	ctxLines  = 8 // label reads at most eight lines back
	tailLines = 8 // quiet lines that end a window; more than the three rows any parser wants
)

// A window that does not close (a paste of command output or prose without eight quiet
// kernel lines in a row: a forum post, a repeated table, 50 MB of one report pasted over and
// over) used to be read whole into Lines before the loop ran: 136 bytes and more a line, so
// the Lines of a 50 MB paste took 380 MB. The window is now read windowChunk lines at a time:
// the loop keeps at least windowChunk lines ahead of the line it is at (a report or a dump
// longer than that, an OOM report's task table on a host of many processes, is read whole
// first: fitReport), and drops the lines more than ctxLines behind it, which nothing reads again (label reads eight
// back; the other parsers three at most). Command output is the exception: a block is read
// whole before it is parsed (fitCommand), up to maxBlockLines lines; a longer one (a
// million lines of buddyinfo) is parsed as several blocks of that many lines, in the
// streamed and the whole-text loop alike. Variables so that the tests can make them small.
var (
	windowChunk   = 1 << 13
	maxBlockLines = 1 << 16
)

// ctxLine is a fast-path line kept for the context of the next window.
type ctxLine struct {
	start, end int // raw line text[start:end], without its '\n'
	no         int
	used       bool // logged: the loop marks a kernel line used when it logs it
}

// runText parses a whole text: boring lines on the fast path, the rest in windows.
func (d *doc) runText(text string) {
	d.text, d.pos, d.no = text, 0, 0
	d.gutOK, d.gutDone = 0, false
	d.needles = newNeedleSet(needleText[:], sampleBigrams(text))
	d.amp = byteClass{index: indexAmp}
	d.chunk = windowChunk
	d.lines = -1 // counted when a window needs it (lineCount)
	// The log is kept packed (model.Log): most records' messages and stamps lie in text.
	room := 0
	if len(text) >= 1<<20 {
		// Appending 700,000 records to a slice grown a quarter at a time would copy
		// them over and over and leave the old copies for the collector; room for a
		// record per line, which this reserved once before, is 84 MB for a 50 MB
		// paste that logs 58,000 (and the collector paces itself by it). growLog
		// sizes the slice by the records logged so far against the text read.
		room = 4096
	}
	d.tl.Log.SetText(text, room)
	var ctx [ctxLines]ctxLine
	var l Line // the fast path's line, read into (parseLineInto)
	nctx := 0  // lines in ctx, a ring whose newest entry is at (nctx-1)%ctxLines
	// d.text, not text: lineEnd strips gutters as it goes (checkGutters).
	for d.pos < len(d.text) {
		start := d.pos
		end, next, hash, bracket, odd := d.lineEndScan(start)
		d.pos = next
		d.no++
		end = d.clipLong(start, end)
		text := d.text // lineEnd may have stripped gutters from start on
		f := rawFacts{known: true, ascii: true, amp: d.amp.in(text, start, end), scanned: true, hash: hash, bracket: bracket}
		if odd >= 0 {
			// The line's scan looked for the three classes of indexOddGeneric, which few
			// lines hold; such a line is asked which it holds.
			raw := text[start:end]
			f.ascii, f.backslash = isASCII(raw), strings.IndexByte(raw, '\\') >= 0
			f.markDigit = indexMarkDigit(raw) >= 0
		}
		esc, ascii := parseLineInto(&l, d.no, text[start:end], f)
		// The needles of an ASCII line, whose text is a substring of the raw line (rawHas);
		// another line may hold any.
		d.curNeedles = anyNeedle
		if ascii {
			d.curNeedles = d.needles.line(text, start, end)
		}
		if !esc && boringHolding(&l, d.curNeedles) {
			used := false
			if isBlank(l.Text) {
				d.acct.Blank++
			} else {
				if !l.Kernel {
					d.acct.Other++
					d.keepOther(l.No, l.Text)
				}
				d.scanHost(&l, ascii)
				if l.Kernel {
					d.curValid = ascii
					d.appendPlainLog(&l)
					d.curValid = false
					used = true
				}
			}
			ctx[nctx%ctxLines] = ctxLine{start: start, end: end, no: d.no, used: used}
			nctx++
			continue
		}
		// An interesting line: a window from up to ctxLines lines before it.
		d.ls, d.used = d.ls[:0], d.used[:0]
		for k := max(nctx-ctxLines, 0); k < nctx; k++ {
			c := ctx[k%ctxLines]
			cl, _, _ := parseLine(c.no, d.text[c.start:c.end])
			d.ls = append(d.ls, cl)
			d.used = append(d.used, c.used)
			d.unwrapLast()
		}
		nctx = 0
		first := len(d.ls)
		d.pos, d.no = start, d.no-1 // read it again, into the window
		d.tail, d.closed = 0, false
		d.reportScan = 0
		d.lastEnd = 0 // every earlier segment ended before the window
		d.rewind = -1
		d.grow(first + 1)
		if d.rewind >= 0 && d.rewind < first {
			first = d.rewind
		}
		d.run(first)
	}
	d.ls, d.used = nil, nil
}

// scanHost is host.scan for a boring line (a kernel or syslog line); for an ASCII line,
// whose text is a substring of the raw line, d.curNeedles holds the needles of the raw line.
// host.scan does nothing on such a line unless it holds the banner or the words reTainted
// needs (a search for "ainted" in every line cost a tenth of the parse), so it runs only
// when a line may hold them.
func (d *doc) scanHost(l *Line, ascii bool) {
	h := &d.host
	if h.kernelScore < 5 && (!ascii || d.curNeedles&hostNeedles != 0) {
		h.scan(l)
		return
	}
	if h.hostname == "" && l.Kernel && l.Host != "" {
		h.hostname = l.Host
	}
}

// searchAhead is how far past a line nextIndex searches when it must search: a few dozen
// typical lines, well inside a core's cache. A variable so that the tests can make it small.
var searchAhead = 64 << 10

// rawHas reports whether the kernel line l holds needle id: by the fast path's answer for
// its raw line when l is the fast path's current line (curValid), else by a search.
//
// The fast path's answer is a test of a bit, asked of every kernel line several times
// (appendLog, logExtras), so it is inlined and the search is a call of its own (perf15q).
func (d *doc) rawHas(id needleID, l *Line) bool {
	if d.curValid && d.curNeedles&(1<<id) == 0 {
		return false
	}
	return textHasNeedle(l.Text, id)
}

// textHasNeedle is rawHas's search, for a line the fast path did not answer.
//
//go:noinline
func textHasNeedle(t string, id needleID) bool { return strings.Contains(t, needleText[id]) }

// lineEnd returns the end of the raw line at pos (the index of its '\n', or the text's end)
// and where the next line starts. Every line is read through it, in order (checkGutters).
func (d *doc) lineEnd(pos int) (end, next int) {
	if !d.gutDone && pos >= d.gutOK {
		d.checkGutters(pos) // may strip the text from pos on
	}
	if i := strings.IndexByte(d.text[pos:], '\n'); i >= 0 {
		return pos + i, pos + i + 1
	}
	return len(d.text), len(d.text)
}

// lineEndScan is lineEnd for the fast path, which also learns in the same pass over the line
// where it holds its first '#' and its last '[' (lineScan, rawFacts), each -1 when none.
func (d *doc) lineEndScan(pos int) (end, next, hash, bracket, odd int) {
	if !d.gutDone && pos >= d.gutOK {
		d.checkGutters(pos) // may strip the text from pos on
	}
	nl, hash, bracket, odd := lineScan(d.text[pos:])
	if pos+nl < len(d.text) {
		return pos + nl, pos + nl + 1, hash, bracket, odd
	}
	return len(d.text), len(d.text), hash, bracket, odd
}

// maxLineBytes is the longest line the parsers read. No kernel or tool output headroom
// reads has lines near it (/proc/interrupts of a 4096-CPU host: about 45 KB); a longer line
// went through strings.Fields and the regexps of several parsers, each copying it: one
// 8 MiB line of numbers took 23.7 s and 202 MiB here, 64 MiB took 199 s and 1.79 GB in the
// issue 30 audit (item 6).
const maxLineBytes = 1 << 20

// clipLong returns end, or start for a line longer than maxLineBytes, which is then read
// as an empty line and named in NotAvailable once.
func (d *doc) clipLong(start, end int) int {
	if end-start <= maxLineBytes {
		return end
	}
	if d.no > d.longNoted {
		d.longNoted = d.no
		d.tl.NotAvailable = append(d.tl.NotAvailable, model.Unavailable{What: fmt.Sprintf("line %d", d.no),
			Why: fmt.Sprintf("%d bytes, longer than any line headroom reads (%d MiB); skipped", end-start, maxLineBytes>>20)})
	}
	return start
}

// grow reads lines into the window until it holds at least need lines and can end (closed),
// or the text ends.
//
// In a streamed parse (chunk > 0) a window that does not close stops growing chunk lines
// past need; the loop reads more as it goes (more).
func (d *doc) grow(need int) {
	for d.pos < len(d.text) && (len(d.ls) < need || !d.closed && (d.chunk == 0 || len(d.ls) < need+d.chunk)) {
		start := d.pos
		end, next := d.lineEnd(start)
		d.pos = next
		d.no++
		end = d.clipLong(start, end)
		n := len(d.ls)
		if n == cap(d.ls) {
			// Grow four-fold, and not past the lines left: append grows a long slice
			// by a quarter at a time, which for a window that is a whole paste of
			// command output (100,000 Lines of 136 bytes, with pointers) means copying
			// it several times over.
			c := max(4*n, 64)
			if c > 1024 {
				c = min(c, n+d.lineCount()-d.no+16)
			}
			ls := make([]Line, n, c)
			copy(ls, d.ls)
			d.ls = ls
			used := make([]bool, len(d.used), cap(ls))
			copy(used, d.used)
			d.used = used
		}
		d.ls = appendLine(d.ls, d.no, d.text[start:end])
		d.windowLines++
		d.peakWindow = max(d.peakWindow, len(d.ls))
		for len(d.used) < len(d.ls) {
			d.used = append(d.used, false)
		}
		if len(d.ls) == n+1 && d.unwrapLast() {
			d.tail = 0
			continue
		}
		if len(d.ls) == n+1 && quiet(&d.ls[n]) {
			d.tail++
		} else {
			d.tail = 0
		}
		d.closed = d.tail >= tailLines && stops(&d.ls[len(d.ls)-1]) && !d.nextMayJoin()
	}
}

// fitCommand grows the window until the command output that line i may start ends before
// the window's quiet lines. The parsers run on a scratch copy of the state (a fresh
// Timeline, a copy of the host facts and counters), which is then dropped: only the number
// of lines they take is wanted. Each try at least doubles the window from line i, so a
// block that takes line after line (ethtool -g takes every "name: number" line, kernel
// ones too) costs a few parses of itself, not one per quiet stretch.
//
// A window that is not closed (a paste of tables and prose) is read to maxBlockLines past
// line i at once instead: blockCommand then sees what the whole-text loop sees, the block
// cut at i+maxBlockLines or the text's end, and no scratch run is needed. The scratch runs
// were most of the parse of such a text: 56% of a million buddyinfo lines.
func (d *doc) fitCommand(i int) {
	if d.chunk > 0 && !d.closed {
		d.grow(i + maxBlockLines)
	}
	for d.pos < len(d.text) && len(d.ls) < i+maxBlockLines {
		scratch := *d
		scratch.tl = &model.Timeline{}
		scratch.keep = retention{} // its maps are the doc's: the scratch run must not count
		n := scratch.blockCommand(i)
		d.fits++
		if i+n <= len(d.ls)-tailLines || len(d.ls) >= i+maxBlockLines+tailLines {
			return
		}
		d.grow(min(max(i+n+tailLines, 2*len(d.ls)-i), i+maxBlockLines+tailLines))
	}
}

// fitReport grows a streamed window that is not closed until the report that line i may
// start (a header, a show_mem dump, an OOM task table) ends inside it. more keeps only
// windowChunk lines ahead of the loop, and a report longer than that (an OOM report's task
// table has a row per process: thousands on a big host) was cut at the window's end and its
// rest read as a report of its own, without the header or the kill line (corpus 852: the
// victim of a 300-line OOM report lost with windows of 256 lines). A closed window needs
// nothing: its last lines are quiet lines that every report stops at (grow).
//
// The window is grown past the first line after i at which every report collector stops
// (endsReports), and tailLines more for the parsers that look a line or two past a report
// (blankThenDump, reassembleHeader). The lines before that one are then read whole into
// the window, as the whole-text loop reads them; a text of reports pasted over and over
// still streams, since each header ends the report before it. reportScan remembers where
// the search stopped, so that the rows of a long table (each may start one: a table cut
// at its head) do not search it again.
func (d *doc) fitReport(i int) {
	if d.chunk == 0 || d.closed || d.pos >= len(d.text) || !mayStartReport(d.ls[i].Text) {
		return
	}
	k := max(i+1, d.reportScan)
	for !d.closed {
		// The last line of the window may yet take the next one as a wrapped piece
		// (unwrapLast): it is judged once the next is read, or the text has ended.
		for ; k+1 < len(d.ls) || k < len(d.ls) && d.pos >= len(d.text); k++ {
			if !d.used[k] && endsReports(&d.ls[k]) {
				d.reportScan = k
				d.grow(k + 1 + tailLines)
				return
			}
		}
		d.reportScan = k
		if d.pos >= len(d.text) {
			return
		}
		d.grow(len(d.ls) + 1)
	}
}

// endsReports reports whether every report collector (collectReport, showMemReport) stops
// at the line rather than skip it or take it: it may say false of such a line (the window
// then grows further than it needs), never true of another. The collectors skip other
// CPUs' lines and other programs' syslog lines, look past a blank line for a dump
// (blankThenDump), take a kill line's broken tail and the continuation lines of a dump;
// they stop at any other line that is neither a report line nor a header, and at an
// allocation failure's header or an "invoked oom-killer" (the next report).
func endsReports(l *Line) bool {
	t := l.Text
	if l.Caller != "" || l.Syslog && !l.Kernel || isBlank(t) {
		return false
	}
	s := strings.TrimSpace(t)
	if showMemKind(s) != "" || isLoneBuddyToken(s) || isContinuation(t) || isPendingContinuation(t) || isKillLineTail(t) || isOOMSlabInfoLine(s) {
		return false
	}
	return reportLineKind(t) == "" || isAllocHeader(t) || strings.Contains(t, "invoked oom-killer")
}

// blockCommand is command on a window cut maxBlockLines after line i: what a parser takes
// of a longer block is parsed now, and the rest as a block of its own.
func (d *doc) blockCommand(i int) int {
	end := i + maxBlockLines
	if end >= len(d.ls) {
		return d.command(i)
	}
	ls, used := d.ls, d.used
	d.ls, d.used = ls[:end:end], used[:end:end]
	n := d.command(i)
	d.ls, d.used = ls, used
	return n
}

// more keeps windowChunk lines ahead of line i in a streamed window that is not closed: it
// drops the lines more than ctxLines behind i and reads more. It returns i's index after the
// drop.
//
// The lines behind are dropped once they are at least windowChunk and half the window, so
// that a line is copied down about once however far the window reaches ahead (fitCommand
// reads maxBlockLines ahead).
func (d *doc) more(i int) int {
	if d.chunk == 0 {
		return i
	}
	if s := i - ctxLines; s >= d.chunk && s >= len(d.ls)/2 {
		n := copy(d.ls, d.ls[s:])
		clear(d.ls[n:])
		d.ls = d.ls[:n]
		copy(d.used, d.used[s:])
		d.used = d.used[:n]
		// label stops at lastEnd and eight lines back; both now at or before index 0.
		d.lastEnd = max(d.lastEnd-s, 0)
		d.reportScan = max(d.reportScan-s, 0)
		i -= s
	}
	if d.closed && i == len(d.ls)-1 && i > 0 && d.exampleNo != 0 && d.ls[i-1].No == d.exampleNo {
		// A guide's example of a message (exampleLog) runs on over the kernel lines that
		// follow it, quiet ones too, which the whole-text loop reads as prose: a window
		// that closed on them while the example went on left the lines after it to the
		// fast path, which logged them (FuzzStream). It stays open until the example ends.
		d.closed, d.tail = false, 0
	}
	if !d.closed && d.pos < len(d.text) && len(d.ls)-i < d.chunk {
		d.grow(i + 2*d.chunk)
	}
	return i
}

// boring reports whether the loop would do nothing with the line but host.scan it and log it
// (a kernel line) or skip it (another program's syslog line, a blank line): no report
// header, no show_mem dump, no command output or prose. It may say false of a boring line
// (the line then goes to a window, which costs time, not correctness), never true of
// another.
func boring(l *Line) bool { return boringHolding(l, anyNeedle) }

// boringHolding is boring for a line that holds at most the needles (needles.go) set in
// needles.
func boringHolding(l *Line, needles uint32) bool {
	t := l.Text
	if appOOMHanded(l, needles) || systemdOOMHanded(l, needles) || langRuntimeHanded(l, needles) || errnoHanded(l) {
		return false // a program's own out-of-memory line, under any tag (appOOMLine); systemd's unit OOM line
	}
	if needles&headerNeedles == 0 && len(t) > 0 && quietStarts[t[0]] && quietEnds[t[len(t)-1]] {
		// The usual kernel line ("nf_conntrack: table full", "e1000: eth0: ...", "sd 1:0:0:0:
		// ..."): no header needle, so no report header (mayBeHeader); a first byte that is
		// not blank and starts no dump, table or trace, and a last byte that is neither
		// blank nor ':', so cannotStartDump and mayStartOOMTrace rule it out. Only its tag
		// is left to ask (issue 33, perf15q: TestBoringHoldingShortcut).
		return !readsTag(l)
	}
	if isBlank(t) {
		return true
	}
	if readsTag(l) {
		return false
	}
	return !mayStartReportHolding(t, needles)
}

// readsTag: the line is command output or prose, or a program's line that a reader reads:
// systemd-sysctl's, earlyoom's, the kubelet's, docker's OOM lines and the low-memory
// killers' (sysctlNotApplied, earlyoomLine, tryKubeletEviction, dockerOOMLine,
// lowMemKillLine); an agent's or data store's line may be listed (foreignLogWhy), a server's
// own socket-buffer message named (h10, unreadappbuf.go), a data store's or broker's own
// message named or its stated sysctl read (h12a, unreaddbmsg.go).
func readsTag(l *Line) bool {
	if !l.Kernel && !l.Syslog {
		return true
	}
	switch l.Tag {
	case "kernel":
		return false // none of the tags below, not "user" nor "" (talos, docker), no agent's
	case "systemd-sysctl", "earlyoom", "kubelet", "systemd-oomd", "nohang", "lmkd", "lowmemorykiller", "slurmstepd", "slurmd", "slurmctld":
		return true
	}
	if talosOOMKillLine(l) || mayBeDockerOOM(l) || stampedKillHanded(l) || containerdTaskOOMHanded(l) || dnsmasqAllocHanded(l) || tmpfsNoSpaceHanded(l) || swarmTaskErrorHanded(l) ||
		rdmaOwnHanded(l) || bpfOwnHanded(l) {
		return true
	}
	if l.Kernel {
		return false
	}
	return isAgentTag(l.Tag) || isAppBufTag(l.Tag) || isTelecomTag(l.Tag) || isDBTag(l.Tag) || isServerTag(l.Tag) ||
		isParFSTag(l.Tag) || pm2LogHost(l) || isMetricsTag(l.Tag) || isSensorTag(l.Tag) || telegrafLevelHost(l) ||
		ownStampHost(l) || isJVMTag(l.Tag) || log4jLevelHost(l) || isVirtTag(l.Tag) || isVPNTag(l.Tag) ||
		isDNSServerTag(l.Tag) || isStreamerTag(l.Tag) || ovpnSplitStamp(l) || untaggedLimitLine(l) || ownEndHanded(l)
}

// untaggedLimitLine: a Go logger's line taken for syslog with no tag (zap's "STAMP\tERROR\t
// resourcemanager\t..." of kubo/libp2p) that names a resource limit, for appBufferLine
// (h24a); a compare and one search, on the few untagged syslog lines only.
func untaggedLimitLine(l *Line) bool {
	return l.Tag == "" && l.Syslog && strings.Contains(l.Text, "resource ")
}

// appOOMHanded: another program's syslog line that holds "of memory" (the line pass's
// needleOfMemory, one bit test per line), which appOOMLine may name: a runtime's or a
// server's own out-of-memory under its own tag ("lnd[1938]: fatal error: out of memory").
// A line whose needles are not known is searched only when it is such a line.
func appOOMHanded(l *Line, needles uint32) bool {
	if l.Kernel || !l.Syslog || needles&(1<<needleOfMemory) == 0 {
		return false
	}
	return !isBlank(l.Text) && (needles != anyNeedle || strings.Contains(l.Text, "of memory"))
}

// quietStarts are the first bytes of a line that neither cannotStartDump nor
// mayStartOOMTrace leaves to a dump, table or trace test, nor isBlank to blank space:
// ASCII, not blank, not one of dumpStarts, not 'C' or 'P' ("CPU: ", "Pid: ", "Call
// Trace:"). quietEnds are the last bytes cannotStartDump takes: ASCII, not blank, not ':'.
var quietStarts, quietEnds = func() (s, e [256]bool) {
	for c := range utf8.RuneSelf {
		b := byte(c)
		s[b] = !asciiSpace(b) && !dumpStarts[b] && b != 'C' && b != 'P'
		e[b] = !asciiSpace(b) && b != ':'
	}
	return s, e
}()

// mayStartReport is true when kernelReport might do more than return false for the line: a
// report header or the first line of a show_mem dump.
func mayStartReport(t string) bool { return mayStartReportHolding(t, anyNeedle) }

// mayStartReportHolding is mayStartReport for a line that holds at most the needles set in
// needles: one without headerNeedles is no header.
func mayStartReportHolding(t string, needles uint32) bool {
	if needles&headerNeedles != 0 && mayBeHeader(t) && (isAllocHeader(t) || isOOMHeader(t) || isSlabHeader(t) || isAllocStallHeader(t) || isVmallocPagesHeader(t) || isNoMMUAllocHeader(t)) {
		return true
	}
	if needles&headerNeedles != 0 && holdsBuddyTotal(t) && mayBeHeader(t) && (strings.Contains(t, "alloc") || strings.Contains(t, "ill")) {
		// A header's words and a buddy line's total on one line: kernelReport tries it as
		// output flattened onto one line (tryFlattened) before anything else. A kernel
		// line logged on the fast path that a wrapped piece then completed into such a
		// line ("... (9)" + "o the abbreviations in OOM Killer ... Node 0 DMA: 26*4kB
		// ... = 4352kB", FuzzStream) went on as a log record (relog) where the
		// whole-text loop, which joins first, read a show_mem dump.
		return true
	}
	if slubCacheLine(t) {
		return true // a SLUB failure's cache line without its header above (slubheaderless.go)
	}
	if cannotStartDump(t) {
		// The OOM killer's trace without its header starts "CPU: " or "Pid: " (or is
		// "Call Trace:"): its own test looks at the first byte before anything else.
		return mayStartOOMTrace(t)
	}
	return startsShowMem(t) || mayStartOOMTaskTable(t) || startsMemcgOOMInfo(t) || startsMemcgOOMStats(t) || startsOOMSlabInfo(t) || mayStartOOMTrace(t)
}

// holdsBuddyTotal: the " = 4352kB" that ends a buddy line, in a line that may hold one
// flattened into prose (kernelReport, tryFlattened).
func holdsBuddyTotal(t string) bool { return strings.Contains(t, "kB = ") }

// cannotStartDump is true for a line that none of startsShowMem, mayStartOOMTaskTable,
// startsMemcgOOMInfo and startsOOMSlabInfo takes, by its first byte after blanks and its
// last byte: the usual kernel message ("sd 1:0:0:0: ...", "e1000: eth0: ...", "audit: ...")
// starts with a byte none of them starts with and does not end in ':'. The four asked every
// line of a syslog cost 7% of the bench's parse (TestCannotStartDump checks the shortcut).
// A byte that is not ASCII, or blank space that TrimSpace would also remove, is left to them.
func cannotStartDump(t string) bool {
	b := trimBlankLeft(t)
	if b == "" {
		return false
	}
	c, e := b[0], t[len(t)-1]
	if c >= utf8.RuneSelf || asciiSpace(c) || e >= utf8.RuneSelf || asciiSpace(e) || e == ':' {
		return false
	}
	if !dumpStarts[c] {
		return true
	}
	// The second byte rules out most of the rest: the syslog's "TCP: ...", "audit: ...",
	// "Accepted publickey ...", "(root) CMD ..." lines ("Accepted" by its third byte). For a line that ends in neither blank
	// nor ':', startsShowMem's switch takes only the pairs in dumpSeconds, the task table
	// starts "Tasks state" ('T') or '[', and the other two start "me" and "Un". A '(' starts
	// only a lone buddy token (isLoneBuddyToken), which holds no blank.
	if len(b) < 2 {
		return false
	}
	switch p := dumpSeconds[c]; p {
	case "":
		return false // '[' and digits: left to the tests
	case "(":
		return strings.IndexByte(b, ' ') >= 0
	case "c":
		return len(b) < 3 || b[1] != 'c' || b[2] != 't' // "Active", "active"; not sshd's "Accepted"
	default:
		return strings.IndexByte(p, b[1]) < 0
	}
}

// dumpStarts are the first bytes of the lines cannotStartDump leaves to the four tests:
// startsShowMem's ('(' and digits: buddy fragments; "Active", "active", "DMA", "Free",
// "HighMem", "Mem-Info", "Node", "Total", "Swap" and the like), the OOM task table's ('T',
// '['), "memory: usage " and "Unreclaimable slab info:".
var dumpStarts = func() (s [256]bool) {
	for _, c := range "(0123456789AaDFHMNST[mU" {
		s[c] = true
	}
	return s
}()

// dumpSeconds are, for a first byte of dumpStarts, the second bytes the four tests may take
// on a line that does not end in ':' (startsShowMem's switch, "Tasks state", "memory: usage ",
// "Unreclaimable slab info:"); "" leaves every second byte to them, "(" a lone buddy token.
var dumpSeconds = [256]string{
	'(': "(",
	'A': "c", 'a': "c", 'D': "Me", 'F': "r", 'H': "i", 'M': "oe", 'N': "o",
	'S': "w", 'T': "oa", 'm': "e", 'U': "n",
}

// mayBeHeader is a cheap test that every report header passes: each has "allocat" ("page
// allocation failure", "-order allocation failed", "SLUB: Unable to allocate memory"),
// "alloc failure" ("vmemmap alloc failure: order:9") or
// "kill"/"Kill" ("oom-killer: gfp_mask=", "Out of memory: Kill process"), so each has an
// "ll" that one of these surrounds. A quarter of syslog lines have "ll" ("callbacks",
// "full"); this rules them out without the six substring searches of the header tests.
func mayBeHeader(t string) bool {
	for k := 1; k+2 <= len(t); {
		i := strings.Index(t[k:], "ll")
		if i < 0 {
			return false
		}
		k += i // t[k:k+2] == "ll", k >= 1
		switch t[k-1] {
		case 'a':
			// "alloc failure": warn_alloc's reason in vmemmap_alloc_block (kernel.MsgPageAllocFailure).
			if strings.HasPrefix(t[k+2:], "ocat") || strings.HasPrefix(t[k+2:], "oc failure") {
				return true
			}
		case 'A':
			if strings.HasPrefix(t[k+2:], "ocation of length ") { // kernel.MsgNoMMUAllocFailure
				return true
			}
		case 'i':
			if k >= 2 && (t[k-2] == 'k' || t[k-2] == 'K') {
				return true
			}
		}
		k++
	}
	return false
}

// quiet reports whether the line may be one of the tailLines that end a window: a boring
// kernel log line that is not blank and not a comment (sysctl blocks read through '#' lines
// before giving them back, and some parsers look past blank lines).
func quiet(l *Line) bool {
	if !l.Kernel || !boring(l) {
		return false
	}
	s := strings.TrimSpace(l.Text)
	return s != "" && s[0] != '#' && s[0] != ';'
}

// stops reports whether collectReport and showMemReport stop at the (quiet) line rather than
// skip it (another CPU's line, under CONFIG_PRINTK_CALLER) or take it as part of a report:
// the last line of a window. A row of an OOM report's unreclaimable slab table is read on by
// tryOOMSlabInfo, so the window does not end at one; nor at a line of cgroup v2's
// memory.stat, which an OOM report takes after its "Memory cgroup stats for PATH:" line
// (fix52a, memcgoomstats.go).
func stops(l *Line) bool {
	if l.Caller != "" || reportLineKind(l.Text) != "" || isContinuation(l.Text) || isPendingContinuation(l.Text) || isOOMSlabInfoLine(l.Text) {
		return false
	}
	_, _, stat := memcgV2StatLine(l.Text)
	return !stat
}

// lineCount is the number of lines in the text, counted once when a window grows long
// enough for it to bound the window's capacity.
func (d *doc) lineCount() int {
	if d.lines < 0 {
		d.lines = strings.Count(d.text, "\n") + 1
	}
	return d.lines
}

// growLog makes room in the log for the records still to come, estimated from the records
// so far against the share of the text read (ten percent more, at least a quarter more
// than now, at most a record per line): a syslog's records are spread through it, so the
// slice is copied once or twice, not once per quarter of growth.
func (d *doc) growLog() {
	n := d.tl.Log.Len()
	est := n + n/4
	if d.pos > 0 && d.pos < len(d.text) {
		est = max(est, int(float64(n)*float64(len(d.text))/float64(d.pos)*1.1)+1024)
	}
	// At most a record per line still to come: the window's lines, and the lines left,
	// each a byte and its newline at least (a count of the text's lines was a pass over
	// it: 10 ms of 100 MB).
	est = min(est, n+1+len(d.ls)+(len(d.text)-d.pos)/2)
	d.tl.Log.Grow(max(est, n+1) - n)
}

// growAhead returns s with room for one more element. A list that one line in ten of a big
// log adds to (net_ratelimit's "callbacks suppressed", link-up messages: 86,000 each in
// the bench's syslog) grew by append a quarter at a time, about 26 copies of itself and as
// many fresh allocations (a twentieth of the parse); from 1024 elements on, a full list is
// sized once for the whole text by the share of it read (read of total bytes), as growLog
// sizes the log, and by the lines left at most (a byte and its newline each).
func growAhead[T any](s []T, read, total int) []T {
	n := len(s)
	if n < cap(s) || n < 1024 || read <= 0 || read >= total {
		return s
	}
	est := int(float64(n)*float64(total)/float64(read)*1.1) + 1024
	est = min(est, n+1+(total-read)/2)
	t := make([]T, n, max(est, n+n/4+1))
	copy(t, s)
	return t
}
