package lab

import (
	"context"
	"fmt"
	"net"
	"os"
	"strconv"
	"time"

	"headroom/internal/ctxsleep"
	"headroom/kernel"
	"headroom/lab/netlab"
	"headroom/plan"
	"headroom/units"

	"golang.org/x/sys/unix"
)

// tcp-memory-squeeze: a receiving service in a memory cgroup whose TCP socket memory is
// limited to 1 MiB (cgroup v1 memory.kmem.tcp.limit_in_bytes), fed by 4 bulk streams over an
// unshaped veth pair. When a socket's charge to the cgroup fails, __sk_mem_raise_allocated
// (net/core/sock.c) refuses the memory: the receive path prunes (tcp_prune_queue: TcpExt
// PruneCalled, OfoPruned, RcvPruned) and drops segments (TCPRcvQDrop, TCPOFODrop), and the
// sender waits for retransmission timeouts. Measured before this scenario was written:
// 17.6 Gbit/s with the limit off, 157 Mbit/s at 1 MiB.
//
// The fix is a budget from `headroom plan`: the service's link (the veth advertises 10 Gbit/s,
// drivers/net/veth.c veth_get_link_ksettings; a LAN round trip of 1 ms is planned for, the
// veth's own is about 0.05 ms), its streams, and the memory of the container (256 MiB, the
// cgroup's memory.limit_in_bytes) as the host the plan budgets for. The plan's tcp_rmem is
// applied in the service's network namespace (a per-namespace key), and the cgroup's TCP
// limit is set to the plan's worst case for the receiver (streams × planned tcp_rmem max), so
// the sockets can never outgrow the limit. No global knob is touched.
//
// Thresholds: doctor, run live in the service's namespace during the squeeze, must report
// rcvq-pruning or tcp-memory-pressure; the throughput with the planned budget must be at
// least 10 × the squeezed one (measured figures in docs/lab-results.md).
const (
	squeezeStreams         = 4
	squeezeTCPLimitBytes   = 1 << 20
	squeezeMemoryBytes     = 256 << 20
	squeezePlanRTT         = time.Millisecond
	squeezeDefaultLinkMbps = 10000
	squeezeWarm            = time.Second
	squeezeMeasure         = 3 * time.Second
	squeezeMinImprovement  = 10.0
	squeezeUnlimitedBytes  = 1 << 62
)

func init() {
	register(&Scenario{
		Name:    "tcp-memory-squeeze",
		Summary: "a receiver in a memory cgroup with 1 MiB of TCP memory: throughput collapses, pruning and drops; the plan's budget restores it",
		Failure: &Failure{
			Expect: []string{"rcvq-pruning", "tcp-memory-pressure"},
			Metric: MetricSpec{
				Name: "throughput", Unit: "Mbit/s", Better: "higher",
				Margin: fmt.Sprintf("after ≥ %g × before", squeezeMinImprovement),
				Check:  func(b, a float64) bool { return a >= squeezeMinImprovement*b && a > 0 },
			},
			Fix:     "tcp_rmem from `headroom plan` in the service's namespace and the cgroup's TCP limit at the plan's worst case for its streams",
			Timeout: 90 * time.Second,
			Run:     runTCPSqueeze,
		},
	})
}

