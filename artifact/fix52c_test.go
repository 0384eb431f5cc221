package artifact

import (
	"strings"
	"testing"

	"headroom/diagnose"
	"headroom/kernel"
)

// fix52c: a Mem-Info dump with no buddy line and no lowmem_reserve[] (cut after its first
// zone line, corpus 4360: OpenWrt logread) takes its page size from its own global line
// (pages) against its node line (kB), and its zone is read as /proc/zoneinfo is.
const fix52cMemInfo = `Tue Feb 10 20:17:14 2026 kern.warn kernel: [ 8899.723572] Mem-Info:
Tue Feb 10 20:17:14 2026 kern.warn kernel: [ 8899.723744] active_anon:636 inactive_anon:18 isolated_anon:0
Tue Feb 10 20:17:14 2026 kern.warn kernel: [ 8899.723744]  active_file:8 inactive_file:3 isolated_file:0
Tue Feb 10 20:17:14 2026 kern.warn kernel: [ 8899.723744]  unevictable:0 dirty:0 writeback:0 unstable:0
Tue Feb 10 20:17:14 2026 kern.warn kernel: [ 8899.723744]  slab_reclaimable:924 slab_unreclaimable:29140
Tue Feb 10 20:17:14 2026 kern.warn kernel: [ 8899.723744]  mapped:3 shmem:255 pagetables:71 bounce:0
Tue Feb 10 20:17:14 2026 kern.warn kernel: [ 8899.723744]  free:3709 free_pcp:26 free_cma:0
Tue Feb 10 20:17:14 2026 kern.warn kernel: [ 8899.737619] Node 0 active_anon:2544kB inactive_anon:72kB active_file:44kB inactive_file:12kB unevictable:0kB isolated(anon):0kB isolated(file):0kB mapped:12kB dirty:0kB writeback:0kB shmem:1020kB writeback_tmp:0kB unstable:0kB all_unreclaimable? yes
Tue Feb 10 20:17:14 2026 kern.warn kernel: [ 8899.759379] Normal free:14756kB min:16384kB low:20480kB high:24576kB active_anon:2540kB inactive_anon:72kB active_file:44kB inact`

func fix52cZone(t *testing.T, text string) (kernel.Zone, bool) {
	t.Helper()
	tl := ParseString(text, "t", Options{})
	for _, s := range tl.Samples {
		for _, z := range s.Zones {
			return z, true
		}
	}
	return kernel.Zone{}, false
}

