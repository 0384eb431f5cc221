package artifact

import (
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// KindUDPSockets is a pasted /proc/net/udp or udp6 table (cat /proc/net/udp): one row per
// socket with its queues and its own drop count.
const KindUDPSockets = "udp_sockets"

// tryUDPSockets reads the header at line i and the rows after it. A row the paste cut
// ("52007: 00000000") ends the table and is left unread. The same header heads
// /proc/net/raw, whose rows are raw sockets: a table the line before names as raw is not
// read as UDP.
func (d *doc) tryUDPSockets(i int) int {
	if !kernel.IsUDPSocketHeader(d.ls[i].Text) {
		return 0
	}
	if i > 0 && strings.Contains(d.ls[i-1].Text, "/proc/net/raw") {
		return 0
	}
	var rows []kernel.UDPSocketRow
	k := i + 1
	for ; k < len(d.ls); k++ {
		r, ok := kernel.ParseUDPSocketRow(d.ls[k].Text)
		if !ok {
			break
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		return 0
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	if k < len(d.ls) {
		if f := firstField(d.ls[k].Text); strings.HasSuffix(f, ":") && isDigits(strings.TrimSuffix(f, ":")) {
			// A row the paste cut: not read, and said so.
			d.unparsed(k, k, "a /proc/net/udp row cut by the paste")
			k++
		}
	}
	d.tl.UDPSockets = append(d.tl.UDPSockets, model.UDPSocketTable{Rows: rows, Source: spanSource(first, last) + " (/proc/net/udp)"})
	d.segSeq++
	d.addArtifact(KindUDPSockets, first, last, rows)
	return k - i
}
