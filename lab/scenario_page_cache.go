package lab

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"headroom/internal/ctxsleep"
	"headroom/kernel"
	"headroom/lab/netlab"
)

// page-cache-pressure: seed 003's shape in a memory cgroup. A service (a helper process in a
// cgroup limited to pcMemoryBytes) maps a large sparse file and touches every page of it in
// order, over and over, as a cache server streaming its mmap'd storage does, while it
// receives two bulk TCP streams. The file is far larger than the limit, so every new page
// faulted in must first be reclaimed from the cgroup: the charging task reclaims itself
// (try_charge_memcg → try_to_free_mem_cgroup_pages, mm/memcontrol.c), unmapping mapped
// pages on the way, and that time is counted as a memory stall for the task
// (psi_memstall_enter around the reclaim), in the cgroup's memory.pressure and in the
// system's /proc/pressure/memory.
//
// What doctor can see, honestly: the global vmstat reclaim counters do not move (memcg
// reclaim is counted only in the cgroup: mm/vmscan.c counts pgscan/pgsteal globally "if
// (!cgroup_reclaim(sc))", allocstall only in the page allocator), so direct-reclaim-stalls
// can only fire from PSI. The lab diagnoses the cgroup's own memory.pressure as a Timeline of
// its own (scenario_failure.go, cgroupTimeline), and the host's PSI as usual; the scenario
// records which of the two fired. The v1 memory.stat counters (pgpgin/pgpgout, pgmajfault,
// cache) are reported as observations.
//
// The fix is drop-behind: the reader releases each 1 MiB chunk once read (MADV_DONTNEED on
// its mapping and POSIX_FADV_DONTNEED on the file), so it never fills the cgroup with pages
// it will not read again and the cgroup does not reclaim.
//
// Metric: the share of time the cgroup's tasks stalled on memory, from the growth of the
// "some total" of its memory.pressure over the measurement (PSI's own cumulative
// microseconds; avg10 would need ten seconds to settle). Thresholds: doctor must report
// direct-reclaim-stalls (from either PSI view); the stall share with drop-behind must be at
// most a fifth of the share without it.
const (
	pcMemoryBytes = 64 << 20
	pcFileBytes   = 8 << 30
	pcStreams     = 2
	pcWarm        = 6 * time.Second // PSI avg10 needs seconds to rise before doctor samples
	pcMeasure     = 3 * time.Second
	pcMaxRatio    = 0.2
)

func init() {
	register(&Scenario{
		Name:    "page-cache-pressure",
		Summary: "the LKML CDN-cache report's shape: a service in a memory cgroup streams a large mmap'd file while receiving; memcg reclaim stalls it (PSI); drop-behind stops it",
		Failure: &Failure{
			Expect: []string{"direct-reclaim-stalls"},
			Metric: MetricSpec{
				Name: "memory_stall_share", Unit: "%", Better: "lower",
				Margin: fmt.Sprintf("after ≤ %g × before", pcMaxRatio),
				Check:  func(b, a float64) bool { return b > 0 && a <= pcMaxRatio*b },
			},
			Fix:     "drop-behind in the reader (MADV_DONTNEED + POSIX_FADV_DONTNEED on each chunk read)",
			Timeout: 2 * time.Minute,
			Run:     runPageCache,
		},
	})
}

// psiSomeTotal reads the cgroup's memory.pressure "some total" in microseconds.
func psiSomeTotal(cg *netlab.Cgroup) (int64, error) {
	p, path, err := cg.Pressure()
	if err != nil {
		return 0, err
	}
	if p.Some == nil {
		return 0, fmt.Errorf("lab: %s has no \"some\" line", path)
	}
	return p.Some.TotalUsec, nil
}

