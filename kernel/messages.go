package kernel

import "strings"

// The kernel log messages the rules read, each with the code that prints it. This is their
// one home: the pasted-text reader uses it to recognise a message quoted without any log
// prefix (in a post, a code block, a ticket), and the rules search the log with it.
var (
	// MsgPageAllocFailure: warn_alloc (mm/page_alloc.c; __alloc_pages_slowpath's printk before
	// 4.x): "page allocation failure: order:0, mode:0x..." since 2.6 ("failure." on 2.6.x);
	// 2.4's __alloc_pages printed "2-order allocation failed (gfp=0x20/0)". The header is
	// followed by a stack and a zone dump; artifact reads the whole report.
	MsgPageAllocFailure = []string{"page allocation failure", "-order allocation failed"}
	// MsgPageAllocStall: warn_alloc from __alloc_pages_slowpath (mm/page_alloc.c, 4.1x
	// kernels): "python3: page allocation stalls for 10060ms, order:1, mode:0x15080c0(...)",
	// a request still retrying reclaim after 10 s; followed by the same stack and dump as a
	// failure.
	MsgPageAllocStall = "page allocation stalls for "
	// MsgTCPOutOfMemory: tcp_out_of_memory (net/ipv4/tcp.c, 3.x+: "TCP: out of memory --
	// consider tuning tcp_mem"); 2.6's tcp_out_of_resources printed "Out of socket memory".
	MsgTCPOutOfMemory = []string{"TCP: out of memory", "Out of socket memory", "out of socket memory"}
	// MsgTooManyOrphans: tcp_out_of_resources → tcp_too_many_orphans (net/ipv4/tcp_timer.c:
	// "too many orphaned sockets"; 2.6.x printed "too many of orphaned sockets").
	MsgTooManyOrphans = []string{"too many orphaned sockets", "too many of orphaned sockets"}
	// MsgSynFlood: tcp_syn_flood_action (net/ipv4/tcp_input.c): "TCP: request_sock_TCP:
	// Possible SYN flooding on port 5000. Sending cookies.  Check SNMP counters." (3.x+; the
	// proto names the listener's request_sock slab, "TCPv6" for IPv6; "Dropping request"
	// without syncookies). tcp_conn_request prints it once per listener when the SYN queue
	// (inet_csk_reqsk_queue_is_full, also bounded by the accept backlog) is full; 2.6 printed
	// "possible SYN flooding on port N. Sending cookies." from tcp_v4_conn_request.
	MsgSynFlood = []string{"Possible SYN flooding on port", "possible SYN flooding on port"}
	// MsgOOMNoKillable: out_of_memory (mm/oom_kill.c) found no task to kill: "Out of memory
	// and no killable processes..." then, since 4.19, panic("System is deadlocked on
	// memory"); before, the first message was the panic itself ("Kernel panic - not syncing:
	// Out of memory and no killable processes..."). A global OOM that ended in a panic.
	MsgOOMNoKillable = []string{"Out of memory and no killable processes", "System is deadlocked on memory"}
	// MsgConntrackFull: nf_conntrack_alloc/early_drop (net/netfilter/nf_conntrack_core.c:
	// "nf_conntrack: table full, dropping packet"; ip_conntrack before 2.6.15).
	MsgConntrackFull = []string{"table full, dropping packet"}
	// MsgNotPhysical: allocations that fail for address space, not pages (mm/vmalloc.c,
	// mm/percpu.c).
	MsgNotPhysical = []string{"vmap allocation for size", "vm_struct allocation failed", "percpu: allocation failed"}
	// MsgSlabFailure: slab_out_of_memory (mm/slub.c), SLAB's equivalent.
	MsgSlabFailure = []string{"SLUB: Unable to allocate memory", "SLAB: Unable to allocate memory"}
	// MsgWarnAllocFrame: warn_alloc's own frame in the call trace of an allocation-failure
	// report ("warn_alloc+0x13b/0x160", "warn_alloc_failed+0x110/0x180" before 4.9,
	// "warn_alloc.cold+0x7b/0xdd" with a split cold path; mm/page_alloc.c), and its rate
	// limiter's summary ("warn_alloc: 96 callbacks suppressed"): a failure happened even when
	// the text lost its "page allocation failure" header (an excerpt, a grep).
	MsgWarnAllocFrame = []string{"warn_alloc+0x", "warn_alloc_failed+0x", "warn_alloc.cold+0x", "warn_alloc: ", "warn_alloc_failed: "}
	// MsgRatelimited: printk_ratelimit's summary (lib/ratelimit.c, net/core/utils.c
	// net_ratelimit): "net_ratelimit: 42 callbacks suppressed", "warn_alloc: 96 callbacks
	// suppressed". The suppressed messages happened: they count toward the totals.
	MsgRatelimited = []string{"callbacks suppressed"}
)

// IsKnownMessage reports whether a line holds one of the messages above, whatever came
// before it.
func IsKnownMessage(t string) bool {
	for _, set := range [][]string{MsgTCPOutOfMemory, MsgTooManyOrphans, MsgSynFlood, MsgOOMNoKillable, MsgConntrackFull, MsgNotPhysical, MsgSlabFailure, MsgRatelimited} {
		for _, m := range set {
			if strings.Contains(t, m) {
				return true
			}
		}
	}
	return false
}
