package artifact

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

// Every fixture under testdata/ has a golden file of what Parse makes of it.
func TestFixturesGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		t.Run(name, func(t *testing.T) {
			tl := parseFile(t, f, Options{})
			if len(tl.Artifacts) == 0 {
				t.Fatalf("nothing recognised in %s", f)
			}
			if len(tl.Unparsed) != 0 {
				t.Errorf("unparsed: %+v", tl.Unparsed)
			}
			checkGolden(t, "fixture_"+name, goldenView(tl))
		})
	}
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestAllocFailure44(t *testing.T) {
	af, err := ParseAllocFailure(fixture(t, "alloc_4.4_x86_64.txt"), "")
	if err != nil {
		t.Fatal(err)
	}
	if af.Process != "swapper/3" || af.Mode != "0x2080020(GFP_ATOMIC)" || af.ModeValue != 0x2080020 || af.Kernel != "4.4.0-127-generic" {
		t.Errorf("header %+v", af)
	}
	if strings.Join(af.GFPFlags, "|") != "GFP_ATOMIC" || af.Atomic == nil || !*af.Atomic || !af.InInterrupt {
		t.Errorf("gfp %v atomic %v irq %v", af.GFPFlags, af.Atomic, af.InInterrupt)
	}
	want := "dump_stack warn_alloc_failed __alloc_pages_nodemask"
	if got := strings.Join(af.CallTrace[:3], " "); got != want {
		t.Errorf("trace starts %q, want %q", got, want)
	}
	if !contains(af.CallTrace, "ixgbe_alloc_rx_buffers") || !contains(af.CallTrace, "? __alloc_skb") {
		t.Errorf("trace %v", af.CallTrace)
	}
	if len(af.Zones) != 3 || af.Zones[1].Zone != "DMA32" || af.Zones[1].FreeKB != 123456 || *af.Zones[1].ManagedKB != 1955332 {
		t.Fatalf("zones %+v", af.Zones)
	}
	if fmtInts(af.Zones[1].FreeBlocks) != "[3 1 2 5 4 3 1 2 3 2 27]" || af.Zones[1].MigrateTypes[0] != "UME" {
		t.Errorf("DMA32 buddy %v %v", af.Zones[1].FreeBlocks, af.Zones[1].MigrateTypes)
	}
	if v, _ := af.MemInfo.Get("free_cma"); v != 0 || af.MemInfo.Len() != 19 {
		t.Errorf("Mem-Info block joined wrongly: %d counters", af.MemInfo.Len())
	}
	if af.PagesRAM == nil || *af.PagesRAM != 8377211 || af.FreeSwapKB == nil || *af.FreeSwapKB != 0 {
		t.Errorf("pages RAM %v free swap %v", af.PagesRAM, af.FreeSwapKB)
	}
}

func TestAllocFailure24(t *testing.T) {
	af, err := ParseAllocFailure(fixture(t, "alloc_2.4.txt"), "2.4.19")
	if err != nil {
		t.Fatal(err)
	}
	if af.Order != 2 || af.Mode != "0x20" || strings.Join(af.GFPFlags, "|") != "GFP_ATOMIC" || af.Process != "" {
		t.Errorf("%+v", af)
	}
}

func TestAllocFailureARM(t *testing.T) {
	af, err := ParseAllocFailure(fixture(t, "alloc_arm_2.6.30.txt"), "2.6.30-1-kirkwood")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"dump_backtrace", "dump_stack", "__alloc_pages_internal", "cache_alloc_refill", "__kmalloc",
		"__alloc_skb", "rxq_refill", "mv643xx_eth_poll", "net_rx_action", "__do_softirq", "irq_exit"}
	if strings.Join(af.CallTrace, " ") != strings.Join(want, " ") {
		t.Errorf("trace\n got %v\nwant %v", af.CallTrace, want)
	}
	if !af.InInterrupt || strings.Join(af.GFPFlags, "|") != "GFP_ATOMIC" {
		t.Errorf("irq %v gfp %v", af.InInterrupt, af.GFPFlags)
	}
	if len(af.Zones) != 1 || af.Zones[0].FreeKB != 5988 || fmtInts(af.Zones[0].FreeBlocks) != "[1091 113 3 0 0 0 0 0 0 0 0]" {
		t.Errorf("zones %+v", af.Zones)
	}
	if v, _ := af.MemInfo.Get("free"); v != 1497 {
		t.Errorf("2.6.30 Active_anon block: free %d", v)
	}
	if af.PagesRAM == nil || *af.PagesRAM != 131072 {
		t.Errorf("pages of RAM %v", af.PagesRAM)
	}
	bt, _ := ParseAllocFailure(fixture(t, "alloc_arm_backtrace.txt"), "")
	if strings.Join(bt.CallTrace, " ") != "dump_backtrace dump_stack __alloc_pages_nodemask cache_alloc_refill" {
		t.Errorf("Backtrace: form %v", bt.CallTrace)
	}
}

