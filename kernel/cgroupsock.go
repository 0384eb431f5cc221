package kernel

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
)

// CgroupSock is the socket memory charged to one memory cgroup.
//
// cgroup v2 charges socket buffers to the cgroup's memory like any other page and prints
// the total as "sock" in memory.stat (mm/memcontrol.c memory_stat_format, MEMCG_SOCK,
// 4.5+); there is no separate limit: memory.max bounds it with everything else, and a
// cgroup at its limit puts its sockets under memory pressure
// (mem_cgroup_under_socket_pressure). cgroup v1 charges TCP only to its own counter,
// memory.kmem.tcp.* (mm/memcontrol-v1.c, net/ipv4/tcp_memcontrol.c before 4.5), with its
// own limit; failcnt counts the charges refused at that limit, each a TCP allocation that
// failed as if tcp_mem's hard limit had been reached. v1 counters are hierarchical when
// use_hierarchy is 1 (always since 5.x): a parent's usage includes its children's.
type CgroupSock struct {
	Path    string `json:"path"` // "/kubepods/burstable/pod…", relative to the hierarchy's root
	Version int    `json:"version"`
	Bytes   int64  `json:"bytes"`
	// LimitBytes is v1's memory.kmem.tcp.limit_in_bytes or v2's memory.max; 0 when unlimited.
	LimitBytes    int64 `json:"limit_bytes,omitempty"`
	MaxUsageBytes int64 `json:"max_usage_bytes,omitempty"` // v1 memory.kmem.tcp.max_usage_in_bytes
	Failcnt       int64 `json:"failcnt,omitempty"`         // v1 memory.kmem.tcp.failcnt
	HasFailcnt    bool  `json:"has_failcnt,omitempty"`
}

// Where the memory controller is mounted: cgroup v2 unified at /sys/fs/cgroup, or beside v1
// at /sys/fs/cgroup/unified (hybrid, where memory is usually a v1 controller), and v1's
// memory hierarchy.
const (
	cgroupV2Dir       = "sys/fs/cgroup"
	cgroupV2HybridDir = "sys/fs/cgroup/unified"
	cgroupV1MemDir    = "sys/fs/cgroup/memory"
)

// Bounds of the walk: a node runs hundreds of pods, each a few cgroups deep.
const (
	cgroupMaxDirs  = 8192
	cgroupMaxDepth = 12
)

// pageCounterUnlimited: a v1 limit at or above this is PAGE_COUNTER_MAX pages, "no limit".
const pageCounterUnlimited = 1 << 60

// ReadCgroupSockets reads the socket memory of every memory cgroup under root, largest
// first, skipping cgroups that hold none and have no failures. It reads v1's memory
// hierarchy and v2's (either mount place) where each has the memory controller.
func ReadCgroupSockets(root Root) ([]CgroupSock, error) {
	var out []CgroupSock
	found := false
	dirs := 0
	for _, base := range []string{cgroupV2Dir, cgroupV2HybridDir} {
		ctl, err := root.ReadFile(path.Join(base, "cgroup.controllers"))
		if err != nil || !slices.Contains(strings.Fields(string(ctl)), "memory") {
			continue
		}
		found = true
		if err := walkCgroups(root, base, "/", 0, &dirs, func(dir, rel string) {
			if c, ok := readCgroupV2(root, dir, rel); ok {
				out = append(out, c)
			}
		}); err != nil {
			return nil, err
		}
		break
	}
	if _, err := root.ReadFile(path.Join(cgroupV1MemDir, "memory.kmem.tcp.usage_in_bytes")); err == nil {
		found = true
		if err := walkCgroups(root, cgroupV1MemDir, "/", 0, &dirs, func(dir, rel string) {
			if c, ok := readCgroupV1(root, dir, rel); ok {
				out = append(out, c)
			}
		}); err != nil {
			return nil, err
		}
	}
	if !found {
		return nil, fmt.Errorf("no memory cgroup with socket accounting under /%s: %w", cgroupV2Dir, ErrNotSupported)
	}
	slices.SortStableFunc(out, func(a, b CgroupSock) int {
		if c := cmp.Compare(b.Bytes, a.Bytes); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	return out, nil
}

func walkCgroups(root Root, dir, rel string, depth int, dirs *int, visit func(dir, rel string)) error {
	*dirs++
	if *dirs > cgroupMaxDirs {
		return fmt.Errorf("/%s: more than %d cgroups", dir, cgroupMaxDirs)
	}
	visit(dir, rel)
	if depth >= cgroupMaxDepth {
		return nil
	}
	ents, err := root.ReadDir(dir)
	if err != nil {
		if errors.Is(err, ErrNotSupported) { // removed while walking
			return nil
		}
		return err
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		if err := walkCgroups(root, path.Join(dir, e.Name()), path.Join(rel, e.Name()), depth+1, dirs, visit); err != nil {
			return err
		}
	}
	return nil
}

func readInt(root Root, p string) (int64, bool) {
	b, err := root.ReadFile(p)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return n, err == nil
}

func readCgroupV1(root Root, dir, rel string) (CgroupSock, bool) {
	c := CgroupSock{Path: rel, Version: 1}
	var ok bool
	if c.Bytes, ok = readInt(root, path.Join(dir, "memory.kmem.tcp.usage_in_bytes")); !ok {
		return c, false
	}
	if l, ok := readInt(root, path.Join(dir, "memory.kmem.tcp.limit_in_bytes")); ok && l < pageCounterUnlimited {
		c.LimitBytes = l
	}
	c.MaxUsageBytes, _ = readInt(root, path.Join(dir, "memory.kmem.tcp.max_usage_in_bytes"))
	c.Failcnt, c.HasFailcnt = readInt(root, path.Join(dir, "memory.kmem.tcp.failcnt"))
	return c, c.Bytes > 0 || c.Failcnt > 0
}

func readCgroupV2(root Root, dir, rel string) (CgroupSock, bool) {
	c := CgroupSock{Path: rel, Version: 2}
	b, err := root.ReadFile(path.Join(dir, "memory.stat"))
	if err != nil {
		return c, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	found := false
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), " ")
		if ok && k == "sock" {
			c.Bytes, err = strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			found = err == nil
			break
		}
	}
	if !found {
		return c, false
	}
	if l, ok := readInt(root, path.Join(dir, "memory.max")); ok { // "max" does not parse: unlimited
		c.LimitBytes = l
	}
	return c, c.Bytes > 0
}
