package plan_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"headroom/plan"

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
	name := fmt.Sprintf("%s %s %s/%v×%d mem %d cur %v", in.Arch, in.KernelVersion, plan.FormatBitsPerSec(in.BandwidthBitsPerSec), in.RTT, in.Streams, in.MemoryBytes, in.Current != nil)
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
	floors := map[string]int64{"net.ipv4.tcp_rmem": def.TCPRmem[2], "net.ipv4.tcp_wmem": def.TCPWmem[2],
		"net.core.rmem_max": max(def.RmemMax, 212992), "net.core.wmem_max": max(def.WmemMax, 212992)}
	for k, fl := range floors {
		if c := in.Current[k]; c != "" {
			f := strings.Fields(c)
			v, _ := strconv.ParseInt(f[len(f)-1], 10, 64)
			fl = v
			if strings.HasPrefix(k, "net.core") {
				fl = max(v, 212992)
			}
		}
		wk := k
		if strings.HasPrefix(k, "net.ipv4") {
			wk += " max"
		}
		if got := last(k); got < fl && !warned(wk) {
			t.Fatalf("%s: %s %d below its floor %d without a budget warning (%q)", name, k, got, fl, p.Warnings)
		}
	}
	if last("net.core.rmem_max") < 212992 || last("net.core.wmem_max") < 212992 {
		t.Fatalf("%s: rmem_max/wmem_max below 212992", name)
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
	tm := vals["net.ipv4.tcp_mem"]
	if len(tm) != 3 || tm[0] > tm[1] || tm[1] > tm[2] || tm[2]*4096 > p.Budget.BudgetBytes {
		t.Fatalf("%s: tcp_mem %v (budget %d)", name, tm, p.Budget.BudgetBytes)
	}
	if p.Budget.WorstCaseBytes <= p.Budget.BudgetBytes && tm[1]*4096 < p.Budget.WorstCaseBytes {
		t.Fatalf("%s: tcp_mem pressure %d pages below the worst case %d bytes", name, tm[1], p.Budget.WorstCaseBytes)
	}
	basis := p.Budget.BasisBytes / 1024
	if mf := last("vm.min_free_kbytes"); mf > max(basis/20, plan.KernelDefaultMinFreeKBytesForVersion(basis, kv)) || mf > int64(in.MemoryBytes/1024*5/100) {
		t.Fatalf("%s: min_free_kbytes %d above 5 %% of %d kB", name, mf, basis)
	}
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
			t.Errorf("%v/%d streams on %s: planned %d/%d/%d/%d, kernel defaults %v/%v/%d/%d (warnings %q)", plan.FormatBitsPerSec(in.BandwidthBitsPerSec), in.Streams, in.KernelVersion,
				p.RcvBufBytes, p.SndBufBytes, p.CoreRmemMaxBytes, p.CoreWmemMaxBytes, d.TCPRmem, d.TCPWmem, d.RmemMax, d.WmemMax, p.Warnings)
		}
		for _, c := range p.Settings {
			if c.Why == "" {
				t.Errorf("%s has no reason", c.Key)
			}
		}
	}
}
