package report

import (
	"testing"

	"headroom/artifact"
	"headroom/diagnose"
)

// Corpus 7133 and 2583: a guide quotes "nf_conntrack: table full, dropping packet" as the
// symptom it explains, beside its own calm sysctl output (3 of 31248 entries). The quoted
// line has no time of its own and the count is far from the maximum: the finding is Info
// and offers no change. The same line with a stamp, or a count near the maximum, stays
// critical (the counter-cases).
func TestConntrackQuotedMessageBesideACalmCount(t *testing.T) {
	calm := "\n$ sysctl net.netfilter.nf_conntrack_max\nnet.netfilter.nf_conntrack_max = 31248\n" +
		"\n$ sysctl net.netfilter.nf_conntrack_count\nnet.netfilter.nf_conntrack_count = 3\n"
	full := "\n$ sysctl net.netfilter.nf_conntrack_max\nnet.netfilter.nf_conntrack_max = 31248\n" +
		"\n$ sysctl net.netfilter.nf_conntrack_count\nnet.netfilter.nf_conntrack_count = 31248\n"
	quoted := "##### 症状：\n\n服务器负载正常，但请求大量超时。\n\n在 dmesg 或 /var/log/messages 看到大量以下记录：\n\n`kernel: nf_conntrack: table full, dropping packet.`\n"
	stamped := "dmesg shows:\n\n[12345.678901] nf_conntrack: table full, dropping packet\n"
	for _, tc := range []struct {
		name, text string
		want       diagnose.Severity
		change     bool
	}{
		{"quoted, calm count", quoted + calm, diagnose.Info, false},
		{"stamped, calm count", stamped + calm, diagnose.Critical, true},
		{"quoted, full count", quoted + full, diagnose.Critical, true},
	} {
		tl := artifact.ParseString(tc.text, "t", artifact.Options{})
		var got *diagnose.Finding
		d := diagnose.Run(tl, nil)
		for i, f := range d.Findings {
			if f.ID == "conntrack-full" {
				got = &d.Findings[i]
			}
		}
		if got == nil {
			t.Errorf("%s: no conntrack-full finding", tc.name)
			continue
		}
		if got.Severity != tc.want || (len(got.Changes) > 0) != tc.change {
			t.Errorf("%s: severity %v with %d changes (%q), want %v with a change: %v", tc.name, got.Severity, len(got.Changes), got.Title, tc.want, tc.change)
		}
	}
}
