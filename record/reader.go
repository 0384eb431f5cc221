package record

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// ReadStats says what reading an archive found, and what it could not read.
type ReadStats struct {
	Lines      int `json:"lines"`
	Sessions   int `json:"sessions"` // headers: one per recorder start
	Samples    int `json:"samples"`
	Markers    int `json:"markers"`
	LogRecords int `json:"log_records"`
	// Skipped counts complete lines that were not JSON or had no known key, or were longer
	// than Limits.MaxLineBytes (SkippedLong of them).
	Skipped     int `json:"skipped,omitempty"`
	SkippedLong int `json:"skipped_long,omitempty"`
	// Duplicates counts lines that repeat the line before them verbatim; they are read
	// once. FirstDuplicate says where the first one is.
	Duplicates     int    `json:"duplicates,omitempty"`
	FirstDuplicate string `json:"first_duplicate,omitempty"`
	// LogSkipped counts kernel log lines (each one or more records) skipped past
	// Limits.MaxLogBytes.
	LogSkipped int `json:"log_skipped,omitempty"`
	// Truncated is set when the archive ends inside a gzip member or a line (a recorder
	// killed between flushes, or a file copied while being written), or a member is
	// damaged; TruncatedWhy says where and what was dropped. Everything before the damage
	// was read.
	Truncated    bool   `json:"truncated,omitempty"`
	TruncatedWhy string `json:"truncated_why,omitempty"`
}

// Limits bound what reading an archive may hold in memory: a gzip stream inflates by a
// factor of up to about 1000, so a small file can hold gigabytes.
type Limits struct {
	// MaxLineBytes is the longest line kept; a longer one is skipped without being held
	// (0: DefaultMaxLineBytes).
	MaxLineBytes int
	// MaxBytes stops reading after this many decompressed bytes, as if the archive ended
	// there (0: no limit).
	MaxBytes int64
	// MaxLogBytes keeps kernel log lines up to this many bytes in all; later log lines are
	// counted (ReadStats.LogSkipped) and skipped without being decoded (0: no limit).
	MaxLogBytes int64
	// MaxSampleBytes bounds the memory the samples of the Timeline that FromReaderLimits
	// builds may hold (0: DefaultMaxSampleBytes; negative: no bound): beyond it the samples
	// are thinned to one in 2, 4, 8 ... and the last (builder).
	MaxSampleBytes int64
}

// logLinePrefix starts every log line the writer writes (Entry{Log: ...} marshals only its
// non-empty field).
var logLinePrefix = []byte(`{"log":`)

// DefaultMaxLineBytes is far above a sample's line (a few KiB; a socket dump of 100 000
// sockets is about 20 MiB).
const DefaultMaxLineBytes = 64 << 20

// Read decodes an archive line by line, calling fn for each entry in order. A torn or
// damaged tail is not an error: reading stops at the last line that can be trusted and
// stats says so. An error from fn stops the read and is returned. A file that is not gzip,
// or whose first line is not a header of a known version, is an error.
//
// Trust goes by gzip member: a member's CRC-32 is checked only at its end (RFC 1952
// §2.3.1), so the entries of a member are handed to fn once the member has ended intact. A
// member that fails its check (a flipped bit, a corrupt deflate stream) is dropped whole:
// a flipped digit can decode to a line that parses, with a wrong value. A member without
// its end (a recorder killed between flushes, or still writing) has nothing to check; its
// complete lines are read, as a live recording must be.
func Read(r io.Reader, fn func(e *Entry) error) (ReadStats, error) {
	return ReadLimits(r, Limits{}, fn)
}

// ReadLimits is Read within lim.
func ReadLimits(r io.Reader, lim Limits, fn func(e *Entry) error) (ReadStats, error) {
	return read(r, lim, &held{fn: fn})
}

