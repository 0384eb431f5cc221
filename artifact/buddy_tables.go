package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
)

// Free-block counts per order that another tool printed from the kernel's free lists, in
// its own layout (issue 29, corpus 467 and 468). Each is rewritten into /proc/buddyinfo's
// form and read by the same parser (addBuddyRows); nothing is guessed: a row whose node or
// zone the text does not give is not read.
//
//	drgn-tools corelens "buddyinfo" (a vmcore), one row per zone after a header row:
//	  Node ID  Zone     Order 0        1  ...       10
//	  Node 0   Normal     15009     3297  ...    95121
//
//	a Markdown table, one cell an order:
//	  | Node 0, Normal | 37822 | 1617 | 35 | 0 | ... |
//
//	hotsos's YAML summary, one "order: count" a line, the highest order first:
//	  nodes:
//	    1:
//	      zones:
//	        Normal:
//	          10: 0
//	          ...
//	          0: 426212

var (
	reBuddyTableRow = lazyre.New(`^\s*Node\s+(\d+),?\s+(?:zone\s+)?(DMA|DMA32|Normal|HighMem|Movable|Device)((?:\s+\d+){3,` + strconv.Itoa(kernel.MaxBuddyInfoOrders) + `})\s*$`)
	reYAMLZone      = lazyre.New(`^(\s*)(DMA|DMA32|Normal|HighMem|Movable|Device):\s*$`)
	reYAMLOrder     = lazyre.New(`^(\s*)(\d{1,2}):\s*(\d+)\s*$`)
	reYAMLNode      = lazyre.New(`^(\s*)(\d+):\s*$`)
)

// buddyZoneName reports whether ft ("Normal:") names a zone alone on its line, as a YAML key.
func buddyZoneName(ft string) bool {
	switch ft {
	case "DMA:", "DMA32:", "Normal:", "HighMem:", "Movable:", "Device:":
		return true
	}
	return false
}

// tryBuddyTable reads corelens's rows: "Node N   Zone  c0 c1 ... c10", and the same rows
// in a Markdown table a post or a tool made of /proc/buddyinfo ("| Node 0, Normal | 37822 |
// 1617 | ... |", one cell an order).
func (d *doc) tryBuddyTable(i int) int {
	k := i
	var rows []string
	for ; k < len(d.ls); k++ {
		t := d.ls[k].Text
		if strings.HasPrefix(strings.TrimSpace(t), "|") {
			t = strings.ReplaceAll(t, "|", " ")
		}
		m := reBuddyTableRow.FindStringSubmatch(t)
		if m == nil {
			break
		}
		rows = append(rows, fmt.Sprintf("Node %s, zone %8s %s", m[1], m[2], strings.Join(fields(m[3]), " ")))
	}
	if len(rows) == 0 {
		return 0
	}
	d.addBuddyRows(i, k, rows)
	return k - i
}

// tryBuddyYAML reads zones given as YAML keys, each followed by its "order: count" lines
// (at least three distinct orders 0-10, more indented than the zone). The node is the
// numeric key the zones sit under; without one the zones are not read.
func (d *doc) tryBuddyYAML(i int) int {
	zm := reYAMLZone.FindStringSubmatch(d.ls[i].Text)
	if zm == nil {
		return 0
	}
	node, ok := yamlParentNode(d.ls, i, len(zm[1]))
	if !ok {
		return 0
	}
	ind := len(zm[1])
	var rows []string
	j := i
	for j < len(d.ls) {
		zm := reYAMLZone.FindStringSubmatch(d.ls[j].Text)
		if zm == nil || len(zm[1]) != ind {
			break
		}
		counts := map[int]string{}
		top := -1
		k := j + 1
		for ; k < len(d.ls); k++ {
			om := reYAMLOrder.FindStringSubmatch(d.ls[k].Text)
			if om == nil || len(om[1]) <= ind {
				break
			}
			o := 0
			fmt.Sscanf(om[2], "%d", &o)
			if _, dup := counts[o]; dup || o > 10 {
				break
			}
			counts[o] = om[3]
			top = max(top, o)
		}
		if len(counts) < 3 || len(counts) != top+1 {
			break // orders missing in between: not a free-list listing
		}
		cs := make([]string, top+1)
		for o := range cs {
			cs[o] = counts[o]
		}
		rows = append(rows, fmt.Sprintf("Node %d, zone %8s %s", node, zm[2], strings.Join(cs, " ")))
		j = k
	}
	if len(rows) == 0 {
		return 0
	}
	d.addBuddyRows(i, j, rows)
	return j - i
}

// yamlParentNode finds the numeric key ("1:") the zone at line i (indented ind) belongs to:
// the nearest less indented line above, skipping a "zones:" key between them.
func yamlParentNode(ls []Line, i, ind int) (int, bool) {
	for j := i - 1; j >= 0 && i-j <= 4; j-- {
		t := ls[j].Text
		lead := len(t) - len(strings.TrimLeft(t, " "))
		if strings.TrimSpace(t) == "" || lead >= ind {
			continue
		}
		if strings.TrimSpace(t) == "zones:" {
			ind = lead
			continue
		}
		if m := reYAMLNode.FindStringSubmatch(t); m != nil {
			n := 0
			fmt.Sscanf(m[2], "%d", &n)
			return n, true
		}
		return 0, false
	}
	return 0, false
}
