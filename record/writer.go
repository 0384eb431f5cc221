package record

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"headroom/model"
)

// WriterOptions tune an archive writer.
type WriterOptions struct {
	// MaxSizeBytes rotates the archive once it reaches this size (0: never). The file
	// being written keeps its name; older ones are renamed as RotatedName says.
	MaxSizeBytes int64
	// MaxFiles is how many rotated files are kept besides the current one (0: 9). The
	// oldest is deleted when one more would exceed it.
	MaxFiles int
	// MemberFlushes closes the gzip member every this many flushes (0: 3600, an hour at
	// 1 s). Within a member every flush is a deflate sync flush.
	MemberFlushes int
}

// Writer appends to an archive. It is not safe for concurrent use.
type Writer struct {
	path    string
	opt     WriterOptions
	header  Header
	f       *os.File
	size    int64
	buf     bytes.Buffer // compressed bytes of the current flush, written with one write(2)
	zw      *gzip.Writer
	line    []byte
	open    bool // a member is open
	flushes int
	// Repaired says what Create had to cut from a torn tail of an existing archive.
	Repaired string
}

// ErrLocked says that another recorder is writing the archive.
var ErrLocked = errors.New("another headroom record is writing this archive")

// Create opens path for appending (creating it), repairs a torn tail left by a crash,
// takes the recorder's lock and writes h as the first line of a new session.
func Create(path string, h Header, opt WriterOptions) (*Writer, error) {
	if opt.MaxFiles <= 0 {
		opt.MaxFiles = 9
	}
	if opt.MemberFlushes <= 0 {
		opt.MemberFlushes = 3600
	}
	h.Version = FormatVersion
	w := &Writer{path: path, opt: opt, header: h}
	if err := w.openFile(); err != nil {
		return nil, err
	}
	if err := w.writeEntry(Entry{Header: &w.header}); err != nil {
		w.f.Close()
		return nil, err
	}
	if err := w.Flush(); err != nil {
		w.f.Close()
		return nil, err
	}
	return w, nil
}

func (w *Writer) openFile() error {
	f, err := openLocked(w.path)
	if err != nil {
		return err
	}
	// Under the lock no other recorder writes this archive: a repair file left beside it
	// is from a recorder killed while repairing, before its rename. The archive itself
	// was never touched by that repair.
	removeStaleRepairs(w.path)
	f, repaired, err := repairTail(f, w.path)
	if err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", w.path, err)
	}
	w.Repaired = repaired
	end, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		f.Close()
		return err
	}
	w.f, w.size = f, end
	if w.zw == nil {
		w.zw, err = gzip.NewWriterLevel(&w.buf, gzip.DefaultCompression)
		if err != nil {
			return err
		}
	}
	return nil
}

// openLocked opens (creating) the archive and takes its lock. A repair replaces the file
// by rename while holding the old file's lock, so a recorder that opened the old file just
// before may get its lock once the old one is closed; it then holds a lock on a file no
// longer at path, and opens again.
func openLocked(path string) (*os.File, error) {
	for tries := 0; ; tries++ {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		if pid, err := lockArchive(f); err != nil {
			f.Close()
			if errors.Is(err, ErrLocked) {
				return nil, fmt.Errorf("%s: %w (pid %d)", path, ErrLocked, pid)
			}
			return nil, fmt.Errorf("%s: lock: %w", path, err)
		}
		if same, err := samePath(f, path); err != nil || same || tries >= 3 {
			if err != nil {
				f.Close()
				return nil, err
			}
			return f, nil
		}
		f.Close()
	}
}

// samePath reports whether the open file is the one at path now.
func samePath(f *os.File, path string) (bool, error) {
	a, err := f.Stat()
	if err != nil {
		return false, err
	}
	b, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return os.SameFile(a, b), nil
}

// lockArchive takes a POSIX write lock on the whole file, so that a second recorder
// refuses to interleave members and `record --mark` can find the recorder's pid
// (F_GETLK reports the holder; fcntl(2)).
func lockArchive(f *os.File) (int, error) {
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: io.SeekStart}
	if err := unix.FcntlFlock(f.Fd(), unix.F_SETLK, &lk); err != nil {
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES) {
			q := unix.Flock_t{Type: unix.F_WRLCK, Whence: io.SeekStart}
			if unix.FcntlFlock(f.Fd(), unix.F_GETLK, &q) == nil && q.Type != unix.F_UNLCK {
				return int(q.Pid), ErrLocked
			}
			return 0, ErrLocked
		}
		return 0, err
	}
	return 0, nil
}

// RecorderPID returns the pid of the recorder writing path, or 0 when none is.
func RecorderPID(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return 0, nil
		}
		return 0, err
	}
	defer f.Close()
	q := unix.Flock_t{Type: unix.F_WRLCK, Whence: io.SeekStart}
	if err := unix.FcntlFlock(f.Fd(), unix.F_GETLK, &q); err != nil {
		return 0, err
	}
	if q.Type == unix.F_UNLCK {
		return 0, nil
	}
	return int(q.Pid), nil
}

