package units

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ErrUnit is wrapped by every unit-parsing error, so callers can tell a typo from other
// failures.
var ErrUnit = errors.New("invalid rate or size")

// ParseBandwidth reads a rate and returns bits per second. The unit is required, because a
// bare number is ambiguous between bits and bytes and a factor of 8 is the costliest mistake
// a buffer calculator can make.
//
// Bits:  "1Gbit", "400mbit", "10kbit", "1Gb", "1Gb/s", "100Mbps" (lower-case "b" and "bps" mean bits, as
// in networking usage; note that tc(8) reads "mbps" as megaBYTES, so headroom always writes
// tc rates as "mbit").
// Bytes: "125MB/s", "125MBps" (upper-case B), "1GiB/s".
// Prefixes k, M, G, T are decimal (10^3n, as tc and link speeds use them); Ki, Mi, Gi, Ti are
// binary. The number must be positive and finite.
func ParseBandwidth(s string) (bitsPerSec float64, err error) {
	in := strings.TrimSpace(s)
	num, unit := splitNumber(in)
	if num == "" {
		return 0, fmt.Errorf("bandwidth %q: no number: %w", s, ErrUnit)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("bandwidth %q: bad number %q: %w", s, num, ErrUnit)
	}
	if v <= 0 {
		return 0, fmt.Errorf("bandwidth %q: must be greater than zero: %w", s, ErrUnit)
	}
	unit = strings.TrimSpace(unit)
	if unit == "" {
		return 0, fmt.Errorf("bandwidth %q: unit missing; write e.g. 1Gbit (bits) or 125MB/s (bytes): %w", s, ErrUnit)
	}
	prefix, rest := splitPrefix(unit)
	mult, ok := prefixMultiplier(prefix)
	if !ok {
		return 0, fmt.Errorf("bandwidth %q: unknown prefix %q: %w", s, prefix, ErrUnit)
	}
	var bitsPerUnit float64
	switch {
	case strings.EqualFold(rest, "bit"), strings.EqualFold(rest, "bits"),
		strings.EqualFold(rest, "bit/s"), strings.EqualFold(rest, "bits/s"),
		rest == "b/s", rest == "bps", rest == "b":
		bitsPerUnit = 1
	case rest == "B/s", rest == "Bps", strings.EqualFold(rest, "byte/s"), strings.EqualFold(rest, "bytes/s"):
		bitsPerUnit = 8
	case rest == "B":
		return 0, fmt.Errorf("bandwidth %q: %q is a size, not a rate; write %sB/s for bytes per second or %sbit for bits: %w", s, unit, prefix, prefix, ErrUnit)
	case rest == "BPS", rest == "Bit/S":
		return 0, fmt.Errorf("bandwidth %q: %q is ambiguous between bits and bytes; write bit or B/s: %w", s, rest, ErrUnit)
	default:
		return 0, fmt.Errorf("bandwidth %q: unknown unit %q (want bit, bps, b/s, B/s or Bps with an optional k/M/G/T or Ki/Mi/Gi/Ti prefix): %w", s, unit, ErrUnit)
	}
	r := v * mult * bitsPerUnit
	if math.IsInf(r, 0) {
		return 0, fmt.Errorf("bandwidth %q: too large: %w", s, ErrUnit)
	}
	return r, nil
}

// ParseSize reads a memory size and returns bytes.
//
// A bare integer is bytes ("1048576"). KiB, MiB, GiB, TiB and the single letters K, M, G, T
// (as the kernel's memparse reads "mem=512M") are binary. kB, KB, MB, GB, TB are decimal (SI):
// "512MB" is 512,000,000 bytes. Note that /proc/meminfo prints "kB" but means KiB: pass those
// values as KiB. A lower-case b ("512Mb") means bits and is refused.
func ParseSize(s string) (bytes int64, err error) {
	in := strings.TrimSpace(s)
	num, unit := splitNumber(in)
	if num == "" {
		return 0, fmt.Errorf("size %q: no number: %w", s, ErrUnit)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("size %q: bad number %q: %w", s, num, ErrUnit)
	}
	if v <= 0 {
		return 0, fmt.Errorf("size %q: must be greater than zero: %w", s, ErrUnit)
	}
	unit = strings.TrimSpace(unit)
	var mult float64
	switch unit {
	case "", "B":
		mult = 1
	case "K", "KiB", "k":
		mult = 1 << 10
	case "M", "MiB":
		mult = 1 << 20
	case "G", "GiB":
		mult = 1 << 30
	case "T", "TiB":
		mult = 1 << 40
	case "kB", "KB":
		mult = 1e3
	case "MB":
		mult = 1e6
	case "GB":
		mult = 1e9
	case "TB":
		mult = 1e12
	default:
		if strings.HasSuffix(unit, "b") || strings.HasSuffix(strings.ToLower(unit), "bit") {
			return 0, fmt.Errorf("size %q: %q is bits; write MB (10^6 bytes) or MiB (2^20 bytes): %w", s, unit, ErrUnit)
		}
		return 0, fmt.Errorf("size %q: unknown unit %q (want B, KiB, MiB, GiB, TiB, K, M, G, T, kB, MB, GB, TB): %w", s, unit, ErrUnit)
	}
	b := v * mult
	if b > math.MaxInt64/2 {
		return 0, fmt.Errorf("size %q: too large: %w", s, ErrUnit)
	}
	if unit == "" && b != math.Trunc(b) {
		return 0, fmt.Errorf("size %q: a byte count must be whole: %w", s, ErrUnit)
	}
	return int64(math.Round(b)), nil
}

