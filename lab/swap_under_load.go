package lab

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"headroom/kernel"
)

// swap-under-load: zram swap, and a service in a memory cgroup that keeps an anonymous
// working set in use, streams a file through the page cache and receives two bulk TCP
// streams. The cgroup's limit holds the working set but not the working set plus the
// stream, so the cgroup reclaims continuously; how much of that reclaim is swap-out of the
// working set is what vm.swappiness decides (mm/vmscan.c get_scan_count weighs anon against
// file by swappiness; a cgroup v1 memcg has its own memory.swappiness, inherited from
// vm.swappiness when the cgroup is created). Swap I/O is counted in the global vmstat
// (pswpin/pswpout, counted in the swap I/O path whoever reclaims), so doctor's host view
// sees it directly.
//
// The fix is swap-under-load's own recommendation, vm.swappiness 10, applied to the
// service's cgroup only (v1 memory.swappiness), not to the host.
//
// Metric: swap traffic (pswpin + pswpout) in KiB/s over the measurement. Thresholds: doctor,
// run live in the service's namespace, must report swap-under-load; the swap traffic with
// swappiness 10 must be at most a tenth of what it was.
//
// The zram device (512 MiB, hot_add) and its swap area are journaled objects of the run:
// swapoff and hot_remove at the end, by the sweeper after a crash.
var (
	swapZramBytes    int64 = 512 << 20
	swapLimitBytes   int64 = 160 << 20
	swapHogBytes     int64 = 112 << 20
	swapFileBytes    int64 = 8 << 30
	swapBefore             = 100
	swapAfter              = 10
	swapStreams            = 2
	swapWarm               = 3 * time.Second
	swapMeasure            = 3 * time.Second
	swapMaxRatio           = 0.1
	swapZramPriority       = 32000
)

func init() {
	if v := os.Getenv("HR_SWAP_EXP"); v != "" {
		fmt.Sscanf(v, "%d %d %d %d %d", &swapLimitBytes, &swapHogBytes, &swapBefore, &swapAfter, &swapStreams)
	}
	register(&Scenario{
		Name:    "swap-under-load",
		Summary: "zram swap and a service in a memory cgroup whose working set and file stream do not fit: it swaps while receiving; swappiness 10 on its cgroup stops it",
		Failure: &Failure{
			Expect: []string{"swap-under-load"},
			Metric: MetricSpec{
				Name: "swap_traffic", Unit: "KiB/s", Better: "lower",
				Margin: fmt.Sprintf("after ≤ %g × before", swapMaxRatio),
				Check:  func(b, a float64) bool { return b > 0 && a <= swapMaxRatio*b },
			},
			Fix:     "memory.swappiness 10 on the service's cgroup (swap-under-load's vm.swappiness, scoped to the cgroup)",
			Timeout: 2 * time.Minute,
			Run:     runSwapUnderLoad,
		},
	})
}

