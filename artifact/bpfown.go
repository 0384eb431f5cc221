package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// eBPF and XDP tools' own lines (h29b, written from libbpf's, libxdp's, xdp-tools', bpftool's
// and FastNetMon's sources, blind to round 29's batches).
//
// libbpf prints every message with the prefix "libbpf: " (libbpf_internal.h pr_warn/pr_info
// through libbpf_print): "map '%s': failed to create: %s(%d)" (bpf_object__create_maps; older
// "failed to create map (name: '%s'): %s(%d)"), "failed to load object '%s'", "load bpf
// program failed: %s", "prog '%s': BPF program load failed: %s", "Error in
// bpf_object__probe_loading():%s(%d). Couldn't load trivial BPF program. Make sure your kernel
// supports BPF (CONFIG_BPF_SYSCALL=y) and/or that RLIMIT_MEMLOCK is set to big enough value.",
// "permission error while running as root; try raising 'ulimit -l'? current value: %s";
// libxdp likewise with "libxdp: ". Map and program memory is charged to the loading user's
// RLIMIT_MEMLOCK before Linux 5.11 (EPERM past it) and to the loader's memory cgroup since
// (ENOMEM at the cgroup's limit); the kernel allocates it with __GFP_NOWARN
// (bpf_map_area_alloc), so no allocation failure report follows. A limit of the loading
// process (or a map sized past what vmalloc gets), not the host's free memory: named, no rule.
//
// xdp-tools' and xdp-tutorial's loaders: "Couldn't attach XDP program on iface '%s': %s(%d)",
// "Couldn't load BPF program: ..." and xdp-tutorial's "ERR: loading BPF-OBJ file(%s) (%d): %s".
//
// bpftool's `map show`/`prog show` plain output (map.c show_map_close_plain, prog.c
// print_prog_plain): "ID: TYPE  name N  flags 0x0", "\tkey 4B  value 8B  max_entries N
// memlock NB", "ID: xdp  name N  tag HEX  gpl", "\tloaded_at T  uid 0", "\txlated NB  jited
// NB  memlock NB  map_ids 1,2", "\tbtf_id N", "\tpids NAME(PID)": the objects' sizes.
//
// FastNetMon's log4cpp lines of a detected attack (fastnetmon_logic.cpp: "Attack with
// direction: %s IP: %s Power: %s"): the mitigation's own event about a protected address.
//
// Gated by fixed words (bpfOwnGate) before any regexp.

var (
	reBpftoolHead = lazyre.New(`^\s*\d+: [a-z_]+\s+(?:name \S+\s+)?(?:flags 0x[0-9a-f]+|tag [0-9a-f]{16}(?:\s+gpl)?)\b`)
	reBpftoolMap  = lazyre.New(`^\s*key \d+B\s+value \d+B\s+max_entries \d+\s+memlock \d+B\b`)
	reBpftoolProg = lazyre.New(`^\s*xlated \d+B\s+(?:jited \d+B\s+)?memlock \d+B\b`)
	// xdp-tools' xdp-bench (lib/util/xdp_sample.c): "Summary   14,123,456 rx/s   0 err,drop/s";
	// "Dropping packets on eth0 (ifindex 2; driver mlx5_core)".
	reXDPBench = lazyre.New(`^\s*Summary\s+[\d,.]+ rx/s\s+[\d,.]+ (?:err,drop|err|redir|drop)/s`)
	// xdpsock (samples/bpf, bpf-examples AF_XDP-example): the socket header and its own rows.
	reXdpsockRow = lazyre.New(`^\s*(?:sock\d+@[\w.-]+:\d+ (?:rxdrop|txonly|l2fwd)\b.*|(?:fill ring empty|rx queue full|tx ring empty|rx empty polls|fill fail polls|tx wakeup sendtos|tx trigger polls)\s+[\d,]+\s+[\d,]+\s*)$`)
	// fastnetmon_client (src/fastnetmon_client.cpp reads the screen fastnetmon writes): the
	// direction rows and the packet totals.
	reFNMClient = lazyre.New(`^\s*(?:(?:Incoming|Outgoing|Internal|Other) traffic\s+\d+ pps\s+\d+ mbps(?:\s+\d+ flows)?|Total amount of IPv[46] packets: \d+|Not processed packets: \d+ pps)\s*$`)
	// Cilium's Prometheus gauge (pkg/metrics: "cilium_bpf_map_pressure{map_name=\"M\"} V").
	reCiliumPressure = lazyre.New(`^\s*cilium_bpf_map_pressure\{[^}]*\}\s+[\d.eE+-]+\s*$`)
	reBpftoolMisc    = lazyre.New(`^\s*(?:loaded_at \S+\s+uid \d+|btf_id \d+|pids [\w.-]+\(\d+\)(?:, [\w.-]+\(\d+\))*)\s*$`)
)

