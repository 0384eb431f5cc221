package kernel

import (
	"slices"
	"strings"
)

// The kernel log messages the rules read, each with the code that prints it. This is their
// one home: the pasted-text reader uses it to recognise a message quoted without any log
// prefix (in a post, a code block, a ticket), and the rules search the log with it.
var (
	// MsgPageAllocFailure: warn_alloc (mm/page_alloc.c; __alloc_pages_slowpath's printk before
	// 4.x): "page allocation failure: order:0, mode:0x..." since 2.6 ("failure." on 2.6.x);
	// 2.4's __alloc_pages printed "2-order allocation failed (gfp=0x20/0)". The header is
	// followed by a stack and a zone dump; artifact reads the whole report. vmemmap_alloc_block
	// (mm/sparse-vmemmap.c, memory hot-add building a section's struct pages) calls warn_alloc
	// with its own reason, "vmemmap alloc failure: order:%u", and the same mode, stack and
	// Mem-Info follow.
	MsgPageAllocFailure = []string{"page allocation failure", "-order allocation failed", "vmemmap alloc failure"}
	// MsgNoMMUAllocFailure: a no-MMU kernel's mmap that found no pages (mm/nommu.c
	// do_mmap_private: alloc_pages(GFP_KERNEL, get_order(len)), then on failure "Allocation
	// of length %lu from process %d (%s) failed" and show_free_areas): a process image or
	// anonymous mapping needs physically contiguous pages there, so it is a page allocation
	// failure of that order with the zone dump after it.
	MsgNoMMUAllocFailure = "Allocation of length "
	// MsgPageAllocStall: warn_alloc from __alloc_pages_slowpath (mm/page_alloc.c, 4.1x
	// kernels): "python3: page allocation stalls for 10060ms, order:1, mode:0x15080c0(...)",
	// a request still retrying reclaim after 10 s; followed by the same stack and dump as a
	// failure.
	MsgPageAllocStall = "page allocation stalls for "
	// MsgTCPOutOfMemory: tcp_out_of_memory (net/ipv4/tcp.c, 3.x+: "TCP: out of memory --
	// consider tuning tcp_mem"): TCP's memory passed tcp_mem[2].
	// The message's tail is unique to it and survives a retyping in another case
	// ("tcp:out of memory -- consider tuning tcp_mem" in an issue title, corpus 524).
	MsgTCPOutOfMemory = []string{"TCP: out of memory", "out of memory -- consider tuning tcp_mem"}
	// MsgOutOfSocketMemory: 2.6's tcp_out_of_resources (net/ipv4/tcp_timer.c) printed "Out of
	// socket memory" for either limit: orphans at tcp_max_orphans, or an orphan with queued
	// data while TCP's memory was above tcp_mem[2] (tcp_too_many_orphans). 3.x split it into
	// the two messages above and below. Which limit it was, only the numbers beside it say.
	MsgOutOfSocketMemory = []string{"Out of socket memory", "out of socket memory"}
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
	// MsgSynDrop: 2.4-3.x tcp_v4_conn_request/tcp_v6_conn_request (net/ipv4/tcp_ipv4.c,
	// LIMIT_NETDEBUG "TCP: drop open request from %u.%u.%u.%u/%u", "%pI4/%u" and "%pI6/%u"
	// later): with tcp_syncookies off and the listener's SYN queue in the last quarter of
	// tcp_max_syn_backlog, a SYN from a peer not proven alive was dropped. One line per SYN
	// (rate-limited); read only when an address follows (SynDropAddressed).
	MsgSynDrop = []string{"TCP: drop open request from "}
	// MsgOOMNoKillable: out_of_memory (mm/oom_kill.c) found no task to kill: "Out of memory
	// and no killable processes..." then, since 4.19, panic("System is deadlocked on
	// memory"); before, the first message was the panic itself ("Kernel panic - not syncing:
	// Out of memory and no killable processes..."). A global OOM that ended in a panic.
	MsgOOMNoKillable = []string{"Out of memory and no killable processes", "System is deadlocked on memory"}
	// MsgOOMKill: the OOM killer's report (mm/oom_kill.c): out_of_memory's dump_header
	// "java invoked oom-killer: gfp_mask=...", the victim's "Out of memory: Killed process
	// 123 (java)" (2.6: "Out of memory: kill process"), a memory cgroup's "Memory cgroup out
	// of memory: Killed process", and 4.19's summary "oom-kill:constraint=...". A line with
	// one is the OOM report's, not a driver's statement that an allocation failed.
	MsgOOMKill = []string{"invoked oom-killer", "Out of memory:", "Memory cgroup out of memory", "Killed process", "oom-kill"}
	// MsgMemInfo: show_mem's first line (lib/show_mem.c, mm/page_alloc.c show_free_areas),
	// the start of the zone dump after a failure, an OOM report or SysRq-m.
	MsgMemInfo = "Mem-Info:"
	// MsgSysrqShowMem: SysRq-m's own line before its show_mem dump (drivers/tty/sysrq.c
	// sysrq_showmem_op's action_msg "Show Memory", printed as "SysRq : Show Memory" and
	// since 5.x "sysrq: Show Memory"): the dump that follows was asked for, not printed by
	// a failure or the OOM killer.
	MsgSysrqShowMem = []string{"SysRq : Show Memory", "sysrq: Show Memory", "SysRq: Show Memory"}
	// MsgAllocFailure: warn_alloc's header (mm/page_alloc.c; before 4.9 __alloc_pages'
	// printk "page allocation failure. order:N, mode:0x..").
	MsgAllocFailure = []string{"page allocation failure", "page allocation stalls"}
	// MsgOOMVendorNoKill: vendor kernels that replace the OOM killer on small boards with a
	// message and a reboot. Broadcom's router kernels (ASUS RT-AX92U crashlogs, asuswrt-merlin.ng
	// #478; not mainline, and the vendor's source is not public) print "aaews triggered out
	// of memory codition (oom killer not called): gfp_mask=0x201da, order=0, oom_score_adj=0"
	// (sic), then panic "Reboot due to persistent out of memory codition". A global
	// out-of-memory that ended in a reboot, as MsgOOMNoKillable; either spelling is read.
	MsgOOMVendorNoKill = []string{"(oom killer not called)", "due to persistent out of memory co"}
	// MsgConntrackFull: nf_conntrack_alloc/early_drop (net/netfilter/nf_conntrack_core.c:
	// "nf_conntrack: table full, dropping packet"; ip_conntrack before 2.6.15).
	MsgConntrackFull = []string{"table full, dropping packet"}
	// MsgConntrackAllocFail: __nf_conntrack_alloc (net/netfilter/nf_conntrack_core.c, 2.6.x:
	// "nf_conntrack_alloc: Can't alloc conntrack."; ip_conntrack_core.c's "Can't alloc
	// conntrack" before 2.6.15): the slab allocation of a new flow's struct nf_conn returned
	// NULL, so the packet that would have created the entry was dropped. Whether the table
	// was at nf_conntrack_max or memory was short, the message alone does not say.
	MsgConntrackAllocFail = []string{"Can't alloc conntrack"}
	// MsgNetdevWatchdog: the transmit watchdog (net/sched/sch_generic.c dev_watchdog): a TX
	// queue stopped longer than the device's watchdog_timeo, "NETDEV WATCHDOG: eth0 (ena):
	// transmit queue 1 timed out" (2.6-5.x; "... timed out 5340 ms" since 5.x), printed
	// through netdev_crit since 6.x: "ena 0000:90:00.0 eth0: NETDEV WATCHDOG: CPU: 56:
	// transmit queue 11 timed out 5340 ms". A log record; no rule claims it (a stalled TX
	// queue is the driver's or the device's, not memory's).
	MsgNetdevWatchdog = []string{"NETDEV WATCHDOG: "}
	// MsgTxHang: what the drivers print when that watchdog calls their ndo_tx_timeout, or when
	// their own check finds a transmit ring that stopped completing, in the lower case a
	// sentence names them in ("show messages in logs such as 'TX hangs'"): vmxnet3 "tx hang"
	// (drivers/net/vmxnet3/vmxnet3_drv.c vmxnet3_tx_timeout), e1000/igb/ixgbe "Detected Tx
	// Unit Hang" (e1000_main.c e1000_clean_tx_irq, igb_main.c igb_clean_tx_irq, ixgbe_main.c
	// ixgbe_clean_tx_irq), e1000e "Detected Hardware Unit Hang" (netdev.c
	// e1000_print_hw_hang), a "tx timeout" as drivers and people shorten it, and the
	// watchdog's own "transmit queue N timed out" (MsgTxQueueTimedOut: both words). The
	// device's or the driver's transmit path stalled and was reset: not memory, and no rule
	// judges it.
	MsgTxHang          = []string{"tx hang", "tx unit hang", "hardware unit hang", "tx timeout", "transmit timeout"}
	MsgTxQueueTimedOut = []string{"transmit queue", "timed out"}
	// MsgConntrackFullNamed: the same event in the words people shorten it to in a title
	// ("nf_conntrack table full", "conntrack: table full"); read only where a text's title
	// states its problem (artifact's titleMessage), never in a sentence, where it is as often
	// a question about it.
	MsgConntrackFullNamed = []string{"conntrack: table full", "conntrack table full", "conntrack table is full"}
	// MsgNotPhysical: allocations that fail for address space, not pages (mm/vmalloc.c,
	// mm/percpu.c). "vmalloc: allocation failure: N bytes" is 4.12-5.12's
	// __vmalloc_node_range when __get_vm_area_node found no range (its goto fail; the pages'
	// failure printed "allocation failure, allocated N of M bytes" in __vmalloc_area_node),
	// the message 5.13 renamed "vm_struct allocation failed". fix45a (corpus 3764): "vmalloc
	// error: size N, exceeds total pages" is __vmalloc_node_range's refusal (5.15+) of a
	// request larger than all of RAM (size >> PAGE_SHIFT > totalram_pages()), made before any
	// page is asked for: an impossible size, not free pages short.
	MsgNotPhysical = []string{"vmap allocation for size", "vm_struct allocation failed", "percpu: allocation failed", "vmalloc: allocation failure: ", ", exceeds total pages"}
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
	// MsgCMAAllocFail: cma_alloc (mm/cma.c, 4.x+: pr_err("%s: alloc failed, req-size: %lu
	// pages, ret: %d\n", __func__, ...); since 5.x pr_err_ratelimited with "%s: %s: alloc
	// failed, req-size: ..." naming the area, printed after pr_fmt's "cma: "): a request to
	// the contiguous memory area failed (PoolCMA). The words after "alloc failed" are the
	// format's own, so the line is the kernel's even where a post quotes it without "cma: ".
	MsgCMAAllocFail = []string{"alloc failed, req-size: "}
)

