package diagnose

import (
	"strconv"
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
	"headroom/plan"
)

var allocClasses = []string{classReserve, classFragmented, classLowmem, classZoneRestricted, classCMA, classNotPhysical, classHighOrderAtomic}

// onlyFires runs every alloc-fail rule and checks that exactly want fired.
func onlyFires(t *testing.T, tl *model.Timeline, want string, sev Severity) Finding {
	t.Helper()
	var f Finding
	for _, id := range allocClasses {
		res := run(t, id, tl)
		if id == want {
			f = mustFire(t, res, sev)
			continue
		}
		if len(res.Findings) > 0 {
			t.Errorf("%s fired too: %s", id, res.Findings[0].Title)
		}
	}
	return f
}

// Seed 004: order-0 GFP_ATOMIC failures on a 2.6.13 32-bit host whose lowmem zones sit at the
// atomic floor while 8 GB of HighMem is out of reach. The second report has no dump of its
// own and borrows the first's.
func TestAllocFailLowmemSeed004(t *testing.T) {
	tl := memTextTimeline()
	tl.Events = []model.Event{
		memAllocEvent(40, "java", 0, "0x20", []string{"__GFP_HIGH"}, memBool(true), "2.6.13-2smp", memSeed004Zones()),
		memAllocEvent(70, "swapper", 0, "0x20", []string{"__GFP_HIGH"}, memBool(true), "2.6.13-2smp", nil),
	}
	tl.Events[0].AllocFailure.ModeValue, tl.Events[1].AllocFailure.ModeValue = 0x20, 0x20
	tl.Settings = []model.SettingMention{{Key: "vm.min_free_kbytes", Value: "65536", Form: "prose", Line: 300}}
	f := onlyFires(t, tl, classLowmem, Critical)
	// Normal: min 32768 kB = 8192 pages; GFP_ATOMIC floor 8192/2 = 4096, −1/4 = 3072 pages =
	// 12288 kB; free 12248 kB is below it. DMA: min 1170 pages → 439 + lowmem_reserve 880 =
	// 1319 pages = 5276 kB, exactly its free: the allocation's own check failed in both.
	if !evidenceHas(f, "zone Normal", "free 12248 kB, min 32768 kB") || !evidenceHas(f, "zone Normal", "floor 12288 kB") {
		t.Errorf("Normal evidence: %+v", f.Evidence)
	}
	if !evidenceHas(f, "zone DMA", "lowmem_reserve against Normal 880 pages") || !evidenceHas(f, "zone DMA", "floor 5276 kB") {
		t.Errorf("DMA evidence: %+v", f.Evidence)
	}
	if !evidenceHas(f, "zone HighMem", "present 8257536 kB") {
		t.Errorf("HighMem evidence: %+v", f.Evidence)
	}
	if !evidenceHas(f, "page allocation failures", "2 (java ×1, swapper ×1)") {
		t.Errorf("reports evidence: %+v", f.Evidence)
	}
	if c, ok := changeFor(f, "kernel"); !ok || c.Recommended != "a 64-bit kernel" {
		t.Errorf("changes: %+v", f.Changes)
	}
	if _, ok := changeFor(f, "net.ipv4.tcp_mem"); !ok {
		t.Errorf("no tcp_mem change: %+v", f.Changes)
	}
	c, ok := changeFor(f, "vm.min_free_kbytes")
	if !ok {
		t.Fatalf("no min_free_kbytes change: %+v", f.Changes)
	}
	// The current value is inferred from the dump (DMA min + Normal min), and plan cannot
	// compute without the NIC speed: the change says what is missing and cites the text.
	if c.Current != "37448" || c.Kind != model.ChangeOther || !strings.Contains(c.Recommended, "NIC speed") || !strings.Contains(c.Why, "65536 (prose, line 300") {
		t.Errorf("min_free change: %+v", c)
	}
}