// Stream receives an archive's entries as they are decoded, without waiting for the end of
// their gzip member: Entry for each, then Commit when the member has ended intact (or torn,
// whose complete lines are read as Read reads them), or Rollback when it failed its check and
// every entry since the last Commit must be forgotten. A reader that keeps only a bounded
// summary of what it was handed (the Timeline builder of FromReaderLimits) then holds no
// member's worth of decoded lines: a member is an hour of samples at 1 s (3600 lines, 100 MB
// of JSON, 1.5 GB with 600 interfaces).
type Stream interface {
	Entry(e *Entry) error
	Commit()
	Rollback()
}

// ReadStream is ReadLimits for a Stream: the same lines, statistics, limits and trust, but
// each entry is handed over as soon as it is decoded, and its member's verdict after.
func ReadStream(r io.Reader, lim Limits, s Stream) (ReadStats, error) {
	return read(r, lim, s)
}

// held is the Stream of ReadLimits: it holds a member's entries until the member ended
// intact.
type held struct {
	fn      func(e *Entry) error
	entries []Entry
}

func (h *held) Entry(e *Entry) error { h.entries = append(h.entries, *e); return nil }
func (h *held) Rollback()            { clear(h.entries); h.entries = h.entries[:0] }
func (h *held) Commit()              {}

// deliver hands the held entries to fn, after Commit.
func (h *held) deliver() error {
	defer h.Rollback() // drop the references: fn keeps what it needs
	for i := range h.entries {
		if err := h.fn(&h.entries[i]); err != nil {
			return err
		}
	}
	return nil
}

func read(r io.Reader, lim Limits, out Stream) (ReadStats, error) {
	var st ReadStats
	if lim.MaxLineBytes <= 0 {
		lim.MaxLineBytes = DefaultMaxLineBytes
	}
	cr := &countingReader{r: r}
	br := bufio.NewReaderSize(cr, 64<<10)
	zr, err := gzip.NewReader(br)
	if err != nil {
		return st, fmt.Errorf("not a headroom recording: %w", err)
	}
	// The decompressed-bytes limit runs across members: dr reads the current one.
	dr := &budgetReader{r: zr, left: lim.MaxBytes}
	lr := bufio.NewReaderSize(dr, 256<<10)
	m := memberReader{lim: lim, out: out}
	for member := 0; ; member++ {
		start := cr.n - int64(br.Buffered())
		if member > 0 {
			if err := zr.Reset(br); err != nil {
				if err == io.EOF {
					return st, nil // ends exactly after a complete member
				}
				st.Truncated = true
				if errors.Is(err, io.ErrUnexpectedEOF) {
					st.TruncatedWhy = fmt.Sprintf("the archive ends inside a gzip member header after compressed byte %d; read the %d complete lines before it",
						start, st.Lines)
				} else {
					st.TruncatedWhy = fmt.Sprintf("the bytes after compressed byte %d are not a gzip member (%s); read the %d complete lines before them",
						start, describeGzipErr(err), st.Lines)
				}
				return st, nil
			}
			lr.Reset(dr)
		}
		zr.Multistream(false)
		m.reset(st.Lines)
		end, err := m.read(lr, dr)
		if err != nil {
			return st, err
		}
		switch {
		case end == nil, dr.hit: // the member ended intact, or the limit ended the read
		case errors.Is(end, io.ErrUnexpectedEOF) && m.st.Skipped == m.st.SkippedLong:
			// Torn: no end to check. Its complete lines are what a live reader sees. (A
			// torn tail never holds a complete line that is not JSON: the writer writes
			// whole lines. One that does was decoded from damaged bytes that ran into the
			// end of the file, and is treated as damaged below.)
		default:
			if st.Lines == 0 {
				return st, fmt.Errorf("damaged recording: its first gzip member fails its check (%s), so none of its lines can be trusted", describeGzipErr(end))
			}
			m.out.Rollback()
			st.Truncated = true
			st.TruncatedWhy = fmt.Sprintf("the gzip member at compressed byte %d is damaged (%s): dropped its %d lines, which cannot be trusted; read the %d lines of the intact members before it",
				start, describeGzipErr(end), m.lines, st.Lines)
			return st, nil
		}
		m.out.Commit()
		if err := m.deliver(&st); err != nil {
			return st, err
		}
		if dr.hit {
			st.Truncated = true
			st.TruncatedWhy = fmt.Sprintf("reading stopped after %d MiB of decompressed data (the limit); read the %d complete lines before it", lim.MaxBytes>>20, st.Lines)
			return st, nil
		}
		if end != nil {
			if st.Lines == 0 {
				return st, fmt.Errorf("not a headroom recording: %w", end)
			}
			st.Truncated = true
			st.TruncatedWhy = fmt.Sprintf("the archive ends inside a gzip member after compressed byte %d (%v); read the %d complete lines before it",
				cr.n-int64(br.Buffered()), describeGzipErr(end), st.Lines)
			if m.partial > 0 {
				st.TruncatedWhy += fmt.Sprintf(", dropped a partial line of %d bytes", m.partial)
			}
			return st, nil
		}
	}
}

