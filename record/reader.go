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
}

// logLinePrefix starts every log line the writer writes (Entry{Log: ...} marshals only its
// non-empty field).
var logLinePrefix = []byte(`{"log":`)

// DefaultMaxLineBytes is far above a sample's line (a few KiB; a socket dump of 100 000
// sockets is about 20 MiB).
const DefaultMaxLineBytes = 64 << 20

// Read decodes an archive line by line, calling fn for each entry in order. A torn or
// damaged tail is not an error: reading stops at the last complete line and stats says so.
// An error from fn stops the read and is returned. A file that is not gzip, or whose first
// line is not a header of a known version, is an error.
func Read(r io.Reader, fn func(e *Entry) error) (ReadStats, error) {
	return ReadLimits(r, Limits{}, fn)
}

// ReadLimits is Read within lim.
func ReadLimits(r io.Reader, lim Limits, fn func(e *Entry) error) (ReadStats, error) {
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
	var src io.Reader = zr
	if lim.MaxBytes > 0 {
		src = io.LimitReader(zr, lim.MaxBytes)
	}
	dr := &countingReader{r: src}
	lr := bufio.NewReaderSize(dr, 256<<10)
	var partial int
	var logBytes int64
	for {
		line, err := lr.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer (a sample with a huge socket list): gather it,
			// up to the limit; beyond it the line is read through and skipped.
			full := append([]byte(nil), line...)
			tooLong := false
			for err == bufio.ErrBufferFull {
				line, err = lr.ReadSlice('\n')
				if !tooLong && len(full)+len(line) > lim.MaxLineBytes {
					tooLong, full = true, nil
				}
				if !tooLong {
					full = append(full, line...)
				}
			}
			if tooLong && err == nil {
				st.Lines++
				st.Skipped++
				st.SkippedLong++
				continue
			}
			line = full
		}
		if err == io.EOF && lim.MaxBytes > 0 && dr.n >= lim.MaxBytes {
			st.Truncated = true
			st.TruncatedWhy = fmt.Sprintf("reading stopped after %d MiB of decompressed data (the limit); read the %d complete lines before it", lim.MaxBytes>>20, st.Lines)
			return st, nil
		}
		if err != nil {
			if len(line) > 0 {
				partial = len(line)
			}
			if err == io.EOF && partial == 0 {
				return st, nil
			}
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			if st.Lines == 0 {
				return st, fmt.Errorf("not a headroom recording: %w", err)
			}
			st.Truncated = true
			st.TruncatedWhy = fmt.Sprintf("the archive is damaged or ends inside a gzip member after compressed byte %d (%v); read the %d complete lines before it",
				cr.n-int64(br.Buffered()), describeGzipErr(err), st.Lines)
			if partial > 0 {
				st.TruncatedWhy += fmt.Sprintf(", dropped a partial line of %d bytes", partial)
			}
			return st, nil
		}
		st.Lines++
		if lim.MaxLogBytes > 0 && bytes.HasPrefix(line, logLinePrefix) {
			if logBytes+int64(len(line)) > lim.MaxLogBytes {
				st.LogSkipped++
				continue
			}
			logBytes += int64(len(line))
		}
		var e Entry
		if jerr := json.Unmarshal(bytes.TrimSuffix(line, []byte("\n")), &e); jerr != nil {
			if st.Lines == 1 {
				return st, fmt.Errorf("not a headroom recording: line 1: %w", jerr)
			}
			st.Skipped++
			continue
		}
		switch {
		case e.Header != nil:
			if e.Header.Version > FormatVersion {
				return st, fmt.Errorf("line %d: recorded in archive format %d by a newer headroom; this one reads format %d", st.Lines, e.Header.Version, FormatVersion)
			}
			if e.Header.Version < 1 {
				return st, fmt.Errorf("line %d: header without a format version", st.Lines)
			}
			st.Sessions++
		case st.Lines == 1:
			return st, errors.New("not a headroom recording: line 1 is not a header")
		case e.Sample != nil:
			st.Samples++
		case e.Marker != nil:
			st.Markers++
		case len(e.Log) > 0:
			st.LogRecords += len(e.Log)
		case len(e.NotAvailable) > 0:
		default:
			st.Skipped++
			continue
		}
		if err := fn(&e); err != nil {
			return st, err
		}
	}
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
