package artifact

import (
	"strings"
	"testing"
)

// fix39b: round 34's first-run misses (corpus 3312, 3314, 3316, 3344, 3348), each class
// named unread with what it proves, no finding; the counter-cases are not named.

// PostgreSQL's log_line_prefix "%m [%p]: ..." (the zone taken for the host, "[PID]" for
// the tag): the postmaster's SIGKILL notice is the data store's line (unreaddbmsg.go).
func TestPGZonePrefixKill(t *testing.T) {
	for _, line := range []string{
		"2024-03-15 07:46:35 UTC [30]: [65f2f0bb.1e-416] @,app= [00000] LOG:  server process (PID 47440) was terminated by signal 9: Killed",
		"2024-03-15 07:46:35.123 CEST [30]: [1-1] user=,db=,app=,client= LOG:  server process (PID 47440) was terminated by signal 9: Killed",
	} {
		if w := fix25bUnread(line + "\n"); !fix25bHas(w, "killed by SIGKILL") {
			t.Errorf("%q: %v", line, w)
		}
	}
	l, _, _ := parseLine(1, "2024-03-15 07:46:35 UTC [30]: [65f2f0bb.1e-416] @,app= [00000] LOG:  x")
	if !ownStampHost(&l) {
		t.Errorf("zone host not a program's stamp: %+v", l)
	}
	for _, c := range [][2]string{{"web1", "[30]"}, {"UTC", "sshd"}, {"UTC", "[x1]"}, {"utc", "[30]"}, {"LONGZONE", "[30]"}} {
		if pgZoneHost(c[0], c[1]) {
			t.Errorf("%v taken for a zone and a pid", c)
		}
	}
	// The same words another program's (no SIGKILL) stay unnamed.
	if w := fix25bUnread("2024-03-15 07:46:35 UTC [30]: [1-1] @,app= [00000] LOG:  server process (PID 47440) exited with exit code 1\n"); fix25bHas(w, "SIGKILL") {
		t.Errorf("exit code 1 named as a kill: %v", w)
	}
}

// The kernel audit subsystem's queue records, under a relay's address before the host.
func TestKernelAuditBacklog(t *testing.T) {
	text := "Oct 25 14:42:34 127.0.0.1 hostname_xxxx kernel: [68883272.061566] audit: audit_backlog=4097 > audit_backlog_limit=4096\n" +
		"Oct 25 14:42:34 127.0.0.1 hostname_xxxx kernel: [68883272.061567] audit: audit_lost=494217 audit_rate_limit=0 audit_backlog_limit=4096\n" +
		"Oct 25 14:42:34 127.0.0.1 hostname_xxxx kernel: [68883272.061654] audit: audit_lost=494221 audit_rate_limit=0 audit_ba\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].Why != auditBacklogWhy || tl.Unparsed[0].FirstLine != 1 || tl.Unparsed[0].LastLine != 3 {
		t.Errorf("unparsed: %+v", tl.Unparsed)
	}
	l, _, _ := parseLine(1, "Oct 25 14:42:34 127.0.0.1 web1 kernel: [1.000000] audit: backlog limit exceeded")
	if !l.Kernel || l.Host != "web1" || l.Text != "audit: backlog limit exceeded" {
		t.Errorf("relay line: %+v", l)
	}
	for _, s := range []string{"audit: backlog limit exceeded", "audit: audit_lost=5"} {
		if !kernelAuditLine(s) {
			t.Errorf("%q not read", s)
		}
	}
	for _, s := range []string{
		"audit: type=1400 audit(1700000000.123:45): apparmor=\"DENIED\"",
		"raise audit_backlog_limit to 8192 with auditctl -b 8192",
		"audit: audit_backlog=lots > audit_backlog_limit=4096",
		"TCP: request_sock_TCP: Possible SYN flooding on port 80. Sending cookies.",
	} {
		if kernelAuditLine(s) {
			t.Errorf("%q read as the audit queue", s)
		}
	}
	// A tag-less message after an address keeps the address as its host.
	if l, _, _ := parseLine(1, "Oct 25 14:42:34 10.0.0.1 up 3 days, load 0.1"); l.Host != "10.0.0.1" {
		t.Errorf("address host: %+v", l)
	}
}

// g3log's fatal-signal line and QuestDB's CairoException for mmap, named by their signal
// and errno; Falco's metrics snapshot members.
func TestOwnEndCrashAndMmapAndFalco(t *testing.T) {
	why, oom, ok := ownEndForm("Received fatal signal: SIGABRT(6)\tPID: 12575")
	if !ok || oom || !strings.Contains(why, "caught SIGABRT") || !strings.Contains(why, "SIGKILL cannot be caught") {
		t.Errorf("g3log: %q %v %v", why, oom, ok)
	}
	why, oom, ok = ownEndForm("io.questdb.cairo.CairoException: [22] could not mmap  [size=9773232, fd=213, memUsed=938089301, fileLen=285212672]")
	if !ok || oom || !strings.Contains(why, "EINVAL") {
		t.Errorf("questdb 22: %q %v %v", why, oom, ok)
	}
	if why, _, ok = ownEndForm("CairoException: [12] could not mmap [size=1, fd=2, memUsed=3, fileLen=4]"); !ok || !strings.Contains(why, "ENOMEM") {
		t.Errorf("questdb 12: %q %v", why, ok)
	}
	for _, s := range []string{
		"Received fatal signal: SIGABRT(6) in my program, why?",
		"Received fatal signal: SIGSEGV",
		"io.questdb.cairo.CairoException: [2] could not open read-only [file=/x]",
		"we see CairoException: [22] could not mmap all the time",
	} {
		if why, _, ok := ownEndForm(s); ok {
			t.Errorf("%q named: %s", s, why)
		}
	}
	w := fix25bUnread("```json\n{\n\t\"output_fields\": {\n\t\t\"falco.memory_rss\": 291,\n\t\t\"falco.memory_used_host\": 3456,\n\t\t\"scap.n_drops\": 0\n\t}\n}\n```\n")
	if len(w) != 1 || w[0] != falcoMetricsWhy {
		t.Errorf("falco: %v", w)
	}
	for _, s := range []string{`"falco.hostname": "falco-ctj9r",`, `"memory_rss": 291,`, `falco.memory_rss is 291`} {
		if falcoMetricLine(s) {
			t.Errorf("%q read as Falco's metric", s)
		}
	}
}