func runPageCache(ctx context.Context, e *Env) (*FailureRun, error) {
	l := e.Lab
	a, b, lk, err := pairOnVeth(l)
	if err != nil {
		return nil, err
	}
	dir, err := e.Objects.NewDir("page-cache")
	if err != nil {
		return nil, err
	}
	file := filepath.Join(dir, "storage")
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	// Sparse: no disk space used; each page read is a zero-filled page-cache page charged
	// to the reader's cgroup.
	if err := f.Truncate(pcFileBytes); err != nil {
		f.Close()
		return nil, fmt.Errorf("lab: sparse file %s: %w", file, err)
	}
	f.Close()
	run := &FailureRun{}
	addr := net.JoinHostPort(lk.AddrB.String(), "5004")

	phase := func(name string, dropBehind, doctor bool) (float64, []*DoctorResult, error) {
		cg, err := e.Objects.NewCgroup("svc-" + name)
		if err != nil {
			return 0, nil, err
		}
		if cg.V2 == "" {
			return 0, nil, fmt.Errorf("lab: page-cache-pressure needs cgroup2 mounted for the cgroup's memory.pressure: %w", kernel.ErrNotSupported)
		}
		if err := cg.SetMemoryLimit(pcMemoryBytes); err != nil {
			return 0, nil, err
		}
		svc, err := netlab.StartHelper(b, "service", serviceConfig{Cgroups: cg.Dirs(), Listen: addr, File: file, Mmap: true, DontNeed: dropBehind}, nil, 10*time.Second)
		if err != nil {
			return 0, nil, err
		}
		defer svc.Kill()
		snd, err := startBulk(ctx, a, addr, pcStreams)
		if err != nil {
			return 0, nil, err
		}
		defer snd.Stop()
		// Doctor's last sample lands at the end of the measurement window.
		waitDoctor := e.doctorAfter(ctx, doctor, pcWarm+pcMeasure-2*time.Second, b, DoctorOptions{Duration: 2 * time.Second, Cgroup: cg})
		if err := ctxsleep.Sleep(ctx, pcWarm); err != nil {
			return 0, nil, err
		}
		stat0, _, err := cg.MemoryStat()
		if err != nil {
			return 0, nil, err
		}
		p0, err := psiSomeTotal(cg)
		if err != nil {
			return 0, nil, err
		}
		svc.WaitStatus(1, 5*time.Second)
		fb0, _ := svc.Int("file_bytes")
		rx0, _ := svc.Int("rx_bytes")
		t0 := time.Now()
		if err := ctxsleep.Sleep(ctx, pcMeasure); err != nil {
			return 0, nil, err
		}
		p1, err := psiSomeTotal(cg)
		if err != nil {
			return 0, nil, err
		}
		secs := time.Since(t0).Seconds()
		svc.WaitStatus(1, 5*time.Second)
		fb1, _ := svc.Int("file_bytes")
		rx1, _ := svc.Int("rx_bytes")
		stat1, statPath, err := cg.MemoryStat()
		if err != nil {
			return 0, nil, err
		}
		docs, docErr := waitDoctor()
		if docErr != nil {
			return 0, nil, docErr
		}
		share := 100 * float64(p1-p0) / 1e6 / secs
		run.Observed = append(run.Observed,
			Observation{What: "cgroup memory stall share (PSI some)", Phase: name, Value: round1(share), Unit: "%", Source: cg.V2 + "/memory.pressure"},
			Observation{What: "file read by the service", Phase: name, Value: round1(float64(fb1-fb0) / secs / (1 << 20)), Unit: "MiB/s", Source: "service"},
			Observation{What: "network received by the service", Phase: name, Value: round1(float64(rx1-rx0) * 8 / secs / 1e6), Unit: "Mbit/s", Source: "service"})
		for _, k := range []string{"pgpgin", "pgpgout", "pgmajfault"} {
			if d, ok := counterGrowth(stat0, stat1, k); ok {
				run.Observed = append(run.Observed, Observation{What: "cgroup memory.stat " + k, Phase: name, Value: float64(d), Unit: "increase", Source: statPath})
			}
		}
		for _, k := range []string{"cache", "mapped_file", "file"} {
			if v, ok := stat1.Get(k); ok {
				run.Observed = append(run.Observed, Observation{What: "cgroup memory.stat " + k, Phase: name, Value: float64(v), Unit: "bytes", Source: statPath})
			}
		}
		if v, err := cg.ReadInt("memory.failcnt"); err == nil {
			run.Observed = append(run.Observed, Observation{What: "cgroup memory.failcnt (charges that hit the limit)", Phase: name, Value: float64(v), Source: cg.V1Memory})
		}
		e.Progressf("%s: memory stall %.1f%% of the time, file %.0f MiB/s, network %.0f Mbit/s", name, share, float64(fb1-fb0)/secs/(1<<20), float64(rx1-rx0)*8/secs/1e6)
		return share, docs, nil
	}
	before, docs, err := phase("before", false, true)
	if err != nil {
		return nil, err
	}
	run.Doctor, run.Findings = doctorSummaries(docs, e.sc.Failure.Expect)
	for _, d := range docs {
		for _, f := range d.Diagnosis.Findings {
			if f.ID == "direct-reclaim-stalls" {
				run.Notes = append(run.Notes, "direct-reclaim-stalls fired in the "+d.Scope+" view")
			}
		}
	}
	for _, d := range docs {
		if d.Timeline == nil || len(d.Timeline.Samples) < 2 || d.Scope[:5] != "netns" {
			continue
		}
		first, last := d.Timeline.First(), d.Timeline.Last()
		for _, k := range []string{"allocstall_normal", "allocstall_movable", "pgscan_direct", "pgsteal_direct"} {
			x, okA := first.VM(k)
			y, okB := last.VM(k)
			if okA && okB {
				run.Observed = append(run.Observed, Observation{What: "global vmstat " + k, Phase: "before", Value: float64(y - x), Unit: "increase over doctor's window", Source: "/proc/vmstat"})
			}
		}
	}
	run.Settings = "drop-behind: the reader releases each chunk it has read (MADV_DONTNEED, POSIX_FADV_DONTNEED)"
	run.Applied = append(run.Applied, Applied{Host: b.Name, Key: "madvise/fadvise DONTNEED", Value: "after each 1 MiB read", Scope: "application"})
	after, _, err := phase("after", true, false)
	if err != nil {
		return nil, err
	}
	run.Metric = Metric{Before: round1(before), After: round1(after)}
	return run, nil
}
