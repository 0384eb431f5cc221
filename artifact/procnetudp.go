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
	if end, ok := d.udpSocketRows(i, i+1); ok {
		return end - i
	}
	return 0
}

// isUDPSocketBareRow: a line that may be a /proc/net/udp row without its header
// ("52807: 00000000:2711 00000000:0000 07 ..."): its slot, then a hex address and port.
func isUDPSocketBareRow(ft, t string) bool {
	return len(ft) > 1 && ft[len(ft)-1] == ':' && strings.Count(t, ":") >= 5
}

// tryUDPSocketBareRows reads /proc/net/udp rows whose header the command left out (fix32b,
// corpus 2766: "[root@relay ~]# grep 441182764 /proc/net/udp" over the socket's one row,
// its drops column last): read only under a command line that names /proc/net/udp or
// udp6 (a prompt, or cat/grep/awk... as its first word), since /proc/net/raw's rows have
// the same columns and a row alone does not say which file it is.
func (d *doc) tryUDPSocketBareRows(i int) int {
	if _, ok := kernel.ParseUDPSocketRow(d.ls[i].Text); !ok {
		return 0
	}
	j := i - 1
	for ; j >= 0 && j >= i-3; j-- {
		if t := strings.TrimSpace(d.ls[j].Text); t != "" && !strings.HasPrefix(t, "```") {
			break
		}
	}
	if j < 0 || j < i-3 || !udpSocketsCommand(d.ls[j].Text) {
		return 0
	}
	if end, ok := d.udpSocketRows(i, i); ok {
		return end - i
	}
	return 0
}

// udpSocketsCommand: t is a shell command that prints /proc/net/udp (or udp6) rows.
func udpSocketsCommand(t string) bool {
	k := strings.Index(t, "/proc/net/udp")
	if k < 0 || strings.Contains(t, "/proc/net/raw") {
		return false
	}
	if rest := t[k+len("/proc/net/udp"):]; rest != "" && rest[0] != '6' && rest[0] != ' ' && rest[0] != '|' && rest[0] != '\t' {
		return false // not the file ("/proc/net/udplite" is UDP-Lite's; a path's "/proc/net/udp_x")
	}
	s := strings.TrimSpace(t)
	if s == "" {
		return false
	}
	if c, ok := cutPrompt(s); ok {
		s = strings.TrimSpace(c)
	}
	switch f, _, _ := nextField(strings.TrimPrefix(s, "sudo ")); f {
	case "cat", "grep", "egrep", "fgrep", "awk", "head", "tail", "watch", "less", "more":
		return true
	}
	return false
}

// udpSocketRows reads the rows from line k on as the table that line i (its header, or its
// first row) opens, and returns the index past the lines it took; false when there is no row.
func (d *doc) udpSocketRows(i, k int) (int, bool) {
	var rows []kernel.UDPSocketRow
	for ; k < len(d.ls); k++ {
		r, ok := kernel.ParseUDPSocketRow(d.ls[k].Text)
		if !ok {
			break
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		return 0, false
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
	return k, true
}
