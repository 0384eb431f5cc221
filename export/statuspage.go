package export

import (
	"bytes"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// statusHandler serves the status page /. Its cost is unpacking the window and drawing the
// charts (some 10 ms of CPU for a 60-sample window), where a /metrics scrape only copies a
// prepared body. The audit of issue 22 had 20 clients reloading / take a whole CPU and slow
// /metrics from 2 to 58 ms. So:
//
//   - at most maxInFlight (16) requests are in the handler at once, as for /metrics; the
//     17th gets 503 at once instead of a goroutine waiting in line;
//   - one render at a time, and a page is rendered once per snapshot: the page depends on
//     nothing but the snapshot (WriteStatus reads no clock), so every request for the same
//     snapshot (within --min-interval) is served the same bytes;
//   - no garbage collection is forced per request. A render unpacks the window (some 100
//     KB a sample, see Options.ReleaseMemory); that memory is handed back to the OS
//     (debug.FreeOSMemory) at most once every statusReleaseEvery, and otherwise left to the
//     runtime's GC target and background scavenger.
type statusHandler struct {
	c        *Collector
	log      Logger
	inFlight inFlight

	mu          sync.Mutex // held while rendering; guards the fields below
	key         time.Time  // Snapshot.done of the cached page
	page        []byte
	renders     int // for the tests
	lastRelease time.Time
}

// statusReleaseEvery bounds how often the status page forces the heap back to the OS. A
// browser tab reloads the page every 15 s (status.html).
const statusReleaseEvery = time.Minute

// statusRenderHook, when set (tests), runs inside each render.
var statusRenderHook func()

func newStatusHandler(c *Collector, log Logger) *statusHandler {
	return &statusHandler{c: c, log: log, inFlight: newInFlight()}
}

func (h *statusHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.inFlight.enter(w) {
		return
	}
	defer h.inFlight.leave()
	page, err := h.render()
	if err != nil {
		if h.log != nil {
			h.log.Println("headroom serve: status page:", err)
		}
		http.Error(w, "status page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "text/html; charset=utf-8")
	hdr.Set("Content-Security-Policy", statusCSP)
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Content-Length", strconv.Itoa(len(page)))
	if _, err := w.Write(page); err != nil && h.log != nil {
		h.log.Println("headroom serve: writing the status page:", err)
	}
}

// render returns the page of the current snapshot, drawing it only when the snapshot is new.
func (h *statusHandler) render() ([]byte, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.c.current() // samples when --min-interval has passed, as a scrape does
	if h.page != nil && s.done.Equal(h.key) {
		return h.page, nil
	}
	v := h.c.viewSnapshot()
	if statusRenderHook != nil {
		statusRenderHook()
	}
	var b bytes.Buffer
	if err := WriteStatus(&b, v); err != nil {
		return nil, err
	}
	h.renders++
	h.key, h.page = v.done, b.Bytes()
	v = nil
	if now := time.Now(); now.Sub(h.lastRelease) >= statusReleaseEvery {
		h.lastRelease = now
		h.c.mu.Lock()
		h.c.releaseMemory()
		h.c.mu.Unlock()
	}
	return h.page, nil
}
