package export

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"regexp"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"headroom/kernel"
)

// fastPair serves one collector twice on loopback: through the fast path as Serve does,
// and through net/http alone (rawListener) as before it.
type fastPair struct {
	fast, plain string
	fs          *fastServer
	srv         *http.Server
}

func newFastPair(t testing.TB, hdrTimeout, idle time.Duration) *fastPair {
	t.Helper()
	c := NewCollector(kernel.TxtarRoot(loadCapture(t), "vm.txtar"), Options{Now: fixedClock(captureTime), Ethtool: true})
	t.Cleanup(func() { c.Close() })
	p := &fastPair{}
	for i, addr := range []*string{&p.fast, &p.plain} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Skipf("no loopback listener: %v", err)
		}
		h, mh := newHandler(c, nil)
		srv := &http.Server{Handler: h, ReadHeaderTimeout: hdrTimeout, IdleTimeout: idle, WriteTimeout: 10 * time.Second,
			MaxHeaderBytes: 16 << 10, ConnContext: connContext}
		if i == 0 {
			p.fs, p.srv = newFastServer(ln, mh, srv), srv
			go srv.Serve(p.fs)
		} else {
			go srv.Serve(rawListener{ln})
		}
		t.Cleanup(func() { srv.Close() })
		*addr = ln.Addr().String()
	}
	return p
}

var dateLine = regexp.MustCompile(`(?m)^Date: [^\r\n]*\r$`)

// exchange writes in on a new connection to addr, closes its writing end and returns all
// the server writes until it closes, with the Date headers' values blanked.
func exchange(t testing.TB, addr string, in []byte) []byte {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Write(in); err != nil {
		t.Fatal(err)
	}
	c.(*net.TCPConn).CloseWrite()
	out, err := io.ReadAll(c)
	// A server that closes with bytes of the input unread (net/http after a 400 to a
	// request longer than its 4 KB reader) makes the kernel reset the connection
	// (net/ipv4/tcp.c __tcp_close: "unread data was tossed", a RST). What it answered before
	// it closed was queued ahead of the reset and has been read (tcp_recvmsg_locked takes
	// the receive queue before the error), so the reset ends the answer as the end of the
	// stream would.
	if errors.Is(err, syscall.ECONNRESET) {
		err = nil
	}
	if err != nil {
		t.Fatalf("reading the answer to %q: %v", in, err)
	}
	return dateLine.ReplaceAll(out, []byte("Date: -\r"))
}

const scrapeRequest = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:9100\r\nUser-Agent: Prometheus/2.53.0\r\n" +
	"Accept: " + prometheusAccept + "\r\nAccept-Encoding: gzip\r\nX-Prometheus-Scrape-Timeout-Seconds: 10\r\n\r\n"

