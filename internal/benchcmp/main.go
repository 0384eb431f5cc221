// Command benchcmp is `make bench`: it measures headroom against the physical floor and its
// peers in one run, side by side, and prints a table of ratios ending in a one-line summary
// for scripts:
//
//	summary: sampler/floor=1.12x serve/node_exporter=0.18x parse=140MB/s parse/grep=6.1x
//
// Every figure is CPU time from the kernel's accounting (getrusage, wait4, /proc/PID/stat),
// the median of repeated runs with their min and max; the runs of the two sides of a
// comparison are interleaved so that both see the same load. docs/performance.md describes
// the method and keeps the latest table, and the summary line of every run (history.go):
// each run prints the lines before its own and names a figure that regressed.
//
// The comparisons:
//   - sampler: source.Sampler (the code doctor, record and serve sample with) against
//     bench/floor.c, compiled here with cc -O2, reading the same files the same way (open
//     once, pread to EOF each sample) without parsing. Sockets, ethtool and pagetypeinfo
//     are off on both sides; the scaling section measures sockets separately. Sysctls and
//     static host facts are read once per run, not per sample, on both sides.
//   - serve: `headroom serve` against node_exporter (collectors meminfo, vmstat, buddyinfo,
//     netdev, netstat, sockstat, softnet, pressure), both started here on free loopback ports
//     and scraped the same number of times the way Prometheus scrapes.
//   - parse: artifact.Parse against grep -c on the same generated syslog file.
//   - doctor: `headroom doctor` end to end on this host, less its sampling window.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"headroom/internal/contention"
)

type config struct {
	repo       string // module root (where go.mod is)
	tmp        string
	runs       int
	samples    int
	scrapes    int
	parseBytes int64
	doctorRuns int
	scale      bool
	only       map[string]bool
	verbose    bool
	stderr     io.Writer
	cpu        int // the CPU the sampler comparison pins both sides to; -1 none
}

// row is one line of the table.
type row struct {
	what     string // what was measured
	headroom string
	peer     string // what it was compared with, and its figure
	ratio    string
	note     string
}

// result is what a section contributes: rows, the summary fields it owns, and how its
// figures stand against the targets.
type result struct {
	rows    []row
	summary map[string]string
	targets []string
}

// target is "met" or "NOT MET" with the figure and the bound.
func target(ok bool, format string, args ...any) string {
	verdict := "met    "
	if !ok {
		verdict = "NOT MET"
	}
	return verdict + " " + fmt.Sprintf(format, args...)
}

