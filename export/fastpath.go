package export

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// Serve answers the one request a Prometheus server makes every scrape, a kept-alive
// `GET /metrics HTTP/1.1` with Host, Accept, Accept-Encoding, User-Agent and
// X-Prometheus-Scrape-Timeout-Seconds, on the connection's own goroutine, without net/http.
// Every other request, from the first one the fast path does not recognise byte for byte,
// goes to net/http with the connection and the bytes already read: the connection is then
// net/http's for good, so anything unusual (HEAD, HTTP/1.0, a query, Connection, a body,
// a header it does not know, a bare LF, a malformed line, a request larger than its
// buffer) is answered exactly as before.
//
// Why (issue 33; docs/performance.md, "serve5"): net/http's work around a scrape was about
// a fifth of serve's CPU per scrape: its request parsing into a header map, and per request
// a background-read goroutine started after the request and stopped by a read deadline in
// the past when the handler returns (net/http server.go startBackgroundRead,
// abortPendingRead), the goroutine switches around it, and the response writer's buffers.
// The fast path reads the request into a per-connection buffer, answers from the same
// snapshot and with the same headers as metricsHandler.ServeHTTP (TestFastPathSameAnswer
// compares the bytes, FuzzFastPath any request stream against net/http alone), and keeps
// the server's timeouts: ReadHeaderTimeout from the first byte of a request (from the
// accept for the first), IdleTimeout between requests, WriteTimeout for the answer.
type fastServer struct {
	ln  net.Listener
	h   *metricsHandler
	srv *http.Server // its timeouts; the other requests go to it through Accept

	conns     chan net.Conn // to net/http
	done      chan struct{}
	closeOnce sync.Once
	err       error // why Accept ends, set before done is closed

	mu      sync.Mutex
	closing bool
	// live are the connections the fast path serves; those waiting for their next request
	// have fastIdle set. A connection is entered once, not at every request: the set
	// of idle connections was a map entered and left twice a scrape (1-2% of serve's
	// CPU per scrape in perf, 7% of an answer from a cached snapshot).
	live map[*rawConn]struct{}

	answered atomic.Int64 // requests the fast path answered (tests)
}

// newFastServer returns the listener srv serves: it accepts on ln, answers scrapes itself
// and hands srv the rest.
func newFastServer(ln net.Listener, h *metricsHandler, srv *http.Server) *fastServer {
	s := &fastServer{ln: ln, h: h, srv: srv, conns: make(chan net.Conn), done: make(chan struct{}), live: map[*rawConn]struct{}{}}
	go s.acceptLoop()
	return s
}

func (s *fastServer) acceptLoop() {
	var delay time.Duration
	for {
		c, err := s.ln.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() || isTemporary(err) {
				// As net/http's Serve: back off on EMFILE and the like.
				delay = min(max(2*delay, 5*time.Millisecond), time.Second)
				select {
				case <-time.After(delay):
					continue
				case <-s.done:
					return
				}
			}
			s.shut(err)
			return
		}
		delay = 0
		rc := wrapRaw(c)
		if rc == nil {
			s.handOff(c) // not TCP: net/http's
			continue
		}
		go s.serveConn(rc, time.Now())
	}
}

func isTemporary(err error) bool {
	t, ok := err.(interface{ Temporary() bool })
	return ok && t.Temporary()
}

// Accept is net/http's listener: the connections the fast path hands over.
func (s *fastServer) Accept() (net.Conn, error) {
	select {
	case c := <-s.conns:
		return c, nil
	case <-s.done:
		return nil, s.err
	}
}

// Close closes the listener and the fast path's idle connections (http.Server.Shutdown
// and Close call it); a connection answering a scrape closes when its answer is written.
func (s *fastServer) Close() error {
	s.shut(net.ErrClosed)
	return nil
}

func (s *fastServer) shut(err error) {
	s.closeOnce.Do(func() {
		s.err = err
		close(s.done)
		s.ln.Close()
		s.mu.Lock()
		s.closing = true
		for c := range s.live {
			if c.fastIdle {
				c.Close()
			}
		}
		s.mu.Unlock()
	})
}

