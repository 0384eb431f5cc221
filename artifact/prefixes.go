package artifact

import "strings"

// stripOtherPrefixes removes the log prefixes that stripSyslog and stripKernelStamp do not
// know, leaving what they know in front for them (issue 16, "kernel-log prefixes"):
//
//	"    [  12.345678] ..."                               a log indented in a post or a mail
//	"[Mon Jan  2 03:04:05 2024] ..."                      dmesg -T
//	"Mon Jan  2 03:04:05 2024 kern.warn kernel: [ 1.2] ..."  OpenWrt logread
//	"Tue 2024-01-02 03:04:05 UTC host kernel: ..."        journalctl -o short-full
//	"2024-01-02 03:04:05 host kernel: ..."                syslog-ng/rsyslog with a space
//	"Jan  2 03:04:05 kernel: ..."                         syslog without a host name
//	"07-13 08:41:51.341 <4>[309805.658142s][pid:1361,cpu5,comm]..."  Android (logcat date,
//	                                                      kernel stamp in seconds with an 's',
//	                                                      Huawei's caller block)
//
// It runs on every line of a syslog, so each form is ruled out by its first bytes.
func stripOtherPrefixes(s string, l *Line) string {
	if len(s) == 0 {
		return s
	}
	if s[0] == ' ' || s[0] == '\t' {
		t := strings.TrimLeft(s, " \t")
		if startsLogPrefix(t) {
			s = t
		} else {
			return s
		}
	}
	switch c := s[0]; {
	case c == '[':
		if t, ok := stripBracketDate(s, l); ok {
			return t
		}
	case c >= 'A' && c <= 'Z':
		if len(s) > 4 && s[3] == ' ' && isWeekday(s[:3]) {
			return stripWeekdayDate(s, l)
		}
		if len(s) > 20 && s[3] == ' ' && isMonth(s[:3]) {
			// "Jan  2 03:04:05 kernel: ": syslog without a host name (a local file
			// written with the host left out, or a paste that cut it).
			f := strings.Fields(s[:min(len(s), 40)])
			if len(f) >= 4 && strings.Count(f[2], ":") == 2 && strings.HasSuffix(f[3], ":") && !strings.HasSuffix(f[3], "]:") && f[3] == "kernel:" {
				k := strings.Index(s, " kernel:")
				if t, ok := syslogTag(s[k+1:], s[:k], "", l); ok {
					return t
				}
			}
		}
	case c >= '0' && c <= '9':
		if len(s) > 19 && s[4] == '-' && s[7] == '-' && s[10] == ' ' && isDigits(s[:4]) && s[13] == ':' {
			// "2024-01-02 03:04:05[.frac][tz] host tag: "
			end := 19
			for end < len(s) && s[end] != ' ' {
				end++
			}
			if t, ok := syslogHostTag(s[end:], s[:end], l); ok {
				return t
			}
		}
		if len(s) > 19 && s[2] == '-' && s[5] == ' ' && s[8] == ':' && s[11] == ':' && isDigits(s[:2]) {
			return stripAndroid(s, l)
		}
	case c == '<':
		if len(s) > 4 && s[2] == '>' && s[3] == '[' && strings.Contains(s[:min(len(s), 24)], "s]") {
			if t, ok := androidStamp(s, l); ok {
				return t
			}
		}
	}
	return s
}

// startsLogPrefix: t begins like a dmesg stamp, a priority, a syslog or a journal date.
func startsLogPrefix(t string) bool {
	if len(t) < 4 {
		return false
	}
	switch c := t[0]; {
	case c == '[':
		return t[1] == ' ' || t[1] >= '0' && t[1] <= '9' || isWeekday(t[1:4])
	case c == '<':
		return t[2] == '>' && t[1] >= '0' && t[1] <= '7'
	case c >= 'A' && c <= 'Z':
		return len(t) > 4 && t[3] == ' ' && (isMonth(t[:3]) || isWeekday(t[:3]))
	case c >= '0' && c <= '9':
		return len(t) > 10 && (t[4] == '-' && t[7] == '-' || t[2] == '-' && t[5] == ' ')
	}
	return false
}

func isWeekday(s string) bool {
	switch s {
	case "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun":
		return true
	}
	return false
}

// stripBracketDate removes dmesg -T's "[Mon Jan  2 03:04:05 2024] ".
func stripBracketDate(s string, l *Line) (string, bool) {
	if len(s) < 26 || !isWeekday(s[1:4]) {
		return s, false
	}
	end := strings.IndexByte(s, ']')
	if end < 20 || end > 32 {
		return s, false
	}
	l.Kernel = true
	l.Stamp = s[1:end]
	return strings.TrimPrefix(s[end+1:], " "), true
}