func runSwapUnderLoad(ctx context.Context, e *Env) (*FailureRun, error) {
	l := e.Lab
	a, err := l.AddHost("a")
	if err != nil {
		return nil, err
	}
	b, err := l.AddHost("b")
	if err != nil {
		return nil, err
	}
	lk, err := l.Connect(a, b, LinkSpec{})
	if err != nil {
		return nil, err
	}
	dev, err := e.Objects.NewZramSwap(swapZramBytes, swapZramPriority)
	if err != nil {
		return nil, err
	}
	dir, err := e.Objects.NewDir("swap")
	if err != nil {
		return nil, err
	}
	file := filepath.Join(dir, "stream")
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(swapFileBytes); err != nil {
		f.Close()
		return nil, err
	}
	f.Close()
	run := &FailureRun{}
	run.Notes = append(run.Notes, fmt.Sprintf("swap: %s, %s of zram", dev, formatBytes(swapZramBytes)))
	addr := net.JoinHostPort(lk.AddrB.String(), "5005")
	vmstat := func() (kernel.Counters, error) { return kernel.ReadVMStat(kernel.HostRoot()) }

	phase := func(name string, swappiness int, doctor bool) (float64, []*DoctorResult, error) {
		cg, err := e.Objects.NewCgroup("svc-" + name)
		if err != nil {
			return 0, nil, err
		}
		if err := cg.SetMemoryLimit(swapLimitBytes); err != nil {
			return 0, nil, err
		}
		if err := cg.SetSwappiness(swappiness); err != nil {
			return 0, nil, err
		}
		fileArg := file
		if os.Getenv("HR_SWAP_NOFILE") != "" {
			fileArg = ""
		}
		svc, err := startHelper(b, "service", serviceConfig{Cgroups: cg.Dirs(), Listen: addr, HogBytes: swapHogBytes, File: fileArg}, nil, 10*time.Second)
		if err != nil {
			return 0, nil, err
		}
		defer svc.Kill()
		snd, err := startBulk(ctx, a, addr, swapStreams)
		if err != nil {
			return 0, nil, err
		}
		defer snd.Stop()
		var docs []*DoctorResult
		var docErr error
		var wg sync.WaitGroup
		if doctor {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if sleepCtx(ctx, swapWarm) != nil {
					return
				}
				docs, docErr = e.Doctor(ctx, b, DoctorOptions{Duration: 2 * time.Second, Cgroup: cg})
			}()
		}
		if err := sleepCtx(ctx, swapWarm); err != nil {
			return 0, nil, err
		}
		v0, err := vmstat()
		if err != nil {
			return 0, nil, err
		}
		svc.WaitStatus(1, 5*time.Second)
		rx0, _ := svc.Int("rx_bytes")
		hog0, _ := svc.Int("hog_pages")
		t0 := time.Now()
		if err := sleepCtx(ctx, swapMeasure); err != nil {
			return 0, nil, err
		}
		v1, err := vmstat()
		if err != nil {
			return 0, nil, err
		}
		secs := time.Since(t0).Seconds()
		svc.WaitStatus(1, 5*time.Second)
		rx1, _ := svc.Int("rx_bytes")
		hog1, _ := svc.Int("hog_pages")
		wg.Wait()
		if docErr != nil {
			return 0, nil, docErr
		}
		pageKB := float64(os.Getpagesize()) / 1024
		var kbs float64
		for _, k := range []string{"pswpin", "pswpout"} {
			x, okA := v0.Get(k)
			y, okB := v1.Get(k)
			if !okA || !okB {
				return 0, nil, fmt.Errorf("lab: /proc/vmstat has no %s", k)
			}
			rate := float64(y-x) * pageKB / secs
			kbs += rate
			run.Observed = append(run.Observed, Observation{What: k, Phase: name, Value: round1(rate), Unit: "KiB/s", Source: "/proc/vmstat"})
		}
		run.Observed = append(run.Observed,
			Observation{What: "network received by the service", Phase: name, Value: round1(float64(rx1-rx0) * 8 / secs / 1e6), Unit: "Mbit/s", Source: "service"},
			Observation{What: "working-set pages touched", Phase: name, Value: round1(float64(hog1-hog0) / secs), Unit: "pages/s", Source: "service"})
		if st, p, err := cg.MemoryStat(); err == nil {
			for _, k := range []string{"swap", "rss", "cache"} {
				if v, ok := st.Get(k); ok {
					run.Observed = append(run.Observed, Observation{What: "cgroup memory.stat " + k, Phase: name, Value: float64(v), Unit: "bytes", Source: p})
				}
			}
		}
		e.Progressf("%s (swappiness %d): swap %.0f KiB/s, network %.0f Mbit/s", name, swappiness, kbs, float64(rx1-rx0)*8/secs/1e6)
		return kbs, docs, nil
	}
	before, docs, err := phase("before", swapBefore, true)
	if err != nil {
		return nil, err
	}
	run.Doctor, run.Findings = doctorSummaries(docs, e.sc.Failure.Expect)
	run.Applied = append(run.Applied, Applied{Host: "cgroup svc-after", Key: "memory.swappiness", Value: strconv.Itoa(swapAfter), Scope: "cgroup"})
	run.Settings = fmt.Sprintf("memory.swappiness %d on the service's cgroup (was %d)", swapAfter, swapBefore)
	after, _, err := phase("after", swapAfter, false)
	if err != nil {
		return nil, err
	}
	run.Metric = Metric{Before: round1(before), After: round1(after)}
	return run, nil
}
