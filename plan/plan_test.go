package plan

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"headroom/model"
)

func setting(t *testing.T, p Plan, key string) model.Change {
	t.Helper()
	for _, c := range p.Settings {
		if c.Key == key {
			return c
		}
	}
	t.Fatalf("no setting %q in plan", key)
	return model.Change{}
}

func hasSetting(p Plan, key string) bool {
	for _, c := range p.Settings {
		if c.Key == key {
			return true
		}
	}
	return false
}

func mustCompute(t *testing.T, in Input) Plan {
	t.Helper()
	p, err := Compute(in)
	if err != nil {
		t.Fatalf("Compute: %v", err)
	}
	for _, c := range p.Settings {
		if c.Rule != "plan" || c.Why == "" || c.Recommended == "" || c.Kind == "" {
			t.Errorf("setting %+v lacks kind, rule, why or value", c)
		}
	}
	return p
}

// Done when: one stream at 1 Gbit/s over 125 ms, 8 GiB x86_64 on this kernel family, gets a
// tcp_rmem maximum that reaches ≥ 90% of 1 Gbit/s.
func TestOneStreamFillsGigabit(t *testing.T) {
	p := mustCompute(t, Input{BandwidthBitsPerSec: 1e9, RTT: 125 * time.Millisecond, Streams: 1,
		MemoryBytes: 8 << 30, Arch: "x86_64", KernelVersion: "6.18.44"})
	// Cover max(2 × BDP at 125 ms, BDP at the 250 ms worst RTT) = 31250000 B; ÷ 0.68 =
	// 45955883 → 11220 pages.
	if got := setting(t, p, "net.ipv4.tcp_rmem").Recommended; got != "4096 131072 45957120" {
		t.Errorf("tcp_rmem = %q, want 4096 131072 45957120", got)
	}
	if r := ThroughputBitsPerSec(p.RcvBufBytes, 125*time.Millisecond, p.WindowRatio); r < 0.9e9 {
		t.Errorf("planned rcvbuf %d reaches %v bit/s", p.RcvBufBytes, r)
	}
	if !p.Budget.Fits || p.Budget.Basis != "MemTotal" || p.Budget.BudgetBytes != 1<<30 {
		t.Errorf("budget = %+v, want fitting 1 GiB of MemTotal", p.Budget)
	}
	// The kernel default tcp_mem for 8 GiB (2097152 pages / 16 = 131072) is within budget.
	if got := setting(t, p, "net.ipv4.tcp_mem").Recommended; got != "98304 131072 196608" {
		t.Errorf("tcp_mem = %q", got)
	}
	if got := setting(t, p, "net.ipv4.tcp_congestion_control").Recommended; got != "bbr" {
		t.Errorf("congestion control = %q", got)
	}
	if got := setting(t, p, "vm.watermark_scale_factor").Recommended; got != "20" {
		t.Errorf("watermark_scale_factor = %q, want 20", got)
	}
}

