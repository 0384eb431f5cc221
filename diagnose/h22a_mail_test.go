package diagnose

import (
	"strings"
	"testing"
)

// Pre-round 22 (h22a): mail and chat servers' own lines, from their format strings
// (Postfix master_spawn.c, Dovecot service-process.c, rspamd worker_util.c; sources named in
// artifact/unreadmail.go), in the forms their logs are pasted (syslog, docker compose's
// "name | ", a mail's "> " quote); none copied from a case.

const h22aKernelKill = "Nov 30 03:12:44 mx1 kernel: [812345.123456] Out of memory: Killed process 23456 (smtpd) total-vm:184320kB, anon-rss:120344kB, file-rss:0kB, shmem-rss:0kB, UID:107 pgtables:312kB oom_score_adj:0\n"

var h22aSigkillLines = []string{
	"Nov 30 03:12:44 mx1 postfix/master[1187]: warning: process /usr/lib/postfix/sbin/smtpd pid 23456 killed by signal 9\n",
	"Nov 30 03:12:44 mx1 dovecot: master: Error: service(imap): child 23456 killed with signal 9\n",
	"Nov 30 03:12:44 mx1 dovecot: master: Fatal: service(imap): child 23456 killed with signal 9 (core dumps disabled)\n",
	"2026-11-30 03:12:44 #1102(main) <9a1b2c>; main; rspamd_check_termination_clause: normal process 23456 terminated abnormally with exit code 0 by signal: Killed but NOT created core file (throttled=no); core file limits: 0 current, -1 max\n",
	"mailcowdockerized-postfix-mailcow-1  | Nov 30 03:12:44 mx1 postfix/master[1187]: warning: process /usr/lib/postfix/sbin/smtpd pid 23456 killed by signal 9\n",
	"> Nov 30 03:12:44 mx1 postfix/master[1187]: warning: process /usr/lib/postfix/sbin/smtpd pid 23456 killed by signal 9\n",
}

// With the kernel's own kill line beside the server's SIGKILL notice, oom-kill is critical
// and names the victim; the notice does not hide it.
func TestH22aSigkillWithKernelLineIsOOMKill(t *testing.T) {
	for _, l := range h22aSigkillLines {
		d := h16aRun(t, h22aKernelKill+l)
		fs := findings(d, "oom-kill")
		if len(fs) == 0 || fs[0].Severity != Critical || !evidenceHas(fs[0], "global OOM kill", "smtpd (pid 23456)") {
			t.Errorf("%q: want oom-kill critical killing smtpd (pid 23456), got %+v", l, d.Findings)
		}
	}
}

// The notice alone is no proof of the kernel's OOM killer: oom-kill is not checked (never
// fired, never healthy), and nothing else warns.
func TestH22aSigkillAloneNotProvenOOM(t *testing.T) {
	for _, l := range h22aSigkillLines {
		d := h16aRun(t, l+strings.Replace(l, "23456", "23499", 1))
		if ch := h16aCheck(d, "oom-kill"); ch.Status != StatusNotChecked || !strings.Contains(ch.Why, "2 child(ren) killed by SIGKILL as a server reports it") || !strings.Contains(ch.Why, "not proven the kernel's OOM killer") {
			t.Errorf("%q: oom-kill %v %q, want not checked naming the two notices", l, ch.Status, ch.Why)
		}
		for _, f := range d.Findings {
			if f.Severity >= Warning {
				t.Errorf("%q: %s fired from a SIGKILL notice", l, f.ID)
			}
		}
	}
}

// A program's own allocation refused (Postfix's mymalloc, Exim's store, libclamav, the
// Erlang VM, Dovecot's data stack) is no kill and no statement about the host: no oom-kill,
// no warning; a sentence of the author's that the host ran out still states it.
func TestH22aOwnAllocationNoKill(t *testing.T) {
	for _, text := range []string{
		"Nov 30 03:12:40 mx1 postfix/cleanup[23401]: fatal: mymalloc: insufficient memory for 1048576 bytes: Cannot allocate memory\nNov 30 03:12:41 mx1 postfix/master[1187]: warning: master_spawn: fork: Cannot allocate memory -- throttling\n",
		"2026-11-30 03:12:40 failed to malloc 8388624 bytes of memory: called from line 1234 in string.c\n",
		"Nov 30 03:12:44 mail clamd[901]: LibClamAV Error: cli_malloc(): Can't allocate memory (262144 bytes).\nNov 30 03:12:44 mail clamd[901]: Database initialization error: Can't allocate memory\n",
		"ejabberd crashes every night:\n\n```\neheap_alloc: Cannot allocate 6801972448 bytes of memory (of type \"heap\").\n\nCrash dump is being written to: erl_crash.dump...done\n```\n",
		"Nov 30 03:12:44 mail dovecot: indexer-worker(u@example.com)<23456><abcd>: Panic: data stack: Out of memory when allocating 268435496 bytes\n",
	} {
		d := h16aRun(t, text)
		if len(findings(d, "oom-kill")) != 0 {
			t.Errorf("%q: oom-kill fired from a program's own allocation failure", text)
		}
		for _, f := range d.Findings {
			if f.Severity >= Warning {
				t.Errorf("%q: %s fired", text, f.ID)
			}
		}
	}
	d := h16aRun(t, "Our mail server ran out of memory and the OOM killer killed clamd last night.\n")
	if len(findings(d, "oom-kill")) == 0 {
		t.Errorf("counter: the author's statement of an OOM kill no longer reaches oom-kill")
	}
}
