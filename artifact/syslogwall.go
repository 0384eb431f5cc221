package artifact

// The console broadcast of syslogd (fix50c, corpus 4174). rsyslog's omusrmsg (and sysklogd
// before it) writes an emergency or alert record to every logged-in terminal as
//
//	Message from syslogd@HOST at Feb 24 20:17:46 ...
//	 kernel:[80845.809634] Internal error: Oops: 17 [#1] ARM
//
// (omusrmsg's wall template: a header line, then " %syslogtag%%msg%": one blank, the tag and
// the message with no blank between them when the message itself starts without one, as
// the kernel's records read from /proc/kmsg by imklog do). The record is the kernel's, its
// dmesg stamp right behind the tag's colon. stripOtherPrefixes took "kernel: [" only.

// wallKernelRecord reports whether k (left blanks trimmed) is the kernel's tag glued to a
// dmesg stamp, "kernel:[80845.809634] ...". A form's "kernel:" field followed by something
// else (abrt's "kernel:", reportbug's "Kernel:"), or a stamp not closed, is not.
func wallKernelRecord(k string) bool {
	const tag = "kernel:["
	if len(k) < len(tag)+4 || k[:len(tag)] != tag {
		return false
	}
	i := len(tag)
	for i < len(k) && k[i] == ' ' {
		i++
	}
	digits, dot, frac := 0, false, 0
	for ; i < len(k); i++ {
		switch c := k[i]; {
		case c >= '0' && c <= '9':
			if dot {
				frac++
			} else {
				digits++
			}
		case c == '.' && !dot && digits > 0:
			dot = true
		case c == ']':
			return digits > 0 && dot && frac > 0 && i+1 < len(k) && k[i+1] == ' '
		default:
			return false
		}
	}
	return false
}