// Done when: 20 streams on seed 004's host (8 GiB, 2.6.13, i686) stay inside lowmem's share
// with per-stream buffers near 2 MB (seed 004's 1 MB per BDP, with the RTT margin and
// autotuning's headroom), and the plan says so.
func TestSeed004(t *testing.T) {
	p := mustCompute(t, Input{BandwidthBitsPerSec: 1e9, RTT: 125 * time.Millisecond, Streams: 20,
		MemoryBytes: 8 << 30, Arch: "i686", KernelVersion: "2.6.13"})
	b := p.Budget
	if b.Basis != "lowmem" || b.BasisBytes != 896<<20 || b.BudgetBytes != 224<<20 {
		t.Fatalf("budget basis = %+v, want ¼ of 896 MiB lowmem", b)
	}
	// Per stream: max(2084864, 2 × 1044480) receive + the same send; × 20 = 79.7 MiB.
	if !b.Fits || b.WorstCaseBytes != 20*2*2088960 || b.WorstCaseBytes > b.BudgetBytes {
		t.Errorf("worst case = %d, fits %v", b.WorstCaseBytes, b.Fits)
	}
	if !strings.Contains(b.Why, "fits the budget 224 MiB") {
		t.Errorf("budget does not say it fits: %q", b.Why)
	}
	if p.RcvBufBytes != 2084864 || p.SndBufBytes != 2084864 {
		t.Errorf("per-stream buffers %d / %d, want 2084864 (2 × seed 004's 1 MB)", p.RcvBufBytes, p.SndBufBytes)
	}
	if got := setting(t, p, "net.ipv4.tcp_rmem").Recommended; got != "4096 87380 2084864" {
		t.Errorf("tcp_rmem = %q (2.6.13's tcp_rmem[1] is 87380)", got)
	}
	// tcp_mem: max = budget 57344 pages, pressure = ⅔ × 57344 = 38229 ≥ worst 20400 pages.
	if got := setting(t, p, "net.ipv4.tcp_mem").Recommended; got != "28672 38229 57344" {
		t.Errorf("tcp_mem = %q", got)
	}
	if got := setting(t, p, "vm.min_free_kbytes").Recommended; got != "18578" {
		t.Errorf("min_free_kbytes = %q", got)
	}
	for _, k := range []string{"vm.watermark_scale_factor", "net.ipv4.tcp_notsent_lowat"} {
		if hasSetting(p, k) {
			t.Errorf("%s planned for 2.6.13, which lacks it", k)
		}
	}
	if got := setting(t, p, "net.ipv4.tcp_congestion_control").Recommended; got != "bic" {
		t.Errorf("congestion control on 2.6.13 = %q", got)
	}
	// The guides: TuneD's 16 MB × 20 streams × 2 = 640 MiB, seed 004's crash arithmetic.
	var tuned, esnet Guide
	for _, g := range p.Guides {
		if strings.HasPrefix(g.Name, "TuneD") {
			tuned = g
		}
		if strings.HasPrefix(g.Name, "ESnet") {
			esnet = g
		}
	}
	if tuned.WorstCaseBytes != 640<<20 || tuned.FitsBudget {
		t.Errorf("TuneD guide = %+v, want 640 MiB not fitting", tuned)
	}
	if esnet.FitsBudget || !strings.Contains(esnet.Name, "200 ms") {
		t.Errorf("ESnet guide = %+v, want the 200 ms tier not fitting", esnet)
	}
}

func TestBudgetLowersBuffers(t *testing.T) {
	// Seed 004's host with only 64 MiB of lowmem: budget 16 MiB, wanted 79.7 MiB. The need
	// is scaled down, but rmem_max/wmem_max never go below 212992, so each direction of a
	// stream still costs 2 × 212992 and the worst case stays just above the budget:
	// tcp_mem's max (the budget) is what holds the host.
	p := mustCompute(t, Input{BandwidthBitsPerSec: 1e9, RTT: 125 * time.Millisecond, Streams: 20,
		MemoryBytes: 8 << 30, LowmemBytes: 64 << 20, Arch: "i686", KernelVersion: "2.6.13"})
	b := p.Budget
	if b.Fits || b.WantedBytes != 83558400 || b.BudgetBytes != 16777216 {
		t.Fatalf("budget = %+v", b)
	}
	// tcp_rmem max may take what 2 × rmem_max costs anyway: 425984.
	if p.RcvBufBytes != 425984 || p.CoreRmemMaxBytes != CoreMemMaxFloor {
		t.Errorf("lowered buffers = %d / %d", p.RcvBufBytes, p.CoreRmemMaxBytes)
	}
	if b.WorstCaseBytes != 20*4*212992 || !strings.Contains(b.Why, "tcp_mem's max is what holds the host") {
		t.Errorf("worst case after lowering = %d (%s)", b.WorstCaseBytes, b.Why)
	}
	// Max is the budget; pressure keeps a band below it (max ≥ 5/4 × pressure), where it
	// used to equal max (issue 27: "2048 4096 4096" left TCP no moderation zone).
	if got := setting(t, p, "net.ipv4.tcp_mem").Recommended; got != "2048 3276 4096" {
		t.Errorf("tcp_mem = %q, want the 16 MiB budget as max with a band", got)
	}
	// 20 × 425984 B × 0.75 × 8 / 0.25 s (the worst RTT) = 204472320 bit/s.
	if b.ReachBitsPerSec != 204472320 {
		t.Errorf("reach = %v", b.ReachBitsPerSec)
	}
	var note string
	for _, n := range p.Notes {
		if strings.Contains(n, "streams instead of 20") {
			note = n
		}
	}
	// 1 Gbit/s ÷ 10.2 Mbit/s per stream at 250 ms = 97.8 → 98 streams, 78 more.
	if !strings.Contains(note, "takes 98 streams instead of 20 (78 more)") {
		t.Errorf("no streams note, got %q", note)
	}
	if !strings.Contains(setting(t, p, "net.ipv4.tcp_rmem").Why, "lowered") {
		t.Error("tcp_rmem why does not say it was lowered")
	}
}