func TestAllocFailReserve64(t *testing.T) {
	tl := memTextTimeline()
	memHost64(tl, "6.1.0")
	tl.Host.Sysctls["vm.min_free_kbytes"] = "16384"
	tl.Host.Sysctls["vm.watermark_scale_factor"] = "10"
	zones := []model.ZoneReport{
		memZone("DMA", 15872, 132, 15992, []int64{0, 2966, 15946, 15946, 15946}, []int64{0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 3}),
		memZone("DMA32", 36000, 48000, 3129216, []int64{0, 0, 12980, 12980, 12980}, []int64{10, 5, 3, 1, 0, 0, 0, 0, 0, 0, 0}),
		memZone("Normal", 40000, 52000, 13631488, []int64{0, 0, 0, 0, 0}, []int64{12, 7, 2, 0, 0, 0, 0, 0, 0, 0, 0}),
	}
	tl.Events = []model.Event{memAllocEvent(3, "ksoftirqd/3", 0, "0x480020(GFP_ATOMIC)", []string{"GFP_ATOMIC"}, memBool(true), "", zones,
		"dump_stack", "warn_alloc", "__alloc_pages_slowpath", "__alloc_pages_nodemask", "ixgbe_alloc_rx_buffers [ixgbe]", "ixgbe_poll [ixgbe]")}
	f := onlyFires(t, tl, classReserve, Critical)
	in, missing := memPlanInput(tl)
	if len(missing) > 0 {
		t.Fatalf("plan input incomplete: %v", missing)
	}
	want, _ := plan.MinFreeKBytes(in)
	c, ok := changeFor(f, "vm.min_free_kbytes")
	if !ok || c.Kind != model.ChangeSysctl || c.Recommended != strconv.FormatInt(want, 10) || c.Current != "16384" {
		t.Errorf("min_free change %+v, want %d", c, want)
	}
	if want <= 16384 {
		t.Errorf("plan wants %d kB for 10 Gbit/s, not above the current 16384", want)
	}
	if _, ok := changeFor(f, "vm.watermark_scale_factor"); !ok {
		t.Errorf("no watermark_scale_factor change on 6.1: %+v", f.Changes)
	}
	if !evidenceHas(f, "zone DMA32", "lowmem_reserve against Normal 12980 pages") {
		t.Errorf("DMA32 reserve evidence: %+v", f.Evidence)
	}
}

func TestAllocFailFragmented(t *testing.T) {
	tl := memTextTimeline()
	memHost64(tl, "5.15.0")
	tl.Host.NICs[0].MTU = 9000
	tl.Host.Sysctls["vm.watermark_boost_factor"] = "0"
	tl.Host.Sysctls["vm.min_free_kbytes"] = "90112"
	zones := []model.ZoneReport{
		memZone("DMA32", 300000, 20000, 3129216, []int64{0, 0, 12980, 12980, 12980}, []int64{40000, 17500, 0, 0, 0, 0, 0, 0, 0, 0, 0}),
		memZone("Normal", 400000, 50000, 13631488, []int64{0, 0, 0, 0, 0}, []int64{50000, 25000, 0, 0, 0, 0, 0, 0, 0, 0, 0}),
	}
	tl.Events = []model.Event{memAllocEvent(9, "swapper/0", 2, "0x4020(GFP_ATOMIC|__GFP_COMP)", []string{"GFP_ATOMIC", "__GFP_COMP"}, memBool(true), "", zones,
		"warn_alloc", "__alloc_pages", "__kmalloc_large_node", "__netdev_alloc_skb", "ixgbe_alloc_rx_buffers [ixgbe]")}
	f := onlyFires(t, tl, classFragmented, Critical)
	if !evidenceHas(f, "zone Normal", "no free block of order 2 or larger") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	if !strings.Contains(f.Explanation, "eth0's MTU 9000 needs 16384-byte whole-frame receive buffers") {
		t.Errorf("explanation does not say why order 2: %s", f.Explanation)
	}
	if c, ok := changeFor(f, "vm.watermark_boost_factor"); !ok || c.Recommended != "15000" || c.Current != "0" {
		t.Errorf("boost change: %+v", f.Changes)
	}
	if c, ok := changeFor(f, "eth0 mtu"); !ok || c.Current != "9000" {
		t.Errorf("mtu change: %+v", f.Changes)
	}
	if _, ok := changeFor(f, "vm.min_free_kbytes"); !ok {
		t.Errorf("no min_free_kbytes change: %+v", f.Changes)
	}
}

