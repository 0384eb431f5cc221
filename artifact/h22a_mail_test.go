package artifact

import (
	"strings"
	"testing"
)

// Pre-round 22 (h22a): each mail or chat server's line is named with what it proves
// (unreadmail.go), its figure kept as the program's own; counter-cases stay as they were.

func TestH22aMailLinesNamed(t *testing.T) {
	for _, c := range []struct{ text, word string }{
		{"Nov 30 03:12:44 mx1 postfix/master[1187]: warning: process /usr/lib/postfix/sbin/smtpd pid 23456 killed by signal 9\n", "Postfix's master reaped a child killed by signal 9"},
		{"Nov 30 03:12:44 mx1 postfix/master[1187]: warning: process /usr/lib/postfix/sbin/smtpd pid 23456 killed by signal 11\n", "not SIGKILL"},
		{"Nov 30 03:12:44 mx1 postfix/master[1187]: warning: /usr/lib/postfix/sbin/smtpd: bad command startup -- throttling\n", "throttles"},
		{"Nov 30 03:12:40 mx1 postfix/smtpd[23401]: error: accept connection: Too many open files\n", "EMFILE"},
		{"Nov 30 03:12:40 mx1 postfix/smtp[23401]: connect to mx.example.net[203.0.113.5]:25: Cannot assign requested address\n", "EADDRNOTAVAIL"},
		{"Nov 30 03:12:40 mx1 postfix/smtp[23401]: connect to mx.example.net[203.0.113.5]:25: No buffer space available\n", "ENOBUFS"},
		{"Nov 30 03:12:40 mx1 postfix/smtpd[23401]: connect from unknown[198.51.100.7]\n", "mail flow"},
		{"Nov 30 03:12:44 mail dovecot: master: Error: service(imap): child 23456 killed with signal 9\n", "Dovecot's master reaped"},
		{"Nov 30 03:12:44 mail dovecot: imap(u@example.com)<23456><abcd>: Error: Raw backtrace: /usr/lib/dovecot/libdovecot.so.0(+0xe7b2e) [0x7f0a1b2d2b2e] -> /usr/lib/dovecot/libdovecot.so.0(i_fatal_status+0) [0x7f0a1b2d2c00]\n", "backtrace"},
		{"2026-11-30 03:12:41 Connection from [198.51.100.7]:51234 refused: too many connections\n", "smtp_accept_max"},
		{"2026-11-30 03:12:41 Start queue run: pid=12345\n", "queue runner"},
		{"Crash dump is being written to: erl_crash.dump...done\n", "crash dump"},
	} {
		tl := ParseString(c.text, "t", Options{})
		if !f15Unread(tl, c.word) {
			t.Errorf("%q: unparsed %+v, want a reason with %q", c.text, tl.Unparsed, c.word)
		}
		if len(f15Kills(tl)) != 0 || statedOOM(tl) {
			t.Errorf("%q: read as an OOM", c.text)
		}
	}
}

// The program's own request is kept as its figure (program_limit), never as the host's.
func TestH22aMailFigures(t *testing.T) {
	for _, c := range []struct {
		text, program string
		bytes         int64
	}{
		{"Nov 30 03:12:40 mx1 postfix/cleanup[23401]: fatal: mymalloc: insufficient memory for 1048576 bytes: Cannot allocate memory\n", "postfix", 1048576},
		{"2013-05-02 11:02:03 1UXq2C-0004cL-8S failed to malloc 3145744 bytes of memory: called from line 189 of store.c\n", "exim", 3145744},
		{"Nov 30 03:12:44 mail clamd[901]: LibClamAV Error: cli_malloc(): Can't allocate memory (262144 bytes).\n", "libclamav", 262144},
		{"Nov 30 03:12:44 xmpp ejabberdctl[1102]: eheap_alloc: Cannot allocate 6801972448 bytes of memory (of type \"heap\").\n", "erlang vm", 6801972448},
		{"Nov 30 03:12:44 mail dovecot: indexer-worker(u@example.com)<23456><abcd>: Panic: data stack: Out of memory when allocating 268435496 bytes\n", "dovecot", 268435496},
	} {
		tl := ParseString(c.text, "t", Options{})
		found := false
		for _, a := range tl.Artifacts {
			if m, ok := a.Data.(map[string]any); ok && a.Kind == KindProgramLimit && m["program"] == c.program && m["request_bytes"] == c.bytes {
				found = true
			}
		}
		if !found || statedOOM(tl) || len(f15Kills(tl)) != 0 {
			t.Errorf("%q: artifacts %+v, want %s's request of %d bytes, no OOM", c.text, tl.Artifacts, c.program, c.bytes)
		}
	}
}

// Counter-cases: a sentence with the format's placeholder, advice naming vsz_limit, another
// program's "killed by signal" without a pid, and Postfix's words in a sentence stay prose.
func TestH22aMailCounterCases(t *testing.T) {
	for _, text := range []string{
		"If Postfix logs \"process /usr/lib/postfix/sbin/smtpd pid N killed by signal 9\", check dmesg for the OOM killer.\n",
		"The worker was killed by signal 9 yesterday, we think.\n",
		"Raw backtrace is empty in our logs.\n",
		"Cannot allocate memory for the new VM, says virt-manager.\n",
	} {
		tl := ParseString(text, "t", Options{})
		for _, u := range tl.Unparsed {
			for _, w := range []string{"Postfix", "Dovecot", "Exim", "libclamav", "Erlang", "rspamd"} {
				if strings.Contains(u.Why, w) {
					t.Errorf("%q: named as %s's line: %q", text, w, u.Why)
				}
			}
		}
	}
}

// A mail server's record ending in strerror's text with no digit ("%m") is named by its errno.
func TestH22aMailRecordErrno(t *testing.T) {
	tl := ParseString("Nov 30 03:12:40 mx1 postfix/smtp[23401]: fatal: socket: No buffer space available\n", "t", Options{})
	if !f15Unread(tl, "ENOBUFS") {
		t.Fatalf("unparsed %+v, want ENOBUFS named", tl.Unparsed)
	}
}
