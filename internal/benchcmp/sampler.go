package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"headroom/kernel"
	"headroom/source"
)

// samplerFiles is the list of files one sample reads on this host, from the sampler itself.
func samplerFiles() ([]string, error) {
	s := source.NewSampler(kernel.HostRoot(), source.Options{})
	defer s.Close()
	files := s.Files()
	if len(files) == 0 {
		return nil, fmt.Errorf("the sampler opened no file under /")
	}
	return files, nil
}

// floorArgs marks the single-record files ("1:PATH") the sampler reads with one pread
// (source.SingleRecord), so the floor and the Go loop stop at the same short read.
func floorArgs(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f
		if strings.HasPrefix(f, "/") && source.SingleRecord(strings.TrimPrefix(f, "/")) {
			out[i] = "1:" + f
		}
	}
	return out
}

// buildFloor compiles bench/floor.c with cc -O2.
func (c *config) buildFloor() (string, error) {
	out := filepath.Join(c.tmp, "floor")
	if fileExists(out) {
		return out, nil
	}
	cc, err := exec.LookPath("cc")
	if err != nil {
		return "", fmt.Errorf("no C compiler (cc) to build bench/floor.c")
	}
	cmd := exec.Command(cc, "-O2", "-o", out, filepath.Join(c.repo, "bench", "floor.c"))
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("cc bench/floor.c: %v: %s", err, b)
	}
	return out, nil
}

// runFloor runs the C floor for n samples and returns its CPU per sample (ns) and its bytes.
func runFloor(floor, mode string, n, cpu int, files []string) (float64, float64, error) {
	out, err := runPinned(exec.Command(floor, append([]string{mode, strconv.Itoa(n)}, files...)...), cpu)
	if err != nil {
		return 0, 0, err
	}
	kv := keyValues(out)
	ns, err := kvFloat(kv, "cpu_ns_per_sample")
	if err != nil {
		return 0, 0, err
	}
	b, _ := kvFloat(kv, "bytes")
	return ns, b, nil
}

// samplerRun is one run of the Go sampler child.
type samplerRun struct {
	ns, allocs, heapBytes float64
	files, sockets        int
	nicStats              string // NICs whose driver answered ETHTOOL_GSTATS, or "-"
}

func runSampler(n, cpu int, args ...string) (samplerRun, error) {
	cmd, err := childCmd("sampler", append([]string{"-n", strconv.Itoa(n)}, args...)...)
	if err != nil {
		return samplerRun{}, err
	}
	out, err := runPinned(cmd, cpu)
	if err != nil {
		return samplerRun{}, err
	}
	kv := keyValues(out)
	var r samplerRun
	if r.ns, err = kvFloat(kv, "cpu_ns_per_sample"); err != nil {
		return r, err
	}
	r.allocs, _ = kvFloat(kv, "allocs_per_sample")
	r.heapBytes, _ = kvFloat(kv, "heap_bytes_per_sample")
	f, _ := kvFloat(kv, "files")
	s, _ := kvFloat(kv, "sockets")
	r.files, r.sockets, r.nicStats = int(f), int(s), kv["nic_stats"]
	return r, nil
}

