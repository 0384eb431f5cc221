package artifact

import (
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// show_mem / show_free_areas output (mm/page_alloc.c show_free_areas, lib/show_mem.c), as
// printed after an allocation failure or an OOM kill. The layout changed with the kernel:
//
//	2.6.0-2.6.2x  "DMA per-cpu:", "cpu 0 hot: low 2, high 6, batch 1 used:0", "Free pages: NkB (NkB HighMem)",
//	              "Active:N inactive:N dirty:N ... free:N slab:N mapped:N pagetables:N" (pages)
//	2.6.2x-3.x    "CPU    0: hi:  186, btch:  31 usd:  68"
//	2.6.3x-       "Mem-Info:", "active_anon:N inactive_anon:N ... free:N ..." over several lines
//	4.8-          "Node 0 active_anon:NkB ..." per-node line
//	all           "[Node N ]ZONE free:NkB min:NkB low:NkB high:NkB ... present:NkB [managed:NkB (3.8+)] ...",
//	              "lowmem_reserve[]: 0 880 8944",
//	              "[Node N ]ZONE: 1*4kB 1*8kB ... = NkB", with migrate-type letters "(UME)" since 2.6.24,
//	              "Free swap  = NkB" (older "Free swap:  NkB"), "N pages RAM" (older "N pages of RAM").
//
// Values printed per CPU and the hugepages line are recognised (so the dump is not cut short)
// but not kept. The footer lines ("N total pagecache pages", "N pages reserved", "Total swap
// = NkB", 2.6's "Free pages: NkB", 2.4's "( Active: N, inactive: N, free: N )" and "Buffer
// memory: NkB") and each buddy line's "= NkB" sum are kept as they are printed (totals, and
// the zone's buddy_total_kb field): an operator reads them off the dump, and a dump whose sum
// disagrees with its zone's free:NkB was cut or mis-joined.

var zoneNames = map[string]bool{"DMA": true, "DMA32": true, "Normal": true, "HighMem": true, "Movable": true, "Device": true}

// showMem accumulates the lines of one dump.
type showMem struct {
	zones        []model.ZoneReport
	memInfo      *kernel.Counters
	freeSwap     *int64
	pagesRAM     *int64
	highMemPages *int64           // "N pages HighMem/MovableOnly" (lib/show_mem.c __show_mem)
	totals       *kernel.Counters // the footer lines, under the names totalKey gives them
	nodes        []NodeCounters   // the 4.8+ per-node lines
	pageKB       int64
	lines        int
	last         string // kind of the last accepted line, for continuations
	lastText     string
	pendBuf      string // a line waiting for its continuation
	pendKind     string
	// anonBuddy counts 2.4's buddy lines, which name no zone: the n-th is the n-th zone's.
	anonBuddy int
	saw24     bool
	// anon24: the dump begins at a 2.4 buddy line, its Zone: lines not in the text
	// (zonelessBuddy24); anonNamed: its lists are named by 2.4's zone order.
	anon24, anonNamed bool
	// splitReserve: the waiting lowmem_reserve[] line was printed bare, its values to follow
	// one a line (isPendingContinuation).
	splitReserve bool
	// fragments are buddy lines whose zone name is not in the text (buddyFragment).
	fragments []BuddyFragment
}

// BuddyFragment is the tail of a buddy line whose start, with the zone's name, is not in
// the text: a paste that begins inside a dump whose KERN_CONT pieces syslog printed one a
// line (corpus 403). Its blocks are kept by size, and its total; no zone is guessed.
type BuddyFragment struct {
	Blocks  []BuddyBlock `json:"blocks"`
	TotalKB int64        `json:"total_kb,omitempty"`
	Cut     bool         `json:"cut,omitempty"` // the paste ends inside the line: orders after the last block unknown
}

// BuddyBlock is one "count*sizekB (types)" of a buddy line.
type BuddyBlock struct {
	Count  int64  `json:"count"`
	SizeKB int64  `json:"size_kb"`
	Types  string `json:"types,omitempty"`
}

// isLoneBuddyToken: one piece of a buddy line on a line of its own, as syslog prints the
// KERN_CONT pieces of show_free_areas' buddy line when each reached it as a record
// ("613*4kB", "(UME)", "= 15864kB").
func isLoneBuddyToken(s string) bool {
	if strings.HasPrefix(s, "= ") {
		return strings.HasSuffix(s, "kB") && isDigits(strings.TrimSuffix(s[2:], "kB"))
	}
	if strings.IndexByte(s, ' ') >= 0 {
		return false
	}
	if c, size, ok := strings.Cut(s, "*"); ok {
		return isDigits(c) && strings.HasSuffix(size, "kB") && isDigits(strings.TrimSuffix(size, "kB"))
	}
	return isPendingContinuation(s) && !isDigits(s)
}

// isNodeOpen: "Node 0" alone, the start of a buddy line whose zone ("DMA32:") and blocks
// follow as records of their own.
func isNodeOpen(s string) bool {
	n, ok := strings.CutPrefix(s, "Node ")
	return ok && isDigits(n)
}

// parseFragment reads a buddy line's tail (isLoneBuddyToken pieces joined); it keeps it only
// when it holds blocks and ends with the line's total.
func (m *showMem) parseFragment(s string) { m.addFragment(s, false) }

// addFragment keeps the blocks of a buddy line with no zone named: with its total, or, cut
// (a line the paste ended before its total), without.
func (m *showMem) addFragment(s string, cut bool) {
	var f BuddyFragment
	fs := fields(s)
	for i := 0; i < len(fs); i++ {
		t := fs[i]
		switch {
		case t == "=" && i+1 < len(fs):
			if n, ok := atoi(strings.TrimSuffix(fs[i+1], "kB")); ok {
				f.TotalKB = n
			}
			i++
		case strings.HasPrefix(t, "(") && len(f.Blocks) > 0:
			f.Blocks[len(f.Blocks)-1].Types = strings.Trim(t, "()")
		default:
			c, size, ok := strings.Cut(t, "*")
			if !ok {
				continue
			}
			n, ok1 := atoi(c)
			sz, ok2 := atoi(strings.TrimSuffix(size, "kB"))
			if ok1 && ok2 {
				f.Blocks = append(f.Blocks, BuddyBlock{Count: n, SizeKB: sz})
			}
		}
	}
	f.Cut = cut
	if len(f.Blocks) > 0 && (f.TotalKB > 0 || cut) {
		m.fragments = append(m.fragments, f)
	}
}

// splitNodePrefix removes "Node N " and returns N (0 when absent).
func splitNodePrefix(s string) (int, string) {
	if !strings.HasPrefix(s, "Node ") {
		return 0, s
	}
	r := s[5:]
	i := 0
	for i < len(r) && r[i] >= '0' && r[i] <= '9' {
		i++
	}
	if i == 0 || i >= len(r) || r[i] != ' ' {
		return 0, s
	}
	n, _ := strconv.Atoi(r[:i])
	return n, strings.TrimLeft(r[i+1:], " ")
}

// showMemKind classifies a line of a dump; "" when it is not one.
func showMemKind(t string) string {
	s := strings.TrimSpace(t)
	if s == "" {
		return ""
	}
	switch {
	case s == "Mem-Info:" || s == "Mem-info:" || s == "Show-Memory:":
		return "marker"
	case isNodeOpen(s):
		return "nodeopen"
	case strings.HasSuffix(s, " per-cpu:"):
		return "marker"
	case strings.HasPrefix(s, "cpu ") && (strings.Contains(s, " hot:") || strings.Contains(s, " cold:")):
		return "percpu"
	case len(s) > 4 && strings.HasPrefix(s, "CPU") && (s[3] == ' ' || s[3] == '\t') && strings.Contains(s, " hi:") && strings.Contains(s, "btch:"):
		// "CPU    0: hi:" with its padding turned into a tab by an editor (unexpand).
		return "percpu"
	case strings.HasPrefix(s, "Free pages:"):
		return "freepages"
	case strings.HasPrefix(s, "Active:") && activeCount(s[len("Active:"):]) || strings.HasPrefix(s, "active_anon:") || strings.HasPrefix(s, "Active_anon:"):
		return "global"
	case strings.HasPrefix(s, "lowmem_reserve[]:") || strings.HasPrefix(s, "lowmem_reserve:"):
		// The second: a forum's or wiki's markup ate the empty "[]" (corpus 756).
		return "reserve"
	case strings.HasPrefix(s, "protections[]:"):
		// 2.6.0-2.6.11 show_free_areas: each zone line's zone->protection[] (mm/page_alloc.c
		// printk("protections[]:"), lowmem_reserve[]'s predecessor), "protections[]: 0 0 0".
		return "reserve"
	case strings.HasPrefix(s, "Free swap") || strings.HasPrefix(s, "Total swap"):
		return "swap"
	case strings.HasPrefix(s, "Swap cache"):
		return "tail"
	case strings.HasPrefix(s, "Memory cgroup min protection "):
		return "tail" // 6.8+ __show_mem: "Memory cgroup min protection 0kB -- low protection 0kB"
	case strings.HasPrefix(s, "( Active:") || strings.HasPrefix(s, "(Active:"):
		return "active24" // 2.4: "( Active: 4957, inactive: 5353, free: 9577 )"
	case strings.HasPrefix(s, "Buffer memory:"):
		return "tail" // 2.4 show_buffers(): "Buffer memory:     2628kB"
	case strings.HasPrefix(s, "Zone:") && strings.Contains(s, "freepages:"):
		// 2.4: "Zone:DMA freepages: 13800kB min:   128kB low:   256kB high:   384kB"
		return "zone24"
	}
	if f := firstField(s); strings.Contains(f, "*") && strings.HasSuffix(f, "kB") && isDigits(f[:strings.IndexByte(f, '*')]) {
		// 2.4's buddy lines name no zone: one per zone, in the order of the Zone: lines.
		return "buddy24"
	}
	node, rest := splitNodePrefix(s)
	_ = node
	name := firstField(rest)
	if strings.HasSuffix(name, ":") && zoneNames[strings.TrimSuffix(name, ":")] {
		after := strings.TrimSpace(rest[len(name):])
		if after == "empty" || strings.Contains(after, "*") {
			return "buddy"
		}
		if after == "" {
			// "DMA32:" alone: a buddy line whose pieces the kernel printed as records of
			// their own (pr_cont lost its continuation, 4.19-era printk: "6346*4kB", "(UME)",
			// "= 1111512kB" each on a stamped line). It continues a dump; it starts none.
			return "buddyopen"
		}
	}
	if zoneNames[name] && strings.Contains(rest, " free:") {
		return "zone"
	}
	if strings.HasPrefix(rest, "active_anon:") || strings.HasPrefix(rest, "hugepages_total=") {
		return "node"
	}
	if f := firstField(s); isDigits(f) {
		rest := strings.TrimSpace(s[len(f):])
		switch rest {
		case "total pagecache pages", "pages in swap cache", "pages RAM", "pages of RAM", "pages of HIGHMEM",
			"pages HighMem/MovableOnly", "reserved pages", "pages reserved", "pages shared", "pages swap cached",
			"pages cma reserved", "pages hwpoisoned", "pages non-shared", "pages HighMem", "pages in pagetable cache",
			"free pages", "slab pages", "pages of slab", "pages swap cached.", "pages pagetables",
			"pagecache pages": // 2.6.18's show_mem (RHEL5): "927 pagecache pages"
			return "tail"
		}
	}
	return ""
}

// activeCount: what follows 2.6's "Active:" is its page count ("Active:12345 inactive:..."),
// not systemctl status's unit state ("Active: active (running) since ...", "Active: failed
// (Result: oom-kill)", h31d).
func activeCount(rest string) bool {
	rest = strings.TrimLeft(rest, " \t")
	return rest != "" && rest[0] >= '0' && rest[0] <= '9'
}

// startsShowMem reports whether showMemReport starts a dump at the line: showMemKind is one
// of the kinds a dump can begin with. "Mem-Info:", "Mem-info:", "Show-Memory:" and "DMA
// per-cpu:" end with ':'; the others begin with "Free pages:", "Active:", "Active_anon:",
// "active_anon:", "Node ", or a zone name (DMA, DMA32, Device, Normal, HighMem, Movable):
// two bytes rule out most lines before showMemKind's map lookups. It runs on every line.
func startsShowMem(t string) bool {
	s := strings.TrimSpace(t)
	if len(s) < 2 {
		return false
	}
	c0, c1 := s[0], s[1]
	if (c0 == '(' || c0 >= '0' && c0 <= '9') && isLoneBuddyToken(s) {
		// A buddy line's tail whose pieces syslog printed one a line (KERN_CONT), its start
		// cut from the paste: kept as a fragment when it ends with its total.
		return true
	}
	if c0 >= '0' && c0 <= '9' && s[len(s)-1] == ')' && zonelessBuddy24(s) {
		return true // 2.4's buddy lists without their Zone: lines (zonelessList)
	}
	switch {
	case s[len(s)-1] == ':':
	case (c0 == 'A' || c0 == 'a') && c1 == 'c':
		// "Active:", "Active_anon:", "active_anon:": not sshd's "Accepted publickey".
		if len(s) < 7 || s[2:6] != "tive" {
			return false
		}
	case c0 == 'D' && (c1 == 'M' || c1 == 'e'), c0 == 'F' && c1 == 'r',
		c0 == 'H' && c1 == 'i', c0 == 'M' && c1 == 'o', c0 == 'N' && c1 == 'o':
	case c0 >= '0' && c0 <= '9' && strings.Contains(s, " pages"), c0 == 'T' && c1 == 'o', c0 == 'S' && c1 == 'w',
		c0 == 'M' && c1 == 'e':
		// The footer (lib/show_mem.c): an excerpt may begin there, the dump's head cut.
		k := showMemKind(s)
		return k == "tail" || k == "swap"
	default:
		return false
	}
	switch showMemKind(s) {
	case "marker", "zone", "buddy", "freepages", "global", "nodeopen", "tail", "swap":
		return true
	case "node":
		// "Node 0 active_anon:768kB inactive_anon:… all_unreclaimable? yes": an excerpt
		// whose head (Mem-Info: and the global summary) was cut begins at the node line,
		// which only show_mem prints (mm/show_mem.c, show_free_areas).
		return true
	}
	return false
}

// isContinuation reports whether a line continues the previous key:value line of a hard-wrapped
// dump: it starts with "key:value" or "N*NkB" and is not itself the start of a dump line.
func isContinuation(t string) bool {
	s := strings.TrimSpace(t)
	if k := showMemKind(s); s == "" || k != "" && k != "buddy24" {
		return false
	}
	f := firstField(s)
	if strings.Contains(f, "*") && strings.HasSuffix(f, "kB") || f == "all_unreclaimable?" {
		return true
	}
	c := strings.IndexAny(f, ":=")
	if c <= 0 || c == len(f)-1 {
		return f == "=" || strings.HasPrefix(s, "= ")
	}
	key := f[:c]
	for i := 0; i < len(key); i++ {
		ch := key[i]
		if !(ch == '_' || ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' || ch == '?') {
			return false
		}
	}
	return true
}

// isPendingContinuation: the pieces of a dump line that pr_cont split into records of their
// own (printk of 4.19-era kernels, corpus case 123) and that continue the line only when one
// is open: a lowmem_reserve[] value alone ("3030") and a buddy order's migrate types alone
// ("(UME)").
func isPendingContinuation(t string) bool {
	s := strings.TrimSpace(t)
	if isDigits(s) {
		return true
	}
	if len(s) < 3 || s[0] != '(' || s[len(s)-1] != ')' {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// continues reports whether t continues the dump line waiting in m (see isContinuation and
// isPendingContinuation).
func (m *showMem) continues(t string) bool {
	switch m.pendKind {
	case "reserve":
		return m.splitReserve && isDigits(strings.TrimSpace(t))
	case "buddy", "fragment":
		return isContinuation(t) || isPendingContinuation(t) && !isDigits(strings.TrimSpace(t))
	}
	return false
}

// add offers a line to the dump; it returns false when the line does not belong.
func (m *showMem) add(t string) bool {
	s := strings.TrimSpace(t)
	k := showMemKind(s)
	if m.pendKind == "nodeopen" {
		// "Node 0" alone, then its zone's "DMA32:" (KERN_CONT pieces): one buddy line.
		node := m.pendBuf
		m.pendBuf, m.pendKind = "", ""
		if k == "buddyopen" || k == "buddy" {
			s = node + " " + s
		}
	}
	if m.lines == 0 && zonelessBuddy24(s) {
		m.anon24 = true
	}
	if m.lines == 0 && isLoneBuddyToken(s) {
		m.pendBuf, m.pendKind = s, "fragment"
		m.lines++
		return true
	}
	if k == "" && m.continues(s) {
		m.pendBuf += " " + s
		m.lines++
		return true
	}
	// A line of blocks is 2.4's zone-less buddy line only in a 2.4 dump, and only when the
	// previous one has ended ("= 13800kB)"); otherwise it continues a wrapped buddy line.
	if k == "buddy24" && (!m.saw24 && !m.anon24 || m.pendKind != "" && !strings.Contains(m.pendBuf, "=")) {
		k = ""
	}
	if k == "" {
		if (m.pendKind == "zone" || m.pendKind == "global" || m.pendKind == "buddy" || m.pendKind == "fragment" || m.pendKind == "node" || m.pendKind == "buddy24") && isContinuation(s) {
			m.pendBuf += " " + s
			m.lines++
			return true
		}
		// Continuation lines of the 3.x+ global block start with a space and key:value.
		if m.last == "global" && isContinuation(s) {
			m.pendBuf += " " + s
			m.pendKind = "global"
			m.lines++
			return true
		}
		return false
	}
	m.flush()
	m.lines++
	m.last = k
	switch k {
	case "zone", "global", "buddy", "node", "buddy24", "reserve":
		m.pendBuf, m.pendKind = s, k
		m.splitReserve = s == "lowmem_reserve[]:" || s == "lowmem_reserve:"
	case "buddyopen":
		m.pendBuf, m.pendKind = s, "buddy"
	case "nodeopen":
		m.pendBuf, m.pendKind = s, "nodeopen"
	case "zone24":
		m.saw24 = true
		name, rest, _ := strings.Cut(strings.TrimPrefix(s, "Zone:"), " ")
		// "min:   128kB" → "min:128kB", freepages is the zone's free memory.
		rest = strings.ReplaceAll(rest, "freepages:", "free:")
		for strings.Contains(rest, ": ") {
			rest = strings.ReplaceAll(rest, ": ", ":")
		}
		m.parseZone(name + " " + rest)
	case "swap":
		// "Free swap  = 1048572kB", "Total swap = 2097148kB" (2.6.x-: show_swap_cache_info);
		// older "Free swap:       1048572kB".
		name, key := "Free swap", "free_swap_kb"
		if strings.HasPrefix(s, "Total swap") {
			name, key = "Total swap", "total_swap_kb"
		}
		v := strings.TrimLeft(strings.TrimPrefix(s, name), " =:")
		if n, ok := atoi(strings.TrimSuffix(firstField(v), "kB")); ok {
			if key == "free_swap_kb" {
				m.freeSwap = &n
			}
			m.total(key, n)
		}
	case "freepages":
		// 2.6 show_free_areas: "Free pages:       13436kB (0kB HighMem)".
		fs := fields(strings.TrimPrefix(s, "Free pages:"))
		if len(fs) > 0 {
			if n, ok := atoi(strings.TrimSuffix(fs[0], "kB")); ok {
				m.total("free_pages_kb", n)
			}
		}
		if len(fs) > 1 {
			if n, ok := atoi(strings.TrimSuffix(strings.TrimPrefix(fs[1], "("), "kB")); ok {
				m.total("free_highmem_kb", n)
			}
		}
	case "active24":
		// 2.4 show_free_areas_core: "( Active: %d, inactive: %d, free: %d )", pages.
		if m.memInfo == nil {
			m.memInfo = &kernel.Counters{}
		}
		for _, kv := range strings.Split(strings.Trim(s, "() "), ",") {
			key, val, ok := strings.Cut(kv, ":")
			if n, ok2 := atoi(strings.TrimSpace(val)); ok && ok2 {
				m.memInfo.Set(strings.ToLower(strings.TrimSpace(key)), n)
			}
		}
	case "tail":
		if rest, ok := strings.CutPrefix(s, "Memory cgroup min protection "); ok {
			// mm/memcontrol.c mem_cgroup_show_protected_memory: root's memory.min and
			// memory.low protection in use, kB.
			minKB, lowKB, _ := strings.Cut(rest, " -- low protection ")
			if n, ok := atoi(strings.TrimSuffix(strings.TrimSpace(minKB), "kB")); ok {
				m.total("memcg_min_protection_kb", n)
			}
			if n, ok := atoi(strings.TrimSuffix(strings.TrimSpace(lowKB), "kB")); ok {
				m.total("memcg_low_protection_kb", n)
			}
			break
		}
		if rest, ok := strings.CutPrefix(s, "Swap cache stats:"); ok || strings.HasPrefix(s, "Swap cache: add ") {
			if !ok {
				// 2.6.x before "stats": "Swap cache: add 778561, delete 778496, find ..."
				rest = strings.TrimPrefix(s, "Swap cache:")
			}
			// mm/swap_state.c show_swap_cache_info: "Swap cache stats: add 1068618, delete
			// 735775, find 97278/99801" (pages added to and deleted from the swap cache
			// since boot; lookups that found the page / all lookups; removed in 5.x).
			m.swapCacheStats(rest)
			break
		}
		if strings.HasPrefix(s, "Buffer memory:") {
			if n, ok := atoi(strings.TrimSuffix(firstField(strings.TrimPrefix(s, "Buffer memory:")), "kB")); ok {
				m.total("buffer_memory_kb", n)
			}
			break
		}
		f := firstField(s)
		rest := strings.TrimSpace(s[len(f):])
		n, ok := atoi(f)
		if !ok {
			break
		}
		if rest == "pages RAM" || rest == "pages of RAM" {
			m.pagesRAM = &n
		}
		if rest == "pages HighMem/MovableOnly" {
			m.highMemPages = &n
		}
		m.total(totalKey(rest), n)
	}
	return true
}

// total keeps one footer value.
func (m *showMem) total(key string, v int64) {
	if m.totals == nil {
		m.totals = &kernel.Counters{}
	}
	m.totals.Set(key, v)
}

// swapCacheStats reads the counters of a "Swap cache stats:" line after its prefix.
func (m *showMem) swapCacheStats(rest string) {
	for _, part := range strings.Split(rest, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(part), " ")
		if !ok || name != "add" && name != "delete" && name != "find" {
			continue
		}
		found, all, two := strings.Cut(strings.TrimSpace(val), "/")
		if n, ok := atoi(found); ok {
			m.total("swap_cache_"+name, n)
		}
		if n, ok := atoi(all); ok && two {
			m.total("swap_cache_"+name+"_total", n)
		}
	}
}

// totalKey names a footer line by its words as printed (lib/show_mem.c, 2.6's arch show_mem):
// "total pagecache pages" → total_pagecache_pages, "pages HighMem/MovableOnly" →
// pages_highmem_movableonly; the two spellings of one count ("pages reserved", "reserved
// pages") keep their own names, as the kernel of the dump printed them.
func totalKey(words string) string {
	var b strings.Builder
	us := false
	for _, r := range strings.ToLower(strings.TrimSuffix(words, ".")) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			us = false
		} else if !us && b.Len() > 0 {
			b.WriteByte('_')
			us = true
		}
	}
	return strings.TrimSuffix(b.String(), "_")
}

