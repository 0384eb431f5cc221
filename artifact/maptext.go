package artifact

import (
	"bytes"
	"io"
	"os"
	"syscall"
)

// mapTextMin is the smallest file MapText maps: below it reading costs little, and every
// mapping stays for the life of the process (see MapText).
const mapTextMin = 1 << 20

// MapText maps up to limit bytes of a regular file read-only instead of reading them into
// a buffer; ok is false (nothing mapped) for anything else, a file not read from its start, a file smaller than
// mapTextMin, or when the mapping fails, and the caller reads the file as before. more says
// the file is longer than limit; data then ends at the last line end before limit (or at
// limit when none).
//
// Why (issue 33): a text read into the heap is allocated, zeroed page by page as the read
// faults it in, and copied from the page cache: for the bench's 100 MiB syslog 25,600 page
// faults and a tenth of the parse's CPU, which grep, reading through one small buffer, does
// not pay. A private read-only mapping shares the page cache's pages: the kernel maps them
// a few at a time (mm/memory.c, do_fault_around) with nothing zeroed or copied.
//
// The parse keeps substrings of the text (messages, report lines) for as long as the
// timeline lives, so the mapping is never unmapped: this is for a process that reads a
// text once (doctor, report), not for a loop. A file truncated by another process while
// mapped (logrotate's copytruncate of the very log being read) makes a later read of the
// lost pages fault (SIGBUS, which ends the process), where a read would have kept the old
// bytes: the price of not copying.
func MapText(f *os.File, limit int64) (data []byte, more, ok bool) {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() < mapTextMin {
		return nil, false, false
	}
	size := min(st.Size(), limit)
	if size <= 0 || size != int64(int(size)) {
		return nil, false, false
	}
	// From the start only: a reader already advanced reads on from where it is.
	if off, err := f.Seek(0, io.SeekCurrent); err != nil || off != 0 {
		return nil, false, false
	}
	m, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return nil, false, false
	}
	// Where a read of the same bytes would have left the file.
	if _, err := f.Seek(size, io.SeekStart); err != nil {
		syscall.Munmap(m)
		return nil, false, false
	}
	if st.Size() > limit {
		if i := bytes.LastIndexByte(m, '\n'); i >= 0 {
			m = m[:i+1]
		}
		return m, true, true
	}
	return m, false, true
}
