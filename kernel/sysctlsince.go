package kernel

import (
	"fmt"
	"maps"
	"slices"
)

// SysctlSince is when a sysctl key came and went: the one home of that fact (issue 17), read
// by diagnose (a finding's change is not offered as a command on a kernel without the key)
// and by plan (a setting the target kernel lacks is left out). It answers only what is
// established; everything else is "not known", which never blocks a suggestion.
//
// Three releases bound what is known:
//
//	AbsentBefore: every release older than it lacks the key (zero: no release is known to);
//	Since:        it and every newer release (until Gone) have the key (zero: not known);
//	Gone:         it and every newer release lack the key again (zero: still present).
//
// When the commit that added a key is known, AbsentBefore = Since. When only a header or a
// document of some release is at hand, the two differ and the releases between them are not
// known either way (the 2.5 development series for the keys 2.6.0 brought; the 2.4 releases
// after 2.4.17, whose include/linux/sysctl.h was read, for keys that 2.4.17 lacks).
//
// Vendor kernels backport keys (RHEL 7's 3.10.0-33 has net.core.default_qdisc of 3.12), so
// a reader that sees the key on the host itself trusts the host over this table; this table
// is for the kernel as released upstream.
type SysctlSince struct {
	All          bool // in every release headroom reads (2.2 and 2.4 on)
	AbsentBefore KernelVersion
	Since        KernelVersion
	Source       string // where AbsentBefore and Since come from
	Gone         KernelVersion
	GoneSource   string
	// Older is what a release before Since has instead, "" when none is recorded.
	Older string
}

// sysctlHeader2417 is the evidence for keys 2.4.17 lacks: its include/linux/sysctl.h
// numbers every key the kernel registers (CTL_VM ends at VM_MAX_READAHEAD=13; /proc/sys/net/core
// at NET_CORE_MOD_CONG=16, without DEV_WEIGHT, SOMAXCONN or BUDGET; /proc/sys/net/ipv4 at
// NET_IPV4_ICMP_RATEMASK=90; CTL_NET has no NET_NETFILTER).
const sysctlHeader2417 = "absent from 2.4.17's include/linux/sysctl.h"

var sysctlSince = map[string]SysctlSince{}

