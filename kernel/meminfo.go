package kernel

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// /proc/meminfo: "Name:   value kB" lines. ParseMemInfo returns Counters whose values are
// kB for lines with a kB suffix and plain counts otherwise (HugePages_Total and friends).
// LowTotal/LowFree/HighTotal/HighFree exist only on 32-bit kernels with CONFIG_HIGHMEM.
//
// 2.4 kernels printed a byte table before the kB lines (fs/proc/proc_misc.c
// meminfo_read_proc: "        total:    used:    free:  shared: buffers:  cached:", then
// "Mem:" and "Swap:" rows in bytes). Those three lines are skipped on purpose: every figure in
// them is printed again below as a kB line (MemTotal, MemFree, MemShared, Buffers, Cached,
// SwapTotal, SwapFree), "used" being total minus free.

// ReadMemInfo reads /proc/meminfo under root.
func ReadMemInfo(root Root) (Counters, error) {
	return parseFile(root, "proc/meminfo", ParseMemInfo)
}

// ParseMemInfo parses /proc/meminfo text.
func ParseMemInfo(r io.Reader) (Counters, error) {
	return parseText(r, ParseMemInfoInto)
}

// ParseMemInfoInto parses /proc/meminfo text into dst, reusing its storage: when the names
// are the same as in the previous parse (the sampler's steady state) it allocates nothing.
// Anything that kept the previous contents of dst sees them overwritten; on error dst holds a
// partial result.
func ParseMemInfoInto(dst *Counters, data []byte) error {
	if memInfoSameLayout(dst, data) {
		return checkMemInfo(dst)
	}
	var fill txtCountersFill
	fill.start(dst)
	lines := txtLines{data: data}
	for {
		line, ok := lines.nextNonBlank()
		if !ok {
			break
		}
		colon := bytes.IndexByte(line, ':')
		if colon < 0 {
			return lines.errorf("no \"Name:\" in %q", line)
		}
		name := txtTrim(line[:colon])
		if len(name) == 0 {
			return lines.errorf("empty name in %q", line)
		}
		val, rest := txtField(line[colon+1:])
		unit, rest := txtField(rest)
		if len(txtTrim(rest)) > 0 || (len(unit) > 0 && !bytes.Equal(unit, []byte("kB"))) {
			if meminfo24Table(name) {
				continue
			}
			return lines.errorf("%s: want \"value [kB]\", got %q", name, txtTrim(line[colon+1:]))
		}
		v, ok := txtInt(val)
		if !ok {
			return lines.errorf("%s: %q is not an integer", name, val)
		}
		fill.set(name, v)
	}
	fill.done()
	if dst.Len() == 0 {
		return fmt.Errorf("meminfo: no values")
	}
	return checkMemInfo(dst)
}

// checkMemInfo refuses sizes no kernel prints: a MemTotal of zero or less, and negative
// free or swap sizes. The kernel fills them from unsigned page counts (si_meminfo,
// si_swapinfo in mm/; printed by fs/proc/meminfo.c), so such a value is a damaged or
// edited input, and every rule that divides by MemTotal would judge nonsense. Committed_AS
// is left alone: it is a per-CPU counter sum that old kernels printed negative.
func checkMemInfo(c *Counters) error {
	if v, ok := c.Get("MemTotal"); ok && v <= 0 {
		return fmt.Errorf("meminfo: MemTotal %d kB: a host has memory; the input is damaged or edited", v)
	}
	for _, name := range [...]string{"MemFree", "SwapTotal", "SwapFree"} {
		if v, ok := c.Get(name); ok && v < 0 {
			return fmt.Errorf("meminfo: %s %d kB is negative; the input is damaged or edited", name, v)
		}
	}
	return nil
}

// memInfoSameLayout is the fast path of ParseMemInfoInto (see txtIntAt): every line is
// "Name:", spaces, a value and an optional " kB", with the names of c in c's order.
func memInfoSameLayout(c *Counters, data []byte) bool {
	if len(c.names) == 0 {
		return false
	}
	p := 0
	for i, name := range c.names {
		e := p + len(name)
		if e >= len(data) || data[e] != ':' || !txtMatch(data, p, name) {
			return false
		}
		s := txtSkip(data, e+1, ' ')
		v, q, ok := int64(0), s+1, false
		if v, ok = txtDigit(data, s); !ok {
			v, q, ok = txtIntAt(data, s)
		}
		if !ok {
			return false
		}
		if txtAt(data, q, " kB") {
			q += 3
		}
		if p, ok = txtEOL(data, q); !ok {
			return false
		}
		c.values[i] = v
	}
	return p == len(data)
}

// meminfo24Table reports whether name heads a row of the 2.4 byte table.
func meminfo24Table(name []byte) bool {
	return bytes.Equal(name, []byte("Mem")) || bytes.Equal(name, []byte("Swap")) ||
		bytes.Equal(name, []byte("total"))
}

// MemInfoField reports whether name is a field /proc/meminfo prints (fs/proc/meminfo.c
// meminfo_proc_show, arch_report_meminfo and hugetlb_report_meminfo; 2.6 to 6.x), so that
// one or two lines quoted alone ("SUnreclaim:     42964948 kB") can be read as the file's.
func MemInfoField(name string) bool { return memInfoFields[name] }

var memInfoFields = func() map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(`MemTotal MemFree MemAvailable Buffers Cached SwapCached Active Inactive
		Active(anon) Inactive(anon) Active(file) Inactive(file) Unevictable Mlocked HighTotal HighFree
		LowTotal LowFree MmapCopy SwapTotal SwapFree Zswap Zswapped Dirty Writeback AnonPages Mapped Shmem
		KReclaimable Slab SReclaimable SUnreclaim KernelStack ShadowCallStack PageTables SecPageTables
		NFS_Unstable Bounce WritebackTmp CommitLimit Committed_AS VmallocTotal VmallocUsed VmallocChunk
		Percpu HardwareCorrupted AnonHugePages ShmemHugePages ShmemPmdMapped FileHugePages FilePmdMapped
		CmaTotal CmaFree Unaccepted HugePages_Total HugePages_Free HugePages_Rsvd HugePages_Surp
		Hugepagesize Hugetlb DirectMap4k DirectMap2M DirectMap4M DirectMap1G Quicklists`) {
		m[f] = true
	}
	return m
}()
