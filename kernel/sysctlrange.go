package kernel

import (
	"maps"
	"math"
	"slices"
)

// SysctlRange is what a sysctl's handler accepts when it is written: how many fields, their C
// type, the bounds the handler checks (extra1/extra2 of its ctl_table entry), and where these
// changed between kernel versions. It is the kernel's word only; what headroom itself is
// willing to write (tune's bounds) narrows it further, and doctor's out-of-range rule reads it
// to say which pasted values the kernel refuses.
type SysctlRange struct {
	Fields int    // number of values the key holds (1 or 3); 0 for a name (TokenMax)
	Type   string // "int" (INT_MAX), "uint" (UINT_MAX), "long" (unsigned long: no upper bound here)
	Min    int64  // per field, for int and uint; a long has none but the sign (NegativeRefusedSince)
	Max    int64  // per field; 0: the type's maximum
	// Ordered: a triplet read as min ≤ default/pressure ≤ max, which the kernel accepts in any
	// order; or a pair (low, high) whose handler refuses high < low.
	Ordered bool
	Source  string // the handler and file that set the bounds
	// Since is the first kernel where Max applies; before it OldMax (0: the key did not exist).
	Since     [2]int
	OldMax    int64
	OldSource string
	// NegativeRefusedSince is the kernel from which a negative field of a long vector fails
	// with EINVAL; before it the write is ignored silently and the old value stays.
	NegativeRefusedSince [2]int
	TokenMax             int // a name: its longest length
}

// TypeMax is the largest value the field's C type holds.
func (r SysctlRange) TypeMax() int64 {
	switch r.Type {
	case "uint":
		return math.MaxUint32
	case "long":
		return math.MaxInt64
	}
	return math.MaxInt32
}

// MaxAt is the largest value the kernel accepts, and why, on kernel v (the newest bound when
// the version is not known).
func (r SysctlRange) MaxAt(v KernelVersion, known bool) (int64, string) {
	max, why := r.Max, r.Source
	if r.Since != [2]int{} && known && !v.AtLeast(r.Since[0], r.Since[1], 0) {
		max, why = r.OldMax, r.OldSource
	}
	if max == 0 {
		max = r.TypeMax()
	}
	return max, why
}

// LookupSysctlRange returns the range of a full key.
func LookupSysctlRange(key string) (SysctlRange, bool) {
	r, ok := sysctlRanges[key]
	return r, ok
}

// SysctlRangeKeys lists the keys with a known range, sorted.
func SysctlRangeKeys() []string {
	return slices.Sorted(maps.Keys(sysctlRanges))
}

// sockMinRcvbuf and sockMinSndbuf are SOCK_MIN_RCVBUF and SOCK_MIN_SNDBUF (include/net/sock.h):
// 2048 + SKB_DATA_ALIGN(sizeof(struct sk_buff)), and twice that. struct sk_buff aligns to 256
// bytes on x86-64 (skbuff_head_cache objsize 256 in /proc/slabinfo on 6.18); the exact floor
// depends on the build.
const (
	sockMinRcvbuf = 2048 + 256
	sockMinSndbuf = 2 * sockMinRcvbuf
	anyInt        = math.MinInt32 // proc_dointvec without bounds: any int is accepted
)

var sysctlRanges = map[string]SysctlRange{}

