package diagnose

import "testing"

// fix63i: "the kernel's nf_conntrack table was overflown" (the participle a non-native
// writer uses, and "overflowed") states the table full on this host; a condition, a
// negation or advice does not.
func TestFix63iConntrackTableOverflown(t *testing.T) {
	for _, text := range []string{
		"While restarting all OSDs on a host, the kernel's nf_conntrack table was overflown. This rendered all OSDs unusable.\n",
		"Last night the conntrack table was overflowed by the reconnect storm.\n",
	} {
		mustFire(t, fired(t, "conntrack-full", text), Warning) // stated, no count: a warning
	}
	for _, text := range []string{
		"If the conntrack table is overflown, packets drop.\n",
		"Make sure the conntrack table was never overflown.\n",
	} {
		if res := fired(t, "conntrack-full", text); len(res.Findings) != 0 {
			t.Errorf("%q: %+v", text, res.Findings)
		}
	}
}