func TestPageSizeOtherThan4096(t *testing.T) {
	// ppc64 with 64 KiB pages: tcp_mem is in 64 KiB pages. 8 GiB = 131072 pages; the kernel
	// default limit is 131072/16 = 8192 → {6144, 8192, 12288}; the budget is 1 GiB = 16384.
	p := mustCompute(t, Input{BandwidthBitsPerSec: 1e9, RTT: 125 * time.Millisecond, Streams: 1,
		MemoryBytes: 8 << 30, Arch: "ppc64le", KernelVersion: "6.18.0", PageSizeBytes: 65536})
	if got := setting(t, p, "net.ipv4.tcp_mem").Recommended; got != "6144 8192 12288" {
		t.Errorf("tcp_mem = %q, want 6144 8192 12288 (64 KiB pages)", got)
	}
	// ⌈31250000 / 0.68 / 65536⌉ = 702 pages.
	if p.RcvBufBytes != 702*65536 {
		t.Errorf("rcvbuf = %d, want 702 × 65536", p.RcvBufBytes)
	}
	if !strings.Contains(setting(t, p, "net.ipv4.tcp_mem").Why, "65536 B pages") {
		t.Error("tcp_mem why does not name the page size")
	}
}

func TestKeepsCurrentThatFits(t *testing.T) {
	cur := map[string]string{
		"net.ipv4.tcp_rmem": "4096\t131072\t33554432", "net.ipv4.tcp_wmem": "4096 16384 4194304",
		"net.ipv4.tcp_mem": "287898 383867 575796", "net.core.rmem_max": "4194304",
		"vm.min_free_kbytes": "67584", "net.ipv4.tcp_available_congestion_control": "reno cubic",
	}
	p := mustCompute(t, Input{BandwidthBitsPerSec: 1e9, RTT: 125 * time.Millisecond, Streams: 4,
		MemoryBytes: 24684084 * 1024, Arch: "x86_64", KernelVersion: "6.18.44", Current: cur})
	if c := setting(t, p, "net.ipv4.tcp_rmem"); c.Recommended != "4096 131072 33554432" || c.Current != "4096 131072 33554432" || !strings.HasPrefix(c.Why, "keep") {
		t.Errorf("tcp_rmem = %+v, want the current 32 MiB kept", c)
	}
	// 250 Mbit/s per stream covers 2 × 3906250 B: ⌈7812500 / 0.68⌉ → 11489280 > the current
	// 4 MiB: raised.
	if c := setting(t, p, "net.ipv4.tcp_wmem"); c.Recommended != "4096 16384 11489280" {
		t.Errorf("tcp_wmem = %+v", c)
	}
	if c := setting(t, p, "net.ipv4.tcp_mem"); c.Recommended != "287898 383867 575796" || !strings.HasPrefix(c.Why, "keep") {
		t.Errorf("tcp_mem = %+v", c)
	}
	if c := setting(t, p, "vm.min_free_kbytes"); c.Recommended != "67584" {
		t.Errorf("min_free_kbytes = %+v", c)
	}
	if c := setting(t, p, "net.ipv4.tcp_congestion_control"); c.Recommended != "cubic" {
		t.Errorf("without bbr available: %+v", c)
	}
}

