package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// The format classes held-out batches g14-g17 found (corpus 563-652), each on a minimal
// snippet of its case; every test failed before its change.

// A show_mem excerpt of zone lines and lowmem_reserve[] without buddy lines (corpus 572: an
// Elasticsearch node's DMA32 and Normal lines, Normal free 18296 kB under min 48948 kB, both
// "all_unreclaimable? yes"). Before: no page size (it came only from a buddy line), so no
// zone reading, and zone-reserve-low and node-unreclaimable were not checked.
func TestShowMemZonesPageSizeFromLowmemReserve(t *testing.T) {
	text := `Mar 24 11:35:24 search06 kernel: [70429.840628] Node 0 DMA32 free:58888kB min:18560kB low:23200kB high:27840kB active_anon:225444kB present:4046236kB managed:3965580kB mlocked:2545532kB slab_unreclaimable:1057936kB pages_scanned:9100 all_unreclaimable? yes
Mar 24 11:35:24 search06 kernel: [70429.840632] lowmem_reserve[]: 0 0 10110 10110 10110
Mar 24 11:35:24 search06 kernel: [70429.840634] Node 0 Normal free:18296kB min:48948kB low:61184kB high:73420kB active_anon:896492kB present:10616832kB managed:10352916kB mlocked:5206540kB slab_unreclaimable:3981440kB pages_scanned:576900 all_unreclaimable? yes
Mar 24 11:35:24 search06 kernel: [70429.840638] lowmem_reserve[]: 0 0 0 0 0
`
	tl := ParseString(text, "p", Options{})
	if tl.Host.PageSize != 4096 {
		t.Errorf("page size %d, want 4096 (from DMA32's reserve against Normal)", tl.Host.PageSize)
	}
	var zs []model.ZoneWatermarks
	var zones int
	for i := range tl.Samples {
		zs = append(zs, tl.Samples[i].ZoneWatermarks()...)
		for _, z := range tl.Samples[i].Zones {
			zones++
			if v, ok := z.Fields.Get("all_unreclaimable"); !ok || v != 1 {
				t.Errorf("%s: all_unreclaimable %d %v", z.Name, v, ok)
			}
			if z.Name == "Normal" {
				if v, _ := z.Fields.Get("scanned"); v != 576900 {
					t.Errorf("Normal scanned %d", v)
				}
			}
		}
	}
	if len(zs) != 2 || zs[1].Zone != "Normal" || zs[1].Free != 4574 || zs[1].Min != 12237 {
		t.Fatalf("zones %+v", zs)
	}
	// A 4.11+ node line's mark is the node's: node_unreclaimable on each of its zones.
	text = `[  100.000000] Mem-Info:
[  100.000000] active_anon:438779 inactive_anon:1 isolated_anon:0 active_file:12 inactive_file:14 isolated_file:0 unevictable:1937949 dirty:0 writeback:16 unstable:0 slab_reclaimable:43288 slab_unreclaimable:1259844 mapped:7273 shmem:2255 pagetables:8296 bounce:0 free:19296 free_pcp:281 free_cma:0
[  100.000001] Node 0 active_anon:1755116kB inactive_anon:4kB pages_scanned:168352 all_unreclaimable? yes
[  100.000002] Node 0 DMA32 free:58888kB min:18560kB low:23200kB high:27840kB present:4046236kB managed:3965580kB
[  100.000003] lowmem_reserve[]: 0 0 10110 10110 10110
[  100.000004] Node 0 Normal free:18296kB min:48948kB low:61184kB high:73420kB present:10616832kB managed:10352916kB
[  100.000005] lowmem_reserve[]: 0 0 0 0 0
`
	tl = ParseString(text, "p", Options{})
	n := 0
	for i := range tl.Samples {
		for _, z := range tl.Samples[i].Zones {
			if v, ok := z.Fields.Get("node_unreclaimable"); ok && v == 1 {
				n++
			}
		}
	}
	if n != 2 {
		t.Errorf("zones with node_unreclaimable 1: %d, want 2", n)
	}
}

