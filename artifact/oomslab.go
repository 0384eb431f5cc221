package artifact

import (
	"strings"

	"headroom/model"
)

// An OOM report's unreclaimable slab table. dump_header (mm/oom_kill.c) calls
// dump_unreclaimable_slab (mm/slab_common.c, 4.15+) when unreclaimable slab exceeds user
// memory; it prints
//
//	Unreclaimable slab info:
//	Name                      Used          Total
//	kmalloc-2k             6676584KB    6676596KB
//
// one "%-17s %10luKB %10luKB" row per cache that is not SLAB_RECLAIM_ACCOUNT (used = active
// objects × size, total = all objects × size). Blogs and mail clients collapse the padding
// to single spaces ("kmalloc-2k 6676584KB 6676596KB"), so the rows are read by fields.

// oomSlabRow reads "name <used>KB <total>KB"; ok is false for anything else.
func oomSlabRow(t string) (model.SlabCache, bool) {
	fs := fields(t)
	if len(fs) != 3 {
		return model.SlabCache{}, false
	}
	used, ok1 := kbField(fs[1])
	total, ok2 := kbField(fs[2])
	if !ok1 || !ok2 || used > total {
		return model.SlabCache{}, false
	}
	return model.SlabCache{Name: fs[0], SizeKB: total}, true
}

// oomSlabRowCut reads a row cut to its name and one size, "skbuff_small_head 22075675KB":
// an excerpt that kept the used column only. Read under the table's heading only, where
// nothing else prints such a line; the size is what the objects in use take.
func oomSlabRowCut(t string) (model.SlabCache, bool) {
	fs := fields(t)
	if len(fs) != 2 {
		return model.SlabCache{}, false
	}
	used, ok := kbField(fs[1])
	if !ok {
		return model.SlabCache{}, false
	}
	return model.SlabCache{Name: fs[0], SizeKB: used}, true
}

// kbField reads "6676584KB".
func kbField(f string) (int64, bool) {
	n, ok := strings.CutSuffix(f, "KB")
	if !ok || n == "" {
		return 0, false
	}
	return atoi(n)
}

// startsOOMSlabInfo: the table's heading line (asked of every log line: mayStartReport).
func startsOOMSlabInfo(t string) bool {
	b := trimBlankLeft(t)
	return strings.HasPrefix(b, "Unreclaimable slab info:") && strings.TrimSpace(b) == "Unreclaimable slab info:"
}

// isOOMSlabInfoLine: a line of the table (its heading, column header or a row), which
// tryOOMSlabInfo reads on: a streamed window grows past them (endsReports).
func isOOMSlabInfoLine(s string) bool {
	if startsOOMSlabInfo(s) || isOOMSlabInfoHeader(s) {
		return true
	}
	_, ok := oomSlabRow(s)
	return ok
}

func isOOMSlabInfoHeader(t string) bool {
	fs := fields(t)
	return len(fs) == 3 && fs[0] == "Name" && fs[1] == "Used" && fs[2] == "Total"
}

func (d *doc) tryOOMSlabInfo(i int) int {
	if !startsOOMSlabInfo(d.ls[i].Text) {
		return 0
	}
	k := i + 1
	if k < len(d.ls) {
		if isOOMSlabInfoHeader(d.ls[k].Text) {
			k++
		}
	}
	var caches []model.SlabCache
	for ; k < len(d.ls); k++ {
		c, ok := oomSlabRow(d.ls[k].Text)
		if !ok {
			c, ok = oomSlabRowCut(d.ls[k].Text)
		}
		if !ok {
			break
		}
		caches = append(caches, c)
	}
	if len(caches) == 0 {
		return 0
	}
	d.segSeq++
	d.addArtifact(KindOOMSlabInfo, d.ls[i].No, d.ls[k-1].No, caches)
	d.addSlabTable("OOM report's Unreclaimable slab info", d.ls[i].No, d.ls[k-1].No, caches)
	// dump_unreclaimable_slab skips every cache created with SLAB_RECLAIM_ACCOUNT: each row
	// is memory no shrinker frees.
	d.tl.SlabTables[len(d.tl.SlabTables)-1].Unreclaimable = true
	return k - i
}