func runTCPSqueeze(ctx context.Context, e *Env) (*FailureRun, error) {
	l := e.Lab
	a, b, lk, err := pairOnVeth(l)
	if err != nil {
		return nil, err
	}
	cg, err := e.Objects.NewCgroup("svc")
	if err != nil {
		return nil, err
	}
	if err := cg.SetMemoryLimit(squeezeMemoryBytes); err != nil {
		return nil, err
	}
	// Accounting of socket memory in a v1 memcg starts with the first write of the TCP limit
	// (memcg1 tcpmem_active); a value above PAGE_COUNTER_MAX is clamped to it
	// (page_counter_memparse): accounting on, no limit, for the reference.
	if err := cg.SetTCPLimit(squeezeUnlimitedBytes); err != nil {
		return nil, err
	}
	addr := net.JoinHostPort(lk.AddrB.String(), "5001")
	svc, err := netlab.StartHelper(b, "service", serviceConfig{Cgroups: cg.Dirs(), Listen: addr}, nil, 10*time.Second)
	if err != nil {
		return nil, err
	}
	defer svc.Kill()
	run := &FailureRun{}
	src := "/proc/net/netstat in " + b.Netns()

	measure := func(phase string, doctor bool) (float64, []*DoctorResult, error) {
		for _, f := range []string{"memory.kmem.tcp.max_usage_in_bytes", "memory.kmem.tcp.failcnt"} {
			netlab.WriteCgroupFile(cg.V1Memory, f, "0")
		}
		ph, err := e.runSinkPhase(ctx, a, b, addr, svc, squeezeStreams, squeezeWarm, squeezeMeasure, doctor, DoctorOptions{Duration: 2 * time.Second, Cgroup: cg})
		if err != nil {
			return 0, nil, err
		}
		bps := ph.bps
		run.Observed = append(run.Observed, counterObservations(ph.ns0, ph.ns1, "TcpExt", phase, src,
			"PruneCalled", "RcvPruned", "OfoPruned", "TCPRcvQDrop", "TCPOFODrop", "TCPRcvCollapsed", "TCPMemoryPressures")...)
		for _, f := range []string{"memory.kmem.tcp.max_usage_in_bytes", "memory.kmem.tcp.failcnt", "memory.kmem.tcp.limit_in_bytes"} {
			if v, err := cg.ReadInt(f); err == nil {
				run.Observed = append(run.Observed, Observation{What: "cgroup " + f, Phase: phase, Value: float64(v), Source: cg.V1Memory})
			}
		}
		run.Observed = append(run.Observed, Observation{What: "throughput", Phase: phase, Value: round1(bps / 1e6), Unit: "Mbit/s", Source: "bytes read by the service"})
		e.Progressf("%s: %.1f Mbit/s", phase, bps/1e6)
		// Let the aborted connections' RSTs reach the service so its sockets close and
		// uncharge before the next phase.
		ctxsleep.Sleep(ctx, 300*time.Millisecond)
		return bps / 1e6, ph.docs, nil
	}

	// Reference: accounting on, no limit.
	if _, _, err := measure("reference", false); err != nil {
		return nil, err
	}
	// The failure.
	if err := cg.SetTCPLimit(squeezeTCPLimitBytes); err != nil {
		return nil, err
	}
	before, docs, err := measure("before", true)
	if err != nil {
		return nil, err
	}
	run.Doctor, run.Findings = doctorSummaries(docs, e.sc.Failure.Expect)

	// The fix: the plan for this service.
	linkMbps := int64(squeezeDefaultLinkMbps)
	b.Read(func(root kernel.Root) error {
		if nics, err := kernel.ReadNICs(root); err == nil {
			for _, n := range nics {
				if n.Name == lk.DevB && n.SpeedMbps > 0 {
					linkMbps = n.SpeedMbps
				}
			}
		}
		return nil
	})
	var uts unix.Utsname
	unix.Uname(&uts)
	pl, err := plan.Compute(plan.Input{
		BandwidthBitsPerSec: float64(linkMbps) * 1e6, RTT: squeezePlanRTT, Streams: squeezeStreams,
		Role: plan.RoleReceiver, MemoryBytes: squeezeMemoryBytes, PageSizeBytes: os.Getpagesize(),
		KernelVersion: unix.ByteSliceToString(uts.Release[:]), Arch: unix.ByteSliceToString(uts.Machine[:]),
	})
	if err != nil {
		return nil, fmt.Errorf("lab: plan for the service: %w", err)
	}
	var rmem string
	for _, c := range pl.Settings {
		if c.Key == "net.ipv4.tcp_rmem" {
			rmem = c.Recommended
		}
	}
	if rmem == "" {
		return nil, fmt.Errorf("lab: the plan has no tcp_rmem")
	}
	scope, got, err := l.SetSysctl(b, "net.ipv4.tcp_rmem", rmem, false)
	if err != nil {
		return nil, err
	}
	if scope != netlab.ScopeNetns {
		return nil, fmt.Errorf("lab: tcp_rmem is %s here, not per namespace: the scenario would need a global change", scope)
	}
	run.Applied = append(run.Applied, Applied{Host: b.Name, Key: "net.ipv4.tcp_rmem", Value: got, Scope: scope})
	budget := pl.Budget.WorstCaseBytes
	if err := cg.SetTCPLimit(budget); err != nil {
		return nil, err
	}
	run.Applied = append(run.Applied, Applied{Host: cg.Name, Key: "memory.kmem.tcp.limit_in_bytes", Value: strconv.FormatInt(budget, 10), Scope: "cgroup"})
	run.Settings = fmt.Sprintf("plan: %d Mbit/s, RTT %v, %d streams, %s container: tcp_rmem %s, TCP budget %s", linkMbps, squeezePlanRTT, squeezeStreams, units.FormatBytes(squeezeMemoryBytes), got, units.FormatBytes(budget))
	run.Notes = append(run.Notes, "plan budget: "+pl.Budget.Why)
	after, _, err := measure("after", false)
	if err != nil {
		return nil, err
	}
	run.Metric = Metric{Before: round1(before), After: round1(after)}
	return run, nil
}