// flush parses the line waiting for continuations.
func (m *showMem) flush() {
	s, k := m.pendBuf, m.pendKind
	m.pendBuf, m.pendKind = "", ""
	switch k {
	case "zone":
		m.parseZone(s)
	case "global":
		if m.memInfo == nil {
			m.memInfo = &kernel.Counters{}
		}
		// show_free_areas prints the block as one printk with embedded newlines, which
		// rsyslog escapes as "#012" ("slab_unreclaimable:245109#012 mapped:347626").
		s = strings.ReplaceAll(s, "#012", " ")
		// Read from /dev/kmsg (rsyslog's imklog, journald's kmsg reader, dmesg -r), the
		// record's newlines arrive as the kernel's own escape of a control byte, "\x0a"
		// (kernel/printk/printk.c escapes bytes below ' ' as "\x%02x" in a kmsg record):
		// "isolated_anon:96\x0a active_file:44" (corpus 4377, fix52d).
		s = kmsgUnescapeNewlines(s)
		for _, f := range fields(s) {
			key, val, ok := strings.Cut(f, ":")
			if !ok {
				continue
			}
			if v, ok := atoi(val); ok {
				m.memInfo.Set(key, v)
			}
		}
	case "buddy":
		m.parseBuddy(s)
	case "fragment":
		m.parseFragment(s)
	case "node":
		m.parseNode(s)
	case "reserve":
		// protection[] was computed otherwise than lowmem_reserve[] (2.6.9
		// setup_per_zone_protection folded the higher zones' watermarks in): the line keeps
		// the dump whole, its values are not taken as lowmem_reserve[].
		if len(m.zones) > 0 && !strings.HasPrefix(s, "protections") {
			z := &m.zones[len(m.zones)-1]
			for _, f := range fields(strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(s, "lowmem_reserve"), "[]"), ":")) {
				if v, ok := atoi(f); ok {
					z.LowmemReserve = append(z.LowmemReserve, v)
				}
			}
		}
	case "buddy24":
		switch {
		case m.anon24:
			m.zonelessList(s)
		case m.anonBuddy < len(m.zones):
			m.parseBuddy("Node 0 " + m.zones[m.anonBuddy].Zone + ": " + strings.TrimSuffix(strings.TrimSpace(s), ")"))
		}
		m.anonBuddy++
	}
}

