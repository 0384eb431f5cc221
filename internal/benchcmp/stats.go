package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// dist is the values of repeated runs of one measurement.
type dist []float64

func (d dist) sorted() []float64 {
	s := append([]float64(nil), d...)
	sort.Float64s(s)
	return s
}

// median of the runs; NaN when there are none.
func (d dist) median() float64 {
	if len(d) == 0 {
		return math.NaN()
	}
	s := d.sorted()
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func (d dist) min() float64 { return d.sorted()[0] }
func (d dist) max() float64 { s := d.sorted(); return s[len(s)-1] }

// fmtDur formats nanoseconds as the table shows them: "162 µs", "2.91 ms", "1.24 s".
func fmtDur(ns float64) string {
	switch {
	case math.IsNaN(ns):
		return "n/a"
	case ns < 10e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	case ns < 1e6:
		return fmt.Sprintf("%.0f µs", ns/1e3)
	case ns < 100e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns < 1e9:
		return fmt.Sprintf("%.0f ms", ns/1e6)
	}
	return fmt.Sprintf("%.2f s", ns/1e9)
}

// fmtDist is "median [min–max]" of a distribution of nanoseconds.
func fmtDist(d dist) string {
	if len(d) == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%s [%s–%s]", fmtDur(d.median()), fmtDur(d.min()), fmtDur(d.max()))
}

// fmtDistUnit is fmtDist for a plain quantity.
func fmtDistUnit(d dist, format string) string {
	if len(d) == 0 {
		return "n/a"
	}
	return fmt.Sprintf(format+" ["+format+"–"+format+"]", d.median(), d.min(), d.max())
}

// fmtRatio is "1.12x", or "n/a".
func fmtRatio(r float64) string {
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return "n/a"
	}
	if r < 0.1 {
		return fmt.Sprintf("%.3fx", r)
	}
	return fmt.Sprintf("%.2fx", r)
}

// fmtRatioDist is "[min–max]" of a distribution of ratios.
func fmtRatioDist(d dist) string {
	if len(d) == 0 {
		return "n/a"
	}
	return fmt.Sprintf("[%s–%s]", fmtRatio(d.min()), fmtRatio(d.max()))
}

// pairedRatios divides run i of a by run i of b. The runs of both sides are interleaved in
// time, so on a machine whose load drifts each pair saw about the same conditions; the
// median of the per-pair ratios is steadier than a ratio of medians.
func pairedRatios(a, b dist) dist {
	var r dist
	for i := range min(len(a), len(b)) {
		if b[i] > 0 {
			r = append(r, a[i]/b[i])
		}
	}
	return r
}

// rusageCPU is user+system CPU of a finished child from wait4 (the kernel's accounting,
// with the precision of the scheduler's runtime, not of ticks).
func rusageCPU(ps *os.ProcessState) time.Duration {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return ps.UserTime() + ps.SystemTime()
	}
	return time.Duration(syscall.TimevalToNsec(ru.Utime) + syscall.TimevalToNsec(ru.Stime))
}

// selfCPU is user+system CPU of this process so far (getrusage RUSAGE_SELF: every thread).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(syscall.TimevalToNsec(ru.Utime) + syscall.TimevalToNsec(ru.Stime))
}

// clockTicks is USER_HZ, the unit of utime and stime in /proc/PID/stat, from the AT_CLKTCK
// entry of this process's auxiliary vector (what sysconf(_SC_CLK_TCK) returns); 100 if the
// vector cannot be read.
func clockTicks() int64 {
	const atClkTck = 17 // include/uapi/linux/auxvec.h
	b, err := os.ReadFile("/proc/self/auxv")
	if err != nil {
		return 100
	}
	word := strconv.IntSize / 8
	for i := 0; i+2*word <= len(b); i += 2 * word {
		var k, v uint64
		if word == 8 {
			k, v = binary.NativeEndian.Uint64(b[i:]), binary.NativeEndian.Uint64(b[i+word:])
		} else {
			k, v = uint64(binary.NativeEndian.Uint32(b[i:])), uint64(binary.NativeEndian.Uint32(b[i+word:]))
		}
		if k == atClkTck && v > 0 {
			return int64(v)
		}
	}
	return 100
}

// procCPUTicks is utime+stime of every thread of pid, from /proc/PID/stat fields 14 and 15
// (proc(5)), in USER_HZ ticks.
func procCPUTicks(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// comm (field 2) may hold spaces and parentheses: the fields resume after the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no ')' in %q", pid, b)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields after comm", pid, len(f))
	}
	// f[0] is field 3 (state), so utime (14) is f[11] and stime (15) f[12].
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: utime %q stime %q", pid, f[11], f[12])
	}
	return u + s, nil
}

// procStatusKB returns a "Name:   N kB" line of /proc/PID/status (VmRSS, VmHWM).
func procStatusKB(pid int, name string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, name+":"); ok {
			v = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB"))
			return strconv.ParseInt(v, 10, 64)
		}
	}
	return 0, fmt.Errorf("/proc/%d/status: no %s", pid, name)
}

// keyValues parses the "k=v k=v" line a child prints.
func keyValues(out []byte) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		for _, kv := range strings.Fields(line) {
			if k, v, ok := strings.Cut(kv, "="); ok {
				m[k] = v
			}
		}
	}
	return m
}

func kvFloat(m map[string]string, k string) (float64, error) {
	v, ok := m[k]
	if !ok {
		return 0, fmt.Errorf("no %s in the child's output %v", k, m)
	}
	return strconv.ParseFloat(v, 64)
}

// runChild runs cmd and returns its stdout; a failure carries the first line of stderr.
func runChild(cmd *exec.Cmd) ([]byte, error) { return runStarted(cmd, cmd.Start) }

// runStarted is runChild with start for cmd.Start (runPinned's).
func runStarted(cmd *exec.Cmd, start func() error) ([]byte, error) {
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := start()
	if err == nil {
		err = cmd.Wait()
	}
	out := stdout.Bytes()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return out, fmt.Errorf("%s: %w: %s", cmd.Args[0], err, msg)
	}
	return out, nil
}
