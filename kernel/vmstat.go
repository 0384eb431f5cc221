package kernel

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// /proc/vmstat: "name value" lines, counters and gauges in pages or events. ParseVMStat
// returns Counters in file order. Names changed across versions (pgscan_kswapd_normal before
// 4.8's node-based reclaim, pgscan_kswapd after; allocstall split per zone in 4.8), so rules
// ask for each name and cope with absence.
//
// The kernel prints every value as an unsigned long (mm/vmstat.c vmstat_show, "%s %lu"). A
// value above 2^63-1 cannot be held in Counters and is reported as an error rather than
// wrapped or clamped.

// ReadVMStat reads /proc/vmstat under root.
func ReadVMStat(root Root) (Counters, error) {
	return parseFile(root, "proc/vmstat", ParseVMStat)
}

// ParseVMStat parses /proc/vmstat text.
func ParseVMStat(r io.Reader) (Counters, error) {
	return parseText(r, ParseVMStatInto)
}

// ParseVMStatInto parses /proc/vmstat text into dst, reusing its storage (see
// ParseMemInfoInto).
func ParseVMStatInto(dst *Counters, data []byte) error {
	if vmStatSameLayout(dst, data) {
		return nil
	}
	var fill txtCountersFill
	fill.start(dst)
	lines := txtLines{data: data}
	for {
		line, ok := lines.nextNonBlank()
		if !ok {
			break
		}
		name, val, ok := txtNameValue(line)
		if !ok {
			return lines.errorf("want \"name value\", got %q", line)
		}
		v, ok := txtInt(val)
		if !ok {
			return lines.errorf("%s: %q is not an integer", name, val)
		}
		fill.set(name, v)
	}
	fill.done()
	if dst.Len() == 0 {
		return fmt.Errorf("vmstat: no values")
	}
	return nil
}

// vmStatSameLayout is the fast path of ParseVMStatInto (see txtIntAt): every line is
// "name value" with the names of c in c's order.
func vmStatSameLayout(c *Counters, data []byte) bool {
	if len(c.names) == 0 {
		return false
	}
	p := 0
	for i, name := range c.names {
		e := p + len(name) // txtNameAt, by hand: it is one call too many per line here
		if e >= len(data) || data[e] != ' ' || !txtMatch(data, p, name) {
			return false
		}
		v, q, ok := int64(0), e+2, false
		if v, ok = txtDigit(data, e+1); !ok {
			if v, q, ok = txtIntAt(data, e+1); !ok {
				return false
			}
		}
		if p, ok = txtEOL(data, q); !ok {
			return false
		}
		c.values[i] = v
	}
	return p == len(data)
}

// vmstatZoneSuffixes are the zone names mm/vmstat.c TEXTS_FOR_ZONES appends to per-zone event
// counters: "_dma", "_dma32", "_normal", "_high" (CONFIG_HIGHMEM), "_movable", and
// "_device" (6.x ZONE_DEVICE).
var vmstatZoneSuffixes = []string{"_dma", "_dma32", "_normal", "_high", "_movable", "_device"}

// SumZoned returns the vmstat counter base, or the sum of base_<zone>: the reclaim counters
// were per zone before the node-based LRU (4.8) and allocstall is per zone on later kernels.
// A prefix match would be wrong: pgscan_direct_throttle is a different event. It is the one
// home of that sum (issue 31): the rates, the reclaim rules and serve's exposition each had
// one, with three matching rules. nil Counters hold nothing.
func SumZoned(c *Counters, base string) (int64, bool) {
	if c == nil {
		return 0, false
	}
	if v, ok := c.Get(base); ok {
		return v, true
	}
	var sum int64
	found := false
	var buf [64]byte
	for _, suf := range vmstatZoneSuffixes {
		key := append(append(buf[:0], base...), suf...)
		if v, ok := c.Get(string(key)); ok { // a short conversion that does not escape stays on the stack
			sum += v
			found = true
		}
	}
	return sum, found
}

// vmstatEventNames are the /proc/vmstat event counters (mm/vmstat.c vmstat_text) the memory
// rules read, each a base name that may carry a zone suffix (allocstall_normal) or a
// reclaimer's (pgscan_direct, pgsteal_kswapd).
var vmstatEventNames = []string{"allocstall", "pgscan_direct", "pgscan_kswapd", "pgsteal_direct", "pgsteal_kswapd",
	"pgscan_khugepaged", "pgsteal_khugepaged", "compact_stall", "compact_fail", "compact_success",
	"pswpin", "pswpout", "pgmajfault", "oom_kill", "pgalloc", "pgfree", "kswapd_low_wmark_hit_quickly",
	"kswapd_high_wmark_hit_quickly", "pageoutrun", "drop_pagecache", "drop_slab", "workingset_refault"}

// IsVMStatEventName reports whether name is one of /proc/vmstat's event counters the rules
// read, bare or with a zone suffix (vmstatZoneSuffixes): the vocabulary a sentence's counter
// name is checked against before its figure is read as a /proc/vmstat reading.
func IsVMStatEventName(name string) bool {
	for _, b := range vmstatEventNames {
		rest, ok := strings.CutPrefix(name, b)
		if !ok {
			continue
		}
		if rest == "" || slices.Contains(vmstatZoneSuffixes, rest) {
			return true
		}
	}
	return false
}
