package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// A tracker's title over its own log (pre-round 15, Launchpad and the Debian BTS). A bug's
// title commonly quotes the kernel message its report logs ("linux-image-4.19.0-5-amd64:
// nf_conntrack: table full, dropping packet on a busy NAT gateway"), and a tracker's page
// repeats it: Launchpad's page title ("Bug #1827465 “…” : Bugs : linux package : Ubuntu")
// and its notification mails' "Title:" field and "Subject: [Bug N] Re: …" header, the
// BTS's page heading under "Debian Bug report logs - #N" and every message's "Subject:
// Bug#N: …" and "Subject: Re: Bug#N: …". Read as log records, each repetition counted one
// more event ("3× nf_conntrack: table full" for one logged line) and put the title's words in
// the record. When the text holds the message's log line (stamped, or tagged "kernel:")
// the title is that event's name: prose. A title whose message is logged nowhere else is
// still read as before (the text's only statement of the event).

// trackerTitle reports whether line i is a title of the text: a mail's "Subject:" header,
// Launchpad's page title, the line under Launchpad's "Title:" label or under the BTS's
// "Debian Bug report logs - #N" heading, or the text's own first line set apart (titleAt).
func (d *doc) trackerTitle(i int) bool {
	t := strings.TrimSpace(d.ls[i].Text)
	if strings.HasPrefix(t, "Subject:") || strings.HasPrefix(t, "Bug #") && strings.Contains(t, " : Bugs : ") {
		return true
	}
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		p := strings.TrimSpace(d.ls[j].Text)
		if p == "" {
			continue
		}
		if p == "Title:" || strings.HasPrefix(p, "Debian Bug report logs - #") {
			return true
		}
		break
	}
	_, ok := d.titleAt(i)
	return ok
}

// maxTitleLogSearch bounds the occurrences of a title's message looked at.
const maxTitleLogSearch = 64

// messageLogLine reports whether text holds msg on a log line other than the title's own
// (a line that holds title, as a flattened paste or a chat's "[10:14] <nick> " line does):
// after a dmesg stamp ("[ 1234.567890] ", dmesg -T's "[Mon Aug 10 09:02:11 2020] "), a
// syslog or journal "kernel:" tag, or a "<N>" priority, with any mail quote or indentation
// before it.
func messageLogLine(text, msg, title string) bool {
	for k, n := 0, 0; n < maxTitleLogSearch; n++ {
		j := strings.Index(text[k:], msg)
		if j < 0 {
			return false
		}
		at := k + j
		start := strings.LastIndexByte(text[:at], '\n') + 1
		end := strings.IndexByte(text[at:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += at
		}
		if !strings.Contains(text[start:end], title) && logPrefixBefore(text[start:at]) {
			return true
		}
		k = at + len(msg)
	}
	return false
}

// logPrefixBefore: the text of a line before a message is a log line's prefix.
func logPrefixBefore(p string) bool {
	p = strings.TrimLeft(p, "> \t")
	if strings.Contains(p, "kernel:") {
		return true
	}
	if len(p) < 3 {
		return false
	}
	switch p[0] {
	case '[':
		if c := p[1]; c == ' ' || c >= '0' && c <= '9' {
			return titleStamp(p)
		}
		for _, d := range [...]string{"Mon ", "Tue ", "Wed ", "Thu ", "Fri ", "Sat ", "Sun "} {
			if strings.HasPrefix(p[1:], d) {
				return strings.IndexByte(p, ']') > 0
			}
		}
	case '<':
		return p[1] >= '0' && p[1] <= '7' && p[2] == '>'
	}
	return false
}

// titleStamp: p starts with printk's "[%5lu.%06lu]": blanks and digits around one '.' (a
// chat's "[10:14]" or a list's "[1]" is none).
func titleStamp(p string) bool {
	e := strings.IndexByte(p, ']')
	if e < 3 {
		return false
	}
	in := strings.TrimLeft(p[1:e], " ")
	sec, frac, ok := strings.Cut(in, ".")
	return ok && sec != "" && frac != "" && isDigits(sec) && isDigits(frac)
}

// titleOverLog reports whether line i, which names kernel message msg, is a title of the
// text (trackerTitle) whose message the text logs on a line of its own.
func (d *doc) titleOverLog(i int, msg string) bool {
	return msg != "" && d.trackerTitle(i) && messageLogLine(d.text, msg, strings.TrimSpace(d.ls[i].Text))
}

// A page whose title is a kernel message in quotes, alone on its first line, and whose body
// explains when the kernel prints it ("TCP: too many of orphaned sockets" over "…を検出した
// 際に出力されるメッセージ", "This message is printed when …"): an explainer of the message,
// not a line this host logged (fix27d). A question titled with its message says what the
// asker saw, with no such definition.
var (
	jaMessageDefined = []string{"出力されるメッセージ", "表示されるメッセージ", "記録されるメッセージ", "出力されるログ", "出るメッセージです"}
	reMessageDefined = lazyre.New(`(?i)\b(?:this|the)\s+(?:message|warning|error)\s+(?:is|gets)\s+(?:printed|logged|emitted|shown|displayed|output)\s+(?:when|whenever|if)\b`)
)

// titleDefined reports whether line i is such a title: its trimmed text opens and closes
// with a quote, no line above it holds anything, and one of the next 12 lines defines the
// message. Gate: a quote byte first; runs once per quoted message line.
func (d *doc) titleDefined(i int) bool {
	t := strings.TrimSpace(d.ls[i].Text)
	if len(t) < 3 || !(t[0] == '"' && t[len(t)-1] == '"' || strings.HasPrefix(t, "「") && strings.HasSuffix(t, "」") || strings.HasPrefix(t, "“") && strings.HasSuffix(t, "”")) {
		return false
	}
	for j := 0; j < i; j++ {
		if !isBlank(d.ls[j].Text) {
			return false
		}
	}
	for j := i + 1; j < len(d.ls) && j <= i+12; j++ {
		u := d.ls[j].Text
		if cjkNonASCII(u) && cjkContainsAny(u, jaMessageDefined) || reMessageDefined.MatchString(u) {
			return true
		}
	}
	return false
}
