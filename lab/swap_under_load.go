package lab

import (
	"context"
	"fmt"
	"headroom/internal/ctxsleep"
	"headroom/units"
	"net"
	"os"
	"strconv"
	"time"

	"headroom/kernel"
	"headroom/lab/netlab"
)

// swap-under-load: zram swap, and a service in a memory cgroup whose anonymous working set
// (a 192 MiB region it writes to page after page, over and over) does not fit its 160 MiB
// limit, while it receives two bulk TCP streams. Every pass over the working set swaps out
// what the next pass needs back: the cgroup's reclaim writes anonymous pages to zram and the
// faults read them back. Swap I/O is counted in the global vmstat (pswpin/pswpout, in the
// swap I/O path whoever reclaims), so doctor's host view sees it directly.
//
// swap-under-load recommends vm.swappiness 10. The scenario measures that change, applied to
// the service's cgroup only (v1 memory.swappiness): it cannot help here, because swappiness
// weighs anonymous against file reclaim (mm/vmscan.c get_scan_count) and this cgroup has
// almost no file pages to reclaim instead; with a file stream beside a working set that fits,
// the kernel trims the page cache and does not swap even at swappiness 100 (measured while
// building this scenario: 0 KiB/s). The fix that works is memory for the working set: the
// cgroup's limit raised to the working set plus 64 MiB.
//
// Metric: swap traffic (pswpin + pswpout) in KiB/s over the measurement. Thresholds: doctor,
// run live in the service's namespace, must report swap-under-load; with the working set
// fitting, the swap traffic must be at most a tenth of what it was.
//
// The zram device (512 MiB, hot_add) and its swap area are journaled objects of the run:
// swapoff and hot_remove at the end, by the sweeper after a crash.
const (
	swapZramBytes    = 512 << 20
	swapLimitBytes   = 160 << 20
	swapHogBytes     = 192 << 20
	swapFitBytes     = swapHogBytes + 64<<20
	swapRuleValue    = 10
	swapStreams      = 2
	swapWarm         = 3 * time.Second
	swapMeasure      = 3 * time.Second
	swapMaxRatio     = 0.1
	swapZramPriority = 32000
)

func init() {
	register(&Scenario{
		Name:    "swap-under-load",
		Summary: "zram swap and a service in a memory cgroup whose working set does not fit: it swaps while receiving; swappiness 10 does not help, memory for the working set does",
		Failure: &Failure{
			HostMemory: true,
			Expect:     []string{"swap-under-load"},
			Metric: MetricSpec{
				Name: "swap_traffic", Unit: "KiB/s", Better: "lower",
				Margin: fmt.Sprintf("after ≤ %g × before", swapMaxRatio),
				Check:  func(b, a float64) bool { return b > 0 && a <= swapMaxRatio*b },
			},
			Fix:     "the cgroup's memory limit raised to the working set + 64 MiB (swappiness 10, the rule's change, is measured too)",
			Timeout: 2 * time.Minute,
			Run:     runSwapUnderLoad,
		},
	})
}

func runSwapUnderLoad(ctx context.Context, e *Env) (*FailureRun, error) {
	l := e.Lab
	a, b, lk, err := pairOnVeth(l)
	if err != nil {
		return nil, err
	}
	dev, err := e.Objects.NewZramSwap(swapZramBytes, swapZramPriority)
	if err != nil {
		return nil, err
	}
	e.Progressf("swap on %s, %s of zram", dev, units.FormatBytes(swapZramBytes))
	run := &FailureRun{}
	run.Notes = append(run.Notes, fmt.Sprintf("swap: %s, %s of zram", dev, units.FormatBytes(swapZramBytes)))
	addr := net.JoinHostPort(lk.AddrB.String(), "5005")
	vmstat := func() (kernel.Counters, error) { return kernel.ReadVMStat(kernel.HostRoot()) }

	// swappiness < 0 keeps what the cgroup inherited (vm.swappiness).
	phase := func(name string, limit int64, swappiness int, doctor bool) (float64, []*DoctorResult, error) {
		cg, err := e.Objects.NewCgroup("svc-" + name)
		if err != nil {
			return 0, nil, err
		}
		if err := cg.SetMemoryLimit(limit); err != nil {
			return 0, nil, err
		}
		if swappiness >= 0 {
			if err := cg.SetSwappiness(swappiness); err != nil {
				return 0, nil, err
			}
		}
		svc, err := netlab.StartHelper(b, "service", serviceConfig{Cgroups: cg.Dirs(), Listen: addr, HogBytes: swapHogBytes}, nil, 10*time.Second)
		if err != nil {
			return 0, nil, err
		}
		defer svc.Kill()
		snd, err := startBulk(ctx, a, addr, swapStreams)
		if err != nil {
			return 0, nil, err
		}
		defer snd.Stop()
		waitDoctor := e.doctorAfter(ctx, doctor, swapWarm, b, DoctorOptions{Duration: 2 * time.Second, Cgroup: cg})
		if err := ctxsleep.Sleep(ctx, swapWarm); err != nil {
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
		if err := ctxsleep.Sleep(ctx, swapMeasure); err != nil {
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
		docs, docErr := waitDoctor()
		if docErr != nil {
			return 0, nil, docErr
		}
		pageKB := float64(os.Getpagesize()) / 1024
		var kbs float64
		for _, k := range []string{"pswpin", "pswpout"} {
			d, ok := counterGrowth(v0, v1, k)
			if !ok {
				return 0, nil, fmt.Errorf("lab: /proc/vmstat has no %s", k)
			}
			rate := float64(d) * pageKB / secs
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
		sw, _ := cg.ReadInt("memory.swappiness")
		run.Observed = append(run.Observed, Observation{What: "cgroup memory.swappiness", Phase: name, Value: float64(sw), Source: cg.V1Memory},
			Observation{What: "cgroup memory limit", Phase: name, Value: float64(limit), Unit: "bytes", Source: cg.V1Memory})
		e.Progressf("%s (limit %s, swappiness %d): swap %.0f KiB/s, network %.0f Mbit/s", name, units.FormatBytes(limit), sw, kbs, float64(rx1-rx0)*8/secs/1e6)
		return kbs, docs, nil
	}
	before, docs, err := phase("before", swapLimitBytes, -1, true)
	if err != nil {
		return nil, err
	}
	run.Doctor, run.Findings = doctorSummaries(docs, e.sc.Failure.Expect)
	// The rule's own change, scoped to the cgroup.
	ruleSw, _, err := phase("swappiness", swapLimitBytes, swapRuleValue, false)
	if err != nil {
		return nil, err
	}
	run.Notes = append(run.Notes, fmt.Sprintf("swap-under-load's change (swappiness %d, here on the cgroup): swap %.0f → %.0f KiB/s; it cannot help when the anonymous working set itself does not fit", swapRuleValue, before, ruleSw))
	run.Applied = append(run.Applied, Applied{Host: "cgroup svc-after", Key: "memory.limit_in_bytes", Value: strconv.FormatInt(swapFitBytes, 10), Scope: "cgroup"})
	run.Settings = fmt.Sprintf("memory limit %s (the %s working set + 64 MiB) instead of %s", units.FormatBytes(swapFitBytes), units.FormatBytes(swapHogBytes), units.FormatBytes(swapLimitBytes))
	after, _, err := phase("after", swapFitBytes, -1, false)
	if err != nil {
		return nil, err
	}
	run.Metric = Metric{Before: round1(before), After: round1(after)}
	return run, nil
}
