package lab

import (
	"strconv"
	"strings"
	"testing"

	"headroom/source/tracetest"
)

// The kernel's own drop reasons in the lab's scenarios, with a traced doctor window
// (FailureOptions.Trace). A refused charge of receive memory makes tcp_data_queue drop
// segments as PROTO_MEM (net/ipv4/tcp_input.c, after tcp_try_rmem_schedule fails): in
// tcp-memory-squeeze the memory cgroup's 1 MiB TCP limit refuses it (no global knob), in
// tcp-mem-low the global 2 MiB tcp_mem. backlog-drops' 4-packet netdev_max_backlog makes
// enqueue_to_backlog drop as CPU_BACKLOG (net/core/dev.c). Each reason must be counted and
// cited by the scenario's expected finding (its first evidence, "N in …"). SOCKET_RCVBUFF
// is cmd/headroom's TestLabDoctorTraceRcvbuff. The global ones change a sysctl for a few
// seconds through the lab's journal (restored; runFailureScenario compares the host's
// sysctls), so they run only where HEADROOM_LAB_GLOBAL=1.
func TestTraceReasonsScenarios(t *testing.T) {
	needRoot(t)
	tracetest.Need(t)
	for _, c := range []struct {
		scenario, finding, reason string
		min                       uint64
		global                    bool
	}{
		{"tcp-memory-squeeze", "tcp-memory-pressure", "PROTO_MEM", 10, false},
		{"tcp-mem-low", "tcp-memory-pressure", "PROTO_MEM", 10, true},
		// The flood's rate, and so the backlog's drops in the traced window, falls with what
		// else runs on the machine: 64 with two CPU burners beside the CI (2026-12-01), some
		// hundreds on an idle one. The proof is the reason counted in the window and cited by
		// the finding, not its size, so the floor is the others' 10.
		{"backlog-drops", "softnet-backlog-drops", "CPU_BACKLOG", 10, true},
	} {
		t.Run(c.scenario, func(t *testing.T) {
			if c.global {
				needGlobal(t)
			}
			rep := runFailureScenario(t, c.scenario, FailureOptions{AllowGlobal: c.global, Trace: true})
			var counted uint64
			cited := false
			for _, r := range rep.Runs {
				for _, d := range r.Doctor {
					if d.Trace == nil {
						continue
					}
					n, _ := d.Trace.DropsFor(c.reason)
					counted = max(counted, n)
					for _, f := range d.Expected {
						if f.ID != c.finding || len(f.Evidence) == 0 {
							continue
						}
						ev := f.Evidence[0]
						cited = cited || (strings.Contains(ev.What, c.reason) && strings.HasPrefix(ev.Value, strconv.FormatUint(n, 10)+" in "))
					}
				}
			}
			t.Logf("%s: %s counted %d; cited by %s: %v", c.scenario, c.reason, counted, c.finding, cited)
			if counted < c.min {
				t.Errorf("%s counted %d in the traced doctor window, want ≥ %d", c.reason, counted, c.min)
			}
			if !cited {
				t.Errorf("no %s finding whose first evidence cites the %d %s drops", c.finding, counted, c.reason)
			}
		})
	}
}
