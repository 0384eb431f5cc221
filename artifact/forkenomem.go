package artifact

import "strings"

// fix42b (corpus 3534): a program's record that its fork() failed with ENOMEM, in the form
// C programs print it, "fork failed - %s" or "fork failed: %s" with strerror(errno): PHP's
// proc_open (ext/standard/proc_open.c, php_error_docref "fork failed - %s", so the record
// reads "proc_open(): fork failed - Cannot allocate memory", as composer's ErrorException
// carries it), HHVM's proc_open ("fork failed - %s"), Snort's FatalError, daemons'
// syslog(LOG_ERR, "fork failed: %s"). fork's ENOMEM is the kernel refusing to commit a copy
// of the parent's private writable memory for the child (kernel/fork.c dup_mmap →
// security_vm_enough_memory_mm → mm/util.c __vm_enough_memory: mode 2 past CommitLimit, or
// mode 0's heuristic refusing a copy larger than RAM and swap), or a memory cgroup's charge
// refused: a refusal, no kill by the OOM killer and no page allocation failure report.
// overcommit-exposed decides from Committed_AS, CommitLimit and vm.overcommit_memory, which
// the line does not hold, so it is named unread with what it proves (issue 29 item 4), as
// bash's "fork: Cannot allocate memory" (shellForkENOMEM) and Ruby's "Cannot allocate
// memory - fork(2)" (clusteragent.go) are.
//
// The record form only: "fork failed" at the line's start or after a program's or a
// function's prefix ("proc_open(): ", "snort: ", "[ERROR] "), the errno's text right after
// " - " or ": ", and nothing after it but the end, a closing quote or PHP's " in FILE on
// line N". A sentence that names the message ("if you see fork failed - Cannot allocate
// memory, add swap") has words of its own before it.

const forkENOMEMWhy = "a program's fork() failed with ENOMEM (\"fork failed - Cannot allocate memory\": PHP's proc_open, ext/standard/proc_open.c \"fork failed - %s\"; other C programs' \"fork failed: %s\" with strerror(errno)): the kernel refused to commit a copy of the parent's private writable memory for the child (kernel/fork.c dup_mmap, mm/util.c __vm_enough_memory: vm.overcommit_memory 2 past CommitLimit, or mode 0's heuristic with RAM and swap short of the copy) or a memory cgroup refused the charge; a refusal, no kill by the kernel's OOM killer and no page allocation failure; overcommit-exposed would need `grep -E 'Committed_AS|CommitLimit' /proc/meminfo; sysctl vm.overcommit_memory`; headroom has no reader for this log"

// forkENOMEMRecord says why t holds a program's record of a fork failed with ENOMEM.
func forkENOMEMRecord(t string) (string, bool) {
	k := strings.Index(t, "ork failed")
	if k < 1 || t[k-1] != 'f' && t[k-1] != 'F' {
		return "", false
	}
	k--
	rest := t[k+len("fork failed"):]
	switch {
	case strings.HasPrefix(rest, " - "):
		rest = rest[3:]
	case strings.HasPrefix(rest, ": "):
		rest = rest[2:]
	default:
		return "", false
	}
	text := ""
	if strings.HasPrefix(rest, "Cannot allocate memory") {
		text = "Cannot allocate memory"
	} else {
		for tr, en := range errnoTranslations {
			if en == "Cannot allocate memory" && strings.HasPrefix(rest, tr) {
				text = tr
				break
			}
		}
	}
	if text == "" {
		return "", false
	}
	if !forkRecordTail(rest[len(text):]) || !forkRecordHead(t[:k]) {
		return "", false
	}
	return forkENOMEMWhy, true
}

// forkRecordTail: what may follow the errno's text in the record: nothing, a closing quote,
// bracket or stop, or PHP's " in FILE" (" in /x.php on line 3", " in phar://...").
func forkRecordTail(tail string) bool {
	tail = strings.TrimRight(tail, " \t")
	return tail == "" || strings.IndexByte("'\"`)].,", tail[0]) >= 0 || strings.HasPrefix(tail, " in ")
}

// forkRecordHead: what stands before "fork failed": nothing, or a prefix ending in ": ",
// "(): " or "] " (a program's name, a function's, a level), optionally opened by a quote
// (an exception's message 'proc_open(): ...'); words of a sentence before it are not one.
func forkRecordHead(head string) bool {
	h := strings.TrimRight(head, "'\"`")
	if strings.TrimSpace(h) == "" {
		return true
	}
	if !strings.HasSuffix(h, ": ") && !strings.HasSuffix(h, "] ") {
		return false
	}
	if conditionLead(h) {
		return false // "if you see fork failed: ...", advice or a condition
	}
	// The last prefix: the part after the last quote that opened the message, or the
	// line's own prefix: a name, a call or a level, not a clause.
	if q := strings.LastIndexAny(head, "'\"`"); q >= 0 {
		h = head[q+1:]
	}
	return len(strings.Fields(h)) <= 3
}
