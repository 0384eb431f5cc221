package artifact

import (
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// Output of virtual switches and capture tools told by its own form (issue 29 item 4, the
// held-out batch g45): an Open vSwitch daemon's log, VPP's `show runtime`, `show interface`
// and `show hardware-interfaces`, PF_RING's pfcount statistics and tcpdump's capture
// summary. Their lines hold one or two numbers among words or numbers in forms no other
// test counts ("1.39e1", "1450/0/0/0"), so a paste of them with or without the command
// exited 3 ("nothing ... is evidence") although they are this domain's counters (drops,
// vectors, a capture ring's losses). A line of such a form opens a run of unread output
// under the form's name, as a command line does (unreadcmd.go): the lines of the same
// output that follow are listed with it, and the report says what it did not read.
// Nothing is diagnosed from them: they are user-space counters, not the kernel's.

// toolForm is one such form: the reason names the tool and the output.
type toolForm struct {
	re  *lazyre.Regexp
	why string
}

var toolForms = [...]toolForm{
	// Open vSwitch's log (lib/vlog.c, the file pattern "%D{%Y-%m-%dT%H:%M:%S.###Z}|%05N|%c%T|%p|%m":
	// time, sequence number, module with the thread's name, level, message) and its
	// syslog form ("ovs|%05N|%c%T|%p|%m"): "2020-05-20T08:53:27.294Z|00872|timeval|WARN|Unreasonably
	// long 1415ms poll interval ...". "Dropped 4 log messages" in it is vlog's rate limiter.
	{lazyre.New(`(?:^|[\s\x60])(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z|ovs)\|\d{3,}\|[A-Za-z0-9_]+(?:\([^)|]*\))?\|(?:EMER|ERR|WARN|INFO|DBG)\|`),
		"an Open vSwitch daemon's log (vlog): its poll-interval, upcall and datapath messages are not read by headroom (\"Dropped N log messages\" there is vlog's rate limiter, not packets)"},
	// Open vSwitch's memory module (lib/memory.c memory_run: "%lu kB peak resident set size
	// after %.1f seconds", "peak resident set size grew %.0f%% in last %.1f seconds, from
	// %lu kB to %lu kB"), also when the vlog prefix was cut ("INFO|168264 kB peak ..."): a
	// daemon's own size, not the host's memory state.
	{lazyre.New(`\b\d+ kB peak resident set size after \d+(?:\.\d+)? seconds|peak resident set size grew \d+% in last \d+(?:\.\d+)? seconds, from \d+ kB to \d+ kB`),
		"an Open vSwitch daemon's memory report (lib/memory.c: its peak resident set size, a process's size, not the host's memory state): headroom has no reader for it"},
	// VPP's `show runtime` (src/vlib/node_cli.c format_vlib_node_stats: the header "Name State
	// Calls Vectors Suspends Clocks Vectors/Call", a row "%-30v%=17s%16Ld%16Ld%16Ld%16.2e%16.2f"
	// per node; per thread "Thread %d %s (lcore %u)", "Time %.1f, average vectors/node
	// %.2f, ...", "vector rates in %.4e, out %.4e, drop %.4e, punt %.4e").
	{lazyre.New(`^\s*\S+\s+(?:active|polling|interrupt wait|event wait|any wait|done|disabled|suspended)\s+\d+\s+\d+\s+\d+\s+\d+(?:\.\d+)?e[+-]?\d+\s+\d*\.\d+\s*$|^\s*Name\s+State\s+Calls\s+Vectors\s+Suspends\s+Clocks|^\s*vector rates in \S+, out \S+, drop \S+, punt|^\s*Time \d+(?:\.\d+)?, (?:[\d.]+ sec internal node vector rate|average vectors/node)|^Thread \d+ \S+ \(lcore \d+\)\s*$`),
		"VPP's `show runtime` (its graph nodes' calls, vectors and clocks): user-space forwarding counters headroom does not read"},
	// VPP's `show interface` (src/vnet/interface_format.c format_vnet_sw_interface: "Name Idx
	// State MTU (L3/IP4/IP6/MPLS) Counter Count", a row "name idx up|down l3/ip4/ip6/mpls
	// counter count", then one "counter count" per line under it).
	{lazyre.New(`^\s*Name\s+Idx\s+State\s+(?:MTU|Counter)|^\S+\s+\d+\s+(?:up|down)\s+\d+/\d+/\d+/\d+(?:\s+[a-z][a-z0-9 -]*\s+\d+)?\s*$`),
		"VPP's `show interface` (a software interface's counters in VPP, not the kernel's): headroom has no reader for it"},
	// VPP's `show hardware-interfaces` (src/vnet/interface_cli.c: "Name Idx Link Hardware",
	// a row "name idx up|down name", then the driver's lines: "carrier up full duplex speed
	// 10000 mtu 1500", "tx frames ok  529663911").
	{lazyre.New(`^\s*Name\s+Idx\s+Link\s+Hardware\s*$`),
		"VPP's `show hardware-interfaces` (a DPDK port's counters as VPP shows them): headroom has no reader for it"},
	// PF_RING's pfcount (userland/examples/pfcount.c print_stats: "Absolute Stats: [%s pkts
	// total][%s pkts dropped][%.1f%% dropped]", "Actual Stats: [%s pkts rcvd][...]") and
	// tcpdump's summary at exit (tcpdump.c info(): "%u packet%s captured", "%u packet%s
	// received by filter", "%u packet%s dropped by kernel"): a capture ring's or libpcap's
	// counters, not a NIC's or the kernel stack's.
	{lazyre.New(`^\s*(?:Absolute|Actual) Stats: \[[\d',. ]+(?:pkts|packets)? `),
		"PF_RING pfcount's statistics (a capture ring's received and dropped packets, not a kernel or NIC counter): headroom has no reader for them"},
	// tcpdump's "dropped by interface" (tcpdump.c info(), printed when ps_ifdrop is known) is
	// libpcap's ps_ifdrop: on Linux the interface's own losses since the capture began
	// (pcap-linux.c linux_if_drops: rx_missed_errors + rx_fifo_errors in current libpcap,
	// /proc/net/dev's drop column before): captureIfDrops keeps it for nic-rx-overruns. The line may follow the ^C
	// that stopped the capture ("^C4421345 packets captured").
	{lazyre.New(`^\s*(?:\^C)?\d+ packets? (?:captured|received by filter|dropped by kernel|dropped by interface)\s*$`),
		"tcpdump's capture summary (tcpdump.c info(): \"dropped by kernel\" is libpcap's ps_drop, its capture socket's ring (AF_PACKET tp_drops), not a kernel interface counter nor a NIC overrun; \"dropped by interface\" is ps_ifdrop, the interface's own missed and fifo counts since the capture began, summed: kept for nic-rx-overruns, which prefers the interface's counters (ip -s link, ethtool -S) when pasted; a count within 2^24 of 2^32 is a small negative difference printed unsigned, a wrap, and is not kept): the other lines are not read"},
}

// captureIfDrops keeps tcpdump's "N packets dropped by interface" (N > 0) as the NIC's
// losses it is: libpcap's ps_ifdrop, on Linux rx_missed_errors + rx_fifo_errors of the
// captured interface since the capture began. "dropped by kernel" (the socket's ring) is
// never kept.
func (d *doc) captureIfDrops(i int) {
	s := strings.TrimPrefix(strings.TrimSpace(d.ls[i].Text), "^C")
	n, ok := strings.CutSuffix(s, " packets dropped by interface")
	if !ok {
		n, ok = strings.CutSuffix(s, " packet dropped by interface")
	}
	v, num := atoi(n)
	if !ok || !num || v <= 0 || u32WrappedDifference(v) {
		return
	}
	d.tl.Samples = append(d.tl.Samples, model.Sample{Source: spanSource(d.ls[i].No, d.ls[i].No) + " (tcpdump: packets dropped by interface)",
		Rates: model.Rates{model.RateCaptureIfDrops: float64(v)}})
}

// u32WrapWindow: how far below 2^32 a tool's unsigned 32-bit counter may stand and still be
// read as a small negative difference printed with %u, not a count. tcpdump's summary prints
// libpcap's struct pcap_stat fields (u_int) with "%u"; ps_ifdrop is the interface's counter
// now minus its value when the capture began (pcap-linux.c), and a counter that went down
// meanwhile (a driver reset, a counter read from another source, an old libpcap that never
// set the field) prints as 4294965006, that is 2^32 - 2290. A real count within 2^24 of
// 2^32 would take billions of lost frames in one capture and would itself wrap the u_int.
const u32WrapWindow = 1 << 24

// u32WrappedDifference: v, read from a tool's unsigned 32-bit summary counter, is a wrapped
// small negative difference (2^32 - 2^24 <= v < 2^32), not a count of anything.
func u32WrappedDifference(v int64) bool {
	return v >= 1<<32-u32WrapWindow && v < 1<<32
}

// toolFormLine says which tool's output t is by its form, and why it is unread.
func toolFormLine(t string) (string, bool) {
	if len(t) > 4096 || !hasDigit(t) && !strings.Contains(t, "Name") {
		return "", false
	}
	for _, f := range toolForms {
		if f.re.MatchString(t) {
			return f.why, true
		}
	}
	if vppHardwareRow(t) {
		return toolForms[4].why, true
	}
	if ipvsConnRow(t) {
		return ipvsConnWhy, true // unreadlb.go
	}
	if shmDfRow(t) {
		return shmDfWhy, true
	}
	if reAssertFailed.MatchString(t) && reMemoryCode.MatchString(t) {
		return assertMemoryWhy, true
	}
	if strings.IndexByte(t, '(') > 0 && reCommCountRSSRow.MatchString(t) {
		return commCountRSSWhy, true
	}
	if strings.Contains(t, "-count=") || strings.Contains(t, "sizeof") || strings.HasPrefix(t, "pool-name=") {
		if reGlusterPoolKey.MatchString(t) {
			return glusterPoolWhy, true
		}
	}
	return "", false
}

// A per-command memory summary (round 16, fix21b): one row a command name, a script's sum
// of `ps -eo comm,rss` grouped by command: "Comm  # of instances  RSS in MiB" over rows
// "ceph  (183)  2654.61": the name (comm, at most 15 bytes: TASK_COMM_LEN), the number of its
// processes in parentheses, their summed resident set. The processes' own memory, not a
// kernel counter nor the host's total; no rule reads it, so a paste of it is listed, not
// refused as holding nothing.
var reCommCountRSSRow = lazyre.New(`^\s*[A-Za-z][\w.:/+-]{0,14}\s+\(\d{1,7}\)\s+\d{1,9}(?:\.\d+)?\s*$`)

// GlusterFS's statedump (kill -USR1; libglusterfs/src/statedump.c, mem-pool sections): one
// key=value a line, "pool-name=call_stack_t", "active-count=109929", "sizeof-type=1824",
// "padded-sizeof=2048", "size=225134592" (older: "hot-count=", "cold-count=",
// "alloc-count=", "max-alloc=", "pool-misses=", "cur-stdalloc=", "max-stdalloc="). Its own
// keys (never "size=" alone, which continues the run as output) open the run.
var reGlusterPoolKey = lazyre.New(`^(?:pool-name=\S+|(?:active-count|hot-count|cold-count|alloc-count|sizeof-type|padded-sizeof|padded_sizeof|max-alloc|pool-misses|cur-stdalloc|max-stdalloc)=\d+)\s*$`)

const glusterPoolWhy = "a GlusterFS statedump's memory-pool section (libglusterfs statedump.c: pool-name, active-count, sizeof-type, size in bytes): the gluster process's own userspace pools, not kernel slab and not the host's free memory; headroom has no reader for it"

const commCountRSSWhy = "a per-command resident-memory summary (a command, the number of its processes in parentheses, their summed RSS): userspace processes' memory as ps reports it, not a kernel counter nor the host's free memory; headroom has no reader for it"

// A program that aborts on a failed assertion in its memory-mapping or allocation code,
// as glibc's __assert_fail prints it (assert/assert.c: "%s%s%s:%u: %s%sAssertion `%s'
// failed.": the program, the file and line, the function): "contrail-vrouter-agent:
// controller/src/vnsw/agent/vrouter/ksync/ksync_memory.cc:107: void
// KSyncMemory::Mmap(bool): Assertion `0' failed.". What it could not map or allocate is the
// program's to say; no kernel report is in the line.
var (
	reAssertFailed = lazyre.New(`^\s*\S+: \S+:\d+: .*Assertion .+ failed\.?\s*$`)
	reMemoryCode   = lazyre.New(`(?i)mmap|memory|alloc`)
)

const assertMemoryWhy = "a program aborted on a failed assertion in its memory-mapping or allocation code (glibc's \"Assertion ... failed\"): not a kernel report, and it does not say how much memory was asked for or free; headroom has no reader for it"

// shmDfRow: df's row of the shared-memory tmpfs (coreutils df.c: "Filesystem Size Used
// Avail Use% Mounted on", with -T a Type column): a row whose mount point is /dev/shm or
// /run/shm and whose field before it is the Use% percentage ("shm 64M 12M 52M 19%
// /dev/shm"). A container's /dev/shm is its own tmpfs (docker --shm-size sets its size=):
// its pages are shmem (mm/shmem.c), counted in the memory cgroup and /proc/meminfo's Shmem,
// but its Size is the mount's limit, not the host's RAM, and Used is not the host's used
// memory. Gate: the line ends in "/shm" (one suffix compare) before any field is split.
func shmDfRow(t string) bool {
	t = strings.TrimRight(t, " \t\r")
	if !strings.HasSuffix(t, "/shm") {
		return false
	}
	f := fields(t)
	if len(f) < 6 || len(f) > 7 || (f[len(f)-1] != "/dev/shm" && f[len(f)-1] != "/run/shm") {
		return false
	}
	pct := f[len(f)-2]
	return len(pct) > 1 && pct[len(pct)-1] == '%' && isDigits(pct[:len(pct)-1])
}

const shmDfWhy = "df's row of the shared-memory tmpfs (/dev/shm): its Size is the mount's size= limit (a container's own, docker --shm-size), Used the shmem pages its files hold (mm/shmem.c); not the host's RAM nor its free memory, and headroom has no reader for it"

// vppHardwareRow: the first line of a port in VPP's `show hardware-interfaces` ("%-32v%=6d%=8s%s":
// the interface's name, its index, up or down, then the hardware's name, which VPP names
// the interface after: "TenGigabitEthernet9/0/0  5  up  TenGigabitEthernet9/0/0"). The
// name written twice tells it from a sentence of four words.
func vppHardwareRow(t string) bool {
	f := fields(t)
	return len(f) == 4 && t[0] != ' ' && t[0] != '\t' && isDigits(f[1]) && (f[2] == "up" || f[2] == "down") && f[3] == f[0]
}