// The kubelet's eviction message on a pod or event (corpus 648: `kubectl describe pod`'s
// "Message: The node was low on resource: memory. Threshold quantity: 100Mi, available:
// 95Mi."; 640: the "Evicted" event; 629: a disk eviction printed by jsonpath), and a
// `kubectl describe node` Conditions row a page flattened to single spaces (640). Before:
// exit 3, nothing read.
func TestKubeletEvictionMessageAndFlattenedCondition(t *testing.T) {
	tl := ParseString("Status: Failed\nReason: Evicted\nMessage: The node was low on resource: memory. Threshold quantity: 100Mi, available: 95Mi.\n", "p", Options{})
	if len(tl.KubeletSignals) != 1 {
		t.Fatalf("signals %+v", tl.KubeletSignals)
	}
	s := tl.KubeletSignals[0]
	if s.Signal != "memory.available" || s.ObservedBytes == nil || *s.ObservedBytes != 95<<20 || s.ThresholdBytes == nil || *s.ThresholdBytes != 100<<20 {
		t.Errorf("signal %+v", s)
	}
	tl = ParseString("Type Status Reason Message\n---- ------ ------ -------\nMemoryPressure True KubeletHasInsufficientMemory kubelet has insufficient memory available\nWarning Evicted 28s kubelet The node was low on resource: memory. Threshold quantity: 100Mi, available: 84Mi.\n", "p", Options{})
	if len(tl.NodeConditions) != 1 || tl.NodeConditions[0].Type != "MemoryPressure" || tl.NodeConditions[0].Status != "True" || tl.NodeConditions[0].Reason != "KubeletHasInsufficientMemory" {
		t.Errorf("conditions %+v", tl.NodeConditions)
	}
	if len(tl.KubeletSignals) != 1 || *tl.KubeletSignals[0].ObservedBytes != 84<<20 {
		t.Errorf("signals %+v", tl.KubeletSignals)
	}
	// A disk eviction is read, and is no memory observation.
	tl = ParseString("infras-logstash-d484d57fc-rkx95\t\tEvicted\t\tThe node was low on resource: ephemeral-storage. Threshold quantity: 30Gi, available: 24094024Ki. Container infras-logstash was using 2456Ki, request is 0, has larger consumption of ephemeral-storage.\n", "p", Options{})
	if len(tl.Artifacts) == 0 || tl.Artifacts[0].Kind != KindKubeEvicted {
		t.Fatalf("artifacts %+v", tl.Artifacts)
	}
	e := tl.Artifacts[0].Data.(KubeEvicted)
	if e.Resource != "ephemeral-storage" || e.AvailableKiB == nil || *e.AvailableKiB != 24094024 || len(e.Containers) != 1 || *e.Containers[0].UsingKiB != 2456 {
		t.Errorf("eviction %+v", e)
	}
	if len(tl.KubeletSignals) != 0 || tl.Kubelet != nil {
		t.Errorf("a disk eviction read as memory: %+v %+v", tl.KubeletSignals, tl.Kubelet)
	}
}

// A pasted /proc/net/udp table (corpus 621: syslog-ng's socket on udp/9002 with 1 GiB
// queued and 1875166813 drops, the last row cut). Before: exit 3, nothing read.
func TestProcNetUDPTable(t *testing.T) {
	text := "[root@lvl-tec-app1 ~]# cat /proc/net/udp\n" +
		"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops\n" +
		"20122: 00000000:A764 00000000:0000 07 00000000:00000000 00:00000000 00000000    95        0 1233745615 2 ffff88003fb1bfc0 0\n" +
		"51808: 00000000:232A 00000000:0000 07 00000000:3FFFFFC0 00:00000000 00000000     0        0 1326199616 2 ffff88103e5be1c0 1875166813\n" +
		"52007: 00000000\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.UDPSockets) != 1 || len(tl.UDPSockets[0].Rows) != 2 {
		t.Fatalf("tables %+v", tl.UDPSockets)
	}
	if r := tl.UDPSockets[0].Rows[1]; r.LocalPort != 9002 || r.Drops != 1875166813 || r.RxQueue != 1073741760 {
		t.Errorf("row %+v", r)
	}
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].FirstLine != 5 {
		t.Errorf("the cut row: unparsed %+v", tl.Unparsed)
	}
	// /proc/net/raw prints the same header: its rows are no UDP sockets.
	tl = ParseString(strings.Replace(text, "/proc/net/udp", "/proc/net/raw", 1), "p", Options{})
	if len(tl.UDPSockets) != 0 {
		t.Errorf("raw sockets read as UDP: %+v", tl.UDPSockets)
	}
}