// knownMessages are the messages a text may quote without a log prefix.
var knownMessages = [][]string{MsgTCPOutOfMemory, MsgOutOfSocketMemory, MsgTooManyOrphans, MsgSynFlood, MsgOOMNoKillable, MsgConntrackFull, MsgConntrackAllocFail, MsgNetdevWatchdog, MsgNotPhysical, MsgSlabFailure, MsgRatelimited, MsgCMAAllocFail}

// IsQuotedMessage reports whether a line without a log prefix quotes one of the messages
// above as the kernel printed it: right before the message stands what the kernel or a log
// puts there ("TCP: ", "nf_conntrack: ", "not syncing: ", "net_ratelimit: 280 ", a stamp)
// or nothing but quoting marks. A sentence that names a message ("- There are too many
// orphaned sockets on the system", 'throwing the "Out of socket memory" error', "如果超出这个值，
// 系统就会记录错误信息：Out of socket memory") is prose about it (corpus 478, 216).
func IsQuotedMessage(t string) bool {
	for _, set := range knownMessages {
		for _, m := range set {
			if i := strings.Index(t, m); i >= 0 && quotedAfter(t[:i]) && !namedInSentence(t[:i], t[i+len(m):]) {
				return true
			}
		}
	}
	if strings.IndexByte(t, ',') >= 0 {
		for _, v := range unspacedMessages {
			if i := strings.Index(t, v[1]); i >= 0 && quotedAfter(t[:i]) && !namedInSentence(t[:i], t[i+len(v[1]):]) {
				return true
			}
		}
	}
	return false
}

