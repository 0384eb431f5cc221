package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// "python3: page allocation stalls for 10060ms, order:1, mode:0x15080c0(GFP_KERNEL_ACCOUNT|
// __GFP_ZERO), nodemask=(null)": warn_alloc called from __alloc_pages_slowpath (mm/page_alloc.c,
// 4.1x kernels) each time a request that may reclaim passed stall_timeout (10 s, then every
// 10 s more) in the slow path. The same task line, stack and show_mem dump follow as after a
// failure, so the report is collected by collectReport; but the request had not failed, and
// it is kept apart from the failures (model.EventAllocStall) so that no failure rule reads it.

var reAllocStallMS = lazyre.New(`page allocation stalls for (\d+)ms, order:`)

// allocStallArtifact is the artifact of a stall report.
type allocStallArtifact struct {
	StallMS int64 `json:"stall_ms"`
	*model.AllocFailure
	reportExtras
	Notes []string `json:"notes,omitempty"`
}

// reVmallocPages is vmalloc's report of the pages it could not get (mm/vmalloc.c
// vm_area_alloc_pages through __vmalloc_area_node's warn_alloc, 5.13+): "crawl_27272_520:
// vmalloc error: size 14680064, page order 9, failed to allocate pages, mode:0xcc2(...),
// nodemask=(null),cpuset=...". The pages are the buddy allocator's, of that order (9 when
// vmalloc tried huge pages), so it is a page allocation failure of that order and mode; the
// other "vmalloc error" forms (vm_struct allocation failed: address space; failed to map
// pages; the page array) are not, and stay log lines (kernel.MsgNotPhysical).
var reVmallocPages = lazyre.New(`vmalloc error: size (\d+), page order (\d+), failed to allocate pages, (mode:.*)$`)

// isVmallocPagesHeader is the cheap test for reVmallocPages.
func isVmallocPagesHeader(t string) bool {
	return strings.Contains(t, "vmalloc error: size ") && strings.Contains(t, "failed to allocate pages")
}

// parseVmallocPages reads such a header as a page allocation failure, with the vmalloc's
// size in bytes.
func parseVmallocPages(t string) (af *model.AllocFailure, size int64, ok bool) {
	m := reVmallocPages.FindStringSubmatchIndex(t)
	if m == nil {
		return nil, 0, false
	}
	size, err := strconv.ParseInt(t[m[2]:m[3]], 10, 64)
	if err != nil {
		return nil, 0, false
	}
	af, ok = parseAllocHeader(t[:m[0]] + "page allocation failure: order:" + t[m[4]:m[5]] + ", " + t[m[6]:m[7]])
	return af, size, ok
}

func isAllocStallHeader(t string) bool { return strings.Contains(t, kernel.MsgPageAllocStall) }

// parseAllocStall reads a stall header: the failure header's form with "page allocation
// stalls for Nms, order:N" where a failure says "page allocation failure: order:N".
func parseAllocStall(t string) (ms int64, af *model.AllocFailure, ok bool) {
	m := reAllocStallMS.FindStringSubmatchIndex(t)
	if m == nil {
		return 0, nil, false
	}
	ms, err := strconv.ParseInt(t[m[2]:m[3]], 10, 64)
	if err != nil {
		return 0, nil, false
	}
	af, ok = parseAllocHeader(t[:m[0]] + "page allocation failure: order:" + t[m[1]:])
	return ms, af, ok
}

// allocStall reads the stall report whose header is line i.
func (d *doc) allocStall(i int) bool {
	t := d.ls[i].Text
	ms, af, ok := parseAllocStall(t)
	if !ok && i+1 < len(d.ls) && !d.used[i+1] && !isBlank(d.ls[i+1].Text) && !d.ls[i+1].Kernel {
		// The header broken by a wrap where no prefix tells the pieces: "..., order:1," /
		// "mode:0x15080c0(...)" (as for failures, kernelReport).
		joined := strings.TrimRight(t, " ") + " " + strings.TrimLeft(d.ls[i+1].Text, " ")
		if ms2, af2, ok2 := parseAllocStall(joined); ok2 {
			ms, af, ok = ms2, af2, true
			d.ls[i].Text = joined
			d.ls[i].Pieces++
			d.used[i+1] = true
		}
	}
	if !ok {
		if !strings.Contains(t, "order") {
			return false // prose that names the message
		}
		d.unparsed(i, i, "looks like a page allocation stall warning but its duration, order or mode could not be read")
		d.used[i] = true
		return true
	}
	ev, r := d.readAllocReport(i, af)
	ApplyGFP(af, af.Kernel)
	af.Count = 0
	ev.Kind, ev.AllocFailure = model.EventAllocStall, nil
	ev.AllocStall = &model.AllocStall{StallMS: ms, Request: *af}
	d.tl.Events = append(d.tl.Events, ev)
	d.addArtifact(KindAllocStall, ev.FirstLine, ev.LastLine, &allocStallArtifact{StallMS: ms, AllocFailure: af, reportExtras: r.x, Notes: r.notes})
	d.logLines(r.used)
	return true
}

// reNoMMUAlloc is a no-MMU kernel's failed mmap (kernel.MsgNoMMUAllocFailure): "Allocation of
// length 61440 from process 6821 (rm) failed".
var reNoMMUAlloc = lazyre.New(`Allocation of length (\d+) from process (\d+) \(([^)]*)\) failed`)

// isNoMMUAllocHeader is the cheap test for reNoMMUAlloc.
func isNoMMUAllocHeader(t string) bool {
	return strings.Contains(t, kernel.MsgNoMMUAllocFailure) && strings.Contains(t, " from process ")
}

// parseNoMMUAlloc reads such a header as a page allocation failure of the order the length
// needs (get_order: the smallest power-of-two run of pages that holds it, 4 KiB pages) and
// GFP_KERNEL, the mode do_mmap_private asks alloc_pages for.
func parseNoMMUAlloc(t string) (af *model.AllocFailure, size int64, ok bool) {
	m := reNoMMUAlloc.FindStringSubmatch(t)
	if m == nil {
		return nil, 0, false
	}
	size, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil || size <= 0 {
		return nil, 0, false
	}
	order, _ := kernel.GetOrder(size, 4096)
	af, ok = parseAllocHeader(m[3] + ": page allocation failure: order:" + strconv.Itoa(order) + ", mode:(GFP_KERNEL)")
	return af, size, ok
}
