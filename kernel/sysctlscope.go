package kernel

import (
	"maps"
	"strings"
)

// Scope says whether a sysctl has one value per network namespace or one for the host.
type Scope int

const (
	ScopeUnknown  Scope = iota // not in the table: decided by probing inside the namespace
	ScopeGlobal                // one value for the whole host
	ScopePerNetns              // one value per network namespace
)

func (s Scope) String() string {
	switch s {
	case ScopeGlobal:
		return "global"
	case ScopePerNetns:
		return "per-netns"
	}
	return "unknown"
}

// ScopeInfo is what headroom knows about where a sysctl lives, and since when.
type ScopeInfo struct {
	Key   string
	Scope Scope // on the newest kernels (verified on 6.18)
	// History says in which kernel version the scope changed, with the commit, or that it
	// was checked only by experiment.
	History string
	// PerNetnsSince is the release the key became per namespace, when a commit pins it (zero
	// otherwise): the one home of that fact, which doctor --netns's pod advice reads.
	PerNetnsSince KernelVersion
}

// The table of sysctls that headroom's rules and plan touch. Every row was checked on Linux
// 6.18 by experiment: `ip netns add`, then list /proc/sys/net inside the namespace, write
// there, and compare with the host (tune's TestScopeTableMatchesKernel repeats it as root). Where a
// key changed scope, the commit is named. A global key a namespace cannot see is absent
// there (open gives ENOENT); a global key a namespace shows read-only gives EACCES.
var scopeTable = map[string]ScopeInfo{}

func init() {
	add := func(s Scope, history string, keys ...string) {
		for _, k := range keys {
			scopeTable[k] = ScopeInfo{Key: k, Scope: s, History: history}
		}
	}
	since := func(v KernelVersion, history string, keys ...string) {
		add(ScopePerNetns, history, keys...)
		for _, k := range keys {
			i := scopeTable[k]
			i.PerNetnsSince = v
			scopeTable[k] = i
		}
	}
	since(KV(4, 15, 0), "per-netns since v4.15 (commit 356d1833b638 \"tcp: Namespace-ify sysctl_tcp_rmem and sysctl_tcp_wmem\"); global and absent from other namespaces before",
		"net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem")
	add(ScopeGlobal, "global: page-count limits for all TCP (UDP) memory of the host; absent from non-initial namespaces on 6.18. "+
		"tcp_mem was briefly per-netns from v3.3 (Glauber Costa, \"per-netns ipv4 sysctl_tcp_mem\") and is global again by v4.9 (no sysctl_tcp_mem in include/net/netns/ipv4.h)",
		"net.ipv4.tcp_mem", "net.ipv4.udp_mem")
	add(ScopeGlobal, "global; since v6.11 (commit 19249c0724f2 \"net: make net.core.{r,w}mem_{default,max} namespaced\") non-initial namespaces show the host's value read-only, before that they do not show it at all",
		"net.core.rmem_max", "net.core.wmem_max", "net.core.rmem_default", "net.core.wmem_default")
	add(ScopeGlobal, "global (per-CPU backlog and NAPI budget are host-wide); absent from non-initial namespaces on 6.18",
		"net.core.netdev_max_backlog", "net.core.netdev_budget", "net.core.netdev_budget_usecs",
		"net.core.dev_weight", "net.core.dev_weight_rx_bias", "net.core.dev_weight_tx_bias",
		"net.core.busy_poll", "net.core.busy_read", "net.core.default_qdisc",
		"net.core.flow_limit_table_len", "net.core.rps_sock_flow_entries",
		"net.core.high_order_alloc_disable", "net.core.max_skb_frags", "net.core.skb_defer_max",
		"net.core.gro_normal_batch", "net.core.netdev_tstamp_prequeue", "net.core.mem_pcpu_rsv",
		"net.core.message_cost", "net.core.message_burst", "net.core.warnings")
	add(ScopeGlobal, "global; absent from non-initial namespaces on 6.18",
		"net.ipv4.tcp_max_orphans", "net.ipv4.tcp_low_latency", "net.ipv4.inet_peer_threshold",
		"net.ipv4.inet_peer_minttl", "net.ipv4.inet_peer_maxttl", "net.ipv4.route.max_size",
		"net.ipv4.route.gc_thresh", "net.ipv4.fib_sync_mem", "net.netfilter.nf_conntrack_max",
		"net.nf_conntrack_max")
	since(KV(6, 8, 0), "per-netns since v6.8 (commit f5769faeec36 \"net: Namespace-ify sysctl_optmem_max\"); global before",
		"net.core.optmem_max")
	add(ScopePerNetns, "per-netns (struct netns_core.sysctl_somaxconn, present by v3.10)",
		"net.core.somaxconn")
	add(ScopePerNetns, "per-netns on 6.18 (verified by experiment; the version it became per-netns is not pinned here)",
		"net.ipv4.tcp_max_syn_backlog", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_orphan_retries",
		"net.ipv4.tcp_max_tw_buckets", "net.ipv4.tcp_notsent_lowat", "net.ipv4.tcp_limit_output_bytes",
		"net.ipv4.tcp_moderate_rcvbuf", "net.ipv4.tcp_adv_win_scale", "net.ipv4.tcp_slow_start_after_idle",
		"net.ipv4.tcp_window_scaling", "net.ipv4.tcp_congestion_control", "net.ipv4.tcp_syncookies",
		"net.ipv4.tcp_tw_reuse", "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_mtu_probing",
		"net.ipv4.udp_rmem_min", "net.ipv4.udp_wmem_min", "net.ipv4.ip_local_port_range",
		"net.unix.max_dgram_qlen")
}

// LookupSysctlScope returns what the table knows about key. Keys outside net.* are global: the
// vm, kernel, fs and dev trees have one value for the host whatever the namespace. Per-device
// net.ipv4.conf.*, net.ipv6.conf.* and neighbour tables belong to the namespace that holds
// the device.
func LookupSysctlScope(key string) ScopeInfo {
	if info, ok := scopeTable[key]; ok {
		return info
	}
	if !strings.HasPrefix(key, "net.") {
		return ScopeInfo{Key: key, Scope: ScopeGlobal, History: "outside net.*, which is the only tree a network namespace has its own copy of"}
	}
	for _, p := range []string{"net.ipv4.conf.", "net.ipv6.conf.", "net.ipv4.neigh.", "net.ipv6.neigh."} {
		if strings.HasPrefix(key, p) {
			return ScopeInfo{Key: key, Scope: ScopePerNetns, History: "per-netns: per-device settings live with the device's namespace"}
		}
	}
	return ScopeInfo{Key: key, Scope: ScopeUnknown}
}

// SysctlScopeTable returns a copy of the scope table, key → what it says, for tests that
// check it against the running kernel.
func SysctlScopeTable() map[string]ScopeInfo {
	return maps.Clone(scopeTable)
}
