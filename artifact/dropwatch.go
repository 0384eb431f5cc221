package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// dropwatch (the netdevice drop monitor's client, NET_DM over generic netlink; kernel side
// net/core/drop_monitor.c, trace_drop_common) prints one line per location and interval:
// "19 drops at __netif_receive_skb+49f (0xffffffff8147b4ef)" (the symbol and offset of the
// kfree_skb caller, then its address), newer clients "... [software]" or "[hardware]" and a
// drop reason. Each line says how many packets the kernel freed as dropped at that place in
// the window the session ran: drops at a location, not a counter since boot. A session is
// pasted with its prompts ("dropwatch> start", "Issue Ctrl-C to stop monitoring") around
// the lines, and Ctrl-C often lands on the last ("... ^CGot a stop message").

// DropwatchSession is one run of drop lines: the drops summed per location (the symbol
// without its offset) in the order first seen, and their total.
type DropwatchSession struct {
	Locations []DropwatchLocation `json:"locations"`
	Total     int64               `json:"total"`
}

// DropwatchLocation is a symbol and the drops counted at it.
type DropwatchLocation struct {
	Symbol string `json:"symbol"`
	Drops  int64  `json:"drops"`
}

// The location must look like code: an offset ("+49f") or an address ("(0xffffffff8147b4ef)",
// "location 0x..."), so "5 drops at the switch" in prose is no dropwatch line.
var reDropwatchLine = lazyre.New(`^(\d+) drops? at (?:location (0x[0-9a-fA-F]+)|([A-Za-z_][\w.]*)(?:\+(?:0x)?[0-9a-fA-F]+(?:/(?:0x)?[0-9a-fA-F]+)?(?:\s+\(0x[0-9a-fA-F]+\))?|\s+\(0x[0-9a-fA-F]+\)))`)

func isDropwatchLine(_, t string) bool {
	return strings.Contains(t, " drop") && reDropwatchLine.MatchString(strings.TrimSpace(t))
}

// tryDropwatch reads the run of drop lines that starts at line i.
func (d *doc) tryDropwatch(i int) int {
	s := &DropwatchSession{}
	at := map[string]int{}
	k := i
	for ; k < len(d.ls); k++ {
		m := reDropwatchLine.FindStringSubmatch(strings.TrimSpace(d.ls[k].Text))
		if m == nil {
			break
		}
		n, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			break
		}
		sym := m[2] + m[3]
		j, ok := at[sym]
		if !ok {
			j = len(s.Locations)
			at[sym] = j
			s.Locations = append(s.Locations, DropwatchLocation{Symbol: sym})
		}
		s.Locations[j].Drops += n
		s.Total += n
	}
	if k == i {
		return 0
	}
	d.addArtifact(KindDropwatch, d.ls[i].No, d.ls[k-1].No, s)
	return k - i
}