// zones24 is 2.4's zone order (include/linux/mmzone.h: ZONE_DMA 0, ZONE_NORMAL 1,
// ZONE_HIGHMEM 2), in which show_free_areas_core prints every zone's buddy list, an empty
// zone's as "= 0kB)" alone (mm/page_alloc.c).
var zones24 = [...]string{"DMA", "Normal", "HighMem"}

// isaDMAKB is x86's ISA DMA zone, the first 16 MiB (arch/i386/mm/init.c, MAX_DMA_ADDRESS).
const isaDMAKB = 16 << 10

// zonelessBuddy24: a whole 2.4 buddy line, which names no zone and closes with "= NkB)"
// (show_free_areas_core: printk("%lu*%lukB ", ...) per order, then "= %lukB)\n"): three
// blocks at least, then its total.
func zonelessBuddy24(s string) bool {
	if !strings.HasSuffix(s, "kB)") {
		return false
	}
	fs := fields(s)
	if len(fs) < 5 || fs[len(fs)-2] != "=" {
		return false
	}
	for _, f := range fs[:len(fs)-2] {
		c, size, ok := strings.Cut(f, "*")
		if !ok || !isDigits(c) || !strings.HasSuffix(size, "kB") || !isDigits(strings.TrimSuffix(size, "kB")) {
			return false
		}
	}
	return true
}

