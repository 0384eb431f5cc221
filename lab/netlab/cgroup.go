package netlab

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"headroom/kernel"
)

// Memory cgroups, for the lab's helper processes. A failure scenario (package lab) puts its
// "service" (a helper process, see helper.go) into a cgroup of its own so that the kernel's
// per-cgroup limits squeeze it and nothing else.
//
// Which hierarchy holds what differs by host. Measured on this machine (6.18, see
// docs/lab.md): the memory controller is bound to cgroup v1 (/sys/fs/cgroup/memory) and the
// unified (v2) hierarchy at /sys/fs/cgroup/unified has no controllers but hugetlb. The v2
// hierarchy still gives every cgroup its own memory.pressure file (PSI for cgroups is part
// of the cgroup core, kernel/cgroup/cgroup.c cgroup_base_files, CONFIG_PSI), so a service is
// put into one cgroup of each hierarchy: v1 for the limits, v2 for its pressure stall
// information. A process may belong to one cgroup per hierarchy at the same time.
//
// Socket memory: cgroup v1 charges a socket to its memcg only after
// memory.kmem.tcp.limit_in_bytes has been written (memcg1 "tcpmem active",
// mm/memcontrol-v1.c); the charge goes to memory.kmem.tcp.usage_in_bytes, separate from
// memory.limit_in_bytes. Since 6.x writing that file logs "kmem.tcp.limit_in_bytes is
// deprecated and will be removed"; on 6.18 it still works (measured: tcp-memory-squeeze).
// cgroup v2 always charges socket memory to memory.current and limits it with memory.max
// together with everything else (Documentation/admin-guide/cgroup-v2.rst, "sock").

// cgroupMounts is where the hierarchies are mounted.
type cgroupMounts struct {
	V1Memory string // mount point of the v1 hierarchy with the memory controller; "" if none
	V2       string // mount point of cgroup2; "" if none
}

// v2Memory reports whether the v2 hierarchy has the memory controller (then memory.max and
// memory.stat live there and the v1 memory hierarchy does not exist).
func (m cgroupMounts) v2Memory() bool {
	if m.V2 == "" {
		return false
	}
	b, err := os.ReadFile(filepath.Join(m.V2, "cgroup.controllers"))
	return err == nil && containsField(string(b), "memory")
}

func containsField(s, f string) bool {
	for _, x := range strings.Fields(s) {
		if x == f {
			return true
		}
	}
	return false
}

func findCgroupMounts() (cgroupMounts, error) {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return cgroupMounts{}, fmt.Errorf("lab: %w", err)
	}
	return parseCgroupMounts(b)
}

