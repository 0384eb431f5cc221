package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
	"headroom/units"
)

// A driver that cannot allocate a receive skb often says so in its own words and nothing
// more ("failed to allocate rx_skb 0", kernel.MsgDriverRxSkbAllocFail): it allocates with
// __GFP_NOWARN, so no page allocation failure report says the order. When the text states
// the buffer's size beside a lack of contiguous memory ("it's a buffer for the RX data ...
// kinda large (32 KiB) and the system doesn't always have that much contiguous memory"),
// the size gives the order (kernel.SkbHeadOrder), and the driver's lines are allocation
// failures of that order, without a mode or a zone dump: the rules infer their cause.

// reStatedRxBufSize: a size in KiB or MiB in a paragraph that names a buffer and contiguous
// memory (checked by the caller).
var reStatedRxBufSize = lazyre.New(`(?i)\b(\d{1,4})\s*(KiB|KB|K|MiB|MB)\b`)

// statedRxBuffer finds the buffer size the paragraph states (bytes) and the line of it.
func statedRxBuffer(para string, lineAt func(int) int, sub *subjects) (size int64, no int, ok bool) {
	lower := strings.ToLower(para)
	if !strings.Contains(lower, "contiguous") || !strings.Contains(lower, "buffer") {
		return 0, 0, false
	}
	for _, m := range reStatedRxBufSize.FindAllStringSubmatchIndex(para, -1) {
		sentence := sentenceAround(para, m[0], m[1])
		if hypotheticalUpTo(sentence, para[m[0]:m[1]]) {
			continue
		}
		if subj, _ := sub.subjectAt(lineAt(m[0]), sentence); subj != "" {
			continue // another machine's, advice, an outcome
		}
		v, err := strconv.ParseInt(para[m[2]:m[3]], 10, 64)
		if err != nil || v <= 0 {
			continue
		}
		if u := strings.ToUpper(para[m[4]:m[5]]); strings.HasPrefix(u, "M") {
			v <<= 20
		} else {
			v <<= 10
		}
		return v, lineAt(m[0]), true
	}
	return 0, 0, false
}

// driverRxFailures turns the driver's receive-skb failure lines into one allocation-failure
// event of the order the stated buffer size takes.
func (d *doc) driverRxFailures(size int64, sizeLine int) {
	var recs []model.LogRecord
	for _, r := range d.tl.Log.All() {
		if kernel.IsDriverRxSkbAllocFail(r.Message) {
			recs = append(recs, r)
		}
	}
	if len(recs) == 0 {
		return
	}
	page, assumed := int64(d.tl.Host.PageSize), ""
	if page <= 0 {
		page, assumed = 4096, " (4 KiB pages assumed: the page size is not in the text)"
	}
	order, ok := kernel.SkbHeadOrder(size, page)
	if !ok {
		return
	}
	first, last := recs[0].Line(), recs[len(recs)-1].Line()
	af := &model.AllocFailure{Order: order, Count: len(recs),
		GFPNote: fmt.Sprintf("not printed: the driver's own message (%q); order %d is the skb for the %s buffer stated on line %d, with its shared info%s",
			strings.TrimSpace(recs[0].Message), order, units.FormatBytes(size), sizeLine, assumed)}
	data := map[string]any{"driver_rx_skb_failures": len(recs), "order": order, "buffer_bytes": size, "message": strings.TrimSpace(recs[0].Message)}
	if u0, u1 := recs[0].UptimeUsec, recs[len(recs)-1].UptimeUsec; u0 >= 0 && u1 >= 0 {
		data["first_s"], data["last_s"] = float64(u0)/1e6, float64(u1)/1e6
	}
	d.addArtifact(KindStated, first, last, data)
	d.tl.Events = append(d.tl.Events, model.Event{Kind: model.EventAllocFailure, Source: spanSource(first, last), FirstLine: first, LastLine: last,
		UptimeUsec: max(recs[0].UptimeUsec, 0), AllocFailure: af})
}

// hasAllocFailure: a page allocation failure report was read, which says its own order.
func (d *doc) hasAllocFailure() bool { return d.hasEvent(model.EventAllocFailure) }

// hasEvent: the text holds a report of this kind the parser read.
func (d *doc) hasEvent(kind string) bool {
	for i := range d.tl.Events {
		if d.tl.Events[i].Kind == kind {
			return true
		}
	}
	return false
}
