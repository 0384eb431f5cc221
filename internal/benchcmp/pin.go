package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"headroom/internal/contention"
	"headroom/kernel"
)

// quietCPU returns the online CPU, among those this process may run on, that has taken the
// fewest interrupts since boot (from /proc/interrupts), the one where a measured process is least often interrupted by device
// and timer work, or -1 when that cannot be told.
//
// Why the sampler comparison pins: on this 2-CPU VM the same C floor run costs 218-231 µs per
// sample pinned to CPU 0 and 144-255 µs on CPU 1, which takes the disk and network
// interrupts (measured 2026-11-21). Unpinned, a run lands on either, so the paired ratio of
// two runs mixed the two CPUs' noise (0.97x-1.73x within one `make bench`). Both sides of
// the comparison run on the same CPU, alternating, so neither gains from it.
func quietCPU() int {
	in, err := kernel.ReadInterrupts(kernel.HostRoot())
	if err != nil || len(in.CPUs) == 0 {
		return -1
	}
	sums := make([]int64, len(in.CPUs))
	for _, l := range in.Lines {
		for i, v := range l.PerCPU {
			if i < len(sums) {
				sums[i] += v
			}
		}
	}
	var allowed unix.CPUSet // a container's cpuset may exclude some CPUs
	if err := unix.SchedGetaffinity(0, &allowed); err != nil {
		return -1
	}
	best, cpu := int64(-1), -1
	for i, name := range in.CPUs {
		n, err := strconv.Atoi(strings.TrimPrefix(name, "CPU"))
		if err != nil || !allowed.IsSet(n) {
			continue
		}
		if best < 0 || sums[i] < best {
			best, cpu = sums[i], n
		}
	}
	return cpu
}

// cpuEnv passes the CPU to a Go child, which pins only the thread that runs its measured
// loop (pinSelf): the Go runtime's own threads (sysmon, the garbage collector's workers)
// must not be confined to the same CPU as the loop, or they preempt it there and add
// context switches and cache refills that a C program, with no such threads, never pays.
// Pinned whole, the Go read loop alone measured 1.06x–1.52x of the C floor's over six runs;
// with only the loop's thread pinned, 1.06x–1.09x over three (0.95x–1.05x unpinned).
const cpuEnv = "HEADROOM_BENCHCMP_CPU"

// pinSelf pins the calling goroutine's thread to the CPU in cpuEnv, if set. Called at the
// start of a child, on the main goroutine, which then runs the measured loop.
func pinSelf() error {
	v := os.Getenv(cpuEnv)
	if v == "" {
		return nil
	}
	cpu, err := strconv.Atoi(v)
	if err != nil || cpu < 0 {
		return fmt.Errorf("%s=%q: want a CPU number", cpuEnv, v)
	}
	runtime.LockOSThread() // for the rest of the process
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("pin to CPU %d: %w", cpu, err)
	}
	return nil
}

// runPinned runs cmd as runChild does, with its measured loop on cpu (none when cpu < 0).
// A Go child of ours (childEnv set) pins its own loop's thread (pinSelf). Any other child is
// single-threaded (the C floor) and is pinned whole: a child inherits the affinity of the
// thread that forks it, and Go forks on the calling goroutine's thread, so this goroutine
// holds its thread, narrows that thread's mask for the fork and restores it before waiting.
func runPinned(cmd *exec.Cmd, cpu int) ([]byte, error) {
	if cpu < 0 {
		return runChild(cmd)
	}
	for _, e := range cmd.Env {
		if strings.HasPrefix(e, childEnv+"=") {
			cmd.Env = append(cmd.Env, cpuEnv+"="+strconv.Itoa(cpu))
			return runChild(cmd)
		}
	}
	start := func() error {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var old, set unix.CPUSet
		if err := unix.SchedGetaffinity(0, &old); err != nil {
			return fmt.Errorf("sched_getaffinity: %w", err)
		}
		set.Set(cpu)
		if err := unix.SchedSetaffinity(0, &set); err != nil {
			return fmt.Errorf("pin to CPU %d: %w", cpu, err)
		}
		defer unix.SchedSetaffinity(0, &old)
		return cmd.Start()
	}
	return runStarted(cmd, start)
}

// stealNote says how much CPU time the hypervisor gave other guests during the run (pct,
// from contention.Meter.Steal; ok false when it could not be measured). On this shared VM a
// run with steal at contention.Threshold or more is a disturbed run (the 00:28 UTC run of
// 2026-11-22 took 305 ms for doctor's 28 ms, with CPU pressure at 16% and nothing of ours
// running), and the header says so rather than letting such figures pass for the code's. The
// threshold is the one the load-sensitive tests use.
func stealNote(pct float64, ok bool) string {
	if !ok {
		return "steal time not available"
	}
	note := fmt.Sprintf("steal %.1f%% of CPU time during the run", pct)
	if pct >= contention.Threshold {
		note += fmt.Sprintf(" (≥ %.0f%%: the hypervisor ran other guests on our CPUs; treat the figures as disturbed and run again)", contention.Threshold)
	}
	return note
}
