package tracetest

import "testing"

// A setting that appears during a test at the kernel's default is no leak; one enabled,
// filtered or triggered is.
func TestAtRest(t *testing.T) {
	for _, c := range []struct {
		key, v string
		want   bool
	}{
		{"/events/sched/sched_switch/enable", "0\n", true},
		{"/events/sched/sched_switch/enable", "1\n", false},
		{"/events/sched/enable", "X\n", false},
		{"/events/skb/kfree_skb/filter", "none\n", true},
		{"/events/skb/kfree_skb/filter", "reason != 2\n", false},
		{"/events/skb/kfree_skb/trigger", "# Available triggers:\n# traceon traceoff snapshot stacktrace enable_event disable_event\n", true},
		{"/events/skb/kfree_skb/trigger", "# Available triggers:\ntraceon\n", false},
		{"tracing_on", "1\n", false},
	} {
		if got := atRest(c.key, c.v); got != c.want {
			t.Errorf("atRest(%s, %q) = %v, want %v", c.key, c.v, got, c.want)
		}
	}
}
