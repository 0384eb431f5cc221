package kernel

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Sysctl is one value under /proc/sys, keyed by its dotted name ("net.ipv4.tcp_mem") and
// holding the text as the kernel prints it, whitespace runs collapsed to one space.
type Sysctl struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// RuleSysctls are the keys headroom's rules and calculators read. Versions are those of
// mainline; a key this kernel lacks is reported unavailable by ReadSysctls, never as 0.
var RuleSysctls = []string{
	// Page allocator reserves and reclaim (Documentation/admin-guide/sysctl/vm.rst).
	"vm.min_free_kbytes",        // the min watermark, summed over zones; seed 000's fix
	"vm.watermark_scale_factor", // 4.6+: low/high watermark distance, in 1/10000 of memory
	"vm.watermark_boost_factor", // 5.0+: boost after fragmentation events
	"vm.lowmem_reserve_ratio",   // the zone protection arrays of /proc/zoneinfo
	"vm.zone_reclaim_mode",
	"vm.compaction_proactiveness", // 5.9+
	"vm.extfrag_threshold",        // 2.6.35+
	"vm.swappiness",
	"vm.vfs_cache_pressure",
	"vm.dirty_ratio",
	"vm.dirty_background_ratio",
	// Overcommit (seed 004 recommends overcommit_memory = 2).
	"vm.overcommit_memory",
	"vm.overcommit_ratio",
	"vm.overcommit_kbytes", // 3.14+
	// TCP memory and buffers (Documentation/networking/ip-sysctl.rst). tcp_mem and udp_mem
	// are in pages, tcp_rmem/tcp_wmem in bytes.
	"net.ipv4.tcp_mem",
	"net.ipv4.tcp_rmem",
	"net.ipv4.tcp_wmem",
	"net.ipv4.tcp_adv_win_scale", // obsolete since 6.6 (commit dfa2f0483360): the window follows the measured len/truesize ratio
	"net.ipv4.tcp_moderate_rcvbuf",
	"net.ipv4.tcp_window_scaling",
	"net.ipv4.tcp_notsent_lowat", // 3.12+
	"net.ipv4.tcp_congestion_control",
	"net.ipv4.tcp_available_congestion_control",
	// Orphans and closing sockets (seed 004's FIN_WAIT1 sockets holding send queues).
	"net.ipv4.tcp_max_orphans",
	"net.ipv4.tcp_orphan_retries",
	"net.ipv4.tcp_retries2", // bounds how long an orphan probing a zero window lives on 3.18+ (tcp_timer.c tcp_probe_timer)
	"net.ipv4.tcp_fin_timeout",
	"net.ipv4.tcp_max_tw_buckets",
	"net.ipv4.tcp_rto_max_ms", // 6.15+ (commit 1280c26228bd, "tcp: add tcp_rto_max_ms sysctl")
	// Connection storms (seed 002).
	"net.ipv4.tcp_max_syn_backlog",
	"net.core.somaxconn",
	// UDP memory (2.6.25+).
	"net.ipv4.udp_mem",
	"net.ipv4.udp_rmem_min",
	"net.ipv4.udp_wmem_min",
	// Socket buffer limits and defaults, in bytes.
	"net.core.rmem_max",
	"net.core.wmem_max",
	"net.core.rmem_default",
	"net.core.wmem_default",
	"net.core.optmem_max",
	// Receive path: backlog queue and NAPI budget (softnet_stat dropped and time_squeeze).
	"net.core.netdev_max_backlog",
	"net.core.netdev_budget",
	"net.core.netdev_budget_usecs", // 4.12+
	"net.core.dev_weight",
	"net.core.rps_sock_flow_entries", // 2.6.35+
	"net.core.default_qdisc",         // 3.12+
	// Connection tracking (present only with nf_conntrack loaded).
	"net.netfilter.nf_conntrack_max",
	"net.netfilter.nf_conntrack_count",
	// Host facts.
	"kernel.osrelease",
	"kernel.hostname",
}