// RespaceMessage is t with a known message retyped without the space after its comma
// ("nf_conntrack:table full,dropping packet", corpus 1630) written as the kernel prints it,
// so the rules that search the log for the message's words find them; t itself otherwise.
func RespaceMessage(t string) string {
	if strings.IndexByte(t, ',') < 0 {
		return t
	}
	for _, v := range unspacedMessages {
		if i := strings.Index(t, v[1]); i >= 0 {
			return t[:i] + v[0] + t[i+len(v[1]):]
		}
	}
	return t
}

// quotedAfter: the text before a message ends where a message can start: at the line's
// start, after a dmesg stamp's ']', after a prefix "name:" whose name is two or more ASCII
// name characters, or after such a prefix and a count.
func quotedAfter(before string) bool {
	b := strings.TrimRight(before, " \t\"'`>*_|(")
	if b == "" || b[len(b)-1] == ']' {
		return true
	}
	if strings.TrimLeft(b, " \t") == "#" && strings.HasSuffix(before, " ") {
		// "           # vmap allocation for size 268439552 failed: ..." (corpus 950): the
		// writer marked each pasted log line with "# ", a root prompt's mark, as others
		// mark them with "> ". Only a lone mark: "# see the vmap allocation ..." is prose.
		return true
	}
	j := len(b)
	for j > 0 && b[j-1] >= '0' && b[j-1] <= '9' {
		j--
	}
	if j < len(b) {
		if b = strings.TrimRight(b[:j], " \t"); b == "" {
			return true
		}
	}
	if b[len(b)-1] != ':' {
		return false
	}
	n := 0
	for k := len(b) - 2; k >= 0 && nameChar(b[k]); k-- {
		n++
	}
	return n >= 2
}

