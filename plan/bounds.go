package plan

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"headroom/kernel"
)

// Limits are the host facts that some bounds depend on.
type Limits struct {
	MemTotalKB    uint64 // /proc/meminfo MemTotal; 0 when unknown
	PageSizeBytes uint64 // for tcp_mem and udp_mem, which count pages
}

// Shares of RAM above which headroom refuses a value. They are headroom's policy, stated so
// that an operator who disagrees knows exactly which line to argue with.
const (
	// MinFreeMaxPercentOfRAM: vm.min_free_kbytes reserves memory that the allocator keeps
	// free at all times (Documentation/admin-guide/sysctl/vm.rst: "Setting this too high
	// will OOM your machine instantly"). The seeds' fixes stay under it: 20000 KB on a
	// 512 MB NAS is 3.8 %.
	MinFreeMaxPercentOfRAM = 5
	// SocketMemMaxPercentOfRAM: the third field of tcp_mem or udp_mem is the page count at
	// which the kernel refuses socket memory. The kernel's own default is about 9.4 % of
	// free buffer pages (tcp_init_mem in net/ipv4/tcp.c: limit/4*3*2 with limit = pages/16);
	// above half of RAM, socket buffers alone can push the host into OOM before the limit
	// bites (seed 004: tcp_mem too high exhausted lowmem).
	SocketMemMaxPercentOfRAM = 50
)

// policy is what headroom adds to the kernel's range (kernel.LookupSysctlRange) for a key it
// writes: a higher minimum where the kernel accepts values that would break the host, and an
// upper bound taken from the host's RAM. A key headroom writes has a policy entry, even an
// empty one; every other key is refused.
type policy struct {
	min    int64  // per field; used when above the kernel's minimum
	minWhy string // why headroom refuses less than min
	// ram computes the upper bound of the last field from the host's RAM; nil when none.
	ram func(l Limits) (max int64, why string, err error)
}

var policies = map[string]policy{}

func init() {
	keep := func(keys ...string) {
		for _, k := range keys {
			policies[k] = policy{}
		}
	}
	floor := func(min int64, why string, keys ...string) {
		for _, k := range keys {
			policies[k] = policy{min: min, minWhy: why}
		}
	}
	keep("net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem", "net.core.rmem_max", "net.core.rmem_default",
		"net.core.wmem_max", "net.core.wmem_default", "net.ipv4.udp_rmem_min", "net.ipv4.udp_wmem_min",
		"net.core.netdev_budget_usecs", "net.core.optmem_max", "net.ipv4.tcp_moderate_rcvbuf",
		"net.ipv4.tcp_adv_win_scale", "vm.overcommit_memory", "vm.overcommit_ratio", "vm.vfs_cache_pressure",
		"vm.watermark_boost_factor", "vm.swappiness", "vm.watermark_scale_factor", "vm.dirty_ratio",
		"vm.dirty_background_ratio", "vm.compaction_proactiveness", "vm.extfrag_threshold",
		"net.ipv4.tcp_congestion_control", "net.core.default_qdisc")
	floor(1, "headroom refuses 0, which would drop every packet queued to the per-CPU backlog", "net.core.netdev_max_backlog")
	floor(1, "headroom refuses 0, which would let NAPI poll nothing per softirq", "net.core.netdev_budget", "net.core.dev_weight")
	floor(1, "headroom refuses 0, which leaves no room for half-open connections", "net.ipv4.tcp_max_syn_backlog")
	floor(0, "headroom refuses a negative value", "net.core.somaxconn", "net.ipv4.tcp_max_orphans", "net.ipv4.tcp_max_tw_buckets")
	// the default UINT_MAX of tcp_notsent_lowat means no limit; below one 4 KiB page a writer
	// would wake for every segment.
	floor(4096, "headroom refuses less than a page, which would wake a writer for every segment", "net.ipv4.tcp_notsent_lowat")
	policies["vm.min_free_kbytes"] = policy{min: minFreeKBFloor,
		minWhy: "the smallest value the kernel itself computes (init_per_zone_wmark_min in mm/page_alloc.c clamps to 128..65536 KB, 128..262144 KB since v5.7)",
		ram: func(l Limits) (int64, string, error) {
			if l.MemTotalKB == 0 {
				return 0, "", fmt.Errorf("MemTotal is unknown, so the %d %% of RAM bound cannot be checked", MinFreeMaxPercentOfRAM)
			}
			return int64(l.MemTotalKB * MinFreeMaxPercentOfRAM / 100),
				fmt.Sprintf("%d %% of MemTotal %d KB (headroom policy: the reserve is taken from every allocation's headroom)", MinFreeMaxPercentOfRAM, l.MemTotalKB), nil
		}}
	sockMem := policy{min: 1, minWhy: "headroom refuses a page count of 0",
		ram: func(l Limits) (int64, string, error) {
			if l.MemTotalKB == 0 || l.PageSizeBytes == 0 {
				return 0, "", fmt.Errorf("MemTotal or the page size is unknown, so the %d %% of RAM bound cannot be checked", SocketMemMaxPercentOfRAM)
			}
			pages := l.MemTotalKB * 1024 / l.PageSizeBytes
			return int64(pages * SocketMemMaxPercentOfRAM / 100),
				fmt.Sprintf("%d %% of MemTotal %d KB in %d-byte pages (headroom policy)", SocketMemMaxPercentOfRAM, l.MemTotalKB, l.PageSizeBytes), nil
		}}
	policies["net.ipv4.tcp_mem"] = sockMem
	policies["net.ipv4.udp_mem"] = sockMem
	for k := range policies {
		if _, ok := kernel.LookupSysctlRange(k); !ok {
			panic("tune: policy for " + k + " without a kernel range in kernel/sysctlrange.go")
		}
	}
}

