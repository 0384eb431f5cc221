// Command accuracy scores `headroom doctor` against the labelled corpus of real pastes in
// testdata/corpus (issue 16): it runs the real binary on every case, as a user would, and
// compares the JSON it prints with the facts an expert read off the text by hand.
//
//	go run ./internal/accuracy -bin dist/headroom [-corpus testdata/corpus] [-update] [-misses]
//
// It prints one row per case and a last line
//
//	accuracy: cases=… runs=…/… headers=…% zones=…% values=…% must=…% healthy=…/… root=…% maxcpu=…ms
//
// and exits non-zero when any figure is below the committed baseline (the ratchet: a figure
// only moves up), when a case could not be scored, or when one case took more CPU than its
// limits allow (more than -max-cpu, and more than -max-cpu-ratio times the reference case
// measured beside it; cpu.go says why). -update rewrites the baseline with the figures of this run, refusing to lower one
// unless -allow-lower is given too (for a corpus that grew harder cases; the diff shows it).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

func main() {
	bin := flag.String("bin", "dist/headroom", "the headroom binary to score")
	dir := flag.String("corpus", "testdata/corpus", "the labelled corpus")
	baselinePath := flag.String("baseline", "", "the committed figures (default CORPUS/accuracy-baseline.json)")
	update := flag.Bool("update", false, "write this run's figures as the baseline")
	allowLower := flag.Bool("allow-lower", false, "with -update: accept a baseline below the old one")
	maxCPU := flag.Duration("max-cpu", 100*time.Millisecond, "the CPU time (user+system) a case's first run may take before it is judged against the reference case")
	cpuRatio := flag.Float64("max-cpu-ratio", 5, "the most CPU a case over -max-cpu may take, in units of the reference case's CPU measured beside it")
	cpuRef := flag.String("cpu-ref", "002-kirkwood-mv643xx-order1-slab-2.6.33", "the corpus case the CPU ratio is measured against")
	only := flag.String("run", "", "score only the cases whose stem contains this text")
	quiet := flag.Bool("q", false, "print only the cases that lose a point, and the last line")
	batch := flag.String("batch", "", "score only the cases of this gathering batch (g7 for labels-g7.json); no ratchet")
	recordFirst := flag.Bool("record-first-run", false, "write the newest batch's line (or -batch gN's) to CORPUS/first-runs.json if that batch has none yet (run once, before any fix)")
	misses := flag.Bool("misses", false, "print each labelled number no artifact carries: MISS case value key line artifact-kinds text (tab-separated)")
	used := flag.Bool("used", false, "print for each URL argument whether a case already came from it: USED case, SAME-SECTION? case (same host and first path segments: compare), or NEW; scores nothing")
	flag.Parse()
	if *used {
		cases, err := loadCorpus(*dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "accuracy:", err)
			os.Exit(1)
		}
		usedSources(os.Stdout, cases, flag.Args())
		return
	}
	if *baselinePath == "" {
		*baselinePath = filepath.Join(*dir, "accuracy-baseline.json")
	}
	judge := cpuJudge{limit: *maxCPU, ratio: *cpuRatio, ref: *cpuRef,
		measure: func(path string) (time.Duration, error) {
			r, err := runDoctor(*bin, path)
			return r.CPU, err
		},
		pause: func() { time.Sleep(cpuPause) }}
	if err := run(*bin, *dir, *baselinePath, *update, *allowLower, judge, *only, *batch, *recordFirst, *quiet, *misses); err != nil {
		fmt.Fprintln(os.Stderr, "accuracy:", err)
		os.Exit(1)
	}
}