const (
	libbpfLimitWhy = "libbpf's (or libxdp's) error that a BPF map or program could not be created for memory (\"libbpf: map 'M': failed to create: Cannot allocate memory(-12)\", \"failed to load object\", its RLIMIT_MEMLOCK and 'ulimit -l' advice): BPF memory is charged to the loading user's RLIMIT_MEMLOCK before Linux 5.11 (ulimit -l, limits.conf memlock, LimitMEMLOCK=) and to the loader's memory cgroup since (a container's memory limit), and allocated with __GFP_NOWARN, so no allocation failure report follows; a limit of the loading process (or a map sized past what it may get), not the host's free memory: no rule applies"
	libbpfLineWhy  = "libbpf's (or libxdp's) own message about loading a BPF object (\"libbpf: ...\"): the loader's report, not the kernel's log; no memory or network figure of the host's"
	xdpLoaderWhy   = "an XDP loader's error (xdp-tools' \"Couldn't attach XDP program on iface 'I': E(N)\", \"Couldn't load BPF program\", xdp-tutorial's \"ERR: loading BPF-OBJ file\"): attaching or loading the program failed (the driver's XDP support, its mode, the loader's limits); with \"Cannot allocate memory\" the loader's RLIMIT_MEMLOCK (before 5.11) or memory cgroup, not the host's free memory: no rule applies"
	bpftoolWhy     = "bpftool's list of BPF maps or programs (`bpftool map show`/`prog show`: id, type, name, key/value sizes, max_entries, memlock bytes): memlock is the memory charged for the object (to RLIMIT_MEMLOCK before 5.11, to the memory cgroup since), a size of the object, no failure and no host memory state: no rule applies"
	xdpStatsWhy    = "an XDP or AF_XDP benchmark's or tool's own statistics (xdp-bench's \"Summary N rx/s N err,drop/s\", xdpsock's \"sock0@eth0:0 rxdrop xdp-drv\" table with its \"fill ring empty\", \"rx queue full\", \"tx ring empty\" rows): rates the program counts itself; its drops are the program's verdicts and an empty fill ring is the AF_XDP application not returning frames (its own UMEM), not the kernel short of memory: no rule applies"
	fnmClientWhy   = "fastnetmon_client's traffic screen (\"Incoming traffic N pps N mbps N flows\", \"Total amount of IPv4 packets: N\"): the traffic FastNetMon counts from mirrored or sampled packets, not this host's receive path; no failure: no rule applies"
	ciliumMapWhy   = "Cilium's agent (logrus \"level=... msg=... subsys=...\"): creating, loading or updating one of its BPF maps failed with ENOMEM (\"cannot allocate memory\"): BPF memory is charged to the agent's memory cgroup since Linux 5.11 (its pod's limit) and to RLIMIT_MEMLOCK before (the agent raises it itself), allocated __GFP_NOWARN; the agent's limit or the map's size, not the host short of memory: no rule applies"
	ciliumPressWhy = "Cilium's metric cilium_bpf_map_pressure (a BPF map's fill, 0 to 1, by map_name): a table's occupancy (a full CT or NAT map drops new flows in the datapath), not memory; no rule of headroom's reads BPF map occupancy"
	fnmAttackWhy   = "FastNetMon's detection of an attack on a protected address (\"Attack with direction: incoming IP: A Power: N\", pps to that address from mirrored or sampled traffic): the mitigation's own event, not this host's receive path failing; no rule applies"
)