// zonelessList reads a 2.4 buddy line of a dump whose Zone: lines are not in the text
// (corpus 794: SysRq-m's lists alone, a syslog prefix on each). The lines come in 2.4's
// zone order, so the n-th is zones24[n] when the paste holds the dump from its first list:
// taken so when that list's total fits x86's 16 MiB DMA zone. Otherwise, and for a line the
// paste cut before its total, the blocks are kept as a fragment and no zone is named.
func (m *showMem) zonelessList(s string) {
	s = strings.TrimSuffix(strings.TrimSpace(s), ")")
	total := int64(-1)
	if eq := strings.LastIndex(s, "= "); eq >= 0 {
		if n, ok := atoi(strings.TrimSuffix(firstField(s[eq+2:]), "kB")); ok {
			total = n
		}
	}
	if m.anonBuddy == 0 {
		m.anonNamed = total >= 0 && total <= isaDMAKB
	}
	if total < 0 || !m.anonNamed || m.anonBuddy >= len(zones24) {
		m.addFragment(s, total < 0)
		return
	}
	m.parseBuddy("Node 0 " + zones24[m.anonBuddy] + ": " + s)
}

// NodeCounters is a 4.8+ per-node line of show_free_areas (mm/page_alloc.c: "Node 0
// active_anon:1755116kB inactive_anon:... shmem_thp: 0kB ... anon_thp: 598016kB ...
// pages_scanned:168352 all_unreclaimable? yes"), kB where printed so, under the key with _kb;
// and its "Node 0 hugepages_total=0 hugepages_free=0 hugepages_surp=0 hugepages_size=2048kB"
// line (hugetlb_show_meminfo_node).
type NodeCounters struct {
	Node             int              `json:"node"`
	Fields           *kernel.Counters `json:"fields"`
	AllUnreclaimable *bool            `json:"all_unreclaimable,omitempty"`
}