func TestLowersCurrentThatDoesNotFit(t *testing.T) {
	// Seed 004 with the guides' 16 MiB already set and 2.6.13's ≈1.6 GB tcp_mem (1536 << 8).
	cur := map[string]string{"net.ipv4.tcp_rmem": "4096 87380 16777216", "net.ipv4.tcp_mem": "196608 262144 393216"}
	p := mustCompute(t, Input{BandwidthBitsPerSec: 1e9, RTT: 125 * time.Millisecond, Streams: 20,
		MemoryBytes: 8 << 30, Arch: "i686", KernelVersion: "2.6.13", Current: cur})
	// The current 16 MiB is given up only as far as the 224 MiB budget needs: 9654272, still
	// above the 2084864 the link needs, with a warning that gives the numbers.
	if c := setting(t, p, "net.ipv4.tcp_rmem"); c.Recommended != "4096 87380 9654272" || !strings.Contains(c.Why, "lowered from the current value") {
		t.Errorf("tcp_rmem = %+v", c)
	}
	// The streams' need (20 × 2 × 2 MiB = 20400 pages) sits below the kernel's ⅔, so the
	// budget max keeps the kernel's proportions (was "28672 57340 57344": no band).
	if c := setting(t, p, "net.ipv4.tcp_mem"); c.Recommended != "28672 38229 57344" || !strings.Contains(c.Why, "lowered from the current max 393216") {
		t.Errorf("tcp_mem = %+v", c)
	}
	if len(p.Warnings) != 2 || !strings.Contains(p.Warnings[0], "net.ipv4.tcp_rmem max lowered below the current value 16777216 to 9654272") ||
		!strings.Contains(p.Warnings[0], "over the budget 224 MiB") || !strings.HasPrefix(p.Warnings[1], "net.ipv4.tcp_mem max lowered") {
		t.Errorf("warnings = %q", p.Warnings)
	}
}

func TestRoles(t *testing.T) {
	base := Input{BandwidthBitsPerSec: 1e9, RTT: 125 * time.Millisecond, Streams: 20, MemoryBytes: 8 << 30, Arch: "x86_64", KernelVersion: "6.18.44"}
	in := base
	in.Role = RoleReceiver
	p := mustCompute(t, in)
	if hasSetting(p, "net.ipv4.tcp_wmem") || hasSetting(p, "net.ipv4.tcp_notsent_lowat") || !hasSetting(p, "net.ipv4.tcp_rmem") {
		t.Error("receiver plan should set tcp_rmem only")
	}
	in.Role = RoleSender
	p = mustCompute(t, in)
	if hasSetting(p, "net.ipv4.tcp_rmem") || !hasSetting(p, "net.ipv4.tcp_wmem") {
		t.Error("sender plan should set tcp_wmem only")
	}
	// 50 Mbit/s × 10 ms = 62500 B → 16 pages = 65536.
	if got := setting(t, p, "net.ipv4.tcp_notsent_lowat").Recommended; got != "65536" {
		t.Errorf("notsent_lowat = %q", got)
	}
}