func main() {
	if mode := os.Getenv(childEnv); mode != "" {
		os.Exit(runChildMode(mode, os.Args[1:]))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("benchcmp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg config
	var only string
	var keep bool
	var parseMB int
	fs.IntVar(&cfg.runs, "runs", 7, "repeated runs of each measurement (medians, min, max)")
	fs.IntVar(&cfg.samples, "samples", 2000, "sampler: samples per run")
	fs.IntVar(&cfg.scrapes, "scrapes", 300, "serve: scrapes per run")
	fs.IntVar(&parseMB, "parse-mib", 100, "parse: size of the generated syslog, MiB")
	fs.IntVar(&cfg.doctorRuns, "doctor-runs", 5, "doctor: runs")
	fs.BoolVar(&cfg.scale, "scale", true, "also measure how cost grows: sockets (1k, 10k), CPUs and zones")
	fs.StringVar(&only, "only", "", "comma-separated sections to run: sampler,serve,parse,doctor,scale")
	fs.BoolVar(&keep, "keep", false, "keep the temporary directory (built binaries, generated files)")
	fs.BoolVar(&cfg.verbose, "v", false, "progress on stderr")
	cpu := fs.String("cpu", "auto", "sampler: the CPU both sides run on, alternating (auto: the one with the fewest interrupts; none: not pinned)")
	fs.StringVar(&cfg.repo, "repo", "", "module root (default: found from the working directory)")
	history := fs.String("history", "", "file whose bench-history block keeps the summary line of every run (default: docs/performance.md of the module)")
	record := fs.Bool("record", true, "append this run's summary line to the history")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if cfg.runs < 1 || cfg.samples < 1 || cfg.scrapes < 1 || parseMB < 1 || cfg.doctorRuns < 1 {
		fmt.Fprintln(stderr, "benchcmp: counts must be positive")
		return 2
	}
	cfg.parseBytes = int64(parseMB) << 20
	switch *cpu {
	case "auto":
		cfg.cpu = quietCPU()
	case "none":
		cfg.cpu = -1
	default:
		n, err := strconv.Atoi(*cpu)
		if err != nil || n < 0 {
			fmt.Fprintf(stderr, "benchcmp: -cpu %s: want a CPU number, auto or none\n", *cpu)
			return 2
		}
		cfg.cpu = n
	}
	cfg.stderr = stderr
	if only != "" {
		cfg.only = map[string]bool{}
		for _, s := range strings.Split(only, ",") {
			cfg.only[strings.TrimSpace(s)] = true
		}
	}
	if cfg.repo == "" {
		r, err := findRepo()
		if err != nil {
			fmt.Fprintf(stderr, "benchcmp: %v\n", err)
			return 2
		}
		cfg.repo = r
	}
	tmp, err := os.MkdirTemp("", "headroom-bench-")
	if err != nil {
		fmt.Fprintf(stderr, "benchcmp: %v\n", err)
		return 2
	}
	cfg.tmp = tmp
	if keep {
		fmt.Fprintf(stderr, "benchcmp: keeping %s\n", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}

	started := time.Now()
	load0, meter := loadAvg(), contention.Start()
	sections := []struct {
		name string
		fn   func(*config) result
	}{
		{"sampler", benchSampler},
		{"serve", benchServe},
		{"parse", benchParse},
		{"doctor", benchDoctor},
		{"scale", benchScale},
	}
	var rows []row
	var targets []string
	summary := map[string]string{}
	for _, s := range sections {
		if cfg.only != nil && !cfg.only[s.name] {
			continue
		}
		if s.name == "scale" && !cfg.scale && cfg.only == nil {
			continue
		}
		cfg.logf("%s ...", s.name)
		t0 := time.Now()
		res := s.fn(&cfg)
		cfg.logf("%s done in %s", s.name, time.Since(t0).Round(time.Millisecond))
		rows = append(rows, res.rows...)
		targets = append(targets, res.targets...)
		for k, v := range res.summary {
			summary[k] = v
		}
	}

	fmt.Fprintf(stdout, "headroom make bench, %s\n", started.UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(stdout, "machine: %s\n", machine())
	load1 := loadAvg()
	steal, stealOK := meter.Steal()
	fmt.Fprintf(stdout, "load average at start %s, at end %s; %s; %s in all\n\n", load0, load1, stealNote(steal, stealOK), time.Since(started).Round(time.Second))
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "measured (CPU time unless said)\theadroom: median [min–max]\tcompared with: median [min–max]\tratio\t")
	var notes []string
	for _, r := range rows {
		ref := ""
		if r.note != "" {
			notes = append(notes, r.note)
			ref = fmt.Sprintf("[%d]", len(notes))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.what, r.headroom, r.peer, r.ratio, ref)
	}
	tw.Flush()
	fmt.Fprintln(stdout)
	for i, n := range notes {
		fmt.Fprintf(stdout, "[%d] %s\n", i+1, n)
	}
	if len(targets) > 0 {
		fmt.Fprintln(stdout)
		fmt.Fprintln(stdout, "targets (issues 12 and 33):")
		for _, t := range targets {
			fmt.Fprintf(stdout, "  %s\n", t)
		}
	}
	fmt.Fprintln(stdout)
	get := func(k string) string {
		if v, ok := summary[k]; ok {
			return v
		}
		return "n/a"
	}
	line := fmt.Sprintf("sampler/floor=%s serve/node_exporter=%s parse=%s parse/grep=%s",
		get("sampler/floor"), get("serve/node_exporter"), get("parse"), get("parse/grep"))
	fmt.Fprintf(stdout, "summary: %s\n", line)
	if *history == "" {
		*history = filepath.Join(cfg.repo, "docs", "performance.md")
	}
	showHistory(stdout, stderr, *history, *record, historyLine(started, load0, load1, steal, stealOK, gitRevision(cfg.repo), line))
	return 0
}

// showHistory prints the summary lines of the runs before this one, this run's, and the
// figures that regressed, and appends this run's line to the file when record is set.
func showHistory(stdout, stderr io.Writer, path string, record bool, line string) {
	hist, err := readHistory(path)
	if err != nil {
		fmt.Fprintf(stderr, "benchcmp: history: %v\n", err)
		return
	}
	fmt.Fprintf(stdout, "\nhistory of the summary line (%s):\n", path)
	for _, l := range hist[max(0, len(hist)-12):] {
		fmt.Fprintf(stdout, "  %s\n", l)
	}
	fmt.Fprintf(stdout, "  %s   <- this run\n", line)
	for _, r := range regressions(hist, summaryFigures(line)) {
		fmt.Fprintf(stdout, "REGRESSION? %s\n", r)
	}
	if record {
		if err := appendHistory(path, line); err != nil {
			fmt.Fprintf(stderr, "benchcmp: history: %v\n", err)
		}
	}
}

func (c *config) logf(format string, args ...any) {
	if c.verbose {
		fmt.Fprintf(c.stderr, "benchcmp: "+format+"\n", args...)
	}
}

// findRepo walks up from the working directory to the go.mod of module headroom.
func findRepo() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(strings.TrimSpace(string(b)), "module headroom") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the headroom module (no go.mod with module headroom above the working directory); use -repo")
		}
		dir = parent
	}
}