// parseNode reads a per-node line; "key: value" (a space after the colon, as 4.8+ prints
// shmem_thp and anon_thp) reads as "key:value".
func (m *showMem) parseNode(s string) {
	node, rest := splitNodePrefix(s)
	fs := fields(rest)
	var nc *NodeCounters
	for i := range m.nodes {
		if m.nodes[i].Node == node {
			nc = &m.nodes[i]
		}
	}
	if nc == nil {
		m.nodes = append(m.nodes, NodeCounters{Node: node, Fields: &kernel.Counters{}})
		nc = &m.nodes[len(m.nodes)-1]
	}
	dumpFields(fs, true, func(key string, v int64, kb bool) {
		if kb {
			key += "_kb"
		}
		nc.Fields.Set(key, v)
	}, func(b bool) { nc.AllUnreclaimable = &b })
}

// dumpFields walks the "key:value" words of a dump line: set gets each number under its
// key, kb when it was printed in kB; "all_unreclaimable? yes" goes to unreclaimable. spaced
// also reads "key: value" (4.8+ prints "shmem_thp: 0kB" on the node line) and "key=value"
// (the hugepages line).
func dumpFields(fs []string, spaced bool, set func(key string, v int64, kb bool), unreclaimable func(bool)) {
	for i := 0; i < len(fs); i++ {
		f := fs[i]
		if f == "all_unreclaimable?" && i+1 < len(fs) {
			unreclaimable(fs[i+1] == "yes")
			i++
			continue
		}
		key, val, ok := strings.Cut(f, ":")
		if !ok && spaced {
			key, val, ok = strings.Cut(f, "=")
		}
		if !ok {
			continue
		}
		if spaced && val == "" && i+1 < len(fs) {
			val = fs[i+1]
			i++
		}
		kb := false
		for _, suf := range []string{"kB", "KB"} {
			if strings.HasSuffix(val, suf) {
				val, kb = strings.TrimSuffix(val, suf), true
			}
		}
		if v, ok := atoi(val); ok {
			set(key, v, kb)
		}
	}
}

