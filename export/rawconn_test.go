package export

import (
	"bufio"
	"bytes"
	"errors"
	"headroom/kernel"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"strings"
	"testing"
	"time"
)

// serveRaw serves h on a loopback port through rawListener, as Serve does.
func serveRaw(t *testing.T, h http.Handler, idle time.Duration) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback listener: %v", err)
	}
	srv := &http.Server{Handler: h, IdleTimeout: idle, ReadHeaderTimeout: 5 * time.Second, ConnContext: connContext}
	go srv.Serve(rawListener{ln})
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// TestRawConnHTTP: net/http over raw connections answers keep-alive requests on one
// connection (its background read ends by the timeout error rawConn must return), writes a
// body larger than the socket buffers whole (the EAGAIN path), and reads request bodies.
func TestRawConnHTTP(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<19) // 8 MiB
	addr := serveRaw(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "POST" {
			b, _ := io.ReadAll(r.Body)
			w.Write(bytes.ToUpper(b))
			return
		}
		w.Write(big)
	}), time.Minute)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1, DisableCompression: true}, Timeout: 30 * time.Second}
	defer client.CloseIdleConnections()
	reused := 0
	for i := range 4 {
		trace := &httptrace.ClientTrace{GotConn: func(c httptrace.GotConnInfo) {
			if c.Reused {
				reused++
			}
		}}
		req, _ := http.NewRequest("GET", "http://"+addr+"/", nil)
		req = req.WithContext(httptrace.WithClientTrace(req.Context(), trace))
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("GET %d: %v", i, err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || !bytes.Equal(got, big) {
			t.Fatalf("GET %d: %d bytes (want %d), %v", i, len(got), len(big), err)
		}
	}
	if reused != 3 {
		t.Errorf("%d of 3 requests after the first reused the connection", reused)
	}
	resp, err := client.Post("http://"+addr+"/", "text/plain", strings.NewReader("abc"))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(got) != "ABC" {
		t.Errorf("POST answered %q, want ABC", got)
	}
}

// TestRawConnIdleTimeout: the server's idle timeout (a read deadline) closes a kept-alive
// connection.
func TestRawConnIdleTimeout(t *testing.T) {
	addr := serveRaw(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }), 100*time.Millisecond)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(resp.Body)
	resp.Body.Close()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := br.ReadByte(); err != io.EOF {
		t.Errorf("after the idle timeout the server's end read %v, want io.EOF (closed)", err)
	}
}

// TestRawConnErrors: a read past its deadline is a net.Error timeout, end of stream is
// io.EOF, and a write to a reset connection fails (no SIGPIPE ends the process).
func TestRawConnErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback listener: %v", err)
	}
	defer ln.Close()
	rl := rawListener{ln}
	peer := make(chan net.Conn, 1)
	go func() {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			close(peer)
			return
		}
		peer <- c
	}()
	c, err := rl.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, ok := c.(*rawConn); !ok {
		t.Fatalf("Accept returned %T, want *rawConn", c)
	}
	p := <-peer
	if p == nil {
		t.Fatal("dial failed")
	}
	c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	var ne net.Error
	if _, err := c.Read(make([]byte, 8)); !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("read past the deadline: %v, want a net.Error timeout", err)
	}
	c.SetReadDeadline(time.Time{})
	io.WriteString(p, "hi")
	buf := make([]byte, 8)
	if n, err := c.Read(buf); err != nil || string(buf[:n]) != "hi" {
		t.Errorf("read %q, %v; want \"hi\"", buf[:n], err)
	}
	p.(*net.TCPConn).SetLinger(0) // close with a reset
	p.Close()
	if _, err := c.Read(buf); err == nil {
		t.Error("read from a reset connection: no error")
	}
	var werr error
	for range 100 {
		if _, werr = c.Write([]byte("x")); werr != nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if werr == nil {
		t.Error("writes to a reset connection kept succeeding")
	}
}

// captureListener is rawListener handing each connection it accepts to conns.
type captureListener struct {
	rawListener
	conns chan *rawConn
}

func (l captureListener) Accept() (net.Conn, error) {
	c, err := l.rawListener.Accept()
	if rc, ok := c.(*rawConn); ok {
		// Room for a whole answer whatever tcp_wmem says, so that a write is never cut
		// short by a full send buffer.
		rc.SetWriteBuffer(1 << 20)
		l.conns <- rc
	}
	return c, err
}

// TestMetricsOneWrite: a /metrics answer larger than net/http's 4 KB connection buffer
// leaves in one write, header and body (holdHeader), with the body the handler gives
// without a connection; HEAD and a second request on the kept-alive connection are
// answered too.
func TestMetricsOneWrite(t *testing.T) {
	c := NewCollector(kernel.TxtarRoot(loadCapture(t), "vm.txtar"), Options{Now: fixedClock(captureTime), Ethtool: true})
	defer c.Close()
	h := NewHandler(c, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback listener: %v", err)
	}
	cl := captureListener{rawListener{ln}, make(chan *rawConn, 4)}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ConnContext: connContext}
	go srv.Serve(cl)
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1, DisableCompression: true}, Timeout: 10 * time.Second}
	defer client.CloseIdleConnections()

	for _, enc := range []string{"gzip", ""} {
		for _, method := range []string{"GET", "HEAD", "GET"} {
			req, _ := http.NewRequest(method, "http://"+ln.Addr().String()+"/metrics", nil)
			req.Header.Set("Accept", prometheusAccept)
			req.Header.Set("Accept-Encoding", enc)
			var rc *rawConn
			var before int64
			select {
			case rc = <-cl.conns:
			default:
			}
			if rc != nil {
				before = rc.writes.Load()
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatalf("%s %q: %v", method, enc, err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("%s %q: %s, %v", method, enc, resp.Status, err)
			}
			if rc == nil {
				select {
				case rc = <-cl.conns:
				case <-time.After(5 * time.Second):
					t.Fatal("no connection accepted")
				}
			}
			cl.conns <- rc // the next request comes on the same connection
			rec := httptest.NewRecorder()
			want := httptest.NewRequest("GET", "/metrics", nil)
			want.Header = req.Header.Clone()
			h.ServeHTTP(rec, want)
			if method == "HEAD" {
				if len(body) != 0 {
					t.Errorf("HEAD %q: %d bytes of body", enc, len(body))
				}
				continue
			}
			if !bytes.Equal(body, rec.Body.Bytes()) {
				t.Errorf("GET %q: the body over the connection differs from the handler's %s", enc, firstDiff(body, rec.Body.Bytes()))
			}
			if len(body) <= 4096 {
				t.Fatalf("GET %q: a %d-byte body fits net/http's buffer: the test proves nothing", enc, len(body))
			}
			if n := rc.writes.Load() - before; n != 1 {
				t.Errorf("GET %q: the answer (%d bytes of body) took %d writes, want 1", enc, len(body), n)
			}
		}
	}
}