func TestRateLimit(t *testing.T) {
	p := mustCompute(t, Input{BandwidthBitsPerSec: 1e9, RTT: 125 * time.Millisecond, Streams: 20, Role: RoleSender,
		MemoryBytes: 8 << 30, Arch: "x86_64", KernelVersion: "6.18.44", RateLimitBitsPerSec: 400e6,
		RateLimitDestination: "192.0.2.7", NICs: []NIC{{Name: "eth0", SpeedMbps: 1000}}})
	// 400 Mbit/s ÷ 20 = 20 Mbit/s per stream × 125 ms = 312500 B.
	if p.SendBDPBytesPerStream != 312500 {
		t.Errorf("send BDP = %d", p.SendBDPBytesPerStream)
	}
	c := setting(t, p, "eth0 htb dst 192.0.2.7")
	want := "tc qdisc replace dev eth0 root handle 1: htb; " +
		"tc class replace dev eth0 parent 1: classid 1:1 htb rate 400mbit ceil 400mbit; " +
		"tc filter add dev eth0 parent 1: protocol ip prio 1 u32 match ip dst 192.0.2.7 flowid 1:1"
	if c.Kind != model.ChangeOther || c.Recommended != want {
		t.Errorf("rate limit to one destination = %+v\nwant %s", c, want)
	}
	// Without a destination: the form tune applies, "DEV root htb" with class parameters.
	p = mustCompute(t, Input{BandwidthBitsPerSec: 1e9, RTT: 125 * time.Millisecond, Streams: 20, Role: RoleSender,
		MemoryBytes: 8 << 30, Arch: "x86_64", KernelVersion: "6.18.44", RateLimitBitsPerSec: 400e6})
	c = setting(t, p, "DEV root htb")
	if c.Kind != model.ChangeTC || c.Recommended != "rate 400mbit ceil 400mbit" || !strings.Contains(c.Why, "undo: tc qdisc del dev DEV root") {
		t.Errorf("rate limit = %+v", c)
	}
}

func TestRingToMaxWhenDrops(t *testing.T) {
	in := Input{BandwidthBitsPerSec: 1e9, RTT: 125 * time.Millisecond, MemoryBytes: 8 << 30, Arch: "x86_64", KernelVersion: "6.18.44",
		NICs: []NIC{{Name: "eth0", SpeedMbps: 1000, RxRing: 256, RxRingMax: 4096, DropsSeen: true}, {Name: "eth1", SpeedMbps: 1000, RxRing: 512, RxRingMax: 4096}}}
	p := mustCompute(t, in)
	c := setting(t, p, "eth0 rx")
	if c.Kind != model.ChangeEthtool || c.Current != "256" || c.Recommended != "4096" {
		t.Errorf("eth0 ring = %+v", c)
	}
	if hasSetting(p, "eth1 rx") {
		t.Error("eth1 has no drops; its ring must stay")
	}
	// Line rate is the NICs' sum, 2 Gbit/s: backlog ⌈162548.76 × 0.02⌉ = 3251.
	if got := setting(t, p, "net.core.netdev_max_backlog").Recommended; got != "3251" {
		t.Errorf("backlog = %q", got)
	}
}

func TestOldKernelsAndPacing(t *testing.T) {
	base := Input{BandwidthBitsPerSec: 1e9, RTT: 125 * time.Millisecond, MemoryBytes: 8 << 30, Arch: "x86_64"}
	in := base
	in.KernelVersion = "4.10.0"
	p := mustCompute(t, in)
	if got := setting(t, p, "net.core.default_qdisc").Recommended; got != "fq" {
		t.Errorf("BBR before 4.13 needs fq, got %q", got)
	}
	in.KernelVersion = "3.10.0"
	p = mustCompute(t, in)
	if got := setting(t, p, "net.ipv4.tcp_congestion_control").Recommended; got != "cubic" {
		t.Errorf("3.10 congestion control = %q", got)
	}
	// adv_win_scale 1: half the buffer is window, so 2 × 2 × BDP = 62500000 → 15259 pages.
	if p.RcvBufBytes != 15259*4096 {
		t.Errorf("3.10 rcvbuf = %d, want %d", p.RcvBufBytes, 15259*4096)
	}
	if hasSetting(p, "vm.watermark_scale_factor") {
		t.Error("3.10 has no watermark_scale_factor")
	}
}