func TestAllocFailure6x(t *testing.T) {
	af, err := ParseAllocFailure(fixture(t, "alloc_6x_warn_alloc.txt"), "")
	if err != nil {
		t.Fatal(err)
	}
	if af.Order != 3 || af.Nodemask != "(null)" || af.Kernel != "6.6.15-amd64" || af.ModeValue != 0x820 {
		t.Errorf("%+v", af)
	}
	if af.CallTrace[0] != "dump_stack_lvl" || af.CallTrace[len(af.CallTrace)-1] != "virtnet_receive" {
		t.Errorf("trace %v", af.CallTrace)
	}
	if len(af.Zones) != 2 || af.Zones[1].FreeKB != 29840 || af.Zones[1].MinKB != 10988 {
		t.Errorf("zones %+v", af.Zones)
	}
	if v, ok := af.Zones[1].Fields.Get("reserved_highatomic_kb"); !ok || v != 2048 {
		t.Errorf("reserved_highatomic %d %v", v, ok)
	}
}

func TestOOMAndSlab(t *testing.T) {
	o, err := ParseOOM(fixture(t, "oom_global_3.10.txt"), "3.10.0")
	if err != nil {
		t.Fatal(err)
	}
	if o.Invoker != "java" || o.Order != 0 || o.Mode != "0x280da" || o.Constraint != "CONSTRAINT_NONE" ||
		o.KilledPID != 2345 || o.KilledComm != "java" || o.AnonRSSKB != 15604936 || o.TotalVMKB != 18271560 {
		t.Errorf("global OOM %+v", o)
	}
	if strings.Join(o.GFPFlags, "|") != "GFP_HIGHUSER_MOVABLE|__GFP_ZERO" { // do_anonymous_page: a zeroed user page
		t.Errorf("0x280da on 3.10 decodes to %v", o.GFPFlags)
	}
	m, _ := ParseOOM(fixture(t, "oom_memcg_5.x.txt"), "")
	if m.Constraint != "CONSTRAINT_MEMCG" || m.Memcg != "/kubepods/burstable/pod1234" || m.KilledPID != 4321 ||
		m.AnonRSSKB != 518000 || m.OOMScoreAdj != 994 || strings.Join(m.GFPFlags, "|") != "GFP_KERNEL" {
		t.Errorf("memcg OOM %+v", m)
	}
	s, _ := ParseSlabFailure(fixture(t, "slub_4.x.txt"), "")
	if s.Cache != "kmalloc-2048" || s.ObjectSize != 2048 || s.DefaultOrder != 3 || s.Node != -1 || strings.Join(s.GFPFlags, "|") != "GFP_ATOMIC" {
		t.Errorf("slub %+v", s)
	}
	s2, _ := ParseSlabFailure(fixture(t, "slub_2.6.txt"), "2.6.32")
	if s2.Cache != "skbuff_head_cache" || s2.BufferSize != 256 || strings.Join(s2.GFPFlags, "|") != "GFP_ATOMIC" {
		t.Errorf("slub 2.6 %+v", s2)
	}
}