// A netstat -s TcpExt counter printed under its own name, without its group header (corpus
// 641: "$ netstat -s", "// other fields", "TCPBacklogDrop: 368504"). Before: exit 3.
func TestNetstatSBareTcpExtCounter(t *testing.T) {
	tl := ParseString("$ netstat -s\n\n// other fields\n\nTCPBacklogDrop: 368504\n\n// other fields\n", "p", Options{})
	if len(tl.Samples) != 1 {
		t.Fatalf("samples %+v", tl.Samples)
	}
	if v, ok := tl.Samples[0].NetStat.Get("TcpExt", "TCPBacklogDrop"); !ok || v != 368504 {
		t.Errorf("TCPBacklogDrop %d %v", v, ok)
	}
	// Only the kernel's drop counters' names: another "Name: N" alone is not netstat's.
	tl = ParseString("Connections: 368504\n", "p", Options{})
	for _, s := range tl.Samples {
		if len(s.NetStat) > 0 {
			t.Errorf("read as netstat: %+v", s.NetStat)
		}
	}
}

// `ethtool -S` and an excerpt of its counters run onto one line by a documentation page,
// without the "NIC statistics:" line (corpus 647: "# ethtool -S enp1s0 ... rx_queue_0_drops:
// 97326 rx_queue_1_drops: 63783 ...Copy to Clipboard"). Before: two pairs were too few to
// look like output; exit 3.
func TestFlattenedEthtoolCommand(t *testing.T) {
	tl := ParseString("# ethtool -S enp1s0 ... rx_queue_0_drops: 97326 rx_queue_1_drops: 63783 ...Copy to Clipboard Copied! Toggle word wrap\n", "p", Options{})
	if len(tl.Samples) != 1 {
		t.Fatalf("samples %+v; unparsed %+v", tl.Samples, tl.Unparsed)
	}
	var got int64
	for _, n := range tl.Samples[0].NICStats {
		if n.Name == "enp1s0" && n.Stats != nil {
			v0, _ := n.Stats.Get("rx_queue_0_drops")
			v1, _ := n.Stats.Get("rx_queue_1_drops")
			got = v0 + v1
		}
	}
	if got != 97326+63783 {
		t.Errorf("enp1s0 queue drops %d; sample %+v", got, tl.Samples[0])
	}
	// Prose naming the command holds no output.
	tl = ParseString("Run ethtool -S eth0 and look at rx_missed_errors: it counts frames.\n", "p", Options{})
	if len(tl.Samples) != 0 {
		t.Errorf("prose read as output: %+v", tl.Samples)
	}
}