// Seed 000: order-2 atomic failures on 2.6.30 with no dump; the text says min_free_kbytes
// was "something like 2000" (under the misspelt key vm.min_kbytes_free).
func TestAllocFailFragmentedNoDumpSeed000(t *testing.T) {
	tl := memTextTimeline()
	tl.Host.Kernel = "2.6.30-1"
	tl.Events = []model.Event{memAllocEvent(5, "afpd", 2, "0x20", []string{"__GFP_HIGH"}, memBool(true), "2.6.30-1", nil, "mv643xx_eth_poll", "rxq_refill")}
	tl.Events[0].AllocFailure.Count = 12
	tl.Settings = []model.SettingMention{
		{Key: "vm.min_kbytes_free", Value: "2000", Form: "prose", Line: 9},
		{Key: "vm.min_kbytes_free", Value: "20248", Form: "sysctl-w", Line: 11},
	}
	f := onlyFires(t, tl, classFragmented, Warning) // inferred: no zone dump
	for _, want := range []string{"no zone dump", "none of order 0", "MIGRATE_RESERVE", "receive path"} {
		if !strings.Contains(f.Explanation, want) {
			t.Errorf("explanation lacks %q: %s", want, f.Explanation)
		}
	}
	c, ok := changeFor(f, "vm.min_free_kbytes")
	if !ok || c.Current != "2000 (the text's words)" || c.Kind != model.ChangeOther || !strings.Contains(c.Why, "20248 (sysctl-w") {
		t.Errorf("min_free change: %+v", f.Changes)
	}
	// An order-0 failure in the same log makes it a reserve shortage instead.
	tl.Events = append(tl.Events, memAllocEvent(20, "afpd", 0, "0x20", []string{"__GFP_HIGH"}, memBool(true), "2.6.30-1", nil))
	mustFire(t, run(t, classReserve, tl), Critical)
	if res := run(t, classFragmented, tl); len(res.Findings) > 0 {
		t.Errorf("fragmented still fires with an order-0 failure present")
	}
}

func TestAllocFailFragmentedLegacyCheck(t *testing.T) {
	// 2.6.30: order-2 check after removing orders 0 and 1 (min halved per order). Normal has
	// 4000 pages free, min 500 → atomic 188; after orders 0 (3000) and 1 (450×2) only 100
	// pages remain in larger blocks, not above 188/4 = 47? 100 > 47 passes: make it fail
	// with 3600 + 2×190 = 3980 → 20 pages left ≤ 47.
	tl := memTextTimeline()
	tl.Host.Kernel = "2.6.30-1"
	zones := []model.ZoneReport{memZone("Normal", 16000, 2000, 524288, []int64{0, 0}, []int64{3600, 190, 5, 0, 0, 0, 0, 0, 0, 0, 0})}
	tl.Events = []model.Event{memAllocEvent(5, "afpd", 2, "0x20", []string{"__GFP_HIGH"}, memBool(true), "2.6.30-1", zones)}
	f := onlyFires(t, tl, classFragmented, Critical)
	if !evidenceHas(f, "zone Normal", "pre-4.4 check") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
}

func TestAllocFailZoneRestricted(t *testing.T) {
	tl := memTextTimeline()
	memHost64(tl, "5.10.0")
	zones := []model.ZoneReport{
		memZone("DMA", 120, 160, 15992, []int64{0, 2966, 15946, 15946, 15946}, []int64{0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0}),
		memZone("DMA32", 900000, 48000, 3129216, []int64{0, 0, 12980, 12980, 12980}, []int64{100, 50, 30, 20, 10, 5, 5, 5, 5, 5, 200}),
		memZone("Normal", 4000000, 52000, 13631488, []int64{0, 0, 0, 0, 0}, []int64{100, 50, 30, 20, 10, 5, 5, 5, 5, 5, 900}),
	}
	tl.Events = []model.Event{memAllocEvent(3, "insmod", 0, "0x21(GFP_DMA|__GFP_HIGH)", []string{"GFP_DMA", "__GFP_HIGH"}, memBool(true), "", zones)}
	f := onlyFires(t, tl, classZoneRestricted, Critical)
	if !evidenceHas(f, "zone Normal (node 0), not usable", "free 4000000 kB") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
}

