package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// /proc/slab_allocators (SLAB with CONFIG_DEBUG_SLAB_LEAK, 2.6.17–4.x: leaks_show in
// mm/slab.c): for each cache, the objects in use by the caller that allocated them, one line a
// caller, "CACHE: COUNT CALLER+OFFSET/LENGTH [MODULE]":
//
//	size-2048: 2280 usb_alloc_urb+0xc/0x2b [usbcore]
//	size-1024: 85 usb_alloc_urb+0xc/0x2b [usbcore]
//
// COUNT is objects, not kB; the offset and length are the caller's code address (%pS), not
// sizes. No rule judges a caller's count (a leak shows as a count that grows between two
// readings, and nothing here says how much memory the host has), so the lines are kept as
// read and the report says what it read.
var reSlabAllocatorsRow = lazyre.New(`^([A-Za-z][\w.-]*): (\d+) ([A-Za-z_][\w.]*)\+0x[0-9a-f]+/0x[0-9a-f]+(?: \[([\w-]+)\])?$`)

// SlabAllocatorsRow is one line: the cache, the objects in use, the caller and its module.
type SlabAllocatorsRow struct {
	Cache   string `json:"cache"`
	Objects int64  `json:"objects"`
	Caller  string `json:"caller"`
	Module  string `json:"module,omitempty"`
}

// SlabAllocatorsData is one block of /proc/slab_allocators lines.
type SlabAllocatorsData struct {
	Rows []SlabAllocatorsRow `json:"rows"`
}

func isSlabAllocatorsLine(ft, t string) bool {
	return strings.HasSuffix(ft, ":") && strings.Contains(t, "+0x") && reSlabAllocatorsRow.MatchString(strings.TrimSpace(t))
}

func (d *doc) trySlabAllocators(i int) int {
	var data SlabAllocatorsData
	k := i
	for ; k < len(d.ls); k++ {
		m := reSlabAllocatorsRow.FindStringSubmatch(strings.TrimSpace(d.ls[k].Text))
		if m == nil {
			break
		}
		n, err := strconv.ParseInt(m[2], 10, 64)
		if err != nil {
			break
		}
		data.Rows = append(data.Rows, SlabAllocatorsRow{Cache: m[1], Objects: n, Caller: m[3], Module: m[4]})
	}
	if k == i {
		return 0
	}
	d.addArtifact(KindSlabAllocators, d.ls[i].No, d.ls[k-1].No, data)
	return k - i
}
