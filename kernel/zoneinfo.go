package kernel

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// Zone is one "Node N, zone NAME" block of /proc/zoneinfo. Fields holds every "key value"
// line of the block under the key as printed, with the "pages " prefix of "pages free"
// dropped: free, boost (4.19+, absent before), min, low, high, promo (recent 6.x: the NUMA
// memory-tiering promotion watermark), spanned,
// present, managed (3.8+), cma, nr_free_pages, nr_zone_*..., the "key: value" lines that
// close the block (node_unreclaimable and start_pfn today; all_unreclaimable,
// prev_priority, temp_priority and inactive_ratio on 2.6), and the per-node stats printed
// before the first zone of a node (under the same zone block in which they appear). Values
// are pages. Protection is the lowmem_reserve array from "protection: (a, b, c)".
type Zone struct {
	Node       int      `json:"node"`
	Name       string   `json:"zone"`
	Fields     Counters `json:"fields"`
	Protection []int64  `json:"protection,omitempty"`
}

// Layout history of /proc/zoneinfo (mm/vmstat.c zoneinfo_show_print; mm/page_alloc.c before
// 2.6.18), as far as the parser cares:
//   - 2.6.13 added the file. Until 2.6.27 the watermark block has
//     "scanned  N (a: X i: Y)" (zone->nr_scan_active, nr_scan_inactive); 2.6.28 to 2.6.31
//     print "(aa: ia: af: if:)" for the split LRU; these become Fields nr_scan_active,
//     nr_scan_inactive, nr_scan_active_anon, ... after the kernel's own field names.
//   - The per-cpu "pagesets" block ("cpu: N", "count:", "high:", "batch:", "low:" on 2.6.13,
//     "high_min:"/"high_max:" on 6.7+, "vm stats threshold:") describes the pcp lists, not
//     the zone, and is skipped whole. The parser leaves it at the first line that is not one
//     of those keys.
//   - 3.8 added "managed", 4.8 moved the LRU and reclaim counters to the node and prints them
//     under "per-node stats" before the node's first zone, 4.19 added "boost", and a 6.x
//     release "promo".
//   - Unpopulated zones (Movable, Device on 6.x) print the watermarks and protection only.

// ReadZoneInfo reads /proc/zoneinfo under root.
func ReadZoneInfo(root Root) ([]Zone, error) {
	return parseFile(root, "proc/zoneinfo", ParseZoneInfo)
}

// ParseZoneInfo parses /proc/zoneinfo text.
func ParseZoneInfo(r io.Reader) ([]Zone, error) {
	return parseText(r, ParseZoneInfoInto)
}

// zoneinfoPagesetKeys are the "key:" lines of the per-cpu pagesets block.
var zoneinfoPagesetKeys = [...]string{"cpu", "count", "high", "batch", "low", "high_min",
	"high_max", "vm stats threshold"}

// zoneinfoScanLabels maps the labels in "scanned N (a: X i: Y)" to the zone fields the
// kernel printed there.
var zoneinfoScanLabels = [...]struct{ label, field string }{
	{"a", "nr_scan_active"}, {"i", "nr_scan_inactive"},
	{"aa", "nr_scan_active_anon"}, {"ia", "nr_scan_inactive_anon"},
	{"af", "nr_scan_active_file"}, {"if", "nr_scan_inactive_file"},
}