// budgetReader ends reading, as io.EOF, after left bytes in all (0: never), across the
// gzip members it is reset between; hit says that it did.
type budgetReader struct {
	r    io.Reader
	left int64
	hit  bool
}

func (b *budgetReader) Read(p []byte) (int, error) {
	if b.left == 0 && b.hit {
		return 0, io.EOF
	}
	if b.left > 0 && int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	if b.left > 0 {
		b.left -= int64(n)
		if b.left == 0 {
			b.hit = true
			if err == nil {
				err = io.EOF
			}
		}
	}
	return n, err
}

// memberReader holds the entries of one gzip member until the member has ended.
type memberReader struct {
	lim      Limits
	logBytes int64 // kernel log bytes kept so far, in all members

	first   int       // lines read before this member
	lines   int       // complete lines of this member
	partial int       // bytes of a last line without its newline
	st      ReadStats // this member's counts, added to the archive's on delivery
	out     Stream    // receives the entries as they are decoded
	prev    []byte    // the previous line, to report a repeated one
	prevNo  int
}

func (m *memberReader) reset(first int) {
	m.first, m.lines, m.partial, m.st = first, 0, 0, ReadStats{}
}

// read reads the member's lines into m. It returns the error that ended the member (nil
// when it ended intact, its CRC-32 and length checked by compress/gzip, or the limit
// ended it), and apart from that an error that stops the whole read (not a recording, a
// newer format).
func (m *memberReader) read(lr *bufio.Reader, dr *budgetReader) (end error, fatal error) {
	for {
		if m.first+m.lines > 0 {
			m.skipBlank(lr)
		}
		line, err := lr.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer (a sample with a huge socket list): gather it,
			// up to the limit; beyond it the line is read through and skipped.
			full := append([]byte(nil), line...)
			tooLong := false
			for err == bufio.ErrBufferFull {
				line, err = lr.ReadSlice('\n')
				if !tooLong && len(full)+len(line) > m.lim.MaxLineBytes {
					tooLong, full = true, nil
				}
				if !tooLong {
					full = append(full, line...)
				}
			}
			if tooLong && err == nil {
				m.lines++
				m.st.Skipped++
				m.st.SkippedLong++
				continue
			}
			line = full
		}
		if err != nil {
			m.partial = len(line)
			if err == io.EOF {
				if m.partial > 0 && !dr.hit {
					// The member ended intact with a line that has no newline: the writer
					// never makes one, so it is not a line of the recording.
					m.st.Skipped++
				}
				m.partial = 0
				return nil, nil
			}
			return err, nil
		}
		m.lines++
		no := m.first + m.lines
		body := bytes.TrimSuffix(line, []byte("\n"))
		// The log budget counts every log line, repeated or not, so that a stream of one
		// line repeated is bounded the same way.
		if m.lim.MaxLogBytes > 0 && bytes.HasPrefix(line, logLinePrefix) {
			if m.logBytes+int64(len(line)) > m.lim.MaxLogBytes {
				m.st.LogSkipped++
				continue
			}
			m.logBytes += int64(len(line))
		}
		if m.prevNo == no-1 && len(m.prev) > 0 && bytes.Equal(body, m.prev) {
			// A line repeated verbatim: a copy or a filesystem replaying a block. A sample
			// twice would give a rate over zero seconds.
			m.st.Duplicates++
			if m.st.FirstDuplicate == "" {
				m.st.FirstDuplicate = fmt.Sprintf("line %d repeats line %d", no, no-1)
			}
			m.prevNo = no
			continue
		}
		m.prev, m.prevNo = append(m.prev[:0], body...), no
		var e Entry
		if jerr := json.Unmarshal(body, &e); jerr != nil {
			if no == 1 {
				return nil, fmt.Errorf("not a headroom recording: line 1: %w", jerr)
			}
			m.st.Skipped++
			continue
		}
		switch {
		case e.Header != nil:
			if e.Header.Version > FormatVersion {
				return nil, fmt.Errorf("line %d: recorded in archive format %d by a newer headroom; this one reads format %d", no, e.Header.Version, FormatVersion)
			}
			if e.Header.Version < 1 {
				return nil, fmt.Errorf("line %d: header without a format version", no)
			}
			m.st.Sessions++
		case no == 1:
			return nil, errors.New("not a headroom recording: line 1 is not a header")
		case e.Sample != nil:
			m.st.Samples++
		case e.Marker != nil:
			m.st.Markers++
		case len(e.Log) > 0:
			m.st.LogRecords += len(e.Log)
		case len(e.NotAvailable) > 0:
		case e.Trace != nil:
		default:
			m.st.Skipped++
			continue
		}
		if err := m.out.Entry(&e); err != nil {
			return nil, err
		}
	}
}

