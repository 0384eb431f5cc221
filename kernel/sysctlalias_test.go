package kernel

import "testing"

// A bare name two keys end with names one value when the keys are one variable
// (net.nf_conntrack_max is net.netfilter.nf_conntrack_max's alias); a bare name of two
// different variables stays unresolved.
func TestResolveSysctlNameAlias(t *testing.T) {
	if k, ok := ResolveSysctlName("nf_conntrack_max"); !ok || k != "net.netfilter.nf_conntrack_max" {
		t.Errorf("nf_conntrack_max: %q %v", k, ok)
	}
	if k, ok := ResolveSysctlName("nf_conntrack_count"); !ok || k != "net.netfilter.nf_conntrack_count" {
		t.Errorf("nf_conntrack_count: %q %v", k, ok)
	}
	// Two variables, one last component: net.ipv4.conf.*.forwarding-like names stay open.
	k := knownKeys()
	for last, c := range k.byLast {
		if len(c) < 2 || last == "nf_conntrack_max" {
			continue
		}
		if got, ok := ResolveSysctlName(last); ok {
			t.Errorf("%q (%v) resolved to %q", last, c, got)
		}
	}
}
