package artifact

import (
	"fmt"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// A BSD's netstat -s tcp section (fix56a; kernel.BSDTCPSentence names its sentences and the
// few read under Linux's counter names): a lowercase "tcp:" header over "%ju sentence" lines,
// tab-indented as printed, or flush left or list-marked as a page re-renders them. The lines
// run while each is a number sentence; a tcp_stats sentence the table does not name is kept
// under the artifact's unmapped. The block is the section only with three of its own
// sentences at least, "packets sent" or "data packets (N bytes) retransmitted" among them:
// Linux's netstat has "Tcp:" and "segments sent out", never these.

const bsdTCPLayout = "a BSD's netstat -s tcp section (usr.bin/netstat inet.c tcp_stats): \"packets sent\" read as Tcp OutSegs, \"data packets (N bytes) retransmitted\" as RetransSegs, \"packets received\" as InSegs, \"listen queue overflows\" as TcpExt ListenOverflows, connection requests and accepts as ActiveOpens and PassiveOpens; the others are FreeBSD's own, not mapped"

// tryBSDNetstatTCP reads a "tcp:" header and its tcp_stats sentences.
func (d *doc) tryBSDNetstatTCP(i int) int {
	if strings.TrimSpace(d.ls[i].Text) != "tcp:" {
		return 0
	}
	var gs kernel.Groups
	var other []string
	known, own := 0, false
	k := i + 1
	for ; k < len(d.ls); k++ {
		t := strings.TrimSpace(d.ls[k].Text)
		if t == "" {
			break
		}
		st, v, ok := kernel.BSDTCPSentence(t)
		if !ok {
			if _, _, num := kernel.BSDTCPKey(t); !num || strings.HasSuffix(t, ":") {
				break
			}
			other = append(other, fmt.Sprintf("line %d: %s", d.ls[k].No, t))
			continue
		}
		known++
		if st.Field == "tcps_sndtotal" || st.Field == "tcps_sndrexmitpack" {
			own = true
		}
		if st.Name != "" {
			gs.Set(st.Group, st.Name, v)
		} else {
			other = append(other, fmt.Sprintf("line %d: %s (%s)", d.ls[k].No, t, st.Field))
		}
	}
	if known < 3 || !own {
		return 0
	}
	ns := &NetstatS{Groups: gs, Unmapped: other, Layout: bsdTCPLayout}
	return d.addTable(KindNetstatS, i, k, model.Sample{NetStat: gs}, ns)
}
