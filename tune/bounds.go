package tune

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
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

// Kernel constants the bounds use.
const (
	intMax = math.MaxInt32 // the kernel stores these sysctls in an int: 2 GiB - 1
	// sockMinRcvbufBytes and sockMinSndbufBytes are SOCK_MIN_RCVBUF and SOCK_MIN_SNDBUF
	// (include/net/sock.h): 2048 + SKB_DATA_ALIGN(sizeof(struct sk_buff)), and twice that.
	// struct sk_buff aligns to 256 bytes on x86-64 (skbuff_head_cache objsize 256 in
	// /proc/slabinfo on 6.18). net.core.[rw]mem_* reject smaller values with EINVAL
	// (extra1 = &min_rcvbuf / &min_sndbuf in net/core/sysctl_net_core.c).
	sockMinRcvbufBytes = 2048 + 256
	sockMinSndbufBytes = 2 * sockMinRcvbufBytes
	// minFreeKBFloor is the smallest vm.min_free_kbytes the kernel itself ever computes
	// (init_per_zone_wmark_min in mm/page_alloc.c clamps to 128..65536 KB, 128..262144 KB
	// since v5.7, Joel Savitz "mm/page_alloc: increase default min_free_kbytes bound").
	minFreeKBFloor = 128
)

// bound checks one key's value.
type bound struct {
	fields int    // number of integer fields; 0 for a string value
	min    int64  // per field
	max    int64  // per field, before any RAM share
	source string // where the kernel (or headroom) sets this bound
	// ordered: fields must not decrease (min ≤ default ≤ max; low ≤ pressure ≤ high).
	ordered bool
	// ram computes the upper bound of the last field from the host's RAM; nil when none.
	ram func(l Limits) (max int64, why string, err error)
	// token: a string value must be one short token (congestion control names).
	tokenMax int
}

var bounds = map[string]bound{}

func init() {
	ints := func(fields int, min, max int64, ordered bool, source string, keys ...string) {
		for _, k := range keys {
			bounds[k] = bound{fields: fields, min: min, max: max, ordered: ordered, source: source}
		}
	}
	ints(3, 1, intMax, true, "each field an int ≥ 1 (proc_dointvec_minmax, extra1 = SYSCTL_ONE in net/ipv4/sysctl_net_ipv4.c); headroom also requires min ≤ default ≤ max",
		"net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem")
	ints(1, sockMinRcvbufBytes, intMax, false, "int, at least SOCK_MIN_RCVBUF (net/core/sysctl_net_core.c)",
		"net.core.rmem_max", "net.core.rmem_default")
	ints(1, sockMinSndbufBytes, intMax, false, "int, at least SOCK_MIN_SNDBUF (net/core/sysctl_net_core.c)",
		"net.core.wmem_max", "net.core.wmem_default")
	ints(1, 1, intMax, false, "int ≥ 1 (extra1 = SYSCTL_ONE in net/ipv4/sysctl_net_ipv4.c)",
		"net.ipv4.udp_rmem_min", "net.ipv4.udp_wmem_min")
	ints(1, 1, intMax, false, "int; headroom refuses 0, which would drop every packet queued to the per-CPU backlog",
		"net.core.netdev_max_backlog")
	ints(1, 1, intMax, false, "int; headroom refuses 0, which would let NAPI poll nothing per softirq",
		"net.core.netdev_budget", "net.core.dev_weight")
	ints(1, 0, intMax, false, "int ≥ 0 (extra1 = SYSCTL_ZERO in net/core/sysctl_net_core.c)",
		"net.core.netdev_budget_usecs", "net.core.somaxconn", "net.core.optmem_max")
	ints(1, 1, intMax, false, "int; headroom refuses 0, which leaves no room for half-open connections",
		"net.ipv4.tcp_max_syn_backlog")
	ints(1, 0, intMax, false, "int ≥ 0", "net.ipv4.tcp_max_orphans", "net.ipv4.tcp_max_tw_buckets")
	ints(1, 0, 1, false, "boolean 0 or 1", "net.ipv4.tcp_moderate_rcvbuf")
	ints(1, -31, 31, false, "-31..31 (tcp_adv_win_scale_min/max in net/ipv4/sysctl_net_ipv4.c)", "net.ipv4.tcp_adv_win_scale")
	ints(1, 0, 2, false, "0..2 (overcommit_policy_handler, extra2 = SYSCTL_TWO in mm/util.c)", "vm.overcommit_memory")
	ints(1, 0, intMax, false, "int ≥ 0", "vm.overcommit_ratio", "vm.vfs_cache_pressure", "vm.watermark_boost_factor")
	ints(1, 0, 200, false, "0..200 (extra2 = SYSCTL_TWO_HUNDRED since v5.8; 0..100 before)", "vm.swappiness")
	ints(1, 1, 3000, false, "1..3000 (extra1 = SYSCTL_ONE, extra2 = SYSCTL_THREE_THOUSAND in mm/page_alloc.c)", "vm.watermark_scale_factor")
	ints(1, 0, 100, false, "percent 0..100", "vm.dirty_ratio", "vm.dirty_background_ratio", "vm.compaction_proactiveness")
	ints(1, 0, 1000, false, "0..1000 (extra2 = &max_extfrag_threshold in mm/compaction.c)", "vm.extfrag_threshold")

	bounds["vm.min_free_kbytes"] = bound{fields: 1, min: minFreeKBFloor, max: intMax,
		source: "kernel floor 128 KB (init_per_zone_wmark_min, mm/page_alloc.c)",
		ram: func(l Limits) (int64, string, error) {
			if l.MemTotalKB == 0 {
				return 0, "", fmt.Errorf("MemTotal is unknown, so the %d %% of RAM bound cannot be checked", MinFreeMaxPercentOfRAM)
			}
			return int64(l.MemTotalKB * MinFreeMaxPercentOfRAM / 100),
				fmt.Sprintf("%d %% of MemTotal %d KB (headroom policy: the reserve is taken from every allocation's headroom)", MinFreeMaxPercentOfRAM, l.MemTotalKB), nil
		}}
	sockMem := bound{fields: 3, min: 1, max: math.MaxInt64, ordered: true,
		source: "three page counts low ≤ pressure ≤ high (proc_doulongvec_minmax)",
		ram: func(l Limits) (int64, string, error) {
			if l.MemTotalKB == 0 || l.PageSizeBytes == 0 {
				return 0, "", fmt.Errorf("MemTotal or the page size is unknown, so the %d %% of RAM bound cannot be checked", SocketMemMaxPercentOfRAM)
			}
			pages := l.MemTotalKB * 1024 / l.PageSizeBytes
			return int64(pages * SocketMemMaxPercentOfRAM / 100),
				fmt.Sprintf("%d %% of MemTotal %d KB in %d-byte pages (headroom policy)", SocketMemMaxPercentOfRAM, l.MemTotalKB, l.PageSizeBytes), nil
		}}
	bounds["net.ipv4.tcp_mem"] = sockMem
	bounds["net.ipv4.udp_mem"] = sockMem
	// The kernel checks the name itself, and may load a module of that name on write
	// (tcp_set_default_congestion_control → request_module), so availability cannot be
	// known before writing; the shape can.
	bounds["net.ipv4.tcp_congestion_control"] = bound{tokenMax: 15,
		source: "one name of at most 15 characters (TCP_CA_NAME_MAX 16 with the NUL)"}
	bounds["net.core.default_qdisc"] = bound{tokenMax: 15,
		source: "one qdisc name of at most 15 characters (Qdisc_ops.id is char[IFNAMSIZ]); the kernel checks the name on write"}
	// tcp_notsent_lowat is an unsigned int (proc_douintvec in net/ipv4/sysctl_net_ipv4.c);
	// the default UINT_MAX means no limit. headroom refuses values below one 4 KiB page,
	// which would wake a writer for every segment.
	bounds["net.ipv4.tcp_notsent_lowat"] = bound{fields: 1, min: 4096, max: math.MaxUint32,
		source: "unsigned int 4096..4294967295 (proc_douintvec; default 4294967295 = no limit); headroom refuses less than a page"}
}

