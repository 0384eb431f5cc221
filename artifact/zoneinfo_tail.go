package artifact

import (
	"strings"

	"headroom/kernel"
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
	d.segSeq++
	d.addArtifact(KindZoneInfo, d.ls[i].No, d.ls[end-1].No, ZoneInfoNoHeader{Zone: z, Note: note})
	return end - i
}