// Corpus case 365: an order-0 GFP_KERNEL|GFP_DMA32 failure (ath10k's DMA ring at boot on
// RISC-V 5.15) with no zone dump. A request that may reclaim is backed by the OOM killer
// unless its highest zone is below ZONE_NORMAL (mm/page_alloc.c __alloc_pages_may_oom), so it
// fails because ZONE_DMA32 ran out: zone-restricted, inferred (warning), not reserve. An atomic
// request of the same zone, or one that may use Normal, stays a reserve shortage.
func TestAllocFailZoneRestrictedNoDump(t *testing.T) {
	tl := memTextTimeline()
	memHost64(tl, "5.15.68")
	tl.Events = []model.Event{memAllocEvent(3, "swapper/0", 0, "0xcc4(GFP_KERNEL|GFP_DMA32)", []string{"GFP_KERNEL", "GFP_DMA32"}, memBool(false), "5.15.68", nil,
		"dma_direct_alloc", "ath10k_ce_alloc_src_ring")}
	f := onlyFires(t, tl, classZoneRestricted, Warning)
	if !strings.HasPrefix(f.Title, "inferred: ") || !strings.Contains(f.Explanation, "__alloc_pages_may_oom") {
		t.Errorf("title %q explanation %s", f.Title, f.Explanation)
	}
	tl.Events = []model.Event{memAllocEvent(3, "swapper/0", 0, "0xa24(GFP_ATOMIC|GFP_DMA32)", []string{"GFP_ATOMIC", "GFP_DMA32"}, memBool(true), "5.15.68", nil)}
	onlyFires(t, tl, classReserve, Critical)
	tl.Events = []model.Event{memAllocEvent(3, "swapper/0", 0, "0xcc0(GFP_KERNEL)", []string{"GFP_KERNEL"}, memBool(false), "5.15.68", nil)}
	onlyFires(t, tl, classReserve, Critical)
}

func TestAllocFailCMA(t *testing.T) {
	tl := memTextTimeline()
	tl.Host.Kernel = "5.4.0"
	tl.Host.Arch = "aarch64"
	z := memZone("Normal", 100000, 20000, 1048576, []int64{0, 0}, []int64{100, 50, 30, 20, 10, 5, 5, 5, 5, 5, 20})
	z.Fields = memCounters("free_cma", 95000)
	tl.Events = []model.Event{memAllocEvent(3, "kworker/0:1", 0, "0xcc0(GFP_KERNEL)", []string{"GFP_KERNEL"}, memBool(false), "", []model.ZoneReport{z})}
	f := onlyFires(t, tl, classCMA, Critical)
	if !evidenceHas(f, "zone Normal", "free_cma 95000 kB") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
}

func TestAllocFailNotPhysical(t *testing.T) {
	tl := memTextTimeline()
	tl.Events = []model.Event{memAllocEvent(3, "modprobe", 11, "0xcc0(GFP_KERNEL)", []string{"GFP_KERNEL"}, memBool(false), "5.10.0", nil)}
	f := onlyFires(t, tl, classNotPhysical, Critical)
	if !strings.Contains(f.Explanation, "above the largest buddy order") {
		t.Errorf("explanation: %s", f.Explanation)
	}
	t.Run("log only", func(t *testing.T) {
		tl := memTextTimeline()
		tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "vmap allocation for size 1052672 failed: use vmalloc=<size> to increase size"}.WithSource("line 2")})
		f := mustFire(t, run(t, classNotPhysical, tl), Warning)
		if !evidenceHas(f, "address-space failures", "vmap allocation") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
}