func TestInvalidInput(t *testing.T) {
	ok := Input{BandwidthBitsPerSec: 1e9, RTT: 125 * time.Millisecond, Streams: 1, MemoryBytes: 8 << 30, Arch: "x86_64", KernelVersion: "6.18.44"}
	cases := map[string]func(*Input){
		"rtt must be greater than zero":  func(in *Input) { in.RTT = 0 },
		"rtt must be greater than zero ": func(in *Input) { in.RTT = -time.Millisecond },
		"bandwidth must be":              func(in *Input) { in.BandwidthBitsPerSec = 0 },
		"streams must be at least 1":     func(in *Input) { in.Streams = -3 },
		"role":                           func(in *Input) { in.Role = "relay" },
		"memory size unknown":            func(in *Input) { in.MemoryBytes = 0 },
		"kernel version":                 func(in *Input) { in.KernelVersion = "six" },
		"unknown architecture":           func(in *Input) { in.Arch = "vax" },
		"page size":                      func(in *Input) { in.PageSizeBytes = 1000 },
		"mtu":                            func(in *Input) { in.MTUBytes = 20 },
		"window ratio":                   func(in *Input) { in.WindowRatio = 1.5 },
		"lowmem":                         func(in *Input) { in.LowmemBytes = 16 << 30 },
	}
	for want, mutate := range cases {
		in := ok
		mutate(&in)
		if _, err := Compute(in); err == nil || !strings.Contains(err.Error(), strings.TrimSpace(want)) {
			t.Errorf("%s: err = %v", want, err)
		}
	}
	if _, err := Compute(ok); err != nil {
		t.Fatalf("valid input rejected: %v", err)
	}
}

func TestOneStreamWindowLimit(t *testing.T) {
	// 100 Gbit/s over 1 s needs 12.5 GB in flight; one connection can advertise at most
	// 65535 << 14 bytes, so with ratio 0.68 the useful buffer is 1073725440 ÷ 0.68 = 1579008000
	// (385500 pages), and the 25e9 bytes that cover the 2 s worst RTT ÷ 0.68 = 36764705883
	// bytes need ⌈23.3⌉ = 24 streams.
	p := mustCompute(t, Input{BandwidthBitsPerSec: 100e9, RTT: time.Second, Streams: 1, Role: RoleReceiver,
		MemoryBytes: 1 << 40, Arch: "x86_64", KernelVersion: "6.18.44"})
	if p.RcvBufBytes != 1579008000 {
		t.Errorf("rcvbuf = %d, want 1579008000", p.RcvBufBytes)
	}
	found := false
	for _, n := range p.Notes {
		found = found || strings.Contains(n, "use at least 24 streams")
	}
	if !found {
		t.Errorf("no stream-count note: %v", p.Notes)
	}
}

// A current tcp_mem far below what the planned streams need (the lab's tcp-mem-low
// scenario: 128 256 512): max rises to the kernel's own default (never below it), pressure
// stays at or above what the streams hold filling their shares, with a band above it, and
// the text says where max came from.
func TestTCPMemRaisedAboveTinyCurrent(t *testing.T) {
	in := Input{BandwidthBitsPerSec: 1e9, RTT: 10 * time.Millisecond, Streams: 4, Role: RoleBoth, MTUBytes: 1500,
		MemoryBytes: 8 << 30, PageSizeBytes: 4096, KernelVersion: "6.18.0", Arch: "x86_64",
		Current: map[string]string{"net.ipv4.tcp_mem": "128 256 512"}}
	p, err := Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	c := setting(t, p, "net.ipv4.tcp_mem")
	var low, pressure, maxPages int64
	if _, err := fmt.Sscan(c.Recommended, &low, &pressure, &maxPages); err != nil {
		t.Fatalf("recommended %q: %v", c.Recommended, err)
	}
	need := ceilDiv(p.Budget.FlowsBytes, 4096)
	def := KernelDefaultTCPMemPages((8 << 30) / 4096)
	if maxPages != def[2] || pressure < need || 4*maxPages < 5*pressure || low > pressure || low < 8 {
		t.Errorf("tcp_mem %q for a need of %d pages (kernel default %v)", c.Recommended, need, def)
	}
	if !strings.Contains(c.Why, "kernel default max") || !strings.Contains(c.Why, "raised from the current max 512") {
		t.Errorf("why: %s", c.Why)
	}
}
