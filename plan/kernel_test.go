package plan

import (
	"strings"
	"testing"
)

func TestParseKernelVersion(t *testing.T) {
	good := map[string][3]int{
		"6.18.44-fc-v669":        {6, 18, 44},
		"2.6.13-2smp":            {2, 6, 13},
		"4.9":                    {4, 9, 0},
		"3.10.0-1160.el7.x86_64": {3, 10, 0},
		"5.15.0+":                {5, 15, 0},
	}
	for s, want := range good {
		v, err := ParseKernelVersion(s)
		if err != nil || !v.Known || [3]int{v.Major, v.Minor, v.Patch} != want {
			t.Errorf("ParseKernelVersion(%q) = %+v, %v; want %v", s, v, err, want)
		}
	}
	if v, err := ParseKernelVersion(""); err != nil || v.Known {
		t.Errorf(`ParseKernelVersion("") = %+v, %v; want unknown, no error`, v, err)
	}
	for _, s := range []string{"abc", "6", "6.x", "-1.2", ".6.1"} {
		if v, err := ParseKernelVersion(s); err == nil {
			t.Errorf("ParseKernelVersion(%q) = %+v, want error", s, v)
		}
	}
	v, _ := ParseKernelVersion("6.6.0")
	cases := []struct {
		a, b, c int
		want    bool
	}{{6, 6, 0, true}, {6, 5, 99, true}, {6, 6, 1, false}, {6, 10, 0, false}, {2, 6, 13, true}, {7, 0, 0, false}}
	for _, c := range cases {
		if got := v.AtLeast(c.a, c.b, c.c); got != c.want {
			t.Errorf("6.6.0.AtLeast(%d,%d,%d) = %v", c.a, c.b, c.c, got)
		}
	}
	if (KernelVersion{}).AtLeast(0, 0, 0) {
		t.Error("an unknown version must not be AtLeast anything")
	}
}

func FuzzParseKernelVersion(f *testing.F) {
	for _, s := range []string{"6.18.44-fc-v669", "2.6.13", "", "1.", "9999999999.1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseKernelVersion(s)
		if err == nil && strings.TrimSpace(s) != "" && !v.Known {
			t.Fatalf("%q parsed without error but unknown", s)
		}
	})
}

func TestWordBitsAndLowmem(t *testing.T) {
	for arch, want := range map[string]int{"x86_64": 64, "i686": 32, "armv5tel": 32, "armv7l": 32, "aarch64": 64, "ppc64le": 64, "mips": 32} {
		if got, err := WordBits(arch); err != nil || got != want {
			t.Errorf("WordBits(%q) = %d, %v; want %d", arch, got, err, want)
		}
	}
	for _, arch := range []string{"", "vax"} {
		if _, err := WordBits(arch); err == nil {
			t.Errorf("WordBits(%q) accepted", arch)
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
