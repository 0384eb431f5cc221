package plan

import (
	"strings"
	"testing"
	"time"

	"headroom/kernel"
)

// issue35 is the issue's row: 64 flows through 1 Gbit/s over 20 ms on a 512 MiB host.
func issue35(fq kernel.Availability) Input {
	return Input{BandwidthBitsPerSec: 1e9, RTT: 20 * time.Millisecond, Streams: 64,
		MemoryBytes: 512 << 20, Arch: "x86_64", KernelVersion: "6.18.44", FQ: fq}
}

func TestManyFlowsThreshold(t *testing.T) {
	mss := MSSBytes(1500)
	if mss != 1448 {
		t.Fatalf("MSS at MTU 1500 = %d, want 1448", mss)
	}
	bdp := BDPBytes(1e9, 20*time.Millisecond) // 2,500,000 B
	for _, c := range []struct {
		streams int
		want    bool
	}{
		{1, false},  // one flow is never "many", whatever its window
		{8, false},  // 216 segments each: 8 × 8 × 1448 = 92,672 B < 2,500,000 ÷ 16 = 156,250 B
		{13, false}, // 13 × 11584 = 150,592 < 156,250
		{14, true},  // 14 × 11584 = 162,176 ≥ 156,250 (a share of 123 segments)
		{16, true},  // 108 segments each
		{64, true},  // the issue's row: 27 segments each
		{256, true},
	} {
		if got := ManyFlows(c.streams, bdp, mss); got != c.want {
			t.Errorf("ManyFlows(%d streams, BDP %d) = %v, want %v", c.streams, bdp, got, c.want)
		}
	}
	if ManyFlows(64, 0, mss) || ManyFlows(64, bdp, 0) {
		t.Error("ManyFlows without a BDP or an MSS must be false")
	}
}

// The issue's row: the flows get a loss-based congestion control, the per-socket maxima stay
// at the kernel's defaults (room for a flow that runs alone), tcp_notsent_lowat is the share's
// 10 ms, tcp_mem keeps its band, and the pacing advice follows what the kernel has.
func TestManyFlowsPlan(t *testing.T) {
	p := mustCompute(t, issue35(kernel.Unknown))
	if got := setting(t, p, "net.ipv4.tcp_congestion_control"); got.Recommended != "cubic" ||
		!strings.Contains(got.Why, "64 streams share the link") || !strings.Contains(got.Why, "27.0 segments") {
		t.Errorf("congestion control = %+v, want cubic with the flows' numbers", got)
	}
	// 6.18 on 512 MiB: tcp_wmem max default = max(64 KiB, min(4 MiB, 512 MiB ÷ 128)) = 4 MiB.
	kv, err := kernel.ParseKernelVersion("6.18.44")
	if err != nil {
		t.Fatal(err)
	}
	d := KernelDefaultBuffers(kv, 512<<20)
	if p.SndBufBytes < d.TCPWmem[2] || p.RcvBufBytes < d.TCPRmem[2] {
		t.Errorf("maxima %d/%d below the kernel defaults %d/%d", p.RcvBufBytes, p.SndBufBytes, d.TCPRmem[2], d.TCPWmem[2])
	}
	// 15.625 Mbit/s × 10 ms = 19,532 B → 5 pages.
	if got := setting(t, p, "net.ipv4.tcp_notsent_lowat").Recommended; got != "20480" {
		t.Errorf("tcp_notsent_lowat = %s, want 20480", got)
	}
	tm := settingInts(t, p, "net.ipv4.tcp_mem")
	if tm[2]*4 < tm[1]*5 {
		t.Errorf("tcp_mem %v has no pressure band (max < 5/4 × pressure)", tm)
	}
	if hasSetting(p, "net.core.default_qdisc") {
		t.Error("fq unknown: default_qdisc must be advice (a note), not a change tune would apply")
	}
	if !hasNote(p, "set net.core.default_qdisc = fq where the kernel has sch_fq") {
		t.Errorf("no pacing note: %q", p.Notes)
	}

	p = mustCompute(t, issue35(kernel.Available))
	if got := setting(t, p, "net.core.default_qdisc"); got.Recommended != "fq" || !strings.Contains(got.Why, "1.2 × cwnd ÷ srtt") {
		t.Errorf("fq available: default_qdisc = %+v", got)
	}
	p = mustCompute(t, issue35(kernel.Unavailable))
	if hasSetting(p, "net.core.default_qdisc") || !hasNote(p, "pacing: none for these flows: this kernel has no fq qdisc") {
		t.Errorf("fq unavailable: want no qdisc change and a note that nothing paces, got notes %q", p.Notes)
	}
	numbers := map[string]float64{}
	for _, x := range p.Numbers {
		numbers[x.Name] = x.Value
	}
	if numbers["BDP per stream in segments"] < 26.9 || numbers["BDP per stream in segments"] > 27.0 ||
		numbers["BBR fixed surplus"] != 64*8*1448 {
		t.Errorf("numbers: %v segments, %v B surplus", numbers["BDP per stream in segments"], numbers["BBR fixed surplus"])
	}
}