// ParseZoneInfoInto parses /proc/zoneinfo text into *dst, reusing the slice and each zone's
// Fields and Protection storage (see ParseMemInfoInto).
func ParseZoneInfoInto(dst *[]Zone, data []byte) error {
	if k := zoneInfoSameLayout((*dst)[:cap(*dst)], data); k > 0 {
		*dst = (*dst)[:k]
		return nil
	}
	zones := (*dst)[:0]
	defer func() { *dst = zones }()
	var (
		cur        *Zone
		fill       txtCountersFill
		inPagesets bool
	)
	lines := txtLines{data: data}
	for {
		line, ok := lines.nextNonBlank()
		if !ok {
			break
		}
		t := txtTrim(line)
		if bytes.HasPrefix(t, []byte("Node ")) {
			node, zone, rest, err := txtNodeZone(t)
			if err != nil {
				return &LineError{Line: lines.num, Err: err}
			}
			if !txtBlank(rest) {
				return lines.errorf("unexpected %q after the zone name", txtTrim(rest))
			}
			if cur != nil {
				fill.done()
			}
			zones = txtGrow(zones)
			cur = &zones[len(zones)-1]
			cur.Node = node
			cur.Name = txtString(cur.Name, zone)
			cur.Protection = cur.Protection[:0]
			fill.start(&cur.Fields)
			inPagesets = false
			continue
		}
		if cur == nil {
			return lines.errorf("%q before the first \"Node N, zone NAME\" line", t)
		}
		switch {
		case bytes.Equal(t, []byte("per-node stats")):
			continue
		case bytes.Equal(t, []byte("pagesets")):
			inPagesets = true
			continue
		case bytes.HasPrefix(t, []byte("protection:")):
			inPagesets = false
			p, err := zoneinfoProtection(cur.Protection, t[len("protection:"):])
			if err != nil {
				return &LineError{Line: lines.num, Err: err}
			}
			cur.Protection = p
			continue
		}
		if colon := bytes.IndexByte(t, ':'); colon >= 0 && bytes.IndexByte(t[:colon], '(') < 0 {
			// "key: value": pageset lines, or the per-zone lines that close the block.
			key := txtTrim(t[:colon])
			if inPagesets && zoneinfoPagesetKey(key) {
				continue
			}
			inPagesets = false
			val, rest := txtField(t[colon+1:])
			if len(key) == 0 || len(val) == 0 || !txtBlank(rest) {
				return lines.errorf("want \"key: value\", got %q", t)
			}
			v, ok := txtInt(val)
			if !ok {
				return lines.errorf("%s: %q is not an integer", key, val)
			}
			fill.set(key, v)
			continue
		}
		inPagesets = false
		key, rest := txtField(t)
		if bytes.Equal(key, []byte("pages")) { // "pages free     3840"
			key, rest = txtField(rest)
		}
		val, rest := txtField(rest)
		if len(val) == 0 {
			return lines.errorf("want \"key value\", got %q", t)
		}
		v, ok := txtInt(val)
		if !ok {
			return lines.errorf("%s: %q is not an integer", key, val)
		}
		fill.set(key, v)
		if rest = txtTrim(rest); len(rest) > 0 {
			if !bytes.Equal(key, []byte("scanned")) {
				return lines.errorf("%s: unexpected %q after the value", key, rest)
			}
			if err := zoneinfoScanned(&fill, rest); err != nil {
				return &LineError{Line: lines.num, Err: err}
			}
		}
	}
	if cur != nil {
		fill.done()
	}
	if len(zones) == 0 {
		return fmt.Errorf("zoneinfo: no zones")
	}
	return nil
}

// IsZoneInfoPagesetKey reports whether key names a line of the per-cpu pagesets block
// ("cpu", "count", "vm stats threshold", ...), for readers of pasted fragments.
func IsZoneInfoPagesetKey(key string) bool {
	for _, k := range zoneinfoPagesetKeys {
		if key == k {
			return true
		}
	}
	return false
}

func zoneinfoPagesetKey(key []byte) bool { return IsZoneInfoPagesetKey(string(key)) }

// zoneinfoProtection parses " (0, 3019, 4555)" into p[:0].
func zoneinfoProtection(p []int64, b []byte) ([]int64, error) {
	b = txtTrim(b)
	inner, ok := bytes.CutPrefix(b, []byte("("))
	if ok {
		inner, ok = bytes.CutSuffix(inner, []byte(")"))
	}
	if !ok {
		return p, excerptf("protection: want \"(a, b, ...)\", got %q", b)
	}
	p = p[:0]
	for len(inner) > 0 {
		var tok []byte
		if i := bytes.IndexByte(inner, ','); i >= 0 {
			tok, inner = inner[:i], inner[i+1:]
		} else {
			tok, inner = inner, nil
		}
		v, ok := txtInt(txtTrim(tok))
		if !ok {
			return p, excerptf("protection: %q is not an integer", txtTrim(tok))
		}
		p = append(p, v)
	}
	if len(p) == 0 {
		return p, fmt.Errorf("protection: empty list")
	}
	return p, nil
}

