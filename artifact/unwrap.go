package artifact

import (
	"strings"

	"headroom/kernel"
)

// Kernel log lines pasted into a mail or copied from a terminal arrive broken: a mail client
// wraps at about 72 columns at a space ("cosd: page allocation" / "failure. order:2,
// mode:0x4020"), a terminal at exactly its width in the middle of a word. The pieces after
// the first carry none of the line's prefix (no syslog stamp, no dmesg time), which is what
// tells them apart from the next record. unwrapLast joins such a piece to the line before it
// as the window is read, so that the report collectors, the header parsers and the log all
// see the line the kernel printed.
//
// A piece is joined only when all of these hold:
//   - the line before is a kernel line (stamped, or tagged "kernel" in syslog) and the piece
//     has no prefix of its own and the same mail-quote depth;
//   - the text is wrapped: its longest kernel line is between 60 and 200 columns (wrapWidth),
//     and the piece's first word would not have fitted on the line before (the reflow test:
//     a writer who wraps at W moves a word down only when it would pass W);
//   - the piece does not open something else: a shell prompt or the first line of command
//     output that the segmenter knows.
//
// A terminal wraps in the middle of a word: when a quarter of the kernel lines are exactly the
// width long (a hard wrap) and the line before is too, the pieces are joined without a space.

// minWrap and maxWrap bound the widths at which pasted text is wrapped: below 60 columns no
// mail client or terminal wraps, and a text with longer kernel lines than 200 was not
// wrapped by either.
const (
	minWrap = 60
	maxWrap = 200
)

// wrapInfo is the width of the text's kernel lines, computed on first use.
type wrapInfo struct {
	done  bool
	width int  // the width the kernel lines were wrapped at (0: not wrapped)
	hard  bool // a quarter of the kernel lines are exactly width long: a terminal's hard wrap
}

// wrapWidth measures the raw length of every kernel line of the text once. The width is
// where the lengths pile up (the 80th percentile of lines of 40 columns or more), not the
// longest line: mail clients let an unbreakable run or a line of many spaces pass the limit,
// and one such line must not hide the wrap of the others. A text in which more than a tenth
// of the kernel lines pass that width by more than 12 columns was not wrapped at all.
func (d *doc) wrapWidth() wrapInfo {
	if d.wrap.done {
		return d.wrap
	}
	d.wrap.done = true
	var hist [maxWrap + 2]int // count of kernel lines by raw length; the last slot is "longer"
	var cut [maxWrap + 1]int  // of those, how many an unprefixed line follows (a wrapped piece)
	total, prevLen := 0, 0    // prevLen: the raw length of the line before when it was a kernel line
	text := d.wholeText()
	for no := 1; len(text) > 0; no++ {
		raw := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			raw, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		raw = strings.TrimSuffix(raw, "\r")
		if len(raw) >= 4 && (raw[0] == '<' || raw[len(raw)-1] == '>') {
			// A page's "<br>" is no column of the line: measured as parseLine reads it
			// (Line.lastRaw), or a terminal's hard wrap is 4 columns off (fix17a).
			raw = stripHTMLLineTags(raw)
		}
		if prevLen > 0 && strings.TrimSpace(raw) != "" && len(raw) <= 4*maxWrap {
			if l, _, _ := parseLine(no, raw); !l.Kernel && !l.Syslog {
				cut[prevLen]++
			}
		}
		prevLen = 0
		if len(raw) < 40 {
			continue
		}
		if len(raw) <= maxWrap {
			if l, _, _ := parseLine(no, raw); !l.Kernel {
				continue
			}
			hist[len(raw)]++
			prevLen = len(raw)
		} else {
			// Longer than any wrap: counted without the parse, as the text's evidence
			// that it was not wrapped (a prose line counts too, which only makes the
			// test more careful).
			hist[maxWrap+1]++
		}
		total++
	}
	if total == 0 {
		return d.wrap
	}
	// A terminal's hard wrap cuts every line longer than its width at exactly the width:
	// several kernel lines of one longest length, each followed by an unprefixed piece, are
	// that width, however short the other lines are.
	for n := maxWrap; n >= minWrap; n-- {
		if hist[n] > 0 {
			if hist[n] >= 3 && cut[n] >= 2 && hist[maxWrap+1] == 0 {
				d.wrap.width, d.wrap.hard = n, true
				return d.wrap
			}
			break
		}
	}
	w, seen := 0, 0
	for n := range hist {
		seen += hist[n]
		if seen*5 >= total*4 {
			w = n
			break
		}
	}
	if w > maxWrap {
		return d.wrap
	}
	over := 0
	for n := w + 13; n < len(hist); n++ {
		over += hist[n]
	}
	if over*10 > total {
		return d.wrap
	}
	d.wrap.width, d.wrap.hard = w, hist[w] >= 2 && hist[w]*4 >= total
	return d.wrap
}

