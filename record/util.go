package record

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSize reads a size with an optional unit: "100MB", "1.5GiB", "512k", "4096". Decimal
// (kB, MB, GB) and binary (KiB, MiB, GiB) units are both accepted as written; a bare
// "k", "M", "G" is binary, as in sort -S and dd.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.TrimSpace(t[i:])
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("size %q: want a number with an optional unit (100MB, 1GiB)", s)
	}
	mult := map[string]float64{
		"": 1, "b": 1, "B": 1,
		"k": 1 << 10, "K": 1 << 10, "KiB": 1 << 10, "kB": 1e3, "KB": 1e3,
		"M": 1 << 20, "MiB": 1 << 20, "MB": 1e6,
		"G": 1 << 30, "GiB": 1 << 30, "GB": 1e9,
	}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("size %q: unknown unit %q (B, kB, KiB, MB, MiB, GB, GiB)", s, unit)
	}
	return int64(v * mult), nil
}