func (m *showMem) zone(node int, name string) *model.ZoneReport {
	for i := range m.zones {
		if m.zones[i].Node == node && m.zones[i].Zone == name {
			return &m.zones[i]
		}
	}
	m.zones = append(m.zones, model.ZoneReport{Node: node, Zone: name})
	return &m.zones[len(m.zones)-1]
}

func (m *showMem) parseZone(s string) {
	node, rest := splitNodePrefix(s)
	fs := fields(rest)
	if len(fs) == 0 {
		return
	}
	z := m.zone(node, fs[0])
	if z.Fields == nil {
		z.Fields = &kernel.Counters{}
	}
	dumpFields(fs[1:], false, func(key string, v int64, kb bool) {
		if !kb {
			z.Fields.Set(key, v)
			return
		}
		z.Fields.Set(key+"_kb", v)
		switch key {
		case "free":
			z.FreeKB = v
		case "min":
			z.MinKB = v
		case "low":
			z.LowKB = v
		case "high":
			z.HighKB = v
		case "present":
			z.PresentKB = v
		case "managed":
			vv := v
			z.ManagedKB = &vv
		}
	}, func(b bool) { z.AllUnreclaimable = &b })
}

func (m *showMem) parseBuddy(s string) {
	node, rest := splitNodePrefix(s)
	name, after, ok := strings.Cut(rest, ":")
	if !ok {
		return
	}
	z := m.zone(node, strings.TrimSpace(name))
	after = strings.TrimSpace(after)
	if after == "empty" {
		z.FreeBlocks = []int64{}
		return
	}
	if eq := strings.LastIndex(after, "= "); eq >= 0 {
		// The line's sum, "= 920kB" (mm/page_alloc.c show_free_areas: "= %lukB\n").
		if n, ok := atoi(strings.TrimSuffix(firstField(after[eq+2:]), "kB")); ok {
			if z.Fields == nil {
				z.Fields = &kernel.Counters{}
			}
			z.Fields.Set("buddy_total_kb", n)
		}
		after = after[:eq]
	}
	fs := fields(after)
	var counts []int64
	var types []string
	hasTypes := false
	for i := 0; i < len(fs); i++ {
		f := fs[i]
		if strings.HasPrefix(f, "(") { // migrate types of the previous order
			if len(types) > 0 {
				types[len(types)-1] = strings.Trim(f, "()")
				hasTypes = true
			}
			continue
		}
		c, size, ok := strings.Cut(f, "*")
		if !ok {
			continue
		}
		n, ok1 := atoi(c)
		sz, ok2 := atoi(strings.TrimSuffix(size, "kB"))
		if !ok1 || !ok2 {
			continue
		}
		if len(counts) == 0 && m.pageKB == 0 && sz > 0 && bits.OnesCount64(uint64(sz)) == 1 {
			m.pageKB = sz
		}
		counts = append(counts, n)
		types = append(types, "")
	}
	z.FreeBlocks = counts
	if hasTypes {
		z.MigrateTypes = types
	}
}

