package artifact

import "strings"

// A JSON object of memory or network statistics that no reader takes (issue 29 item 4,
// corpus 1039: a monitor's dump of two Proxmox nodes, "total": 32850432000, "used": ...,
// "free": ..., "cached": 0). One "key": value pair a line holds too few numbers for
// unreadEvidence, and a paste of such an object exited 3 as if it held no evidence. A pair
// whose key names memory or traffic in bytes or packets is listed as unread; the other
// number pairs right below it ("usage": 17.3) join its entry, and a lone number pair of
// another key ("port": 8080) stays prose.

const jsonStatWhy = "a JSON object of memory or network statistics (total, used, free, cached, rx/tx bytes) headroom does not read"

// jsonStatKeys: the keys of such objects, lower case without '_' and '-'.
var jsonStatKeys = map[string]bool{"total": true, "used": true, "free": true, "available": true, "avail": true,
	"buffers": true, "cached": true, "shared": true, "slab": true, "swaptotal": true, "swapused": true, "swapfree": true,
	"memtotal": true, "memused": true, "memfree": true, "memavailable": true, "rxbytes": true, "txbytes": true,
	"rxpackets": true, "txpackets": true, "rxdropped": true, "txdropped": true, "rxerrors": true, "txerrors": true,
	"bytesrecv": true, "bytessent": true, "totalbytes": true, "usedbytes": true, "freebytes": true}

// jsonNumberPair parses a JSON object's member line `"key": number` (a comma after it or
// not) and returns the key normalised for jsonStatKeys.
func jsonNumberPair(t string) (key string, ok bool) {
	s := strings.TrimSpace(t)
	if len(s) < 5 || s[0] != '"' {
		return "", false
	}
	k := strings.IndexByte(s[1:], '"')
	if k <= 0 || k > 64 {
		return "", false
	}
	key, rest := s[1:1+k], strings.TrimSpace(s[2+k:])
	rest, ok = strings.CutPrefix(rest, ":")
	if !ok {
		return "", false
	}
	v := strings.TrimSpace(rest)
	if q := strings.TrimSuffix(v, ","); len(q) >= 3 && q[0] == '"' && q[len(q)-1] == '"' {
		// fix30a: a number quoted as a string, as router firmware's CGI prints its values
		// (Asuswrt httpd's memory_usage: {"mem_total": "1048576", "mem_free": "102884"});
		// digits only inside the quotes ("386.7" or "1,024" is no counter's value).
		v = q[1 : len(q)-1]
		if strings.Trim(v, "0123456789") != "" {
			return "", false
		}
	}
	if !isNumberToken(v) || strings.ContainsAny(v, "kKMGB%()[];") {
		return "", false // a JSON number: no unit, no brackets (isNumberToken takes both)
	}
	n := strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(key))
	return n, true
}

// A program's statistics as a JSON object on one line (issue 29, g56–g58 fix15b): a
// monitoring tool's dump of a daemon's counters, `{"ntp.server.packets_received":1966,
// "ntp.server.packets_dropped":24}` (facebook/time's ntpcheck serverstats, from ntpd's or
// chrony's own server statistics). The packets a daemon counts as dropped are its own
// decision (a rate limit, an access rule, a malformed request), not the kernel's socket or
// NIC drops; the line is evidence of the domain, listed as unread, and nothing is
// diagnosed from it.
const jsonAppCountersWhy = "a program's own packet counters as a one-line JSON object (packets received/dropped as the daemon counts them, e.g. an NTP or DNS server's statistics): its own decisions (rate limits, access rules, bad requests), not the kernel's socket-buffer or NIC drops; headroom does not read them"

// jsonAppCounterKeys: the last dotted part of such a key, lower case without '_' and '-'.
var jsonAppCounterKeys = map[string]bool{"packetsreceived": true, "packetsdropped": true, "packetssent": true,
	"packetsin": true, "packetsout": true, "drops": true, "dropped": true, "received": true}

// jsonOneLineCounters: t is one JSON object of at least two number members, one of them a
// packet counter's (jsonAppCounterKeys or jsonStatKeys). Gate: the line starts with '{' and
// ends with '}' before anything is split.
func jsonOneLineCounters(t string) bool {
	s := strings.TrimSpace(t)
	s = strings.TrimSuffix(s, ",")
	if len(s) < 8 || s[0] != '{' || s[len(s)-1] != '}' || strings.ContainsAny(s[1:len(s)-1], "{}[]") {
		return false
	}
	nums, counter := 0, false
	for _, m := range strings.Split(s[1:len(s)-1], ",") {
		key, ok := jsonNumberPair(m)
		if !ok {
			continue
		}
		nums++
		if k := strings.LastIndexByte(key, '.'); k >= 0 {
			key = key[k+1:]
		}
		counter = counter || jsonAppCounterKeys[key] || jsonStatKeys[key]
	}
	return nums >= 2 && counter
}