// A sar -r report run onto one line with its command and banner (corpus 642: kbcommit
// 4407680 at %commit 437.73 on a 1 GB instance without swap, the last row cut), and sar -r's
// rows read as meminfo fields. Before: the line was unread and sar -r gave no sample (its
// columns are no rates).
func TestSarMemoryFlattened(t *testing.T) {
	text := "[root@ip-10-0-1-68 ~]# sar -r Linux 4.14.193-149.317.amzn2.x86_64 (ip-10-0-1-68.ap-northeast-2.compute.internal) 05/22/2021 _x86_64_ (1 CPU) 12:00:02 AM kbmemfree kbmemused %memused kbbuffers kbcached kbcommit %commit kbactive kbinact kbdirty 12:10:01 AM 65860 941080 93.46 0 103936 4407680 437.73 785580 28120 120 12:20:01 AM 58\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Samples) != 1 {
		t.Fatalf("samples %+v; unparsed %+v", tl.Samples, tl.Unparsed)
	}
	s := &tl.Samples[0]
	for k, want := range map[string]int64{"Committed_AS": 4407680, "MemTotal": 1006940, "SwapTotal": 0, "MemFree": 65860} {
		if v, ok := s.Mem(k); !ok || v != want {
			t.Errorf("%s = %d %v, want %d", k, v, ok, want)
		}
	}
	// The newer layout (kbavail; kbmemused excludes buffers, cache and slab): MemTotal from
	// %memused, and 2 GiB of swap from %commit.
	text = "12:00:01 AM kbmemfree   kbavail kbmemused  %memused kbbuffers  kbcached  kbcommit   %commit  kbactive   kbinact   kbdirty\n" +
		"12:10:01 AM    512000   3000000    2000000     50.00     10000    900000   3000000     50.00   1000000    500000       100\n"
	tl = ParseString(text, "p", Options{})
	if len(tl.Samples) != 1 {
		t.Fatalf("newer layout: samples %+v", tl.Samples)
	}
	s = &tl.Samples[0]
	if v, _ := s.Mem("MemTotal"); v != 4000000 {
		t.Errorf("MemTotal %d, want 4000000", v)
	}
	if v, _ := s.Mem("SwapTotal"); v != 2000000 {
		t.Errorf("SwapTotal %d, want 2000000", v)
	}
}

// A kernel log whose every line a page rendered as a Markdown list item (corpus 644: "-
// <4>[12345.342532] systemd-journal invoked oom-killer: gfp_mask=0x800d0, order=0, ...").
// Before: the invoker was read as "- <4>[12345.342532] systemd-journal".
func TestBulletedLogLines(t *testing.T) {
	text := "- <4>[12345.342532] systemd-journal invoked oom-killer: gfp_mask=0x800d0, order=0, oom_score_adj=0\n" +
		"- <4>[12345.351216] CPU: 1 PID: 1371 Comm: systemd-journal Tainted: G O 3.14.31-00017-g40fab71 #1\n" +
		"- <4>[12345.360695] Backtrace:\n" +
		"- <4>[12345.416462] [<c00f87f8>] (oom_kill_process) from [<c00f90c8>] (out_of_memory+0x2f4/0x354)\n"
	tl := ParseString(text, "p", Options{})
	var inv string
	for _, e := range tl.Events {
		if e.OOMKill != nil {
			inv = e.OOMKill.Invoker
		}
	}
	if inv != "systemd-journal" {
		t.Errorf("invoker %q; events %+v", inv, tl.Events)
	}
	// A list item of prose loses its marker too (issue 29's forms: a bulleted page puts
	// one before rows of command output as well); a dash before a number or white space
	// is no marker.
	l, _, _ := parseLine(1, "- the OOM killer ran twice")
	if l.Text != "the OOM killer ran twice" {
		t.Errorf("prose list item read as %q", l.Text)
	}
	if l, _, _ := parseLine(1, "-1 the OOM killer ran twice"); l.Text != "-1 the OOM killer ran twice" {
		t.Errorf("a negative number read as %q", l.Text)
	}
}