// parseCgroupMounts reads /proc/self/mountinfo (Documentation/filesystems/proc.rst, 3.5):
//
//	36 25 0:31 / /sys/fs/cgroup/memory rw,relatime shared:14 - cgroup cgroup rw,memory
//
// fields: mount id, parent id, major:minor, root, mount point, mount options, optional
// fields ending with "-", then filesystem type, source and super options. The memory
// controller of a v1 hierarchy is one of its super options. Mount points escape space, tab,
// newline and backslash as octal (\040). The first mount of each kind wins.
func parseCgroupMounts(b []byte) (cgroupMounts, error) {
	var m cgroupMounts
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		pre, post, ok := strings.Cut(text, " - ")
		if !ok {
			if strings.TrimSpace(text) == "" {
				continue
			}
			return cgroupMounts{}, fmt.Errorf("lab: /proc/self/mountinfo line %d: no \" - \" separator", line)
		}
		f := strings.Fields(pre)
		g := strings.Fields(post)
		if len(f) < 5 || len(g) < 1 {
			return cgroupMounts{}, fmt.Errorf("lab: /proc/self/mountinfo line %d: %d fields before \"-\", %d after", line, len(f), len(g))
		}
		point := unescapeMountinfo(f[4])
		switch g[0] {
		case "cgroup2":
			if m.V2 == "" {
				m.V2 = point
			}
		case "cgroup":
			if len(g) >= 3 && m.V1Memory == "" {
				for _, o := range strings.Split(g[2], ",") {
					if o == "memory" {
						m.V1Memory = point
					}
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return cgroupMounts{}, fmt.Errorf("lab: /proc/self/mountinfo line %d: %w", line+1, err)
	}
	return m, nil
}

// unescapeMountinfo undoes the kernel's octal escapes (fs/proc_namespace.c show_mountinfo
// → seq_escape with " \t\n\\").
func unescapeMountinfo(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				out.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		out.WriteByte(s[i])
	}
	return out.String()
}

// Cgroup is one lab cgroup, "hr-<runid>-<name>", in the v1 memory hierarchy and, where
// mounted, in the v2 hierarchy. Create it with Lab objects (Objects.NewCgroup) so that it
// is journaled before it exists and removed on every exit path.
type Cgroup struct {
	Name string
	// V1Memory is the directory in the v1 memory hierarchy, or "" when memory is a v2
	// controller here.
	V1Memory string
	// V2 is the directory in the unified hierarchy (memory.pressure; memory.max when memory
	// is a v2 controller), or "" when cgroup2 is not mounted.
	V2 string
}

// Dirs lists the cgroup's directories.
func (c *Cgroup) Dirs() []string {
	var out []string
	for _, d := range []string{c.V1Memory, c.V2} {
		if d != "" {
			out = append(out, d)
		}
	}
	return out
}

// WriteCgroupFile writes value to the control file file of the cgroup directory dir (a
// scenario resets a v1 counter such as memory.kmem.tcp.failcnt with it).
func WriteCgroupFile(dir, file, value string) error {
	p := filepath.Join(dir, file)
	if err := os.WriteFile(p, []byte(value), 0); err != nil {
		return fmt.Errorf("lab: write %q to %s: %w", value, p, err)
	}
	return nil
}

// SetMemoryLimit limits all memory of the cgroup: v1 memory.limit_in_bytes, or v2
// memory.max.
func (c *Cgroup) SetMemoryLimit(bytes int64) error {
	if c.V1Memory != "" {
		return WriteCgroupFile(c.V1Memory, "memory.limit_in_bytes", strconv.FormatInt(bytes, 10))
	}
	if c.V2 != "" {
		return WriteCgroupFile(c.V2, "memory.max", strconv.FormatInt(bytes, 10))
	}
	return fmt.Errorf("lab: cgroup %s has no memory controller: %w", c.Name, kernel.ErrNotSupported)
}

// SetTCPLimit limits the socket memory of the cgroup's TCP sockets
// (v1 memory.kmem.tcp.limit_in_bytes). cgroup v2 has no separate socket limit: it charges
// sockets to memory.max with everything else, so there this returns ErrNotSupported.
func (c *Cgroup) SetTCPLimit(bytes int64) error {
	if c.V1Memory == "" {
		return fmt.Errorf("lab: a TCP-only memory limit needs cgroup v1 memory.kmem.tcp.limit_in_bytes (cgroup v2 charges sockets to memory.max): %w", kernel.ErrNotSupported)
	}
	p := filepath.Join(c.V1Memory, "memory.kmem.tcp.limit_in_bytes")
	if _, err := os.Stat(p); err != nil {
		return fmt.Errorf("lab: %s: %w (removed from this kernel?)", p, kernel.ErrNotSupported)
	}
	return WriteCgroupFile(c.V1Memory, "memory.kmem.tcp.limit_in_bytes", strconv.FormatInt(bytes, 10))
}

// SetSwappiness sets the cgroup's own vm.swappiness (v1 memory.swappiness; cgroup v2 has
// none and uses the global vm.swappiness, mm/memcontrol.c mem_cgroup_swappiness).
func (c *Cgroup) SetSwappiness(v int) error {
	if c.V1Memory == "" {
		return fmt.Errorf("lab: per-cgroup swappiness needs cgroup v1 memory.swappiness: %w", kernel.ErrNotSupported)
	}
	return WriteCgroupFile(c.V1Memory, "memory.swappiness", strconv.Itoa(v))
}

// ReadInt reads a one-number file of the v1 memory directory (memory.kmem.tcp.failcnt,
// memory.max_usage_in_bytes, ...).
func (c *Cgroup) ReadInt(file string) (int64, error) {
	dir := c.V1Memory
	if dir == "" {
		dir = c.V2
	}
	p := filepath.Join(dir, file)
	b, err := os.ReadFile(p)
	if err != nil {
		return 0, fmt.Errorf("lab: %w", err)
	}
	s := strings.TrimSpace(string(b))
	if s == "max" {
		return -1, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("lab: %s: %w", p, err)
	}
	return v, nil
}

// MemoryStat reads the cgroup's memory.stat ("name value" lines, v1 or v2 layout) into
// ordered counters.
func (c *Cgroup) MemoryStat() (kernel.Counters, string, error) {
	dir := c.V1Memory
	if dir == "" {
		dir = c.V2
	}
	p := filepath.Join(dir, "memory.stat")
	b, err := os.ReadFile(p)
	if err != nil {
		return kernel.Counters{}, p, fmt.Errorf("lab: %w", err)
	}
	cs, err := parseMemoryStat(b)
	if err != nil {
		return kernel.Counters{}, p, fmt.Errorf("lab: %s: %w", p, err)
	}
	return cs, p, nil
}

// parseMemoryStat reads "name value" lines (mm/memcontrol-v1.c memcg1_stat_format,
// mm/memcontrol.c memory_stat_format). Values are bytes for sizes and counts for events;
// the names say which and differ between v1 and v2.
func parseMemoryStat(b []byte) (kernel.Counters, error) {
	var cs kernel.Counters
	for i, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			return kernel.Counters{}, fmt.Errorf("line %d: want \"name value\", got %q", i+1, line)
		}
		v, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			// hierarchical_memory_limit may exceed int64 on some kernels (PAGE_COUNTER_MAX in
			// bytes is below 2^63, but be tolerant): saturate.
			if u, uerr := strconv.ParseUint(f[1], 10, 64); uerr == nil && u > 1<<63-1 {
				v = 1<<63 - 1
			} else {
				return kernel.Counters{}, fmt.Errorf("line %d: %s: %w", i+1, f[0], err)
			}
		}
		cs.Set(f[0], v)
	}
	return cs, nil
}

