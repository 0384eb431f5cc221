package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// The block size a text says its driver or program needs in physically contiguous memory
// (fix55c): "The failures you are seeing in your log are from not being able to allocate a
// 2MB slab of contiguous memory from the kernel", "the driver needs 128 KB of physically
// contiguous memory". Beside the host's free blocks by order (/proc/buddyinfo,
// /proc/pagetypeinfo) the size says at which order those lists matter: get_order(size)
// (kernel.GetOrder, in the rule), as the page allocator serves it. A sentence must name
// contiguous memory, a size and an allocation or a need; a question, a possibility, a
// general statement, transparent huge pages (which fall back to single pages) and CMA (a
// reserved area, not a free block) state no need of this host.
var (
	reContigSize = lazyre.New(`(?i)\b(\d{1,4}(?:\.\d+)?)\s*(KiB|KB|K|MiB|MB|M)\b`)
	reContigNeed = lazyre.New(`(?i)\b(?:allocat\w*|alloc|needs?|needed|requires?|required|requests?|requested)\b`)
	reContigNot  = lazyre.New(`(?i)\b(?:THP|transparent|CMA|khugepaged|hugepagesize|virtual(?:ly)?)\b`)
)

// statedContiguousNeed finds such a statement in para: the size in bytes, its line and
// sentence. Only a size above two pages of pageBytes counts: a kmalloc slab serves less.
func statedContiguousNeed(para string, lineAt func(int) int, pageBytes int64) (size int64, no int, sentence string, ok bool) {
	if pageBytes <= 0 {
		pageBytes = 4096
	}
	for _, m := range reContigSize.FindAllStringSubmatchIndex(para, -1) {
		s := sentenceAround(para, m[0], m[1])
		if !strings.Contains(strings.ToLower(s), "contiguous") || !reContigNeed.MatchString(s) || reContigNot.MatchString(s) {
			continue
		}
		if questionAt(para, m[0], m[1]) || hypotheticalUpTo(s, para[m[0]:m[1]]) || genericStatement(s, para[m[0]:m[1]]) {
			continue
		}
		unit := strings.ToUpper(para[m[4]:m[5]][:1])
		kb, ok := statedKB(para[m[2]:m[3]], unit)
		if !ok {
			continue
		}
		if b := int64(kb * 1024); b > 2*pageBytes { // the rule bounds the order (maxBuddyOrder)
			return b, lineAt(m[0]), s, true
		}
	}
	return 0, 0, "", false
}

// hasBuddyLists: a sample of the text holds free blocks by order, the only reading a stated
// contiguous size is judged against.
func (d *doc) hasBuddyLists() bool {
	for i := range d.tl.Samples {
		if s := &d.tl.Samples[i]; len(s.Buddy) > 0 || s.PageTypes != nil && len(s.PageTypes.Free) > 0 {
			return true
		}
	}
	return false
}
