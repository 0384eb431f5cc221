package artifact

import (
	"strconv"
	"strings"
)

// RouterOS's statistics of an Ethernet port or a switch chip (round 44, fix49d): MikroTik's
// CLI "/interface ethernet switch print stats", "/interface ethernet print stats" and
// "/interface ethernet switch port print stats" print one "name: value" per line, the names
// right-aligned to a column, the counters with a space between groups of three digits
// ("driver-rx-byte:  221 369 701"), a "name:" line first. The counters are the switch chip's
// or the port MAC's own (rx-drop, rx-fcs-error, tx-too-long: frames the chip refused on
// egress as longer than the port's MTU, tx-pause: flow-control frames sent): a MikroTik
// device's hardware, not a Linux host's /proc/net/dev, ethtool -S or softnet_stat, so no
// rule judges them (nic-rx-overruns, rx-dropped-software read the Linux host's counters).
// The block is named unread with what it proves and its counters kept as one program
// figure (a grouped "221 369 701" read as the single value 221369701).
//
// Gated: the line's own form (routerOSStatLine), then, walking up over lines of that form,
// the RouterOS command "print stats" right above the block (a "[admin@MikroTik] >" prompt
// or the bare command).

const routerOSStatsWhy = "RouterOS's port or switch-chip statistics (/interface ethernet [switch] print stats: rx-drop, rx-fcs-error, tx-too-long, tx-pause...): counters a MikroTik switch chip or port MAC keeps in hardware, printed by the router's CLI with spaces between digit groups; not a Linux host's /proc/net/dev, ethtool -S or softnet counters (tx-too-long counts frames refused on egress as longer than the port's MTU, tx-pause flow-control frames sent: neither is a ring overrun nor host memory); headroom has no rule for a switch chip's counters"

// routerOSStatLine splits t, "   rx-too-long:      8 397", into the counter's name and its
// value with the groups joined; ok with name "name" for the block's first line.
func routerOSStatLine(t string) (name, value string, ok bool) {
	s := strings.TrimSpace(t)
	c := strings.Index(s, ": ")
	if c < 2 || c > 40 {
		return "", "", false
	}
	name = s[:c]
	for j := 0; j < len(name); j++ {
		b := name[j]
		if !(b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '-') {
			return "", "", false
		}
	}
	v := strings.TrimSpace(s[c+1:])
	if v == "" {
		return "", "", false
	}
	if name == "name" {
		return name, v, !strings.Contains(v, " ")
	}
	groups := strings.Split(v, " ")
	for k, g := range groups {
		if g == "" || leadingDigits(g) != g || k > 0 && len(g) != 3 || k == 0 && len(g) > 3 && len(groups) > 1 {
			return "", "", false
		}
	}
	return name, strings.Join(groups, ""), true
}

// routerOSStatsCommand: t is RouterOS's command for a port's or switch chip's statistics,
// after its prompt or bare ("[admin@MikroTik] > /interface ethernet switch print stats").
func routerOSStatsCommand(t string) bool {
	s := strings.TrimSpace(t)
	k := strings.Index(s, "/interface ethernet ")
	if k < 0 {
		return false
	}
	p := strings.TrimSpace(s[:k])
	if p != "" && !(strings.HasPrefix(p, "[") && strings.HasSuffix(p, "] >")) {
		return false
	}
	return strings.HasSuffix(strings.TrimSpace(s[k:]), " print stats") || strings.Contains(s[k:], " print stats ")
}

// routerOSStats names line i unread when it is a counter of a RouterOS statistics block;
// the block's first counter line keeps the block's counters as one program figure.
func (d *doc) routerOSStats(i int) bool {
	if _, _, ok := routerOSStatLine(d.ls[i].Text); !ok {
		return false
	}
	top := i
	for top > 0 && i-top < 200 {
		t := d.ls[top-1].Text
		if strings.TrimSpace(t) == "" {
			top--
			continue
		}
		if _, _, ok := routerOSStatLine(t); !ok {
			break
		}
		top--
	}
	cmd := top - 1
	for cmd >= 0 && strings.TrimSpace(d.ls[cmd].Text) == "" {
		cmd--
	}
	if cmd < 0 || !routerOSStatsCommand(d.ls[cmd].Text) {
		return false
	}
	d.unparsedUnread(i, routerOSStatsWhy)
	if first := d.routerOSFirstCounter(top); first == i && d.programFigureCount < maxProgramFigureArtifacts {
		data := map[string]any{"program": "routeros"}
		end := i
		for j := i; j < len(d.ls); j++ {
			if strings.TrimSpace(d.ls[j].Text) == "" {
				continue
			}
			n, v, ok := routerOSStatLine(d.ls[j].Text)
			if !ok {
				break
			}
			end = j
			if x, err := strconv.ParseInt(v, 10, 64); err == nil {
				data[n] = x
			} else {
				data[n] = v
			}
		}
		d.programFigureCount++
		d.addArtifact(KindProgramLimit, d.ls[i].No, d.ls[end].No, data)
	}
	return true
}

// routerOSFirstCounter: the first line of the block from top on.
func (d *doc) routerOSFirstCounter(top int) int {
	for j := top; j < len(d.ls); j++ {
		if strings.TrimSpace(d.ls[j].Text) != "" {
			return j
		}
	}
	return top
}