// jsonSpace is the white space JSON allows between tokens (RFC 8259 §2), and so at the
// start of a line before its value.
var jsonSpace = [256]bool{' ': true, '\t': true, '\r': true, '\n': true}

// skipBlank discards the white space before the next line's value, a buffer at a time,
// counting each blank line it passes as a line skipped. A line holding only white space
// is not an entry, and sending each through json.Unmarshal cost about 500 ns and three
// allocations: 8 GiB of "\n" (8 MB of gzip) ran for 609 s (issue 30 item 5). Now such a run
// costs the inflating and one pass over the bytes, and MaxBytes bounds it. Leading white
// space of a line that holds a value is dropped too, which JSON ignores anyway.
func (m *memberReader) skipBlank(lr *bufio.Reader) {
	for {
		if b, _ := lr.Peek(1); len(b) == 0 || !jsonSpace[b[0]] {
			return
		}
		b, _ := lr.Peek(lr.Buffered())
		n, nl := 0, 0
		for n < len(b) && jsonSpace[b[n]] {
			if b[n] == '\n' {
				nl++
			}
			n++
		}
		lr.Discard(n)
		m.lines += nl
		m.st.Skipped += nl
		if n < len(b) {
			return
		}
	}
}

// deliver adds the member's counts to st and, for ReadLimits, hands its entries to fn.
func (m *memberReader) deliver(st *ReadStats) error {
	st.Lines += m.lines
	st.Sessions += m.st.Sessions
	st.Samples += m.st.Samples
	st.Markers += m.st.Markers
	st.LogRecords += m.st.LogRecords
	st.Skipped += m.st.Skipped
	st.SkippedLong += m.st.SkippedLong
	st.LogSkipped += m.st.LogSkipped
	st.Duplicates += m.st.Duplicates
	if st.FirstDuplicate == "" {
		st.FirstDuplicate = m.st.FirstDuplicate
	}
	if h, ok := m.out.(*held); ok {
		return h.deliver()
	}
	return nil
}

func describeGzipErr(err error) string {
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "unexpected end of file"
	case errors.Is(err, gzip.ErrChecksum):
		return "gzip checksum mismatch"
	case errors.Is(err, gzip.ErrHeader):
		return "bytes after the last member are not gzip"
	}
	return err.Error()
}