func (s *fastServer) Addr() net.Addr { return s.ln.Addr() }

// handOff gives c to net/http, or closes it when the server is closing.
func (s *fastServer) handOff(c net.Conn) {
	select {
	case s.conns <- c:
	case <-s.done:
		c.Close()
	}
}

// handOver gives net/http c with the bytes of its next request read so far.
func (s *fastServer) handOver(c *rawConn, pending []byte) {
	c.SetReadDeadline(time.Time{}) // net/http sets its own
	c.pending = pending
	s.handOff(c)
}

// setIdle records whether c waits for its next request; false when the server is closing
// (c is then to be closed).
func (s *fastServer) setIdle(c *rawConn, idle bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if idle && s.closing {
		return false
	}
	c.fastIdle = idle
	return true
}

// enter records c as served by the fast path, or reports false when the server is
// closing; leave forgets it when the fast path is done with it.
func (s *fastServer) enter(c *rawConn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.live[c] = struct{}{}
	return true
}

func (s *fastServer) leave(c *rawConn) {
	s.mu.Lock()
	c.fastIdle = false
	delete(s.live, c)
	s.mu.Unlock()
}

// fastBufSize is the most a request the fast path answers may take: a Prometheus scrape
// request is about 400 bytes; a longer one goes to net/http (its limit is MaxHeaderBytes).
const fastBufSize = 4096

// serveConn answers c's requests while they are scrapes, then hands c to net/http.
func (s *fastServer) serveConn(c *rawConn, accepted time.Time) {
	if !s.enter(c) {
		c.Close()
		return
	}
	defer s.leave(c)
	defer func() {
		if e := recover(); e != nil {
			// As net/http does for a handler's panic: log it, close the connection.
			if s.h.log != nil {
				s.h.log.Println(fmt.Sprintf("headroom serve: panic serving %v: %v\n%s", c.RemoteAddr(), e, debug.Stack()))
			}
			s.setIdle(c, false)
			c.Close()
		}
	}()
	idleTimeout, hdrTimeout := s.srv.IdleTimeout, s.srv.ReadHeaderTimeout
	if idleTimeout <= 0 {
		idleTimeout = s.srv.ReadTimeout
	}
	if hdrTimeout <= 0 {
		hdrTimeout = s.srv.ReadTimeout
	}
	buf := make([]byte, fastBufSize)
	start, end := 0, 0
	first := true    // no request answered yet: the header timeout runs from the accept
	partial := true  // the request's header deadline is set
	idleSet := false // the idle deadline after the last answer is set
	setDeadline := func(t time.Time, d time.Duration) {
		if d > 0 {
			c.SetReadDeadline(t.Add(d))
		} else {
			c.SetReadDeadline(time.Time{})
		}
	}
	setDeadline(accepted, hdrTimeout)
	for {
		n, accept, enc, st := 0, []byte(nil), []byte(nil), fastMore
		if first || end-start >= 4 { // see waiting below
			n, accept, enc, st = parseFast(buf[start:end])
		}
		switch st {
		case fastOther:
			s.handOver(c, buf[start:end])
			return
		case fastMetrics:
			ok, err := s.answer(c, accept, enc)
			if !ok {
				s.handOver(c, buf[start:end])
				return
			}
			if err != nil {
				c.Close()
				return
			}
			first, partial, idleSet = false, false, false
			start += n
			if start == end {
				start, end = 0, 0
			}
			continue
		}
		// fastMore: read on.
		if end == len(buf) {
			if start == 0 {
				s.handOver(c, buf[start:end]) // too long for the fast path
				return
			}
			end = copy(buf, buf[start:end])
			start = 0
		}
		// Between two requests net/http waits under the idle timeout until it has 4 bytes
		// of the next (server.go, conn.serve: c.bufr.Peek(4)), closing silently if they do
		// not come, and reads the request under the header timeout from then on.
		waiting := !first && end-start < 4
		if waiting {
			if !idleSet {
				setDeadline(time.Now(), idleTimeout)
				idleSet = true
			}
			if !s.setIdle(c, true) {
				c.Close()
				return
			}
		} else if !partial {
			setDeadline(time.Now(), hdrTimeout)
			partial = true
		}
		m, err := c.Read(buf[end:])
		if waiting {
			s.setIdle(c, false)
		}
		if err == io.EOF && start < end && !waiting {
			// Cut short: net/http answers 400 Bad Request.
			s.handOver(c, buf[start:end])
			return
		}
		if err != nil {
			// End of stream between requests, a timeout, a reset: net/http closes silently
			// too.
			c.Close()
			return
		}
		end += m
	}
}