func TestAllocFailHighOrderAtomic(t *testing.T) {
	tl := memTextTimeline()
	memHost64(tl, "4.15.0")
	tl.Events = []model.Event{memAllocEvent(3, "swapper/2", 4, "0x1080020(GFP_ATOMIC)", []string{"GFP_ATOMIC"}, memBool(true), "", nil,
		"dump_stack+0x63/0x8b", "warn_alloc+0xff/0x1a0", "__alloc_pages_slowpath+0xdc5/0xe20", "__alloc_pages_nodemask+0x26d/0x2b0",
		"alloc_pages_current+0x6a/0xe0", "mlx4_en_alloc_frags+0x4c/0x1b0 [mlx4_en]", "mlx4_en_process_rx_cq+0x5a8/0xd10 [mlx4_en]")}
	f := onlyFires(t, tl, classHighOrderAtomic, Critical)
	if !evidenceHas(f, "caller", "mlx4_en_alloc_frags [mlx4_en]") || !strings.Contains(f.Title, "64 KiB") {
		t.Errorf("title %q evidence %+v", f.Title, f.Evidence)
	}
	if c, ok := changeFor(f, "caller mlx4_en_alloc_frags"); !ok || c.Kind != model.ChangeOther {
		t.Errorf("changes: %+v", f.Changes)
	}
}

func TestAllocFailUndecidedAtomic(t *testing.T) {
	tl := memTextTimeline()
	tl.Events = []model.Event{memAllocEvent(3, "java", 0, "0x20", nil, nil, "", nil)}
	tl.Events[0].AllocFailure.GFPCandidates = []kernel.GFPCandidate{{Kernels: "2.6.0-4.3", Flags: []string{"__GFP_HIGH"}}, {Kernels: "4.4-4.9", Flags: []string{"__GFP_HIGH"}}}
	// No zone dump, but an order-0 failure proves the reserve: not merely inferred.
	f := onlyFires(t, tl, classReserve, Critical)
	if strings.HasPrefix(f.Title, "inferred: ") {
		t.Errorf("an order-0 failure's reserve shortage marked inferred: %q", f.Title)
	}
	if !strings.Contains(f.Explanation, "undecidable") || !evidenceHas(f, "GFP mode", "era unknown") {
		t.Errorf("uncertainty not stated: %s %+v", f.Explanation, f.Evidence)
	}
}

func TestAllocFailHealthyAndNotChecked(t *testing.T) {
	for _, id := range allocClasses {
		t.Run(id, func(t *testing.T) {
			tl := memTextTimeline()
			tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "e1000e 0000:00:19.0 eth0: NIC Link is Up 1000 Mbps Full Duplex"}.WithSource("line 1")})
			mustBeHealthy(t, run(t, id, tl))
			mustNotCheck(t, run(t, id, memTextTimeline()), "kernel log")
			tl.Log.Append(model.LogRecord{Message: "java: page allocation failure. order:0, mode:0x20"}.WithSource("line 2"))
			mustNotCheck(t, run(t, id, tl), "not parsed")
		})
	}
	// A host whose failures are all of another cause reports healthy, naming them.
	tl := memTextTimeline()
	tl.Events = []model.Event{memAllocEvent(3, "modprobe", 12, "0xcc0", []string{"GFP_KERNEL"}, memBool(false), "", nil)}
	res := run(t, classReserve, tl)
	mustBeHealthy(t, res)
	if !strings.Contains(res.Checked, classNotPhysical) {
		t.Errorf("checked: %q", res.Checked)
	}
}

func TestMemCallerOf(t *testing.T) {
	fn, mod := memCallerOf([]string{"[<c0021c7c>] (dump_stack+0x0/0x14)", "__alloc_pages_internal+0x3e0/0x414", "rxq_refill+0x38/0x1a0 [mv643xx_eth]"})
	if fn != "rxq_refill" || mod != "mv643xx_eth" {
		t.Errorf("%q %q", fn, mod)
	}
	if fn, _ := memCallerOf([]string{"dump_stack", "warn_alloc"}); fn != "" {
		t.Errorf("allocator-only trace named %q", fn)
	}
}