// splitNumber splits "12.5Gbit" into "12.5" and "Gbit".
func splitNumber(s string) (num, unit string) {
	i := 0
	for i < len(s) {
		c := s[i]
		if (c >= '0' && c <= '9') || c == '.' {
			i++
			continue
		}
		if (c == 'e' || c == 'E') && i > 0 && i+1 < len(s) && (s[i+1] >= '0' && s[i+1] <= '9' || s[i+1] == '-' || s[i+1] == '+') {
			// Exponent only when digits follow: "1e9bit" but not "1Ebit" (no such prefix).
			i += 2
			continue
		}
		if (c == '-' || c == '+') && i == 0 {
			i++
			continue
		}
		break
	}
	return s[:i], s[i:]
}

// splitPrefix splits "Gibit" into "Gi" and "bit", "Mbps" into "M" and "bps".
func splitPrefix(u string) (prefix, rest string) {
	if len(u) >= 2 && u[1] == 'i' && strings.ContainsRune("kKmMgGtT", rune(u[0])) {
		return u[:2], u[2:]
	}
	if len(u) >= 1 && strings.ContainsRune("kKmMgGtT", rune(u[0])) && len(u) > 1 {
		return u[:1], u[1:]
	}
	return "", u
}

func prefixMultiplier(p string) (float64, bool) {
	switch p {
	case "":
		return 1, true
	case "k", "K":
		return 1e3, true
	case "m", "M":
		return 1e6, true
	case "g", "G":
		return 1e9, true
	case "t", "T":
		return 1e12, true
	case "ki", "Ki":
		return 1 << 10, true
	case "mi", "Mi":
		return 1 << 20, true
	case "gi", "Gi":
		return 1 << 30, true
	case "ti", "Ti":
		return 1 << 40, true
	}
	return 0, false
}

// FormatBytes renders a byte count with a binary unit: "1020 KiB", "21.9 MiB", "224 MiB".
func FormatBytes(b int64) string {
	neg := b < 0
	if neg {
		b = -b
	}
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	v := float64(b)
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	sign := ""
	if neg {
		sign = "-"
	}
	// One decimal below 100, none when it would print ".0" ("23 GiB", not "23.0 GiB").
	if i == 0 || v >= 100 || math.Round(v*10) == 10*math.Round(v) {
		return fmt.Sprintf("%s%.0f %s", sign, v, units[i])
	}
	return fmt.Sprintf("%s%.1f %s", sign, v, units[i])
}

// FormatBitsPerSec renders a rate with decimal units: "1 Gbit/s", "50 Mbit/s", "43.1 Mbit/s".
func FormatBitsPerSec(bps float64) string {
	units := []string{"bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"}
	v := bps
	i := 0
	for v >= 1000 && i < len(units)-1 {
		v /= 1000
		i++
	}
	if v >= 100 || math.Abs(v-math.Round(v)) < 0.05 {
		return fmt.Sprintf("%.0f %s", v, units[i])
	}
	return fmt.Sprintf("%.1f %s", v, units[i])
}

// TCRate renders bits per second in tc(8)'s own unambiguous units: "400mbit", "1gbit",
// "1500kbit", "999bit". tc reads "mbit" as 10^6 bit/s (tc/tc_util.c get_rate).
func TCRate(bps float64) string {
	r := int64(math.Round(bps))
	switch {
	case r%1e9 == 0:
		return fmt.Sprintf("%dgbit", r/1e9)
	case r%1e6 == 0:
		return fmt.Sprintf("%dmbit", r/1e6)
	case r%1e3 == 0:
		return fmt.Sprintf("%dkbit", r/1e3)
	}
	return fmt.Sprintf("%dbit", r)
}

// ParseRTTRange reads an --rtt value: one duration ("125ms") or a range "LOW-HIGH"
// ("0.5ms-50ms"), Go duration syntax on both sides. hi is 0 for a single value. Both must be
// positive and low ≤ high.
func ParseRTTRange(s string) (lo, hi time.Duration, err error) {
	s = strings.TrimSpace(s)
	a, b, isRange := strings.Cut(s, "-")
	if s == "" || (isRange && a == "") {
		return 0, 0, fmt.Errorf("rtt %q: want a duration such as 125ms or a range such as 0.5ms-50ms", s)
	}
	lo, err = time.ParseDuration(strings.TrimSpace(a))
	if err != nil || lo <= 0 {
		return 0, 0, fmt.Errorf("rtt %q: must be greater than zero, e.g. 125ms or 0.5ms-50ms", s)
	}
	if !isRange {
		return lo, 0, nil
	}
	hi, err = time.ParseDuration(strings.TrimSpace(b))
	if err != nil || hi <= 0 {
		return 0, 0, fmt.Errorf("rtt %q: the upper end %q is not a positive duration", s, b)
	}
	if hi < lo {
		return 0, 0, fmt.Errorf("rtt %q: the upper end is below the lower", s)
	}
	return lo, hi, nil
}