// answer writes the answer to a scrape with these Accept and Accept-Encoding values, header
// and body in one write, or reports false when metricsHandler.ServeHTTP would not answer
// it with the exposition writer or the handler is at its limit of requests in flight
// (net/http then answers, as before).
func (s *fastServer) answer(c *rawConn, accept, enc []byte) (bool, error) {
	h := s.h
	select {
	case h.inFlight <- struct{}{}:
	default:
		return false, nil
	}
	defer h.inFlight.leave()
	n := negotiate(h, accept)
	if !n.ours {
		return false, nil
	}
	if !c.encKnown || !bytes.Equal(enc, c.enc) {
		c.enc, c.encGzip, c.encKnown = append(c.enc[:0], enc...), acceptsGzip(string(enc)), true
	}
	gz := c.encGzip
	bb := h.c.current().body(n.om, gz)
	defer bb.release()
	body, length := bb.b, bb.length
	// The header net/http writes for ServeHTTP's answer: its status line, the handler's
	// header sorted by key (net/http Header.writeSubset), then the Date it adds.
	b := append(c.held[:0], "HTTP/1.1 200 OK\r\n"...)
	if gz {
		b = append(b, "Content-Encoding: gzip\r\n"...)
	}
	b = append(b, "Content-Length: "...)
	b = append(b, length[0]...)
	b = append(b, "\r\nContent-Type: "...)
	b = append(b, n.contentType[0]...)
	b = append(b, "\r\nVary: Accept\r\nVary: Accept-Encoding\r\nDate: "...)
	b = appendHTTPDate(b, time.Now())
	b = append(b, "\r\n\r\n"...)
	c.held = b
	s.answered.Add(1)
	if d := s.srv.WriteTimeout; d > 0 {
		c.SetWriteDeadline(time.Now().Add(d))
	}
	if _, err := c.Write(body); err != nil {
		c.held = c.held[:0]
		if h.log != nil {
			h.log.Println("headroom serve: writing /metrics:", err)
		}
		return true, err
	}
	return true, nil
}

// The states of parseFast.
const (
	fastMore    = iota // the request could still be a scrape: read on
	fastMetrics        // a complete scrape request
	fastOther          // net/http's
)

const fastRequestLine = "GET /metrics HTTP/1.1\r\n"

