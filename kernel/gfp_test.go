package kernel

import (
	"strings"
	"testing"
)

func TestDecodeGFPByEra(t *testing.T) {
	for _, c := range []struct {
		mode   uint64
		kernel string
		want   string
	}{
		{0x20, "2.4.19", "GFP_ATOMIC"},
		{0x1f0, "2.4.19", "GFP_KERNEL"},
		{0x20, "2.6.13-2smp", "GFP_ATOMIC"},
		{0x20, "2.6.30-1", "GFP_ATOMIC"},
		{0xd0, "2.6.18", "GFP_KERNEL"},
		{0x4020, "3.10.0-957.el7.x86_64", "GFP_ATOMIC|__GFP_COMP"},
		{0x280da, "3.10.0", "GFP_HIGHUSER_MOVABLE|__GFP_ZERO"},
		{0x2080020, "4.4.0-127-generic", "GFP_ATOMIC"},
		{0x24000c0, "4.8.0", "GFP_KERNEL"},
		{0x1080020, "4.13.0", "GFP_ATOMIC"},
		{0x14200ca, "4.14.1", "GFP_HIGHUSER_MOVABLE"},
		{0x480020, "4.19.0-6-amd64", "GFP_ATOMIC"},
		{0x6000c0, "4.19.0", "GFP_KERNEL"},
		{0x6200ca, "4.19.0", "GFP_HIGHUSER_MOVABLE"},
		{0xa20, "5.10.0", "GFP_ATOMIC"},
		{0xcc0, "5.15.0", "GFP_KERNEL"},
		{0x100cca, "5.4.0", "GFP_HIGHUSER_MOVABLE"},
		{0x820, "6.6.15-amd64", "GFP_ATOMIC"},
		{0x820, "6.1.0", "GFP_NOWAIT|__GFP_HIGH"}, // 6.1 still had __GFP_ATOMIC: its GFP_ATOMIC is 0xa20
		{0x140cca, "6.8.0", "GFP_HIGHUSER_MOVABLE|__GFP_COMP"},
		{0xa20, "6.5.0", "GFP_ATOMIC|0x200"}, // __GFP_ATOMIC no longer exists in 6.3+
	} {
		flags, cands, note := DecodeGFP(c.mode, c.kernel)
		if got := strings.Join(flags, "|"); got != c.want || cands != nil || note == "" {
			t.Errorf("%#x on %s: %q (candidates %v, note %q), want %q", c.mode, c.kernel, got, cands, note, c.want)
		}
	}
}

func TestDecodeGFPUnknownKernel(t *testing.T) {
	flags, cands, note := DecodeGFP(0x20, "")
	if flags != nil || len(cands) < 2 || !strings.Contains(note, "unknown") {
		t.Fatalf("unknown kernel: flags %v candidates %v note %q", flags, cands, note)
	}
	if cands[0].Flags[0] != "GFP_ATOMIC" || !strings.Contains(cands[0].Kernels, "2.6.0-2.6.22") {
		t.Errorf("first candidate %+v", cands[0])
	}
	_, cands, note = DecodeGFP(0x480020, "5.0.0")
	if len(cands) != 2 || !strings.Contains(note, "4.19") {
		t.Errorf("boundary kernel: %v %q", cands, note)
	}
}

func TestIsAtomicGFP(t *testing.T) {
	for _, c := range []struct {
		mode    uint64
		printed string
		kernel  string
		atomic  bool
		ok      bool
	}{
		{0x20, "0x20", "2.6.30", true, true},
		{0xd0, "0xd0", "2.6.30", false, true},
		{0x20, "0x20", "", true, true}, // every era agrees
		{0x1f0, "0x1f0", "", false, false},
		{0x2080020, "0x2080020(GFP_ATOMIC)", "", true, true},
		{0x24000c0, "0x24000c0(GFP_KERNEL)", "", false, true},
		{0x400, "0x400", "5.10", false, true},
		{0x400, "0x400", "4.19", true, true},
	} {
		a, ok, why := IsAtomicGFP(c.mode, c.printed, c.kernel)
		if a != c.atomic || ok != c.ok || why == "" {
			t.Errorf("%s on %q: atomic %v ok %v (%s), want %v %v", c.printed, c.kernel, a, ok, why, c.atomic, c.ok)
		}
	}
}

func FuzzGFP(f *testing.F) {
	for _, m := range []uint64{0, 0x20, 0x2080020, 0xcc0, 1 << 40, ^uint64(0)} {
		f.Add(m, "")
		f.Add(m, "2.6.30-1")
		f.Add(m, "4.20.0")
	}
	f.Fuzz(func(t *testing.T, mode uint64, release string) {
		flags, cands, note := DecodeGFP(mode, release)
		if flags == nil && cands == nil && note == "" {
			t.Fatalf("%#x on %q: no decoding and no reason", mode, release)
		}
		_, _, why := IsAtomicGFP(mode, "", release)
		if why == "" {
			t.Fatal("IsAtomicGFP gave no reason")
		}
	})
}

