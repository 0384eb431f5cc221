package export

import (
	"io"
	"net/http"
	"net/http/httptest"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"headroom/kernel"
)

// forcedGCs reads the runtime's count of forced collections (runtime.GC, debug.FreeOSMemory).
func forcedGCs() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// The status page answers at most maxInFlight requests at once, draws each snapshot once
// however many clients ask, keeps /metrics answering while it draws, and forces no garbage
// collection per request.
func TestStatusPageBounded(t *testing.T) {
	clk := &fakeClock{t: captureTime}
	c := NewCollector(kernel.TxtarRoot(withAllocFailure(t), "vm.txtar"), Options{Now: clk.Now, ReleaseMemory: true})
	defer c.Close()
	h := NewHandler(c, nil)
	srv := httptest.NewServer(h)
	defer srv.Close()
	get := func(path string) (int, string) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Error(err)
			return 0, ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	get("/metrics")
	clk.Add(time.Second) // two samples: the page has charts

	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	statusRenderHook = func() {
		once.Do(func() { close(entered); <-release })
	}
	defer func() { statusRenderHook = nil }()

	const clients = 40
	type result struct {
		code int
		body string
	}
	results := make(chan result, clients)
	for range clients {
		go func() {
			code, body := get("/")
			results <- result{code, body}
		}()
	}
	<-entered
	// Every request beyond the 16 in the handler (one drawing, 15 waiting for that page) is
	// refused at once, while the drawing is still blocked.
	var got []result
	for len(got) < clients-maxInFlight {
		select {
		case r := <-results:
			if r.code != http.StatusServiceUnavailable {
				t.Fatalf("a request finished with %d while the page was still being drawn", r.code)
			}
			got = append(got, r)
		case <-time.After(10 * time.Second):
			t.Fatalf("%d requests refused after 10 s, want %d", len(got), clients-maxInFlight)
		}
	}
	start := time.Now()
	if code, _ := get("/metrics"); code != 200 {
		t.Errorf("/metrics while 16 status pages are in flight: %d", code)
	}
	t.Logf("/metrics answered in %v with %d status pages in flight", time.Since(start).Round(time.Microsecond), maxInFlight)
	close(release)
	var pages []string
	for range maxInFlight {
		r := <-results
		if r.code != 200 {
			t.Errorf("status page: %d %.200s", r.code, r.body)
		}
		pages = append(pages, r.body)
	}
	for _, p := range pages[1:] {
		if p != pages[0] {
			t.Error("clients of the same snapshot got different pages")
			break
		}
	}

	// 20 clients reloading 5 times each within --min-interval: one drawing, no forced GC
	// beyond the one release a minute.
	gc0 := forcedGCs()
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				if code, _ := get("/"); code != 200 {
					t.Errorf("status page: %d", code)
				}
			}
		}()
	}
	wg.Wait()
	sh := statusHandlerOf(t, h)
	sh.mu.Lock()
	renders := sh.renders
	sh.mu.Unlock()
	if renders != 1 {
		t.Errorf("%d renders for %d requests of one snapshot, want 1", renders, maxInFlight+100)
	}
	if n := forcedGCs() - gc0; n > 0 {
		t.Errorf("%d forced garbage collections for 100 status pages of a drawn snapshot, want 0", n)
	}
	// A new sample, a new page.
	clk.Add(2 * time.Second)
	if code, body := get("/"); code != 200 || body == pages[0] {
		t.Errorf("page after a new sample: %d, same as before: %v", code, body == pages[0])
	}
	sh.mu.Lock()
	renders = sh.renders
	sh.mu.Unlock()
	if renders != 2 {
		t.Errorf("%d renders after a new sample, want 2", renders)
	}
}

// statusHandlerOf finds the status handler behind NewHandler's mux.
func statusHandlerOf(t *testing.T, h http.Handler) *statusHandler {
	t.Helper()
	mux, ok := h.(*http.ServeMux)
	if !ok {
		t.Fatalf("NewHandler returned %T", h)
	}
	sh, _ := mux.Handler(httptest.NewRequest("GET", "/", nil))
	s, ok := sh.(*statusHandler)
	if !ok {
		t.Fatalf("/ is served by %T", sh)
	}
	return s
}
