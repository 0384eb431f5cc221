package export

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"headroom/artifact"
	"headroom/kernel"
	"headroom/model"
)

// gfpClass is the gfp_class label of headroom_page_allocation_failures_total: the class
// kernel.ClassifyGFP gives the report's decoded mode, the same that doctor's allocation-failure
// rule reads.
func gfpClass(af *model.AllocFailure) string {
	if af == nil {
		return kernel.GFPClassUnknown
	}
	return kernel.ClassifyGFP(af.Atomic, af.GFPFlags, af.GFPCandidates)
}

// allocKey is one label set of headroom_page_allocation_failures_total.
type allocKey struct {
	Order int
	Class string
}

// logWatch follows the kernel log and turns it into events incrementally. A kernel report
// (an allocation failure with its show_mem dump, an OOM kill) is many records printed in one
// burst; a read of /dev/kmsg may end in the middle of one. So new records wait in pending
// until they have been there for settle, and only reports that end within the settled part
// are counted; the rest is parsed again with the records that follow. The first read (the
// backlog since boot) is settled at once.
type logWatch struct {
	follower *kernel.KmsgFollower
	openErr  error
	readErr  error
	kernel   string // release, for GFP decoding
	root     kernel.Root
	settle   time.Duration
	first    bool

	pending []pendingRec

	counts map[allocKey]int64
	// committed counts the events committed so far: the collector runs the rules early
	// when it grows.
	committed uint64
	// recent log records and events, bounded by count and pruned by the window.
	log    []stamped[model.LogRecord]
	events []stamped[model.Event]
}

type pendingRec struct {
	rec model.LogRecord
	at  time.Time // arrival
}

type stamped[T any] struct {
	v  T
	at time.Time // the record's wall time, or its arrival when the log has no clock
}

// Bounds on what the window keeps of the log. The reports the rules read (allocation
// failures, OOM kills) are kept as parsed events, up to maxRecentEvents; the raw records are
// a tail for the rules that search log lines ("table full, dropping packet", "too many
// orphaned sockets"), whose kernels print them ratelimited: 1000 records (some 200 KB) hold
// the last minutes of even a chatty log.
const (
	maxRecentLog    = 1000
	maxRecentEvents = 500
	// maxPending parses and settles the pending records anyway when a log floods faster
	// than they settle.
	maxPending = 20000
	logSettle  = 2 * time.Second
)

func newLogWatch(root kernel.Root, release string) *logWatch {
	w := &logWatch{kernel: release, root: root, settle: logSettle, first: true, counts: map[allocKey]int64{}}
	w.follower, w.openErr = kernel.NewKmsgFollower(root, true)
	return w
}

// err says why the log is not available, nil when it is.
func (w *logWatch) err() error {
	if w.openErr != nil {
		return w.openErr
	}
	return w.readErr
}

// lost is the number of records the kernel overwrote before we read them.
func (w *logWatch) lost() uint64 {
	if w.follower == nil {
		return 0
	}
	return w.follower.Lost()
}

func (w *logWatch) close() {
	if w.follower != nil {
		w.follower.Close()
	}
}

// poll reads new records and commits the reports that are complete. boot is the wall time
// of boot (zero when unknown); now the sample time.
func (w *logWatch) poll(now, boot time.Time) {
	if w.follower == nil {
		return
	}
	recs, err := w.follower.ReadNew()
	w.readErr = err
	arrived := now
	if w.first {
		arrived = time.Time{} // the backlog: settled at once
		w.first = false
	}
	src := "/dev/kmsg"
	if !w.root.IsLive() {
		src = w.root.Name + " dev/kmsg"
	}
	for _, r := range recs {
		lr := model.LogRecord{UptimeUsec: r.TimestampUsec, Priority: r.Priority, Message: r.Message}
		lr.SetSource(fmt.Sprintf("%s seq %d", src, r.Seq))
		if !boot.IsZero() {
			// Boot time plus CLOCK_MONOTONIC, which stops in suspend: as in source.Collect.
			lr.SetTime(boot.Add(time.Duration(r.TimestampUsec) * time.Microsecond))
		}
		w.pending = append(w.pending, pendingRec{rec: lr, at: arrived})
	}
	w.process(now)
}

