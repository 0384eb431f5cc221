package kernel

import (
	"bytes"
	"testing"
)

func TestParseMemInfo(t *testing.T) {
	host, err := ParseMemInfo(bytes.NewReader(member(t, hostFixture, "proc/meminfo")))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Count(member(t, hostFixture, "proc/meminfo"), []byte("\n"))
	if host.Len() != lines {
		t.Errorf("%d counters from %d lines", host.Len(), lines)
	}
	for _, name := range []string{"MemTotal", "MemFree", "MemAvailable", "Active(file)", "HugePages_Total", "Hugepagesize"} {
		if !host.Has(name) {
			t.Errorf("6.18 meminfo lacks %s", name)
		}
	}
	if host.Has("LowTotal") {
		t.Error("a 64-bit kernel has no LowTotal")
	}
	total, _ := host.Get("MemTotal")
	free, _ := host.Get("MemFree")
	if total <= 0 || free <= 0 || free > total {
		t.Errorf("MemTotal %d, MemFree %d", total, free)
	}

	// 2.6.13 with HIGHMEM: the lowmem lines exist and add up.
	old, err := ParseMemInfo(bytes.NewReader(member(t, "testdata/layouts/2.6.13-i686-seed004.txtar", "proc/meminfo")))
	if err != nil {
		t.Fatal(err)
	}
	get := func(c Counters, name string) int64 {
		t.Helper()
		v, ok := c.Get(name)
		if !ok {
			t.Fatalf("%s missing", name)
		}
		return v
	}
	if lt, ht, mt := get(old, "LowTotal"), get(old, "HighTotal"), get(old, "MemTotal"); lt != 917504 || lt+ht != mt {
		t.Errorf("LowTotal %d + HighTotal %d != MemTotal %d", lt, ht, mt)
	}
	if v := get(old, "HugePages_Total"); v != 0 {
		t.Errorf("HugePages_Total = %d", v)
	}
	if v := get(old, "Hugepagesize"); v != 2048 {
		t.Errorf("Hugepagesize = %d kB", v)
	}

	// 2.4: the byte table is skipped, its figures are in the kB lines.
	v24, err := ParseMemInfo(bytes.NewReader(member(t, "testdata/layouts/2.4-i686-seed001.txtar", "proc/meminfo")))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Mem", "Swap", "total"} {
		if v24.Has(name) {
			t.Errorf("2.4 byte table row %q kept", name)
		}
	}
	if get(v24, "MemTotal") != 257536 || get(v24, "MemShared") != 0 || v24.Names()[0] != "MemTotal" {
		t.Errorf("2.4 meminfo parsed as %v", v24.Names())
	}
}

func TestParseMemInfoMalformed(t *testing.T) {
	checkMalformed(t, []malformed{
		{"empty", "", 0},
		{"blank", "\n  \n", 0},
		{"no colon", "MemTotal 123 kB\n", 1},
		{"not a number", "MemTotal: 12x kB\n", 1},
		{"no value", "MemTotal:   12 kB\nMemFree:\n", 2},
		{"unknown unit", "MemTotal: 1 kB\nMemFree: 1 MB\n", 2},
		{"extra field", "MemTotal: 1 kB\nMemFree: 1 kB 7\n", 2},
		{"empty name", "MemTotal: 1 kB\n : 5 kB\n", 2},
		{"overflow", "A: 1 kB\nB: 1 kB\nC: 99999999999999999999 kB\n", 3},
		{"truncated line", "MemTotal:       24684084 kB\nMemFr", 2},
	}, func(b []byte) error { var c Counters; return ParseMemInfoInto(&c, b) })
}

func TestParseMemInfoInto(t *testing.T) {
	checkInto(t, ParseMemInfoInto,
		member(t, hostFixture, "proc/meminfo"),
		member(t, "testdata/layouts/2.6.13-i686-seed004.txtar", "proc/meminfo"),
		member(t, "testdata/layouts/2.4-i686-seed001.txtar", "proc/meminfo"))
}

func FuzzParseMemInfo(f *testing.F) {
	other := seedFuzz(f, exact("proc/meminfo"), "MemTotal: 1 kB\nMem: 1 2 3\n", "A:\n", ": 1 kB")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInto(t, data, other, ParseMemInfoInto) })
}

func BenchmarkParseMemInfoInto(b *testing.B) {
	benchInto(b, member(b, hostFixture, "proc/meminfo"), ParseMemInfoInto)
}

func BenchmarkParseMemInfo(b *testing.B) {
	data := member(b, hostFixture, "proc/meminfo")
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseMemInfo(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
