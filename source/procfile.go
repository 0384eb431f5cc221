package source

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"headroom/kernel"
)

// procFile is one kernel file read every interval. On a directory root it keeps the file
// open and re-reads it with pread at offset 0 (procfs seq files regenerate on a read at
// offset 0), so a sample costs one syscall per file and no path lookup; on an in-memory
// capture it reads through the Root.
type procFile struct {
	name string // relative to the root: "proc/meminfo"
	f    *os.File
	root kernel.Root
	buf  []byte
	err  error // the open error, reported once per sample
}

func openProcFile(root kernel.Root, name string) *procFile {
	p := &procFile{name: name, root: root, buf: make([]byte, 16<<10)}
	if dir := root.Dir(); dir != "" {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				p.err = fmt.Errorf("/%s: %w", name, kernel.ErrNotSupported)
			} else {
				p.err = fmt.Errorf("/%s: %w", name, err)
			}
			return p
		}
		p.f = f
	}
	return p
}

// read returns the file's current contents in a buffer owned by p, valid until the next
// read. The buffer grows (and stays grown) when a file outgrows it.
func (p *procFile) read() ([]byte, error) {
	if p.err != nil {
		return nil, p.err
	}
	if p.f == nil {
		b, err := p.root.ReadFile(p.name)
		return b, err
	}
	n := 0
	for {
		m, err := p.f.ReadAt(p.buf[n:], int64(n))
		n += m
		if err == io.EOF || (err == nil && m == 0) {
			return p.buf[:n], nil
		}
		if err != nil {
			if errors.Is(err, syscall.EOPNOTSUPP) {
				return nil, fmt.Errorf("/%s: %w", p.name, kernel.ErrNotSupported)
			}
			return nil, fmt.Errorf("/%s: %w", p.name, err)
		}
		if n == len(p.buf) {
			// Full buffer: the file may be longer. Grow and read on; seq files return
			// consistent records across reads at increasing offsets.
			p.buf = append(p.buf, make([]byte, len(p.buf))...)
		}
	}
}

// parse reads the file and hands its bytes to parse.
func parseProc[T any](p *procFile, parse func(io.Reader) (T, error)) (T, error) {
	var zero T
	b, err := p.read()
	if err != nil {
		return zero, err
	}
	v, err := parse(bytes.NewReader(b))
	if err != nil {
		return zero, fmt.Errorf("/%s: %w", p.name, err)
	}
	return v, nil
}

func (p *procFile) close() {
	if p.f != nil {
		p.f.Close()
	}
}
