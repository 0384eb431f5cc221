package kernel

import (
	"fmt"
	"io"
)

// BuddyZone is one line of /proc/buddyinfo: free blocks per order (index = order) in one
// zone. The number of orders is MAX_ORDER (11 on most configs; more with larger
// CONFIG_ARCH_FORCE_MAX_ORDER), so Free's length varies.
type BuddyZone struct {
	Node int     `json:"node"`
	Zone string  `json:"zone"`
	Free []int64 `json:"free"`
}

// /proc/buddyinfo (mm/vmstat.c frag_show_print): "Node %d, zone %8s " then "%6lu " per order.
// The layout has not changed since 2.6; pasted copies often have tabs instead of the padding,
// which the parser accepts.

// ReadBuddyInfo reads /proc/buddyinfo under root.
func ReadBuddyInfo(root Root) ([]BuddyZone, error) {
	return parseFile(root, "proc/buddyinfo", ParseBuddyInfo)
}

// ParseBuddyInfo parses /proc/buddyinfo text.
func ParseBuddyInfo(r io.Reader) ([]BuddyZone, error) {
	return parseText(r, ParseBuddyInfoInto)
}

// ParseBuddyInfoInto parses /proc/buddyinfo text into *dst, reusing the slice, the Free
// slices and the zone name strings of the previous parse (see ParseMemInfoInto).
func ParseBuddyInfoInto(dst *[]BuddyZone, data []byte) error {
	if k := buddyInfoSameLayout((*dst)[:cap(*dst)], data); k > 0 {
		*dst = (*dst)[:k]
		return nil
	}
	zones := (*dst)[:0]
	lines := txtLines{data: data}
	for {
		line, ok := lines.nextNonBlank()
		if !ok {
			break
		}
		node, zone, rest, err := txtNodeZone(line)
		if err != nil {
			*dst = zones
			return &LineError{Line: lines.num, Err: err}
		}
		zones = txtGrow(zones)
		z := &zones[len(zones)-1]
		z.Node = node
		z.Zone = txtString(z.Zone, zone)
		var bad []byte
		if z.Free, bad = txtCounts(z.Free[:0], rest); bad != nil {
			*dst = zones
			return lines.errorf("zone %s order %d: %q is not a count", zone, len(z.Free), bad)
		}
		if len(z.Free) == 0 {
			*dst = zones
			return lines.errorf("zone %s: no free counts", zone)
		}
	}
	*dst = zones
	if len(zones) == 0 {
		return fmt.Errorf("buddyinfo: no zones")
	}
	return nil
}

// buddyInfoSameLayout is the fast path of ParseBuddyInfoInto (see txtIntAt): the zones of
// zones in order (up to its capacity, as in netStatSameLayout), each "Node N, zone NAME"
// with the same node and name and as many orders as before. It returns the number of zones
// the text filled, 0 when it does not fit.
func buddyInfoSameLayout(zones []BuddyZone, data []byte) int {
	p, k := 0, 0
	for ; p < len(data); k++ {
		if k == len(zones) {
			return 0
		}
		z := &zones[k]
		q, ok := txtNodeZoneAt(data, p, z.Node, z.Zone)
		if !ok || len(z.Free) == 0 {
			return 0
		}
		for i := range z.Free {
			if !txtAt(data, q, " ") {
				return 0
			}
			if q = txtSkip(data, q, ' '); txtAt(data, q, "-") { // "-0" is a count there
				return 0
			}
			v, e, ok := int64(0), q+1, false
			if v, ok = txtDigit(data, q); !ok { // a single digit, inlined: most counters of a quiet host are 0
				v, e, ok = txtIntAt(data, q)
			}
			if !ok {
				return 0
			}
			z.Free[i], q = v, e
		}
		if p, ok = txtEOL(data, txtSkip(data, q, ' ')); !ok {
			return 0
		}
	}
	return k
}
