package plan

import (
	"testing"
)

func TestWordBitsAndLowmem(t *testing.T) {
	for arch, want := range map[string]int{"x86_64": 64, "i686": 32, "armv5tel": 32, "armv7l": 32, "aarch64": 64, "ppc64le": 64, "mips": 32} {
		if got, err := wordBits(arch); err != nil || got != want {
			t.Errorf("wordBits(%q) = %d, %v; want %d", arch, got, err, want)
		}
	}
	for _, arch := range []string{"", "vax"} {
		if _, err := wordBits(arch); err == nil {
			t.Errorf("wordBits(%q) accepted", arch)
		}
	}
	// Seed 004's zone dump: DMA present 16384 kB + Normal present 901120 kB.
	if got, _, err := LowmemLimitBytes("i686"); err != nil || got != (16384+901120)*1024 {
		t.Errorf("LowmemLimitBytes(i686) = %d, %v; want %d", got, err, (16384+901120)*1024)
	}
	if got, _, err := LowmemLimitBytes("armv5tel"); err != nil || got != 760<<20 {
		t.Errorf("LowmemLimitBytes(armv5tel) = %d, %v", got, err)
	}
	if _, _, err := LowmemLimitBytes("x86_64"); err == nil {
		t.Error("LowmemLimitBytes(x86_64) must fail: no HighMem split")
	}
}
