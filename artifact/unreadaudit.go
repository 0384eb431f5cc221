package artifact

import (
	"strings"
)

// The kernel audit subsystem's own queue and loss records (fix39b, corpus 3348), from
// kernel/audit.c under pr_fmt "audit: ": audit_log_start's
// pr_warn("audit_backlog=%d > audit_backlog_limit=%d") when the queue of records for the
// audit daemon passed audit_backlog_limit (auditctl -b), then audit_log_lost's
// pr_warn("audit_lost=%u audit_rate_limit=%u audit_backlog_limit=%u") and, under the
// failure mode printk, audit_panic's "backlog limit exceeded" / "rate limit exceeded" /
// "kauditd hold queue overflow". They prove the audit consumer (auditd, osquery, a SIEM
// agent on the audit netlink socket) does not read records as fast as the kernel makes them,
// and that audit_lost records were dropped: a queue of the audit subsystem counted in
// records, not a socket's listen backlog, not the softnet backlog and not memory. No rule
// judges them; as kernel records they stay in the log and are listed with what they mean.
//
// Counter-cases: the words in a sentence or advice ("raise audit_backlog_limit to 8192",
// "-b 8192") and auditd's own records ("type=1400 audit(...)") have neither form.

const auditBacklogWhy = "the kernel's audit queue was full and audit records were lost (kernel/audit.c audit_log_start: \"audit: audit_backlog=N > audit_backlog_limit=L\", audit_log_lost: \"audit: audit_lost=N audit_rate_limit=R audit_backlog_limit=L\", \"audit: backlog limit exceeded\"): the audit daemon or agent reading the audit netlink socket (auditd, osquery) did not keep up with the records the kernel made, so records past audit_backlog_limit (auditctl -b) were dropped and audit_lost counts them since boot; a queue of the audit subsystem counted in records, not a socket's listen backlog, the softnet backlog or memory; headroom has no rule for it"

// kernelAuditLine: t is one of kernel/audit.c's queue or loss records, its "audit: " prefix
// first (a record cut at its end keeps its first figure).
func kernelAuditLine(t string) bool {
	rest, ok := strings.CutPrefix(t, "audit: ")
	if !ok {
		return false
	}
	if v, ok := strings.CutPrefix(rest, "audit_backlog="); ok {
		d := leadingDigits(v)
		return d != "" && strings.HasPrefix(v[len(d):], " > audit_backlog_limit=")
	}
	if v, ok := strings.CutPrefix(rest, "audit_lost="); ok {
		d := leadingDigits(v)
		return d != "" && (len(d) == len(v) || v[len(d)] == ' ')
	}
	switch rest {
	case "backlog limit exceeded", "rate limit exceeded", "kauditd hold queue overflow", "kauditd retry queue overflow":
		return true
	}
	return false
}

// kernelAuditNamed lists kernel record no (text t) when it is an audit queue record: a run
// of them (the two forms alternate) is one entry.
func (d *doc) kernelAuditNamed(no int, t string) {
	if !kernelAuditLine(t) {
		return
	}
	d.namedKernelRun(no, auditBacklogWhy)
}