func TestGFPFlagSetAndClasszone(t *testing.T) {
	f := GFPFlagSet([]string{"GFP_HIGHUSER_MOVABLE", "__GFP_NOWARN"})
	if GFPClasszone(f) != "Movable" || !f["NOWARN"] || !f["HARDWALL"] {
		t.Errorf("%v → %s", f, GFPClasszone(f))
	}
	if GFPClasszone(GFPFlagSet([]string{"GFP_DMA32"})) != "DMA32" || GFPClasszone(GFPFlagSet([]string{"GFP_ATOMIC"})) != "Normal" ||
		GFPClasszone(GFPFlagSet([]string{"GFP_KERNEL", "__GFP_DMA"})) != "DMA" || GFPClasszone(GFPFlagSet([]string{"GFP_HIGHUSER"})) != "HighMem" {
		t.Error("classzone")
	}
	if !GFPFlagSet([]string{"GFP_ATOMIC"})["HIGH"] {
		t.Error("GFP_ATOMIC implies __GFP_HIGH")
	}
	if !GFPAccounted(GFPFlagSet([]string{"GFP_KERNEL_ACCOUNT"})) || !GFPAccounted(GFPFlagSet([]string{"GFP_KERNEL", "__GFP_ACCOUNT"})) ||
		GFPAccounted(GFPFlagSet([]string{"GFP_KERNEL"})) {
		t.Error("__GFP_ACCOUNT")
	}
}

func TestClassifyGFP(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		name   string
		atomic *bool
		flags  []string
		cands  []GFPCandidate
		want   string
	}{
		{"GFP_ATOMIC", &yes, []string{"GFP_ATOMIC", "__GFP_COMP"}, nil, GFPClassAtomic},
		{"__GFP_ATOMIC alone", &yes, []string{"__GFP_ATOMIC", "__GFP_NOWARN"}, nil, GFPClassAtomic},
		{"GFP_NOWAIT", &yes, []string{"GFP_NOWAIT"}, nil, GFPClassNowait},
		{"GFP_KERNEL", &no, []string{"GFP_KERNEL"}, nil, GFPClassKernel},
		{"GFP_HIGHUSER_MOVABLE", &no, []string{"GFP_HIGHUSER_MOVABLE"}, nil, GFPClassUser},
		{"undecidable", nil, []string{"GFP_KERNEL"}, nil, GFPClassUnknown},
		{"eras agree", &yes, nil, []GFPCandidate{{"a", []string{"GFP_ATOMIC"}}, {"b", []string{"__GFP_HIGH", "__GFP_ATOMIC"}}}, GFPClassAtomic},
		{"eras disagree", &yes, nil, []GFPCandidate{{"a", []string{"GFP_ATOMIC"}}, {"b", []string{"__GFP_DMA"}}}, GFPClassUnknown},
		{"no names, reclaim", &no, nil, nil, GFPClassKernel},
	} {
		if got := ClassifyGFP(c.atomic, c.flags, c.cands); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

func TestGFPMayUseHighAtomic(t *testing.T) {
	atomic44 := GFPFlagSet(GFPNames("0x2080020", 0x2080020, "4.4.0"))
	if !GFPMayUseHighAtomic(atomic44, true, 2, KV(4, 4, 0)) {
		t.Error("4.4 GFP_ATOMIC order 2 may use the highatomic reserve")
	}
	if GFPMayUseHighAtomic(atomic44, true, 0, KV(4, 4, 0)) || GFPMayUseHighAtomic(atomic44, true, 2, KV(4, 3, 0)) ||
		GFPMayUseHighAtomic(atomic44, true, 2, KernelVersion{}) {
		t.Error("order 0, before 4.4 and an unknown kernel: no highatomic reserve")
	}
	nowait := GFPFlagSet([]string{"GFP_NOWAIT"})
	if GFPMayUseHighAtomic(nowait, true, 2, KV(5, 10, 0)) || !GFPMayUseHighAtomic(nowait, true, 2, KV(6, 6, 0)) {
		t.Error("GFP_NOWAIT: ALLOC_HARDER needs __GFP_ATOMIC before 6.3; any non-blocking request from 6.3")
	}
	if GFPMayUseHighAtomic(GFPFlagSet([]string{"GFP_ATOMIC", "__GFP_NOMEMALLOC"}), true, 3, KV(5, 4, 0)) {
		t.Error("__GFP_NOMEMALLOC drops ALLOC_HARDER")
	}
}

func TestDecodeGFPMode(t *testing.T) {
	d := DecodeGFPMode("0x2080020(GFP_ATOMIC)", 0x2080020, "")
	if len(d.Flags) != 1 || d.Flags[0] != "GFP_ATOMIC" || d.Atomic == nil || !*d.Atomic {
		t.Errorf("symbolic: %+v", d)
	}
	d = DecodeGFPMode("0x1f0", 0x1f0, "")
	if len(d.Flags) != 0 || d.Flags == nil || len(d.Candidates) < 2 || d.Atomic != nil {
		t.Errorf("unknown era, eras disagree: %+v", d)
	}
	if got, ok := ParseGFPNumber("0x20/0"); !ok || got != 0x20 {
		t.Errorf("2.4 form gfp=0x20/0: %#x %v", got, ok)
	}
}

// A mode the paste mangled is unknown, never 0: 0 decodes as GFP_NOWAIT, atomic, which would
// turn a sleeping allocation into a failed atomic one (corpus 399 before its '**' was trimmed).
func TestDecodeGFPModeUnreadable(t *testing.T) {
	for _, printed := range []string{"0xc0d0**", "0xzz", "mode"} {
		d := DecodeGFPMode(printed, 0, "3.10.0")
		if d.Atomic != nil || len(d.Flags) != 0 || !strings.Contains(d.Note, "could not be read") {
			t.Errorf("%q: atomic %v flags %v note %q", printed, d.Atomic, d.Flags, d.Note)
		}
	}
	if d := DecodeGFPMode("0xc0d0", 0xc0d0, "3.10.0"); d.Atomic == nil || *d.Atomic {
		t.Errorf("0xc0d0 on 3.10 is GFP_KERNEL-based and may sleep: %+v", d)
	}
}