func TestFix52cMemInfoPageSizeFromNodeLine(t *testing.T) {
	bare := func(s string) string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			_, rest, _ := strings.Cut(l, "] ")
			out = append(out, rest)
		}
		return strings.Join(out, "\n")
	}
	for name, text := range map[string]string{"logread": fix52cMemInfo, "bare": bare(fix52cMemInfo)} {
		z, ok := fix52cZone(t, text)
		if !ok {
			t.Fatalf("%s: no zone read", name)
		}
		want := map[string]int64{"free": 3689, "min": 4096, "low": 5120, "high": 6144, "node_unreclaimable": 1}
		for k, v := range want {
			if got, _ := z.Fields.Get(k); got != v {
				t.Errorf("%s: Normal %s = %d, want %d", name, k, got, v)
			}
		}
		if z.Name != "Normal" || z.Node != 0 {
			t.Errorf("%s: zone %d %s, want 0 Normal", name, z.Node, z.Name)
		}
	}
	// Counter-cases: a node line that is not the sum of the nodes (node 1 left out of the
	// paste: each counter is half the global), counters that do not agree, and a dump with no
	// node line give no page size, so no zone reading.
	half := strings.NewReplacer("active_anon:2544kB", "active_anon:1272kB", "inactive_anon:72kB", "inactive_anon:36kB",
		"mapped:12kB", "mapped:6kB", "shmem:1020kB", "shmem:510kB", "inactive_file:12kB", "inactive_file:6kB").Replace(fix52cMemInfo)
	moved := strings.NewReplacer("active_anon:2544kB", "active_anon:2548kB", "inactive_anon:72kB", "inactive_anon:76kB",
		"shmem:1020kB", "shmem:1024kB").Replace(fix52cMemInfo)
	var noNode []string
	for _, l := range strings.Split(fix52cMemInfo, "\n") {
		if !strings.Contains(l, "Node 0") {
			noNode = append(noNode, l)
		}
	}
	for name, text := range map[string]string{"half": half, "moved": moved, "no node line": strings.Join(noNode, "\n")} {
		if z, ok := fix52cZone(t, text); ok {
			t.Errorf("%s: zone %v read, want none (no page size)", name, z)
		}
	}
	for _, c := range []struct {
		name string
		mem  map[string]int64
		node map[string]int64
		want int64
	}{
		{"4 kB", map[string]int64{"active_anon": 10, "inactive_anon": 5, "shmem": 2}, map[string]int64{"active_anon_kb": 40, "inactive_anon_kb": 20, "shmem_kb": 8}, 4},
		{"64 kB", map[string]int64{"active_anon": 10, "inactive_anon": 5, "shmem": 2}, map[string]int64{"active_anon_kb": 640, "inactive_anon_kb": 320, "shmem_kb": 128}, 64},
		{"two pairs only", map[string]int64{"active_anon": 10, "inactive_anon": 5}, map[string]int64{"active_anon_kb": 40, "inactive_anon_kb": 20}, 0},
		{"not a power of two", map[string]int64{"active_anon": 10, "inactive_anon": 5, "shmem": 2}, map[string]int64{"active_anon_kb": 30, "inactive_anon_kb": 15, "shmem_kb": 6}, 0},
		{"split vote", map[string]int64{"active_anon": 10, "inactive_anon": 5, "shmem": 2, "mapped": 3, "dirty": 1, "writeback": 1}, map[string]int64{"active_anon_kb": 40, "inactive_anon_kb": 20, "shmem_kb": 8, "mapped_kb": 24, "dirty_kb": 8, "writeback_kb": 8}, 0},
	} {
		var mem, node kernel.Counters
		for k, v := range c.mem {
			mem.Set(k, v)
		}
		for k, v := range c.node {
			node.Set(k, v)
		}
		if got := nodeLinePageKB(&mem, []NodeCounters{{Node: 0, Fields: &node}}); got != c.want {
			t.Errorf("%s: page %d kB, want %d", c.name, got, c.want)
		}
	}
}

// fix52c: kernel records copied out of a log viewer's table of facility, severity, program
// and message (corpus 4374, a DD-WRT router's log) are the kernel's records, stamps read.
func TestFix52cLogViewColumns(t *testing.T) {
	for _, c := range []struct {
		raw, text string
		usec      int64
	}{
		{"Kernel  Warning kernel [ 3640.790000] ath10k_pci 0000:00:00.0: wmi command 36890 timeout, restarting hardware",
			"ath10k_pci 0000:00:00.0: wmi command 36890 timeout, restarting hardware", 3640790000},
		{"Kernel  Error   kernel [ 3637.780000] wlan1.1: failed to remove key (0, [redacted]) from hardware (-145)",
			"wlan1.1: failed to remove key (0, [redacted]) from hardware (-145)", 3637780000},
		{"Kernel\tWarning\tkernel\t[    5.113000] iwlwifi 0000:02:00.0: Falling back to small chunks of DMA",
			"iwlwifi 0000:02:00.0: Falling back to small chunks of DMA", 5113000},
	} {
		l, _, _ := parseLine(1, c.raw)
		if !l.Kernel || l.Tag != "kernel" || l.Text != c.text || l.UptimeUsec != c.usec {
			t.Errorf("%q: kernel %v tag %q text %q stamp %d, want the kernel's record %q at %d", c.raw, l.Kernel, l.Tag, l.Text, l.UptimeUsec, c.text, c.usec)
		}
	}
	tl := ParseString("Kernel  Warning kernel [ 3640.790000] ath10k_pci 0000:00:00.0: wmi command 36890 timeout, restarting hardware\n"+
		"Kernel  Warning kernel [ 3640.790000] ath10k_pci 0000:00:00.0: failed to install key for vdev 1 peer [redacted] -11\n", "t", Options{})
	if tl.Log.Len() != 2 || NothingRead(tl) {
		t.Errorf("two records: log %d, nothing read %v", tl.Log.Len(), NothingRead(tl))
	}
	// Counter-cases: another facility or program, no stamp after the columns, prose that
	// starts with the same words, a severity that is no syslog one.
	for _, raw := range []string{
		"Daemon  Warning hostapd [ 3640.790000] wlan1: STA deauthenticated",
		"Kernel  Warning dnsmasq [ 3640.790000] failed to allocate 4096 bytes",
		"Kernel  Warning kernel ath10k_pci 0000:00:00.0: wmi command 36890 timeout",
		"Kernel warning kernel panics are rare on this router [ 3640.790000]",
		"Kernel  Fatal kernel [ 3640.790000] something",
	} {
		if l, _, _ := parseLine(1, raw); l.Kernel || l.UptimeUsec >= 0 {
			t.Errorf("%q: read as the kernel's record %q (stamp %d)", raw, l.Text, l.UptimeUsec)
		}
	}
}