// namedInSentence: the message is opened by a quotation mark and closed by one that words
// follow ('"tcp: out of memory -- consider tuning tcp_mem"这个错误信息表示...', this error
// message means..., corpus 524): a sentence about the message, not the line the kernel
// printed. A quotation elsewhere on the line ('... dropping packet.，... echo "262144" >',
// corpus 224) is not one around the message.
func namedInSentence(before, after string) bool {
	b := strings.TrimRight(before, " \t")
	if strings.HasSuffix(b, ":") { // "tcp: " before the message's tail
		k := len(b) - 1
		for k > 0 && nameChar(b[k-1]) {
			k--
		}
		b = strings.TrimRight(b[:k], " \t")
	}
	// Single quotes and backticks too: a guide's title "Linux Error Guide: 'TCP: out of
	// memory -- consider tuning tcp_mem' Socket Memory Pressure".
	for _, q := range [][2]string{{"\"", "\""}, {"\u201c", "\u201d"}, {"\u300c", "\u300d"}, {"'", "'"}, {"`", "`"}, {"\u2018", "\u2019"}} {
		if !strings.HasSuffix(b, q[0]) {
			continue
		}
		if _, rest, ok := strings.Cut(after, q[1]); ok && strings.TrimSpace(strings.Trim(rest, ".,;:!?。，")) != "" {
			return true
		}
	}
	return false
}

func nameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// FindMessage finds one of the messages above in t whatever its case, as a person retypes
// it ("TCP:Too many of orphaned sockets", corpus 537): the message as the kernel prints it
// and where t holds it. ok is false when t names none.
func FindMessage(t string) (msg string, i, j int, ok bool) {
	lt := asciiLower(t)
	for _, set := range knownMessages {
		for _, m := range set {
			if k := strings.Index(lt, asciiLower(m)); k >= 0 {
				return m, k, k + len(m), true
			}
		}
	}
	if strings.IndexByte(lt, ',') >= 0 {
		// The message retyped without the space after its comma ("nf_conntrack:table
		// full,dropping packet.", corpus 1630): the same words, so the same message.
		for _, v := range unspacedMessages {
			if k := strings.Index(lt, v[2]); k >= 0 {
				return v[0], k, k + len(v[2]), true
			}
		}
	}
	return "", 0, 0, false
}

// unspacedMessages holds each known message that has ", " with its form without that space,
// as printed and lowered: {message, retyped, retyped lowered}.
var unspacedMessages = func() (out [][3]string) {
	for _, set := range knownMessages {
		for _, m := range set {
			if strings.Contains(m, ", ") {
				u := strings.ReplaceAll(m, ", ", ",")
				out = append(out, [3]string{m, u, asciiLower(u)})
			}
		}
	}
	return out
}()

// asciiLower lowers ASCII letters only, so byte offsets stay those of s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// allocEntryFuncs are the buddy allocator's entry function under each name it had: the
// function that holds the order check since 4.20 (mm/page_alloc.c, "mm, page_alloc: check
// for max order in hot path"): __alloc_pages_nodemask (4.20–5.12), __alloc_pages (5.13–6.9),
// __alloc_pages_noprof (6.10+, memory allocation profiling's wrapper).
var allocEntryFuncs = []string{"__alloc_pages_nodemask", "__alloc_pages", "__alloc_pages_noprof"}

// IsAllocOrderWarn reports whether a log line is the WARNING the buddy allocator prints for
// a request above its largest order: in the entry function (allocEntryFuncs),
//
//	if (unlikely(order >= MAX_ORDER)) { WARN_ON_ONCE(!(gfp_mask & __GFP_NOWARN)); return NULL; }
//
// (4.20–6.0), `if (WARN_ON_ONCE_GFP(order >= MAX_ORDER, gfp)) return NULL;` (6.1–6.3),
// `order > MAX_ORDER` (6.4–6.7, MAX_ORDER then the largest order) and `order >
// MAX_PAGE_ORDER` (6.8+). It is the entry function's only WARN, so the line is read by its
// site, "WARNING: CPU: 3 PID: 1 at mm/page_alloc.c:4724 __alloc_pages_nodemask+0x1ee/0x320"
// (or "WARNING: at mm/page_alloc.c:NNNN __alloc_pages+0x..." before 3.15's CPU/PID), never
// by its line number, which differs per build. The slow path's WARNs
// (__alloc_pages_slowpath: the same order check before 4.20, and __GFP_NOFAIL misuse) are
// not this: the allocation may go on after them (the slow path is a function of its own
// in these kernels' traces, "__alloc_pages_slowpath+0x.../0x..."). The site's function is
// read as printk prints it ("__alloc_pages+0x2f5/0x350") and as scripts/decode_stacktrace.sh
// rewrites it, the offset replaced by its source line ("__alloc_pages_noprof
// (mm/page_alloc.c:4685 (discriminator 11))", the form of 0-day's reports).
func IsAllocOrderWarn(line string) bool {
	i := strings.Index(line, "WARNING:")
	if i < 0 {
		return false
	}
	rest := line[i:]
	j := strings.Index(rest, " at mm/page_alloc.c:")
	if j < 0 {
		return false
	}
	rest = rest[j+len(" at mm/page_alloc.c:"):]
	k := 0
	for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
		k++
	}
	if k == 0 || k == len(rest) || rest[k] != ' ' {
		return false
	}
	site := strings.TrimLeft(rest[k:], " ")
	if fn, _, ok := strings.Cut(site, "+0x"); ok && slices.Contains(allocEntryFuncs, fn) {
		return true
	}
	fn, src, ok := strings.Cut(site, " (")
	return ok && strings.HasPrefix(src, "mm/page_alloc.c:") && slices.Contains(allocEntryFuncs, fn)
}

