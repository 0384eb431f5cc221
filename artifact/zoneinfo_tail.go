package artifact

import (
	"fmt"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// A /proc/zoneinfo paste that starts inside a zone's per-cpu pagesets ("cpu: 30", "count:
// 1297", "high: 1349", "batch: 63", "vm stats threshold: 120") and ends that zone with the
// lines mm/vmstat.c zoneinfo_show_print prints after them: "node_unreclaimable: 1" (4.x+,
// pgdat->kswapd_failures >= MAX_RECLAIM_RETRIES: kswapd gave up on the node) and
// "start_pfn:", or "all_unreclaimable: 1" on older kernels. The zone's name and watermarks
// were cut off, so the tail is kept as an artifact without a sample, as
// tryZoneInfoHeaderless keeps a block without its header.

// zoneInfoTailKeys are the closing "key: value" lines of a zone's block.
var zoneInfoTailKeys = [...]string{"node_unreclaimable", "all_unreclaimable", "start_pfn"}

// zoneInfoKeyLine splits an indented "key: value" line with an integer value.
func zoneInfoKeyLine(t string) (key string, ok bool) {
	if len(t) == 0 || t[0] != ' ' && t[0] != '\t' {
		return "", false
	}
	k, v, found := strings.Cut(strings.TrimSpace(t), ":")
	if !found {
		return "", false
	}
	if _, isInt := atoi(strings.TrimSpace(v)); !isInt {
		return "", false
	}
	return k, true
}

func isZoneInfoPagesetLine(t string) bool {
	k, ok := zoneInfoKeyLine(t)
	if !ok {
		return false
	}
	return kernel.IsZoneInfoPagesetKey(k)
}

func isZoneInfoTailKey(t string) bool {
	k, ok := zoneInfoKeyLine(t)
	if !ok {
		return false
	}
	for _, p := range zoneInfoTailKeys {
		if k == p {
			return true
		}
	}
	return false
}

// tryZoneInfoTail reads the pagesets and closing lines from line i on.
func (d *doc) tryZoneInfoTail(i int) int {
	if !isZoneInfoPagesetLine(d.ls[i].Text) {
		return 0
	}
	k := procBlock(d.ls, i, isZoneInfoPagesetLine)
	end := procBlock(d.ls, k, isZoneInfoTailKey)
	if end == k {
		return 0 // pageset-like lines alone do not say they are zoneinfo
	}
	zs, err := kernel.ParseZoneInfo(strings.NewReader("Node 0, zone unknown\n  pagesets\n" + joinText(d.ls[i:end])))
	if err != nil || len(zs) != 1 {
		return 0
	}
	z := zs[0]
	z.Node, z.Name = -1, ""
	note := "the end of a zone's block (its pagesets and closing lines) without the zone's header: kept, not judged"
	if v, ok := z.Fields.Get("node_unreclaimable"); ok && v != 0 {
		note += "; node_unreclaimable 1: kswapd failed to reclaim from this node MAX_RECLAIM_RETRIES (16) times in a row and stopped until reclaim succeeds again (mm/vmscan.c pgdat->kswapd_failures; MAX_RECLAIM_RETRIES in mm/internal.h)"
	}
	frag := model.ZoneFragment{Zone: z, Source: spanSource(d.ls[i].No, d.ls[end-1].No)}
	if node, why, ok := zoneTailNode(d.ls, end); ok {
		frag.Zone.Node, frag.NodeWhy = node, why
	}
	d.tl.ZoneFragments = append(d.tl.ZoneFragments, frag)
	d.segSeq++
	d.addArtifact(KindZoneInfo, d.ls[i].No, d.ls[end-1].No, ZoneInfoNoHeader{Zone: z, Note: note})
	return end - i
}

// zoneTailNode decides the node of a zone tail from the block after it. /proc/zoneinfo
// prints every node's zones in zone order, populated or not (mm/vmstat.c zoneinfo_show →
// walk_zones_in_node without assert_populated), and ZONE_NORMAL always exists below
// HighMem, Movable and Device: a tail followed by "Node N, zone Movable" (or HighMem,
// Device) ends a lower zone of node N. A tail followed by a node's first zone, or by
// nothing, may be the previous node's last zone, so its node stays unknown.
func zoneTailNode(ls []Line, k int) (int, string, bool) {
	for k < len(ls) && isBlank(ls[k].Text) {
		k++
	}
	if k >= len(ls) {
		return 0, "", false
	}
	fs := fields(ls[k].Text)
	if len(fs) != 4 || fs[0] != "Node" || fs[2] != "zone" {
		return 0, "", false
	}
	node, ok := atoi(strings.TrimSuffix(fs[1], ","))
	if !ok || node < 0 {
		return 0, "", false
	}
	switch fs[3] {
	case "HighMem", "Movable", "Device":
		return int(node), fmt.Sprintf("the next block is node %d's %s zone (line %d), which follows a lower zone of the same node in /proc/zoneinfo", node, fs[3], ls[k].No), true
	}
	return 0, "", false
}