// vmalloc's report that the buddy allocator could not give its pages (corpus 627: "vmalloc
// error: size 14680064, page order 9, failed to allocate pages, mode:0xcc2(...)", 5.13+) is
// a page allocation failure of that order and mode. Before: a log line with its size only,
// no report, so no alloc-fail rule judged it. The address-space form stays a log line.
func TestVmallocPagesFailure(t *testing.T) {
	text := "Jul 05 16:50:19 sumu kernel: crawl_27272_520: vmalloc error: size 14680064, page order 9, failed to allocate pages, mode:0xcc2(GFP_KERNEL|__GFP_HIGHMEM), nodemask=(null),cpuset=system-beesd.slice,mems_allowed=0,2\n" +
		"Jul 05 16:50:19 sumu kernel: CPU: 43 PID: 3318 Comm: crawl_27272_520 Tainted: P           OE      6.3.9-1-default #1\n" +
		"Jul 05 16:50:19 sumu kernel: Call Trace:\n" +
		"Jul 05 16:50:19 sumu kernel:  warn_alloc+0x13a/0x1b0\n" +
		"Jul 05 16:50:19 sumu kernel:  __vmalloc_node_range+0x631/0x8b0\n"
	afs := failuresIn(text)
	if len(afs) != 1 || afs[0].Process != "crawl_27272_520" || afs[0].Order != 9 || afs[0].ModeValue != 0xcc2 {
		t.Fatalf("reports %+v", afs)
	}
	if afs := failuresIn("[    4.880643] insmod: vmalloc error: size 16384, vm_struct allocation failed, mode:0xcc0(GFP_KERNEL), nodemask=(null),cpuset=/,mems_allowed=0\n"); len(afs) != 0 {
		t.Errorf("an address-space failure read as a page allocation failure: %+v", afs)
	}
}

// LBNL Node Health Check's failed memory check quoting the meminfo value it read (corpus
// 580: "check_hw_slab_unreclaimable:  Slab unreclaimable is too large (13424716 kB >
// 5242880 kB)." on three lines: nhc, its log, node-mark-offline). Before: exit 3. The second
// number is the site's threshold, not the node's.
func TestNHCMemoryCheck(t *testing.T) {
	text := "ERROR:  nhc:  Health check failed:  check_hw_slab_unreclaimable:  Slab unreclaimable is too large (13424716 kB > 5242880 kB).\n" +
		"20181128 11:30:19 /usr/libexec/nhc/node-mark-offline p0007 check_hw_slab_unreclaimable:  Slab unreclaimable is too large (13424716 kB > 5242880 kB).\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Samples) != 1 {
		t.Fatalf("samples %+v", tl.Samples)
	}
	if v, ok := tl.Samples[0].Mem("SUnreclaim"); !ok || v != 13424716 {
		t.Errorf("SUnreclaim %d %v", v, ok)
	}
	if tl.Samples[0].MemInfo.Len() != 1 {
		t.Errorf("the threshold read as the node's: %+v", tl.Samples[0].MemInfo)
	}
	// The configuration line names the check and holds no reading.
	tl = ParseString("* || check_hw_slab_unreclaimable 5242880\n", "p", Options{})
	if len(tl.Samples) != 0 {
		t.Errorf("configuration read as a reading: %+v", tl.Samples)
	}
}

// Arrows a knowledge-base article appended to the netstat -s lines it discusses (corpus 604:
// "    1536 packet receive errors                 <<<<"). Before: the sentences were not
// mapped (kept as unmapped), so InErrors and NoPorts were not read.
func TestNetstatSAnnotationArrows(t *testing.T) {
	tl := ParseString("Udp:\n    79258313 packets received\n    208531 packets to unknown port received.   <<<<\n    1536 packet receive errors                 <<<<\n    85514 packets sent\n", "p", Options{})
	if len(tl.Samples) != 1 {
		t.Fatalf("samples %+v", tl.Samples)
	}
	for k, want := range map[string]int64{"InErrors": 1536, "NoPorts": 208531, "InDatagrams": 79258313} {
		if v, ok := tl.Samples[0].NetStat.Get("Udp", k); !ok || v != want {
			t.Errorf("Udp %s = %d %v, want %d", k, v, ok, want)
		}
	}
}