// parseFast reads the request at the start of b: a complete scrape request (its length and
// its Accept and Accept-Encoding values, without surrounding blanks), or fastMore while b
// could still grow into one, or fastOther.
//
// It takes only what it understands exactly: the request line byte for byte, header lines
// ending in CRLF, names of token characters (RFC 9110 5.6.2) among the five a Prometheus
// server sends, each at most once, Host present and made of host characters, values
// without control characters (as net/http checks, httpguts.ValidHeaderFieldValue).
// Anything else, even what net/http would answer as a scrape, is fastOther: net/http
// answers it.
func parseFast(b []byte) (n int, accept, enc []byte, state int) {
	if len(b) < len(fastRequestLine) {
		if bytes.HasPrefix([]byte(fastRequestLine), b) {
			return 0, nil, nil, fastMore
		}
		return 0, nil, nil, fastOther
	}
	if string(b[:len(fastRequestLine)]) != fastRequestLine {
		return 0, nil, nil, fastOther
	}
	var haveHost, haveAccept, haveEnc bool
	i := len(fastRequestLine)
	for {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			if bytes.IndexByte(b[i:], '\r') >= 0 && b[len(b)-1] != '\r' {
				return 0, nil, nil, fastOther // a CR not ending a line
			}
			return 0, nil, nil, fastMore
		}
		if j == 0 || b[i+j-1] != '\r' {
			return 0, nil, nil, fastOther // a bare LF
		}
		line := b[i : i+j-1]
		i += j + 1
		if len(line) == 0 {
			if !haveHost {
				return 0, nil, nil, fastOther
			}
			return i, accept, enc, fastMetrics
		}
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 {
			return 0, nil, nil, fastOther
		}
		name, value := line[:colon], trimOWS(line[colon+1:])
		for _, ch := range name {
			if !isTokenChar(ch) {
				return 0, nil, nil, fastOther
			}
		}
		for _, ch := range value {
			if ch < ' ' && ch != '\t' || ch == 0x7f {
				return 0, nil, nil, fastOther
			}
		}
		switch {
		case asciiEqualFold(name, "Host"):
			if haveHost || len(value) == 0 {
				return 0, nil, nil, fastOther
			}
			for _, ch := range value {
				if !isHostChar(ch) {
					return 0, nil, nil, fastOther
				}
			}
			haveHost = true
		case asciiEqualFold(name, "Accept"):
			if haveAccept {
				return 0, nil, nil, fastOther
			}
			haveAccept, accept = true, value
		case asciiEqualFold(name, "Accept-Encoding"):
			if haveEnc {
				return 0, nil, nil, fastOther
			}
			haveEnc, enc = true, value
		case asciiEqualFold(name, "User-Agent"), asciiEqualFold(name, "X-Prometheus-Scrape-Timeout-Seconds"):
		default:
			return 0, nil, nil, fastOther
		}
	}
}

func trimOWS(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// asciiEqualFold compares a header name with a canonical one, ignoring ASCII case only
// (bytes.EqualFold also folds Unicode, which a token never holds).
func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		if b[i]|0x20 != s[i]|0x20 {
			return false
		}
	}
	return true
}

func isTokenChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return c != 0 && bytes.IndexByte([]byte("!#$%&'*+-.^_`|~"), c) >= 0
}

// isHostChar: what a host name, an IPv4 or bracketed IPv6 address and a port are made of;
// narrower than net/http's check, which then answers.
func isHostChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return c == '.' || c == '-' || c == ':' || c == '[' || c == ']' || c == '_'
}

// appendHTTPDate appends t as net/http's Date header has it (http.TimeFormat, UTC), without
// AppendFormat's walk over the layout: the layout is fixed, and its generic formatter was
// some 4% of an answer from a cached snapshot in perf (docs/performance.md, "serve7").
// Years outside 0-9999 go to AppendFormat. TestAppendHTTPDate compares the two.
func appendHTTPDate(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.AppendFormat(b, http.TimeFormat)
	}
	hour, minute, sec := t.Clock()
	const days = "SunMonTueWedThuFriSat"
	const months = "JanFebMarAprMayJunJulAugSepOctNovDec"
	wd, mo := 3*int(t.Weekday()), 3*(int(month)-1)
	two := func(b []byte, v int) []byte { return append(b, byte('0'+v/10), byte('0'+v%10)) }
	b = append(b, days[wd:wd+3]...)
	b = append(b, ", "...)
	b = two(b, day)
	b = append(b, ' ')
	b = append(b, months[mo:mo+3]...)
	b = append(b, ' ')
	b = two(b, year/100)
	b = two(b, year%100)
	b = append(b, ' ')
	b = two(b, hour)
	b = append(b, ':')
	b = two(b, minute)
	b = append(b, ':')
	b = two(b, sec)
	return append(b, " GMT"...)
}