// Seed 000's reports carry no zone dump and the host's HighMem is unknown: fragmentation is
// inferred. Whether lowmem or the reserve ran short was not read, so a healthy result of
// those rules must say their cause was excluded by inference, not by a dump.
func TestAllocFailOtherCauseInferredSaysSo(t *testing.T) {
	tl := memTextTimeline()
	tl.Host.Kernel = "2.6.30-1"
	tl.Events = []model.Event{memAllocEvent(5, "afpd", 2, "0x20", []string{"__GFP_HIGH"}, memBool(true), "2.6.30-1", nil, "mv643xx_eth_poll", "rxq_refill")}
	mustBeHealthyNaming(t, run(t, classLowmem, tl), "without a zone dump")
}

// Corpus 122: an order-0 GFP_NOIO failure whose dump kept only the buddy lines (the zone
// lines with the watermarks were elided). DMA32's whole 35848 kB is in CMA pageblocks ("(C)")
// and Normal's 3236 kB mostly highatomic ("(H)"): the request could use almost none of the
// free memory. The buddy lines are read as what they are (free from their blocks, CMA from
// the letters), not as zones with free 0 kB and min 0 kB.
func TestAllocFailCMAFromMigrateLetters(t *testing.T) {
	tl := pasteTimeline(t, `04166 < 4> [   36.172486] [03-19 10:05:52.172] ActivityManager: page allocation failure: order:0, mode:0xc00(GFP_NOIO), nodemask=(null),cpuset=foreground,mems_allowed=0
0419C < 4> [   36.189447] [03-19 10:05:52.189] DMA32: 0*4kB 447*8kB (C) 217*16kB (C) 124*32kB (C) 136*64kB (C) 70*128kB (C) 22*256kB (C) 3*512kB (C) 0*1024kB 0*2048kB 0*4096kB = 35848kB
0419D < 4> [   36.193125] [03-19 10:05:52.193] Normal: 231*4kB (UMEH) 49*8kB (MEH) 14*16kB (H) 13*32kB (H) 8*64kB (H) 2*128kB (H) 0*256kB 1*512kB (H) 0*1024kB 0*2048kB 0*4096kB = 3236kB
`)
	f := onlyFires(t, tl, classCMA, Warning)
	if !strings.HasPrefix(f.Title, "inferred: ") {
		t.Errorf("title %q: without the watermarks the cause is inferred", f.Title)
	}
	if !evidenceHas(f, "zone DMA32", "free 35848 kB (buddy lines; the zone line with the watermarks is not in the input)") || !evidenceHas(f, "zone DMA32", "CMA 35848 kB") {
		t.Errorf("DMA32 evidence: %+v", f.Evidence)
	}
	if !evidenceHas(f, "zone Normal", "free 3236 kB") || !evidenceHas(f, "zone Normal", "highatomic 1920 kB") {
		t.Errorf("Normal evidence: %+v", f.Evidence)
	}
	// The same buddy lines without the letters say nothing of CMA: a reserve shortage (an
	// order-0 request fails only at its floor), never a zone with free 0 kB.
	tl = pasteTimeline(t, `ActivityManager: page allocation failure: order:0, mode:0xc00(GFP_NOIO), nodemask=(null),cpuset=foreground,mems_allowed=0
DMA32: 0*4kB 447*8kB 217*16kB 124*32kB 136*64kB 70*128kB 22*256kB 3*512kB 0*1024kB 0*2048kB 0*4096kB = 35848kB
Normal: 231*4kB 49*8kB 14*16kB 13*32kB 8*64kB 2*128kB 0*256kB 1*512kB 0*1024kB 0*2048kB 0*4096kB = 3236kB
`)
	f = onlyFires(t, tl, classReserve, Critical)
	for _, e := range f.Evidence {
		if strings.Contains(e.Value, "free 0 kB") {
			t.Errorf("a zone without its zone line read as free 0 kB: %+v", e)
		}
	}
}

