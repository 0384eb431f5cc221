package plan_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"headroom/plan"
	"headroom/units"

	"headroom/kernel"
)

// The grid of issue 18: RAM 128 MiB → 1 TiB, 32/64-bit, kernels 2.6 → 6.x, 10 Mbit/s →
// 100 Gbit/s, RTT 0.1 → 300 ms, 1 → 10 000 streams, with and without current values.
// Compute enforces the invariants itself (Plan.Check); this test re-derives the main ones
// independently of Check, so a bug in Check does not hide a bad plan.
func TestInvariantsOverTheGrid(t *testing.T) {
	mems := []int64{128 << 20, 512 << 20, 4 << 30, 64 << 30, 1 << 40}
	arches := []string{"i686", "armv7l", "x86_64"}
	kernels := []string{"2.6.13", "2.6.32", "3.10.0", "4.9.0", "4.19.0", "5.10.0", "6.1.0", "6.18.44"}
	rates := []float64{10e6, 100e6, 1e9, 10e9, 100e9}
	rtts := []time.Duration{100 * time.Microsecond, time.Millisecond, 20 * time.Millisecond, 100 * time.Millisecond, 300 * time.Millisecond}
	streams := []int{1, 8, 100, 10000}
	// A host whose admin raised everything, and one whose admin lowered buffers (16 KiB).
	currents := []map[string]string{nil,
		{"net.ipv4.tcp_rmem": "4096 131072 33554432", "net.ipv4.tcp_wmem": "4096 16384 4194304", "net.core.rmem_max": "4194304",
			"net.core.wmem_max": "4194304", "vm.min_free_kbytes": "67584", "net.core.netdev_max_backlog": "5000"},
		{"net.ipv4.tcp_rmem": "4096 16384 16384", "net.ipv4.tcp_wmem": "4096 16384 16384", "net.core.rmem_max": "16384", "net.ipv4.tcp_mem": "128 256 512"},
	}
	n := 0
	for _, mem := range mems {
		for _, arch := range arches {
			for _, k := range kernels {
				for _, rate := range rates {
					for _, rtt := range rtts {
						for _, s := range streams {
							for ci, cur := range currents {
								if ci > 0 && (s == 100 || rate == 100e6) {
									continue // keep the grid's size reasonable
								}
								in := plan.Input{BandwidthBitsPerSec: rate, RTT: rtt, Streams: s, MemoryBytes: mem, Arch: arch,
									KernelVersion: k, Current: cur}
								if ci == 0 && s == 8 {
									in.RTTMax = 3 * rtt // an --rtt range
								}
								checkGridPlan(t, in)
								n++
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d plans checked", n)
}

func checkGridPlan(t *testing.T, in plan.Input) {
	t.Helper()
	name := fmt.Sprintf("%s %s %s/%v×%d mem %d cur %v", in.Arch, in.KernelVersion, units.FormatBitsPerSec(in.BandwidthBitsPerSec), in.RTT, in.Streams, in.MemoryBytes, in.Current != nil)
	p, err := plan.Compute(in)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	vals := map[string][]int64{}
	for _, c := range p.Settings {
		if c.Kind != "sysctl" {
			continue
		}
		if err := plan.CheckBound(c.Key, c.Recommended, plan.Limits{MemTotalKB: uint64(in.MemoryBytes / 1024), PageSizeBytes: 4096}); err != nil {
			t.Fatalf("%s: outside tune's bounds: %v", name, err)
		}
		for _, f := range strings.Fields(c.Recommended) {
			if v, err := strconv.ParseInt(f, 10, 64); err == nil {
				vals[c.Key] = append(vals[c.Key], v)
			}
		}
	}
	last := func(k string) int64 { v := vals[k]; return v[len(v)-1] }
	warned := func(k string) bool {
		for _, w := range p.Warnings {
			if strings.HasPrefix(w, k) && strings.Contains(w, "budget") {
				return true
			}
		}
		return false
	}
	kv, _ := kernel.ParseKernelVersion(in.KernelVersion)
	def := plan.KernelDefaultBuffers(kv, p.Budget.BasisBytes)
	defaults := map[string]int64{"net.ipv4.tcp_rmem": def.TCPRmem[2], "net.ipv4.tcp_wmem": def.TCPWmem[2],
		"net.core.rmem_max": max(def.RmemMax, 212992), "net.core.wmem_max": max(def.WmemMax, 212992)}
	for k, fl := range defaults {
		if len(vals[k]) == 0 {
			if in.Role == plan.RoleBoth || in.Role == "" {
				t.Fatalf("%s: %s not planned", name, k)
			}
			continue // the other direction's keys for a receiver or a sender
		}
		// Never below the target kernel's default: the flow count is no reason (tcp_mem
		// bounds the sum), and a current value below it is raised to it.
		if got := last(k); got < fl {
			t.Fatalf("%s: %s %d below the kernel default %d (%q)", name, k, got, fl, p.Warnings)
		}
		if c := in.Current[k]; c != "" {
			f := strings.Fields(c)
			v, _ := strconv.ParseInt(f[len(f)-1], 10, 64)
			wk := k
			if strings.HasPrefix(k, "net.ipv4") {
				wk += " max"
			}
			if got := last(k); got < v && !warned(wk) {
				t.Fatalf("%s: %s %d below the current %d without a budget warning (%q)", name, k, got, v, p.Warnings)
			}
		}
	}
	if v, ok := vals["net.ipv4.tcp_notsent_lowat"]; ok && v[0] > last("net.ipv4.tcp_wmem") {
		t.Fatalf("%s: notsent_lowat %d > tcp_wmem max %d", name, v[0], last("net.ipv4.tcp_wmem"))
	}
	// Coverage: when the wanted buffers fit, the receive maximum holds twice the nominal BDP
	// and the BDP at the worst RTT (or the most one window can use).
	if p.Budget.Fits {
		need := max(2*plan.BDPBytes(p.StreamBitsPerSec, in.RTT), plan.BDPBytes(p.StreamBitsPerSec, plan.WorstRTT(in)))
		if got := float64(last("net.ipv4.tcp_rmem")) * p.WindowRatio; got < min(float64(need), float64(65535<<14))-4096 {
			t.Fatalf("%s: tcp_rmem max holds a %v-byte window, needs %d", name, got, need)
		}
	}
	// tcp_mem: ordered, within the budget, a pressure band (max ≥ 1.25 × pressure), pressure
	// at or above what the streams hold filling their shares whenever the band allows it,
	// min at least a page per stream and direction (what idle sockets are guaranteed).
	tm := vals["net.ipv4.tcp_mem"]
	if len(tm) != 3 || tm[0] > tm[1] || tm[1] > tm[2] || tm[2]*4096 > p.Budget.BudgetBytes {
		t.Fatalf("%s: tcp_mem %v (budget %d)", name, tm, p.Budget.BudgetBytes)
	}
	if 4*tm[2] < 5*tm[1] {
		t.Fatalf("%s: tcp_mem %v has no pressure band (max < 1.25 × pressure)", name, tm)
	}
	need := (p.Budget.FlowsBytes + 4095) / 4096
	if (need*5+3)/4 <= p.Budget.BudgetBytes/4096 && tm[1] < need {
		t.Fatalf("%s: tcp_mem pressure %d pages below the streams' need %d pages", name, tm[1], need)
	}
	dirs := int64(2)
	if in.Role == plan.RoleReceiver || in.Role == plan.RoleSender {
		dirs = 1
	}
	if idle := int64(in.Streams) * dirs; tm[0] < min(idle, tm[1]) {
		t.Fatalf("%s: tcp_mem min %d below the idle streams' %d pages", name, tm[0], idle)
	}
	// The reserve: min_free_kbytes + 2 × the watermark gap (the kernel's high watermark,
	// __setup_per_zone_wmarks) within 1/20 of the basis (lowmem on 32-bit HighMem), unless
	// the kernel's own default min_free_kbytes is more (said in a note).
	basis := p.Budget.BasisBytes / 1024
	mf := last("vm.min_free_kbytes")
	defMF := plan.KernelDefaultMinFreeKBytesForVersion(basis, kv)
	var wsf int64
	if v, ok := vals["vm.watermark_scale_factor"]; ok {
		wsf = v[0]
	}
	gap := max(mf/4, basis*wsf/10000)
	if r := mf + 2*gap; r > basis/20 && r > defMF*3/2 {
		t.Fatalf("%s: reserve %d kB (min_free_kbytes %d + 2 × gap %d, watermark_scale_factor %d) above 1/20 of %d kB", name, r, mf, gap, wsf, basis)
	}
	if mf < defMF {
		t.Fatalf("%s: min_free_kbytes %d below the kernel default %d", name, mf, defMF)
	}
	// Every CPU's backlog full at once holds at most 1/20 of the basis (2 KiB and up per
	// packet), unless the backlog is the kernel default 1000 (or the current value).
	buf, _ := plan.RxBufferBytes(in.MTUBytes, 4096)
	cpus := int64(max(in.CPUs, 1))
	if bl := last("net.core.netdev_max_backlog"); bl > 1000 && in.Current["net.core.netdev_max_backlog"] == "" && cpus*bl*buf > basis*1024/20 {
		t.Fatalf("%s: netdev_max_backlog %d on %d CPUs holds %d bytes, over 1/20 of %d kB", name, bl, cpus, cpus*bl*buf, basis)
	}
}

// The host shapes of issue 27, each over links, RTTs (single and ranges) and flow counts:
// the plans keep per-socket maxima at or above the target kernel's defaults, a tcp_mem
// pressure band and the reserve within 1/20 of (low)memory (checkGridPlan).
func TestInvariantsOverHostShapes(t *testing.T) {
	shapes := []plan.Input{
		{MemoryBytes: 512 << 20, Arch: "armv5tel", KernelVersion: "2.6.30", CPUs: 1},          // seed 000's NAS
		{MemoryBytes: 1 << 30, Arch: "x86_64", KernelVersion: "6.8.0", CPUs: 2},               // a cloud VM
		{MemoryBytes: 1 << 30, Arch: "x86_64", KernelVersion: "6.8.0"},                        // the same, CPUs unknown
		{MemoryBytes: 64 << 30, Arch: "x86_64", KernelVersion: "5.15.0", CPUs: 32},            // a Kubernetes node
		{MemoryBytes: 256 << 30, Arch: "x86_64", KernelVersion: "6.1.0", CPUs: 128},           // a 40G server
		{MemoryBytes: 4 << 30, LowmemBytes: 896 << 20, Arch: "i686", KernelVersion: "2.6.13"}, // seed 004's class
		{MemoryBytes: 4 << 30, Arch: "i686", KernelVersion: "4.19.0"},                         // HighMem, lowmem from the arch
	}
	type link struct {
		bw          float64
		rtt, rttMax time.Duration
		streams     int
		role        string
	}
	var links []link
	for _, bw := range []float64{1e9, 10e9, 25e9, 40e9} {
		for _, r := range [][2]time.Duration{{time.Millisecond, 0}, {2 * time.Millisecond, 200 * time.Millisecond}, {100 * time.Millisecond, 0}} {
			for _, s := range []int{1, 64, 10000} {
				for _, role := range []string{plan.RoleBoth, plan.RoleReceiver} {
					links = append(links, link{bw, r[0], r[1], s, role})
				}
			}
		}
	}
	n := 0
	for _, h := range shapes {
		for _, l := range links {
			in := h
			in.BandwidthBitsPerSec, in.RTT, in.RTTMax, in.Streams, in.Role = l.bw, l.rtt, l.rttMax, l.streams, l.role
			checkGridPlan(t, in)
			n++
		}
	}
	t.Logf("%d plans checked", n)
}

// The issue's bad plans, with the flags that produced them (cmd/headroom/plan.go):
//
//	headroom plan --bandwidth 25Gbit --rtt 1ms --streams 10000 --memory 64GiB --kernel 5.15.0 --arch x86_64
//	  tcp_rmem 4096 131072 430080 (420 KiB, below 5.15's default 6 MiB), tcp_mem 1048576 2090000 2097152
//	headroom plan --bandwidth 10Gbit --rtt 2ms-200ms --memory 1GiB --kernel 6.8.0 --arch x86_64
//	  vm.watermark_scale_factor 1000, vm.min_free_kbytes 52428 (a reserve of 25 % of RAM),
//	  tcp_mem 16384 32768 32768 (no band)
func TestIssue27Plans(t *testing.T) {
	node, err := plan.Compute(plan.Input{BandwidthBitsPerSec: 25e9, RTT: time.Millisecond, Streams: 10000, MemoryBytes: 64 << 30, KernelVersion: "5.15.0", Arch: "x86_64"})
	if err != nil {
		t.Fatal(err)
	}
	if node.RcvBufBytes < 6<<20 || node.SndBufBytes < 4<<20 || len(node.Warnings) > 0 {
		t.Errorf("node: tcp_rmem max %d, tcp_wmem max %d (5.15's defaults 6 MiB, 4 MiB); warnings %q", node.RcvBufBytes, node.SndBufBytes, node.Warnings)
	}
	if got := settingOf(node, "net.ipv4.tcp_mem"); got != "786432 1048576 1572864" {
		t.Errorf("node: tcp_mem %q, want the kernel's own 786432 1048576 1572864 (10 000 flows need 40000 pages)", got)
	}
	// The guides' worst case is compared like plan's own: with 10 000 streams even the
	// kernel's defaults exceed the budget, and the guides' text says tcp_mem holds it.
	for _, g := range node.Guides {
		if !g.FitsBudget && !strings.Contains(g.Why, "tcp_mem's max does") {
			t.Errorf("guide %s: %s", g.Name, g.Why)
		}
	}
	vm, err := plan.Compute(plan.Input{BandwidthBitsPerSec: 10e9, RTT: 2 * time.Millisecond, RTTMax: 200 * time.Millisecond, MemoryBytes: 1 << 30, KernelVersion: "6.8.0", Arch: "x86_64"})
	if err != nil {
		t.Fatal(err)
	}
	var mf, wsf int64
	fmt.Sscan(settingOf(vm, "vm.min_free_kbytes"), &mf)
	fmt.Sscan(settingOf(vm, "vm.watermark_scale_factor"), &wsf)
	if r := plan.ReserveKB(mf, wsf, 1<<20); r > (1<<20)/20 || wsf >= 1000 {
		t.Errorf("vm: min_free_kbytes %d, watermark_scale_factor %d: reserve %d kB, over 1/20 of 1 GiB", mf, wsf, r)
	}
	var lo, pr, mx int64
	fmt.Sscan(settingOf(vm, "net.ipv4.tcp_mem"), &lo, &pr, &mx)
	if 4*mx < 5*pr {
		t.Errorf("vm: tcp_mem %d %d %d has no band", lo, pr, mx)
	}
	// The budget's reason is printed, and the one flow plan assumed is said (Streams 0: the
	// flag was not given).
	if !hasNote(vm, "reserve budget") || !hasNote(vm, "assumed 1 flow") || !hasNote(vm, "RTT range (2ms-200ms) usually means many peers") {
		t.Errorf("vm notes: %q", vm.Notes)
	}
}

// Every CPU has its own input backlog: on a 1 GiB VM with 8 CPUs, 10 Gbit/s asks for 16255
// packets each (20 ms at line rate), 8 × 16255 × 2 KiB = 254 MiB of receive buffers; the
// budget (1/20 of RAM, 52428 kB) holds it to ⌊52428 × 1024 ÷ (8 × 2048)⌋ = 3276 packets, and
// the reason says so. One CPU fits 16255 × 2 KiB = 32 MiB.
func TestBacklogBudgetedPerCPU(t *testing.T) {
	in := plan.Input{BandwidthBitsPerSec: 10e9, RTT: time.Millisecond, Streams: 4, MemoryBytes: 1 << 30, KernelVersion: "6.8.0", Arch: "x86_64", CPUs: 8}
	p, err := plan.Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := settingOf(p, "net.core.netdev_max_backlog"); got != "3276" {
		t.Errorf("8 CPUs: netdev_max_backlog %s, want 3276", got)
	}
	in.CPUs = 1
	if p, err = plan.Compute(in); err != nil || settingOf(p, "net.core.netdev_max_backlog") != "16255" {
		t.Errorf("1 CPU: netdev_max_backlog %s (%v), want 16255", settingOf(p, "net.core.netdev_max_backlog"), err)
	}
	in.CPUs = -1
	if _, err := plan.Compute(in); err == nil {
		t.Error("negative CPUs accepted")
	}
}

func settingOf(p plan.Plan, key string) string {
	for _, c := range p.Settings {
		if c.Key == key {
			return c.Recommended
		}
	}
	return ""
}

func hasNote(p plan.Plan, s string) bool {
	for _, n := range p.Notes {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// Check is not a formality: a plan broken by hand is refused.
func TestCheckCatchesBrokenPlans(t *testing.T) {
	in := plan.Input{BandwidthBitsPerSec: 1e9, RTT: 500 * time.Microsecond, Streams: 4, MemoryBytes: 512 << 20, Arch: "armv5tel", KernelVersion: "5.10.0"}
	p, err := plan.Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(); err != nil {
		t.Fatalf("fresh plan: %v", err)
	}
	for key, value := range map[string]string{
		"net.ipv4.tcp_notsent_lowat":  "8388608",          // above the send maximum
		"net.core.rmem_max":           "16384",            // below 212992
		"net.ipv4.tcp_rmem":           "4096 16384 32768", // below the kernel default without a warning
		"net.ipv4.tcp_mem":            "10 20 9999999",    // above the budget
		"vm.min_free_kbytes":          "1048576",          // above 5 % of RAM
		"net.core.netdev_max_backlog": "10",               // below the default 1000
	} {
		broken := p
		broken.Settings = append(broken.Settings[:0:0], p.Settings...)
		for i := range broken.Settings {
			if broken.Settings[i].Key == key {
				broken.Settings[i].Recommended = value
			}
		}
		if err := broken.Check(); err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(key, "vm.")) && !strings.Contains(err.Error(), key[strings.LastIndex(key, ".")+1:]) {
			t.Errorf("%s = %s: Check gave %v", key, value, err)
		}
	}
}

// The issue's examples: the NAS on a gigabit LAN and the 40 Gbit/s cache node give maxima at
// or above the kernel defaults, and lowat within the send buffer.
func TestIssueExamplesKeepKernelDefaults(t *testing.T) {
	for _, in := range []plan.Input{
		{BandwidthBitsPerSec: 1e9, RTT: 500 * time.Microsecond, Streams: 4, MemoryBytes: 512 << 20, Arch: "armv5tel", KernelVersion: "5.10.0"},
		{BandwidthBitsPerSec: 40e9, RTT: 500 * time.Microsecond, Streams: 2000, MemoryBytes: 256 << 30, Arch: "x86_64", KernelVersion: "6.1.0"},
		{BandwidthBitsPerSec: 1e9, RTT: 125 * time.Millisecond, Streams: 20, MemoryBytes: 8 << 30, Arch: "x86_64", KernelVersion: "6.18.44"},
	} {
		p, err := plan.Compute(in)
		if err != nil {
			t.Fatal(err)
		}
		kv, _ := kernel.ParseKernelVersion(in.KernelVersion)
		d := plan.KernelDefaultBuffers(kv, in.MemoryBytes)
		if p.RcvBufBytes < d.TCPRmem[2] || p.SndBufBytes < d.TCPWmem[2] || p.CoreRmemMaxBytes < d.RmemMax || p.CoreWmemMaxBytes < d.WmemMax {
			t.Errorf("%v/%d streams on %s: planned %d/%d/%d/%d, kernel defaults %v/%v/%d/%d (warnings %q)", units.FormatBitsPerSec(in.BandwidthBitsPerSec), in.Streams, in.KernelVersion,
				p.RcvBufBytes, p.SndBufBytes, p.CoreRmemMaxBytes, p.CoreWmemMaxBytes, d.TCPRmem, d.TCPWmem, d.RmemMax, d.WmemMax, p.Warnings)
		}
		for _, c := range p.Settings {
			if c.Why == "" {
				t.Errorf("%s has no reason", c.Key)
			}
		}
	}
}
