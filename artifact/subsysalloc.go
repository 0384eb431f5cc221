package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/kernel"
	"headroom/model"
	"headroom/units"
)

// A failed allocation in a subsystem's or a driver's own words (kernel.ParseSubsysAllocFailure)
// that states what it asked for: the page order ("iwlwifi: alloc_pages failed, order: 1",
// drivers/net/wireless/intel/iwlwifi/pcie/rx.c iwl_pcie_rxq_alloc_rbs), or the size in bytes
// of a request to an allocator that takes contiguous pages ("kmalloc of 8388608 bytes
// failed": mm/slub.c kmalloc_large asks for get_order(size), kernel.GetOrder). Such a line
// is an allocation failure of that order without mode, process or zone dump, as a stated
// order in prose is (statedalloc.go); the rules infer what they can. A line that states
// neither stays a log line, which the alloc-fail rules read as a failure of unknown order
// (diagnose subsysAllocRecords). Only when no report of the kernel's says the order itself.

// maxSubsysAllocEvents bounds the events: one per order, so at most the orders a line can
// state.
const maxSubsysAllocEvents = 16

// subsysAllocEvents adds one allocation-failure event per order the kernel log's subsystem
// lines state, counting the lines of each.
func (d *doc) subsysAllocEvents() {
	if d.hasAllocFailure() || d.tl.Log.Len() == 0 {
		return
	}
	type group struct {
		first, last *model.LogRecord
		count       int
		atomic      *bool
		why         string
	}
	byOrder := map[int]*group{}
	var orders []int
	page, assumed := int64(d.tl.Host.PageSize), ""
	if page <= 0 {
		page, assumed = 4096, ", 4 KiB pages assumed (the page size is not in the text)"
	}
	var p kernel.SubsysAllocParser
	for _, rec := range d.tl.Log.All() {
		r := &rec
		f, ok := p.Parse(r.Message)
		if !ok {
			continue
		}
		order, why := f.Order, "the order the line states"
		if order < 0 && f.Contiguous && f.Bytes > 2*page {
			// A request that fits a kmalloc cache (two pages or less, SLUB's
			// KMALLOC_MAX_CACHE_SIZE) takes its slab's order, not its own.
			order, _ = kernel.GetOrder(f.Bytes, page)
			why = fmt.Sprintf("get_order(%s) of the request the line states%s", units.FormatBytes(f.Bytes), assumed)
		}
		if order < 0 || order > 20 {
			continue
		}
		g := byOrder[order]
		if g == nil {
			if len(byOrder) >= maxSubsysAllocEvents {
				continue
			}
			g = &group{first: r, atomic: f.Atomic, why: why}
			byOrder[order] = g
			orders = append(orders, order)
		}
		g.last = r
		g.count++
	}
	for _, o := range orders {
		g := byOrder[o]
		first, last := g.first.Line(), g.last.Line()
		msg := strings.TrimSpace(g.first.Message)
		af := &model.AllocFailure{Order: o, Count: g.count, Atomic: g.atomic,
			GFPNote: fmt.Sprintf("not printed: a subsystem's own message (%q); order %d is %s; no page allocation failure report of it in the input", clip(msg, 120), o, g.why)}
		d.addArtifact(KindStated, first, last, map[string]any{"subsystem_alloc_failures": g.count, "order": o, "message": msg})
		d.tl.Events = append(d.tl.Events, model.Event{Kind: model.EventAllocFailure, Source: spanSource(first, last), FirstLine: first, LastLine: last,
			UptimeUsec: max(g.first.UptimeUsec, 0), AllocFailure: af})
	}
}

// maxCMAFailureArtifacts bounds the artifacts of cmaFailures: one per request size and errno.
const maxCMAFailureArtifacts = 16

