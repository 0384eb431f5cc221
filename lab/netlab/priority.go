package netlab

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// runNice is the nice value the lab process runs its measurements at (RunBulk, Iperf3). The lab measures the
// kernel, not the scheduler: the delay line, the workload and the softirq work they trigger
// all run on this process's threads, and on a 2-core machine shared with other jobs a few
// milliseconds without CPU show up as lost throughput (measured: 35–73 Mbit/s instead of
// 96 Mbit/s at 100 Mbit/s × 125 ms while two fuzzers ran). -10 lets the lab preempt
// ordinary jobs without starving the system.
const runNice = -10

// RaisePriority sets every thread of this process to runNice and returns a function that
// puts each thread back to the nice value it had. Linux keeps nice per thread
// (setpriority(2), NOTES) and a new thread inherits its creator's, so threads the Go runtime
// starts later inherit the raised value; the restore function resets those to the value of
// the thread that was current when RaisePriority ran. Failure (no CAP_SYS_NICE) leaves
// priorities alone.
func RaisePriority() (restore func()) {
	tids := threadIDs()
	old := map[int]int{}
	base, err := unix.Getpriority(unix.PRIO_PROCESS, unix.Gettid())
	if err != nil {
		return func() {}
	}
	// getpriority(2) returns 20 - nice for PRIO_PROCESS through the raw syscall.
	baseNice := 20 - base
	for _, tid := range tids {
		p, err := unix.Getpriority(unix.PRIO_PROCESS, tid)
		if err != nil {
			continue
		}
		if unix.Setpriority(unix.PRIO_PROCESS, tid, runNice) == nil {
			old[tid] = 20 - p
		}
	}
	return func() {
		for _, tid := range threadIDs() {
			n, ok := old[tid]
			if !ok {
				n = baseNice
			}
			unix.Setpriority(unix.PRIO_PROCESS, tid, n)
		}
	}
}

func threadIDs() []int {
	es, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range es {
		if id, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, id)
		}
	}
	return out
}