// bpfOwnGate: bytes one of which every form holds ('l' "libbpf", "libxdp", "loaded_at",
// "load", "Couldn't", "full", "fill"; 'm' "memlock", "Summary", "empty", "amount"; 'k'
// "Attack"; 'b' "btf_id"; 'p' "pids", "pps"; '@' xdpsock's socket).
const bpfOwnGate = "lmkbp@"

// bpfOwnHanded: a program's syslog or compose line the fast path hands to the loop.
func bpfOwnHanded(l *Line) bool {
	t := l.Text
	return strings.Contains(t, "libbpf: ") || strings.Contains(t, "subsys=") && strings.Contains(t, "cannot allocate memory") || strings.Contains(t, "libxdp: ") || strings.Contains(t, "Attack with direction: ") || strings.Contains(t, "Couldn't attach XDP program")
}

// bpfLibPrefix: t holds "libbpf: " or "libxdp: " where a line's own message starts (after
// blanks, a quote's '>', a stamp's ']' or a program's "name:"), not inside a sentence.
func bpfLibPrefix(t string) (rest string, ok bool) {
	for _, p := range [...]string{"libbpf: ", "libxdp: "} {
		k := strings.Index(t, p)
		if k < 0 {
			continue
		}
		before := strings.TrimRight(t[:k], " \t>`")
		if before == "" || strings.HasSuffix(before, "]") || strings.HasSuffix(before, ":") || strings.HasSuffix(before, "|") {
			return t[k+len(p):], true
		}
	}
	return "", false
}

// bpfOwnLine names line text t as one of the tools' lines above.
func bpfOwnLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes || strings.IndexAny(t, bpfOwnGate) < 0 {
		return "", false
	}
	if rest, ok := bpfLibPrefix(t); ok {
		if strings.Contains(rest, "Cannot allocate memory") || strings.Contains(rest, "(-12)") || strings.Contains(rest, "RLIMIT_MEMLOCK") || strings.Contains(rest, "'ulimit -l'") {
			return libbpfLimitWhy, true
		}
		return libbpfLineWhy, true
	}
	switch {
	case strings.Contains(t, "Couldn't attach XDP program on iface '"), strings.Contains(t, "Couldn't load BPF program"), strings.Contains(t, "ERR: loading BPF-OBJ file("):
		return xdpLoaderWhy, true
	case strings.Contains(t, "subsys=") && strings.Contains(t, "cannot allocate memory"):
		if strings.Contains(t, "level=") && strings.Contains(t, "map") {
			return ciliumMapWhy, true
		}
	case strings.Contains(t, "cilium_bpf_map_pressure{"):
		if reCiliumPressure.MatchString(t) {
			return ciliumPressWhy, true
		}
	case strings.Contains(t, " rx/s") && strings.Contains(t, "/s"):
		if reXDPBench.MatchString(t) {
			return xdpStatsWhy, true
		}
	case strings.Contains(t, " empty ") || strings.Contains(t, " queue full ") || strings.Contains(t, "@"):
		if reXdpsockRow.MatchString(t) {
			return xdpStatsWhy, true
		}
	case strings.Contains(t, " traffic ") || strings.Contains(t, "Total amount of IPv") || strings.Contains(t, "Not processed packets: "):
		if reFNMClient.MatchString(t) {
			return fnmClientWhy, true
		}
	case strings.Contains(t, "Attack with direction: "):
		if k := strings.Index(t, " IP: "); k > 0 && strings.Contains(t[k:], " Power: ") {
			return fnmAttackWhy, true
		}
	case strings.Contains(t, "memlock "):
		if reBpftoolMap.MatchString(t) || reBpftoolProg.MatchString(t) {
			return bpftoolWhy, true
		}
	case strings.Contains(t, "  name ") || strings.Contains(t, "  flags 0x") || strings.Contains(t, "  tag "):
		if reBpftoolHead.MatchString(t) {
			return bpftoolWhy, true
		}
	case strings.Contains(t, "loaded_at ") || strings.Contains(t, "btf_id ") || strings.Contains(t, "pids "):
		if reBpftoolMisc.MatchString(t) {
			return bpftoolWhy, true
		}
	}
	return "", false
}