// unwrapLast joins the window's last line to the one before it when it is a wrapped piece
// of it (see above), and reports whether it did. The joined line keeps the first piece's
// number; the piece's own line is accounted for as part of it.
func (d *doc) unwrapLast() bool {
	n := len(d.ls)
	if n < 2 {
		return false
	}
	prev, cur := &d.ls[n-2], &d.ls[n-1]
	if text, ok := netconsolePiece(prev, cur); ok {
		sep := " "
		if strings.HasPrefix(text, ",") {
			sep = ""
		}
		d.joinLast(strings.TrimRight(prev.Text, " ") + sep + text)
		return true
	}
	if !prev.Kernel || cur.Kernel || cur.Syslog || cur.Quote != prev.Quote || isBlank(cur.Text) || isBlank(prev.Text) {
		return false
	}
	word := firstField(cur.Text)
	if opensSomething(cur.Text, word) {
		return false
	}
	wi := d.wrapWidth()
	if (wi.width < minWrap || wi.width > maxWrap) && !openKillLine(prev.Text, cur.Text) {
		return false
	}
	if prev.lastRaw+1+len(word) <= wi.width && !openKillLine(prev.Text, cur.Text) {
		return false // the word would have fitted: the line ended there
	}
	// A break at a space lost the space; a terminal's hard wrap cut a word in two.
	sep := " "
	if wi.hard && prev.lastRaw == wi.width && !strings.HasSuffix(prev.Text, " ") && !strings.HasPrefix(cur.Text, " ") {
		sep = ""
	}
	d.joinLast(strings.TrimRight(prev.Text, " ") + sep + strings.TrimLeft(cur.Text, " "))
	return true
}

// joinLast makes the window's last line a piece of the one before it, whose text becomes text.
func (d *doc) joinLast(text string) {
	n := len(d.ls)
	prev, cur := &d.ls[n-2], &d.ls[n-1]
	prev.Text = text
	prev.lastRaw = cur.lastRaw
	prev.Pieces++
	d.ls = d.ls[:n-1]
	d.used = d.used[:n-1]
	if d.used[n-2] {
		d.relog(n - 2)
	}
}

// netconsolePiece: netconsole sends each printk fragment as a packet of its own (a
// KERN_CONT piece, or a line printk flushed in parts: warn_alloc's "%s: " comm, then "page
// allocation stalls for ...", then ", mode:..."; drivers/net/netconsole.c write_msg), and the
// syslog daemon that receives them makes each a record with its own stamp, without the
// kernel's "[uptime]" and without a tag (corpus 930). Such a record continues the stamped
// kernel record before it when it came in the same second, from the same quoting, and either
// that record was left open (it ends in a space or a colon: "rsync: ") or the piece opens
// with the comma of a list it continues (", mode:..."). rsyslog takes a packet's first word
// for the host name when the packet has none ("2017-01-17T11:08:33.754574+03:00 page
// allocation stalls for ..."): a host other than the kernel record's is that word, put back.
// It returns the piece's text.
func netconsolePiece(prev, cur *Line) (string, bool) {
	if !prev.Kernel || !prev.Syslog || cur.Kernel || !cur.Syslog || cur.Tag != "" || cur.Quote != prev.Quote || isBlank(cur.Text) {
		return "", false
	}
	if stampSecond(prev.Stamp) == "" || stampSecond(prev.Stamp) != stampSecond(cur.Stamp) {
		return "", false
	}
	text := strings.TrimSpace(cur.Text)
	open := strings.HasSuffix(prev.Text, " ") || strings.HasSuffix(prev.Text, ":")
	if !open && !strings.HasPrefix(text, ",") {
		return "", false
	}
	if cur.Host != "" && cur.Host != prev.Host {
		text = cur.Host + " " + text
	}
	return text, true
}

// stampSecond is a syslog stamp cut to the second ("2017-01-17T11:08:33.754562+03:00" →
// "2017-01-17T11:08:33"; "Jan 17 11:08:33" as it is).
func stampSecond(s string) string {
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return s[:i]
	}
	return s
}

