package export

import (
	"bytes"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// dropStartupPages drops this process's page-table entries for the read-only mappings of
// its own executable (text, rodata, the pclntab), once serve has started, and returns how
// many mappings it advised.
//
// Why: a page of a file mapping is mapped on first touch together with the pages around it
// that are in the page cache (fault-around, 64 KB by default: mm/memory.c do_read_fault ->
// do_fault_around, fault_around_bytes), so the start-up of a 19 MB binary (every package's
// initialisers, the command table, flag parsing, the capability drop and its re-exec) left
// about 15 MB of it mapped, counted in serve's RSS for the life of the daemon, of which a
// scrape and the rules touch about a third (issue 33: RSS 21.0 MB against node_exporter's
// 21.0; 16.7 MB after this). MADV_DONTNEED on a private file mapping that was never written
// only unmaps (mm/madvise.c madvise_dontneed_single_vma -> zap_page_range_single): the pages
// stay in the page cache, and the code serve runs next faults them back in, minor faults
// without I/O. A writable mapping (.data, .bss, heap) is never touched: dropping it would
// lose its contents.
func dropStartupPages() int {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return 0
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return 0
	}
	n := 0
	for line := range bytes.SplitSeq(maps, []byte("\n")) {
		// start-end perms offset dev inode path
		lo, hi, perms, path, ok := mapsLine(line)
		if !ok || path != exe || perms[1] != '-' || perms[3] != 'p' {
			continue
		}
		if _, _, e := unix.Syscall(unix.SYS_MADVISE, uintptr(lo), uintptr(hi-lo), unix.MADV_DONTNEED); e == 0 {
			n++
		}
	}
	return n
}

// mapsLine parses one line of /proc/PID/maps (fs/proc/task_mmu.c show_map_vma): its
// address range, its permissions ("r-xp") and the path, which may hold spaces.
func mapsLine(line []byte) (lo, hi uint64, perms, path string, ok bool) {
	var f [5][]byte
	rest := line
	for i := range f {
		rest = bytes.TrimLeft(rest, " ")
		j := bytes.IndexByte(rest, ' ')
		if j < 0 {
			return 0, 0, "", "", false
		}
		f[i], rest = rest[:j], rest[j:]
	}
	a, b, ok := bytes.Cut(f[0], []byte("-"))
	if !ok || len(f[1]) != 4 {
		return 0, 0, "", "", false
	}
	lo, err1 := strconv.ParseUint(string(a), 16, 64)
	hi, err2 := strconv.ParseUint(string(b), 16, 64)
	if err1 != nil || err2 != nil || hi <= lo {
		return 0, 0, "", "", false
	}
	return lo, hi, string(f[1]), string(bytes.TrimLeft(rest, " ")), true
}
