package artifact

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

func TestKnownSysctl(t *testing.T) {
	for _, c := range []struct {
		key     string
		known   bool
		suggest string
	}{
		{"vm.min_free_kbytes", true, ""},
		{"vm.min_kbytes_free", false, "vm.min_free_kbytes"},
		{"/proc/sys/vm/min_kbytes_free", false, "vm.min_free_kbytes"},
		{"net.ipv4.tcp_rmen", false, "net.ipv4.tcp_rmem"},
		{"net.ipv4.tcp_tw_recycle", true, ""},
		{"net.core.hot_list_length", true, ""},
		{"net.ipv4.conf.eth7.rp_filter", true, ""},
		{"net.ipv6.neigh.bond0.gc_stale_time", true, ""},
		{"kernel.frobnicate_everything", false, ""},
	} {
		known, sug := KnownSysctl(c.key)
		if known != c.known || sug != c.suggest {
			t.Errorf("%s: known %v suggest %q, want %v %q", c.key, known, sug, c.known, c.suggest)
		}
	}
	if note, ok := SysctlNote("net.ipv4.tcp_tw_recycle"); !ok || !strings.Contains(note, "4.12") {
		t.Errorf("tcp_tw_recycle note %q", note)
	}
}