// TestFastPathSameAnswer: what the fast path answers is byte for byte what net/http with
// the handler answers (but the date), for scrapes it answers itself and for the requests
// it hands over, alone and pipelined; and it does answer the scrapes itself.
func TestFastPathSameAnswer(t *testing.T) {
	p := newFastPair(t, 5*time.Second, time.Minute)
	for _, tc := range []struct {
		in   string
		fast int64 // answered by the fast path
	}{
		{scrapeRequest, 1},
		{scrapeRequest + scrapeRequest + scrapeRequest, 3},
		{"GET /metrics HTTP/1.1\r\nhost: x\r\n\r\n", 1},                                                  // no Accept: the text format
		{"GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: text/plain\r\nACCEPT-ENCODING:  gzip \r\n\r\n", 1}, // case, blanks
		{"GET /metrics HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip;q=0, identity\r\n\r\n", 1},
		{"GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited\r\n\r\n", 0},
		{scrapeRequest + "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" + scrapeRequest, 1},
		{scrapeRequest + "HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 1},
		{"HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 0},
		{"GET /metrics HTTP/1.0\r\nHost: x\r\n\r\n", 0},
		{"GET /metrics?name[]=x HTTP/1.1\r\nHost: x\r\n\r\n", 0},
		{"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" + scrapeRequest, 0},
		{"GET /metrics HTTP/1.1\r\n\r\n", 0},                                    // no Host: 400
		{"GET /metrics HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 0},              // two: 400
		{"GET /metrics HTTP/1.1\nHost: x\n\n", 0},                               // bare LF
		{"GET /metrics HTTP/1.1\r\nHost: x\r\nAccept : x\r\n\r\n", 0},           // a blank in a name
		{"GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: a\x01b\r\n\r\n", 0},       // a control character
		{"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc", 0}, // a body
		{scrapeRequest + "GARBAGE\r\n\r\n", 1},
		{"GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: text/plain\r\n", 0}, // cut short
		{"GET /met", 0},
		{"", 0},
	} {
		before := p.fs.answered.Load()
		got, want := exchange(t, p.fast, []byte(tc.in)), exchange(t, p.plain, []byte(tc.in))
		if string(got) != string(want) {
			t.Errorf("%q: the fast path answered %s", tc.in, firstDiff(got, want))
		}
		if n := p.fs.answered.Load() - before; n != tc.fast {
			t.Errorf("%q: the fast path answered %d requests, want %d", tc.in, n, tc.fast)
		}
		if tc.fast > 0 && len(want) < 4096 {
			t.Errorf("%q: a %d-byte answer: not the exposition", tc.in, len(want))
		}
	}
}

// TestFastPathTimeouts: a connection that sends nothing, one cut short mid-request and one
// left idle after a scrape are closed by the server's timeouts, as net/http closes them.
func TestFastPathTimeouts(t *testing.T) {
	p := newFastPair(t, 200*time.Millisecond, 400*time.Millisecond)
	for _, tc := range []struct {
		name, in string
		answers  int
	}{
		{"nothing sent", "", 0},
		{"cut short", "GET /metrics HTTP/1.1\r\nHost: x\r\n", 0},
		{"idle after a scrape", scrapeRequest, 1},
	} {
		for _, addr := range []string{p.fast, p.plain} {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			io.WriteString(c, tc.in)
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			br := bufio.NewReader(c)
			for range tc.answers {
				resp, err := http.ReadResponse(br, nil)
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			if _, err := br.ReadByte(); err != io.EOF {
				t.Errorf("%s (%s): the server's end read %v, want io.EOF (closed)", tc.name, addr, err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("%s (%s): closed after %v", tc.name, addr, d)
			}
			c.Close()
		}
	}
}

// TestFastPathShutdown: Shutdown closes a kept-alive connection the fast path holds idle.
func TestFastPathShutdown(t *testing.T) {
	p := newFastPair(t, 5*time.Second, time.Minute)
	c, err := net.Dial("tcp", p.fast)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, scrapeRequest)
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if p.fs.answered.Load() != 1 {
		t.Fatalf("the fast path answered %d requests, want 1", p.fs.answered.Load())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		t.Errorf("after Shutdown the server's end read %v, want io.EOF (closed)", err)
	}
	if _, err := net.Dial("tcp", p.fast); err == nil {
		t.Error("the listener still accepts after Shutdown")
	}
}

// FuzzFastPath: any stream of requests is answered by the fast path as by net/http alone
// (but the dates).
func FuzzFastPath(f *testing.F) {
	for _, s := range []string{scrapeRequest, scrapeRequest + scrapeRequest, scrapeRequest + "HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n", "GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: text/plain\r\n\r\n"} {
		f.Add([]byte(s))
	}
	p := newFastPair(f, 5*time.Second, time.Minute)
	f.Fuzz(func(t *testing.T, in []byte) {
		if got, want := exchange(t, p.fast, in), exchange(t, p.plain, in); string(got) != string(want) {
			t.Errorf("%q: the fast path answered %s", in, firstDiff(got, want))
		}
	})
}

// TestFastPathAllocations: a scrape the fast path answers from the current snapshot
// allocates nothing: neither the raw reads and writes (their closures and the variables
// they share were allocated on every call) nor the Accept-Encoding value (it was made a
// string for every request). Each allocation is garbage the collector has to come back for.
func TestFastPathAllocations(t *testing.T) {
	p := newFastPair(t, 5*time.Second, time.Minute)
	c, err := net.Dial("tcp", p.fast)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	buf := make([]byte, 256<<10)
	var answer int // the length of an answer, header and body
	req := []byte(scrapeRequest)
	scrape := func() {
		if _, err := c.Write(req); err != nil {
			t.Fatal(err)
		}
		n := 0
		for answer == 0 || n < answer {
			m, err := c.Read(buf[n:])
			if err != nil {
				t.Fatalf("after %d bytes: %v", n, err)
			}
			n += m
			if answer == 0 {
				if i := bytes.Index(buf[:n], []byte("\r\n\r\n")); i >= 0 {
					cl := regexp.MustCompile(`Content-Length: (\d+)`).FindSubmatch(buf[:i])
					if cl == nil {
						t.Fatalf("no Content-Length in %q", buf[:i])
					}
					l, _ := strconv.Atoi(string(cl[1]))
					answer = i + 4 + l
				}
			}
		}
		if n != answer {
			t.Fatalf("read %d bytes, the answer is %d", n, answer)
		}
	}
	for range 5 {
		scrape()
	}
	const n = 200
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for range n {
		scrape()
	}
	runtime.ReadMemStats(&m1)
	per := float64(m1.Mallocs-m0.Mallocs) / n
	t.Logf("%.2f allocations, %.0f bytes per scrape answered (%d answered by the fast path)", per, float64(m1.TotalAlloc-m0.TotalAlloc)/n, p.fs.answered.Load())
	if per > 0.5 {
		t.Errorf("%.2f allocations per scrape answered from the current snapshot, want none", per)
	}
}

// appendHTTPDate writes what AppendFormat(http.TimeFormat) writes, for any time.
func TestAppendHTTPDate(t *testing.T) {
	times := []time.Time{
		time.Unix(0, 0), time.Date(2026, 11, 29, 23, 59, 59, 999999999, time.UTC),
		time.Date(2000, 2, 29, 0, 0, 0, 0, time.UTC), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 6, 15, 12, 0, 0, 0, time.UTC), time.Date(999, 7, 4, 9, 5, 3, 0, time.UTC),
		time.Date(2026, 3, 29, 1, 30, 0, 0, time.FixedZone("x", 5*3600+1800)), time.Now(),
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		times = append(times, time.Unix(r.Int64N(400*365*86400)-100*365*86400, r.Int64N(1e9)).In(time.FixedZone("y", r.IntN(50000)-25000)))
	}
	for _, tm := range times {
		want := tm.UTC().AppendFormat([]byte("x"), http.TimeFormat)
		if got := appendHTTPDate([]byte("x"), tm); !bytes.Equal(got, want) {
			t.Fatalf("%v: %q, want %q", tm, got, want)
		}
	}
}
