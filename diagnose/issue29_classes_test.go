package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
)

// Classes of issue 29 found by the held-out batches g10-g13 and fixed by class; each test is
// a minimal snippet of its class and failed before its change.

// rootOf parses text as a paste and returns the diagnosis' findings and its root cause.
func rootOf(t *testing.T, text string) (Diagnosis, string) {
	t.Helper()
	tl, err := artifact.Parse(strings.NewReader(text), "paste.txt", artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := Run(tl, nil)
	return d, RootCause(d.Findings)
}

func findingOf(d Diagnosis, id string) *Finding {
	for i := range d.Findings {
		if d.Findings[i].ID == id {
			return &d.Findings[i]
		}
	}
	return nil
}

// The SLUB message without its cache line (a title quotes it) beside kills inside a memory
// cgroup only: the kill is the event, the failure its echo (corpus 544). Before: the slab
// failure was the root ("slab cache  could not grow", an empty name).
func TestRootMemcgKillBeforeUnnamedSlabFailure(t *testing.T) {
	text := `kernel: SLUB: Unable to allocate memory on node -1 (gfp=0x20)

Sep 20 15:21:56 node1 kernel: Memory cgroup out of memory: Kill process 1249 (runc:[2:INIT]) score 978 or sacrifice child
Sep 20 15:21:56 node1 kernel: Killed process 1249 (runc:[2:INIT]) total-vm:19908kB, anon-rss:2716kB, file-rss:532kB, shmem-rss:0kB
`
	d, root := rootOf(t, text)
	if root != "oom-kill" {
		t.Errorf("root %q, want oom-kill (findings %+v)", root, d.Story.Causes)
	}
	if f := findingOf(d, "slab-alloc-failure"); f == nil || strings.Contains(f.Title, "  ") || !f.Facts.CacheUnnamed {
		t.Errorf("slab-alloc-failure %+v", f)
	}
	// A named cache that is no cgroup's copy stays its own problem: the edge needs the
	// cache unnamed or the cgroup's.
	named := "Sep 20 15:21:57 node1 kernel: SLUB: Unable to allocate memory on node -1 (gfp=0x20)\n" +
		"Sep 20 15:21:57 node1 kernel:   cache: skbuff_head_cache, object size: 232, buffer size: 256, default order: 0, min order: 0\n" +
		text[strings.Index(text, "Sep 20"):]
	if d, root := rootOf(t, named); root != "slab-alloc-failure" {
		t.Errorf("named cache: root %q (causes %+v)", root, d.Story.Causes)
	}
}

// A show_mem dump with a zone below min and the SLUB failure printed after it: the zone is
// where the failure comes from (corpus 545). Before: the slab failure was the root and the
// zone an independent problem.
func TestRootZoneBelowMinBeforeSlabFailure(t *testing.T) {
	dump := `[313542.621118] Node 0 Normal free:124kB min:10088kB low:12608kB high:15132kB active_anon:830108kB inactive_anon:104416kB active_file:15692kB inactive_file:887136kB unevictable:0kB present:8791040kB mlocked:0kB
[313542.621124] lowmem_reserve[]: 0 0 0 0
[313542.621135] Node 0 Normal: 0*4kB 0*8kB 0*16kB 0*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 0kB
[313542.630007] SLUB: Unable to allocate memory on node -1 (gfp=0x20)
[313542.630007]   cache: xfrm_dst_cache, object size: 448, buffer size: 448, default order: 0, min order: 0
`
	d, root := rootOf(t, dump)
	if root != "zone-reserve-low" {
		t.Errorf("root %q, want zone-reserve-low (causes %+v)", root, d.Story.Causes)
	}
	// Near min (the lower half of min..low) is no shortage of pages: no edge.
	near := strings.Replace(dump, "free:124kB", "free:11000kB", 1)
	if d, root := rootOf(t, near); root != "slab-alloc-failure" {
		t.Errorf("near min: root %q (causes %+v)", root, d.Story.Causes)
	}
}

// A count per state says how many sockets are closing, not what they hold (corpus 559's
// class). Before: orphan-send-queues said "no closing socket holds ≥ 64 KiB of send queue"
// from a count that has no queues, and tcp-buffers-exceed-budget took the flows as idle.
func TestStateCountsAreNoQueues(t *testing.T) {
	text := "$ netstat -n | awk '/^tcp/ {++S[$NF]} END {for(a in S) print a, S[a]}'\nTIME_WAIT 8123\nESTABLISHED 230\nFIN_WAIT1 2400\n" +
		"net.ipv4.tcp_rmem = 4096 87380 6291456\nnet.ipv4.tcp_wmem = 4096 16384 4194304\nnet.ipv4.tcp_mem = 92160 122880 184320\n"
	d, _ := rootOf(t, text)
	f := findingOf(d, "orphan-send-queues")
	if f == nil || f.Severity != Info || !evidenceHas(*f, "closing sockets counted per state", "2400 of 10753") {
		t.Errorf("orphan-send-queues %+v (checks %+v)", f, d.Checks)
	}
	b := findingOf(d, "tcp-buffers-exceed-budget")
	if b == nil || !evidenceHas(*b, "counted as busy", "2630, their memory not in the input") {
		t.Errorf("tcp-buffers-exceed-budget %+v", b)
	}
	// Few closing sockets in a count: nothing to tell, and no "no closing socket holds".
	d, _ = rootOf(t, "TIME_WAIT 8123\nESTABLISHED 230\nFIN_WAIT1 12\n")
	for _, c := range d.Checks {
		if c.ID == "orphan-send-queues" && (c.Status != StatusNotChecked || strings.Contains(c.Why, "no closing socket holds")) {
			t.Errorf("few closing: %+v", c)
		}
	}
}

// ss -lnt: a listener's Recv-Q (connections queued) at or above its Send-Q (the backlog)
// is a full accept queue now. Before: listen-overflow not checked without TcpExt counters.
func TestListenQueueFullInSS(t *testing.T) {
	text := "State      Recv-Q Send-Q Local Address:Port   Peer Address:Port\nLISTEN     129    128    *:80                 *:*\nLISTEN     0      128    *:22                 *:*\n"
	d, _ := rootOf(t, text)
	f := findingOf(d, "listen-overflow")
	if f == nil || f.Severity != Warning || !evidenceHas(*f, "accept queue is at its backlog", "*:80 129 queued of 128") || strings.Contains(f.Title, "SYN") {
		t.Fatalf("listen-overflow %+v (checks %+v)", f, d.Checks)
	}
	d, _ = rootOf(t, strings.Replace(text, "129", "3", 1))
	if f := findingOf(d, "listen-overflow"); f != nil {
		t.Errorf("below the backlog: %+v", f)
	}
	// netstat prints no backlog (Send-Q 0 for listeners): a short queue is not judged (fix29b
	// judges a stalled one, TestFix29bNetstatListenStalled).
	d, _ = rootOf(t, "Proto Recv-Q Send-Q Local Address           Foreign Address         State\ntcp        3      0 0.0.0.0:80              0.0.0.0:*               LISTEN\n")
	if f := findingOf(d, "listen-overflow"); f != nil {
		t.Errorf("netstat: %+v", f)
	}
}

// alloc_rx_buff_failed with ip -s -s link in the same paste: the finding says the driver's
// refill failed, not that the NIC overran (nothing overran). Before: "eth0 lost received
// frames at the NIC (ring or FIFO overrun)".
func TestRefillFailureTitle(t *testing.T) {
	text := `# ethtool -S eth0 | grep -i alloc
     alloc_rx_buff_failed: 48213
# ip -s -s link show eth0
2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP mode DEFAULT group default qlen 1000
    link/ether 00:1b:21:aa:bb:cc brd ff:ff:ff:ff:ff:ff
    RX: bytes  packets  errors  dropped overrun mcast
    9876543210 87654321 0       4521    0       1234
    RX errors: length   crc     frame   fifo    missed
               0        0       0       0       0
    TX: bytes  packets  errors  dropped carrier collsns
    1234567890 12345678 0       0       0       0
`
	d, _ := rootOf(t, text)
	f := findingOf(d, "nic-rx-overruns")
	if f == nil || !strings.Contains(f.Title, "failed 48213 times to allocate receive buffers") || !evidenceHas(*f, "alloc_rx_buff_failed", "48213") {
		t.Fatalf("nic-rx-overruns %+v", f)
	}
}

// Fragmentation is judged on the zones receive buffers could use: x86's 16 MiB ISA DMA zone,
// kept from them by lowmem_reserve, neither proves nor disproves contiguous memory. Before:
// "490 order-3 buffers obtainable" (ok) from DMA's blocks beside DMA32 and Normal with none,
// and from a buddyinfo that shows DMA alone.
func TestFragmentationOnUsableZones(t *testing.T) {
	dma := "Node 0, zone      DMA      1      2      2      2      2      1      0      0      1      1      3\n"
	rest := "Node 0, zone    DMA32  30000   5000      0      0      0      0      0      0      0      0      0\nNode 0, zone   Normal  40500   6000     50      0      0      0      0      0      0      0      0\n"
	d, _ := rootOf(t, dma+rest)
	f := findingOf(d, "memory-fragmented")
	if f == nil || f.Severity != Critical || !evidenceHas(*f, "zone DMA", "not counted") || !evidenceHas(*f, "obtainable", "0; DMA32") {
		t.Fatalf("memory-fragmented %+v (checks %+v)", f, d.Checks)
	}
	d, _ = rootOf(t, dma)
	for _, c := range d.Checks {
		if c.ID == "memory-fragmented" && (c.Status != StatusNotChecked || !strings.Contains(c.Why, "ISA")) {
			t.Errorf("DMA alone: %+v", c)
		}
	}
	// On arm64 ZONE_DMA is a main zone: its blocks count.
	d, _ = rootOf(t, "Linux version 5.10.0 (aarch64) #1 SMP\n$ uname -m\naarch64\n"+dma+rest)
	if f := findingOf(d, "memory-fragmented"); f != nil && d.Findings != nil && evidenceHas(*f, "zone DMA", "not counted") {
		t.Errorf("arm64: DMA set aside: %+v", f)
	}
}

// One unreclaimable cache that outweighs all the others of a /proc/slabinfo table ten times
// is a leak whatever the memory size (corpus 448: a module's ndpi_ctinfo). Before:
// slab-unreclaimable-growth judged kmalloc caches only and was not checked ("kmalloc caches
// hold 0 B ... the memory size is unknown").
func TestSlabDominantUnreclaimableCache(t *testing.T) {
	rows := `# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>
ipt_netflow         1388   1792    144   28    1 : tunables    0    0    0 : slabdata     64     64      0
BIG              4147038 4147038    176   23    1 : tunables    0    0    0 : slabdata 180306 180306      0
UDPv6                120    120   1088   30    8 : tunables    0    0    0 : slabdata      4      4      0
TCPv6                 64     64   1984   16    8 : tunables    0    0    0 : slabdata      4      4      0
nf_conntrack        1782   4342    304   26    2 : tunables    0    0    0 : slabdata    167    167      0
`
	d, _ := rootOf(t, strings.Replace(rows, "BIG", "ndpi_ctinfo", 1))
	f := findingOf(d, "slab-unreclaimable-growth")
	if f == nil || f.Severity != Warning || !strings.Contains(f.Title, "ndpi_ctinfo") {
		t.Fatalf("slab-unreclaimable-growth %+v (checks %+v)", f, d.Checks)
	}
	// The same size in dentries is reclaimable: not this class.
	d, _ = rootOf(t, strings.Replace(rows, "BIG", "dentry", 1))
	if f := findingOf(d, "slab-unreclaimable-growth"); f != nil {
		t.Errorf("dentry: %+v", f)
	}
	// A grep of one cache is no table to weigh it against.
	lines := strings.SplitAfter(rows, "\n")
	d, _ = rootOf(t, strings.Replace(lines[0]+lines[2], "BIG", "ndpi_ctinfo", 1))
	if f := findingOf(d, "slab-unreclaimable-growth"); f != nil {
		t.Errorf("one row: %+v", f)
	}
}

// A socket buffer an application sets, stated beside a path's rate and round trip (corpus
// 532, in Chinese prose: "专线100M,时延20ms", "socket.setSendBufferSize(16*1024)"). Before:
// exit 3, nothing read.
func TestStatedBufferBelowBDP(t *testing.T) {
	text := "应用通过专线跨网络访问云上的服务,专线100M,时延20ms,一个SQL查询了22M数据,结果花了大概25秒。\n\n我们的应用代码中会默认设置 socketSendBuffer 为16K:\n\nsocket.setSendBufferSize(16*1024) //16K send buffer\n"
	d, root := rootOf(t, text)
	f := findingOf(d, "tcp-buffers-below-bdp")
	if f == nil || root != "tcp-buffers-below-bdp" || !evidenceHas(*f, "path and round trip", "100 Mbit/s, 20 ms") || !evidenceHas(*f, "send buffer", "16 KiB") {
		t.Fatalf("tcp-buffers-below-bdp %+v (checks %+v)", f, d.Checks)
	}
	// In English, and a buffer that covers the product.
	d, _ = rootOf(t, "Our 1 Gbps leased line has an RTT of 2 ms.\nThe client calls setReceiveBufferSize(1048576) on its socket.\n")
	for _, c := range d.Checks {
		if c.ID == "tcp-buffers-below-bdp" && c.Status != StatusOK {
			t.Errorf("buffer above the product: %+v", c)
		}
	}
	// Advice is no buffer the host has.
	d, _ = rootOf(t, "The leased line is 100 Mbps with 20 ms latency.\nYou should call setSendBufferSize(16*1024) there.\n")
	if f := findingOf(d, "tcp-buffers-below-bdp"); f != nil {
		t.Errorf("advice judged: %+v", f)
	}
}

// The OOM killer stated at work in prose, with no kill report (corpus 521: "偶爾,OOM-killer
// 會殺死一些程序", occasionally the OOM killer kills some processes). Before: oom-kill not
// found. A hypothetical or advice is not a kill.
func TestOOMKillStated(t *testing.T) {
	for _, text := range []string{
		"kswapd0 runs at 100% and swap fills up.\n偶爾,OOM-killer 會殺死一些程序:\n",
		"Every night the OOM killer killed mysqld on our db host.\n",
		"Our workers keep getting OOM-killed since the upgrade.\n",
	} {
		d, _ := rootOf(t, text)
		f := findingOf(d, "oom-kill")
		if f == nil || f.Severity != Warning || f.Facts.OOM != OOMUndecided {
			t.Errorf("%q: oom-kill %+v", text, f)
		}
	}
	for _, text := range []string{
		"If memory runs out the OOM killer will kill the largest process.\n",
		"You can tune oom_score_adj so the OOM killer kills the batch jobs first.\n",
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "oom-kill"); f != nil {
			t.Errorf("%q: %+v", text, f)
		}
	}
}

// 2.4's SysRq-m buddy lists without their Zone: lines (corpus 794): the Normal list (12244
// kB free, 15 order-3 blocks, nothing above) is fragmentation. Before: the lists were log
// records, memory-fragmented said "no /proc/buddyinfo".
func TestFragmentationFromZonelessBuddy24(t *testing.T) {
	d, root := rootOf(t, "Jul 23 20:19:30 localhost kernel: 0*4kB 0*8kB 0*16kB 1*32kB 0*64kB 1*128kB 1*256kB 1*512kB 1*1024kB 0*2048kB 0*4096kB = 1952kB)\n"+
		"Jul 23 20:19:30 localhost kernel: 1395*4kB 355*8kB 209*16kB 15*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 12244kB)\n"+
		"Jul 23 20:19:31 localhost kernel: 1479*4kB 673*8kB 205*16kB \n")
	if f := findingOf(d, "memory-fragmented"); f == nil || f.Severity < Warning || root != "memory-fragmented" {
		t.Fatalf("memory-fragmented %+v, root %q", f, root)
	}
	for _, f := range d.Findings {
		if strings.HasPrefix(f.ID, "alloc-fail-") {
			t.Errorf("%s from lists with no failure", f.ID)
		}
	}
}