// fill copies the dump into an allocation-failure report.
func (m *showMem) fill(af *model.AllocFailure) {
	m.flush()
	af.Zones = append(af.Zones, m.zones...)
	if m.memInfo != nil {
		af.MemInfo = m.memInfo
	}
	if m.freeSwap != nil {
		af.FreeSwapKB = m.freeSwap
	}
	if m.pagesRAM != nil {
		af.PagesRAM = m.pagesRAM
	}
	if m.highMemPages != nil {
		af.HighMemPages = m.highMemPages
	}
}

// ShowMem is a parsed show_mem dump on its own (when no allocation-failure header precedes it).
type ShowMem struct {
	Zones      []model.ZoneReport `json:"zones"`
	MemInfo    *kernel.Counters   `json:"mem_info,omitempty"`
	FreeSwapKB *int64             `json:"free_swap_kb,omitempty"`
	PagesRAM   *int64             `json:"pages_ram,omitempty"`
	PageSizeKB int64              `json:"page_size_kb,omitempty"`
	Totals     *kernel.Counters   `json:"totals,omitempty"` // the footer lines (showMem.total)
	Fragments  []BuddyFragment    `json:"buddy_fragments,omitempty"`
	// ZonesByPosition says how the zones of 2.4 buddy lists printed without names were
	// named (zonelessList), "" when the dump named them.
	ZonesByPosition string         `json:"zones_by_position,omitempty"`
	Nodes           []NodeCounters `json:"nodes,omitempty"`
}

// ParseShowMem parses a show_mem / Mem-Info dump, joining hard-wrapped lines.
func ParseShowMem(text string) ShowMem {
	var m showMem
	for _, l := range SplitLines(text) {
		m.add(l.Text)
	}
	var af model.AllocFailure
	m.fill(&af)
	return ShowMem{Zones: af.Zones, MemInfo: af.MemInfo, FreeSwapKB: af.FreeSwapKB, PagesRAM: af.PagesRAM, PageSizeKB: m.pageKB, Totals: m.totals, Nodes: m.nodes}
}

// showMemZoneReading turns the zones of a show_mem dump that stands alone (no report header
// before it: a sysrq-m dump, or a report whose header the paste cut) into a zone reading:
// the kernel printed each zone's free pages and watermarks at that moment
// (mm/show_mem.c show_free_areas), what /proc/zoneinfo would have said then. Only zones with
// min, low, high and present printed (non-zero: ZoneReport cannot tell 0 from absent) are
// kept, in pages of the dump's own page size (its buddy line's smallest block, else what its
// lowmem_reserve[] lines give: reservePageKB); without that size nothing is converted, no
// page size is guessed. The zone's "all_unreclaimable? yes" (before 4.8) and pages_scanned
// are zoneinfo's all_unreclaimable and scanned; a 4.11+ node line's "all_unreclaimable?
// yes" is pgdat->kswapd_failures at MAX_RECLAIM_RETRIES (mm/page_alloc.c
// show_free_areas), zoneinfo's node_unreclaimable, set on each zone of that node (4.8–4.10
// print pgdat_reclaimable there instead, the same verdict from scanned pages).
// A dump inside a failure or OOM report stays that report's: its rules judge it.
//
// cutAtEnd says the dump's last zone line was cut (lastZoneLineCut): that line, cut before
// present: but with free pages and watermarks printed, is kept (FieldPresentNotPrinted):
// free pages are the zone's own, so it has memory. A zone line without present: elsewhere
// (wrapped, or an older format) is not taken so.
//
// noPresent says the dump's format prints no present: at all (2.4's "Zone:DMA freepages:
// 412kB min: 128kB low: 256kB high: 384kB", show_free_areas_core): its zones with free pages
// are kept as a cut line's are.
func showMemZoneReading(zones []model.ZoneReport, nodes []NodeCounters, pageKB int64, cutAtEnd, noPresent bool) []kernel.Zone {
	if pageKB <= 0 {
		return nil
	}
	var out []kernel.Zone
	for k, z := range zones {
		cutZone := (noPresent || cutAtEnd && k == len(zones)-1) && z.PresentKB <= 0 && z.FreeKB > 0
		// A cut line keeps what it printed whole: each watermark ends in its unit ("min:512kB
		// low:2" keeps free and min), so its free pages and min still place the zone.
		if z.MinKB <= 0 || (!cutZone && (z.LowKB <= 0 || z.HighKB <= 0 || z.PresentKB <= 0)) {
			continue
		}
		var f kernel.Counters
		f.Set("free", z.FreeKB/pageKB)
		f.Set("min", z.MinKB/pageKB)
		if z.LowKB > 0 {
			f.Set("low", z.LowKB/pageKB)
		}
		if z.HighKB > 0 {
			f.Set("high", z.HighKB/pageKB)
		}
		if z.PresentKB > 0 {
			f.Set("present", z.PresentKB/pageKB)
		} else {
			f.Set(model.FieldPresentNotPrinted, 1) // free pages are the zone's own: populated
		}
		if z.ManagedKB != nil {
			f.Set("managed", *z.ManagedKB/pageKB)
		}
		if z.AllUnreclaimable != nil {
			f.Set("all_unreclaimable", boolInt(*z.AllUnreclaimable))
			if z.Fields != nil {
				if v, ok := z.Fields.Get("pages_scanned"); ok {
					f.Set("scanned", v)
				}
			}
		}
		if z.Fields != nil {
			// 2.6.32+ zone lines print the zone's unreclaimable slab (kB), as
			// /proc/zoneinfo's nr_slab_unreclaimable (pages) did before 4.13.
			if v, ok := z.Fields.Get("slab_unreclaimable_kb"); ok {
				f.Set("nr_slab_unreclaimable", v/pageKB)
			}
		}
		for _, n := range nodes {
			if n.Node == z.Node && n.AllUnreclaimable != nil {
				f.Set("node_unreclaimable", boolInt(*n.AllUnreclaimable))
			}
		}
		out = append(out, kernel.Zone{Node: z.Node, Name: z.Zone, Fields: f})
	}
	return out
}

