package report

import (
	"testing"

	"headroom/artifact"
	"headroom/diagnose"
)

// fix70g (corpus 7232, moby#44973): drops with the kernel's own reason as a tool printed
// them: pwru's kfree_skb_reason(SKB_DROP_REASON_CPU_BACKLOG) lines, and trace_pipe's
// skb:kfree_skb events. They are read as the text's window of reasons: CPU_BACKLOG makes
// softnet-backlog-drops; a reason the excerpt lacks is not shown absent (a pasted trace is
// filtered and of unknown span), and a reason named in prose is no drop.
func TestDropReasonsReadFromText(t *testing.T) {
	const pwru = "$ sudo pwru --output-meta --filter-func kfree_skb_reason | grep ping\n" +
		"0xffff9c3b552ed000      7           [ping] kfree_skb_reason(SKB_DROP_REASON_CPU_BACKLOG) netns=4026533703 mark=0x0 ifindex=48 proto=608 mtu=1500 len=28\n" +
		"0xffff9c385b3b7e00      7           [ping] kfree_skb_reason(SKB_DROP_REASON_CPU_BACKLOG) netns=4026532408 mark=0x0 ifindex=6 proto=608 mtu=1500 len=28\n"
	const tracePipe = "# cat /sys/kernel/tracing/trace_pipe\n" +
		"          <idle>-0       [001] ..s1.  8214.563113: kfree_skb: skbaddr=00000000c0e3d5f1 protocol=2048 location=tcp_v4_rcv+0x8b/0xee0 reason: NO_SOCKET\n"
	const prose = "The socket's window was zero, so the kernel dropped it because of SKB_DROP_REASON_TCP_ZEROWINDOW: see the commit.\n"
	for _, tc := range []struct {
		name, text string
		drops      uint64
		fired      bool // softnet-backlog-drops
		notHealthy bool // softnet-backlog-drops not called healthy
	}{
		{"pwru", pwru, 2, true, true},
		{"trace_pipe, another reason", tracePipe, 1, false, true},
		{"prose", prose, 0, false, true},
	} {
		tl := artifact.ParseString(tc.text, "t", artifact.Options{})
		var got uint64
		if tl.Trace != nil {
			got = tl.Trace.DropsTotal
		}
		if got != tc.drops {
			t.Errorf("%s: %d drops read, want %d", tc.name, got, tc.drops)
		}
		d := diagnose.Run(tl, nil)
		fired := false
		for _, f := range d.Findings {
			fired = fired || f.ID == "softnet-backlog-drops"
		}
		healthy := false
		for _, c := range d.Checks {
			if c.ID == "softnet-backlog-drops" && c.Status == "ok" {
				healthy = true
			}
		}
		if fired != tc.fired || healthy == tc.notHealthy {
			t.Errorf("%s: softnet-backlog-drops fired %v healthy %v, want fired %v healthy %v", tc.name, fired, healthy, tc.fired, !tc.notHealthy)
		}
	}
	tl := artifact.ParseString(tracePipe, "t", artifact.Options{})
	if tl.Trace == nil || len(tl.Trace.Locations) != 1 || tl.Trace.Locations[0].Name != "tcp_v4_rcv" || tl.Trace.Locations[0].Reason != "NO_SOCKET" {
		t.Errorf("trace_pipe location: %+v", tl.Trace)
	}
}