func run(bin, dir, baselinePath string, update, allowLower bool, judge cpuJudge, only, batch string, recordFirst, quiet, misses bool) error {
	cases, err := loadCorpus(dir)
	if err != nil {
		return err
	}
	newest := newestBatch(cases)
	if judge.ref, err = refText(cases, judge.ref); err != nil {
		return err
	}
	var tot, newTot totals
	var problems []string
	for _, c := range cases {
		if only != "" && !strings.Contains(c.Stem, only) {
			continue
		}
		if batch != "" && c.Batch != batch {
			continue
		}
		out, err := runDoctor(bin, c.TextPath)
		if err != nil {
			return err
		}
		cpu, err := judge.judge(c.TextPath, out.CPU)
		if err != nil {
			return err
		}
		out.CPU = cpu.Least
		s := score(c, out)
		tot.add(c, s)
		if c.Batch == newest {
			newTot.add(c, s)
		}
		if cpu.Over {
			problems = append(problems, fmt.Sprintf("%s took %v of CPU (limits %v, or %.0f× the reference case)", c.Stem, cpu, judge.limit, judge.ratio))
		}
		if !quiet || s.lost() {
			fmt.Println(s.row(c))
		}
		if misses && s.Ran {
			for _, m := range findMisses(c, out) {
				fmt.Println(m.row(c.Stem))
			}
		}
	}
	fig := tot.figures()
	// The newest batch's own line (issue 29: held-out cases are judged apart from the
	// corpus they join), and the line it gave the first time headroom ran on it.
	firstRuns, err := readFirstRuns(filepath.Join(dir, firstRunsFile))
	if err != nil {
		return err
	}
	if newest != "" && only == "" && (batch == "" || batch == newest) && newTot.Cases > 0 {
		fmt.Printf("newest batch %s now:  %s\n", newest, newTot.figures().line())
		if l, ok := firstRuns[newest]; ok {
			fmt.Printf("newest batch %s first run: %s\n", newest, l)
		} else if recordFirst {
			firstRuns[newest] = newTot.figures().line()
			if err := writeFirstRuns(filepath.Join(dir, firstRunsFile), firstRuns); err != nil {
				return err
			}
			fmt.Printf("newest batch %s first run recorded in %s\n", newest, firstRunsFile)
		}
	}
	if recordFirst && batch != "" && batch != newest && only == "" && tot.Cases > 0 {
		// A round of several batches committed together: each is recorded by name
		// (-batch gN), once, like the newest.
		if l, ok := firstRuns[batch]; ok {
			fmt.Printf("batch %s first run: %s\n", batch, l)
		} else {
			firstRuns[batch] = fig.line()
			if err := writeFirstRuns(filepath.Join(dir, firstRunsFile), firstRuns); err != nil {
				return err
			}
			fmt.Printf("batch %s first run recorded in %s\n", batch, firstRunsFile)
		}
	}
	fmt.Println(fig.line())
	if only != "" || batch != "" {
		return nil
	}
	base, err := readBaseline(baselinePath)
	if err != nil && !(update && errors.Is(err, os.ErrNotExist)) {
		return err
	}
	if update {
		if lower := fig.below(base); len(lower) > 0 && !allowLower {
			return fmt.Errorf("refusing to lower the baseline (%s); add -allow-lower if the corpus grew harder", strings.Join(lower, ", "))
		}
		return writeBaseline(baselinePath, fig)
	}
	if lower := fig.below(base); len(lower) > 0 {
		problems = append(problems, "below the baseline "+baselinePath+": "+strings.Join(lower, ", "))
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// doctorRun is what one `headroom doctor --format json FILE` gave.
type doctorRun struct {
	Exit   int
	Report map[string]any // nil when the output was not JSON
	Err    string         // why Report is nil, or stderr
	CPU    time.Duration
}

func runDoctor(bin, path string) (doctorRun, error) {
	cmd := exec.Command(bin, "doctor", "--format", "json", path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var r doctorRun
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return r, fmt.Errorf("running %s: %w", bin, err)
		}
	}
	r.Exit = cmd.ProcessState.ExitCode()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	if err := json.Unmarshal(stdout.Bytes(), &r.Report); err != nil {
		r.Report = nil
		r.Err = "output is not JSON: " + err.Error()
		if s := strings.TrimSpace(stderr.String()); s != "" {
			r.Err += " (stderr: " + firstLine(s) + ")"
		}
	}
	return r, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// firstRunsFile keeps, per gathering batch, the line its cases gave the first time headroom
// ran on them (after the labels were committed, before any fix): the held-out figure that
// later fixes cannot rewrite. -record-first-run writes a batch's entry once.
const firstRunsFile = "first-runs.json"

func readFirstRuns(path string) (map[string]string, error) {
	m := map[string]string{}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

func writeFirstRuns(path string, m map[string]string) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// readBaseline and writeBaseline keep the figures as JSON so that a diff shows which moved.
func readBaseline(path string) (figures, error) {
	var f figures
	b, err := os.ReadFile(path)
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return f, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

func writeBaseline(path string, f figures) error {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// sortedKeys is for stable output.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