// lastZoneLineCut says whether a dump ends inside its last zone line: the dump's last line is
// a zone line and the paste ends there, or its last field is a name without its ":value"
// ("... inactive_file:1235660kB unevictable:0kB writepen", or "writepending:" with its
// value cut), which no zone line the kernel
// prints ends with (each field is "name:value", lib/show_mem.c show_free_areas), so
// whatever follows (a closing fence, the poster's prose, a prompt) came after the cut. A
// zone line cut inside the dump, its lowmem_reserve and buddy lines after it (an excerpt the
// poster trimmed, corpus 706), is not the dump's end.
func lastZoneLineCut(ls []Line, used []int) bool {
	if len(used) == 0 {
		return false
	}
	k := used[len(used)-1]
	t := ls[k].Text
	if showMemKind(t) != "zone" {
		return false
	}
	if lastTextLine(ls, k) {
		return true
	}
	fs := fields(t)
	last := fs[len(fs)-1]
	if k, v, ok := strings.Cut(last, ":"); ok {
		if v == "" {
			return true // "... unevictable:9076kB writepending:": cut after the name's colon (corpus 2963)
		}
		// A watermark or size whose number lost its unit ("HighMem free:8913576kB min:512kB
		// low:2", corpus 1904): each is printed "name:NkB", so the line was cut in it.
		switch k {
		case "free", "min", "low", "high", "present", "managed":
			return v != "" && isDigits(v)
		}
		return false
	}
	return strings.Trim(last, "abcdefghijklmnopqrstuvwxyz_") == ""
}

// showMemBuddy is the buddy lists of a dump's zones as buddyinfo rows, the zones that
// printed one.
func showMemBuddy(zones []model.ZoneReport) []kernel.BuddyZone {
	var out []kernel.BuddyZone
	for _, z := range zones {
		if len(z.FreeBlocks) > 0 {
			out = append(out, kernel.BuddyZone{Node: z.Node, Zone: z.Zone, Free: slices.Clone(z.FreeBlocks)})
		}
	}
	return out
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// reservePageKB is the page size of a dump without buddy lines, from the lowmem_reserve[]
// of a DMA, DMA32 (or 32-bit Normal) zone and the size of the populated zone printed next on
// its node (kernel.PageKBFromLowmemReserve); 0 when no pair gives one, or two disagree.
func reservePageKB(zones []model.ZoneReport) int64 {
	var got int64
	for i := 0; i+1 < len(zones); i++ {
		lo, up := zones[i], zones[i+1]
		if lo.Node != up.Node || len(lo.LowmemReserve) == 0 {
			continue
		}
		upKB := up.PresentKB
		if up.ManagedKB != nil {
			upKB = *up.ManagedKB
		}
		p, ok := kernel.PageKBFromLowmemReserve(lo.Zone, lo.LowmemReserve, upKB)
		if !ok {
			continue
		}
		if got != 0 && got != p {
			return 0
		}
		got = p
	}
	return got
}

// x86ZonesPageKB is 4 when the dump's zones are x86-64's: a DMA zone within the first 16 MiB
// (ISA DMA, arch/x86 MAX_DMA_PFN; present at most 16384 kB) beside a DMA32 zone on the same
// node. x86 has 4 kB base pages only, so the dump's kB figures convert to pages without its
// buddy lines, when its lowmem_reserve[] gives no size (the zone above grew after boot, as a
// VM's balloon or freed init memory make it: fix17a). arm64's DMA zone is 1 GiB or more and
// its pages may be 16 or 64 kB: no size from its zones. 0 when the zones are not so.
func x86ZonesPageKB(zones []model.ZoneReport) int64 {
	for _, lo := range zones {
		if lo.Zone != "DMA" || lo.PresentKB <= 0 || lo.PresentKB > 16384 {
			continue
		}
		for _, up := range zones {
			if up.Node == lo.Node && up.Zone == "DMA32" && up.PresentKB > 0 {
				return 4
			}
		}
	}
	return 0
}