// zoneinfoScanned parses the "(a: X i: Y)" that 2.6.13-2.6.31 print after "scanned N".
func zoneinfoScanned(fill *txtCountersFill, b []byte) error {
	inner, ok := bytes.CutPrefix(b, []byte("("))
	if ok {
		inner, ok = bytes.CutSuffix(inner, []byte(")"))
	}
	if !ok {
		return excerptf("scanned: unexpected %q after the value", b)
	}
	for {
		label, rest := txtField(inner)
		if len(label) == 0 {
			return nil
		}
		label, ok := bytes.CutSuffix(label, []byte(":"))
		val, rest := txtField(rest)
		inner = rest
		if !ok || len(val) == 0 {
			return excerptf("scanned: want \"(label: N ...)\", got %q", b)
		}
		field := ""
		for _, l := range zoneinfoScanLabels {
			if string(label) == l.label {
				field = l.field
			}
		}
		if field == "" {
			return excerptf("scanned: unknown label %q", label)
		}
		v, ok := txtInt(val)
		if !ok {
			return excerptf("scanned %s: %q is not an integer", label, val)
		}
		fill.setString(field, v)
	}
}

// zoneInfoSameLayout is the fast path of ParseZoneInfoInto (see txtIntAt): the zones of
// zones in order (up to its capacity, as in netStatSameLayout), each "Node N, zone NAME"
// with the same node and name, then its fields in the same order, each "[pages ]name value"
// or "name: value" as mm/vmstat.c prints them, the protection line, and the per-cpu
// pagesets, which are skipped line by line on their key alone, as the general parser does.
// It returns the number of zones the text filled, 0 when it does not fit.
func zoneInfoSameLayout(zones []Zone, data []byte) int {
	p, k := 0, 0
	for ; p < len(data); k++ {
		if k == len(zones) {
			return 0
		}
		z := &zones[k]
		q, ok := txtNodeZoneAt(data, p, z.Node, z.Name) // zoneinfo_show_print
		if !ok {
			return 0
		}
		if p, ok = txtEOL(data, q); !ok {
			return 0
		}
		if p, ok = zoneInfoBlock(z, data, p); !ok {
			return 0
		}
	}
	return k
}