// AllocOrderWarnSite reports whether a line is the head of the allocator's order WARN whose
// function a mail client moved to the next line: "WARNING: CPU: 0 PID: 1720 at
// mm/page_alloc.c:4696" and nothing after the line number (format=flowed breaks a long line
// after a blank, syzbot's mails among them). The caller joins the next line and asks
// IsAllocOrderWarn.
func AllocOrderWarnSite(line string) bool {
	i := strings.Index(line, "WARNING:")
	if i < 0 {
		return false
	}
	_, after, ok := strings.Cut(line[i:], " at mm/page_alloc.c:")
	after = strings.TrimRight(after, " \t")
	if !ok || after == "" {
		return false
	}
	for k := 0; k < len(after); k++ {
		if after[k] < '0' || after[k] > '9' {
			return false
		}
	}
	return true
}

// SynFloodPortPlaceholder reports whether a SYN flood message's port is a placeholder
// ("port X", "port N", "port <port>", "port %d"): tcp_syn_flood_action always prints it as a
// number ("port %d", 5.x+ "port %s:%u" with the address), so such a line is a guide's or a
// KB's form of the message, not a logged one. false when msg holds no SYN flood message.
func SynFloodPortPlaceholder(msg string) bool {
	_, rest, ok := strings.Cut(msg, "SYN flooding on port ")
	if !ok {
		return false
	}
	f := rest
	if i := strings.IndexAny(f, " \t"); i >= 0 {
		f = f[:i]
	}
	f = strings.TrimRight(f, ".,")
	if f == "" {
		return false
	}
	if i := strings.LastIndexByte(f, ':'); i >= 0 {
		f = f[i+1:] // "0.0.0.0:80", "[::]:443": the port after the address
	}
	return strings.IndexAny(f, "0123456789") < 0
}

// SynFloodRedacted reports whether a SYN flood message with a placeholder port is a
// record a reporter copied from their log and redacted, not a KB's form of the message
// (fix38a): it carries the request sock's slab name that tcp_syn_flood_action prints after
// "TCP: " since 4.4 ("TCP: request_sock_TCP: Possible SYN flooding on port X. Sending
// cookies.  Check SNMP counters."), which the guides' lists of forms ("kernel: possible SYN
// flooding on port X.") never hold.
func SynFloodRedacted(msg string) bool {
	return SynFloodPortPlaceholder(msg) && (strings.Contains(msg, "request_sock_TCP: ") || strings.Contains(msg, "request_sock_TCPv6: "))
}

// SynDropAddressed says whether a MsgSynDrop record names the peer as the kernel prints it,
// an IPv4 or IPv6 address and a port ("TCP: drop open request from 10.1.2.3/34567"), not a
// guide's placeholder ("from X.X.X.X"). A reporter who hid the address in angle brackets
// keeps the kernel's "/port" ("from <ip elided>/16417", g259): a record redacted, not a
// guide's form, which has no port number after a placeholder.
func SynDropAddressed(msg string) bool {
	_, rest, ok := strings.Cut(msg, MsgSynDrop[0])
	if !ok || rest == "" {
		return false
	}
	if strings.HasPrefix(rest, "<") {
		if end := strings.Index(rest, ">/"); end > 1 && !strings.ContainsAny(rest[1:end], "<>\n") {
			port := strings.Fields(rest[end+2:] + " ")[0]
			return port != "" && strings.Trim(port, "0123456789") == ""
		}
		return false
	}
	addr, port, ok := strings.Cut(strings.Fields(rest + " ")[0], "/")
	if !ok || port == "" || addr == "" || strings.Trim(port, "0123456789") != "" {
		return false
	}
	return strings.Trim(addr, "0123456789abcdefABCDEF.:") == "" && strings.ContainsAny(addr, "0123456789")
}