// jsonOneLineMemory: the one-line object of jsonOneLineCounters holds a memory member
// (mem_total, mem_free, memavailable...), so it is a memory report, not a daemon's packet
// counters (fix30a: Asuswrt's memory_usage object as a router integration fetches it).
func jsonOneLineMemory(t string) bool {
	for _, m := range strings.Split(t, ",") {
		if key, ok := jsonNumberPair(strings.Trim(strings.TrimSpace(m), "{}")); ok && strings.HasPrefix(key, "mem") && jsonStatKeys[key] {
			return true
		}
	}
	return false
}

// jsonStatLine reports whether line i is a member of a JSON statistics object: a pair of
// jsonStatKeys, or any number pair right below a line listed as one.
func (d *doc) jsonStatLine(i int) bool {
	key, ok := jsonNumberPair(d.ls[i].Text)
	if !ok {
		return false
	}
	if jsonStatKeys[key] {
		return true
	}
	n := len(d.tl.Unparsed)
	return n > 0 && d.tl.Unparsed[n-1].Why == jsonStatWhy && d.tl.Unparsed[n-1].LastLine == d.ls[i].No-1
}

// A virtio-balloon device's statistics as one JSON object (fix36b): Firecracker's GET
// /balloon/statistics (src/vmm/src/devices/virtio/balloon: BalloonStats, serde names of the
// guest driver's VIRTIO_BALLOON_S_* tags, include/uapi/linux/virtio_balloon.h: swap_in,
// swap_out, major_faults, minor_faults, free_memory, total_memory, available_memory,
// disk_caches, hugetlb_allocations, hugetlb_failures, 6.12+ oom_kill, alloc_stall,
// async_scan, direct_scan, async_reclaim, direct_reclaim) beside the balloon's
// target_pages/actual_pages. The figures are the guest kernel's, reported through the
// balloon to the VMM: the guest's memory, not this host's meminfo or vmstat, and headroom
// has no reader that would tell the guest from the host in them.
const balloonStatsWhy = "a virtio-balloon device's statistics (Firecracker's /balloon/statistics: the guest kernel's VIRTIO_BALLOON_S_* figures, swap in/out, faults, free/total/available memory, disk caches and on 6.12+ oom_kill, alloc_stall, scans and reclaims, with the balloon's target and actual pages): the guest's memory as its driver reports it to the VMM, not this host's /proc/meminfo or /proc/vmstat; headroom does not read them"

// balloonStatKeys: the guest driver's statistics as Firecracker names them (jsonNumberPair's
// normalisation: lower case, no '_').
var balloonStatKeys = map[string]bool{"swapin": true, "swapout": true, "majorfaults": true, "minorfaults": true,
	"freememory": true, "totalmemory": true, "availablememory": true, "diskcaches": true,
	"hugetlballocations": true, "hugetlbfailures": true, "oomkill": true, "allocstall": true,
	"asyncscan": true, "directscan": true, "asyncreclaim": true, "directreclaim": true}

// balloonStatsObject: t is one JSON object holding at least four balloonStatKeys number
// members, two of them free_memory and total_memory. Gate: '{' first and "_memory\"" in it
// before anything is split.
func balloonStatsObject(t string) bool {
	s := strings.TrimSuffix(strings.TrimSpace(t), ",")
	if len(s) < 8 || s[0] != '{' || s[len(s)-1] != '}' || !strings.Contains(s, "_memory\"") || strings.ContainsAny(s[1:len(s)-1], "{}[]") {
		return false
	}
	n, free, total := 0, false, false
	for _, m := range strings.Split(s[1:len(s)-1], ",") {
		key, ok := jsonNumberPair(m)
		if !ok || !balloonStatKeys[key] {
			continue
		}
		n++
		free = free || key == "freememory"
		total = total || key == "totalmemory"
	}
	return n >= 4 && free && total
}

// Falco's metrics snapshot (fix39b, corpus 3344): the "Falco internal: metrics snapshot"
// event's output_fields (userspace/falco/falco_metrics.cpp and libs' metrics collector,
// the names "falco.<metric>" and "scap.<metric>"): falco.memory_rss, memory_pss and
// memory_vsz are Falco's own process in MB, falco.memory_used_host and
// cpu_usage_perc_total_host the node's as Falco's collector reads /proc/meminfo and
// /proc/stat, falco.n_failed_fd_lookups and the like its own tables' cache, scap.n_drops its
// capture ring's drops. A snapshot at one time states no limit, pressure or kernel drop
// counter a rule reads; each number member is listed with what it is.
const falcoMetricsWhy = "Falco's metrics snapshot (\"Falco internal: metrics snapshot\" output_fields, falco_metrics.cpp: falco.memory_rss/pss/vsz Falco's own process in MB, falco.memory_used_host and cpu_usage_perc_total_host the node's as Falco reads /proc, n_*_lookups Falco's own table cache, scap.n_drops drops of Falco's capture ring, not the kernel's socket or NIC): one snapshot with no limit, pressure or kernel counter a rule reads; headroom does not read them"

// falcoMetricLine: t is one number member of such a snapshot, its key Falco's own name.
func falcoMetricLine(t string) bool {
	s := strings.TrimSpace(t)
	if !strings.HasPrefix(s, `"falco.`) && !strings.HasPrefix(s, `"scap.`) {
		return false
	}
	_, ok := jsonNumberPair(s)
	return ok
}