// zoneInfoBlock reads the lines of z's block from data[p:] up to the next "Node" line or the
// end, and returns where it stopped.
func zoneInfoBlock(z *Zone, data []byte, p int) (int, bool) {
	z.Protection = z.Protection[:0]
	names, values := z.Fields.names, z.Fields.values
	n := 0
	inPagesets := false
	for p < len(data) {
		q := txtSkip(data, p, ' ')
		if q == len(data) {
			return p, false
		}
		// Most lines are the next field, "name value" or "name: value"; the names that
		// would make such a line one of the others below are left to them.
		if n < len(names) {
			name := names[n]
			// The first byte turns away most of the lines that are not the next field
			// (pagesets, per-CPU lines) without a call.
			if e := q + len(name); e < len(data) && data[q] == name[0] &&
				txtMatch(data, q, name) && zoneInfoFieldSep(data[e], name, inPagesets) {
				q = txtSkip(data, e+1, ' ')
				v, e, ok := int64(0), q+1, false
				if v, ok = txtDigit(data, q); !ok {
					if v, e, ok = txtIntAt(data, q); !ok {
						return p, false
					}
				}
				if p, ok = txtEOL(data, e); !ok {
					return p, false
				}
				values[n] = v
				n++
				inPagesets = false
				continue
			}
		}
		if data[q] == 'N' && txtAt(data, q, "Node ") {
			break // the next zone (zoneInfoSameLayout refuses it when indented)
		}
		switch data[q] {
		case 'p':
			if txtAt(data, q, "per-node stats\n") {
				p = q + len("per-node stats\n")
				continue
			}
			if txtAt(data, q, "pagesets\n") {
				inPagesets = true
				p = q + len("pagesets\n")
				continue
			}
			if txtAt(data, q, "protection:") {
				var ok bool
				if p, ok = zoneInfoProtection(z, data, q+len("protection:")); !ok {
					return p, false
				}
				inPagesets = false
				continue
			}
		case 'c', 'h', 'b', 'l', 'v':
			if inPagesets && zoneInfoPagesetLine(data[q:]) {
				// The general parser skips these without reading the value, so the line
				// only has to end.
				if nl := bytes.IndexByte(data[q:], '\n'); nl >= 0 {
					p = q + nl + 1
				} else {
					p = len(data)
				}
				continue
			}
		}
		// "pages free     3840": the general parser drops the first word when it is
		// "pages".
		if n == len(names) || !txtAt(data, q, "pages ") {
			return p, false
		}
		name := names[n]
		q = txtSkip(data, q+len("pages "), ' ')
		e := q + len(name)
		if e >= len(data) || data[e] != ' ' || !txtMatch(data, q, name) {
			return p, false
		}
		v, e, ok := txtIntAt(data, txtSkip(data, e+1, ' '))
		if !ok {
			return p, false
		}
		if p, ok = txtEOL(data, e); !ok {
			return p, false
		}
		values[n] = v
		n++
		inPagesets = false
	}
	return p, n == len(names)
}

// zoneInfoFieldSep reports whether a line that is name followed by sep, then a value, is
// that field to the general parser: " " for "name value", ":" for "name: value", and not
// one of the lines it treats otherwise ("Node ...", "pages NAME value", "protection: (...)",
// a pageset key inside the pagesets).
func zoneInfoFieldSep(sep byte, name string, inPagesets bool) bool {
	if sep == ' ' {
		return name != "Node" && name != "pages"
	}
	return sep == ':' && zoneInfoColonField(name, inPagesets)
}

// zoneInfoColonField is zoneInfoFieldSep for "name: value".
func zoneInfoColonField(name string, inPagesets bool) bool {
	if name == "protection" || strings.IndexByte(name, '(') >= 0 {
		return false
	}
	if inPagesets {
		for _, k := range zoneinfoPagesetKeys {
			if name == k {
				return false
			}
		}
	}
	return true
}

// zoneInfoPagesetLine reports whether b starts with one of zoneinfoPagesetKeys and a colon.
func zoneInfoPagesetLine(b []byte) bool {
	var key string
	switch b[0] {
	case 'c':
		if txtAt(b, 0, "cpu:") {
			return true
		}
		key = "count"
	case 'h':
		if txtAt(b, 0, "high:") || txtAt(b, 0, "high_min:") {
			return true
		}
		key = "high_max"
	case 'b':
		key = "batch"
	case 'l':
		key = "low"
	case 'v':
		key = "vm stats threshold"
	default:
		return false
	}
	return len(b) > len(key) && b[len(key)] == ':' && string(b[:len(key)]) == key
}

// zoneInfoProtection reads " (a, b, c)" and the end of the line at data[q:] into
// z.Protection.
func zoneInfoProtection(z *Zone, data []byte, q int) (int, bool) {
	q = txtSkip(data, q, ' ')
	if !txtAt(data, q, "(") {
		return q, false
	}
	q++
	prot := z.Protection[:0]
	for {
		v, e, ok := txtIntAt(data, q)
		if !ok {
			return q, false
		}
		prot = append(prot, v)
		if txtAt(data, e, ")") {
			q = e + 1
			break
		}
		if !txtAt(data, e, ",") {
			return q, false
		}
		q = txtSkip(data, e+1, ' ')
	}
	z.Protection = prot
	return txtEOL(data, q)
}
