package artifact

import (
	"strconv"
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
	libbpfLimitWhy   = "libbpf's (or libxdp's) error that a BPF map or program could not be created for memory (\"libbpf: map 'M': failed to create: Cannot allocate memory(-12)\", \"failed to load object\", its RLIMIT_MEMLOCK and 'ulimit -l' advice): BPF memory is charged to the loading user's RLIMIT_MEMLOCK before Linux 5.11 (ulimit -l, limits.conf memlock, LimitMEMLOCK=) and to the loader's memory cgroup since (a container's memory limit), and allocated with __GFP_NOWARN, so no allocation failure report follows; a limit of the loading process (or a map sized past what it may get), not the host's free memory: no rule applies"
	libbpfLineWhy    = "libbpf's (or libxdp's) own message about loading a BPF object (\"libbpf: ...\"): the loader's report, not the kernel's log; no memory or network figure of the host's"
	xdpLoaderWhy     = "an XDP loader's error (xdp-tools' \"Couldn't attach XDP program on iface 'I': E(N)\", \"Couldn't load BPF program\", xdp-tutorial's \"ERR: loading BPF-OBJ file\"): attaching or loading the program failed (the driver's XDP support, its mode, the loader's limits); with \"Cannot allocate memory\" the loader's RLIMIT_MEMLOCK (before 5.11) or memory cgroup, not the host's free memory: no rule applies"
	bpftoolWhy       = "bpftool's list of BPF maps or programs (`bpftool map show`/`prog show`: id, type, name, key/value sizes, max_entries, memlock bytes): memlock is the memory charged for the object (to RLIMIT_MEMLOCK before 5.11, to the memory cgroup since), a size of the object, no failure and no host memory state: no rule applies"
	xdpStatsWhy      = "an XDP or AF_XDP benchmark's or tool's own statistics (xdp-bench's \"Summary N rx/s N err,drop/s\", xdpsock's \"sock0@eth0:0 rxdrop xdp-drv\" table with its \"fill ring empty\", \"rx queue full\", \"tx ring empty\" rows): rates the program counts itself; its drops are the program's verdicts and an empty fill ring is the AF_XDP application not returning frames (its own UMEM), not the kernel short of memory: no rule applies"
	fnmClientWhy     = "fastnetmon_client's traffic screen (\"Incoming traffic N pps N mbps N flows\", \"Total amount of IPv4 packets: N\"): the traffic FastNetMon counts from mirrored or sampled packets, not this host's receive path; no failure: no rule applies"
	ciliumMapWhy     = "Cilium's agent (logrus \"level=... msg=... subsys=...\"): creating, loading or updating one of its BPF maps failed with ENOMEM (\"cannot allocate memory\"): BPF memory is charged to the agent's memory cgroup since Linux 5.11 (its pod's limit) and to RLIMIT_MEMLOCK before (the agent raises it itself), allocated __GFP_NOWARN; the agent's limit or the map's size, not the host short of memory: no rule applies"
	ciliumPressWhy   = "Cilium's metric cilium_bpf_map_pressure (a BPF map's fill, 0 to 1, by map_name): a table's occupancy (a full CT or NAT map drops new flows in the datapath), not memory; no rule of headroom's reads BPF map occupancy"
	bccMapLimitWhy   = "bcc's error that one of a tool's BPF maps could not be created (src/cc/bpf_module.cc: \"could not open bpf map: M, error: Cannot allocate memory\"): libbcc raises RLIMIT_MEMLOCK to infinity itself, so before Linux 5.11 the kernel refused the map's own allocation (its max_entries × (key + value) sized past what vmalloc gets, __GFP_NOWARN: no allocation failure report) and since 5.11 the loader's memory cgroup refused the charge; the map's size against a limit, not the host short of memory: no rule applies"
	bccLineWhy       = "bcc's own message about a tool's BPF maps or its compile (\"could not open bpf map: M, error: E\", \"failed to pin map\", Python's \"Exception: Failed to compile BPF module F\" after a map or program could not be loaded): the tool's loader, not the kernel's log; no memory or network figure of the host's"
	ciliumLogWhy     = "Cilium's agent log (logrus \"level=L msg=... subsys=S\"): the agent's own account of its configuration and its datapath (its flag dump, the BPF map sizes it chose from a fraction of the node's memory by dynamic sizing: capacities, not use); no host counter, no failure: no rule applies"
	goPanicENOMEMWhy = "a Go program's panic on an error that is the errno text of a failed system call (\"panic: cannot allocate memory\": syscall.ENOMEM's text, the goroutine trace naming the call): a request of the program the kernel refused with ENOMEM (an XDP attach in native mode on a driver short of its own queues, a BPF map past its limit, a setsockopt), not the kernel out of memory: no OOM kill, no allocation failure report; no rule applies"
	bpftraceOutWhy   = "a bpftrace one-liner and what it printed (\"bpftrace -e 'kprobe:F { print(argN); }'\" and its values): the arguments the probed kernel function was called with (a size, a count), a trace, not a counter or the host's memory state; no rule applies"
	fnmAttackWhy     = "FastNetMon's detection of an attack on a protected address (\"Attack with direction: incoming IP: A Power: N\", pps to that address from mirrored or sampled traffic): the mitigation's own event, not this host's receive path failing; no rule applies"
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
	if why, ok := bccLine(t); ok {
		return why, true
	}
	if ciliumLogLine(t) {
		return ciliumLogWhy, true
	}
	if goPanicENOMEM(t) {
		return goPanicENOMEMWhy, true
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

// bccLine: bcc's own messages (fix34b; src/cc/bpf_module.cc's fprintf to stderr "could not
// open bpf map: %s, error: %s" and "failed to pin map: %s, error: %s"; bcc/__init__.py's
// "Failed to compile BPF module %s" raised when the module could not be built or loaded),
// at a line's start (after blanks or a quote's '>').
func bccLine(t string) (string, bool) {
	s := strings.TrimLeft(t, " \t>")
	switch {
	case strings.HasPrefix(s, "could not open bpf map: "):
		k := strings.Index(s, ", error: ")
		if k < 0 {
			return "", false
		}
		if strings.HasPrefix(s[k+len(", error: "):], "Cannot allocate memory") {
			return bccMapLimitWhy, true
		}
		return bccLineWhy, true
	case strings.HasPrefix(s, "failed to pin map: ") && strings.Contains(s, ", error: "),
		strings.HasPrefix(s, "Exception: Failed to compile BPF module"):
		return bccLineWhy, true
	}
	return "", false
}

// ciliumLogLine: Cilium's agent log line at level info or debug: logrus's logfmt with Cilium's own field subsys=
// ("level=info msg=\"...\" subsys=config", optionally after time="..."), or the slog form
// of its dynamic sizing messages (pkg/option: "Memory available for map entries (%.3f%% of
// %dB): %dB", "option %s set by dynamic sizing to %v"), which name no subsys.
func ciliumLogLine(t string) bool {
	s := strings.TrimLeft(t, " \t>")
	if strings.HasPrefix(s, "time=") {
		if k := strings.Index(s, " level="); k > 0 {
			s = s[k+1:]
		}
	}
	if !strings.HasPrefix(s, "level=info ") && !strings.HasPrefix(s, "level=debug ") || !strings.Contains(s, " msg=") {
		return false // a warning or an error is its own (ciliumMapWhy's ENOMEM, or read elsewhere)
	}
	if strings.Contains(s, "cannot allocate memory") || strings.Contains(s, "out of memory") {
		return false
	}
	return strings.Contains(s, " subsys=") || strings.Contains(s, "msg=\"Memory available for map entries (") || strings.Contains(s, " set by dynamic sizing to ")
}

// goPanicENOMEM: Go's panic line whose value is ENOMEM's errno text (syscall.Errno(12).Error()
// is "cannot allocate memory"), bare or after the call's own words ("panic: attach xdp:
// cannot allocate memory"). Go's runtime out of memory is "fatal error: runtime: out of
// memory", another line (the runtime's own heap).
func goPanicENOMEM(t string) bool {
	s := strings.TrimSpace(strings.TrimLeft(t, " \t>"))
	return strings.HasPrefix(s, "panic: ") && strings.HasSuffix(s, "cannot allocate memory") && !strings.Contains(s, "runtime error")
}

// bpfOwnFigures keeps the figures a named line states (fix34b), as program_limit: Cilium's
// dynamic sizing (the node's memory it took the ratio of, the bytes it gives its maps, each
// option's entries: capacities the agent chose, not use) and bcc's map name. It also notes a
// BPF map's ENOMEM, for bpfMapSizeLine.
func (d *doc) bpfOwnFigures(i int, why string) {
	switch why {
	case bccMapLimitWhy, libbpfLimitWhy, ciliumMapWhy:
		d.bpfMapLimit = true
	}
	if why != ciliumLogWhy || d.programFigureCount >= maxProgramFigureArtifacts {
		return
	}
	t := d.ls[i].Text
	data := map[string]any{"program": "cilium-agent"}
	if k := strings.Index(t, "Memory available for map entries ("); k >= 0 {
		r := t[k+len("Memory available for map entries ("):]
		j := strings.Index(r, "% of ")
		if j < 0 {
			return
		}
		total, rest, ok := nextInt(r[j+len("% of "):])
		if !ok || !strings.HasPrefix(rest, "B): ") {
			return
		}
		maps, rest2, ok := nextInt(rest[len("B): "):])
		if !ok || !strings.HasPrefix(rest2, "B") {
			return
		}
		data["node_memory_bytes"], data["map_memory_bytes"] = total, maps
	} else if k := strings.Index(t, "msg=\"option "); k >= 0 {
		r := t[k+len("msg=\"option "):]
		j := strings.Index(r, " set by dynamic sizing to ")
		if j <= 0 || strings.ContainsAny(r[:j], " \"") {
			return
		}
		v, _, ok := nextInt(r[j+len(" set by dynamic sizing to "):])
		if !ok {
			return
		}
		data[r[:j]] = v
	} else {
		return
	}
	data["message"] = clip(strings.TrimSpace(t), 120)
	d.programFigureCount++
	d.addArtifact(KindProgramLimit, d.ls[i].No, d.ls[i].No, data)
}

const bpfMapSizeWhy = "a computation of a size after a BPF map's ENOMEM (\"N * (K + V) = B\": entries times the key and value sizes): the bytes the map asks the kernel for in one allocation, the map's need, not the host's memory; no rule applies"

// bpfMapSizeLine names a line that is only an arithmetic product ending in "= N" (digits,
// blanks, '*', 'x', '+', parentheses), written after a BPF map's ENOMEM was named: the
// map's size as the reply computes it; its operands and result are kept.
func (d *doc) bpfMapSizeLine(i int) bool {
	s := strings.TrimSpace(d.ls[i].Text)
	k := strings.LastIndex(s, "=")
	if k <= 0 || !strings.Contains(s[:k], "*") || len(s) > 120 {
		return false
	}
	res, err := strconv.ParseInt(strings.TrimSpace(s[k+1:]), 10, 64)
	if err != nil || res <= 0 {
		return false
	}
	var ops []any
	for _, f := range strings.FieldsFunc(s[:k], func(r rune) bool { return strings.ContainsRune(" *x+()", r) }) {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return false
		}
		ops = append(ops, v)
	}
	if len(ops) < 2 {
		return false
	}
	d.unparsedUnread(i, bpfMapSizeWhy)
	if d.programFigureCount < maxProgramFigureArtifacts {
		d.programFigureCount++
		d.addArtifact(KindProgramLimit, d.ls[i].No, d.ls[i].No, map[string]any{"program": "bpf map size", "bytes": res, "operands": ops, "message": clip(s, 120)})
	}
	return true
}

// maxBpftraceValues bounds the values kept from one bpftrace run.
const maxBpftraceValues = 32

// bpftraceRun reads a bpftrace one-liner at line i ("bpftrace -e '...'" after a shell's
// prompt or none) and the lines it printed right after it: integers, its "Attaching N
// probe(s)..." banner and an elision "[...]"; it names them all and keeps the integers (the
// probed function's argument values, a trace). It returns the lines consumed, 0 when line i
// is no such command.
func (d *doc) bpftraceRun(i int) int {
	s := strings.TrimSpace(d.ls[i].Text)
	s = strings.TrimLeft(s, "#$ ")
	if !strings.HasPrefix(s, "bpftrace -e ") && !strings.HasPrefix(s, "sudo bpftrace -e ") {
		return 0
	}
	if !strings.Contains(s, "print") && !strings.Contains(s, "@") {
		return 0
	}
	var vals []any
	n := 1
	for j := i + 1; j < len(d.ls) && n < 1+4*maxBpftraceValues; j++ {
		o := strings.TrimSpace(d.ls[j].Text)
		if o == "[...]" || o == "..." || strings.HasPrefix(o, "Attaching ") && strings.Contains(o, " probe") {
			n++
			continue
		}
		v, err := strconv.ParseInt(o, 10, 64)
		if err != nil {
			break
		}
		if len(vals) < maxBpftraceValues {
			vals = append(vals, v)
		}
		n++
	}
	for j := i; j < i+n; j++ {
		d.unparsedUnread(j, bpftraceOutWhy)
		d.used[j] = true
	}
	if len(vals) > 0 && d.programFigureCount < maxProgramFigureArtifacts {
		d.programFigureCount++
		d.addArtifact(KindProgramLimit, d.ls[i].No, d.ls[i+n-1].No, map[string]any{"program": "bpftrace", "printed": vals, "command": clip(s, 120)})
	}
	return n
}