// Corpus 122 whole: the SLUB failure that follows (ext4_io_end, GFP_ATOMIC) grew an
// unmovable slab, which CMA pageblocks may not serve either: the story's root is the CMA
// shortage, the slab failure its consequence.
func TestAllocFailCMAExplainsSlabFailure(t *testing.T) {
	tl := pasteTimeline(t, `04166 < 4> [   36.172486] [03-19 10:05:52.172] ActivityManager: page allocation failure: order:0, mode:0xc00(GFP_NOIO), nodemask=(null),cpuset=foreground,mems_allowed=0
0419C < 4> [   36.189447] [03-19 10:05:52.189] DMA32: 0*4kB 447*8kB (C) 217*16kB (C) 124*32kB (C) 136*64kB (C) 70*128kB (C) 22*256kB (C) 3*512kB (C) 0*1024kB 0*2048kB 0*4096kB = 35848kB
0419D < 4> [   36.193125] [03-19 10:05:52.193] Normal: 231*4kB (UMEH) 49*8kB (MEH) 14*16kB (H) 13*32kB (H) 8*64kB (H) 2*128kB (H) 0*256kB 1*512kB (H) 0*1024kB 0*2048kB 0*4096kB = 3236kB
	......
041EA < 4> [   36.234447] [03-19 10:05:52.234] SLUB: Unable to allocate memory on node -1, gfp=0xa20(GFP_ATOMIC)
041EB < 4> [   36.234455] [03-19 10:05:52.234] cache: ext4_io_end, object size: 64, buffer size: 64, default order: 0, min order: 0
041EC < 4> [   36.234459] [03-19 10:05:52.234] node 0: slabs: 53,objs: 3392, free: 0
`)
	d := Run(tl, nil)
	mustHave(t, d, "slab-alloc-failure", Warning)
	if len(d.Story.Causes) == 0 || d.Story.Causes[0].ID != classCMA {
		t.Fatalf("causes %+v", d.Story.Causes)
	}
}

// A dump with one zone's lines and another zone's buddy line only: the buddy-only zone is
// neutral (its floor is unknown), so the zone with its watermarks decides. Normal at its min
// with DMA32 known only by blocks: a reserve shortage, as without DMA32.
func TestAllocFailMixedBuddyOnlyZone(t *testing.T) {
	tl := memTextTimeline()
	memHost64(tl, "5.10.0")
	normal := memZone("Normal", 8000, 10000, 4194304, []int64{0, 0}, []int64{100, 50, 0})
	dma32 := model.ZoneReport{Node: 0, Zone: "DMA32", FreeBlocks: []int64{0, 447, 217}, MigrateTypes: []string{"", "UME", "UME"}}
	tl.Events = []model.Event{memAllocEvent(3, "swapper/0", 0, "0xa20(GFP_ATOMIC)", []string{"GFP_ATOMIC"}, memBool(true), "", []model.ZoneReport{dma32, normal})}
	f := onlyFires(t, tl, classReserve, Critical)
	if !evidenceHas(f, "zone DMA32", "the zone line with the watermarks is not in the input") || !evidenceHas(f, "zone Normal", "free 8000 kB, min 10000 kB") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	if strings.Contains(f.Explanation, "above its watermarks") {
		t.Errorf("the buddy-only zone was taken for a zone above its watermarks: %s", f.Explanation)
	}
}

// A warn_alloc trace or rate-limit summary without its "page allocation failure" header
// (corpus 416: an excerpt that starts at the stack; 415: dmesg | grep warn_alloc_failed) is
// a failure of unknown order and mode: no rule of the family may call the log clean.
func TestAllocFailHeaderlessTraceNotHealthy(t *testing.T) {
	for name, text := range map[string]string{
		"trace": "\t\t[4238992.145728]  <IRQ>  [<ffffffffafb61e41>] dump_stack+0x19/0x1b\n" +
			"\t\t[4238992.151057]  [<ffffffffaf5bcaa0>] warn_alloc_failed+0x110/0x180\n" +
			"\t\t[4238992.172061]  [<ffffffffaf5c1478>] page_frag_alloc+0x158/0x170\n",
		"suppressed": "[2186354.426315] warn_alloc_failed: 1 callbacks suppressed\n",
		"6.x cold":   "[  812.112233]  warn_alloc.cold+0x7b/0xdd\n[  812.112240]  __alloc_pages_slowpath.constprop.0+0xc52/0xcd0\n",
	} {
		t.Run(name, func(t *testing.T) {
			tl := pasteTimeline(t, text)
			ids := []string{"alloc-fail-fragmented", "alloc-fail-high-order-atomic"}
			if name != "trace" { // the trace is an RX refill: TestAllocFailHeaderlessRxRefill
				ids = append(ids, "alloc-fail-reserve")
			}
			for _, id := range ids {
				mustNotCheck(t, run(t, id, tl), "without a \"page allocation failure\" header")
			}
		})
	}
}

