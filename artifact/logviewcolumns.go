package artifact

import "strings"

// stripLogViewColumns reads a kernel record copied out of a log viewer's table whose columns
// are the record's syslog facility, its severity, both by their names in words, and the
// program, then the message (fix52c, corpus 4374: a DD-WRT router's log as a hosted log
// viewer showed it, "Kernel  Warning kernel [ 3640.790000] ath10k_pci 0000:00:00.0: wmi
// command 36890 timeout, restarting hardware"). The facility is syslog's kern (LOG_KERN,
// named "Kernel" as the viewers print it), the severity one of syslog.h's eight
// (prioritynames, written out: "Warning", "Error"), the program the kernel's own tag, and
// the message starts with a dmesg stamp: the line is the kernel's record, its stamp read
// as any other's. Columns of another facility or program, or a message without a stamp
// ("Kernel Warning kernel panics are rare"), are left as they are.
func stripLogViewColumns(s string, l *Line) (string, bool) {
	fac, rest, ok := cutColumn(s)
	if !ok || !strings.EqualFold(fac, "kernel") && !strings.EqualFold(fac, "kern") {
		return s, false
	}
	sev, rest, ok := cutColumn(rest)
	if !ok || !logViewSeverity(sev) {
		return s, false
	}
	prog, msg, ok := cutColumn(rest)
	if !ok || prog != "kernel" || !strings.HasPrefix(msg, "[") {
		return s, false
	}
	if _, n := printkStamp(msg); n == 0 {
		return s, false
	}
	l.Syslog, l.Tag, l.Kernel = true, "kernel", true
	return msg, true
}

// cutColumn cuts the first word of s and the blanks (spaces, tabs: a table's cells as
// copied) after it.
func cutColumn(s string) (word, rest string, ok bool) {
	i := strings.IndexAny(s, " \t")
	if i <= 0 {
		return "", s, false
	}
	return s[:i], strings.TrimLeft(s[i:], " \t"), true
}

// logViewSeverity: a syslog severity by its name in words, as log viewers title their
// column's values (syslog.h prioritynames and the RFC 5424 names).
func logViewSeverity(w string) bool {
	switch strings.ToLower(w) {
	case "emergency", "emerg", "panic", "alert", "critical", "crit", "error", "err", "warning", "warn", "notice", "info", "informational", "debug":
		return true
	}
	return false
}
