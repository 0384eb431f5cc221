package main

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"headroom/kernel"
	"headroom/model"
	"headroom/source"
)

// The scaled captures that docs/performance.md reports must read as a machine of that size:
// every per-CPU and per-node part repeated, and nothing the parsers reject.
func TestScaledTreeReadsAsBiggerMachine(t *testing.T) {
	a, err := txtar.ParseFile("../../testdata/captures/vm-6.18.txtar")
	if err != nil {
		t.Fatal(err)
	}
	const cpus, nodes = 16, 2
	dir := t.TempDir()
	if _, err := scaledTree(dir, a, cpus, nodes); err != nil {
		t.Fatal(err)
	}
	s := source.NewSampler(kernel.DirRoot(dir), source.Options{})
	defer s.Close()
	var sm model.Sample
	s.SampleInto(&sm, time.Time{})
	inCapture := map[string]bool{}
	for _, f := range a.Files {
		inCapture["/"+f.Name] = true
	}
	for _, u := range s.Unavailable() {
		if strings.HasPrefix(u.What, "/") && !inCapture[u.What] {
			continue // a file the sampler learned to read after the capture was taken
		}
		t.Errorf("not available in the scaled tree: %s: %s", u.What, u.Why)
	}
	if sm.Stat == nil || len(sm.Stat.PerCPU) != cpus {
		t.Errorf("/proc/stat: %+v, want %d CPUs", sm.Stat, cpus)
	}
	if sm.Interrupts == nil || len(sm.Interrupts.CPUs) != cpus {
		t.Errorf("/proc/interrupts: want %d CPU columns, got %+v", cpus, sm.Interrupts)
	} else if v, ok := sm.Interrupts.Total("TLB"); !ok || v <= 0 {
		t.Errorf("TLB shootdowns lost in the scaled interrupts: %d %v", v, ok)
	}
	if len(sm.Softnet) != cpus {
		t.Errorf("softnet_stat: %d rows, want %d", len(sm.Softnet), cpus)
	}
	orig := source.NewSampler(kernel.TxtarRoot(a, "orig"), source.Options{})
	defer orig.Close()
	o := orig.Sample(time.Time{})
	if len(sm.Zones) != nodes*len(o.Zones) || len(sm.Buddy) != nodes*len(o.Buddy) {
		t.Errorf("zones %d buddy %d, want %d and %d", len(sm.Zones), len(sm.Buddy), nodes*len(o.Zones), nodes*len(o.Buddy))
	}
	if last := sm.Zones[len(sm.Zones)-1]; last.Node != nodes-1 {
		t.Errorf("last zone on node %d, want %d", last.Node, nodes-1)
	}
	if len(sm.Threads) != cpus+2*nodes {
		t.Errorf("%d kernel threads, want %d ksoftirqd and %d kswapd+kcompactd", len(sm.Threads), cpus, 2*nodes)
	}
}

func TestDist(t *testing.T) {
	d := dist{5, 1, 3, 9}
	if m := d.median(); m != 4 {
		t.Errorf("median %v, want 4", m)
	}
	if d.min() != 1 || d.max() != 9 {
		t.Errorf("min %v max %v", d.min(), d.max())
	}
	if !math.IsNaN(dist{}.median()) {
		t.Error("median of nothing is a number")
	}
	r := pairedRatios(dist{2, 6}, dist{1, 3, 5})
	if len(r) != 2 || r[0] != 2 || r[1] != 2 {
		t.Errorf("paired ratios %v", r)
	}
}

// The CPU readers parse this very process's accounting.
func TestProcCPU(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	// Burn 50 ms of CPU time as getrusage(2) counts it (selfCPU), not 50 ms of wall time:
	// on a loaded machine 50 ms of wall time gave this process 37 ms of CPU (make check
	// beside another make check, issue 27), and the check is about reading /proc, not load.
	const burn = 50 * time.Millisecond
	for selfCPU() < burn { // burn some CPU so the counters move
	}
	ticks, err := procCPUTicks(os.Getpid())
	if err != nil || ticks <= 0 {
		t.Errorf("procCPUTicks: %d, %v", ticks, err)
	}
	lo := selfCPU()
	ns, _, err := cpuNS(os.Getpid())
	hi := selfCPU()
	// cpuNS sums the threads' run time in /proc/PID/task/*/schedstat; getrusage reports the
	// same run time split into user and system (kernel/sched/cputime.c cputime_adjust keeps
	// utime + stime = sum_exec_runtime). 10 ms either way for a thread that exited.
	const tick = 10 * time.Millisecond
	if err != nil || ns < int64(lo-tick) || ns > int64(hi+tick) {
		t.Errorf("cpuNS: %d ns, getrusage %v to %v (after burning at least %v), %v", ns, lo, hi, burn, err)
	}
	if hz := clockTicks(); hz <= 0 || hz > 10000 {
		t.Errorf("USER_HZ %d", hz)
	}
	if rss, err := procStatusKB(os.Getpid(), "VmRSS"); err != nil || rss <= 0 {
		t.Errorf("VmRSS %d, %v", rss, err)
	}
}

func TestStealNote(t *testing.T) {
	if got := stealNote(1.0, true); got != "steal 1.0% of CPU time during the run" {
		t.Errorf("quiet: %q", got)
	}
	if got := stealNote(10.5, true); !strings.HasPrefix(got, "steal 10.5% of CPU time during the run (≥ 5%") {
		t.Errorf("busy: %q", got)
	}
	if got := stealNote(10.5, false); got != "steal time not available" {
		t.Errorf("missing: %q", got)
	}
}

// The floor stops at the same short read as the sampler: the single-record files are marked,
// the many-record ones are not (a short read of vmstat is no end).
func TestFloorArgsMarkSingleRecordFiles(t *testing.T) {
	got := floorArgs([]string{"/proc/meminfo", "/proc/vmstat", "/proc/net/snmp", "/proc/zoneinfo", "/proc/12/task/12/stat", "relative/meminfo"})
	want := []string{"1:/proc/meminfo", "/proc/vmstat", "1:/proc/net/snmp", "/proc/zoneinfo", "1:/proc/12/task/12/stat", "relative/meminfo"}
	if !slices.Equal(got, want) {
		t.Errorf("floorArgs = %q, want %q", got, want)
	}
}
