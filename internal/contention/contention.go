// Package contention tells a load-sensitive test whether the machine gave it the CPU it
// asked for. headroom's lab and recovery tests assert throughput and recovery margins on the
// real kernel; on a virtual machine whose host is overcommitted, the hypervisor runs other
// guests on our CPUs (steal time, the eighth column of /proc/stat's cpu line) and every
// such margin fails for reasons that are not in the code. Measured on the CI VM on
// 2026-11-22: 19% and 39% steal during two benchmark runs, and a CI run in which the
// long-fat-pipe transfer reached 76 of 100 Mbit/s and a healthy proxy measured as not
// recovered, where the runs an hour before passed with room to spare.
//
// A test starts a Meter before its measurement and, when a margin fails after the test's own
// retries, asks Disturbed: with steal at or above Threshold percent of CPU time, or other
// processes of this machine using OthersThreshold percent of it, the test skips and says
// so; otherwise it fails as before. Only failures that contention can cause
// (too slow, too little) are excused; results that are wrong in the other direction still
// fail.
package contention

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// Threshold is the steal share, in percent of all CPU time, from which a run is disturbed.
// An idle moment on the CI VM showed 1.4–6.7%; a loaded quiet one stays under it.
const Threshold = 5.0

// OthersThreshold is the share of all CPU time, in percent, that processes other than the
// test (and the children it waited for) spent in user and system mode, from which a run is
// disturbed: other jobs on the same machine take the CPUs the test's workload needed, which
// steal does not show (issue 27: with two busy loops on this 2-vCPU machine a healthy proxy
// measured 35 connections/s after a flood against 51 before, 0.69 of its baseline, on 3 of
// 4 runs). Two busy loops on 2 CPUs are 100%; a quiet CI run with the go tool and a
// logger stays under 10%. Interrupt and softirq time is left out: the test's own traffic
// is processed there.
const OthersThreshold = 25.0

// Meter remembers /proc/stat's cpu line and this process's CPU time at its start.
type Meter struct {
	start []int64
	ours  int64 // ticks of user and system time of this process and its waited-for children
}

// Start reads the cpu line now. A machine without /proc/stat gives a Meter that never
// reports contention.
func Start() Meter { return Meter{start: cpuLine(), ours: ownTicks()} }

// ownTicks is this process's user and system time and that of the children it waited for,
// in /proc/stat's unit (USER_HZ, 100 per second on Linux).
func ownTicks() int64 {
	var t int64
	for _, who := range []int{unix.RUSAGE_SELF, unix.RUSAGE_CHILDREN} {
		var ru unix.Rusage
		if unix.Getrusage(who, &ru) == nil {
			t += ru.Utime.Nano() + ru.Stime.Nano()
		}
	}
	return t / 1e7
}

// Others returns the share of all CPU time, in percent, that other processes spent in user
// and system mode since Start, and whether it could be measured.
func (m Meter) Others() (float64, bool) {
	now, total, ok := m.since()
	if !ok {
		return 0, false
	}
	busy := (now[0] - m.start[0]) + (now[1] - m.start[1]) + (now[2] - m.start[2])
	others := max(busy-(ownTicks()-m.ours), 0)
	return 100 * float64(others) / float64(total), true
}

// Steal returns the steal share, in percent of all CPU time, since Start, and whether it
// could be measured.
func (m Meter) Steal() (float64, bool) {
	now, total, ok := m.since()
	if !ok {
		return 0, false
	}
	return 100 * float64(now[7]-m.start[7]) / float64(total), true
}

// Disturbed reports whether other processes' CPU time since Start reached OthersThreshold
// or steal reached Threshold, with a sentence for a skip message.
func (m Meter) Disturbed() (bool, string) {
	if pct, ok := m.Others(); ok && pct >= OthersThreshold {
		return true, fmt.Sprintf("machine contention: other processes used %.0f%% of this machine's CPU time during the test (≥ %.0f%%), so its throughput and recovery margins measure their load, not the code", pct, OthersThreshold)
	}
	pct, ok := m.Steal()
	if !ok || pct < Threshold {
		return false, ""
	}
	return true, fmt.Sprintf("host contention: the hypervisor gave %.1f%% of this VM's CPU time to other guests during the test (steal ≥ %.0f%%), so its throughput and recovery margins measure the host, not the code", pct, Threshold)
}

// Fail records a failed load-sensitive margin: t.Error with the message, or, when the run was
// disturbed, t.Skip with the reason and the message. A test that already failed otherwise
// stays failed (Skip does not clear earlier errors).
func (m Meter) Fail(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if d, why := m.Disturbed(); d {
		t.Skipf("%s; it measured: %s", why, msg)
	}
	t.Error(msg)
}

// cpuLine returns the numbers of /proc/stat's first line, or nil.
func cpuLine() []int64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return nil
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return nil
	}
	out := make([]int64, 0, len(f)-1)
	for _, s := range f[1:] {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil
		}
		out = append(out, v)
	}
	return out
}

// since reads the cpu line now and the CPU time of all kinds (user … steal) spent since
// Start, false when either line lacks its first eight columns or no time passed.
func (m Meter) since() (now []int64, total int64, ok bool) {
	now = cpuLine()
	if len(m.start) < 8 || len(now) < 8 {
		return nil, 0, false
	}
	for i := range 8 {
		total += now[i] - m.start[i]
	}
	return now, total, total > 0
}
