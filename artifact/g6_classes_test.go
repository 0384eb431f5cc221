package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// ixgbe's SR-IOV counters are named with spaces and capitals ("VF 0 Tx Packets",
// ixgbe_ethtool.c of Intel's driver), after the underscore names: corpus 417, an
// 'ethtool -S eno2 | grep -v ": 0"'. Inside a "NIC statistics:" block they are counters like
// the others, not lines to drop.
func TestEthtoolStatsSpacedNamesInBlock(t *testing.T) {
	text := `[root@controller ~(keystone_admin)]# ethtool -S eno2|grep -v ": 0"
NIC statistics:
     rx_pkts_nic: 1658520803
     rx_no_dma_resources: 529324299
     rx_queue_0_bytes: 3656
     VF 0 Tx Packets: 1
     VF 0 Tx Bytes: 90
`
	tl := ParseString(text, "p", Options{})
	es := one(t, tl, KindEthtoolS).(*EthtoolStats)
	get(t, &es.Stats, "rx_no_dma_resources", 529324299)
	get(t, &es.Stats, "VF 0 Tx Packets", 1)
	get(t, &es.Stats, "VF 0 Tx Bytes", 90)
	if len(tl.Unparsed) != 0 {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
}

// Outside a block, a "words: number" line is prose ("Total drops: 5"), not a counter: a
// bare (grep'd) block still requires the driver's one-word names.
func TestEthtoolBareSpacedNameNotCounter(t *testing.T) {
	if _, _, ok := ethtoolCounter("Total drops: 5"); ok {
		t.Error("'Total drops: 5' read as a counter outside a NIC statistics block")
	}
}

// A show_mem dump whose head the excerpt cut: it starts at the footer (lib/show_mem.c
// __show_mem: "N pages in swap cache", "Free swap  = NkB", "Total swap = NkB", "N pages RAM",
// "N pages reserved"; 6.8+ adds "Memory cgroup min protection NkB -- low protection NkB",
// mm/memcontrol.c mem_cgroup_show_protected_memory). Corpus 414, a 7.1 kernel: the footer
// says 21 GB of swap in use, which the diagnosis needs.
func TestShowMemFooterOnly(t *testing.T) {
	text := `[   64.196157] 4227755 pages in swap cache
[   64.196157] Free swap  = 46030652kB
[   64.196158] Total swap = 67108860kB
[   64.196158] 16676584 pages RAM
[   64.196158] 0 pages HighMem/MovableOnly
[   64.196159] 318942 pages reserved
[   64.196159] 0 pages cma reserved
[   64.196159] 0 pages hwpoisoned
[   64.196160] Memory cgroup min protection 0kB -- low protection 0kB
`
	tl := ParseString(text, "dmesg", Options{})
	sm := one(t, tl, KindShowMem).(ShowMem)
	for name, want := range map[string]int64{"pages_in_swap_cache": 4227755, "free_swap_kb": 46030652,
		"total_swap_kb": 67108860, "pages_ram": 16676584, "pages_reserved": 318942,
		"memcg_min_protection_kb": 0, "memcg_low_protection_kb": 0} {
		get(t, sm.Totals, name, want)
	}
	if sm.FreeSwapKB == nil || *sm.FreeSwapKB != 46030652 || sm.PagesRAM == nil || *sm.PagesRAM != 16676584 {
		t.Errorf("free swap %v pages RAM %v", sm.FreeSwapKB, sm.PagesRAM)
	}
	if len(tl.Unparsed) != 0 {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
}

// One footer-like line alone is not a dump: "2 pages reserved" in prose starts nothing.
func TestShowMemFooterLineAloneIsNoDump(t *testing.T) {
	tl := ParseString("[   64.196159] 318942 pages reserved\n", "dmesg", Options{})
	if n := len(artifactsOf(tl, KindShowMem)); n != 0 {
		t.Errorf("%d show_mem artifacts from one footer line", n)
	}
}

// "page allocation stalls for Nms" (mm/page_alloc.c __alloc_pages_slowpath of 4.1x kernels:
// warn_alloc once a request that may reclaim had spent stall_timeout, 10 s and every 10 s
// after, in the slow path) is a report of its own: the request had not failed. Corpus 413,
// quoted with '> ' and hard-wrapped by the reporter.
func TestAllocStallReport(t *testing.T) {
	text := `> Mar 26 12:32:15 monitoring-pi kernel: [126742.472373] python3: page allocation stalls for 10060ms, order:1,
>  mode:0x15080c0(GFP_KERNEL_ACCOUNT|__GFP_ZERO), nodemask=(null)
> Mar 26 12:32:15 monitoring-pi kernel: [126742.472401] python3 cpuset=/ mems_allowed=0
> Mar 26 12:32:15 monitoring-pi kernel: [126742.472422] CPU: 0 PID: 530 Comm: python3 Tainted: G         C O
>    4.14.79-v7+ #1159
> Mar 26 12:32:15 monitoring-pi kernel: [126742.472425] Hardware name: BCM2835
> Mar 26 12:32:15 monitoring-pi kernel: [126742.472448] [<8010ff30>] (unwind_backtrace) from [<8010c174>] (sh
> ow_stack+0x20/0x24)
`
	tl := ParseString(text, "p", Options{})
	if n := len(artifactsOf(tl, KindAllocFailure)); n != 0 {
		t.Errorf("%d allocation failures: a stall is not a failure", n)
	}
	st := one(t, tl, KindAllocStall).(*allocStallArtifact)
	if st.StallMS != 10060 || st.Process != "python3" || st.Order != 1 || st.ModeValue != 0x15080c0 {
		t.Errorf("stall %+v", st)
	}
	if st.Task == nil || st.Task.PID != 530 {
		t.Errorf("task %+v", st.Task)
	}
	var evs []*model.AllocStall
	for _, e := range tl.Events {
		if e.Kind == model.EventAllocStall && e.AllocStall != nil {
			evs = append(evs, e.AllocStall)
		}
		if e.AllocFailure != nil {
			t.Errorf("event %s carries an allocation failure", e.Kind)
		}
	}
	if len(evs) != 1 || evs[0].StallMS != 10060 || evs[0].Request.Order != 1 {
		t.Fatalf("stall events %+v", evs)
	}
}

// A stall header whose numbers cannot be read is reported, not dropped.
func TestAllocStallUnreadable(t *testing.T) {
	tl := ParseString("[  12.000000] x: page allocation stalls for a while, order:\n", "p", Options{})
	if len(tl.Unparsed) != 1 {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
}

// earlyoom's status line (earlyoom main.c print_mem_stats: "mem avail: %5lld of %5lld MiB
// (%5.2f%%), swap free: %4lld of %4lld MiB (%5.2f%%)"), here from syslog before a 6.1
// allocation failure (corpus 410): MemAvailable and MemTotal of the moment, which say whether
// the machine as a whole was short when the failure came.
func TestEarlyoomStatusLine(t *testing.T) {
	text := `Mar 22 21:10:35 dill earlyoom[361]: mem avail:  3056 of  3836 MiB (79.66%), swap free: 16373 of 16383 MiB (99.94%)
Mar 22 21:11:57 dill kernel: ksoftirqd/0: page allocation failure: order:0, mode:0xa20(GFP_ATOMIC), nodemask=(null),cpuset=/,mems_allowed=0
`
	tl := ParseString(text, "p", Options{})
	eo := one(t, tl, KindEarlyoom).(EarlyoomStatus)
	if eo.MemAvailMiB != 3056 || eo.MemTotalMiB != 3836 || eo.SwapFreeMiB != 16373 || eo.SwapTotalMiB != 16383 {
		t.Errorf("earlyoom %+v", eo)
	}
	var found bool
	for _, s := range tl.Samples {
		if v, ok := s.Mem("MemAvailable"); ok && v == 3056*1024 {
			if tot, _ := s.Mem("MemTotal"); tot != 3836*1024 {
				t.Errorf("MemTotal %d", tot)
			}
			found = true
		}
	}
	if !found {
		t.Errorf("no sample with MemAvailable from earlyoom: %+v", tl.Samples)
	}
	if len(artifactsOf(tl, KindAllocFailure)) != 1 {
		t.Error("the allocation failure after it was not read")
	}
}

// A line that starts like earlyoom's but does not carry its numbers stays another program's.
func TestEarlyoomOtherLines(t *testing.T) {
	tl := ParseString("Mar 22 21:10:35 dill earlyoom[361]: low memory! at or below SIGTERM limits: mem  4.00%, swap 10.00%\n", "p", Options{})
	if n := len(artifactsOf(tl, KindEarlyoom)); n != 0 {
		t.Errorf("%d earlyoom artifacts from a threshold line", n)
	}
}

// Frames of warn_alloc (warn_alloc_failed before 4.9, mm/page_alloc.c) outside any report
// are allocation failures whose header the text lacks: cut by an excerpt (corpus 416, tab-
// indented hv_netvsc trace) or by a grep (corpus 415). The kernel log keeps where they are, so
// that no check calls the log free of failures; a frame inside a report is not counted again.
func TestHeaderlessAllocFailureFrames(t *testing.T) {
	text := "\t\t[4238992.145728]  <IRQ>  [<ffffffffafb61e41>] dump_stack+0x19/0x1b\n" +
		"\t\t[4238992.151057]  [<ffffffffaf5bcaa0>] warn_alloc_failed+0x110/0x180\n" +
		"\t\t[4238992.172061]  [<ffffffffaf5c1478>] page_frag_alloc+0x158/0x170\n" +
		"\t\t[4238992.181321]  [<ffffffffc00fe040>] netvsc_recv_callback+0x80/0x190 [hv_netvsc]\n"
	tl := ParseString(text, "p", Options{})
	kl := one(t, tl, KindKernelLog).(KernelLogData)
	if len(kl.AllocFailureFrames) != 1 || kl.AllocFailureFrames[0].Line != 2 || kl.AllocFailureFrames[0].Function != "warn_alloc_failed" {
		t.Errorf("frames %+v", kl.AllocFailureFrames)
	}

	grepped := `$ dmesg | grep warn_alloc_failed
[181291.485024] warn_alloc_failed: 1 callbacks suppressed
[181291.549768]  [<ffffffff81137b67>] warn_alloc_failed+0xd7/0x130
[181297.608486] warn_alloc_failed: 80 callbacks suppressed
[181297.672730]  [<ffffffff81137b67>] warn_alloc_failed+0xd7/0x130
`
	tl = ParseString(grepped, "p", Options{})
	kl = one(t, tl, KindKernelLog).(KernelLogData)
	if len(kl.AllocFailureFrames) != 2 || len(kl.Suppressed) != 2 {
		t.Errorf("frames %+v suppressed %+v", kl.AllocFailureFrames, kl.Suppressed)
	}

	report := `[  74.189371] mprime: page allocation failure: order:0, mode:0xc0de0(GFP_KERNEL), nodemask=(null)
[  74.189377] CPU: 3 PID: 4108 Comm: mprime Not tainted 6.1.0 #1
[  74.189380] Call Trace:
[  74.189386]  warn_alloc+0x131/0x1d0
[  74.189389]  __alloc_pages_slowpath+0x11f9/0x1270
`
	tl = ParseString(report, "p", Options{})
	kl = one(t, tl, KindKernelLog).(KernelLogData)
	if len(kl.AllocFailureFrames) != 0 {
		t.Errorf("a report's own frame counted as headerless: %+v", kl.AllocFailureFrames)
	}
}

// An ifconfig block's counter lines without its first line (net-tools 2.x "RX packets",
// "RX errors", "TX packets", "TX errors", each once): one interface, not one a line, and not
// named after a word of the prose above it ("ifconfig shows that ..."). Corpus 418.
func TestIfconfigBodyWithoutNameLine(t *testing.T) {
	text := "Next the when in native mode ifconfig shows that packets were received but dropped:\n" +
		"```\n" +
		"        RX packets 492  bytes 29520 (29.5 KB)\n" +
		"        RX errors 0  dropped 48  overruns 0  frame 0              <-------\n" +
		"        TX packets 435472628  bytes 62795068235 (62.7 GB)\n" +
		"        TX errors 0  dropped 0 overruns 0  carrier 0  collisions 0\n" +
		"```\n"
	tl := ParseString(text, "p", Options{})
	ia := one(t, tl, KindIfconfig).(ifaceArtifact)
	if len(ia.Interfaces) != 1 {
		t.Fatalf("%d interfaces, want 1: %+v", len(ia.Interfaces), ia.Interfaces)
	}
	f := ia.Interfaces[0]
	if f.Name != "" && f.Name != unnamedIface { // fix40a: read as the interface not named
		t.Errorf("named %q from prose", f.Name)
	}
	get(t, &f.Counters, "rx_packets", 492)
	get(t, &f.Counters, "rx_dropped", 48)
	get(t, &f.Counters, "tx_packets", 435472628)
	get(t, &f.Counters, "tx_bytes", 62795068235)
}

// The loop of corpus 048 ("for i in ...; do ifconfig enp6s0 | grep RX | grep overruns; sleep
// 1; done") stays one reading a line, named by the command.
func TestIfconfigLoopRowsStayReadings(t *testing.T) {
	text := "root@h:~# for i in `seq 1 1000`; do ifconfig enp6s0 | grep RX | grep overruns; sleep 1; done\n" +
		"          RX packets:994704 errors:0 dropped:570 overruns:5451 frame:0\n" +
		"          RX packets:995667 errors:0 dropped:570 overruns:5451 frame:0\n" +
		"          RX packets:995733 errors:0 dropped:570 overruns:5451 frame:0\n"
	tl := ParseString(text, "p", Options{})
	ia := one(t, tl, KindIfconfig).(ifaceArtifact)
	if len(ia.Interfaces) != 3 || ia.Interfaces[0].Name != "enp6s0" {
		t.Errorf("interfaces %+v", ia.Interfaces)
	}
}

// The last row of an output, cut by the paste, is reported as a line that could not be read,
// not counted as prose (corpus 421: /proc/vmstat; 420: sysctl -a | grep; 377: ethtool -S);
// a word of prose after the output, or a cut line in the middle, is not.
func TestCutLastRowReported(t *testing.T) {
	for _, c := range []struct {
		name, text string
		cut        bool
	}{
		{"vmstat", "pgsteal_kswapd_dma 0\npgsteal_kswapd_dma32 0\npgscan_kswapd 12\npgsteal_kswapd\n", true},
		{"sysctl", "~# sysctl -a | grep orph\nnet.ipv4.tcp_max_orphans = 1024\nnet\n\n", true},
		{"ethtool", "NIC statistics:\n     tx_csum_partial_inner: 0\n     tx_queue_stopped: 0\n     tx\n", true},
		{"prose after", "pgsteal_kswapd_dma 0\npgsteal_kswapd_dma32 0\npgscan_kswapd 12\nthanks\n", false},
		{"not last", "pgsteal_kswapd_dma 0\npgsteal_kswapd_dma32 0\npgscan_kswapd 12\npgsteal_kswapd\n\nmore words here\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tl, err := Parse(strings.NewReader(c.text), "snippet", Options{})
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, u := range tl.Unparsed {
				if strings.Contains(u.Why, "cut short") {
					found = true
				}
			}
			if found != c.cut {
				t.Errorf("cut row reported %v, want %v: unparsed %+v, lines %+v", found, c.cut, tl.Unparsed, tl.Lines)
			}
			if c.cut && tl.Lines != nil && tl.Lines.Unparsed != 1 {
				t.Errorf("line account: %+v", *tl.Lines)
			}
		})
	}
}