// machine is "Linux 6.18.44, 2 CPUs, Intel(R) Xeon(R) Processor".
func machine() string {
	rel, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("Linux %s, %d CPUs, %s, %s", strings.TrimSpace(string(rel)), runtime.NumCPU(), model, runtime.Version())
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// self is the path of this program, re-executed for the measured Go side.
func self() (string, error) { return os.Executable() }

// childCmd is this program in a child mode.
func childCmd(mode string, args ...string) (*exec.Cmd, error) {
	exe, err := self()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), childEnv+"="+mode)
	return cmd, nil
}

// goTool is the go command that built this program, for building headroom itself.
func goTool() string {
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); fileExists(p) {
		return p
	}
	return "go"
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// buildHeadroom builds cmd/headroom once per run into the temporary directory, the way the
// release binaries are built (Makefile, cross and build): static, without cgo, so that serve
// is measured as operators run it. A cgo build links libc, whose mapped pages alone added
// 1.7 MB of RSS to serve here (20.3 MB against 18.5 MB, 300 scrapes each, 2026-11-22).
func (c *config) buildHeadroom() (string, error) {
	out := filepath.Join(c.tmp, "headroom")
	if fileExists(out) {
		return out, nil
	}
	cmd := exec.Command(goTool(), append([]string{"build", "-o", out}, releaseBuildFlags...)...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Dir = c.repo
	if b, err := cmd.CombinedOutput(); err != nil {
		msg := strings.TrimSpace(string(b))
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return "", fmt.Errorf("go build ./cmd/headroom failed: %s", msg)
	}
	return out, nil
}

// releaseBuildFlags are the Makefile's release flags (CROSS and build), with the package.
var releaseBuildFlags = []string{"-trimpath", "-ldflags=-s -w", "./cmd/headroom"}

func na(what, peer, why string) row {
	return row{what: what, headroom: "n/a", peer: peer, ratio: "n/a", note: why}
}

// naResult is a section that could not measure: its row says why, and so do its targets.
func naResult(what, peer, why string, targets ...string) result {
	r := result{rows: []row{na(what, peer, why)}}
	for _, t := range targets {
		r.targets = append(r.targets, "n/a     "+t+": "+why)
	}
	return r
}