// A sar report whose last row the paste cut after its first cell (corpus 618: "03:50:01 PM
// 3585.67" under sar -B's nine columns). Before: the row was unread ("1 values for 9
// columns").
func TestSarRowCutAfterFirstCell(t *testing.T) {
	text := "03:30:01 PM  pgpgin/s pgpgout/s   fault/s  majflt/s  pgfree/s pgscank/s pgscand/s pgsteal/s    %vmeff\n" +
		"03:40:01 PM   3767.16      1.03   4660.72     16.15   5520.36      0.00 316680.26    459.21      0.15\n" +
		"03:50:01 PM   3585.67\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Unparsed) != 0 {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
	var tb *SysstatTable
	for _, a := range tl.Artifacts {
		if x, ok := a.Data.(*SysstatTable); ok {
			tb = x
		}
	}
	if tb == nil || len(tb.Rows) != 2 || tb.Rows[1][1] != "3585.67" || tb.CutAfter != 1 {
		t.Fatalf("table %+v", tb)
	}
	// A cell without sysstat's two decimals is no cell of the row.
	tl = ParseString(strings.Replace(text, "3585.67", "35", 1), "p", Options{})
	if len(tl.Unparsed) != 1 {
		t.Errorf("a cut cell read: unparsed %+v", tl.Unparsed)
	}
}

// The eviction manager's -v=4 observation lines (corpus 630: "eviction manager: observations:
// signal=memory.available, available: 60489772Ki, capacity: 65973468Ki, time: ..."). Before:
// unread ("name: value counters"). A negative memory reading is the impossible one
// kubelet-eviction-signal names.
func TestKubeletObservationLines(t *testing.T) {
	text := "I1215 19:22:27.124029   77158 helpers.go:814] eviction manager: observations: signal=memory.available, available: 60489772Ki, capacity: 65973468Ki, time: 2021-12-15 19:22:27.083065473 +0800 CST m=+78848.456099118\n" +
		"I1215 19:22:27.124101   77158 helpers.go:814] eviction manager: observations: signal=nodefs.inodesFree, available: 104732769, capacity: 104857600, time: 2021-12-15 19:22:27.083065473 +0800 CST m=+78848.456099118\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Artifacts) != 1 || tl.Artifacts[0].Kind != KindKubeletEviction {
		t.Fatalf("artifacts %+v; unparsed %+v", tl.Artifacts, tl.Unparsed)
	}
	obs := tl.Artifacts[0].Data.(KubeletEvictionLog).Observations
	if len(obs) != 2 || *obs[0].ObservedKiB != 60489772 || *obs[0].CapacityKiB != 65973468 || *obs[1].ObservedCount != 104732769 {
		t.Errorf("observations %+v", obs)
	}
	if len(tl.KubeletSignals) != 0 {
		t.Errorf("a positive reading without a threshold became a signal: %+v", tl.KubeletSignals)
	}
	tl = ParseString(strings.Replace(text, "available: 60489772Ki", "available: -2097758044639028Ki", 1), "p", Options{})
	if len(tl.KubeletSignals) != 1 || *tl.KubeletSignals[0].ObservedBytes >= 0 {
		t.Errorf("negative reading: signals %+v", tl.KubeletSignals)
	}
}

// netstat -i and net-tools 2.x ifconfig run onto one line each by a wiki export (corpus 639).
// Before: both unread ("more numbers than a sentence states").
func TestFlattenedNetstatIAndIfconfig2(t *testing.T) {
	rxDrops := func(tl *model.Timeline, dev, key string) int64 {
		for _, s := range tl.Samples {
			for _, n := range s.NetDev {
				if n.Name == dev {
					if v, ok := n.Counters.Get(key); ok {
						return v
					}
				}
			}
		}
		return -1
	}
	tl := ParseString("# netstat -i Kernel Interface table Iface MTU RX-OK RX-ERR RX-DRP RX-OVR TX-OK TX-ERR TX-DRP TX-OVR Flg eth0 1500 653090942 0 1481 0 84429784 0 0 0 BMRU lo 65536 1280117 0 0 0 1280117 0 0 0 LRU #\n", "p", Options{})
	if v := rxDrops(tl, "eth0", "rx_dropped"); v != 1481 {
		t.Errorf("netstat -i eth0 rx_dropped %d; samples %+v; unparsed %+v", v, tl.Samples, tl.Unparsed)
	}
	tl = ParseString("# ifconfig eth0: flags=4163<UP,BROADCAST,RUNNING,MULTICAST> mtu 1500 inet 10.0.0.2 netmask 255.255.254.0 broadcast 10.0.1.255 ether 02:01:76:00:00:01 txqueuelen 1000 (Ethernet) RX packets 653131438 bytes 61371164765 (61.3 GB) RX errors 0 dropped 1481 overruns 0 frame 0 TX packets 84435136 bytes 269624405533 (269.6 GB) TX errors 0 dropped 0 overruns 0 carrier 0 collisions 0\n", "p", Options{})
	if v := rxDrops(tl, "eth0", "rx_dropped"); v != 1481 {
		t.Errorf("ifconfig eth0 rx_dropped %d; samples %+v; unparsed %+v", v, tl.Samples, tl.Unparsed)
	}
}

