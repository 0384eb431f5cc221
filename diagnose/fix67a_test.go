package diagnose

import (
	"strings"
	"testing"
)

// g274 (Red Hat KB 45412): one row of sar -W under two rows of sar -r taken at the same
// records. The swap row's interval is the gap between the sar -r rows (11:20:01 → 11:40:59),
// so its 3371 pages/s out is a mean over 1258 s, not one instant: swap-under-load fires.
func TestFix67aSarRowIntervalFromAnotherTable(t *testing.T) {
	const swapRow = "00:00:00 pswpin/s pswpout/s\n11:40:59 244.37 3371.47\n"
	const memRows = "00:00:00 kbmemfree kbmemused %memused kbbuffers kbcached kbswpfree kbswpused %swpused kbswpcad\n" +
		"11:20:01 25136904 7694080 23.44 150976 5782872 16776792 160 0.00 0\n" +
		"11:40:59 150428 32680556 99.54 2428 35976 0 16776952 100.00 243696\n"
	d, _ := rootOf(t, swapRow+memRows)
	f := findingOf(d, "swap-under-load")
	if f == nil || !evidenceHas(*f, "swap in + out", "mean over 1258 s") {
		t.Fatalf("one sar -W row timed by sar -r's rows: %+v", f)
	}
	// Two rows of one table: the second row's interval is the gap above it (12-hour clock,
	// across noon).
	twelve := "11:50:01 AM  pswpin/s pswpout/s\n11:55:01 AM  100.00  400.00\n12:00:01 PM  120.00  410.00\n"
	d, _ = rootOf(t, twelve)
	if f := findingOf(d, "swap-under-load"); f == nil || !evidenceHas(*f, "swap in + out", "mean over 300 s") {
		t.Errorf("12-hour rows: %+v", f)
	}
	for name, text := range map[string]string{
		// No other table shows the record before: the interval is unknown.
		"alone": swapRow,
		// The sar -r rows were cut (two hours apart): not an interval.
		"rows cut": swapRow + strings.Replace(memRows, "11:20:01", "09:40:59", 1),
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "swap-under-load"); f != nil {
			t.Errorf("%s: fired: %s", name, f.Evidence[0].Value)
		}
	}
}

// g288 (LKML 2002, an Oracle server): the swap traffic told as an amount over a span read off
// vmstat, "about 10 megs every 2 seconds": 5 MiB/s, stated (a warning). A condition or a
// device's rating states nothing.
func TestFix67hStatedSwapAmountOverSpan(t *testing.T) {
	d, _ := rootOf(t, "However, the box is swapping like mad (about 10 megs every 2 seconds according to vmstat) and the load is skyrocketing.\n")
	f := findingOf(d, "swap-under-load")
	if f == nil || f.Severity != Warning || !evidenceHas(*f, "swap in + out", "peak 5120 KiB/s") {
		t.Fatalf("10 megs every 2 seconds: %+v", f)
	}
	d, _ = rootOf(t, "The server swaps out 30 MB each minute since the upgrade.\n")
	if f := findingOf(d, "swap-under-load"); f != nil {
		t.Errorf("30 MB a minute (0.5 MiB/s) fired: %s", f.Evidence[0].Value)
	}
	for name, text := range map[string]string{
		"condition": "If it starts swapping 10 megs every 2 seconds, the load will climb.\n",
		"rating":    "The swap disk is rated at 200 MB per second.\n",
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "swap-under-load"); f != nil {
			t.Errorf("%s: fired: %s", name, f.Evidence[0].Value)
		}
	}
}

// g283 (cgroups list, 2019 and 2020): a reproducer's meminfo before and after, without
// times. Unreclaimable slab that jumped to twice its size or more, by 512 MiB or more, and
// stayed, is slab-unreclaimable-growth; a smaller jump, or one given back by the last
// reading, is not. A value a person grouped by thousands ("295,408 kB") is read.
func TestFix67jSlabJumpBetweenReadings(t *testing.T) {
	mi := func(slab, srecl, sunrecl string) string {
		return "Slab:             " + slab + " kB\nSReclaimable:     " + srecl + " kB\nSUnreclaim:       " + sunrecl + " kB\n"
	}
	before := "------------- system initial statistics -------------\n" + mi("419196", "123788", "295,408") + "\nafter the tasks:\n\n"
	d, _ := rootOf(t, before+mi("948932", "125816", "823,116"))
	f := findingOf(d, "slab-unreclaimable-growth")
	if f == nil || f.Severity != Warning || !evidenceHas(*f, "SUnreclaim growth between readings", "288 MiB → 804 MiB") {
		t.Fatalf("295,408 → 823,116 kB: %+v", f)
	}
	for name, text := range map[string]string{
		"under 512 MiB": before + mi("719196", "123788", "795408"),
		"under twice":   mi("1123788", "123788", "1,000,000") + "\nlater:\n\n" + mi("2023788", "123788", "1900000"),
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "slab-unreclaimable-growth"); f != nil && evidenceHas(*f, "SUnreclaim growth between readings", "") {
			t.Errorf("%s: fired: %+v", name, f.Evidence)
		}
	}
	d, _ = rootOf(t, before+mi("948932", "125816", "923116")+"\nafter a while:\n\n"+mi("419196", "123788", "300000"))
	if f := findingOf(d, "slab-unreclaimable-growth"); f != nil && evidenceHas(*f, "SUnreclaim growth between readings", "") {
		t.Errorf("given back: fired: %+v", f.Evidence)
	}
}

// g278 (beats' testdata under the flattened form): /proc/vmstat joined onto one line puts
// "oom_kill 0" before the next counter's name, which read as "OOM killed 0 numa_pte_updates",
// a kill told as a verb with its victims. A count of victims is one or more, and the
// counter's name with its underscore is no verb; the verb with a real count still is.
func TestFix67iOOMKillCounterIsNoVerb(t *testing.T) {
	for _, text := range []string{
		"pageoutrun 0 pgrotated 2 drop_pagecache 0 drop_slab 0 oom_kill 0 numa_pte_updates 0 numa_huge_pte_updates 0\n",
		"drop_slab 0 oom_kill 3 numa_pte_updates 0\n",
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "oom-kill"); f != nil {
			t.Errorf("%q: fired: %s", text, f.Title)
		}
	}
	d, _ := rootOf(t, "Last night the kernel oom killed 3 workers on this box.\n")
	if f := findingOf(d, "oom-kill"); f == nil {
		t.Error("the verb with a count of victims no longer read")
	}
}
