package vm

import (
	"fmt"
	"io"
	"os"
	"path"
	"strings"
)

// The initramfs is a "newc" cpio archive (Documentation/driver-api/early-userspace/
// buffer-format.rst; unpacked by init/initramfs.c). Each entry is a 110-byte ASCII header —
// the magic "070701" and thirteen 8-digit hexadecimal fields: ino, mode, uid, gid, nlink,
// mtime, filesize, devmajor, devminor, rdevmajor, rdevminor, namesize (with its NUL) and
// check (0) — then the NUL-terminated name padded to a multiple of 4 bytes counted from
// the header's start, then the data padded to a multiple of 4. The entry "TRAILER!!!" ends
// the archive.
//
// What the kernel's unpacker requires of us, and this writer does:
//   - a directory before anything in it: do_name (init/initramfs.c) opens a regular file
//     with O_CREAT, which does not create parents, so every parent is written first;
//   - a distinct inode number per entry with nlink 1 for files: entries with nlink >= 2 and
//     the same (major, minor, ino) are taken for hard links of each other (maybe_link);
//   - a symlink's target as its data, with filesize the target's length (do_symlink).
//
// u-root's cpio package does the same; this is the part of it the lab needs, without the
// module's weight (COMMON.md keeps dependencies few).

const (
	cpioMagic   = "070701"
	cpioHeader  = 110
	cpioTrailer = "TRAILER!!!"
)

// Mode bits of the cpio header (the st_mode of stat(2)).
const (
	modeDir     = 0o040000
	modeFile    = 0o100000
	modeSymlink = 0o120000
	modeCharDev = 0o020000
)

// CPIO writes a newc archive. Paths are absolute or relative to the archive's root ("/bin"
// and "bin" name the same entry); parents are created as 0755 directories when missing.
// The first error sticks: every later call returns it.
type CPIO struct {
	w    io.Writer
	off  int64
	ino  uint32
	dirs map[string]bool
	err  error
}

// NewCPIO starts an archive on w.
func NewCPIO(w io.Writer) *CPIO { return &CPIO{w: w, dirs: map[string]bool{"": true}} }

func cleanName(p string) (string, error) {
	c := strings.TrimPrefix(path.Clean("/"+p), "/")
	if c == "" || c == cpioTrailer || strings.ContainsRune(c, 0) {
		return "", fmt.Errorf("cpio: bad name %q", p)
	}
	return c, nil
}

// Dir writes directory p (and its missing parents).
func (c *CPIO) Dir(p string, perm os.FileMode) error {
	name, err := cleanName(p)
	if err != nil {
		return c.fail(err)
	}
	if c.dirs[name] {
		return c.err
	}
	if err := c.parents(name); err != nil {
		return err
	}
	c.dirs[name] = true
	return c.entry(name, modeDir|uint32(perm.Perm()), 2, 0, 0, nil, 0)
}

// File writes regular file p with data.
func (c *CPIO) File(p string, perm os.FileMode, data []byte) error {
	name, err := c.prepare(p)
	if err != nil {
		return err
	}
	return c.entry(name, modeFile|uint32(perm.Perm()), 1, 0, 0, strings.NewReader(string(data)), int64(len(data)))
}

// CopyFile writes regular file p with the contents of the host file src (its permission
// bits unless perm is non-zero).
func (c *CPIO) CopyFile(p, src string, perm os.FileMode) error {
	name, err := c.prepare(p)
	if err != nil {
		return err
	}
	f, err := os.Open(src)
	if err != nil {
		return c.fail(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return c.fail(err)
	}
	if !st.Mode().IsRegular() {
		return c.fail(fmt.Errorf("cpio: %s is not a regular file", src))
	}
	if perm == 0 {
		perm = st.Mode().Perm()
	}
	return c.entry(name, modeFile|uint32(perm.Perm()), 1, 0, 0, f, st.Size())
}

// Symlink writes symbolic link p pointing at target.
func (c *CPIO) Symlink(p, target string) error {
	name, err := c.prepare(p)
	if err != nil {
		return err
	}
	return c.entry(name, modeSymlink|0o777, 1, 0, 0, strings.NewReader(target), int64(len(target)))
}

// CharDev writes character device node p (major, minor).
func (c *CPIO) CharDev(p string, perm os.FileMode, major, minor uint32) error {
	name, err := c.prepare(p)
	if err != nil {
		return err
	}
	return c.entry(name, modeCharDev|uint32(perm.Perm()), 1, major, minor, nil, 0)
}

// Close writes the trailer. It does not close the underlying writer.
func (c *CPIO) Close() error {
	if c.err != nil {
		return c.err
	}
	return c.entry(cpioTrailer, 0, 1, 0, 0, nil, 0)
}

func (c *CPIO) prepare(p string) (string, error) {
	if c.err != nil {
		return "", c.err
	}
	name, err := cleanName(p)
	if err != nil {
		return "", c.fail(err)
	}
	if c.dirs[name] {
		return "", c.fail(fmt.Errorf("cpio: %s is already a directory", name))
	}
	return name, c.parents(name)
}

func (c *CPIO) parents(name string) error {
	if d := path.Dir(name); d != "." && !c.dirs[d] {
		return c.Dir(d, 0o755)
	}
	return c.err
}

func (c *CPIO) fail(err error) error {
	if c.err == nil {
		c.err = err
	}
	return c.err
}

func (c *CPIO) entry(name string, mode, nlink, rmajor, rminor uint32, data io.Reader, size int64) error {
	if c.err != nil {
		return c.err
	}
	if size > 0xffffffff {
		return c.fail(fmt.Errorf("cpio: %s: %d bytes do not fit the 32-bit size field", name, size))
	}
	c.ino++
	ino := c.ino
	if name == cpioTrailer {
		ino = 0
	}
	hdr := fmt.Sprintf("%s%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x",
		cpioMagic, ino, mode, 0, 0, nlink, 0, size, 0, 0, rmajor, rminor, len(name)+1, 0)
	if err := c.write([]byte(hdr + name + "\x00")); err != nil {
		return err
	}
	if err := c.pad(); err != nil {
		return err
	}
	if data != nil {
		n, err := io.Copy(c.w, io.LimitReader(data, size))
		c.off += n
		if err != nil {
			return c.fail(fmt.Errorf("cpio: %s: %w", name, err))
		}
		if n != size {
			return c.fail(fmt.Errorf("cpio: %s: %d bytes read of %d (file changed?)", name, n, size))
		}
	}
	return c.pad()
}

func (c *CPIO) write(b []byte) error {
	n, err := c.w.Write(b)
	c.off += int64(n)
	if err != nil {
		return c.fail(fmt.Errorf("cpio: %w", err))
	}
	return nil
}

func (c *CPIO) pad() error {
	if r := c.off % 4; r != 0 {
		return c.write(make([]byte, 4-r))
	}
	return nil
}
