package kernel

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

func TestReleaseForms(t *testing.T) {
	for _, c := range []struct {
		line, release, arch string
		want                [3]int
	}{
		{"Linux version 2.6.30-1-kirkwood (Debian 2.6.30-1) (gcc version 4.3.3 (Debian 4.3.3-10) ) #1 Tue Jun 30 07:54:16 UTC 2009", "2.6.30-1-kirkwood", "", [3]int{2, 6, 30}},
		{"Linux nas 2.6.30-1-kirkwood #1 Tue Jun 30 07:54:16 UTC 2009 armv5tel GNU/Linux", "2.6.30-1-kirkwood", "armv5tel", [3]int{2, 6, 30}},
		{"Linux web1 6.1.0-13-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.55-1 (2023-09-29) x86_64 GNU/Linux", "6.1.0-13-amd64", "x86_64", [3]int{6, 1, 0}},
		{"Linux rt 4.14.0 #2 Mon Jan 1 00:00:00 UTC 2018 mipsel GNU/Linux", "4.14.0", "mipsel", [3]int{4, 14, 0}},
		{"CPU: 3 PID: 0 Comm: swapper/3 Not tainted 4.19.0-6-amd64 #1 Debian 4.19.67-2+deb10u2", "4.19.0-6-amd64", "", [3]int{4, 19, 0}},
		{"CPU: 1 PID: 77 Comm: kswapd0 Tainted: G        W  O      5.10.0-8-amd64 #1 Debian", "5.10.0-8-amd64", "", [3]int{5, 10, 0}},
		{"Pid: 1, comm: swapper Tainted: G        W  2.6.32-431.el6.x86_64 #1", "2.6.32-431.el6.x86_64", "", [3]int{2, 6, 32}},
	} {
		rel, arch, ok := ReleaseInLine(c.line)
		if !ok || rel != c.release || arch != c.arch {
			t.Errorf("ReleaseInLine(%q) = %q %q %v, want %q %q", c.line, rel, arch, ok, c.release, c.arch)
		}
		v, err := ParseKernelVersion(c.line)
		if err != nil || [3]int{v.Major, v.Minor, v.Patch} != c.want {
			t.Errorf("ParseKernelVersion(%q) = %v, %v; want %v", c.line, v, err, c.want)
		}
	}
	for _, s := range []string{"v5.10", "5.10"} {
		if v, err := ParseKernelVersion(s); err != nil || !v.AtLeast(5, 10, 0) || v.AtLeast(5, 10, 1) {
			t.Errorf("%q: %v %v", s, v, err)
		}
	}
	for _, s := range []string{"Linux is great", "CPU: 0 Not tainted", "the kernel"} {
		if _, _, ok := ReleaseInLine(s); ok {
			t.Errorf("ReleaseInLine(%q) found a release", s)
		}
	}
}

func TestCompareAndWithin(t *testing.T) {
	a, b := KV(4, 19, 0), KV(5, 0, 0)
	if a.Compare(b) != -1 || b.Compare(a) != 1 || a.Compare(a) != 0 {
		t.Error("Compare")
	}
	if (KernelVersion{}).Compare(a) != -1 || (KernelVersion{}).Within(KV(0, 0, 0), KV(99, 0, 0)) {
		t.Error("an unknown version is older than any and within no range")
	}
	if !KV(4, 20, 3).Within(KV(4, 15, 0), KV(4, 20, 999)) || KV(5, 0, 0).Within(KV(4, 15, 0), KV(4, 20, 999)) {
		t.Error("Within")
	}
	if KV(2, 6, 11).Next() != KV(2, 6, 12) {
		t.Error("Next")
	}
}

func TestArchWordBits(t *testing.T) {
	for arch, bits := range map[string]int{
		"x86_64": 64, "i686": 32, "i386": 32, "armv5tel": 32, "armv7l": 32, "aarch64": 64, "arm64": 64,
		"ppc64le": 64, "ppc64": 64, "ppc": 32, "s390x": 64, "riscv64": 64, "mips": 32, "mipsel": 32,
		"mips64el": 64, "sh4": 32, "alpha": 64, "sparc64": 64, "loongarch64": 64, " X86_64 ": 64,
		"": 0, "weird": 0, "vax": 0,
	} {
		if got := ArchWordBits(arch); got != bits {
			t.Errorf("ArchWordBits(%q) = %d, want %d", arch, got, bits)
		}
	}
}

func TestArchFamily(t *testing.T) {
	for arch, fam := range map[string]string{"x86_64": "x86", "i686": "x86", "armv5tel": "arm", "aarch64": "arm64", "ppc": "powerpc",
		"ppc64le": "powerpc", "mipsel": "mips", "sh4": "sh", "alpha": "alpha", "s390x": "s390", "": "", "vax": ""} {
		if got := ArchFamily(arch); got != fam {
			t.Errorf("ArchFamily(%q) = %q, want %q", arch, got, fam)
		}
	}
}
