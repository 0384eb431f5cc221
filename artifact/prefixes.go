package artifact

import (
	"strings"
	"unicode/utf8"
)

// stripOtherPrefixes removes the log prefixes that stripSyslog and stripKernelStamp do not
// know, leaving what they know in front for them (issue 16, "kernel-log prefixes"):
//
//	"    [  12.345678] ..."                               a log indented in a post or a mail
//	"[Mon Jan  2 03:04:05 2024] ..."                      dmesg -T (any locale)
//	"[Nov29 12:00] ..."                                   dmesg -H, a minute's first record
//	"6,30574067,3816544225424,-;..."                      a raw /dev/kmsg record
//	"June 29 14:06:59 host kernel: ..."                   syslog with the month spelled out
//	"Mon Jan  2 03:04:05 2024 kern.warn kernel: [ 1.2] ..."  OpenWrt logread
//	"Tue 2024-01-02 03:04:05 UTC host kernel: ..."        journalctl -o short-full
//	"2024-01-02 03:04:05 host kernel: ..."                syslog-ng/rsyslog with a space
//	"Jan  2 03:04:05 kernel: ..."                         syslog without a host name
//	"2023-12-04T10:49:30.127Z In(05) vcpu-5 - Guest: <6>[39291577.009360] ..."  a guest's
//	                                                      kernel record in VMware's vmware.log
//	"10.1.1.2: kern: warning: [2022-01-25T10:35:59.108125566Z]: ..."  talosctl dmesg
//	"07-13 08:41:51.341 <4>[309805.658142s][pid:1361,cpu5,comm]..."  Android (logcat date,
//	                                                      kernel stamp in seconds with an 's',
//	                                                      Huawei's caller block)
//	"machine # [   12.345678] ..."                        the NixOS test driver's serial
//	                                                      console of a VM (wrappers.go)
//
// It runs on every line of a syslog, so each form is ruled out by its first bytes.
func stripOtherPrefixes(s string, l *Line) string {
	if len(s) == 0 {
		return s
	}
	// "| " quoting (some mail clients and forums quote with a bar), but not a Markdown
	// table row, which ends with one.
	if s[0] == '|' && len(s) > 1 {
		var q int
		s, q = stripBarQuote(s)
		l.Quote += q
		if s == "" {
			return s
		}
	}
	// A line of output quoted whole in prose, on a line of its own ("\"48108 segments
	// retransmitted\"", "\"TCPLostRetransmit: 5164\"": netstat -s's lines a reporter set in
	// quotes, g259): the quotes go when what they hold reads as output (outputAfterMarker).
	if s[0] == '"' {
		s = stripWholeQuote(s) // fix65d_quoted.go
	}
	// A Markdown list item around each line of a log or a command's output ("- <4>[12345.342532]
	// systemd-journal invoked oom-killer: ...", a page that rendered the paste as a bulleted
	// list; corpus 644; "- TCPBacklogDrop: 12", "* eth0: rx_missed_errors: 3"): the marker
	// goes when a word follows it. "- " before white space (a unified diff's removed
	// indented line) and "--", "-1", "*4kB" keep theirs.
	// Behind one blank, as Confluence's copy of a list puts it (" * line"): the marker goes
	// with the blank.
	n := len(s)
	if s[0] == ' ' {
		if i := indentedMarker(s); i > 0 {
			if t := stripListMarker(s[i:]); len(t) < len(s)-i {
				s = t
			}
		}
	}
	s = stripListMarker(s)
	if len(s) < n {
		s = stripSecondMarker(s) // fix56d_markers.go
	} else if len(s) > 4 && (s[0] == ' ' || s[0] == '\t') {
		s = stripDeepMarker(s) // fix56d_markers.go
	}
	if len(s) < n {
		// dmesg --time-format iso's stamp behind the marker: the wrappers that take it ran
		// before the marker went, as for an indent (below).
		if u, ok := stripDmesgISO(s, l); ok {
			s = u
		}
	}
	// A syslog line whose date and host the paste cut, "kernel: [85531.011000] CPU: 1 ..."
	// (corpus 588: a grep of /var/log/messages trimmed to the tag): the tag says the
	// kernel wrote it, and the dmesg stamp after it is the record's.
	// Indented as a Markdown code block too ("    kernel: [361299.8] ...").
	// A kernel without printk stamps (RHEL5's default) leaves only the tag: "kernel: DMA
	// free:3396kB min:3452kB", "kernel: 5244928 pages of RAM" — taken as the kernel's when
	// what follows is a show_mem line, which only the kernel prints.
	// Any other record under the bare tag ("kernel: Task in /kubepods/... killed as a
	// result of limit", "kernel:  oom_kill_process+0x2bc/0x2c0": an rsyslog excerpt of a
	// kernel without printk stamps, cut to the tag) is the kernel's too when it reads as a
	// record, not as a form's "kernel:" field (kernelTagRecord).
	if k := strings.TrimLeft(s, " \t"); len(k) > 12 && k[0] == 'k' && wallKernelRecord(k) { // syslogd's console broadcast (syslogwall.go)
		if t, ok := syslogTag(k, "", "", l); ok {
			return t
		}
	}
	if k := elidedSyslogHead(strings.TrimLeft(s, " \t")); len(k) > 12 && k[0] == 'k' && strings.HasPrefix(k, "kernel: ") && (startsLogPrefix(k[len("kernel: "):]) || bareStampLen(k[len("kernel: "):]) > 0 || showMemKind(strings.TrimSpace(k[len("kernel: "):])) != "" || kernelTagRecord(k[len("kernel: "):])) {
		if t, ok := syslogTag(k, "", "", l); ok {
			return t
		}
	}
	if len(s) > 20 && (s[0] == 'K' || s[0] == 'k') { // a log viewer's facility, severity, program columns (logviewcolumns.go)
		if t, ok := stripLogViewColumns(s, l); ok {
			return t
		}
	}
	// A kernel record under its facility.level only, "kern.warn: [346475.044071] ...":
	// busybox syslogd's and logread's "kern.warn kernel: " with date and tag cut, as a
	// router's web log view prints it. The level goes, the dmesg stamp after it is read.
	if len(s) > 12 && s[0] == 'k' && strings.HasPrefix(s, "kern.") {
		if t, ok := stripFacilityLevel(s); ok {
			return t
		}
	}
	// Markdown's backslash escapes, left in text copied from a rendered page's source or a
	// PDF converted to Markdown: "\[ 5.168093\] ... 0\*4kB".
	if strings.IndexByte(s, '\\') >= 0 && (strings.Contains(s, "\\[") || strings.Contains(s, "\\*") || strings.Contains(s, "\\_")) {
		s = unescapeMarkdownLine(s)
	}
	if s[0] == ' ' || s[0] == '\t' {
		t := strings.TrimLeft(s, " \t")
		if startsLogPrefix(t) {
			s = t
			// dmesg --time-format iso's stamp is taken among the wrappers, which run before
			// the indent goes: indented as a Markdown code block, its record is read here.
			if u, ok := stripDmesgISO(s, l); ok {
				s = u
			}
		} else {
			return s
		}
	}
	if c := s[0] | 0x20; c >= 'a' && c <= 'z' {
		// After a list marker or a container's CRI prefix too, so here and not among
		// stripLogWrappers' forms.
		if t, ok := stripTestDriverSerial(s, l); ok {
			return t
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
		if sp := strings.IndexByte(s[:min(len(s), 10)], ' '); sp > 3 && isLongMonth(s[:sp]) {
			// "June 29 14:06:59 host kernel: ": a syslog template with the month spelled out.
			f, n := firstFields4(s[:min(len(s), 40)])
			if n >= 4 && isDigits(f[1]) && strings.Count(f[2], ":") == 2 {
				k := strings.Index(s, f[2]) + len(f[2])
				if t, ok := syslogHostTag(s[k:], s[:k], l); ok {
					return t
				}
			}
		}
		if len(s) > 20 && s[3] == ' ' && isMonth(s[:3]) && mayBeHostless(s[:min(len(s), 40)]) {
			// "Jan  2 03:04:05 kernel: ": syslog without a host name (a local file
			// written with the host left out, or a paste that cut it).
			f, n := firstFields4(s[:min(len(s), 40)])
			if n >= 4 && strings.Count(f[2], ":") == 2 && strings.HasSuffix(f[3], ":") && !strings.HasSuffix(f[3], "]:") && f[3] == "kernel:" {
				// The tag's position from the fields themselves: any white space (a tab,
				// a vertical tab) may separate them.
				if k := strings.Index(s, f[2]) + len(f[2]); k < len(s) {
					if j := strings.Index(s[k:], "kernel:"); j >= 0 {
						if t, ok := syslogTag(s[k+j:], strings.TrimSpace(s[:k]), "", l); ok {
							return t
						}
					}
				}
			}
		}
	case c >= 'a' && c <= 'z':
		if t, ok := stripTalosKmsg(s, l); ok {
			return t
		}
	case c >= '0' && c <= '9' || c >= 'A' && c <= 'F':
		if c <= '9' {
			if t, ok := stripTalosKmsg(s, l); ok {
				return t
			}
		}
		if t, ok := stripKmsgRecord(s, l); ok {
			return t
		}
		if t, ok := stripUnisocSeq(s, l); ok {
			return t
		}
		if t, ok := stripTAIStamp(s, l); ok {
			return t
		}
		if t, ok := stripVMwareGuest(s, l); ok {
			return t
		}
		if c > '9' {
			return s
		}
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

// talosLevels: the syslog levels as Talos names them (pkg/kmsg's Priority.String, the names
// of syslog(3)), in the order of their numbers.
var talosLevels = [...]string{"emerg", "alert", "crit", "err", "warning", "notice", "info", "debug"}

// stripTalosKmsg removes the prefix Talos Linux puts on each kernel record it serves:
// machined's Dmesg (internal/app/machined/internal/server/v1alpha1/v1alpha1_server.go)
// formats a /dev/kmsg record as "%s: %7s: [%s]: %s" (facility, level right-aligned to seven
// columns, the record's time in RFC 3339 with nanoseconds, the message), and talosctl dmesg
// puts the node's address or name and ": " in front when it reads through the API. Only the
// kern facility is the kernel's; user, daemon and the others are programs that wrote to
// /dev/kmsg, read as other programs' log lines. The first field decides: "kern:" or a node
// followed by "kern:" (an IPv6 node has colons of its own, so the node is the first
// space-separated field, not the text up to the first colon).
func stripTalosKmsg(s string, l *Line) (string, bool) {
	sp := strings.IndexByte(s[:min(len(s), 64)], ' ')
	if sp < 2 || s[sp-1] != ':' {
		return s, false
	}
	node, rest := "", s[sp+1:]
	fac := s[:sp-1]
	if !isTalosFacility(fac) {
		node = fac
		k := strings.IndexByte(rest[:min(len(rest), 16)], ' ')
		if k < 2 || rest[k-1] != ':' || !isTalosFacility(rest[:k-1]) {
			return s, false
		}
		fac, rest = rest[:k-1], rest[k+1:]
	}
	rest = strings.TrimLeft(rest, " ")
	colon := strings.IndexByte(rest[:min(len(rest), 8)], ':')
	if colon < 3 {
		return s, false
	}
	prio := -1
	for i, lv := range talosLevels {
		if rest[:colon] == lv {
			prio = i
		}
	}
	// ": [2022-01-25T10:35:59.108125566Z]: "
	rest = rest[colon:]
	if prio < 0 || !strings.HasPrefix(rest, ": [") {
		return s, false
	}
	end := strings.Index(rest[:min(len(rest), 48)], "]: ")
	if end < 13 || rest[7] != '-' || rest[13] != 'T' || !isDigits(rest[3:7]) {
		return s, false
	}
	l.Stamp, l.Host, l.Priority = rest[3:end], node, prio
	if fac == "kern" {
		l.Kernel = true
	} else {
		l.Syslog, l.Tag = true, fac
	}
	return rest[end+3:], true
}

// isTalosFacility: the facility names of pkg/kmsg's Facility.String (syslog(3)'s).
func isTalosFacility(f string) bool {
	switch f {
	case "kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron", "authpriv", "ftp",
		"local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7":
		return true
	}
	return false
}

// stripKmsgRecord removes the prefix of a record read raw from /dev/kmsg
// ("6,30574067,3816544225424,-;message": level and facility, sequence, microseconds since
// boot, flags; Documentation/ABI/testing/dev-kmsg).
func stripKmsgRecord(s string, l *Line) (string, bool) {
	semi := strings.IndexByte(s[:min(len(s), 64)], ';')
	if semi < 7 {
		return s, false
	}
	parts := strings.Split(s[:semi], ",")
	if len(parts) < 4 || !isDigits(parts[0]) || !isDigits(parts[1]) || !isDigits(parts[2]) {
		return s, false
	}
	pri, _ := parseDigits(parts[0])
	us, ok := parseDigits(parts[2])
	if !ok {
		return s, false
	}
	l.Priority, l.UptimeUsec, l.Kernel = int(pri&7), us, true
	return s[semi+1:], true
}

// startsLogPrefix: t begins like a dmesg stamp, a priority, a syslog or a journal date.
func startsLogPrefix(t string) bool {
	if len(t) < 4 {
		return false
	}
	switch c := t[0]; {
	case c == '[':
		// dmesg -T's weekday in another locale ("[四 3月 18 18:47:12 2021]") too.
		return t[1] == ' ' || t[1] >= '0' && t[1] <= '9' || t[1] >= utf8.RuneSelf || isWeekday(t[1:4])
	case c == '<':
		return t[2] == '>' && t[1] >= '0' && t[1] <= '7'
	case c >= 'A' && c <= 'Z':
		if len(t) > 4 && t[3] == ' ' && (isMonth(t[:3]) || isWeekday(t[:3])) {
			return true
		}
		// "June 29 14:06:59 host kernel: ": the month spelled out (stripOtherPrefixes).
		sp := strings.IndexByte(t[:min(len(t), 10)], ' ')
		return sp > 3 && isLongMonth(t[:sp]) || startsLocalMonthStamp(t)
	case c >= '0' && c <= '9':
		return len(t) > 10 && (t[4] == '-' && t[7] == '-' || t[2] == '-' && t[5] == ' ')
	case c >= 'a' && c <= 'z' || c >= utf8.RuneSelf:
		return startsLocalMonthStamp(t)
	}
	return false
}

// startsLocalMonthStamp: t begins with a syslog or journalctl date whose month is in another
// locale ("avril 16 21:08:50 ", "Mär  4 10:00:00 "), as stripSyslog reads it (localMonthLen),
// so an indented line of one is a log line too.
func startsLocalMonthStamp(t string) bool {
	m := localMonthLen(t)
	if m == 0 {
		return false
	}
	i := m + 1
	for i < len(t) && t[i] == ' ' {
		i++
	}
	j := i
	for j < len(t) && isDigit(t[j]) {
		j++
	}
	if j == i || j-i > 2 || j+9 > len(t) || t[j] != ' ' {
		return false
	}
	u := t[j+1:]
	return u[2] == ':' && u[5] == ':' && isDigits(u[:2]) && isDigits(u[3:5]) && isDigits(u[6:8])
}

func isLongMonth(s string) bool {
	switch s {
	case "January", "February", "March", "April", "June", "July", "August", "Sept", "September", "October", "November", "December":
		return true
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

// stripBracketDate removes dmesg -T's "[Mon Jan  2 03:04:05 2024] ", in any locale ("[四 3月
// 18 18:47:12 2021]"): a bracket that closes on a time and a four-digit year.
func stripBracketDate(s string, l *Line) (string, bool) {
	if len(s) < 16 {
		return s, false
	}
	end := strings.IndexByte(s[:min(len(s), 48)], ']')
	if end == 12 && isMonth(s[1:4]) && isDigit(s[4]) && isDigit(s[5]) && s[6] == ' ' && s[9] == ':' &&
		isDigit(s[7]) && isDigit(s[8]) && isDigit(s[10]) && isDigit(s[11]) {
		// dmesg -H (--human, util-linux dmesg.c's reltime format): "[Nov29 12:00] " on the
		// first record of a minute, "[  +0.000123] " (the delta) on the next ones.
		l.Kernel = true
		l.Stamp = s[1:end]
		return strings.TrimPrefix(s[end+1:], " "), true
	}
	if end < 14 {
		return s, false
	}
	in := s[1:end]
	n := len(in)
	if isTerminalStamp(in) {
		// "[2022/9/23 15:43:47] ": a terminal or serial logger's stamp on every line
		// (minicom, SecureCRT): not the kernel's, so the line keeps its own kind.
		l.Stamp = in
		return strings.TrimPrefix(s[end+1:], " "), true
	}
	// "... HH:MM:SS YYYY"
	if n < 13 || !isDigits(in[n-4:]) || in[n-5] != ' ' || in[n-8] != ':' || in[n-11] != ':' ||
		!isDigits(in[n-7:n-5]) || !isDigits(in[n-10:n-8]) {
		return s, false
	}
	if us, ok := mapServerMicros(s[end+1:]); ok {
		// h42b: MapServer's own error log (src/mapdebug.c msDebug: "[%s].%ld ", ctime
		// and the microseconds, before each message, as msSetError's "ROUTINE(): Memory
		// allocation error. ..."): ctime's date in brackets, then ".USEC": no kernel's
		// record, so the line keeps its own kind.
		l.Stamp = s[1:end] + "." + us
		return strings.TrimPrefix(s[end+2+len(us):], " "), true
	}
	l.Kernel = true
	l.Stamp = s[1:end]
	return strings.TrimPrefix(s[end+1:], " "), true
}

// mapServerMicros: the microseconds MapServer's msDebug prints right after its bracketed
// ctime ("].442100 "): a dot, one to six digits and a space; dmesg -T puts a space there.
func mapServerMicros(after string) (string, bool) {
	if len(after) < 3 || after[0] != '.' {
		return "", false
	}
	n := 1
	for n < len(after) && n <= 6 && isDigit(after[n]) {
		n++
	}
	if n == 1 || n >= len(after) || after[n] != ' ' {
		return "", false
	}
	return after[1:n], true
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
	if end < 0 {
		return "", false
	}
	us, ok := uptimeMicros(strings.TrimSuffix(strings.TrimSpace(rest[1:max(end, 1)]), "s"))
	if !ok {
		return "", false
	}
	l.UptimeUsec = us
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
	l.Syslog, l.Stamp, l.Host, l.Tag = true, stamp, host, unitTag(tag)
	if tag == "kernel" {
		l.Kernel = true
	}
	return strings.TrimPrefix(rest[colon+1:], " "), true
}

// stripVendorBlocks removes the blocks that vendor kernels print after the timestamp (or at
// the line's start when there is none):
//
//	"[3:  Binder:9343_3:22875] "    CPU, comm, pid (Qualcomm, Samsung, MediaTek Android kernels)
//	"[pid:1361,cpu5,comm]"          Huawei
//	"[03-19 10:05:52.172] "         a wall clock after the uptime (Unisoc)
//
// The CPU/comm/pid block names the printing task, as CONFIG_PRINTK_CALLER's does: it is kept
// as the line's Caller so that interleaved reports stay apart.
func stripVendorBlocks(s string, l *Line) string {
	for k := 0; k < 3; k++ {
		t := strings.TrimLeft(s, " ")
		if len(t) > 5 && t[0] == '(' && l.Kernel {
			r, ok := stripParenCaller(t, l)
			if !ok {
				return s
			}
			s = r
			continue
		}
		if len(t) < 5 || t[0] != '[' {
			return s
		}
		end := strings.IndexByte(t[:min(len(t), 64)], ']')
		if end < 3 {
			return s
		}
		in := t[1:end]
		switch {
		case strings.HasPrefix(in, "pid:"):
			l.Caller = in
		case isCPUCommPID(in):
			l.Caller = strings.Join(strings.Fields(in), "")
		case len(in) >= 14 && in[2] == '-' && in[5] == ' ' && in[8] == ':' && in[11] == ':' && isDigits(in[:2]):
		default:
			return s
		}
		l.Kernel = true
		s = strings.TrimPrefix(t[end+1:], " ")
	}
	return s
}

// stripParenCaller removes a vendor kernel's caller block in parentheses after a dmesg stamp:
//
//	"(2)[67:kswapd0]"              CPU, then pid and comm (MediaTek's CONFIG_PRINTK_MT_PREFIX,
//	                               "cpu_id/status/pid/process_name" before each record; no blank
//	                               before the message)
//	"(CPU:2-pid:67:kswapd0) "      CPU, pid and comm spelled out (other Android vendor trees)
//
// Like stripVendorBlocks' "[3:  kswapd0:   67]" it names the printing task and is kept as the
// line's Caller. Only a line that already had a kernel stamp is cut (l.Kernel): a '(' at a
// message's start is text otherwise.
func stripParenCaller(t string, l *Line) (string, bool) {
	if strings.HasPrefix(t, "(CPU:") {
		end := strings.IndexByte(t[:min(len(t), 48)], ')')
		if end < 0 {
			return t, false
		}
		cpu, rest, ok := strings.Cut(t[5:end], "-pid:")
		pid, comm, ok2 := strings.Cut(rest, ":")
		if !ok || !ok2 || !isDigits(cpu) || !isDigits(pid) || comm == "" {
			return t, false
		}
		l.Caller = parenCaller(pid, cpu)
		return strings.TrimPrefix(t[end+1:], " "), true
	}
	// "(2)[67:kswapd0]": a CPU number of one to three digits, then the task block at once.
	end := strings.IndexByte(t[:min(len(t), 5)], ')')
	if end < 2 || !isDigits(t[1:end]) || len(t) < end+5 || t[end+1] != '[' {
		return t, false
	}
	in := t[end+2:]
	cl := strings.IndexByte(in[:min(len(in), 40)], ']')
	if cl < 3 {
		return t, false
	}
	pid, comm, ok := strings.Cut(in[:cl], ":")
	if !ok || !isDigits(pid) || comm == "" {
		return t, false
	}
	l.Caller = parenCaller(pid, t[1:end])
	return strings.TrimPrefix(in[cl+1:], " "), true
}

// parenCaller names the printing task as CONFIG_PRINTK_CALLER does ("T67"): a task keeps its
// id when it moves to another CPU mid-report; pid 0 is the idle task, one per CPU ("C2").
func parenCaller(pid, cpu string) string {
	if strings.TrimLeft(pid, "0") == "" {
		return "C" + cpu
	}
	return "T" + pid
}

// isCPUCommPID: "3:  Binder:9343_3:22875", "4: binder:569_5:27109", "4:        kswapd0: 1209".
func isCPUCommPID(in string) bool {
	first := strings.IndexByte(in, ':')
	last := strings.LastIndexByte(in, ':')
	if first <= 0 || last <= first {
		return false
	}
	// The comm holds a letter or a symbol: a block of digits only ("[12:01:33]", the wall
	// clock a game server or log4j prints before its own "[thread/LEVEL]:") is a program's
	// time stamp, and reading it as a kernel caller made such logs "kernel logs".
	// Nor is a clock of colon-separated digits: Sunshine's old stamp "[2023:05:01:20:11:03]"
	// (its main.cpp put_time "%Y:%m:%d:%H:%M:%S") made its log a "kernel log" (h29c).
	comm := strings.TrimSpace(in[first+1 : last])
	return isDigits(strings.TrimSpace(in[:first])) && isDigits(strings.TrimSpace(in[last+1:])) &&
		comm != "" && !isDigits(comm) && !isDigits(strings.ReplaceAll(comm, ":", ""))
}

// stripUnisocSeq removes "04166 < 4> ": a hex sequence number and a priority written with
// a space (Unisoc's last-kmsg dumps), leaving the uptime stamp for stripKernelStamp.
func stripUnisocSeq(s string, l *Line) (string, bool) {
	sp := strings.IndexByte(s[:min(len(s), 12)], ' ')
	if sp < 4 || len(s) < sp+6 || s[sp+1] != '<' {
		return s, false
	}
	for i := 0; i < sp; i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'F' || c >= 'a' && c <= 'f') {
			return s, false
		}
	}
	rest := s[sp+1:]
	close := strings.IndexByte(rest[:min(len(rest), 6)], '>')
	if close < 2 {
		return s, false
	}
	p := strings.TrimSpace(rest[1:close])
	if len(p) != 1 || p[0] < '0' || p[0] > '7' {
		return s, false
	}
	l.Priority, l.Kernel = int(p[0]-'0'), true
	return strings.TrimLeft(rest[close+1:], " "), true
}

// isTerminalStamp: "2022/9/23 15:43:47", "2024-01-02 03:04:05.123".
func isTerminalStamp(in string) bool {
	date, clock, ok := strings.Cut(strings.TrimSpace(in), " ")
	if !ok || len(date) < 8 || len(date) > 10 || !isDigits(date[:4]) || (date[4] != '/' && date[4] != '-') {
		return false
	}
	hms := strings.Split(strings.SplitN(clock, ".", 2)[0], ":")
	return len(hms) == 3 && isDigits(hms[0]) && isDigits(hms[1]) && isDigits(hms[2])
}

// unescapeMarkdownLine undoes Markdown's backslash escapes of punctuation.
func unescapeMarkdownLine(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("[]*_()#.-!<>`|{}+", s[i+1]) >= 0 {
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// stripTAIStamp removes svlogd's (runit) "2005-05-17_10:24:16.76726 kern.info: " prefix:
// a date and time joined by '_', then the facility.level the logger wrote.
func stripTAIStamp(s string, l *Line) (string, bool) {
	if len(s) < 28 || s[4] != '-' || s[7] != '-' || s[10] != '_' || s[13] != ':' {
		return s, false
	}
	sp := strings.IndexByte(s, ' ')
	if sp < 19 {
		return s, false
	}
	rest := s[sp+1:]
	colon := strings.Index(rest, ": ")
	if colon <= 0 || strings.IndexByte(rest[:colon], ' ') >= 0 || strings.IndexByte(rest[:colon], '.') < 0 {
		return s, false
	}
	l.Stamp, l.Syslog, l.Tag = s[:sp], true, rest[:colon]
	if strings.HasPrefix(rest, "kern.") {
		l.Kernel = true
	}
	return rest[colon+2:], true
}

// commentMarker returns the comment marker a line starts with: "# " (shell, Ruby, Python)
// or " * " / "* " (C block comments), "" for none.
func commentMarker(t string) string {
	switch {
	case strings.HasPrefix(t, "# "), strings.HasPrefix(t, "#\t"):
		return "#"
	case strings.HasPrefix(strings.TrimLeft(t, " "), "* ") && len(t)-len(strings.TrimLeft(t, " ")) <= 2:
		return "*"
	}
	return ""
}

// uncommentBlock strips the comment marker from a run of at least three consecutive lines
// that carry the same one, starting at ls[i]: command output pasted inside a script's or a
// source file's comments ("# procs ---memory---", " *    some avg10=0.00"). A root prompt
// ("# cat /proc/...") is one line followed by its output, so it is left alone; so is a block
// that holds sysctl assignments, since a commented-out setting is not a setting.
func (d *doc) uncommentBlock(i int) {
	mark := commentMarker(d.ls[i].Text)
	if mark == "" || d.ls[i].uncommented || d.ls[i].Kernel {
		return
	}
	k := i
	// A kernel log line is the kernel's message as printed ("# HELP ..." after a syslog
	// prefix is what was logged), and the streamed parse logs such lines without reading
	// them (stream.go): a comment block stops at one.
	for k < len(d.ls) && !d.used[k] && !d.ls[k].Kernel && commentMarker(d.ls[k].Text) == mark {
		k++
	}
	if k-i < 3 {
		return
	}
	stripped := make([]string, 0, k-i)
	for j := i; j < k; j++ {
		t := strings.TrimLeft(d.ls[j].Text, " ")
		t = strings.TrimPrefix(t, mark)
		if len(t) > 0 && (t[0] == ' ' || t[0] == '\t') {
			t = t[1:]
		}
		if isSysctlLine(t) {
			return
		}
		stripped = append(stripped, t)
	}
	for j := i; j < k; j++ {
		d.ls[j].Text = stripped[j-i]
		d.ls[j].uncommented = true
	}
}

// mayBeHostless is a test that every "Jan  2 03:04:05 kernel: " line (syslog without its
// host) passes in its first 40 bytes h: a "kernel:" there right after a field that holds a
// ':' (the time). A syslog line with its host has the host before "kernel:", so the usual
// line, every line of a log, is settled without splitting it into fields (firstFields4 was
// a tenth of the instructions of a syslog's parse).
func mayBeHostless(h string) bool {
	// The usual layout, "Mmm dd hh:mm:ss X": the fourth field starts at byte 16.
	// (White space is at or below ' ', so bytes above it are no field's end.)
	if len(h) >= 24 && h[5] > ' ' && h[6] == ' ' && h[7] > ' ' && h[8] > ' ' && h[9] == ':' && h[10] > ' ' && h[11] > ' ' &&
		h[12] == ':' && h[13] > ' ' && h[14] > ' ' && h[15] == ' ' && h[16] > ' ' {
		return strings.HasPrefix(h[16:], "kernel:") && (len(h) == 23 || asciiSpace(h[23]))
	}
	for from := 0; ; {
		k := strings.Index(h[from:], "kernel:")
		if k < 0 {
			return false
		}
		k += from
		from = k + 1
		j := k
		for j > 0 && asciiSpace(h[j-1]) {
			j--
		}
		if j == k {
			continue // glued to the field before: not a field of its own
		}
		i := j
		for i > 0 && !asciiSpace(h[i-1]) {
			i--
		}
		if strings.IndexByte(h[i:j], ':') >= 0 {
			return true
		}
	}
}

// firstFields4 is the first four white-space separated fields of s and how many there are
// (at most 4): strings.Fields without the slice, for the syslog checks every line of a log
// passes through.
func firstFields4(s string) (f [4]string, n int) {
	for i := 0; i < len(s) && n < 4; {
		for i < len(s) && asciiSpace(s[i]) {
			i++
		}
		j := i
		for j < len(s) && !asciiSpace(s[j]) {
			j++
		}
		if j > i {
			f[n] = s[i:j]
			n++
		}
		i = j
	}
	return f, n
}

func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// stripVMwareGuest removes the prefix VMware's vmware.log writes before a line the guest
// logged ("2023-12-04T10:49:30.127Z In(05) vcpu-5 - Guest: <6>[39291577.009360] ...", and the
// older "2019-05-01T10:11:12.345Z| vcpu-0| I125: Guest: <4>[ ...]"): the host's RFC 3339
// stamp, the level ("In(05)", "I125:") and the VMX thread, then "Guest: " and the guest
// kernel's own record, whose priority and uptime stamp stripKernelStamp reads. Only a guest
// record that starts like a kernel one is unwrapped; VMX's own lines stay as they are.
func stripVMwareGuest(s string, l *Line) (string, bool) {
	if len(s) < 40 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' {
		return s, false
	}
	g := strings.Index(s[:min(len(s), 96)], "Guest: ")
	if g < 0 {
		return s, false
	}
	rest := s[g+len("Guest: "):]
	if rest == "" || rest[0] != '<' && rest[0] != '[' {
		return s, false
	}
	sp := strings.IndexAny(s[:g], " |")
	if sp < 19 {
		return s, false
	}
	level := false
	for _, f := range strings.Fields(strings.ReplaceAll(s[sp:g], "|", " ")) {
		if isVMwareLevel(f) {
			level = true
			break
		}
	}
	if !level {
		return s, false
	}
	l.Stamp = s[:sp]
	return rest, true
}

// isVMwareLevel: "In(05)", "Wa(03)" (vmware.log since ESXi 7) or "I125:", "W115:" (before).
func isVMwareLevel(f string) bool {
	if len(f) >= 5 && f[2] == '(' && f[len(f)-1] == ')' && f[0] >= 'A' && f[0] <= 'Z' && f[1] >= 'a' && f[1] <= 'z' {
		return isDigits(f[3 : len(f)-1])
	}
	if len(f) >= 3 && f[len(f)-1] == ':' && f[0] >= 'A' && f[0] <= 'Z' {
		return isDigits(f[1 : len(f)-1])
	}
	return false
}

// stripFacilityLevel: "kern.LEVEL: " (syslog's facility.level, LEVEL one of syslog's
// priority names, sys/syslog.h prioritynames) before a dmesg stamp: what follows it.
func stripFacilityLevel(s string) (string, bool) {
	c := strings.Index(s, ": ")
	if c < 0 || c > len("kern.warning") {
		return s, false
	}
	switch s[len("kern."):c] {
	case "emerg", "alert", "crit", "err", "error", "warn", "warning", "notice", "info", "debug":
	default:
		return s, false
	}
	rest := s[c+2:]
	if bareStampLen(rest) > 0 || startsLogPrefix(rest) {
		return rest, true
	}
	return s, false
}

// kernelTagRecord: what follows a bare "kernel: " tag reads as a kernel record, not as the
// value of a "kernel:" field in an issue template or an inventory ("kernel: 5.15.0-91-generic",
// "kernel: Linux 6.1.0", "kernel: x86_64") nor as a sentence after a label ("kernel: the
// messages below are from the last boot"): it does not start with a digit, a 'v' and a
// digit, "Linux" or one of English's small words, and it is more than one word, ends in
// ':' ("Mem-Info:") or is a call trace's frame ("oom_kill_process+0x2bc/0x2c0").
func kernelTagRecord(rest string) bool {
	t := strings.TrimSpace(rest)
	if len(t) < 4 || isDigit(t[0]) || t[0] == 'v' && isDigit(t[1]) ||
		strings.HasPrefix(t, "Linux") || strings.HasPrefix(t, "linux") {
		return false
	}
	sp := strings.IndexByte(t, ' ')
	if sp > 0 && sentenceOpener[strings.ToLower(t[:sp])] {
		return false
	}
	return sp > 0 || t[len(t)-1] == ':' || strings.Contains(t, "+0x") || kvListRecord(t)
}

// kvListRecord: one token that is a comma-separated list of key=value fields under a name,
// as the kernel prints dump_oom_summary's line (mm/oom_kill.c, 4.19+):
// "oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),...,task=x,pid=1,uid=0", also with
// fields elided by the poster ("...,global_oom,"). An inventory's "kernel: x86_64" or one
// "key=value" is no such list: it needs a ':' before its first '=', two '=' and a ','
// (fix28a).
func kvListRecord(t string) bool {
	c, e := strings.IndexByte(t, ':'), strings.IndexByte(t, '=')
	return c > 0 && e > c && strings.Count(t, "=") >= 2 && strings.IndexByte(t[e:], ',') > 0
}

// sentenceOpener are the small words a sentence starts with and no kernel record does.
var sentenceOpener = map[string]bool{"the": true, "this": true, "these": true, "those": true, "a": true,
	"an": true, "it": true, "its": true, "we": true, "i": true, "my": true, "our": true, "here": true,
	"there": true, "see": true, "is": true, "was": true, "has": true, "please": true, "when": true,
	"if": true, "after": true, "before": true, "same": true, "only": true}

// indentedMarker is 1 when s starts with one blank and a list item's marker ('*', '-',
// '+'), as Confluence's copy of a list writes it, 0 otherwise. Two blanks and more are a
// Debian changelog's entries ("  * nf_conntrack: ...", "    - Linux 4.19.67": another
// report's message, debchangelog.go) and a YAML list's: left as written.
func indentedMarker(s string) int {
	if len(s) < 3 || s[0] != ' ' || s[1] != '*' && s[1] != '-' && s[1] != '+' {
		return 0
	}
	return 1
}

// elidedSyslogHead: a syslog line whose date and host the paste replaced with an ellipsis
// ("... kernel: [430837.196335] DMA free:3536kB", g290's 6780: a forum post of
// /var/log/messages) is the kernel's line under its bare tag; k from the tag on. Any other
// line is returned as it is.
func elidedSyslogHead(k string) string {
	for _, dots := range []string{"...", "\u2026"} {
		if rest, ok := strings.CutPrefix(k, dots); ok {
			if t := strings.TrimLeft(rest, " "); len(t) < len(rest) && strings.HasPrefix(t, "kernel: ") {
				return t
			}
		}
	}
	return k
}
