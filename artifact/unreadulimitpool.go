package artifact

import "strings"

// Round 23's telecom and game-server pastes (fix28c, corpus 2410, 2431, 2433, 2436) that
// exited 3 although each shows its host's figures. Four forms, listed as unread with what they
// are; the first three by statedFiguresUnread (only when nothing else was read), the fourth
// in the syslog branch of parse.go. No rule fires from them.
//
//   - a row of the shell's `ulimit -a` (bash's builtins/ulimit.def print_all_limits: the
//     description padded, "(unit, -flag)" or "(-flag)", the value or "unlimited"): "open
//     files                      (-n) 1048500", "max locked memory       (kbytes, -l)
//     unlimited". The shell's own rlimits, inherited by what it starts: not the host's memory.
//   - a program's own pool counters in brackets (free5GC's UPF utlt pools: "Pool alloc
//     successful, total capacity[512], available[511]", "Buffer Alloc Size[256]").
//   - a program's count of its contexts, "Number of eNB-UEs is now 76" (Open5GS's
//     mme-context.c "[Added] Number of eNB-UEs is now %d"), and its own "SIGTERM received".
//   - bash's "SCRIPT: line N: PID Killed COMMAND" under a wrapper's stamp and instance tag
//     ("2018-02-14 20:20:24: [ragnarok] /usr/local/bin/arkmanager: line 1096: 13821 Killed"),
//     which the log reader keeps as another program's line (shellKilledLine's reason).
//
// Counter-cases (fix28c_test.go): a sentence naming the limits ("max locked memory is
// unlimited"), ulimit -n's bare number, "the pool has capacity 512", "the number of UEs is
// now 76 in our lab?", a question about SIGTERM.

const whyUlimitRow = "a row of the shell's `ulimit -a` (bash print_all_limits: \"open files (-n) N\", \"max locked memory (kbytes, -l) unlimited\"): the shell's own resource limits (RLIMIT_NOFILE, RLIMIT_MEMLOCK, RLIMIT_NPROC, RLIMIT_AS), inherited by what it starts, not the host's memory or network state; no rule of headroom judges them"

const whyOwnPoolCounters = "a program's own pool counters in brackets (free5GC's UPF: \"Pool alloc successful, total capacity[N], available[N]\", \"Buffer Alloc Size[N]\"): elements of a pool the program sized at start" + telecomPoolWhy

const whyContextCount = "a program's count of its own contexts or its notice of a signal it received (Open5GS: \"[Added] Number of eNB-UEs is now N\", \"SIGTERM received\"): sessions it holds and a stop asked from outside (SIGTERM, which the kernel's OOM killer never sends: it sends SIGKILL), not memory nor a kernel counter; headroom has no reader for this log"

// programCountsUnread says why t is one of those forms.
func programCountsUnread(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false
	}
	if strings.IndexByte(t, '(') >= 0 && ulimitRow(t) {
		return whyUlimitRow, true
	}
	if strings.IndexByte(t, '[') >= 0 && ownPoolCounters(t) {
		return whyOwnPoolCounters, true
	}
	if contextCountLine(t) {
		return whyContextCount, true
	}
	return "", false
}

// ulimitRow: "description  (unit, -f) value": lower-case words, blanks, the parenthesised
// unit and flag, blanks, a number or "unlimited", nothing after.
func ulimitRow(t string) bool {
	s := strings.TrimSpace(t)
	o := strings.IndexByte(s, '(')
	c := strings.IndexByte(s, ')')
	if o < 3 || c < o+3 || s[c-3] != '-' && s[c-2] != '-' {
		return false
	}
	desc := strings.TrimRight(s[:o], " ")
	if len(desc) == len(s[:o]) { // the description is padded before the parenthesis
		return false
	}
	for i := 0; i < len(desc); i++ {
		if b := desc[i]; !(b >= 'a' && b <= 'z' || b == ' ' || b == '-' || b == '/' || b >= 'A' && b <= 'Z') {
			return false
		}
	}
	flag := s[o+1 : c]
	if k := strings.LastIndex(flag, ", "); k >= 0 {
		flag = flag[k+2:]
	}
	if len(flag) != 2 || flag[0] != '-' {
		return false
	}
	v := strings.TrimSpace(s[c+1:])
	if v == "unlimited" {
		return true
	}
	return v != "" && len(leadingDigits(v)) == len(v)
}

// ownPoolCounters: "capacity[N]" with "available[N]", or "Alloc Size[N]" / "Free Size[N]".
func ownPoolCounters(t string) bool {
	if bracketNumber(t, "capacity[") && bracketNumber(t, "available[") {
		return true
	}
	return bracketNumber(t, "Alloc Size[") || bracketNumber(t, "Free Size[")
}

// bracketNumber: t holds name directly followed by digits and "]".
func bracketNumber(t, name string) bool {
	k := strings.Index(t, name)
	if k < 0 {
		return false
	}
	r := t[k+len(name):]
	n := len(leadingDigits(r))
	return n > 0 && n < len(r) && r[n] == ']'
}

// contextCountLine: a log line (it starts with a digit or "[" after indentation, or holds
// "INFO: ") that says "Number of X is now N" or "SIGTERM received".
func contextCountLine(t string) bool {
	s := strings.TrimLeft(t, " \t")
	if s == "" || strings.IndexByte(s, '?') >= 0 {
		return false
	}
	if !(s[0] >= '0' && s[0] <= '9' || s[0] == '[' || strings.Contains(s, "INFO: ")) {
		return false
	}
	if k := strings.Index(s, "Number of "); k >= 0 {
		if j := strings.Index(s[k:], " is now "); j > 0 {
			return len(leadingDigits(s[k+j+len(" is now "):])) > 0
		}
	}
	return strings.Contains(s, "] INFO: SIGTERM received")
}