// WriteSample appends a sample. Rates are not written: they are derived again on reading.
func (w *Writer) WriteSample(s *model.Sample) error {
	c := *s
	c.Rates = nil
	return w.writeEntry(Entry{Sample: &c})
}

// WriteMarker appends a phase marker. Its Index is recomputed on reading, from its time.
func (w *Writer) WriteMarker(m model.Marker) error { return w.writeEntry(Entry{Marker: &m}) }

// WriteLog appends kernel log records.
func (w *Writer) WriteLog(recs []model.LogRecord) error {
	if len(recs) == 0 {
		return nil
	}
	return w.writeEntry(Entry{Log: recs})
}

// WriteNotAvailable appends interfaces that could not be read.
func (w *Writer) WriteNotAvailable(u []model.Unavailable) error {
	if len(u) == 0 {
		return nil
	}
	return w.writeEntry(Entry{NotAvailable: u})
}

// WriteTrace writes one part of a traced recording.
func (w *Writer) WriteTrace(t *model.TraceWindow) error {
	if t == nil {
		return nil
	}
	return w.writeEntry(Entry{Trace: t})
}

func (w *Writer) writeEntry(e Entry) error {
	var err error
	w.line, err = appendJSONLine(w.line[:0], e)
	if err != nil {
		return err
	}
	if !w.open {
		w.zw.Reset(&w.buf)
		w.open = true
	}
	_, err = w.zw.Write(w.line)
	return err
}

func appendJSONLine(dst []byte, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return dst, err
	}
	dst = append(dst, b...)
	return append(dst, '\n'), nil
}

// Flush makes everything written so far decodable from the file: a deflate sync flush
// (or the member's end every MemberFlushes), written with a single write(2). Then it
// rotates the archive when it has reached MaxSizeBytes.
func (w *Writer) Flush() error {
	if !w.open {
		return nil
	}
	w.flushes++
	var err error
	if w.flushes%w.opt.MemberFlushes == 0 {
		err = w.zw.Close()
		w.open = false
	} else {
		err = w.zw.Flush()
	}
	if err != nil {
		return err
	}
	if err := w.writeBuf(); err != nil {
		return err
	}
	if w.opt.MaxSizeBytes > 0 && w.size >= w.opt.MaxSizeBytes {
		return w.rotate()
	}
	return nil
}

func (w *Writer) writeBuf() error {
	if w.buf.Len() == 0 {
		return nil
	}
	n, err := w.f.Write(w.buf.Bytes())
	w.size += int64(n)
	w.buf.Reset()
	if err != nil {
		return fmt.Errorf("%s: %w", w.path, err)
	}
	return nil
}

// rotate closes the current file and starts a new one under the same name, with the same
// header, after shifting the older files (RotatedName).
func (w *Writer) rotate() error {
	if w.open {
		if err := w.zw.Close(); err != nil {
			return err
		}
		w.open = false
		if err := w.writeBuf(); err != nil {
			return err
		}
	}
	if err := w.f.Close(); err != nil {
		return err
	}
	os.Remove(RotatedName(w.path, w.opt.MaxFiles))
	for i := w.opt.MaxFiles - 1; i >= 0; i-- {
		from := RotatedName(w.path, i)
		if _, err := os.Stat(from); err == nil {
			if err := os.Rename(from, RotatedName(w.path, i+1)); err != nil {
				return err
			}
		}
	}
	if err := w.openFile(); err != nil {
		return err
	}
	if err := w.writeEntry(Entry{Header: &w.header}); err != nil {
		return err
	}
	w.flushes = 0
	return w.Flush()
}

// RotatedName is the name of the n-th older file of an archive: n=0 is the archive itself,
// host.jsonl.gz; 1 is host.1.jsonl.gz (the newest rotated), 2 host.2.jsonl.gz, and so on.
// Each rotated file starts with its own header and reads on its own.
func RotatedName(path string, n int) string {
	if n == 0 {
		return path
	}
	dir, base := filepath.Split(path)
	ext := ".jsonl.gz"
	if !strings.HasSuffix(base, ext) {
		ext = filepath.Ext(base)
	}
	return filepath.Join(dir, fmt.Sprintf("%s.%d%s", strings.TrimSuffix(base, ext), n, ext))
}

// Size returns the bytes in the current file.
func (w *Writer) Size() int64 { return w.size }