// The kernel release of a report's own task line is the host's (corpus 627 printed "Kernel
// unknown" once its vmalloc failure became a report: the report's lines are consumed before
// the host facts scan them). Before: unknown for any report whose task line is the only one
// naming the release.
func TestReportTaskLineNamesTheKernel(t *testing.T) {
	text := "[  100.1] swapper/0: page allocation failure: order:2, mode:0x20\n" +
		"[  100.2] CPU: 0 PID: 0 Comm: swapper/0 Not tainted 4.4.0-21-generic #37\n" +
		"[  100.3] Call Trace:\n" +
		"[  100.4]  warn_alloc_failed+0x1/0x2\n"
	tl := ParseString(text, "p", Options{})
	if tl.Host.Kernel != "4.4.0-21-generic" {
		t.Errorf("host kernel %q", tl.Host.Kernel)
	}
}

// Syslog lines whose date and host the paste cut, leaving "kernel: [stamp] ..." (corpus 588).
// Before: the report's header was found inside the line, but its task line and trace were
// not the kernel's (the pid and the stamp were lost, the task line listed as unread).
func TestSyslogTagWithoutDateAndHost(t *testing.T) {
	l, _, _ := parseLine(1, "kernel: [85531.011000] CPU: 1 PID: 20846 Comm: sh Not tainted 3.10.0-693.el7.AV1.x86_64 #1")
	if !l.Kernel || l.UptimeUsec != 85531011000 || l.Text != "CPU: 1 PID: 20846 Comm: sh Not tainted 3.10.0-693.el7.AV1.x86_64 #1" {
		t.Errorf("read as %+v", l)
	}
	// Prose that starts with the word keeps it.
	l, _, _ = parseLine(1, "kernel: the messages below are from the last boot")
	if l.Kernel {
		t.Errorf("prose read as a kernel line: %+v", l)
	}
}

// A kill line a page broke after one of its commas (corpus 595: "... file-rss:31684kB," /
// "shmem-rss:4kB, UID:0 pgtables:4552kB oom_score_adj:400"). Before: the tail was unread
// and the victim's shmem, page tables and oom_score_adj were lost.
func TestKillLineTailJoined(t *testing.T) {
	text := "out of memory: Killed process 2016872 (kvm)total-vm:5556908kB, anon-rss:1978036kB, file-rss:31684kB,\n" +
		"shmem-rss:4kB, UID:0 pgtables:4552kB oom_score_adj:400\n"
	tl := ParseString(text, "p", Options{})
	var o *model.OOMKill
	for _, e := range tl.Events {
		if e.OOMKill != nil {
			o = e.OOMKill
		}
	}
	if o == nil || o.KilledPID != 2016872 || o.ShmemRSSKB != 4 || o.PgtablesKB != 4552 || o.OOMScoreAdj != 400 {
		t.Fatalf("kill %+v; unparsed %+v", o, tl.Unparsed)
	}
	if len(tl.Unparsed) != 0 {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
}