// sysctlReadBytes is the size of each read(2) of a /proc/sys file. proc_sys_call_handler
// (fs/proc/proc_sysctl.c) allocates and zeroes a kernel buffer of the size userspace asks
// for, so a large read (io.ReadAll grows to 512 bytes and beyond, os.ReadFile asks for
// more) costs kernel memory for nothing. Every RuleSysctls value fits in one read; longer
// values (string sysctls) are read on in further reads of this size.
const sysctlReadBytes = 4096

// sysctlMaxBytes bounds a value; nothing under /proc/sys that headroom reads comes close.
const sysctlMaxBytes = 64 << 10

// SysctlPath is the file of key under a Root: dots become slashes
// ("net.ipv4.tcp_mem" → "proc/sys/net/ipv4/tcp_mem"). A key that already contains a slash
// is taken as a path below /proc/sys as is, which is how sysctl(8) names keys whose
// components contain dots ("net/ipv4/conf/eth0.100/rp_filter").
func SysctlPath(key string) (string, error) {
	p := key
	if !strings.Contains(key, "/") {
		p = strings.ReplaceAll(key, ".", "/")
	}
	if p == "" || strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") {
		return "", fmt.Errorf("sysctl: bad key %q", key)
	}
	for _, part := range strings.Split(p, "/") {
		if part == "" || part == "." || part == ".." {
			return "", fmt.Errorf("sysctl: bad key %q", key)
		}
	}
	return "proc/sys/" + p, nil
}

// ReadSysctl reads one /proc/sys value under root, with whitespace runs (the tabs of
// tcp_mem, the trailing newline) collapsed to single spaces and trimmed. A key this kernel
// lacks gives an error wrapping ErrNotSupported. net.* keys are per network namespace and
// read as seen by the calling thread's namespace (the net sysctl root is looked up from
// current's nsproxy), so no thread-self path is needed.
func ReadSysctl(root Root, key string) (string, error) {
	p, err := SysctlPath(key)
	if err != nil {
		return "", err
	}
	f, err := root.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var (
		buf [sysctlReadBytes]byte
		raw []byte
	)
	for {
		n, err := f.Read(buf[:])
		raw = append(raw, buf[:n]...)
		if errors.Is(err, io.EOF) || (n == 0 && err == nil) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("/%s: %w", p, err)
		}
		if len(raw) > sysctlMaxBytes {
			return "", fmt.Errorf("/%s: value longer than %d bytes", p, sysctlMaxBytes)
		}
	}
	return collapseSpace(raw), nil
}

// collapseSpace joins the white-space separated fields of b (newlines included) with single
// spaces.
func collapseSpace(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	space := true
	for _, c := range b {
		if c == '\n' || txtSpace(c) {
			space = true
			continue
		}
		if space && sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		space = false
		sb.WriteByte(c)
	}
	return sb.String()
}

// ReadSysctls reads each key under root. values holds the keys that could be read;
// unavailable holds the others with the reason (errors.Is(err, ErrNotSupported) for a key
// this kernel or namespace does not have, a permission error for a write-only or
// root-only key).
func ReadSysctls(root Root, keys []string) (values map[string]string, unavailable map[string]error) {
	values = make(map[string]string, len(keys))
	for _, k := range keys {
		v, err := ReadSysctl(root, k)
		if err != nil {
			if unavailable == nil {
				unavailable = make(map[string]error)
			}
			unavailable[k] = err
			continue
		}
		values[k] = v
	}
	return values, unavailable
}

// SysctlInPages reports whether a sysctl's values count pages (net.ipv4.tcp_mem, udp_mem,
// sctp_mem: sysctl_mem[] in pages, compared with memory_allocated in
// __sk_mem_raise_allocated, net/core/sock.c), so a size stated in bytes converts to pages.
func SysctlInPages(key string) bool {
	switch key {
	case "net.ipv4.tcp_mem", "net.ipv4.udp_mem", "net.sctp.sctp_mem":
		return true
	}
	return false
}