func init() {
	set := func(h SysctlSince, keys ...string) {
		for _, k := range keys {
			sysctlSince[k] = h
		}
	}
	// added is a key whose first release is known exactly.
	added := func(v KernelVersion, src string) SysctlSince {
		return SysctlSince{AbsentBefore: v, Since: v, Source: src}
	}
	// After 2.4.17: a key that 2.4.17 lacks, first present in some later release, since
	// when is not established (since is the oldest release known to have it, or zero).
	after2417 := func(since KernelVersion, src string) SysctlSince {
		if src != "" {
			src = "; " + src
		}
		return SysctlSince{AbsentBefore: KV(2, 4, 18), Since: since, Source: sysctlHeader2417 + src}
	}
	// The 2.5 development series: keys every 2.6 release has and no 2.4 release does; which
	// 2.5.x added them is not recorded here.
	of25 := func(src string) SysctlSince {
		return SysctlSince{AbsentBefore: KV(2, 5, 0), Since: KV(2, 6, 0), Source: src}
	}

	// Present from 2.2 on: the 2.2 and 2.4 headers number them (NET_CORE_WMEM_MAX=1 …
	// NET_CORE_OPTMEM_MAX=10, VM_OVERCOMMIT_MEMORY=5, NET_IPV4_TCP_RETRIES2=48,
	// NET_TCP_MAX_SYN_BACKLOG=55) and Documentation/sysctl/net.txt of 2.2 documents net.core's.
	set(SysctlSince{All: true, Source: "include/linux/sysctl.h of 2.2 and 2.4 (NET_CORE_*, VM_OVERCOMMIT_MEMORY, NET_IPV4_TCP_RETRIES2, NET_TCP_MAX_SYN_BACKLOG)"},
		"net.core.rmem_max", "net.core.wmem_max", "net.core.rmem_default", "net.core.wmem_default",
		"net.core.netdev_max_backlog", "net.core.optmem_max", "vm.overcommit_memory",
		"net.ipv4.tcp_retries2", "net.ipv4.tcp_max_syn_backlog")
	set(SysctlSince{All: true, Source: "include/linux/sysctl.h of 2.2 and 2.4 (NET_TCP_SYNCOOKIES=51, beside NET_TCP_MAX_SYN_BACKLOG=55)"},
		"net.ipv4.tcp_syncookies")
	set(SysctlSince{All: true, Source: "include/linux/sysctl.h of 2.2 and 2.4 (NET_IPV4_LOCAL_PORT_RANGE=26)"},
		"net.ipv4.ip_local_port_range")

	// The 2.3 TCP memory accounting: NET_TCP_MAX_ORPHANS=77 … NET_TCP_RMEM=85 are in 2.4.0
	// (ECN, 81, shipped in 2.4.0); 2.2 sized a TCP socket's buffers from net.core's defaults.
	tcp24 := SysctlSince{AbsentBefore: KV(2, 3, 0), Since: KV(2, 4, 0),
		Source: "2.4.0 (the 2.3 series' TCP memory accounting; Documentation/networking/ip-sysctl.txt of 2.4; 2.2 has no tcp_mem)"}
	set(tcp24, "net.ipv4.tcp_mem")
	tcp24.Older = "net.core.rmem_default and net.core.rmem_max (2.2 sizes a TCP socket's receive buffer from them)"
	set(tcp24, "net.ipv4.tcp_rmem")
	tcp24.Older = "net.core.wmem_default and net.core.wmem_max (2.2 sizes a TCP socket's send buffer from them)"
	set(tcp24, "net.ipv4.tcp_wmem")
	set(SysctlSince{Since: KV(2, 4, 0), Source: "2.4.0 (NET_TCP_MAX_ORPHANS=77, NET_TCP_MAX_TW_BUCKETS=78, numbered before NET_TCP_ECN=81 of 2.4.0)"},
		"net.ipv4.tcp_max_orphans", "net.ipv4.tcp_max_tw_buckets")
	set(SysctlSince{Since: KV(2, 4, 17), Source: "2.4.17's include/linux/sysctl.h (NET_TCP_ADV_WIN_SCALE=87); the release that added it is not recorded"},
		"net.ipv4.tcp_adv_win_scale")
	set(SysctlSince{Since: KV(2, 4, 0), Source: "2.4.0 (NET_TCP_TW_RECYCLE=66)",
		Gone: KV(4, 12, 0), GoneSource: `commit 4396e46187ca "tcp: remove tcp_tw_recycle" (4.12)`},
		"net.ipv4.tcp_tw_recycle")

	// Keys the 2.5 series brought (the 2.6 VM: rmap, pdflush writeback, per-zone
	// watermarks from min_free_kbytes). 2.4's VM numbers up to VM_MAX_READAHEAD=13 and has
	// none of them.
	minFree := of25("mm/page_alloc.c min_free_kbytes_sysctl_handler, in 2.6.0; 2.4 has none")
	minFree.Older = "none writable: 2.4 registers vm/freepages read-only (mode 0444 in kernel/sysctl.c) and derives its watermarks from the zone sizes"
	set(minFree, "vm.min_free_kbytes")
	swappiness := of25("mm/vmscan.c vm_swappiness, in 2.6.0")
	swappiness.Older = "nothing like it: the 2.4 VM has no knob that weighs swapping against dropping page cache"
	set(swappiness, "vm.swappiness")
	dirty := of25("mm/page-writeback.c (pdflush writeback), in 2.6.0; 2.4 writes back with bdflush")
	dirty.Older = "vm.bdflush (its first field, nfract, is the percentage of dirty buffers that wakes bdflush)"
	set(dirty, "vm.dirty_ratio", "vm.dirty_background_ratio")

	// Keys 2.4.17 lacks whose first release is not recorded here.
	set(after2417(KV(2, 6, 0), "in 2.6.0 (strict overcommit, mode 2)"), "vm.overcommit_ratio")
	set(after2417(KernelVersion{}, ""), "vm.vfs_cache_pressure", "vm.lowmem_reserve_ratio",
		"net.core.netdev_budget", "net.core.dev_weight", "net.core.somaxconn", "net.ipv4.tcp_moderate_rcvbuf")
	set(after2417(KV(2, 6, 16), "in 2.6.16 and later (zone reclaim, mm/vmscan.c)"), "vm.zone_reclaim_mode")
	// nf_conntrack came in the 2.6 series (2.6.15); 2.4 tracks connections with ip_conntrack
	// only, whose limit is net.ipv4.ip_conntrack_max (sysctlkeys.txt).
	conntrack := SysctlSince{AbsentBefore: KV(2, 6, 0), Source: "nf_conntrack's /proc/sys/net/netfilter, a 2.6 addition; 2.4 has ip_conntrack only"}
	conntrack.Older = "net.ipv4.ip_conntrack_max (ip_conntrack, 2.4 and 2.6 before 2.6.22)"
	set(conntrack, "net.netfilter.nf_conntrack_max")

	// Keys whose commit is known.
	set(added(KV(2, 6, 13), `pluggable congestion control, "[TCP]: Add pluggable congestion control algorithm infrastructure" (2.6.13)`),
		"net.ipv4.tcp_congestion_control")
	sysctlSince["net.ipv4.tcp_congestion_control"] = withOlder(sysctlSince["net.ipv4.tcp_congestion_control"],
		"none to name an algorithm: Reno, with the boolean switches net.ipv4.tcp_bic, tcp_westwood and tcp_vegas_cong_avoid of some 2.6 releases")
	set(added(KV(2, 6, 25), "UDP memory accounting (2.6.25)"),
		"net.ipv4.udp_mem", "net.ipv4.udp_rmem_min", "net.ipv4.udp_wmem_min")
	extfrag := added(KV(2, 6, 35), `commit 5e7719058079 "mm: compaction: add a tunable that decides when memory should be compacted and when it should be reclaimed" (2.6.35)`)
	set(extfrag, "vm.extfrag_threshold")
	set(added(KV(3, 12, 0), `commit c9bee3b7fdec "tcp: TCP_NOTSENT_LOWAT socket option" (3.12)`), "net.ipv4.tcp_notsent_lowat")
	set(added(KV(3, 12, 0), `commit 6da7c8fcbcbd "qdisc: allow setting default queuing discipline" (3.12)`), "net.core.default_qdisc")
	wsf := added(KV(4, 6, 0), `commit 795ae7a0de6b "mm: scale kswapd watermarks in proportion to memory" (4.6)`)
	wsf.Older = "none: before 4.6 the low watermark is min + min/4 (__setup_per_zone_wmarks in mm/page_alloc.c), so only vm.min_free_kbytes moves it"
	set(wsf, "vm.watermark_scale_factor")
	budgetUsecs := added(KV(4, 12, 0), "commit 7acf8a1e8a28: netdev_budget_usecs replaces the 2-jiffy limit of a softirq round (4.12)")
	budgetUsecs.Older = "none: before 4.12 a softirq round ends after 2 jiffies (net_rx_action in net/core/dev.c); only net.core.netdev_budget bounds it"
	set(budgetUsecs, "net.core.netdev_budget_usecs")
	set(added(KV(5, 0, 0), `commit 1c30844d2dfe "mm: reclaim small amounts of memory when an external fragmentation event occurs" (5.0)`), "vm.watermark_boost_factor")
	proactive := added(KV(5, 9, 0), `commit facdaa917c4d "mm: proactive compaction" (5.9)`)
	proactive.Older = "echo 1 > /proc/sys/vm/compact_memory (2.6.35 and later) compacts once, on demand"
	set(proactive, "vm.compaction_proactiveness")
	set(added(KV(6, 15, 0), "commit 1280c26228bd (6.15)"), "net.ipv4.tcp_rto_max_ms")
}