func init() {
	ints := func(r SysctlRange, keys ...string) {
		if r.Type == "" {
			r.Type = "int"
		}
		if r.Fields == 0 {
			r.Fields = 1
		}
		for _, k := range keys {
			sysctlRanges[k] = r
		}
	}
	ints(SysctlRange{Fields: 3, Min: 1, Ordered: true, Source: "proc_dointvec_minmax, extra1 = SYSCTL_ONE (net/ipv4/sysctl_net_ipv4.c)"},
		"net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem")
	ints(SysctlRange{Fields: 3, Type: "long", Ordered: true, NegativeRefusedSince: [2]int{5, 17}, Source: "proc_doulongvec_minmax, pages"},
		"net.ipv4.tcp_mem", "net.ipv4.udp_mem")
	ints(SysctlRange{Min: sockMinRcvbuf, Source: "proc_dointvec_minmax, extra1 = SOCK_MIN_RCVBUF (2048 + sizeof(struct sk_buff) aligned: 2304 bytes on x86_64 6.x; the exact floor depends on the build) (net/core/sysctl_net_core.c)"},
		"net.core.rmem_max", "net.core.rmem_default")
	ints(SysctlRange{Min: sockMinSndbuf, Source: "proc_dointvec_minmax, extra1 = SOCK_MIN_SNDBUF = 2 × SOCK_MIN_RCVBUF (about 4608 bytes on x86_64 6.x) (net/core/sysctl_net_core.c)"},
		"net.core.wmem_max", "net.core.wmem_default")
	ints(SysctlRange{Min: 1, Source: "proc_dointvec_minmax, extra1 = SYSCTL_ONE (net/ipv4/sysctl_net_ipv4.c)"},
		"net.ipv4.udp_rmem_min", "net.ipv4.udp_wmem_min")
	ints(SysctlRange{Min: anyInt, Source: "proc_dointvec (int)"},
		"net.core.netdev_max_backlog", "net.core.netdev_budget", "net.core.dev_weight",
		"net.ipv4.tcp_max_orphans", "net.ipv4.tcp_max_syn_backlog", "net.ipv4.tcp_max_tw_buckets")
	ints(SysctlRange{Min: 0, Source: "proc_dointvec_minmax, extra1 = SYSCTL_ZERO (4.12+, net/core/sysctl_net_core.c)"},
		"net.core.netdev_budget_usecs")
	ints(SysctlRange{Min: 0, Source: "proc_dointvec_minmax, extra1 = SYSCTL_ZERO (net/core/sysctl_net_core.c)"},
		"net.core.optmem_max")
	ints(SysctlRange{Min: anyInt, Source: "int (proc_dointvec_minmax with extra1 = 0 on recent kernels, proc_dointvec on old ones)"},
		"net.core.somaxconn")
	ints(SysctlRange{Min: 0, Max: 1, Source: "boolean 0 or 1"}, "net.ipv4.tcp_moderate_rcvbuf")
	ints(SysctlRange{Min: -31, Max: 31, Source: "proc_dointvec_minmax, -31..31 (tcp_adv_win_scale_min/max in net/ipv4/sysctl_net_ipv4.c)"},
		"net.ipv4.tcp_adv_win_scale")
	ints(SysctlRange{Min: 1000, Max: 120000, Since: [2]int{6, 15}, Source: "proc_dointvec_minmax, 1000..120000 ms (6.15+, commit 1280c26228bd)"},
		"net.ipv4.tcp_rto_max_ms")
	ints(SysctlRange{Type: "uint", Min: 0, Source: "proc_douintvec (unsigned int; default 4294967295 = no limit)"},
		"net.ipv4.tcp_notsent_lowat")
	ints(SysctlRange{Min: 0, Source: "min_free_kbytes_sysctl_handler → proc_dointvec_minmax, extra1 = SYSCTL_ZERO (mm/page_alloc.c)"},
		"vm.min_free_kbytes")
	ints(SysctlRange{Min: 0, Max: 2, Source: "proc_dointvec_minmax, 0..2 (overcommit_policy_handler, extra2 = SYSCTL_TWO in mm/util.c)"},
		"vm.overcommit_memory")
	ints(SysctlRange{Min: 0, Max: 200, Since: [2]int{5, 8}, OldMax: 100, Source: "proc_dointvec_minmax, 0..200 since 5.8 (commit c843966c556d, extra2 = SYSCTL_TWO_HUNDRED)", OldSource: "0..100 before 5.8"},
		"vm.swappiness")
	ints(SysctlRange{Min: 0, Source: "int ≥ 0"}, "vm.overcommit_ratio", "vm.vfs_cache_pressure", "vm.watermark_boost_factor")
	ints(SysctlRange{Min: 1, Max: 3000, Source: "1..3000 (extra1 = SYSCTL_ONE, extra2 = SYSCTL_THREE_THOUSAND in mm/page_alloc.c)"},
		"vm.watermark_scale_factor")
	ints(SysctlRange{Min: 0, Max: 100, Source: "percent 0..100"}, "vm.dirty_ratio", "vm.dirty_background_ratio", "vm.compaction_proactiveness")
	ints(SysctlRange{Min: 0, Max: 1000, Source: "0..1000 (extra2 = &max_extfrag_threshold in mm/compaction.c)"}, "vm.extfrag_threshold")
	ints(SysctlRange{Min: anyInt, Source: "int (its lower bound changed between versions: none, 0, then 1)"}, "net.netfilter.nf_conntrack_max")
	// A pair of ports: ipv4_local_port_range reads both into a scratch copy with
	// proc_dointvec_minmax (extra1 = ip_local_port_range_min {1, 1}, extra2 =
	// ip_local_port_range_max {65535, 65535}) and stores them only if both pass and the first is
	// not above the second, so a refused write changes neither (net/ipv4/sysctl_net_ipv4.c).
	ints(SysctlRange{Fields: 2, Min: 1, Max: 65535, Ordered: true, Source: "ipv4_local_port_range → proc_dointvec_minmax, 1..65535 per port (ip_local_port_range_min/max in net/ipv4/sysctl_net_ipv4.c); a refused write keeps the old range"},
		"net.ipv4.ip_local_port_range")
	// Names: the kernel checks the name itself on write, and may load a module of that name
	// (tcp_set_default_congestion_control → request_module), so only the shape is known.
	sysctlRanges["net.ipv4.tcp_congestion_control"] = SysctlRange{TokenMax: 15,
		Source: "one name of at most 15 characters (TCP_CA_NAME_MAX 16 with the NUL)"}
	sysctlRanges["net.core.default_qdisc"] = SysctlRange{TokenMax: 15,
		Source: "one qdisc name of at most 15 characters (Qdisc_ops.id is char[IFNAMSIZ]); the kernel checks the name on write"}
}

// socketBufferBytesSysctls: the net.core socket-buffer sysctls, each one int of bytes
// (net/core/sysctl_net_core.c: sysctl_rmem_max, sysctl_wmem_max, sysctl_rmem_default,
// sysctl_wmem_default; sk_rcvbuf/sk_sndbuf are bytes, sock_setsockopt caps SO_RCVBUF at
// rmem_max). tcp_mem and udp_mem are pages and tcp_rmem three values: none of them here.
var socketBufferBytesSysctls = map[string]bool{
	"net.core.rmem_max": true, "net.core.wmem_max": true, "net.core.rmem_default": true, "net.core.wmem_default": true,
}

// SysctlInBytes reports whether key's one value is a size in bytes, so a size stated with a
// unit ("rmem_max was 8 MiB") can be written as the key's value.
func SysctlInBytes(key string) bool { return socketBufferBytesSysctls[NormaliseSysctlKey(key)] }