// Pressure reads the cgroup's memory.pressure (v2; PSI for the cgroup's tasks only). It
// wraps ErrNotSupported when the cgroup has no v2 directory.
func (c *Cgroup) Pressure() (kernel.Pressure, string, error) {
	if c.V2 == "" {
		return kernel.Pressure{}, "", fmt.Errorf("lab: cgroup %s: no cgroup2 directory for memory.pressure: %w", c.Name, kernel.ErrNotSupported)
	}
	p := filepath.Join(c.V2, "memory.pressure")
	f, err := os.Open(p)
	if err != nil {
		return kernel.Pressure{}, p, fmt.Errorf("lab: %w", err)
	}
	defer f.Close()
	pr, err := kernel.ParsePSI("memory", f)
	if err != nil {
		return kernel.Pressure{}, p, fmt.Errorf("lab: %s: %w", p, err)
	}
	return pr, p, nil
}

// Join moves process pid (all its threads) into every directory of the cgroup.
func (c *Cgroup) Join(pid int) error {
	for _, d := range c.Dirs() {
		if err := WriteCgroupFile(d, "cgroup.procs", strconv.Itoa(pid)); err != nil {
			return err
		}
	}
	return nil
}

// Procs lists the processes in the cgroup's directories.
func (c *Cgroup) Procs() []int {
	seen := map[int]bool{}
	var out []int
	for _, d := range c.Dirs() {
		for _, pid := range cgroupProcs(d) {
			if !seen[pid] {
				seen[pid] = true
				out = append(out, pid)
			}
		}
	}
	return out
}

func cgroupProcs(dir string) []int {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// removeCgroupDir kills what is left in one of the lab's cgroup directories and removes it.
// Only processes inside this directory are signalled: they are the run's own helpers.
// rmdir fails with EBUSY while a task remains; a killed task leaves once it has exited.
// Charges of the cgroup (page cache, socket memory of sockets still open elsewhere) do not
// block rmdir: the kernel keeps an offline memcg until they are gone.
func removeCgroupDir(dir string) error {
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		for _, pid := range cgroupProcs(dir) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		err := syscall.Rmdir(dir)
		if err == nil || errors.Is(err, syscall.ENOENT) {
			return nil
		}
		if !errors.Is(err, syscall.EBUSY) || time.Now().After(deadline) {
			return fmt.Errorf("lab: remove cgroup %s: %w (tasks: %v)", dir, err, cgroupProcs(dir))
		}
		time.Sleep(20 * time.Millisecond)
	}
}