func withOlder(h SysctlSince, older string) SysctlSince {
	h.Older = older
	return h
}

// LookupSysctlSince returns the history of a full key; ok is false for a key not in the table.
func LookupSysctlSince(key string) (SysctlSince, bool) {
	h, ok := sysctlSince[NormaliseSysctlKey(key)]
	return h, ok
}

// SysctlSinceKeys lists the keys with a recorded history, sorted.
func SysctlSinceKeys() []string {
	return slices.Sorted(maps.Keys(sysctlSince))
}

// SysctlExists reports whether kernel v (known: the release is known at all) has key, and
// why, in one line a report can print. It is false only when the table establishes that
// the release lacks the key; an unknown release, a key not in the table, or a release the
// table does not decide all give true, with why saying so.
func SysctlExists(key string, v KernelVersion, known bool) (exists bool, why string) {
	key = NormaliseSysctlKey(key)
	h, ok := sysctlSince[key]
	switch {
	case !ok:
		return true, key + ": when it came is not recorded (kernel/sysctlsince.go)"
	case !known || !v.Known:
		return true, key + ": the kernel release is not known"
	case h.Gone.Known && v.Compare(h.Gone) >= 0:
		return false, fmt.Sprintf("kernel %s has no %s: removed in %s (%s)", v, key, short(h.Gone), h.GoneSource)
	case h.AbsentBefore.Known && v.Compare(h.AbsentBefore) < 0:
		why := fmt.Sprintf("kernel %s has no %s", v, key)
		switch {
		case h.Since.Known && h.Since == h.AbsentBefore:
			why += fmt.Sprintf(": it exists from %s (%s)", short(h.Since), h.Source)
		case h.Since.Known:
			why += fmt.Sprintf(": it is in %s and later, not before %s (%s)", short(h.Since), short(h.AbsentBefore), h.Source)
		default:
			why += " (" + h.Source + ")"
		}
		if h.Older != "" {
			why += "; before it: " + h.Older
		} else {
			why += "; no older equivalent is recorded"
		}
		return false, why
	case h.All || (h.Since.Known && v.Compare(h.Since) >= 0):
		return true, fmt.Sprintf("kernel %s has %s (%s)", v, key, h.Source)
	}
	return true, fmt.Sprintf("whether kernel %s has %s is not established (%s)", v, key, h.Source)
}

// short writes a release the way its history is told: "4.6", "2.6.35".
func short(v KernelVersion) string {
	if v.Patch == 0 && v.Major >= 3 {
		return fmt.Sprintf("%d.%d", v.Major, v.Minor)
	}
	if v.Patch == 0 && v.Minor%2 == 1 {
		return fmt.Sprintf("the %d.%d series", v.Major, v.Minor) // a development series
	}
	return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
}