// minFreeKBFloor is the smallest vm.min_free_kbytes the kernel itself ever computes
// (init_per_zone_wmark_min in mm/page_alloc.c clamps to 128..65536 KB, 128..262144 KB since
// v5.7, Joel Savitz "mm/page_alloc: increase default min_free_kbytes bound").
const minFreeKBFloor = 128

// bound is a key's kernel range narrowed by headroom's policy.
type bound struct {
	kernel.SysctlRange
	policy
}

func lookupBound(key string) (bound, bool) {
	p, ok := policies[key]
	if !ok {
		return bound{}, false
	}
	r, _ := kernel.LookupSysctlRange(key)
	b := bound{SysctlRange: r, policy: p}
	if r.Type == "long" {
		b.Min = 0 // an unsigned long has no minimum but its sign
	}
	if p.minWhy != "" && p.min >= b.Min {
		b.Min = p.min
		b.Source = r.Source + "; " + p.minWhy
	}
	return b, true
}

// BoundedKeys lists the sysctls headroom will write, sorted.
func BoundedKeys() []string {
	return slices.Sorted(maps.Keys(policies))
}

// BoundSource says what bounds key and where the bound comes from; "" for an unbounded key.
func BoundSource(key string) string {
	b, ok := lookupBound(key)
	if !ok {
		return ""
	}
	maxV, _ := b.MaxAt(kernel.KernelVersion{}, false)
	switch {
	case key == "vm.min_free_kbytes":
		return fmt.Sprintf("%s; at most %d %% of MemTotal (headroom policy)", b.Source, MinFreeMaxPercentOfRAM)
	case b.ram != nil:
		return fmt.Sprintf("%s; high at most %d %% of MemTotal (headroom policy)", b.Source, SocketMemMaxPercentOfRAM)
	case b.Fields == 0:
		return b.Source
	}
	return fmt.Sprintf("%d..%d: %s", b.Min, maxV, b.Source)
}

// BoundError refuses a value, naming the bound it breaks.
type BoundError struct {
	Key, Value string
	Problem    string // "above the maximum 2147483647"
	Bound      string // where the bound comes from
}

func (e *BoundError) Error() string {
	s := fmt.Sprintf("%s = %q refused: %s", e.Key, e.Value, e.Problem)
	if e.Bound != "" {
		s += " (bound: " + e.Bound + ")"
	}
	return s
}

// CheckBound checks a sysctl value against its key's safety bound. A key without a bound is
// refused: headroom writes only what it knows the limits of.
func CheckBound(key, value string, l Limits) error {
	b, ok := lookupBound(key)
	if !ok {
		return &BoundError{Key: key, Value: value,
			Problem: "headroom has no safety bound for this key, so it will not write it (bounded keys: headroom tune --list-bounds)"}
	}
	if b.Fields == 0 {
		v := strings.TrimSpace(value)
		if v == "" || len(v) > b.TokenMax || strings.ContainsAny(v, " \t") {
			return &BoundError{Key: key, Value: value, Problem: "not a single name", Bound: b.Source}
		}
		return nil
	}
	// The version is not known here: the newest kernel's maximum (swappiness 200, not the
	// 100 of kernels before 5.8, which refuse more with EINVAL and leave the value as it was).
	maxV, _ := b.MaxAt(kernel.KernelVersion{}, false)
	f := strings.Fields(value)
	if len(f) != b.Fields {
		return &BoundError{Key: key, Value: value, Problem: fmt.Sprintf("want %d integer field(s), got %d", b.Fields, len(f)), Bound: b.Source}
	}
	vals := make([]int64, len(f))
	for i, s := range f {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return &BoundError{Key: key, Value: value, Problem: fmt.Sprintf("field %d (%q) is not an integer", i+1, s), Bound: b.Source}
		}
		vals[i] = v
		if v < b.Min {
			return &BoundError{Key: key, Value: value, Problem: fmt.Sprintf("field %d = %d is below the minimum %d", i+1, v, b.Min), Bound: b.Source}
		}
		if v > maxV {
			return &BoundError{Key: key, Value: value, Problem: fmt.Sprintf("field %d = %d is above the maximum %d", i+1, v, maxV), Bound: b.Source}
		}
		// The kernel takes a triplet in any order; headroom writes only min ≤ default ≤ max.
		if b.Ordered && i > 0 && v < vals[i-1] {
			return &BoundError{Key: key, Value: value, Problem: fmt.Sprintf("field %d = %d is smaller than field %d = %d", i+1, v, i, vals[i-1]), Bound: b.Source}
		}
	}
	if b.ram != nil {
		max, why, err := b.ram(l)
		if err != nil {
			return &BoundError{Key: key, Value: value, Problem: err.Error(), Bound: b.Source}
		}
		if last := vals[len(vals)-1]; last > max {
			return &BoundError{Key: key, Value: value, Problem: fmt.Sprintf("%d is above %d", last, max), Bound: why}
		}
	}
	return nil
}