// process parses the pending records and commits what has settled.
func (w *logWatch) process(now time.Time) {
	if len(w.pending) == 0 {
		return
	}
	settled := 0
	for settled < len(w.pending) && !w.pending[settled].at.After(now.Add(-w.settle)) {
		settled++
	}
	if len(w.pending) > maxPending {
		settled = len(w.pending)
	}
	if settled == 0 {
		return
	}
	recs := make([]model.LogRecord, len(w.pending))
	for i := range w.pending {
		recs[i] = w.pending[i].rec
	}
	events := artifact.ParseKernelLog(recs, w.kernel)
	// cut: records [0, cut) are done. An event that starts in the settled part but ends
	// past it holds the cut back to its first record.
	cut := settled
	for _, e := range events {
		if e.FirstLine >= 1 && e.FirstLine <= settled && e.LastLine > settled && e.FirstLine-1 < cut {
			cut = e.FirstLine - 1
		}
	}
	for _, e := range events {
		if e.FirstLine < 1 || e.LastLine > cut {
			continue
		}
		w.commitEvent(e, w.pending[e.FirstLine-1].at)
	}
	for _, p := range w.pending[:cut] {
		at := p.rec.Time()
		if at.IsZero() {
			at = p.at
		}
		w.log = append(w.log, stamped[model.LogRecord]{v: p.rec, at: at})
	}
	if len(w.log) > maxRecentLog {
		w.log = slices.Delete(w.log, 0, len(w.log)-maxRecentLog)
	}
	w.pending = slices.Delete(w.pending, 0, cut)
}

func (w *logWatch) commitEvent(e model.Event, arrived time.Time) {
	w.committed++
	if e.Kind == model.EventAllocFailure && e.AllocFailure != nil {
		n := int64(e.AllocFailure.Reports())
		w.counts[allocKey{Order: e.AllocFailure.Order, Class: gfpClass(e.AllocFailure)}] += n
	}
	at := e.Time
	if at.IsZero() {
		at = arrived
	}
	w.events = append(w.events, stamped[model.Event]{v: e, at: at})
	if len(w.events) > maxRecentEvents {
		w.events = slices.Delete(w.events, 0, len(w.events)-maxRecentEvents)
	}
}

// window returns the log records and events at or after from, and drops older ones. The
// events' line numbers counted records of the parse that found them, not of the returned
// log, so they are cleared; each event's Source keeps its /dev/kmsg sequence numbers.
func (w *logWatch) window(from time.Time) ([]model.LogRecord, []model.Event) {
	i := 0
	for i < len(w.log) && w.log[i].at.Before(from) {
		i++
	}
	w.log = slices.Delete(w.log, 0, i)
	j := 0
	for j < len(w.events) && w.events[j].at.Before(from) {
		j++
	}
	w.events = slices.Delete(w.events, 0, j)
	log := make([]model.LogRecord, len(w.log))
	for k := range w.log {
		log[k] = w.log[k].v
	}
	evs := make([]model.Event, len(w.events))
	for k := range w.events {
		evs[k] = w.events[k].v
		evs[k].FirstLine, evs[k].LastLine = 0, 0
	}
	return log, evs
}

// allocCounts returns the failure counts, sorted by order then class.
func (w *logWatch) allocCounts() []allocCount {
	out := make([]allocCount, 0, len(w.counts))
	for k, n := range w.counts {
		out = append(out, allocCount{allocKey: k, N: n})
	}
	slices.SortFunc(out, func(a, b allocCount) int {
		if a.Order != b.Order {
			return a.Order - b.Order
		}
		return strings.Compare(a.Class, b.Class)
	})
	return out
}

type allocCount struct {
	allocKey
	N int64
}