// A headerless trace through a receive fragment allocator in softirq is an atomic order-0
// refill (the high-order attempt is __GFP_NOWARN): alloc-fail-reserve, inferred, a warning
// (corpus 416). Without the softirq context, or without such an allocator, it stays not
// checked.
func TestAllocFailHeaderlessRxRefill(t *testing.T) {
	trace := "\t\t[4238992.145728]  <IRQ>  [<ffffffffafb61e41>] dump_stack+0x19/0x1b\n" +
		"\t\t[4238992.151057]  [<ffffffffaf5bcaa0>] warn_alloc_failed+0x110/0x180\n" +
		"\t\t[4238992.160988]  [<ffffffffafb5d44e>] __alloc_pages_slowpath+0x6b6/0x724\n" +
		"\t\t[4238992.172061]  [<ffffffffaf5c1478>] page_frag_alloc+0x158/0x170\n" +
		"\t\t[4238992.176908]  [<ffffffffafa27e1d>] __napi_alloc_skb+0x8d/0xe0\n" +
		"\t\t[4238992.209454]  [<ffffffffafa39f1f>] net_rx_action+0x26f/0x390\n"
	f := mustFire(t, run(t, "alloc-fail-reserve", pasteTimeline(t, trace)), Warning)
	if !strings.HasPrefix(f.Title, "inferred: ") || !evidenceHas(f, "allocator in the trace", "page_frag_alloc") {
		t.Errorf("title %q, evidence %+v", f.Title, f.Evidence)
	}
	noCtx := strings.ReplaceAll(strings.ReplaceAll(trace, "<IRQ>  ", ""), "net_rx_action", "process_one_work")
	mustNotCheck(t, run(t, "alloc-fail-reserve", pasteTimeline(t, noCtx)), "without a \"page allocation failure\" header")
	noAlloc := strings.ReplaceAll(trace, "page_frag_alloc", "kmalloc_order")
	mustNotCheck(t, run(t, "alloc-fail-reserve", pasteTimeline(t, noAlloc)), "without a \"page allocation failure\" header")
}

// The rate limiter's "warn_alloc_failed: 5676 callbacks suppressed" above the one report a
// Raspberry Pi printed (corpus 431): the failures are at least 5677, and the evidence says
// so. Before, the finding said "page allocation failures: 1".
func TestAllocFailCountsSuppressedReports(t *testing.T) {
	tl := pasteTimeline(t, `Nov  7 00:15:59 raspberrypi kernel: [264587.158502] warn_alloc_failed: 5676 callbacks suppressed
Nov  7 00:15:59 raspberrypi kernel: [264587.158522] swapper: page allocation failure: order:3, mode:0x20
Nov  7 00:15:59 raspberrypi kernel: [264587.158568] [<c0013e1c>] (unwind_backtrace+0x0/0xf0) from [<c008e01c>] (warn_alloc_failed+0xc4/0x11c)
Nov  7 00:15:59 raspberrypi kernel: [264587.158596] [<c008e01c>] (warn_alloc_failed+0xc4/0x11c) from [<c00901f8>] (__alloc_pages_nodemask+0x410/0x630)
Nov  7 00:15:59 raspberrypi kernel: [264587.158698] [<c02ca770>] (__alloc_skb+0x48/0xe8) from [<c0251c8c>] (rx_submit+0x24/0x1fc)
`)
	f := mustFire(t, run(t, "alloc-fail-fragmented", tl), Warning)
	if !evidenceHas(f, "callbacks suppressed", "5676 more") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
}