// Few flows keep BBR; many flows on a kernel without cubic keep BBR and say what to expect;
// a receiver plans no sender settings at all.
func TestManyFlowsOtherCases(t *testing.T) {
	in := issue35(kernel.Unknown)
	in.Streams = 8
	if got := setting(t, mustCompute(t, in), "net.ipv4.tcp_congestion_control").Recommended; got != "bbr" {
		t.Errorf("8 streams: congestion control %q, want bbr", got)
	}
	in = issue35(kernel.Unknown)
	in.Current = map[string]string{"net.ipv4.tcp_available_congestion_control": "reno bbr"}
	p := mustCompute(t, in)
	if got := setting(t, p, "net.ipv4.tcp_congestion_control").Recommended; got != "bbr" {
		t.Errorf("no cubic: congestion control %q, want bbr", got)
	}
	if !hasWarning(p, "this kernel offers no cubic") {
		t.Errorf("no cubic: no warning in %q", p.Warnings)
	}
	in = issue35(kernel.Unknown)
	in.Role = RoleReceiver
	if got := setting(t, mustCompute(t, in), "net.ipv4.tcp_congestion_control").Recommended; got != "bbr" {
		t.Errorf("receiver: congestion control %q, want bbr (a receiver's flows are sent elsewhere)", got)
	}
	// 256 flows at 1 Gbit/s over 1 ms: 256 × 2 × 1448 B = 741,376 B of minimum windows
	// against a 125,000 B BDP: the plan says that a queue of 616,376 B stands whatever it sets.
	in = issue35(kernel.Unknown)
	in.Streams, in.RTT = 256, time.Millisecond
	if p := mustCompute(t, in); !hasNote(p, "at least 602 KiB stands in the bottleneck's queue") {
		t.Errorf("256 flows over 1 ms: no minimum-window note in %q", p.Notes)
	}
	if hasNote(mustCompute(t, issue35(kernel.Unknown)), "stands in the bottleneck's queue") {
		t.Error("64 flows over 20 ms (185 kB of minimum windows, BDP 2.5 MB): no minimum-window note expected")
	}
	// 2.6.32 has cubic (2.6.19+) but no fq (3.12): no pacing, said so.
	in = issue35(kernel.Unknown)
	in.KernelVersion = "2.6.32"
	p = mustCompute(t, in)
	if got := setting(t, p, "net.ipv4.tcp_congestion_control").Recommended; got != "cubic" || !hasNote(p, "fq came in 3.12") {
		t.Errorf("2.6.32: congestion control %q, notes %q", got, p.Notes)
	}
}

func hasNote(p Plan, sub string) bool {
	for _, n := range p.Notes {
		if strings.Contains(n, sub) {
			return true
		}
	}
	return false
}

func hasWarning(p Plan, sub string) bool {
	for _, n := range p.Warnings {
		if strings.Contains(n, sub) {
			return true
		}
	}
	return false
}
