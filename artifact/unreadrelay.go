package artifact

import "strings"

// Overlay routers' own memory lines (fix36c, round 31's g138): Tor's queue limit and its own
// out-of-memory handler, cjdns's allocator limit. Each names the program's own budget, not
// the kernel's: Tor's MaxMemInQueues caps the cells and buffers it queues (src/core/or/
// relay.c cell_queues_check_size, circuitlist.c circuits_handle_oom close circuits past it),
// cjdns's Allocator refuses an allocation past the fixed limit the router sets itself
// (memory/Allocator.c newAllocation: failure(..., "Out of memory, limit exceeded")). A paste
// of them held nothing headroom read (exit 3); their "out of memory" words are no OOM kill.
// Each is listed as unread with what it proves, its figures kept (programFigures).
//
// Gated: relayOwnLine runs inside serverOwnLine (prose lines and the servers' syslog
// lines); one IndexAny for the forms' rare bytes, then fixed needles. No regexp.

const (
	torQueuesLowWhy = "Tor's start-up warning that its queue limit is small (config: \"MaxMemInQueues is set to a low value; if your client doesn't work, this may be the reason why.\"): MaxMemInQueues, set in torrc or by an app that embeds Tor (kept low under a small process memory cap), bounds the cells and buffers Tor queues before its own out-of-memory handler closes circuits; a setting of Tor's, no shortage of the host's memory and no OOM kill; headroom has no rule for it"
	torLowMemWhy    = "Tor's own out-of-memory handler ran (src/core/or/relay.c cell_queues_check_size: \"We're low on memory (cell queues total alloc: N buffer total alloc: M, ...). Killing circuits with over-long queues. (This behavior is controlled by MaxMemInQueues.)\"): the bytes Tor holds in cell queues, buffers, compression and caches passed MaxMemInQueues (by default from the host's RAM at start), so Tor closes its own circuits (circuitlist.c circuits_handle_oom: \"Removed N bytes by killing M circuits\"); Tor's budget, not the kernel's page allocator and no kill by the kernel's OOM killer; headroom has no rule for it"
	cjdnsLimitWhy   = "cjdns's own allocator refused an allocation past the memory limit the router sets for itself (memory/Allocator.c newAllocation: \"FILE:LINE Fatal error: [Out of memory, limit exceeded]\"; cjdroute then dumps its allocator tree and aborts): the router's own budget, used up by a leak or a load inside it; malloc did not fail, no page allocation failure and no kill by the kernel's OOM killer; headroom has no rule for a program's own budget"
	// fix47c (corpus 3988): coturn's start banner (src/apps/relay/mainrelay.c, after
	// set_system_parameters raised RLIMIT_NOFILE as far as it may): "Max number of open
	// files/sockets allowed for this process: %lu", then that limit halved (a third with one
	// UDP socket per endpoint), rounded down to 500, as "max supported number of TURN
	// Sessions possible is: %lu (approximately)". Both are printed at every start.
	coturnNofileWhy   = "coturn's start banner: the open-file limit of its process (src/apps/relay/mainrelay.c: \"Max number of open files/sockets allowed for this process: N\", RLIMIT_NOFILE after coturn raised it), printed at every start; a limit of this host's process, no shortage: headroom has no rule that judges a process's file limit without its open descriptors (ls /proc/PID/fd | wc -l)"
	coturnSessionsWhy = "coturn's start banner: the sessions its open-file limit allows (src/apps/relay/mainrelay.c: \"max supported number of TURN Sessions possible is: N (approximately)\", RLIMIT_NOFILE halved, or a third with a UDP socket per endpoint, rounded down to 500), a capacity note computed at every start; no count of sessions in use and no failure"
	// fix47c (corpus 3999): eturnal's Prometheus gauge of its open TURN sessions
	// (src/mod_stats_prometheus.erl declare_metrics: eturnal_turn_open_sessions, "Number of
	// currently active TURN sessions", labelled by transport; raised on turn_session_start,
	// lowered on turn_session_stop), as a scrape or a query shows it, name then labels.
	eturnalSessionsWhy = "eturnal's Prometheus gauge of the TURN sessions open now (src/mod_stats_prometheus.erl: eturnal_turn_open_sessions{transport=...}, up at each session's start, down at its stop): a count of the relay's sessions on this host, no memory figure and no failure; with the relay's RSS (ps -o rss,args -C beam.smp) it gives memory per session; headroom has no rule for a relay's session count"
	cjdnsMallocWhy     = "cjdns's allocator got NULL from malloc (memory/Allocator.c: \"Fatal error: [Out of memory, malloc() returned NULL]\") and the router aborted: the process's address space, RLIMIT_AS or overcommit refused the request; no kill by the kernel's OOM killer, and the line holds no figure of the host's memory; headroom has no reader for cjdns's log"
)

var relayOwnForms = []ownLineForm{
	{"MaxMemInQueues is set to a low value", "", false, torQueuesLowWhy},
	{"We're low on memory (cell queues total alloc: ", "", true, torLowMemWhy},
	{"Removed ", " bytes by killing ", true, torLowMemWhy},
	{"Fatal error: [Out of memory, limit exceeded", "", true, cjdnsLimitWhy},
	{"Fatal error: Out of memory, limit exceeded", "", true, cjdnsLimitWhy},
	{"Fatal error: [Out of memory, malloc() returned NULL", "", true, cjdnsMallocWhy},
	{"Fatal error: Out of memory, malloc() returned NULL", "", true, cjdnsMallocWhy},
	{"Max number of open files/sockets allowed for this process: ", "", false, coturnNofileWhy},
	{"max supported number of TURN Sessions possible is: ", "", false, coturnSessionsWhy},
	{"eturnal_turn_open_sessions{", "}", false, eturnalSessionsWhy},
}

// relayOwnGate: a byte of every relayOwnForms needle ('Q' "MaxMemInQueues", the apostrophe of "We're",
// 'R' "Removed", 'F' "Fatal", '/' coturn's "files/sockets", 'N' its "TURN", '{' eturnal's
// metric's labels).
const relayOwnGate = "Q'RF/N{"

// relayOwnLine says why t is one of relayOwnForms' lines, and whether it is the program's own
// out-of-memory.
func relayOwnLine(t string) (why string, oom, ok bool) {
	if strings.IndexAny(t, relayOwnGate) < 0 {
		return "", false, false
	}
	for i := range relayOwnForms {
		f := &relayOwnForms[i]
		k, rest, ok := f.find(t)
		if !ok {
			continue
		}
		if f.needle[0] == 'e' && strings.TrimLeft(t[:k], " \t`>") != "" {
			continue // a metric's line begins with its name; "query eturnal_turn_open_sessions{...}" advises
		}
		if f.needle[0] == 'R' && !startsWithDigit(rest) {
			continue // "Removed N bytes by killing M circuits": Tor's own figures
		}
		return f.why, f.oom, true
	}
	return "", false, false
}
