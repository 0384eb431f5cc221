package artifact

import (
	"fmt"
	"math/bits"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// fix49b (corpus 4000, a Jibri VM's OOM report): a Mem-Info zone line whose head the paste
// cut. show_free_areas (mm/page_alloc.c, 2.6.x to 4.7) prints one line a populated zone,
// "Node 0 Normal free:42324kB min:... high:... active_anon:... present:5242880kB
// managed:5110908kB ... pages_scanned:75976 all_unreclaimable? yes", then its
// "lowmem_reserve[]:" line; after every zone's pair, one buddy line a zone in the same
// order ("Node 0 DMA: 1*4kB ... = 15868kB"). A forum's or an index's excerpt that starts
// mid-line keeps the line's tail ("olated(file):0kB present:5242880kB ... all_unreclaimable?
// yes") without the node, the zone's name, its free pages and watermarks.
//
// What the tail still proves: the zone's own mark that reclaim gave up on it
// ("all_unreclaimable? yes" after pages_scanned reached six times its reclaimable pages,
// zone_reclaimable), its size (present, managed) and its other counters. Which zone it is
// follows from where it stands: zone lines come in zone order and the buddy lines repeat
// that order, so a tail followed by k whole zone lines (each with its lowmem_reserve) and
// then the buddy lines of one node is the zone k places before that node's last buddy line
// (with k = 0, the last: the highest zone, whose lowmem_reserve[] is all zeros). What it no
// longer proves: free pages against min/low/high (cut), so no watermark rule judges it.
//
// Read: an artifact with the tail's fields, and a zone fragment (model.ZoneFragment, as a
// zoneinfo block without its header) for node-unreclaimable, named when its place names
// it. A tail of a zone of 16 MiB or less (x86's DMA zone, marked all_unreclaimable on
// healthy hosts since almost none of it is reclaimable) is kept but not handed to the rule.
// Not read: a line that ends so but has fewer than three "name:NkB" fields, or one that
// still has its head (the show_mem reader's).

// CutZoneLine is the tail of a Mem-Info zone line whose head was cut.
type CutZoneLine struct {
	Node             int              `json:"node"` // -1 when its place does not say
	Zone             string           `json:"zone,omitempty"`
	NameWhy          string           `json:"name_why,omitempty"`
	Fields           *kernel.Counters `json:"fields"` // kB fields under NAME_kb, as printed
	AllUnreclaimable bool             `json:"all_unreclaimable"`
	Note             string           `json:"note"`
}

// cutZoneMinKB: a zone this small is x86's DMA zone (16 MiB), whose mark says nothing.
const cutZoneMinKB = 16 << 10

// isCutZoneTail: t ends as a pre-4.8 zone line ends and does not start as one.
func isCutZoneTail(t string) bool {
	s := strings.TrimSpace(t)
	if !strings.HasSuffix(s, "all_unreclaimable? yes") && !strings.HasSuffix(s, "all_unreclaimable? no") {
		return false
	}
	if k := showMemKind(s); k != "" {
		return false // a whole zone (or node) line: the dump's reader takes it
	}
	n := 0
	fs := fields(s)
	for i, f := range fs {
		if zoneNames[f] && i+1 < len(fs) && strings.HasPrefix(fs[i+1], "free:") {
			return false // a whole zone line behind a prefix no reader knows ("> : [ 454.007] Node 0 DMA free:...")
		}
		if k, v, ok := strings.Cut(f, ":"); ok && k != "" && strings.HasSuffix(v, "kB") && isDigits(strings.TrimSuffix(v, "kB")) {
			n++
		}
	}
	return n >= 3
}

// tryCutZoneLine reads the tail at line i (one line).
func (d *doc) tryCutZoneLine(i int) int {
	t := strings.TrimSpace(d.ls[i].Text)
	if !isCutZoneTail(t) {
		return 0
	}
	fs := fields(t)
	z := CutZoneLine{Node: -1, Fields: &kernel.Counters{}}
	// The first field is what the cut left of a name ("olated(file):0kB"): not a field.
	dumpFields(fs[1:], false, func(key string, v int64, kb bool) {
		if kb {
			key += "_kb"
		}
		z.Fields.Set(key, v)
	}, func(b bool) { z.AllUnreclaimable = b })
	node, name, why, pageKB := cutZonePlace(d.ls, i+1)
	if name != "" {
		z.Node, z.Zone, z.NameWhy = node, name, why
	}
	present, hasPresent := z.Fields.Get("present_kb")
	z.Note = "a zone line of a Mem-Info dump cut before its name, free pages and watermarks: its own counters and its all_unreclaimable mark are read; free against min/low/high cannot be judged"
	small := hasPresent && present <= cutZoneMinKB
	if small {
		z.Note += fmt.Sprintf("; present %d kB, a DMA-sized zone whose mark is normal on healthy hosts: not judged", present)
	}
	first := d.ls[i].No
	d.used[i] = true
	d.addArtifact(KindShowMem, first, first, z)
	if small || !hasPresent {
		return 1
	}
	var f kernel.Counters
	f.Set("all_unreclaimable", boolInt(z.AllUnreclaimable))
	if v, ok := z.Fields.Get("pages_scanned"); ok {
		f.Set("scanned", v)
	}
	if pageKB > 0 {
		f.Set("present", present/pageKB)
		if v, ok := z.Fields.Get("managed_kb"); ok {
			f.Set("managed", v/pageKB)
		}
	}
	frag := model.ZoneFragment{Zone: kernel.Zone{Node: z.Node, Name: z.Zone, Fields: f},
		Source: spanSource(first, first) + ", a Mem-Info zone line cut before its name", NodeWhy: z.NameWhy}
	d.tl.ZoneFragments = append(d.tl.ZoneFragments, frag)
	return 1
}

// cutZonePlace names the zone of a tail from the dump after it (lines from j on): k whole
// zone lines, then the buddy lines of one node; the tail is the zone k places before the
// last. pageKB is the buddy lines' smallest block (the page size), 0 when unknown.
func cutZonePlace(ls []Line, j int) (node int, name, why string, pageKB int64) {
	after, reserves := 0, 0
	var buddy []string
	bnode := -1
	for end := min(len(ls), j+64); j < end; j++ {
		s := strings.TrimSpace(ls[j].Text)
		if s == "" {
			if len(buddy) > 0 {
				break
			}
			continue
		}
		switch showMemKind(s) {
		case "reserve":
			if len(buddy) > 0 {
				return -1, "", "", pageKB
			}
			reserves++
			continue
		case "zone":
			if len(buddy) > 0 {
				return -1, "", "", pageKB
			}
			after++
			continue
		case "buddy":
			n, rest := splitNodePrefix(s)
			if bnode >= 0 && n != bnode {
				return -1, "", "", pageKB // more than one node's lists: the place does not say
			}
			bnode = n
			zn, list, _ := strings.Cut(rest, ":")
			buddy = append(buddy, strings.TrimSpace(zn))
			if pageKB == 0 {
				if c, sz, ok := strings.Cut(firstField(strings.TrimSpace(list)), "*"); ok && isDigits(c) {
					if v, ok := atoi(strings.TrimSuffix(sz, "kB")); ok && v > 0 && bits.OnesCount64(uint64(v)) == 1 {
						pageKB = v
					}
				}
			}
			continue
		}
		break
	}
	// Each zone line is followed by its lowmem_reserve line: the tail's own and one for each
	// whole zone line after it.
	if len(buddy) == 0 || reserves != after+1 || after >= len(buddy) {
		return -1, "", "", pageKB
	}
	name = buddy[len(buddy)-1-after]
	why = fmt.Sprintf("zone lines are printed in zone order and the buddy lines after them repeat it (mm/page_alloc.c show_free_areas): %d whole zone line(s) follow the cut one, and node %d's buddy lines end %s, so the cut line is %s", after, bnode, strings.Join(buddy, ", "), name)
	return bnode, name, why, pageKB
}
