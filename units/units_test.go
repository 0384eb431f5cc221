package units

import (
	"errors"
	"testing"
)

func TestParseBandwidth(t *testing.T) {
	good := []struct {
		in   string
		want float64
	}{
		{"1Gbit", 1e9},
		{"400mbit", 400e6},
		{"100Mbps", 100e6}, // lower-case bps: bits
		{"125MB/s", 1e9},   // bytes per second
		{"125MBps", 1e9},   // upper-case B: bytes
		{"1Gb/s", 1e9},
		{"1Gb", 1e9},
		{"10kbit", 10e3},
		{"2.5Gbit", 2.5e9},
		{" 1 Gbit ", 1e9},
		{"1Gibit", 1 << 30},
		{"1GiB/s", 8 << 30},
		{"1e9bit", 1e9},
		{"300bit/s", 300},
	}
	for _, c := range good {
		got, err := ParseBandwidth(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseBandwidth(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	bad := []string{"", "1", "Gbit", "abc", "0Gbit", "-1Gbit", "1Gbyte", "1MB", "1xbit", "1BPS", "NaNbit", "1e400bit", "1Qbit", "1..2Gbit"}
	for _, s := range bad {
		if v, err := ParseBandwidth(s); err == nil || !errors.Is(err, ErrUnit) {
			t.Errorf("ParseBandwidth(%q) = %v, %v; want an ErrUnit error", s, v, err)
		}
	}
}

func TestParseSize(t *testing.T) {
	good := []struct {
		in   string
		want int64
	}{
		{"8GiB", 8 << 30},
		{"8G", 8 << 30},
		{"512MiB", 512 << 20},
		{"512MB", 512_000_000}, // SI: 10^6
		{"1048576", 1048576},
		{"4K", 4096},
		{"1kB", 1000},
		{"1.5GiB", 1610612736},
		{"896M", 939524096},
	}
	for _, c := range good {
		got, err := ParseSize(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseSize(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	bad := []string{"", "512Mb", "8Gbit", "0", "-1GiB", "8 gigs", "1.5", "1e30TB", "GiB", "12QB"}
	for _, s := range bad {
		if v, err := ParseSize(s); err == nil || !errors.Is(err, ErrUnit) {
			t.Errorf("ParseSize(%q) = %v, %v; want an ErrUnit error", s, v, err)
		}
	}
}

func TestFormat(t *testing.T) {
	bytes := map[int64]string{1044480: "1020 KiB", 22978560: "21.9 MiB", 234881024: "224 MiB", 1 << 30: "1 GiB", 500: "500 B", 671088640: "640 MiB"}
	for in, want := range bytes {
		if got := FormatBytes(in); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", in, got, want)
		}
	}
	rates := map[float64]string{1e9: "1 Gbit/s", 43.1e6: "43.1 Mbit/s", 50e6: "50 Mbit/s", 805306368: "805 Mbit/s"}
	for in, want := range rates {
		if got := FormatBitsPerSec(in); got != want {
			t.Errorf("FormatBitsPerSec(%v) = %q, want %q", in, got, want)
		}
	}
	tc := map[float64]string{400e6: "400mbit", 1e9: "1gbit", 1.5e6: "1500kbit", 999: "999bit"}
	for in, want := range tc {
		if got := TCRate(in); got != want {
			t.Errorf("TCRate(%v) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParseBandwidth(f *testing.F) {
	for _, s := range []string{"1Gbit", "125MB/s", "100Mbps", "1e9bit", "-", "1Gi", "e", "1e", ".bit"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseBandwidth(s)
		if err == nil && !(v > 0) {
			t.Fatalf("ParseBandwidth(%q) = %v without error", s, v)
		}
	})
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"8GiB", "512MB", "1048576", "1.5", "1e3K", "+1G"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseSize(s)
		if err == nil && v <= 0 {
			t.Fatalf("ParseSize(%q) = %v without error", s, v)
		}
	})
}