// relog brings an already logged line (read on the fast path before its piece arrived) up to
// date: its record gets the whole text, and when the whole line starts a report it is
// handed back to the segmenter, which then reads the report from it.
func (d *doc) relog(i int) {
	l := &d.ls[i]
	last := d.tl.Log.Len() - 1
	if last < 0 || d.logNo != l.No {
		return
	}
	if n := len(d.linkUps); n > 0 && d.linkUps[n-1].rec == last {
		d.linkUps = d.linkUps[:n-1] // its message changes or it goes: asked again below
	}
	if mayStartReport(l.Text) {
		d.tl.Log.Truncate(last)
		d.logCount--
		d.used[i] = false
		if d.rewind < 0 || i < d.rewind {
			d.rewind = i
		}
		return
	}
	d.tl.Log.SetMessage(last, l.Text)
	if strings.Contains(l.Text, linkUpWords) {
		d.noteLinkUp(last, l.Text)
	}
	// The gates of the readers that search the log's records (appendLog) saw the line
	// before its piece arrived: ask the whole line (a relog is rare, the search cheap).
	d.lowMemKillLogged = d.lowMemKillLogged || strings.Contains(l.Text, needleText[needleLowMemKill]) || strings.Contains(l.Text, lmkBareKillWords)
	d.cmaLogged = d.cmaLogged || strings.Contains(l.Text, needleText[needleCMAFail])
	if !d.rxFIFOLogged {
		_, d.rxFIFOLogged = kernel.IsDriverRxFIFOOverflow(l.Text)
	}
	d.relogExtras(l)
	d.kernelNetTableRelog(l.No, l.Text)
	d.host.scan(l) // the whole line may name the kernel ("... Not" / "tainted 4.4.0 #1")
}

// opensSomething reports whether a line without a prefix starts something of its own rather
// than continuing the kernel line before it: a shell prompt, a Markdown fence, or the first
// line of command output the segmenter reads.
func opensSomething(t, word string) bool {
	s := strings.TrimSpace(t)
	switch word {
	case "$", "#", "%", "```", "~~~", "Node", "MemTotal:", "Inter-|", "total", "Mem:", "Swap:",
		"procs", "Kernel", "Iface", "Proto", "Netid", "State", "NIC", "Ring", "top", "Tasks:", "PID":
		return true
	}
	if strings.HasSuffix(word, "$") || strings.HasSuffix(word, "#") || strings.HasSuffix(word, ">") && !strings.HasPrefix(word, "[<") {
		return true // user@host:~$ and the like
	}
	switch word {
	case "Re:", "From:", "To:", "Cc:", "Subject:", "Date:", "Message-ID:", "In-Reply-To:", "On":
		return true // a mail's headers and its "On ... wrote:"
	}
	// A record's stamp that lost its ']' (a paste cut inside it) starts a record of its own.
	return strings.HasPrefix(s, "root@") || strings.HasPrefix(s, "```") || cutStamp(s)
}

// unwrapAll joins the wrapped pieces of a whole text's Lines, as the streamed windows do line
// by line (the whole-text loop of the tests, and parsers given a text of their own).
func (d *doc) unwrapAll() {
	ls, used := d.ls, d.used
	d.ls, d.used = make([]Line, 0, len(ls)), make([]bool, 0, len(ls))
	for k := range ls {
		d.ls = append(d.ls, ls[k])
		d.used = append(d.used, used[k])
		// A line that rsyslog's #012 escapes split is a record of its own, as the
		// streamed window reads it (grow joins only a line that gave one Line).
		if k+1 < len(ls) && ls[k+1].No == ls[k].No || ls[k].Cont {
			continue
		}
		d.unwrapLast()
	}
}

// nextMayJoin reports whether the line after the window could be a wrapped piece of its last
// line: the window then stays open for it, so that a piece is joined in a window exactly
// when the whole-text loop joins it.
func (d *doc) nextMayJoin() bool {
	if d.pos >= len(d.text) || !d.ls[len(d.ls)-1].Kernel {
		return false
	}
	end, _ := d.lineEnd(d.pos)
	l, _, _ := parseLine(d.no+1, d.text[d.pos:end])
	if _, ok := netconsolePiece(&d.ls[len(d.ls)-1], &l); ok {
		return true
	}
	return !l.Kernel && !l.Syslog && !isBlank(l.Text)
}
