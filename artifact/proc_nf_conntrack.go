package artifact

import (
	"strconv"
	"strings"
)

// /proc/net/nf_conntrack's entries (nf_conntrack_standalone.c ct_seq_show) and conntrack -L's
// (the same without the layer-3 columns), one connection a line, which mail clients wrap over
// two or three lines:
//
//	ipv4     2 tcp      6 112 SYN_SENT src=10.0.0.1 dst=10.0.0.2 sport=2642 dport=9007 [UNREPLIED]
//	src=10.0.0.2 dst=10.0.0.1 sport=9007 dport=2642 mark=0 zone=0 use=2
//
// An entry is kept with its protocol, the seconds left of its timeout, its TCP state, flags
// and the original direction's ports; the block says how many entries of each state it shows.
// The entries a paste shows are a sample of the table, not its count: nf_conntrack_count is
// not read from them.

// ConntrackEntry is one entry.
type ConntrackEntry struct {
	L3      string   `json:"l3,omitempty"`
	Proto   string   `json:"proto"`
	Timeout int64    `json:"timeout"`
	State   string   `json:"state,omitempty"`
	Flags   []string `json:"flags,omitempty"`
	Sport   int64    `json:"sport,omitempty"`
	Dport   int64    `json:"dport,omitempty"`
}

// ConntrackEntries is one block of entries and their count per state.
type ConntrackEntries struct {
	Entries []ConntrackEntry `json:"entries"`
	States  map[string]int   `json:"states,omitempty"`
}

var conntrackProtos = map[string]bool{"tcp": true, "udp": true, "icmp": true, "icmpv6": true, "sctp": true, "dccp": true, "gre": true, "udplite": true, "unknown": true}

// conntrackEntryStart: where the entry's own columns start in fs ("ipv4 2 tcp 6 112 ..." at 2,
// conntrack -L's "tcp 6 112 ..." at 0), or -1.
func conntrackEntryStart(fs []string) int {
	at := 0
	if len(fs) > 0 && (fs[0] == "ipv4" || fs[0] == "ipv6") {
		if len(fs) < 2 || !isDigits(fs[1]) {
			return -1
		}
		at = 2
	}
	if len(fs) < at+4 || !conntrackProtos[fs[at]] || !isDigits(fs[at+1]) || !isDigits(fs[at+2]) {
		return -1
	}
	return at
}

func isConntrackEntryLine(_, t string) bool {
	return strings.Contains(t, "src=") && conntrackEntryStart(fields(t)) >= 0
}

// tryConntrackEntries reads consecutive entries, each with the wrapped lines that continue it
// (lines that start with "key=" or "[FLAG]" until "use=N" ends it).
func (d *doc) tryConntrackEntries(i int) int {
	var data ConntrackEntries
	k := i
	for k < len(d.ls) && isConntrackEntryLine("", d.ls[k].Text) {
		fs := fields(d.ls[k].Text)
		k++
		for !hasUseField(fs) && k < len(d.ls) {
			next := fields(d.ls[k].Text)
			if len(next) == 0 || !(strings.Contains(next[0], "=") || strings.HasPrefix(next[0], "[")) {
				break
			}
			fs = append(fs, next...)
			k++
		}
		at := conntrackEntryStart(fs)
		e := ConntrackEntry{Proto: fs[at]}
		if at == 2 {
			e.L3 = fs[0]
		}
		e.Timeout, _ = strconv.ParseInt(fs[at+2], 10, 64)
		rest := fs[at+3:]
		if len(rest) > 0 && !strings.Contains(rest[0], "=") && !strings.HasPrefix(rest[0], "[") {
			e.State = rest[0]
			rest = rest[1:]
		}
		seenPorts := 0
		for _, f := range rest {
			switch {
			case strings.HasPrefix(f, "[") && strings.HasSuffix(f, "]"):
				e.Flags = append(e.Flags, strings.Trim(f, "[]"))
			case strings.HasPrefix(f, "sport=") && seenPorts < 1:
				e.Sport, _ = strconv.ParseInt(f[6:], 10, 64)
			case strings.HasPrefix(f, "dport=") && seenPorts < 1:
				e.Dport, _ = strconv.ParseInt(f[6:], 10, 64)
				seenPorts++ // the reply direction's ports follow
			}
		}
		data.Entries = append(data.Entries, e)
	}
	if len(data.Entries) == 0 {
		return 0
	}
	data.States = map[string]int{}
	for _, e := range data.Entries {
		if e.State != "" {
			data.States[e.State]++
		}
	}
	d.addArtifact(KindConntrackEntries, d.ls[i].No, d.ls[k-1].No, data)
	return k - i
}

func hasUseField(fs []string) bool {
	return len(fs) > 0 && strings.HasPrefix(fs[len(fs)-1], "use=")
}