func TestVMStatVariants(t *testing.T) {
	tb, err := ParseVMStat(fixture(t, "vmstat_wt.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if tb.TimeZone != "UTC" || len(tb.Times) != 3 || len(tb.Rows) != 3 || tb.Procps != "3.x" {
		t.Errorf("-w -t: %+v", tb)
	}
	ss := tb.samples()
	if ss[1].Time.IsZero() || ss[1].Rates[model.RateCtxtPerSec] != 11412 {
		t.Errorf("-t sample %+v", ss[1])
	}
	a, _ := ParseVMStat(fixture(t, "vmstat_a.txt"))
	if v, _ := a.samples()[0].Mem("Inactive"); v != 2025572 {
		t.Errorf("-a inact %d", v)
	}
}

func TestTopVariants(t *testing.T) {
	ts, err := ParseTop(fixture(t, "top_33.txt"))
	if err != nil {
		t.Fatal(err)
	}
	s := ts.sample()
	if s.Rates[model.RateCPUUserPct] != 100 {
		t.Errorf("%%Cpu(s):100.0 us → %v", s.Rates)
	}
	if v, _ := s.Mem("MemTotal"); v != 24684134 { // 24105.6 MiB in kB, rounded
		t.Errorf("MiB Mem total → %d kB", v)
	}
	if v, _ := s.Mem("MemAvailable"); v != 23976448 { // 23414.5 MiB
		t.Errorf("avail Mem → %d kB", v)
	}
}

func TestNetworkKinds(t *testing.T) {
	ns, err := ParseNetstatS(fixture(t, "netstat_s.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := ns.Groups.Get("Ip", "InReceives"); !ok || v != 43309 {
		t.Errorf("Ip InReceives %d %v", v, ok)
	}
	for _, g := range []string{"Tcp", "TcpExt", "Udp"} {
		if ns.Groups.Group(g) == nil {
			t.Errorf("netstat -s group %s missing", g)
		}
	}
	sent := "TcpExt:\n    1234 packets pruned from receive queue because of socket buffer overrun\n    TCP ran low on memory 7 times\n    12 packets collapsed in receive queue due to low socket buffer\n    TCPBacklogDrop: 3\n    9 frobnications\n"
	ns2, _ := ParseNetstatS(sent)
	for name, want := range map[string]int64{"PruneCalled": 1234, "TCPMemoryPressures": 7, "TCPRcvCollapsed": 12, "TCPBacklogDrop": 3} {
		if v, _ := ns2.Groups.Get("TcpExt", name); v != want {
			t.Errorf("%s = %d, want %d", name, v, want)
		}
	}
	if len(ns2.Unmapped) != 1 || !strings.Contains(ns2.Unmapped[0], "frobnications") {
		t.Errorf("unmapped %v", ns2.Unmapped)
	}
	nst, _ := ParseNstat(fixture(t, "nstat_az.txt"))
	if _, ok := nst.Groups.Get("TcpExt", "PruneCalled"); !ok {
		t.Error("nstat TcpExtPruneCalled missing")
	}
	ifs, _ := ParseIfconfig(fixture(t, "ifconfig_old.txt"))
	if v, _ := ifs[0].Counters.Get("rx_fifo_errors"); v != 3400 || ifs[0].TxQueueLen != 1000 || ifs[1].Name != "lo" {
		t.Errorf("old ifconfig %+v", ifs)
	}
	ifn, _ := ParseIfconfig(fixture(t, "ifconfig_new.txt"))
	if v, _ := ifn[0].Counters.Get("rx_bytes"); ifn[0].Name != "eth0" || v != 191157202 || ifn[0].MTU != 1400 {
		t.Errorf("new ifconfig %+v", ifn[0])
	}
	old, _ := ParseIPLink(fixture(t, "iplink_old.txt"))
	if v, _ := old[0].Counters.Get("rx_over_errors"); v != 1392055 {
		t.Errorf("old ip -s -s link overrun → %d", v)
	}
	if v, _ := old[0].Counters.Get("rx_missed_errors"); v != 1392055 {
		t.Errorf("old ip -s -s link missed → %d", v)
	}
	nl, _ := ParseIPLink(fixture(t, "iplink_new.txt"))
	if _, ok := nl[0].Counters.Get("rx_missed_errors"); !ok || nl[0].Name != "lo" {
		t.Errorf("new ip -s -s link %+v", nl[0])
	}
	st, _ := ParseSocketTable(fixture(t, "ss_tmi.txt"))
	if len(st.Sockets) != 3 || st.Sockets[1].State != "FIN_WAIT1" || st.Sockets[1].Mem.WmemQueued != 395264 || st.Sockets[2].Mem.Drops != 37 ||
		st.Sockets[0].Info.RTTUsec != 125300 || st.Sockets[0].Info.NotsentBytes != 81920 {
		t.Errorf("ss -tmi %+v", st.Sockets)
	}
	nt, _ := ParseSocketTable(fixture(t, "netstat_tnpo.txt"))
	if len(nt.Sockets) != 5 || nt.Summary.ByState["FIN_WAIT1"].SendQ != 370841+286161 || nt.Sockets[4].Family != "inet6" {
		t.Errorf("netstat -tnpo %+v", nt.Summary)
	}
	es, _ := ParseEthtoolStats("NIC statistics:\n     rx_packets: 10\n     rx_missed_errors: 5\n     rx_no_buffer_count: 7\n     alloc_rx_buff_failed: 2\n     rx_queue_3_drops: 1\n     rx_fifo_errors: 5\n     rx_discards: 3\n     rx_discards_phy: 4\n     rx_drops: 6\n")
	for n, c := range map[string]string{"rx_missed_errors": "ring", "rx_no_buffer_count": "ring", "alloc_rx_buff_failed": "refill",
		"rx_queue_3_drops": "ring", "rx_fifo_errors": "ring", "rx_discards": "ring", "rx_discards_phy": "ring", "rx_drops": "stack"} {
		if es.Loss[n] != c {
			t.Errorf("%s classified %q, want %q", n, es.Loss[n], c)
		}
	}
	if _, ok := es.Loss["rx_packets"]; ok {
		t.Error("rx_packets classified as loss")
	}
	er, _ := ParseEthtoolRing("Ring parameters for eth1:\nPre-set maximums:\nRX:\t\t4096\nRX Mini:\t0\nRX Jumbo:\t0\nTX:\t\t4096\nCurrent hardware settings:\nRX:\t\t256\nRX Mini:\t0\nRX Jumbo:\t0\nTX:\t\t256\n")
	if er.Interface != "eth1" || er.Ring.RxMax != 4096 || er.Ring.Rx != 256 || er.Ring.Tx != 256 {
		t.Errorf("ethtool -g %+v", er)
	}
}

func TestSettingsForms(t *testing.T) {
	tl := ParseString(fixture(t, "sysctl_a.txt"), "a", Options{})
	if tl.Host.Sysctls["net.ipv4.tcp_mem"] != "196608 262144 393216" || tl.Host.SysctlSource["vm.min_free_kbytes"] != "line 10" {
		t.Errorf("sysctl -a into host: %v %v", tl.Host.Sysctls, tl.Host.SysctlSource)
	}
	tl = ParseString(fixture(t, "sysctl_conf.txt"), "c", Options{})
	blk := artifactsOf(tl, KindSysctl)[0].Data.(SysctlBlock)
	if blk.Form != "sysctl.conf" || len(blk.Unknown) != 1 || blk.Unknown[0].Suggest != "vm.min_free_kbytes" {
		t.Errorf("conf block %+v", blk)
	}
	if tl.Host.Sysctls != nil {
		t.Error("sysctl.conf values must not be taken as the host's")
	}
	prose := "Then I ran `sysctl -w net.ipv4.tcp_rmem=\"4096 87380 4194304\"` and echo 65536 > /proc/sys/vm/min_free_kbytes;\n" +
		"later *net.core.netdev\\_max\\_backlog* = 3000 helped, see vger.kernel.org.\n" +
		"sysctl -w vm.min_kbytes_free=20000\n" +
		"sysctl -w net.core.rmem_maxx=8388608\n"
	ss := ParseSettings(prose)
	want := []model.SettingMention{
		{Key: "net.ipv4.tcp_rmem", Value: "4096 87380 4194304", Form: "sysctl-w", Line: 1, Means: "net.ipv4.tcp_rmem", Known: true},
		{Key: "vm.min_free_kbytes", Value: "65536", Form: "sysctl-w", Line: 1, Means: "vm.min_free_kbytes", Known: true},
		{Key: "net.core.netdev_max_backlog", Value: "3000", Form: "prose", Line: 2, Means: "net.core.netdev_max_backlog", Known: true},
		// The same words reordered name the key; a near spelling is only a suggestion.
		{Key: "vm.min_kbytes_free", Value: "20000", Form: "sysctl-w", Line: 3, Means: "vm.min_free_kbytes", Suggest: "vm.min_free_kbytes"},
		{Key: "net.core.rmem_maxx", Value: "8388608", Form: "sysctl-w", Line: 4, Suggest: "net.core.rmem_max"},
	}
	if len(ss) != len(want) {
		t.Fatalf("settings %+v", ss)
	}
	for i := range want {
		ss[i].Source = ""
		if ss[i] != want[i] {
			t.Errorf("setting %d: %+v, want %+v", i, ss[i], want[i])
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Two greps of ethtool -S, each under its own prompt: the second prompt ends the first block
// (it is not "a line between counters" to report) and labels the second, so each interface
// keeps its own counters (corpus 249).
func TestEthtoolBlocksUnderPrompts(t *testing.T) {
	text := "root@compute5:~# ethtool -S enp24s0f1 | egrep -E 'rx_dropped|rx_missed'\n" +
		"     rx_dropped: 3322\n     port.rx_dropped: 0\n" +
		"root@compute5:~# ethtool -S enp24s0f0 | egrep -E 'rx_dropped|rx_missed'\n" +
		"     rx_dropped: 768\n     port.rx_dropped: 0\n"
	tl := ParseString(text, "", Options{})
	if len(tl.Unparsed) != 0 {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
	got := map[string]int64{}
	for _, s := range tl.Samples {
		for _, n := range s.NICStats {
			if v, ok := n.Stats.Get("rx_dropped"); ok {
				got[n.Name] = v
			}
		}
	}
	if got["enp24s0f1"] != 3322 || got["enp24s0f0"] != 768 || len(got) != 2 {
		t.Errorf("rx_dropped by interface %v, want enp24s0f1 3322 and enp24s0f0 768", got)
	}
}

// `ip -s -s -h link` rounds large counters ("6.04T"): the row is read for the columns printed
// whole (dropped 0, missed 7), the rounded ones are named as not read, never dropped silently
// and never taken as the counter (corpus 200).
func TestIPLinkHumanUnits(t *testing.T) {
	text := "2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP mode DEFAULT group default qlen 1000\n" +
		"    link/ether 00:11:22:33:44:55 brd ff:ff:ff:ff:ff:ff\n" +
		"    RX:  bytes packets errors dropped  missed   mcast\n" +
		"     6.04T      4.67G    0       0       7       67.7M\n" +
		"    TX:  bytes packets errors dropped carrier collsns\n" +
		"     3.13T      2.76G    0       0       0       0\n"
	tl := ParseString(text, "", Options{})
	var dev *kernel.NetDev
	for i := range tl.Samples {
		for j := range tl.Samples[i].NetDev {
			dev = &tl.Samples[i].NetDev[j]
		}
	}
	if dev == nil {
		t.Fatal("no interface read")
	}
	if v, ok := dev.Counters.Get("rx_missed_errors"); !ok || v != 7 {
		t.Errorf("rx_missed_errors %d %v, want 7", v, ok)
	}
	if v, ok := dev.Counters.Get("rx_dropped"); !ok || v != 0 {
		t.Errorf("rx_dropped %d %v, want 0", v, ok)
	}
	if _, ok := dev.Counters.Get("rx_packets"); ok {
		t.Error("a rounded 4.67G taken as rx_packets")
	}
	if len(tl.Unparsed) != 2 || !strings.Contains(tl.Unparsed[0].Why, "packets 4.67G") {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
}

// slabtop rows pasted without the header: two rows of slabtop's shape are the table; one
// row alone, or rows without the '%' and 'K' columns, are not (corpus 408).
func TestSlabtopHeaderless(t *testing.T) {
	tl := ParseString("   730    730 100%    0.05K     10       73         39 ip_fib_alias\n   672    672 100%    0.25K     21       32        168 nf_conntrack\n", "", Options{})
	arts := artifactsOf(tl, KindSlabtop)
	if len(arts) != 1 || len(arts[0].Data.(*Slabtop).Rows) != 2 || arts[0].Data.(*Slabtop).Rows[1].Name != "nf_conntrack" {
		t.Fatalf("%+v", arts)
	}
	if got := artifactsOf(ParseString("   730    730 100%    0.05K     10       73         39 ip_fib_alias\n", "", Options{}), KindSlabtop); len(got) != 0 {
		t.Errorf("one row taken as a table: %+v", got)
	}
	if got := artifactsOf(ParseString("730 730 100 0.05 10 73 39 a\n672 672 100 0.25 21 32 168 b\n", "", Options{}), KindSlabtop); len(got) != 0 {
		t.Errorf("rows without %% and K taken as slabtop: %+v", got)
	}
}

// Oracle ExaWatcher's vmstat: a "--time--" group and the time of day before each row, which
// vmstat's own column header does not have (corpus 405).
func TestVMStatLeadingClock(t *testing.T) {
	text := "--time-- procs -----------memory---------- ---swap-- -----io---- --system-- -----cpu-----\n" +
		"          r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n" +
		"19:17:37 51  0   4528 12054348 192736 84229576    0    0   375 178506 294591 158210 36  4 59  1  0\t\n" +
		"19:17:42 52  0   4528 11909044 192772 84288816    0    0   369 161530 287479 159937 48  4 47  1  0\t\n"
	tl := ParseString(text, "", Options{})
	arts := artifactsOf(tl, KindVMStat)
	if len(arts) != 1 || len(tl.Unparsed) != 0 {
		t.Fatalf("%+v unparsed %+v", arts, tl.Unparsed)
	}
	tb := arts[0].Data.(*VMStatTable)
	if len(tb.Rows) != 2 || tb.Rows[1][3] != 11909044 {
		t.Errorf("rows %v", tb.Rows)
	}
}
