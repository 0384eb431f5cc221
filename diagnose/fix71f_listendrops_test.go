package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
)

// fix71f (corpus 7275): a netstat -s whose TcpExt has ListenDrops but no ListenOverflows.
// ListenDrops counts every drop at a listener, overflows among them, so it bounds the
// handshakes a full accept queue could have made the server resend: 3 drops are no root of
// 10 million retransmitted segments, and retransmit-rate stands as its own cause. With
// ListenOverflows read, it is the count (TestCountFacts).
func TestListenDropsBoundTheOverflows(t *testing.T) {
	rs := []netCounterReading{{netCounter: netCounter{Name: "ListenDrops"}, growth: growth{last: 3, hasLast: true}}}
	if f := listenOverflowCount(rs); f.Counted != 3 || !f.CountedSinceBoot {
		t.Errorf("listenOverflowCount with ListenDrops alone = %+v, want 3 since boot", f)
	}
	text := "Tcp:\n    5423 active connections openings\n    365986218 segments send out\n    10055307 segments retransmited\n" +
		"TcpExt:\n    3 SYNs to LISTEN sockets dropped\n"
	d := Run(artifact.ParseString(text, "t", artifact.Options{}), nil)
	if len(d.Story.Causes) == 0 || d.Story.Causes[0].ID != "retransmit-rate" {
		var got []string
		for _, c := range d.Story.Causes {
			got = append(got, c.ID)
		}
		t.Errorf("root causes %s, want retransmit-rate first", strings.Join(got, ", "))
	}
}
