package plan

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"headroom/kernel"
)

// The lab's atomic-rx-refill guest (docs/lab-results.md): Debian 6.1.0-56-amd64 in 384 MiB
// (MemTotal 337360 kB), no swap, a 200 MiB service, the root file system on tmpfs, a
// receiver on a 1 Gbit/s-class virtio-net with a 1024-entry RX ring. testdata/guest-atomic-rx
// holds its own /proc/meminfo and sysctls after the load (the before guest of 04:06 UTC,
// seed configuration min_free_kbytes 512).
func guestAtomicRxInput(t *testing.T) Input {
	t.Helper()
	f, err := os.Open("testdata/guest-atomic-rx/meminfo-after-load.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	mi, err := kernel.ParseMemInfo(f)
	if err != nil {
		t.Fatal(err)
	}
	in := Input{BandwidthBitsPerSec: 1e9, RTT: time.Millisecond, Streams: 8, KernelVersion: "6.1.0-56-amd64", Arch: "x86_64",
		CPUs: 1, NICs: []NIC{{Name: "eth0", RxRing: 1024, RxRingMax: 1024}}, MemInfoKB: map[string]int64{}, Current: map[string]string{}}
	for i := 0; i < mi.Len(); i++ {
		k, v := mi.At(i)
		in.MemInfoKB[k] = v
	}
	in.MemoryBytes = in.MemInfoKB["MemTotal"] * 1024
	b, err := os.ReadFile("testdata/guest-atomic-rx/sysctl.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, " = "); ok {
			in.Current[k] = strings.Join(strings.Fields(v), " ")
		}
	}
	return in
}

// settingInts is a planned setting's value as integers (one, or tcp_mem's three).
func settingInts(t *testing.T, p Plan, key string) []int64 {
	t.Helper()
	c := setting(t, p, key)
	var out []int64
	for _, f := range strings.Fields(c.Recommended) {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			t.Fatalf("%s = %q", key, c.Recommended)
		}
		out = append(out, v)
	}
	return out
}

// What the guest runs showed (docs/lab-results.md, the atomic-rx-refill rows): with
// min_free_kbytes 8434 and watermark_scale_factor 125 (tcp_mem max at the default, 7086
// pages) one GFP_ATOMIC refill failed in 242 s and nothing was killed; with 16868 and 543 no
// refill failed and the OOM killer ended the service.
const (
	guestMemTotalKB = 337360
	// The atomic allocations' room after kswapd wakes (5/8 min + the gap) that still failed:
	// 5/8 × 8434 + 337360 × 125 / 10000.
	guestFailedCoverKB = 8434*5/8 + guestMemTotalKB*125/10000
	// What the reserve and TCP's cap took from the page cache in the run that ran its load
	// without an OOM kill: 8434 + 2 × 4217 + 7086 pages.
	guestNoOOMTakenKB = 8434 + 2*(guestMemTotalKB*125/10000) + 7086*4
	// ... and in the run whose service the OOM killer ended: 16868 + 2 × 18318 + 7086 pages.
	guestOOMTakenKB = 16868 + 2*(guestMemTotalKB*543/10000) + 7086*4
)

