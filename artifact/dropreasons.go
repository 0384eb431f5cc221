package artifact

import (
	"fmt"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// Packet drops with the kernel's own reason, as a tool printed them (5.17+: every packet the
// kernel frees as a drop passes kfree_skb_reason, net/core/skbuff.c, with a reason of
// include/net/dropreason-core.h):
//
//	pwru:        "0xffff9c3b552ed000 7 [ping] kfree_skb_reason(SKB_DROP_REASON_CPU_BACKLOG) netns=... ifindex=48 ..."
//	trace_pipe:  "<idle>-0 [001] ..s1. 1234.567890: kfree_skb: skbaddr=00000000a1b2c3d4 protocol=2048 location=tcp_v4_rcv+0x8b/0xee0 reason: NO_SOCKET"
//
// Each line is one packet dropped. A pasted excerpt is a sample of the drops, its span
// unknown and often filtered ("| grep ping"): it says which reasons occurred, never that
// another reason did not (model.TraceWindow.Text).

// reDropReasonLine: pwru's function-and-reason field, or the skb:kfree_skb event's reason.
var reDropReasonLine = lazyre.New(`kfree_skb_reason\(SKB_DROP_REASON_([A-Z][A-Z0-9_]*)\)|\bkfree_skb:\s.*\breason:\s*([A-Z][A-Z0-9_]*)\b`)

// reDropLocation: the event's location when it is printed as a symbol (%pS).
var reDropLocation = lazyre.New(`\blocation=([A-Za-z_][\w.]*)\+0x`)

func isDropReasonLine(_, t string) bool {
	return strings.Contains(t, "kfree_skb") && reDropReasonLine.MatchString(t)
}

// tryDropReasons reads the run of drop lines that starts at line i into the text's window
// of reasons.
func (d *doc) tryDropReasons(i int) int {
	k := i
	for ; k < len(d.ls); k++ {
		t := d.ls[k].Text
		if !strings.Contains(t, "kfree_skb") {
			break
		}
		m := reDropReasonLine.FindStringSubmatch(t)
		if m == nil {
			break
		}
		w := d.textTrace()
		reason := m[1] + m[2]
		w.Drops = addTraceCount(w.Drops, model.TraceCount{Name: reason})
		w.DropsTotal++
		if l := reDropLocation.FindStringSubmatch(t); l != nil {
			w.Locations = addTraceCount(w.Locations, model.TraceCount{Name: l[1], Reason: reason})
			w.LocationsNamed = true
		}
	}
	if k == i {
		return 0
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	d.addArtifact(KindDropReasons, first, last, map[string]int{"drops": k - i})
	if d.dropFirst == 0 {
		d.dropFirst = first
	}
	w := d.tl.Trace
	w.Text = fmt.Sprintf("lines %d-%d", d.dropFirst, last)
	w.Drops = model.SortCounts(w.Drops, 0)
	w.Locations = model.SortCounts(w.Locations, 0)
	return k - i
}

// textTrace is the window the text's drop lines fill.
func (d *doc) textTrace() *model.TraceWindow {
	if d.tl.Trace == nil {
		d.tl.Trace = &model.TraceWindow{Mechanism: "pwru or skb:kfree_skb lines", Events: []string{"skb:kfree_skb"}, Reasons: true}
	}
	return d.tl.Trace
}

// addTraceCount counts one more of c's name and reason.
func addTraceCount(cs []model.TraceCount, c model.TraceCount) []model.TraceCount {
	for i := range cs {
		if cs[i].Name == c.Name && cs[i].Reason == c.Reason {
			cs[i].Count++
			return cs
		}
	}
	c.Count = 1
	return append(cs, c)
}