// stripWeekdayDate removes OpenWrt logread's "Mon Jan  2 03:04:05 2024 kern.warn kernel: "
// and journalctl short-full's "Tue 2024-01-02 03:04:05 UTC host kernel: ".
func stripWeekdayDate(s string, l *Line) string {
	f := strings.Fields(s[:min(len(s), 64)])
	if len(f) < 5 {
		return s
	}
	var stampWords int
	switch {
	case isMonth(f[1]) && len(f[4]) == 4 && isDigits(f[4]): // Mon Jan 2 03:04:05 2024
		stampWords = 5
	case len(f[1]) == 10 && f[1][4] == '-' && strings.Count(f[2], ":") == 2: // Tue 2024-01-02 03:04:05 UTC
		stampWords = 4
	default:
		return s
	}
	rest := s
	for k := 0; k < stampWords; k++ {
		rest = strings.TrimLeft(rest, " ")
		rest = rest[strings.IndexByte(rest, ' ')+1:]
	}
	stamp := strings.TrimRight(s[:len(s)-len(rest)], " ")
	if stampWords == 5 {
		// logread: "kern.warn kernel: " (facility.level, then the tag)
		rest = strings.TrimLeft(rest, " ")
		sp := strings.IndexByte(rest, ' ')
		if sp <= 0 || strings.IndexByte(rest[:sp], '.') < 0 {
			return s
		}
		fac := rest[:sp]
		t, ok := syslogTag(rest[sp+1:], stamp, "", l)
		if !ok {
			return s
		}
		if strings.HasPrefix(fac, "kern.") {
			l.Kernel = true
		}
		return t
	}
	if t, ok := syslogHostTag(rest, stamp, l); ok {
		return t
	}
	return s
}

// stripAndroid removes "07-13 08:41:51.341 " and the kernel stamp and caller block that
// follow it on Android ("<4>[309805.658142s][pid:1361,cpu5,comm]").
func stripAndroid(s string, l *Line) string {
	rest := strings.TrimLeft(s[18:], "0123456789") // the milliseconds
	if t, ok := androidStamp(strings.TrimLeft(rest, " "), l); ok {
		return t
	}
	return s
}

// androidStamp reads "<4>[309805.658142s][pid:1361,cpu5,comm]".
func androidStamp(rest string, l *Line) (string, bool) {
	if len(rest) >= 3 && rest[0] == '<' && rest[2] == '>' && rest[1] >= '0' && rest[1] <= '7' {
		l.Priority = int(rest[1] - '0')
		rest = rest[3:]
	}
	if len(rest) < 4 || rest[0] != '[' {
		return "", false
	}
	end := strings.IndexByte(rest, ']')
	inner := strings.TrimSuffix(strings.TrimSpace(rest[1:max(end, 1)]), "s")
	dot := strings.IndexByte(inner, '.')
	if end < 0 || dot <= 0 || !isDigits(inner[:dot]) || !isDigits(inner[dot+1:]) {
		return "", false
	}
	secs, _ := parseDigits(inner[:dot])
	frac := inner[dot+1:]
	var us int64
	for k := 0; k < 6; k++ {
		us *= 10
		if k < len(frac) {
			us += int64(frac[k] - '0')
		}
	}
	l.UptimeUsec = secs*1_000_000 + us
	l.Kernel = true
	rest = rest[end+1:]
	if strings.HasPrefix(rest, "[pid:") {
		if e := strings.IndexByte(rest, ']'); e > 0 {
			l.Caller = rest[1:e]
			rest = rest[e+1:]
		}
	}
	return strings.TrimPrefix(rest, " "), true
}

// syslogHostTag reads "host tag[pid]: " after a stamp.
func syslogHostTag(rest, stamp string, l *Line) (string, bool) {
	rest = strings.TrimLeft(rest, " ")
	sp := strings.IndexByte(rest, ' ')
	if sp <= 0 {
		return "", false
	}
	return syslogTag(rest[sp+1:], stamp, rest[:sp], l)
}

// syslogTag reads "tag[pid]: " and sets the line's syslog facts.
func syslogTag(rest, stamp, host string, l *Line) (string, bool) {
	colon := strings.IndexByte(rest, ':')
	if colon <= 0 || strings.IndexByte(rest[:colon], ' ') >= 0 {
		return "", false
	}
	tag := rest[:colon]
	if b := strings.IndexByte(tag, '['); b > 0 {
		tag = tag[:b]
	}
	l.Syslog, l.Stamp, l.Host, l.Tag = true, stamp, host, tag
	if tag == "kernel" {
		l.Kernel = true
	}
	return strings.TrimPrefix(rest[colon+1:], " "), true
}