// The plan for the guest must give atomic allocations more room than the setting that
// failed, and take no more from the page cache than the setting that ran without an OOM
// kill: it does so by taking back TCP's cap, memory reclaim cannot free either.
func TestReserveFitsTheAtomicRxGuest(t *testing.T) {
	in := guestAtomicRxInput(t)
	p, err := Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	minKB := settingInts(t, p, "vm.min_free_kbytes")[0]
	wsf := settingInts(t, p, "vm.watermark_scale_factor")[0]
	tcp := settingInts(t, p, "net.ipv4.tcp_mem")
	gap := max(minKB/4, guestMemTotalKB*wsf/10000)
	cover := minKB*5/8 + gap
	taken := ReserveKB(minKB, wsf, guestMemTotalKB) + tcp[2]*4
	t.Logf("min_free_kbytes %d, watermark_scale_factor %d, tcp_mem %v: atomic room %d kB (failed at %d), taken from the cache %d kB (no OOM at %d, OOM at %d)",
		minKB, wsf, tcp, cover, guestFailedCoverKB, taken, guestNoOOMTakenKB, guestOOMTakenKB)
	// One burst at 1 Gbit/s for 100 ms in 2048-byte buffers plus the 1024-entry ring.
	burst := int64(8128) * 2048 / 1024 // ⌈1e9 ÷ 8 ÷ 1538 × 0.1⌉ frames
	if need := burst + 1024*2; cover < need {
		t.Errorf("atomic room after kswapd wakes %d kB, below the burst + ring %d kB", cover, need)
	}
	if cover <= guestFailedCoverKB {
		t.Errorf("atomic room %d kB, no more than the %d kB that failed in the guest", cover, guestFailedCoverKB)
	}
	if taken > guestNoOOMTakenKB {
		t.Errorf("reserve + TCP's cap take %d kB from the page cache, more than the %d kB the guest ran with without an OOM kill", taken, guestNoOOMTakenKB)
	}
	if tcp[2] >= 7086 {
		t.Errorf("tcp_mem max %d not lowered from the guest's 7086", tcp[2])
	}
	var warned bool
	for _, w := range p.Warnings {
		warned = warned || strings.HasPrefix(w, "net.ipv4.tcp_mem max lowered") && strings.Contains(w, "reserve")
	}
	if !warned {
		t.Errorf("tcp_mem lowered below the kernel default without a warning naming the reserve: %q", p.Warnings)
	}
	// The setting that OOM-killed the service does not fit by the same measure.
	u, _, ok := UnreclaimableKB(in.MemInfoKB, false)
	if !ok {
		t.Fatal("meminfo not understood")
	}
	if fit := ReserveFitKB(guestMemTotalKB-u-7086*4, dirtyShare{ratio: 20}); fit >= ReserveKB(16868, 543, guestMemTotalKB) {
		t.Errorf("the reserve that OOM-killed the guest's service (%d kB) fits by the model (%d kB)", ReserveKB(16868, 543, guestMemTotalKB), fit)
	}
}

// A host whose service holds so much that not even the kernel's own reserve fits: plan says
// so and what the host needs, and does not raise the reserve beyond the kernel's default.
func TestReserveNoSettingFits(t *testing.T) {
	in := guestAtomicRxInput(t)
	in.MemInfoKB["AnonPages"] = 300000
	p, err := Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	def := KernelDefaultMinFreeKBytes(guestMemTotalKB)
	if v := settingInts(t, p, "vm.min_free_kbytes")[0]; v != def {
		t.Errorf("min_free_kbytes %d, want the kernel default %d when no reserve fits", v, def)
	}
	if v := settingInts(t, p, "vm.watermark_scale_factor")[0]; v != 10 {
		t.Errorf("watermark_scale_factor %d, want the default 10 when no reserve fits", v)
	}
	var said bool
	for _, w := range p.Warnings {
		said = said || strings.Contains(w, "no reserve fits") && strings.Contains(w, "memory.max") && strings.Contains(w, "Add ")
	}
	if !said {
		t.Errorf("no warning that no reserve fits and what the host needs: %q", p.Warnings)
	}
}

// A host where a reserve fits but not one that covers the burst: plan keeps what fits and
// says how much memory the burst needs.
func TestReserveFitsButDoesNotCover(t *testing.T) {
	in := guestAtomicRxInput(t)
	in.MemInfoKB["AnonPages"] = 260000
	p, err := Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	var said bool
	for _, w := range p.Warnings {
		said = said || strings.Contains(w, "does not cover the receive burst") && strings.Contains(w, "Add ")
	}
	if !said {
		t.Errorf("no warning that the reserve that fits does not cover the burst: %q", p.Warnings)
	}
	if err := p.Check(); err != nil {
		t.Error(err)
	}
}

func TestUnreclaimableKB(t *testing.T) {
	mi := map[string]int64{"MemTotal": 1000, "AnonPages": 300, "Shmem": 50, "SwapFree": 120, "Unevictable": 40, "Mlocked": 10, "SUnreclaim": 20, "KernelStack": 5, "PageTables": 5}
	if kb, _, ok := UnreclaimableKB(mi, false); !ok || kb != 230+30+30 {
		t.Errorf("UnreclaimableKB = %d, %v; want 290 (anon + shmem beyond free swap 230, unevictable − mlocked 30, kernel 30)", kb, ok)
	}
	if kb, _, ok := UnreclaimableKB(mi, true); !ok || kb != 30 {
		t.Errorf("lowmem basis: %d, want the kernel's own 30", kb)
	}
	if _, _, ok := UnreclaimableKB(map[string]int64{"MemTotal": 1000}, false); ok {
		t.Error("meminfo without AnonPages understood")
	}
	if _, _, ok := UnreclaimableKB(nil, false); ok {
		t.Error("no meminfo understood")
	}
}
