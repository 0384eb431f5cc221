package artifact

import (
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

// one returns the data of the text's only artifact of kind.
func one(t *testing.T, tl *model.Timeline, kind string) any {
	t.Helper()
	as := artifactsOf(tl, kind)
	if len(as) != 1 {
		t.Fatalf("%d %s artifacts, want 1; unparsed %+v", len(as), kind, tl.Unparsed)
	}
	return as[0].Data
}

func get(t *testing.T, c *kernel.Counters, name string, want int64) {
	t.Helper()
	if c == nil {
		t.Fatalf("%s: no counters", name)
	}
	if v, ok := c.Get(name); !ok || v != want {
		t.Errorf("%s = %d (present %v), want %d", name, v, ok, want)
	}
}

// The show_mem footer, the buddy line's sum and the task line of an allocation failure
// (seed 008's shape: a 3.10 kernel, lib/show_mem.c and mm/page_alloc.c show_free_areas).
func TestAllocFailureExtras(t *testing.T) {
	text := `[111775.571176] kworker/17:1H: page allocation failure: order:1, mode:0x204020
[111775.578315] CPU: 17 PID: 1652 Comm: kworker/17:1H Tainted: G           OE  ------------   3.10.0-957.el7.x86_64 #1
[111775.578330] Call Trace:
[111775.578340]  [<ffffffff8bd6d2f4>] dump_stack+0x19/0x1b
[111775.578350] Mem-Info:
[111775.578351] active_anon:9106553 inactive_anon:594546 isolated_anon:0
[111775.578360] Node 0 Normal free:39112kB min:45092kB low:56364kB high:67636kB present:16777216kB
[111775.578361] lowmem_reserve[]: 0 0 0 0
[111775.578370] Node 0 Normal: 8702*4kB (UEM) 533*8kB (UEM) 0*16kB 0*32kB = 39112kB
[111775.578380] 2950857 total pagecache pages
[111775.578381] 5460 pages in swap cache
[111775.578382] Free swap  = 4194300kB
[111775.578383] Total swap = 2097148kB
[111775.578384] 4138876 pages RAM
[111775.578385] 77627 pages reserved
`
	tl := ParseString(text, "dmesg", Options{})
	a := one(t, tl, KindAllocFailure).(*allocArtifact)
	if a.Task == nil || a.Task.PID != 1652 || a.Task.CPU == nil || *a.Task.CPU != 17 || a.Task.Comm != "kworker/17:1H" {
		t.Errorf("task line: %+v", a.Task)
	}
	for name, want := range map[string]int64{"total_pagecache_pages": 2950857, "pages_in_swap_cache": 5460,
		"free_swap_kb": 4194300, "total_swap_kb": 2097148, "pages_ram": 4138876, "pages_reserved": 77627} {
		get(t, a.Totals, name, want)
	}
	if len(a.Zones) != 1 {
		t.Fatalf("zones %+v", a.Zones)
	}
	get(t, a.Zones[0].Fields, "buddy_total_kb", 39112)
}

// 2.4 and 2.6 footers: "( Active: N, inactive: N, free: N )", "Free pages: NkB (NkB HighMem)",
// "Buffer memory: NkB" (mm/page_alloc.c show_free_areas_core, fs/buffer.c show_buffers).
func TestShowMemOldFooters(t *testing.T) {
	m := ParseShowMem(`Free pages:       38308kB (     0kB HighMem)
Zone:DMA freepages: 13800kB min:   128kB low:   256kB high:   384kB
( Active: 4957, inactive: 5353, free: 9577 )
Free swap:            0kB
993 reserved pages
Buffer memory:     2628kB
`)
	get(t, m.Totals, "free_pages_kb", 38308)
	get(t, m.Totals, "reserved_pages", 993)
	get(t, m.Totals, "buffer_memory_kb", 2628)
	get(t, m.MemInfo, "active", 4957)
	get(t, m.MemInfo, "inactive", 5353)
	get(t, m.MemInfo, "free", 9577)
}

// A memcg OOM report's counters, score and task table (mm/memcontrol.c
// mem_cgroup_print_oom_info, mm/oom_kill.c dump_tasks, 4.18 as seed 114 prints them), and
// the global counters an OOM report's dump carries as an allocation failure's does.
func TestOOMExtras(t *testing.T) {
	text := `[20148497.768790] java invoked oom-killer: gfp_mask=0x6000c0(GFP_KERNEL), nodemask=(null), order=0, oom_score_adj=-998
[20148497.768802] CPU: 18 PID: 7127 Comm: java Kdump: loaded Tainted: G        W  O  K  --------- -  - 4.18.0-193.el8.x86_64 #1
[20148497.795200] memory: usage 32461120kB, limit 33554432kB, failcnt 0
[20148497.795959] memory+swap: usage 35651584kB, limit 35651584kB, failcnt 24892068
[20148497.796693] kmem: usage 471440kB, limit 9007199254740988kB, failcnt 0
[20148497.797405] Memory cgroup stats for /kubepods.slice: cache:28030012KB rss:3958288KB shmem:28013264KB swap:3190836KB
[20148497.797500] Tasks state (memory values in pages):
[20148497.797501] [  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name
[20148497.797502] [  27085]   112 27085 10766615  8033034 67526656        0             0 mysqld
[20148497.797600] Memory cgroup out of memory: Kill process 27085 (mysqld) score 978 or sacrifice child
[20148497.797700] active_anon:7316682 inactive_anon:737085 isolated_anon:0
[20148497.797701] Total swap = 1952764kB
[20148497.797702] 154844 pages reserved
`
	tl := ParseString(text, "dmesg", Options{})
	o := one(t, tl, KindOOMKill).(*oomArtifact)
	if o.Task == nil || o.Task.PID != 7127 {
		t.Errorf("task %+v", o.Task)
	}
	if len(o.MemcgUsage) != 3 || o.MemcgUsage[1].Counter != "memory+swap" || o.MemcgUsage[1].Failcnt != 24892068 || o.MemcgUsage[0].LimitKB != 33554432 {
		t.Errorf("memcg usage %+v", o.MemcgUsage)
	}
	get(t, o.MemcgStats, "rss_kb", 3958288)
	if o.Score != 978 {
		t.Errorf("score %d", o.Score)
	}
	if len(o.Tasks) != 1 || o.Tasks[0].Name != "mysqld" {
		t.Fatalf("tasks %+v", o.Tasks)
	}
	get(t, o.Tasks[0].Fields, "total_vm", 10766615)
	get(t, o.Tasks[0].Fields, "rss", 8033034)
	get(t, o.Tasks[0].Fields, "pgtables_bytes", 67526656)
	get(t, o.MemInfo, "active_anon", 7316682)
	get(t, o.Totals, "total_swap_kb", 1952764)
	get(t, o.Totals, "pages_reserved", 154844)
}

// SLUB's per-node lines (mm/slub.c slab_out_of_memory), with the comma-space the kernel
// prints and without it (a vendor log that dropped the space).
func TestSlabNodes(t *testing.T) {
	text := `[38535642.795972] SLUB: Unable to allocate memory on node -1, gfp=0x480020(GFP_ATOMIC)
[38535642.795975]   cache: skbuff_head_cache, object size: 232, buffer size: 256, default order: 1, min order: 0
[38535642.795977]   node 0: slabs: 854, objs: 42320, free: 0
[38535642.823066]   node 1: slabs: 400,objs: 25360, free: 294
`
	tl := ParseString(text, "dmesg", Options{})
	n := one(t, tl, KindSlabFailure).(*slabArtifact).SlabNodes
	if len(n) != 2 || n[0] != (SlabNode{0, 854, 42320, 0}) || n[1] != (SlabNode{1, 400, 25360, 294}) {
		t.Errorf("slab nodes %+v", n)
	}
}

// BusyBox top's Mem line and task table (procps/top.c display_header, display_process_list:
// "Mem: %luK used, %luK free, %luK shrd, %luK buff, %luK cached"), and a procps 3.3 MiB line
// kept as printed (procps top/top.c: "MiB Mem : %9.1f total, ...").
func TestTopBusyBoxAndPrinted(t *testing.T) {
	text := `Mem: 418740K used, 81752K free, 1528K shrd, 0K buff, 146184K cached
  PID  VSZ %VSZ %CPU COMMAND
 6562 1371m 281%   0% AdGuardHome
 3055 1287m 263%   0% Inf
`
	tl := ParseString(text, "paste", Options{})
	ts := one(t, tl, KindTop).(*TopSummary)
	if ts.MemKB["used"] != 418740 || ts.MemKB["shrd"] != 1528 || ts.MemKB["cached"] != 146184 {
		t.Errorf("mem %v", ts.MemKB)
	}
	if smp := ts.sample(); smp.MemInfo == nil {
		t.Error("no meminfo")
	} else if v, ok := smp.MemInfo.Get("MemTotal"); !ok || v != 418740+81752 {
		t.Errorf("MemTotal %d %v, want used+free", v, ok)
	}
	tt := one(t, tl, KindTopTasks).(*TopTasks)
	if len(tt.Values) != 2 || tt.Values[0]["PID"] != 6562 || tt.Values[0]["%VSZ"] != 281 || tt.Values[1]["PID"] != 3055 {
		t.Errorf("values %v", tt.Values)
	}
	if _, ok := tt.Values[0]["VSZ"]; ok {
		t.Errorf("1371m read as a number: %v", tt.Values[0])
	}
	if _, ok := tt.Values[1]["COMMAND"]; ok {
		t.Errorf("a command named Inf read as a number: %v", tt.Values[1])
	}

	m, err := ParseTop("top - 10:00:00 up 1 day,  1 user,  load average: 0.10, 0.20, 0.30\n%Cpu(s):  1.0 us,  1.0 sy,  0.0 ni, 98.0 id\nMiB Mem :    974.1 total,    172.7 free,    261.1 used,    540.3 buff/cache\n")
	if err != nil {
		t.Fatal(err)
	}
	if m.MemPrinted["total"] != 974.1 || m.MemPrinted["free"] != 172.7 || m.MemKB["total"] != 997478 {
		t.Errorf("printed %v kB %v", m.MemPrinted, m.MemKB)
	}
}

// slabtop's summary and rows as numbers (procps slabtop.c: "Active / Total Objects (% used)
// : %d / %d (%.1f%%)", rows "%6u %6u %3.0f%% %7.2fK %6u %8u %9uK %-23s").
func TestSlabtopNumbers(t *testing.T) {
	text := ` Active / Total Objects (% used)    : 9824285 / 9902782 (99.2%)
 Active / Total Size (% used)       : 2888893.34K / 2904551.59K (99.5%)

  OBJS ACTIVE  USE OBJ SIZE  SLABS OBJ/SLAB CACHE SIZE NAME
2124486 2124486 100%    0.19K 101166       21    404664K kmalloc-192
1569945 1558847  99%    0.10K  40255       39    161020K buffer_head
`
	tl := ParseString(text, "paste", Options{})
	st := one(t, tl, KindSlabtop).(*Slabtop)
	if v := st.SummaryValues["Active / Total Size (% used)"]; len(v) != 3 || v[0] != 2888893.34 || v[2] != 99.5 {
		t.Errorf("summary %v", st.SummaryValues)
	}
	want := SlabtopRow{Objs: 1569945, Active: 1558847, UsePct: 99, ObjSizeK: 0.10, Slabs: 40255, ObjPerSlab: 39, CacheSizeK: 161020, Name: "buffer_head"}
	if len(st.Rows) != 2 || st.Rows[1] != want {
		t.Errorf("rows %+v", st.Rows)
	}
}

// free -m keeps its numbers as printed beside the kB rows; 2.4's /proc/meminfo table
// (fs/proc/proc_misc.c: "        total:    used:    free:  shared: buffers:  cached:", bytes)
// reads as a free table in bytes.
func TestFreePrinted(t *testing.T) {
	tl := ParseString("$ free -m\n             total       used       free     shared    buffers     cached\nMem:          3953       3661        291          0        435        874\n-/+ buffers/cache:       2351       1602\nSwap:         4093        505       3588\n", "paste", Options{})
	tb := one(t, tl, KindFree).(*FreeTable)
	if p := tb.Printed["Mem"]; len(p) != 6 || p[4] != 435 || tb.Rows["Mem"][4] != 435*1024 {
		t.Errorf("printed %v rows %v", tb.Printed, tb.Rows)
	}
	if p := tb.Printed["-/+ buffers/cache"]; len(p) != 2 || p[1] != 1602 {
		t.Errorf("printed %v", tb.Printed)
	}

	tl = ParseString("        total:    used:    free:  shared: buffers:  cached:\nMem:  6341193728 6131351552 209842176        0 29294592 5348958208\nSwap: 12582862848 5425111040 7157751808\nMemTotal:      6192572 kB\n", "paste", Options{})
	tb = one(t, tl, KindFree).(*FreeTable)
	if tb.Unit != "bytes" || tb.Printed["Swap"][1] != 5425111040 || tb.Rows["Mem"][0] != 6341193728/1024 {
		t.Errorf("unit %s printed %v rows %v", tb.Unit, tb.Printed, tb.Rows)
	}
}

// sar rows as numbers by column, in a comma locale and with sar's negative kbswpused
// (sysstat sar -r on 2.4, corpus case 346).
func TestSysstatValues(t *testing.T) {
	text := `16:53:38    kbmemfree   kbavail kbmemused  %memused kbbuffers  kbcached  kbcommit   %commit  kbactive   kbinact   kbdirty
16:53:38      2476012   3150664   1345300     35,21      1372    889064    594740     12,21    663432    448084        44
`
	tl := ParseString(text, "paste", Options{})
	v := one(t, tl, KindSysstat).(*SysstatTable).Values
	if len(v) != 1 || v[0]["%memused"] != 35.21 || v[0]["kbdirty"] != 44 || v[0]["kbmemfree"] != 2476012 {
		t.Errorf("values %v", v)
	}
	if got := cellValues([]string{"a", "b", "c", "d"}, []string{"-10299677", "Inf", "1559m", "281%"}); len(got) != 2 || got["a"] != -10299677 || got["d"] != 281 {
		t.Errorf("cellValues %v", got)
	}
}

// A setting's value as integers: sysctl -a's tab-separated vectors (kernel/sysctl.c
// proc_doulongvec_minmax), a quoted sysctl -w value, a Markdown-bolded line; a word value
// has none.
func TestSettingNumbers(t *testing.T) {
	tl := ParseString("net.ipv4.tcp_mem = 94500000 915000000 927000000\nnet.core.wmem_max = 1048576**\nnet.ipv4.tcp_congestion_control = cubic\n", "paste", Options{})
	st := one(t, tl, KindSysctl).(SysctlBlock).Settings
	if len(st) != 3 || len(st[0].Numbers) != 3 || st[0].Numbers[2] != 927000000 || len(st[1].Numbers) != 1 || st[1].Numbers[0] != 1048576 || st[2].Numbers != nil {
		t.Errorf("settings %+v", st)
	}
	if n := valueNumbers(`"100000000 100000000 100000000"`); len(n) != 3 || n[0] != 100000000 {
		t.Errorf("quoted: %v", n)
	}
}

// A dump whose pr_cont pieces were printed as records of their own (4.19, corpus case 123:
// mm/page_alloc.c show_free_areas prints lowmem_reserve[] and each buddy order with
// printk(KERN_CONT), which that printk turned into stamped lines).
func TestShowMemPrContSplit(t *testing.T) {
	text := `[ 1146.798700] emerge: page allocation failure: order:4, mode:0x6040c0(GFP_KERNEL|__GFP_COMP), nodemask=(null)
[ 1146.798780] DMA32 free:1111400kB min:12968kB low:16208kB high:19448kB present:3172224kB managed:3172224kB
[ 1146.798782] lowmem_reserve[]:
[ 1146.798783]  0
[ 1146.798784]  0
[ 1146.798786]  12746
[ 1146.798787]  12746
[ 1146.798828] DMA32:
[ 1146.798829] 6346*4kB
[ 1146.798831] (UME)
[ 1146.798977] 2650*8kB
[ 1146.798980] (UME)
[ 1146.799293] = 1111512kB
[ 1146.799300] 2950857 total pagecache pages
`
	tl := ParseString(text, "dmesg", Options{})
	a := one(t, tl, KindAllocFailure).(*allocArtifact)
	if len(a.Zones) != 1 {
		t.Fatalf("zones %+v", a.Zones)
	}
	z := a.Zones[0]
	if len(z.LowmemReserve) != 4 || z.LowmemReserve[2] != 12746 {
		t.Errorf("lowmem_reserve %v", z.LowmemReserve)
	}
	if len(z.FreeBlocks) != 2 || z.FreeBlocks[0] != 6346 || z.FreeBlocks[1] != 2650 || len(z.MigrateTypes) != 2 || z.MigrateTypes[1] != "UME" {
		t.Errorf("buddy %v %v", z.FreeBlocks, z.MigrateTypes)
	}
	get(t, z.Fields, "buddy_total_kb", 1111512)
	get(t, a.Totals, "total_pagecache_pages", 2950857)
	if a.UptimeS != 1146.7987 {
		t.Errorf("uptime %v", a.UptimeS)
	}

	// A bare number after a complete lowmem_reserve[] line is not one of its values.
	m := ParseShowMem("Normal free:1000kB min:10kB low:20kB high:30kB present:4096kB\nlowmem_reserve[]: 0 0\n42\n")
	if len(m.Zones) != 1 || len(m.Zones[0].LowmemReserve) != 2 {
		t.Errorf("zones %+v", m.Zones)
	}
}

// "N callbacks suppressed" (lib/ratelimit.c ___ratelimit: "%s: %d callbacks suppressed")
// is kept with the kernel log, by the function that printed it.
func TestLogSuppressed(t *testing.T) {
	tl := ParseString("[ 1470.134845] net_ratelimit: 23807 callbacks suppressed\n[ 1470.134900] nf_conntrack: table full, dropping packet\n", "dmesg", Options{})
	kl := one(t, tl, KindKernelLog).(KernelLogData)
	if kl.Records != 2 || len(kl.Suppressed) != 1 || kl.Suppressed[0].Count != 23807 || kl.Suppressed[0].Function != "net_ratelimit" || kl.Suppressed[0].Line != 1 {
		t.Errorf("kernel log %+v", kl)
	}
}

// /proc/net/dev through "column -t" and followed by the next prompt, which has a colon too
// (corpus case 048): the table ends at the prompt instead of failing on it.
func TestProcNetDevEndsAtPrompt(t *testing.T) {
	text := `root@h:~# cat /proc/net/dev | column -t
Inter-|  Receive     |         Transmit
face     |bytes      packets   errs      drop  fifo  frame  compressed  multicast|bytes  packets     errs      drop  fifo  colls  carrier  compressed
enp6s0:  283475674   1115688   0         630   7144  0      0           2304             179414036   646488    0     0     0      0        0           0
root@h:~# 
`
	tl := ParseString(text, "paste", Options{})
	one(t, tl, KindNetDevFile)
	if len(tl.Unparsed) != 0 {
		t.Fatalf("unparsed %+v", tl.Unparsed)
	}
	if !isNetDevRow("  eth0:1988145274 2050626316") || isNetDevRow("root@h:~# ") || isNetDevRow("Note: see below") {
		t.Error("isNetDevRow")
	}
}

// ifconfig counter lines without their block, from a grep loop (corpus case 048), named by
// the command line before them; net-tools' old layout (lib/interface.c ife_print_long).
func TestIfconfigCounterLines(t *testing.T) {
	text := `root@h:~# for i in ` + "`seq 1 1000`" + `; do ifconfig enp6s0 | grep RX | grep overruns; sleep 1; done
          RX packets:994704 errors:0 dropped:570 overruns:5451 frame:0
          RX packets:995667 errors:0 dropped:570 overruns:5571 frame:0
`
	tl := ParseString(text, "paste", Options{})
	got := one(t, tl, KindIfconfig).(ifaceArtifact).Interfaces
	if len(got) != 2 || got[0].Name != "enp6s0" {
		t.Fatalf("interfaces %+v", got)
	}
	if v, _ := got[1].Counters.Get("rx_fifo_errors"); v != 5571 {
		t.Errorf("overruns %d", v)
	}
	if len(tl.Samples) != 0 {
		t.Errorf("lines without time gave samples: %+v", tl.Samples)
	}
	if isIfconfigCounterLine("RX is the receive side") {
		t.Error("prose read as a counter line")
	}
}

// top's per-CPU lines pasted alone (procps 3.2 after pressing 1, corpus case 212), with an
// elision between them; 2.4's "CPU0 states:" form.
func TestTopPerCPUOnly(t *testing.T) {
	text := "# top\nCpu0 : 15.3%us, 0.3%sy, 0.0%ni, 84.4%id, 0.0%wa, 0.0%hi, 0.0%si, 0.0%st\nCpu1 : 16.6%us, 2.0%sy, 0.0%ni, 47.1%id, 3.3%wa, 0.0%hi, 31.0%si, 0.0%st\n.....\nCpu15 : 10.3%us, 8.0%sy, 0.0%ni, 78.7%id, 1.7%wa, 0.3%hi, 1.0%si, 0.0%st\n"
	tl := ParseString(text, "paste", Options{})
	v := one(t, tl, KindTop).(*TopSummary).PerCPUValues
	if len(v) != 3 || v[1]["si"] != 31 || v[2]["cpu"] != 15 || v[2]["id"] != 78.7 {
		t.Errorf("per-CPU %v", v)
	}
	if m := perCPUValues("CPU1 states: 99.3% user,  0.2% system,  0.0% nice,  0.0% idle"); m["cpu"] != 1 || m["us"] != 99.3 || m["sy"] != 0.2 {
		t.Errorf("2.4 line %v", m)
	}
}

// A 2.6.10 dump that syslogd wrote without the "kernel:" tag (corpus case 137): "DMA:" and
// "Active:" are show_mem lines, not program tags; the 2.6 kill line names the victim.
func TestShowMemWithoutKernelTag(t *testing.T) {
	text := `Oct 29 15:25:19 sleepy oom-killer: gfp_mask=0xd0
Oct 29 15:25:19 sleepy Free pages:         244kB (0kB HighMem)
Oct 29 15:25:19 sleepy Active:12269 inactive:596 dirty:0 writeback:0 unstable:0 free:61 slab:1117 mapped:12368 pagetables:140
Oct 29 15:25:19 sleepy DMA free:60kB min:60kB low:120kB high:180kB active:12304kB inactive:0kB present:16384kB pages_scanned:15252 all_unreclaimable? yes
Oct 29 15:25:19 sleepy DMA: 4294567735*4kB 4294792863*8kB = 4289685332kB
Oct 29 15:25:19 sleepy Out of Memory: Killed process 12157 (ld).
`
	ls := SplitLines(text)
	if ls[2].Tag != "" || ls[2].Text[:7] != "Active:" || ls[4].Tag != "" {
		t.Errorf("show_mem lines read as tagged: %+v / %+v", ls[2], ls[4])
	}
	tl := ParseString(text, "syslog", Options{})
	o := one(t, tl, KindOOMKill).(*oomArtifact)
	get(t, o.MemInfo, "Active", 12269)
	get(t, o.MemInfo, "pagetables", 140)
	get(t, o.Totals, "free_pages_kb", 244)
	if len(o.Zones) != 1 || len(o.Zones[0].FreeBlocks) != 2 || o.Zones[0].FreeBlocks[0] != 4294567735 {
		t.Errorf("zones %+v", o.Zones)
	}
	if o.KilledPID != 12157 || o.Mode != "0xd0" {
		t.Errorf("victim %d mode %s", o.KilledPID, o.Mode)
	}
	if k := SplitLines("Out of Memory: Killed process 9308 (l804.exe).\n"); len(k) != 1 {
		t.Fatal(k)
	}
	if o, _, ok := parseOOMHeader("Out of Memory: Killed process 9308 (l804.exe)."); !ok || o.KilledPID != 9308 || o.KilledComm != "l804.exe" {
		t.Errorf("kill line as header: %+v", o)
	}
	if prog := SplitLines("Oct 29 15:25:19 sleepy Normal: program says hi\n")[0]; prog.Tag != "Normal" {
		t.Errorf("a program's line with a zone-like tag: %+v", prog)
	}
}

// rsyslog's #012 at the end of a hard-wrapped piece (corpus case 046) is no blank line, so
// the Mem-Info block goes on; the per-node line reads "anon_thp: 1681408kB" with its space.
func TestRsyslogEscapedMemInfo(t *testing.T) {
	text := `Sep  8 16:40:44 knalp3 kernel: chrome: page allocation failure: order:7, mode:0x40a20(GFP_ATOMIC|__GFP_COMP), nodemask=(null)
Sep  8 16:40:44 knalp3 kernel: Mem-Info:
Sep  8 16:40:44 knalp3 kernel: active_anon:5244 inactive_anon:1494070 isolated_anon:0#012 unevictable:639 dirty:948 writeback:0#012 
slab_reclaimable:74606 slab_unreclaimable:245109#012 mapped:347626
Sep  8 16:40:44 knalp3 kernel: Node 0 active_anon:20976kB shmem_thp: 0kB anon_thp: 1681408kB pages_scanned:168352 all_unreclaimable? no
Sep  8 16:40:44 knalp3 kernel: Normal free:262612kB min:64544kB low:94388kB high:124232kB present:30379008kB
`
	tl := ParseString(text, "syslog", Options{})
	a := one(t, tl, KindAllocFailure).(*allocArtifact)
	get(t, a.MemInfo, "slab_reclaimable", 74606)
	get(t, a.MemInfo, "mapped", 347626)
	if len(a.Nodes) != 1 {
		t.Fatalf("nodes %+v", a.Nodes)
	}
	get(t, a.Nodes[0].Fields, "anon_thp_kb", 1681408)
	get(t, a.Nodes[0].Fields, "shmem_thp_kb", 0)
	get(t, a.Nodes[0].Fields, "pages_scanned", 168352)
	if a.Nodes[0].AllUnreclaimable == nil || *a.Nodes[0].AllUnreclaimable {
		t.Errorf("all_unreclaimable %v", a.Nodes[0].AllUnreclaimable)
	}
}

// conntrack -S, one line a CPU (conntrack-tools src/conntrack.c; the kernel's
// CTA_STATS_* counters), and a line that is not one.
func TestConntrackStats(t *testing.T) {
	text := "$ conntrack -S\ncpu=0   \tfound=770 invalid=3856 ignore=42570125 insert=0 insert_failed=0 drop=0 early_drop=0 error=0 search_restart=746284\ncpu=3   \tfound=25706 invalid=70168 ignore=242616824 insert=0 insert_failed=0 drop=0 early_drop=0 error=18 search_restart=2320376\n"
	tl := ParseString(text, "paste", Options{})
	c := one(t, tl, KindConntrackS).(*ConntrackStats).CPUs
	if len(c) != 2 || c[1]["cpu"] != 3 || c[1]["error"] != 18 || c[0]["search_restart"] != 746284 {
		t.Errorf("cpus %v", c)
	}
	if _, ok := conntrackStatLine("cpu=0 found=x"); ok {
		t.Error("a value that is not a number was read")
	}
}

// ss -temoi wrapped at 72 columns (corpus case 239): the detail lines that the wrap moved to
// column 0 still belong to the socket above, and every key:number word is kept
// (iproute2 misc/ss.c tcp_show_info).
func TestSSWrappedDetails(t *testing.T) {
	text := `State       Recv-Q Send-Q Local Address:Port                 Peer Address:Port
ESTAB       0      0      192.0.0.2:42278                223.62.236.10:5215
     ino:129232 sk:3218 fwmark:0xc0078 <->
          skmem:(r0,rb8388608,t0,tb8388608,f0,w0,o0,bl0,d1) ts sack 
cubic wscale:7,6 rto:236 rtt:34.249/16.545 ato:40 mss:1320 rcvmss:1320 
bytes_received:211495680 segs_out:46198 segs_in:160290 data_segs_out:1 
delivery_rate 452.4Kbps app_limited busy:24ms rcv_rtt:26.542 
rcv_space:3058440 minrtt:23.34
`
	tl := ParseString(text, "paste", Options{})
	tb := one(t, tl, KindSockets).(*SocketTable)
	if len(tb.Sockets) != 1 || len(tb.Details) != 1 {
		t.Fatalf("sockets %d details %v", len(tb.Sockets), tb.Details)
	}
	d := tb.Details[0]
	for k, want := range map[string]float64{"ino": 129232, "skmem_rb": 8388608, "rtt": 34.249, "rtt_var": 16.545, "mss": 1320,
		"bytes_received": 211495680, "busy": 24, "rcv_space": 3058440, "minrtt": 23.34} {
		if d[k] != want {
			t.Errorf("%s = %v, want %v", k, d[k], want)
		}
	}
	if in := tb.Sockets[0].Info; in == nil || in.RcvSpace != 3058440 || in.BytesReceived != 211495680 {
		t.Errorf("tcp_info %+v", in)
	}
}

// opreport -l (oprofile pp/opreport.cpp: samples, percent, symbol), corpus case 342.
func TestOpreport(t *testing.T) {
	tl := ParseString("Oprofile shows time being spent:\n\nsamples  %        symbol name\n303102   42.4732  zap_pte_range\n133702   18.7355  _spin_lock\n61145     8.5682  __bitmap_weight\n\nthat is all\n", "paste", Options{})
	p := one(t, tl, KindOpreport).(*model.Profile)
	if len(p.Rows) != 3 || p.Rows[0].Symbol != "zap_pte_range" || p.Rows[0].Ticks != 303102 || p.Rows[1].SharePc != 18.7355 {
		t.Errorf("rows %+v", p.Rows)
	}
	if len(tl.Profiles) != 1 {
		t.Errorf("%d profiles in the timeline", len(tl.Profiles))
	}
}

// A SLUB cache line wrapped after "default" (corpus case 121, mm/slub.c slab_out_of_memory:
// "  cache: %s, object size: %u, buffer size: %u, default order: %u, min order: %u"): the
// tail is joined and the node lines after it still belong to the report.
func TestSlabCacheLineWrapped(t *testing.T) {
	text := " SLUB: Unable to allocate memory on node -1, gfp=0xa20(GFP_ATOMIC)\n   cache: skbuff_head_cache, object size: 208, buffer size: 640, default\norder: 0, min order: 0\n   node 0: slabs: 697, objs: 4182, free: 0\n"
	tl := ParseString(text, "paste", Options{})
	s := one(t, tl, KindSlabFailure).(*slabArtifact)
	if s.Cache != "skbuff_head_cache" || s.BufferSize != 640 || len(s.SlabNodes) != 1 || s.SlabNodes[0].Objs != 4182 {
		t.Errorf("slab %+v nodes %+v", s.SlabFailure, s.SlabNodes)
	}
}

// Small formats of the -misses list: procps 3.2's vmstat -s "pages paged in" (vmstat.c
// sum_format; pgpgin, kB), a wrapped ip link header's "qlen 1000", 2.4 top's Mem and Swap
// lines whose last label a terminal or a quoted-printable soft break moved to the next line.
func TestSmallFormats(t *testing.T) {
	tl := ParseString("            0 stolen cpu ticks\n      1088044 pages paged in\n        49634 pages paged out\n            0 pages swapped in\n", "paste", Options{})
	if all := one(t, tl, KindVMStatS).(map[string]int64); all["pages paged in"] != 1088044 {
		t.Errorf("vmstat -s %v", all)
	}
	if len(tl.Samples) != 1 || tl.Samples[0].VMStat == nil {
		t.Fatalf("samples %+v", tl.Samples)
	} else if v, _ := tl.Samples[0].VMStat.Get("pgpgout"); v != 49634 {
		t.Errorf("pgpgout %d", v)
	}

	tl = ParseString("2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq\n    state UP qlen 1000\n    link/ether 00:16:3e:00:00:01 brd ff:ff:ff:ff:ff:ff\n", "paste", Options{})
	if ifs := one(t, tl, KindIPLink).(ifaceArtifact).Interfaces; len(ifs) != 1 || ifs[0].TxQueueLen != 1000 || ifs[0].MTU != 1500 {
		t.Errorf("ip link %+v", ifs)
	}

	ts, err := ParseTop("CPU states: 36.9% user, 19.0% system,  0.0% nice, 44.0% idle\nMem:   509320K av,  508272K used,    1048K free,   28172K shrd,      76K bu=\nff\nSwap:  131064K av,  107388K used,   23676K free                    7048K ca=\nched\n")
	if err != nil {
		t.Fatal(err)
	}
	if ts.MemKB["buff"] != 76 || ts.SwapKB["cached"] != 7048 || ts.SwapKB["free"] != 23676 {
		t.Errorf("mem %v swap %v", ts.MemKB, ts.SwapKB)
	}
}

// Messages that state a size or a limit keep their numbers with the kernel log.
func TestLogNumbers(t *testing.T) {
	tl := ParseString("[   12.698805] nf_conntrack version 0.5.0 (16384 buckets, 65536 max)\n[    4.879899] vmap allocation for size 20480 failed: use vmalloc=<size> to increase size\n[    4.880643] insmod: vmalloc error: size 16384, vm_struct allocation failed, mode:0xcc0(GFP_KERNEL)\n", "dmesg", Options{})
	kl := one(t, tl, KindKernelLog).(KernelLogData)
	if len(kl.Numbers) != 3 || kl.Numbers[0].Values["max"] != 65536 || kl.Numbers[0].Values["buckets"] != 16384 ||
		kl.Numbers[1].Values["size"] != 20480 || kl.Numbers[2].Values["size"] != 16384 || kl.Numbers[2].Line != 3 {
		t.Errorf("numbers %+v", kl.Numbers)
	}
	if _, ok := logNumbers(1, "nf_conntrack version 0.5.0", false); ok {
		t.Error("a version line without its table read as one")
	}
}

// /proc/zoneinfo with an elision between the zone line and its block (corpus case 351), and
// a block pasted without its zone line (case 316), which is kept but gives no sample.
func TestZoneInfoElisionAndHeaderless(t *testing.T) {
	tl := ParseString("Node 3, zone      DMA\n[...]\n  pages free     2951\n        min      2821\n        low      3526\n        high     4231\n", "paste", Options{})
	zs := one(t, tl, KindZoneInfo).([]kernel.Zone)
	if len(zs) != 1 || zs[0].Node != 3 || zs[0].Name != "DMA" {
		t.Fatalf("zones %+v", zs)
	}
	get(t, &zs[0].Fields, "low", 3526)

	tl = ParseString("```\n  pages free     7226981\n        min      10136\n        low      17540\n        high     24944\n        managed  7404622\n```\n", "paste", Options{})
	nh := one(t, tl, KindZoneInfo).(ZoneInfoNoHeader)
	get(t, &nh.Zone.Fields, "managed", 7404622)
	if nh.Zone.Name != "" || nh.Zone.Node != -1 || len(tl.Samples) != 0 {
		t.Errorf("headerless zone %+v, samples %d", nh.Zone, len(tl.Samples))
	}
}

// uptime(1)'s line alone (procps w.c, with seconds in the clock) and Android's "Load:" line
// give the load averages.
func TestUptimeAndAndroidLoad(t *testing.T) {
	for text, want := range map[string]float64{
		" 23:51:26 up 21:31,  1 user,  load average: 30.02, 26.43, 19.02\n": 19.02,
		"Load: 56.48 / 30.74 / 22.68\n":                                     22.68,
	} {
		tl := ParseString(text, "paste", Options{})
		ts := one(t, tl, KindTop).(*TopSummary)
		if len(ts.Load) != 3 || ts.Load[2] != want {
			t.Errorf("%q: load %v", text, ts.Load)
		}
		if len(tl.Samples) != 1 || tl.Samples[0].LoadAvg == nil || tl.Samples[0].LoadAvg.Load15 != want {
			t.Errorf("%q: samples %+v", text, tl.Samples)
		}
	}
}

// /proc/slabinfo, whole (version line, header) or grep'd to one row (mm/slab_common.c).
func TestSlabinfo(t *testing.T) {
	text := "slabinfo - version: 2.1\n# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\ndentry            2369308 2369325    192   21    1 : tunables    0    0    0 : slabdata 112825 112825      0\nkmalloc-1024        33418  33418   1024   32    8 : tunables    0    0    0 : slabdata   1045   1045      0\n"
	rows := one(t, ParseString(text, "paste", Options{}), KindSlabinfo).([]SlabinfoRow)
	want := SlabinfoRow{Name: "kmalloc-1024", ActiveObjs: 33418, NumObjs: 33418, ObjSize: 1024, ObjPerSlab: 32, PagesPerSlab: 8, ActiveSlabs: 1045, NumSlabs: 1045}
	if len(rows) != 2 || rows[1] != want || rows[0].NumSlabs != 112825 {
		t.Errorf("rows %+v", rows)
	}
	grepd := one(t, ParseString("$ grep ^dentry /proc/slabinfo\ndentry            2369308 2369325    192   21    1 : tunables    0    0    0 : slabdata 112825 112825      0\n", "paste", Options{}), KindSlabinfo).([]SlabinfoRow)
	if len(grepd) != 1 || grepd[0].ObjSize != 192 {
		t.Errorf("grep'd row %+v", grepd)
	}
	if _, ok := slabinfoRow("dentry 1 2 3 : tunables 0 0 0 : slabdata 1 1 0"); ok {
		t.Error("a row with too few columns was read")
	}
}

// systemd-sysctl's "Couldn't write" (src/sysctl/sysctl.c): the setting is an artifact
// marked not applied, and no setting of the timeline.
func TestSysctlNotApplied(t *testing.T) {
	text := "Sep 10 08:05:58 h systemd-sysctl[259]: Couldn't write '131072' to 'net/netfilter/nf_conntrack_buckets', ignoring: No such file or directory\nSep 10 08:05:58 h systemd-sysctl[259]: Applied settings\n"
	tl := ParseString(text, "syslog", Options{})
	sd := one(t, tl, KindSetting).(SettingData)
	if sd.Key != "net.netfilter.nf_conntrack_buckets" || sd.Form != "not-applied" || len(sd.Numbers) != 1 || sd.Numbers[0] != 131072 {
		t.Errorf("setting %+v", sd)
	}
	if len(tl.Settings) != 0 {
		t.Errorf("a value the host does not run became a setting: %+v", tl.Settings)
	}
}

// 6.11+ kernels print the task's UID between CPU and PID on the task line (lib/dump_stack.c
// dump_stack_print_info: "CPU: %d UID: %u PID: %d Comm: %.20s ..."); corpus 414, a 7.1
// kernel. The line must still be read as the task line, so that the report goes on through
// the trace instead of ending at its header.
func TestAllocFailureTaskLineWithUID(t *testing.T) {
	text := `[   74.189371] mprime: page allocation failure: order:0, mode:0xc0de0(GFP_KERNEL|__GFP_HIGH|__GFP_ZERO|__GFP_COMP|__GFP_NOMEMALLOC), nodemask=(null),cpuset=user.slice,mems_allowed=0
[   74.189377] CPU: 3 UID: 1000 PID: 4108 Comm: mprime Not tainted 7.1.5-273-linux-tkg #1 PREEMPT  b7db3962554a1b94e3b65d4260a837a7cb0857ac
[   74.189380] Hardware name: SOYO SY-Eternal B850 ITX/SY-Eternal B850 ITX, BIOS SM5IB004 12/15/2025
[   74.189380] Call Trace:
[   74.189382]  <TASK>
[   74.189383]  dump_stack_lvl+0x5e/0x90
[   74.189386]  warn_alloc+0x131/0x1d0
[   74.189389]  __alloc_pages_slowpath+0x11f9/0x1270
[   74.189391]  isolate_lock_cluster+0x13d/0x200
`
	tl := ParseString(text, "dmesg", Options{})
	a := one(t, tl, KindAllocFailure).(*allocArtifact)
	if a.Task == nil || a.Task.PID != 4108 || a.Task.CPU == nil || *a.Task.CPU != 3 || a.Task.Comm != "mprime" {
		t.Errorf("task line: %+v", a.Task)
	}
	if len(a.CallTrace) == 0 || a.CallTrace[len(a.CallTrace)-1] != "isolate_lock_cluster" {
		t.Errorf("call trace %v, want it to end at isolate_lock_cluster", a.CallTrace)
	}
}

// suppressedLine's one-pass reading of the usual line (suppressedUsual) says what the general
// reading says, on the shapes around it: every line below, and each with a byte changed,
// cut or added where the fast reading decides (its first byte, the digits, the ": " before
// them, the function's start, the suffix).
func TestSuppressedUsualIsGeneral(t *testing.T) {
	base := []string{
		"net_ratelimit: 23807 callbacks suppressed",
		"warn_alloc: 1 callbacks suppressed",
		"[ 12.5] warn_alloc_failed: 80 callbacks suppressed",
		"sd 1:0:0:0: [sda] x]y: 9 callbacks suppressed",
		"a: 123456789012345678 callbacks suppressed",
		"a: 1234567890123456789 callbacks suppressed",
		"a: 99999999999999999999 callbacks suppressed",
		": 5 callbacks suppressed",
		"x:  5 callbacks suppressed",
		"x:5 callbacks suppressed",
		"x 5 callbacks suppressed",
		" x: 5 callbacks suppressed",
		"\tx: 5 callbacks suppressed",
		"é: 5 callbacks suppressed",
		"x\xa0y: 5 callbacks suppressed",
		"5 callbacks suppressed",
		" callbacks suppressed",
		"x: +5 callbacks suppressed",
		"x: 5 callbacks suppressed ",
		"x: 5x callbacks suppressed",
	}
	bytesAt := []byte{' ', ':', ']', '5', '0', '+', '-', 'x', '\t', 0x85, 0xc2, 0xa0}
	var cases []string
	for _, b := range base {
		cases = append(cases, b)
		for i := range len(b) + 1 {
			for _, c := range bytesAt {
				cases = append(cases, b[:i]+string(c)+b[i:]) // added
				if i < len(b) {
					cases = append(cases, b[:i]+string(c)+b[i+1:]) // changed
				}
			}
			cases = append(cases, b[:i]+b[min(i+1, len(b)):]) // cut
		}
	}
	fast := 0
	for _, c := range cases {
		want, wok := suppressedLineGeneral(7, c)
		got, gok := suppressedLine(7, c)
		if got != want || gok != wok {
			t.Errorf("%q: %+v %v, general %+v %v", c, got, gok, want, wok)
		}
		if _, ok := suppressedUsual(7, c); ok {
			fast++
		}
	}
	if fast < len(cases)/10 {
		t.Errorf("the one-pass reading took %d of %d lines", fast, len(cases))
	}
}

// fix60c: warn_alloc's vmalloc failure of 4.12–5.12 keeps the size it asked for (and, in the
// second form, what it got); a line that only names vmalloc, or names a page allocation
// failure, keeps none.
func TestLogNumbersVmallocFailure(t *testing.T) {
	tl := ParseString("[857968.790997] tracebox: vmalloc: allocation failure: 32768 bytes, mode:0xcc0(GFP_KERNEL), nodemask=(null),cpuset=/,mems_allowed=0\n"+
		"[  310.112233] modprobe: vmalloc: allocation failure, allocated 12288 of 20480 bytes, mode:0x24000c2(GFP_KERNEL|__GFP_HIGHMEM)\n", "dmesg", Options{})
	kl := one(t, tl, KindKernelLog).(KernelLogData)
	if len(kl.Numbers) != 2 || kl.Numbers[0].Values["size"] != 32768 || kl.Numbers[1].Values["size"] != 20480 || kl.Numbers[1].Values["allocated"] != 12288 {
		t.Errorf("numbers %+v", kl.Numbers)
	}
	for _, line := range []string{
		"vmalloc: allocation failure",                              // no size
		"ip: vmalloc: allocation failure: lots of bytes",           // no number
		"swapper/0: page allocation failure: order:4, mode:0x4020", // the page allocator's
		"vmalloc allocation failure in module load",                // prose
	} {
		if ln, ok := logNumbers(1, line, strings.Contains(line, vmallocFailure)); ok {
			t.Errorf("%q read as %+v", line, ln)
		}
	}
}