// Close ends the member, writes it and closes the file (releasing the lock).
func (w *Writer) Close() error {
	var err error
	if w.open {
		err = w.zw.Close()
		w.open = false
		if err == nil {
			err = w.writeBuf()
		}
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// repairTail makes an existing archive safe to append to: if it ends inside a gzip member
// (a crash between flushes, or a member never closed), the lines of that member that
// still decode are rewritten as one complete member and the torn bytes are cut. A new
// member appended after a torn one would otherwise be unreachable: a gzip reader stops at
// the first damaged member. The repaired archive is written beside the old one and renamed
// over it (repairInto), so a kill or a full disk at any moment leaves the old archive or
// the repaired one, never less. It returns the file to append to (f itself, or the
// repaired file, locked, with f closed) and what it did, "" when nothing was needed.
func repairTail(f *os.File, path string) (*os.File, string, error) {
	st, err := f.Stat()
	if err != nil {
		return f, "", err
	}
	if st.Size() == 0 {
		return f, "", nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return f, "", err
	}
	cr := &countingReader{r: f}
	br := bufio.NewReader(cr)
	zr := new(gzip.Reader)
	var start int64
	for member := 0; ; member++ {
		start = cr.n - int64(br.Buffered())
		if err := zr.Reset(br); err != nil {
			if err == io.EOF {
				return f, "", nil // ends exactly after a complete member
			}
			if member == 0 {
				return f, "", fmt.Errorf("not a headroom recording (not gzip: %v); refusing to append", err)
			}
			return repairInto(f, path, st, start, nil, err)
		}
		zr.Multistream(false)
		data, err := io.ReadAll(zr)
		if err == nil {
			if member == 0 && !bytes.HasPrefix(data, []byte(`{"headroom_record":`)) {
				return f, "", errors.New("not a headroom recording (no header line); refusing to append")
			}
			continue
		}
		// Keep the complete lines that decoded before the damage.
		if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
			data = data[:i+1]
		} else {
			data = nil
		}
		return repairInto(f, path, st, start, data, err)
	}
}

// repairStep, when set by a test, runs after each step of a repair; the crash tests kill
// the process there. Production code leaves it nil.
var repairStep func(step string)

func step(name string) {
	if repairStep != nil {
		repairStep(name)
	}
}

// repairPattern names the file a repair writes beside the archive; removeStaleRepairs
// finds the leftovers of a killed repair by it.
func repairPattern(path string) string { return "." + filepath.Base(path) + ".tmp-*" }

func removeStaleRepairs(path string) {
	names, _ := filepath.Glob(filepath.Join(filepath.Dir(path), repairPattern(path)))
	for _, n := range names {
		if fi, err := os.Lstat(n); err == nil && fi.Mode().IsRegular() {
			os.Remove(n)
		}
	}
}

// repairInto writes a new file holding the archive's bytes before start and then keep as
// one complete member, makes it durable, locks it, and renames it over path; the old
// archive is never truncated or overwritten. Until the rename the archive at path is the
// old one, whole; after it, the repaired one, already fsynced (rename(2) replaces the name
// atomically; the directory is synced so that the rename survives a power loss).
func repairInto(f *os.File, path string, st os.FileInfo, start int64, keep []byte, why error) (*os.File, string, error) {
	var member bytes.Buffer
	if len(keep) > 0 {
		zw := gzip.NewWriter(&member)
		zw.Write(keep)
		if err := zw.Close(); err != nil {
			return f, "", err
		}
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, repairPattern(path))
	if err != nil {
		return f, "", fmt.Errorf("repair: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(st.Mode().Perm()); err != nil {
		return f, "", fmt.Errorf("repair: %w", err)
	}
	if sys, isStat := st.Sys().(*syscall.Stat_t); isStat && int(sys.Uid) != os.Geteuid() {
		// Keep the archive its owner's (root repairing a user's recording); best effort,
		// since only root may give a file away.
		tmp.Chown(int(sys.Uid), int(sys.Gid))
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return f, "", err
	}
	// io.CopyN into an *os.File uses copy_file_range(2) where the file system has it.
	if _, err := io.CopyN(tmp, f, start); err != nil {
		return f, "", fmt.Errorf("repair: copying the archive's intact part: %w", err)
	}
	step("copied")
	if _, err := tmp.Write(member.Bytes()); err != nil {
		return f, "", fmt.Errorf("repair: %w", err)
	}
	step("written")
	if err := tmp.Sync(); err != nil {
		return f, "", fmt.Errorf("repair: %w", err)
	}
	step("synced")
	if _, err := lockArchive(tmp); err != nil {
		return f, "", fmt.Errorf("repair: lock: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return f, "", fmt.Errorf("repair: %w", err)
	}
	ok = true
	step("renamed")
	f.Close()
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	lines := bytes.Count(keep, []byte("\n"))
	return tmp, fmt.Sprintf("the archive ended inside a gzip member at byte %d of %d (%v): kept its %d complete lines, cut %d torn bytes",
		start, st.Size(), why, lines, st.Size()-start), nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
