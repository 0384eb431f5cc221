package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// A paste that compares two machines shows the same command's output once per machine, each
// under a heading that names it: "First the "bad" machine: ... And now the "good" machine:"
// (a 2003 LKML thread comparing two squid proxies' netstat -s), "On the other server:",
// "The second host:". The counters under the second heading are another host's since-boot
// counts, not a later reading of the first: their difference is no growth, and a smaller
// count is no reset. reMachineHeading finds the machine a table's label (Segment.Label, the
// lines right above it) names by a qualifier; otherHostQualifiers are those that always mean
// a machine other than the ones before.
var reMachineHeading = lazyre.New(`(?i)\b(other|second|2nd|another|good|bad|working|broken|healthy|faulty|problem(?:atic)?|affected|unaffected|slow|fast)["'”’]?\s+(?:machine|host|server|box|node)s?\b`)

var otherHostQualifiers = map[string]bool{"other": true, "second": true, "2nd": true, "another": true}

// markOtherHosts sets Timeline.OtherHost at the first sample of each segment whose label
// names a machine other than the one the labels before it named. A label naming the same
// machine again ("bad machine, an hour later") or no machine continues the host before.
func (d *doc) markOtherHosts() {
	prev := ""
	for _, g := range d.tl.Segments {
		m := reMachineHeading.FindStringSubmatch(g.Label)
		if m == nil {
			continue
		}
		q := strings.ToLower(m[1])
		switch {
		case g.First == 0:
		case otherHostQualifiers[q], prev != "" && q != prev:
			d.tl.OtherHost = append(d.tl.OtherHost, g.First)
		}
		prev = q
	}
}