// The dump's zone is judged: Normal free 3689 pages against min 4096 is below min
// (critical zone-reserve-low), and no allocation-failure rule fires without a header.
func TestFix52cMemInfoZoneJudged(t *testing.T) {
	d := diagnose.Run(ParseString(fix52cMemInfo, "t", Options{}), nil)
	var got *diagnose.Finding
	for i := range d.Findings {
		f := &d.Findings[i]
		if f.ID == "zone-reserve-low" {
			got = f
		}
		if strings.HasPrefix(f.ID, "alloc-fail-") {
			t.Errorf("%s fired without an allocation-failure header", f.ID)
		}
	}
	if got == nil || got.Severity != diagnose.Critical || !strings.Contains(got.Evidence[0].Value, "free 3689 pages") {
		t.Fatalf("zone-reserve-low: %+v, want critical on Normal free 3689 pages", got)
	}
}

// LuCI's memory rows (corpus 4364) and a reporter's per-process sizes with thousands
// separators (corpus 4366), in texts where nothing else is read: named unread, never read as
// a sample, a setting or a kill.
func TestFix52cRouterMemoryRowsUnread(t *testing.T) {
	luci := "After ~5 minutes:\n\n\tTotal Available:   ~174 MiB / 406.23 MiB\n\tUsed:   ~260 MiB / 406.23 MiB\n\tCached\t~65 MiB / 406.23 MiB\n"
	tl := ParseString(luci, "t", Options{})
	if len(tl.Unparsed) == 0 || len(tl.Samples) != 0 || tl.Log.Len() != 0 {
		t.Fatalf("LuCI rows: unparsed %d, samples %d, log %d; want named unread only", len(tl.Unparsed), len(tl.Samples), tl.Log.Len())
	}
	if w := unparsedWhy(luci); !anyHas(w, "LuCI") {
		t.Errorf("LuCI rows: %q, want LuCI's memory rows named", w)
	}
	for _, row := range []string{"Total Available: 174.12 MiB / 406.23 MiB (42%)", "Buffered: 12 MiB / 406.23 MiB", "Used:   ~260 MiB / 406.23 MiB"} {
		if !luciMemRow(row) {
			t.Errorf("%q: not taken as LuCI's memory row", row)
		}
	}
	for _, row := range []string{
		"Used: 260 MiB",                                     // no RAM after it
		"Did it use 260 MiB / 406 MiB?",                     // a question
		"Transferred: 5 GiB / 10 GiB",                       // not a memory label
		"You should keep Available above 100 MiB / 406 MiB", // advice
	} {
		if luciMemRow(row) {
			t.Errorf("%q: taken as LuCI's memory row", row)
		}
	}
	sizes := "The memory usage of hostapd and netifd grows.\n\nUptime 13h:\n- \thostapd: 45,628 kB\n- \tnetifd: 16,868 kB\n"
	if w := unparsedWhy(sizes); !anyHas(w, "list of sizes the reporter measured") {
		t.Errorf("sizes with thousands separators: %q, want the measured list named", w)
	}
	for s, want := range map[string]bool{
		"hostapd: 45,628 kB":      true,
		"hostapd: 45628 kB":       true,
		"hostapd: 45,62 kB":       false, // not a thousands group
		"hostapd: 1,2345 kB":      false,
		"hostapd, 628 kB":         false, // a comma after a word, no number before it
		"files: 3,4,5 and 628 kB": false,
	} {
		if got := measuredSizeLine(s); got != want {
			t.Errorf("measuredSizeLine(%q) = %v, want %v", s, got, want)
		}
	}
}