// benchSampler compares source.Sampler with the C floor over the same files, in the same run.
//
// Both sides are whole processes measured the same way: each reports its own getrusage
// RUSAGE_SELF (user+system, every thread) over its sample loop, after a warm-up, divided by
// the number of samples; process start-up is outside the loop on both sides. The Go side's
// figure includes its garbage collector and runtime threads. Runs alternate C, Go, C, Go,
// all on one CPU (quietCPU, -cpu) unless -cpu none.
func benchSampler(c *config) result {
	const what = "sampler: CPU per full sample"
	floorName := "C floor (bench/floor.c)"
	files, err := samplerFiles()
	if err != nil {
		return naResult(what, floorName, err.Error(), samplerTargets...)
	}
	marked := floorArgs(files)
	floor, err := c.buildFloor()
	if err != nil {
		return naResult(what, floorName, err.Error(), samplerTargets...)
	}
	var goNS, cNS, freshNS, onceNS, readNS, preadNS dist
	var allocs, freshAllocs dist
	var bytes float64
	var nfiles int
	for i := range c.runs {
		c.logf("sampler run %d/%d", i+1, c.runs)
		pair := [2]func() error{
			func() error {
				ns, b, err := runFloor(floor, "eof", c.samples, c.cpu, marked)
				cNS, bytes = append(cNS, ns), b
				return err
			},
			func() error {
				r, err := runSampler(c.samples, c.cpu)
				goNS, allocs, nfiles = append(goNS, r.ns), append(allocs, r.allocs), r.files
				return err
			},
		}
		if i%2 == 1 {
			pair[0], pair[1] = pair[1], pair[0]
		}
		for _, f := range pair {
			if err := f(); err != nil {
				return naResult(what, floorName, err.Error(), samplerTargets...)
			}
		}
		// Informational variants, fewer runs' worth of samples.
		if ns, _, err := runFloor(floor, "once", c.samples, c.cpu, marked); err == nil {
			onceNS = append(onceNS, ns)
		}
		if r, err := runSampler(c.samples/4, c.cpu, "-fresh"); err == nil {
			freshNS, freshAllocs = append(freshNS, r.ns), append(freshAllocs, r.allocs)
		}
		if cmd, err := childCmd("pread", append([]string{"-n", strconv.Itoa(c.samples)}, marked...)...); err == nil {
			if out, err := runPinned(cmd, c.cpu); err == nil {
				if ns, err := kvFloat(keyValues(out), "cpu_ns_per_sample"); err == nil {
					preadNS = append(preadNS, ns)
				}
			}
		}
		if cmd, err := childCmd("readfile", append([]string{"-n", strconv.Itoa(max(c.samples/8, 1))}, files...)...); err == nil {
			if out, err := runPinned(cmd, c.cpu); err == nil {
				if ns, err := kvFloat(keyValues(out), "cpu_ns_per_sample"); err == nil {
					readNS = append(readNS, ns)
				}
			}
		}
	}
	ratio := pairedRatios(goNS, cNS)
	files0 := fmt.Sprintf("%d files, %.1f KB per sample", len(files), bytes/1e3)
	if nfiles != len(files) {
		files0 += fmt.Sprintf(" (the child opened %d files: the host changed between runs)", nfiles)
	}
	rows := []row{{
		what:     what + " (SampleInto, reused storage)",
		headroom: fmtDist(goNS),
		peer:     floorName + ": " + fmtDist(cNS),
		ratio:    fmtRatio(ratio.median()),
		note: fmt.Sprintf("%s; %d runs × %d samples, alternating, %s; paired ratio range %s–%s; %.1f heap allocs/sample; sysctls and host facts read once per run, not per sample; no sockets, ethtool or pagetypeinfo",
			files0, c.runs, c.samples, pinNote(c.cpu), fmtRatio(ratio.min()), fmtRatio(ratio.max()), allocs.median()),
	}}
	if len(freshNS) > 0 {
		rows = append(rows, row{
			what:     "  sampler, fresh Sample each time (doctor, record)",
			headroom: fmtDist(freshNS),
			peer:     floorName + ": " + fmtDist(cNS),
			ratio:    fmtRatio(freshNS.median() / cNS.median()),
			note:     fmt.Sprintf("%.0f heap allocs/sample; %d samples per run", freshAllocs.median(), c.samples/4),
		})
	}
	if len(onceNS) > 0 {
		rows = append(rows, row{
			what:     "  floor variant: one pread per file, no read to EOF",
			headroom: fmtDist(goNS),
			peer:     "C: " + fmtDist(onceNS),
			ratio:    fmtRatio(goNS.median() / onceNS.median()),
			note:     "may stop short of the end of a multi-page seq_file; information only",
		})
	}
	if len(preadNS) > 0 {
		rows = append(rows, row{
			what:     "  Go, the floor's loop: pread to EOF, no parsing",
			headroom: fmtDist(preadNS),
			peer:     floorName + ": " + fmtDist(cNS),
			ratio:    fmtRatio(preadNS.median() / cNS.median()),
			note:     fmt.Sprintf("so parsing and filling the Sample cost about %s of the sampler's %s", fmtDur(goNS.median()-preadNS.median()), fmtDur(goNS.median())),
		})
	}
	if len(readNS) > 0 {
		rows = append(rows, row{
			what:     "  Go os.ReadFile per file, no parsing",
			headroom: fmtDist(readNS),
			peer:     floorName + ": " + fmtDist(cNS),
			ratio:    fmtRatio(readNS.median() / cNS.median()),
			note:     "open+fstat+read+close each sample: why the sampler keeps files open",
		})
	}
	return result{rows: rows, summary: map[string]string{"sampler/floor": fmtRatio(ratio.median())},
		targets: []string{
			target(ratio.median() <= 1.3, "sampler ≤ 1.3 × the C floor per sample: %s", fmtRatio(ratio.median())),
			target(allocs.median() == 0, "steady-state sample allocates nothing on the Go heap: %.1f allocations per sample", allocs.median()),
		}}
}

// samplerTargets are the targets this section checks, for when it cannot measure.
var samplerTargets = []string{"sampler ≤ 1.3 × the C floor per sample", "steady-state sample allocates nothing on the Go heap"}

// pinNote says where the sampler comparison ran.
func pinNote(cpu int) string {
	if cpu < 0 {
		return "not pinned"
	}
	return fmt.Sprintf("both pinned to CPU %d (the fewest interrupts)", cpu)
}
