package source

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/sys/unix"

	"headroom/kernel"
)

// procFile is one kernel file read every interval. On a directory root it keeps the file
// open and re-reads it with pread from offset 0, so a sample costs no path lookup and no
// open/close, only the reads; on an in-memory capture it reads through the Root.
//
// Why pread at 0 re-reads a fresh copy: a read at offset 0 of a seq_file resets its iterator
// (fs/seq_file.c seq_read_iter: "if request is to read from zero offset, reset iterator to
// first record"), and the sysfs/kernfs files regenerate on every read at 0.
type procFile struct {
	name string // relative to the root: "proc/meminfo"
	path string // as reports show it: "/proc/meminfo"
	res  string // last path element: the PSI resource of proc/pressure/RES
	fd   int    // open descriptor on a directory root, -1 otherwise
	root kernel.Root
	// buf is the read buffer. The files of one Sampler share it: each file is parsed as
	// soon as it is read, so one buffer serves them all, and the kernel's copy_to_user
	// writes to the same few pages every sample (as bench/floor.c's one static buffer
	// does), rather than to 22 buffers of 16 KB that are each touched once a sample.
	buf *[]byte
	err error // the open error, reported once per sample
	// frozen, when set (BenchmarkParseSample), is what read returns instead of reading: the
	// parse cost of a sample without the kernel's.
	frozen []byte
	// oneRecord says the file is a single-record seq_file of a live root (SingleRecord): a
	// read that leaves room in the buffer has returned all of it, so read does not ask again
	// for the 0 that says so.
	oneRecord bool
}

// SingleRecord reports whether name (relative to the root: "proc/meminfo",
// "proc/net/netstat", "proc/1/net/sockstat", "proc/12/task/12/stat") is one of the kernel
// files printed by a single show call: those created with proc_create_single,
// proc_create_net_single or opened with single_open (fs/seq_file.c). seq_read_iter prints
// such a record whole into its own buffer (doubling the buffer until it fits) and copies
// out as much as the reader asks, so a read at offset 0 that returns less than the
// reader's buffer has returned the whole file: the next read would only find the
// iterator's end (single_start: NULL past position 0) and return 0. Files of many records
// (vmstat, zoneinfo, buddyinfo, net/dev, softnet_stat, interrupts, protocols, conntrack's
// per-CPU lines) are not in this list: seq_read_iter returns at most one buffer of
// records per read, so a short read is no end for them.
func SingleRecord(name string) bool {
	base := name[strings.LastIndexByte(name, '/')+1:]
	switch {
	case name == "proc/meminfo", name == "proc/stat", name == "proc/loadavg": // proc_create_single; stat_open: single_open_size
		return true
	case strings.HasPrefix(name, "proc/pressure/"): // kernel/sched/psi.c psi_open: single_open
		return true
	case strings.HasSuffix(name, "/net/"+base) && (base == "netstat" || base == "snmp" || base == "snmp6" ||
		base == "sockstat" || base == "sockstat6"): // proc_create_net_single (net/ipv4/proc.c, net/ipv6/proc.c)
		return true
	case base == "stat" && pidDir(strings.TrimSuffix(name, "/stat")): // fs/proc/base.c ONE("stat"): proc_single_open
		return true
	}
	return false
}

// pidDir reports whether dir is "proc/PID" or "proc/PID/task/TID".
func pidDir(dir string) bool {
	digits := func(s string) bool {
		if s == "" {
			return false
		}
		for i := range len(s) {
			if s[i] < '0' || s[i] > '9' {
				return false
			}
		}
		return true
	}
	rest, ok := strings.CutPrefix(dir, "proc/")
	if !ok {
		return false
	}
	pid, tid, task := strings.Cut(rest, "/task/")
	return digits(pid) && (!task || digits(tid))
}

// procFileBuf is the starting read buffer. It does not change what the kernel does per
// read for seq_file files (seq_read_iter fills its own page-sized buffer and copies out), so
// a larger one would only cost memory; files that outgrow it make it grow once and stay grown.
const procFileBuf = 16 << 10

func openProcFile(root kernel.Root, name string) *procFile {
	p := &procFile{name: name, path: "/" + name, res: name[strings.LastIndexByte(name, '/')+1:], fd: -1, root: root,
		buf: new([]byte)}
	dir := root.Dir()
	if dir == "" {
		return p
	}
	// On / this is open(2); under any other directory the confined opener, which refuses
	// FIFOs, devices, sockets, links out of the directory and oversized files
	// (kernel/rootfile.go), at open time only.
	fd, err := root.OpenFD(name)
	if err != nil {
		p.err = err
		return p
	}
	p.fd = fd
	// Only a live root's files are the kernel's seq_files; a captured tree is regular files
	// read to their end as before.
	p.oneRecord = root.IsLive() && SingleRecord(name)
	return p
}

// read returns the file's current contents in p's buffer, valid until the next read of any
// file that shares it (the files of one Sampler do). It reads until pread returns 0: a short
// read is not the end of a seq_file, whose reads return at most one page-sized batch of
// records each (seq_read_iter stops when its buffer overflows), so /proc/vmstat or
// /proc/zoneinfo of a large machine take several. A single-record file (oneRecord) ends at
// its first short read.
func (p *procFile) read() ([]byte, error) {
	if p.err != nil {
		return nil, p.err
	}
	if p.frozen != nil {
		return p.frozen, nil
	}
	if p.fd < 0 {
		return p.root.ReadFile(p.name)
	}
	if len(*p.buf) == 0 {
		*p.buf = make([]byte, procFileBuf)
	}
	n := 0
	for {
		buf := *p.buf
		if n == len(buf) {
			if n >= kernel.MaxRootFileBytes {
				// A file that grew past the cap after its open (a capture written to
				// while read): no kernel file is this long.
				return nil, fmt.Errorf("%s: %w", p.path, kernel.OverCap(p.name))
			}
			buf = append(buf, make([]byte, len(buf))...)
			*p.buf = buf
		}
		m, err := pread(p.fd, buf[n:], int64(n))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			if errors.Is(err, unix.EOPNOTSUPP) {
				// PSI booted with psi=0 keeps the files but refuses reads.
				return nil, fmt.Errorf("%s: %w", p.path, kernel.ErrNotSupported)
			}
			return nil, fmt.Errorf("%s: %w", p.path, err)
		}
		if m == 0 {
			return buf[:n], nil
		}
		n += m
		if p.oneRecord && n < len(buf) {
			return buf[:n], nil
		}
	}
}

// parseInto reads the file and parses it into dst with one of the kernel.ParseXInto
// functions, which reuse dst's storage.
func parseInto[T any](p *procFile, dst *T, parse func(*T, []byte) error) error {
	b, err := p.read()
	if err != nil {
		return err
	}
	if err := parse(dst, b); err != nil {
		return fmt.Errorf("%s: %w", p.path, err)
	}
	return nil
}

func (p *procFile) close() {
	if p.fd >= 0 {
		unix.Close(p.fd)
		p.fd = -1
	}
}