// cmaFailures keeps what cma_alloc's failure lines state (kernel.MsgCMAAllocFail): the
// request in pages and bytes, and the errno, one artifact per request and errno with the
// count of its lines. No rule takes the figures as a zone's: the CMA area is a pool of its
// own (kernel.PoolCMA), and the alloc-fail rules read the line as its failure. Gated by the
// message's own words, a substring test per record.
func (d *doc) cmaFailures() {
	type key struct {
		pages int64
		ret   int
	}
	type group struct {
		first, last int
		count       int
		firstUsec   int64 // the first line's dmesg stamp, -1 when it has none
		msg         string
		areas       cmaAreas
	}
	if !d.cmaLogged {
		return
	}
	var keys []key
	groups := map[key]*group{}
	var last *group
	largest := int64(0) // the largest free run of the area lines since the last failure
	for _, rec := range d.tl.Log.All() {
		if !strings.Contains(rec.Message, kernel.MsgCMAAllocFail[0]) {
			if last != nil && strings.Contains(rec.Message, "@") {
				if a, ok := parseCMAAreas(rec.Message, &largest); ok && last.areas.total == 0 {
					last.areas = a
				}
			}
			continue
		}
		largest = 0
		f, ok := kernel.ParseSubsysAllocFailure(rec.Message)
		if !ok || f.Pool != kernel.PoolCMA || f.Pages <= 0 {
			continue
		}
		k := key{f.Pages, f.Ret}
		g := groups[k]
		if g == nil {
			if len(groups) >= maxCMAFailureArtifacts {
				continue
			}
			g = &group{first: rec.Line(), firstUsec: rec.UptimeUsec, msg: strings.TrimSpace(rec.Message)}
			groups[k] = g
			keys = append(keys, k)
		}
		g.last = rec.Line()
		g.count++
		last = g
	}
	page, assumed := int64(d.tl.Host.PageSize), false
	if page <= 0 {
		page, assumed = 4096, true
	}
	for _, k := range keys {
		g := groups[k]
		data := map[string]any{"cma_alloc_failures": g.count, "req_pages": k.pages, "req_bytes": k.pages * page, "ret": k.ret, "message": clip(g.msg, 120)}
		if assumed {
			data["page_size"] = "4 KiB assumed (the page size is not in the text)"
		}
		if g.firstUsec >= 0 {
			data["first_uptime_s"] = float64(g.firstUsec) / 1e6 // when the pool first failed, seconds since boot
		}
		if a := g.areas; a.total > 0 {
			data["cma_free_pages"], data["cma_total_pages"] = a.free, a.total
			if a.largest > 0 {
				data["cma_largest_free_run_pages"] = a.largest
			}
		}
		d.addArtifact(KindStated, g.first, g.last, data)
	}
}

// cmaAreas is what cma_debug_show_areas (mm/cma.c, CONFIG_CMA_DEBUG) prints after a failed
// cma_alloc: "number of available pages: 3@125+8@248+1024@4096=> 1035 free of 65536 total
// pages", each free run as PAGES@BIT, the free and the total pages of the area (6.14+ prints
// a "range N: " line per range before the total). A request larger than the largest run
// cannot be met however many pages are free: the area is fragmented, or pinned pages split it.
type cmaAreas struct{ free, total, largest int64 }

// parseCMAAreas reads one line of cma_debug_show_areas; largest carries the largest run over
// the area's lines. ok is true on the line with the totals.
func parseCMAAreas(msg string, largest *int64) (cmaAreas, bool) {
	body, opened := msg, false
	if i := strings.Index(body, "number of available pages: "); i >= 0 {
		body, opened = body[i+len("number of available pages: "):], true
	}
	if _, r, ok := strings.Cut(body, "range "); ok {
		// "cma: range 1: 300@0=> ...": the range's number, then its runs.
		if n, rest, ok := strings.Cut(r, ": "); ok && kernel.IsDigits(n) {
			body, opened = rest, true
		}
	}
	if !opened {
		return cmaAreas{}, false
	}
	runs, tail, _ := strings.Cut(body, "=>")
	for _, part := range strings.Split(runs, "+") {
		n, _, ok := strings.Cut(strings.TrimSpace(part), "@")
		if v, err := strconv.ParseInt(n, 10, 64); ok && err == nil && v > *largest {
			*largest = v
		}
	}
	f, rest, ok := strings.Cut(strings.TrimSpace(tail), " free of ")
	if !ok {
		return cmaAreas{}, false
	}
	t, _, ok := strings.Cut(rest, " total pages")
	free, err1 := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
	total, err2 := strconv.ParseInt(strings.TrimSpace(t), 10, 64)
	if !ok || err1 != nil || err2 != nil || total <= 0 || free > total {
		return cmaAreas{}, false
	}
	return cmaAreas{free: free, total: total, largest: *largest}, true
}