// BoundedKeys lists the sysctls headroom will write, sorted.
func BoundedKeys() []string {
	keys := make([]string, 0, len(bounds))
	for k := range bounds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// BoundSource says what bounds key and where the bound comes from; "" for an unbounded key.
func BoundSource(key string) string {
	b, ok := bounds[key]
	if !ok {
		return ""
	}
	switch {
	case key == "vm.min_free_kbytes":
		return fmt.Sprintf("%s; at most %d %% of MemTotal (headroom policy)", b.source, MinFreeMaxPercentOfRAM)
	case b.ram != nil:
		return fmt.Sprintf("%s; high at most %d %% of MemTotal (headroom policy)", b.source, SocketMemMaxPercentOfRAM)
	case b.fields == 0:
		return b.source
	}
	return fmt.Sprintf("%d..%d: %s", b.min, b.max, b.source)
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
	b, ok := bounds[key]
	if !ok {
		return &BoundError{Key: key, Value: value,
			Problem: "headroom has no safety bound for this key, so it will not write it (bounded keys: headroom tune --list-bounds)"}
	}
	if b.fields == 0 {
		v := strings.TrimSpace(value)
		if v == "" || len(v) > b.tokenMax || strings.ContainsAny(v, " \t") {
			return &BoundError{Key: key, Value: value, Problem: "not a single name", Bound: b.source}
		}
		return nil
	}
	f := strings.Fields(value)
	if len(f) != b.fields {
		return &BoundError{Key: key, Value: value, Problem: fmt.Sprintf("want %d integer field(s), got %d", b.fields, len(f)), Bound: b.source}
	}
	vals := make([]int64, len(f))
	for i, s := range f {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return &BoundError{Key: key, Value: value, Problem: fmt.Sprintf("field %d (%q) is not an integer", i+1, s), Bound: b.source}
		}
		vals[i] = v
		if v < b.min {
			return &BoundError{Key: key, Value: value, Problem: fmt.Sprintf("field %d = %d is below the minimum %d", i+1, v, b.min), Bound: b.source}
		}
		if v > b.max {
			return &BoundError{Key: key, Value: value, Problem: fmt.Sprintf("field %d = %d is above the maximum %d", i+1, v, b.max), Bound: b.source}
		}
		if b.ordered && i > 0 && v < vals[i-1] {
			return &BoundError{Key: key, Value: value, Problem: fmt.Sprintf("field %d = %d is smaller than field %d = %d", i+1, v, i, vals[i-1]), Bound: b.source}
		}
	}
	if b.ram != nil {
		max, why, err := b.ram(l)
		if err != nil {
			return &BoundError{Key: key, Value: value, Problem: err.Error(), Bound: b.source}
		}
		if last := vals[len(vals)-1]; last > max {
			return &BoundError{Key: key, Value: value, Problem: fmt.Sprintf("%d is above %d", last, max), Bound: why}
		}
	}
	return nil
}
