package lab

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"headroom/diagnose"
	"headroom/judge"
	"headroom/kernel"
	"headroom/lab/netlab"
	"headroom/model"
	"headroom/report"
	"headroom/source"
)

// Failure scenarios (issue 9) reproduce one of the seeds' failures on this kernel inside
// namespaces and memory cgroups, run doctor's collection and rules live against it, apply
// the fix and measure the same metric before and after. Each scenario file states its
// thresholds next to its code; measured numbers go to docs/lab-results.md.
type Failure struct {
	// Expect lists finding ids; doctor must report at least one of them during the failure.
	Expect []string
	// Metric says what before/after measure.
	Metric MetricSpec
	// Fix says in one line what the "after" run changes.
	Fix string
	// Global scenarios change sysctls of the initial namespace (journaled and restored,
	// see docs/lab.md) and run only with AllowGlobal.
	Global bool
	// HostMemory scenarios press on the host's memory where every other run's doctor sees
	// it (swap traffic and reclaim are counted host-wide in /proc/vmstat): they run alone,
	// as a global one does (netlab/globallock.go). Beside another make check, the doctor of
	// rx-unknown-protocol blamed [direct-reclaim-stalls swap-under-load] while the other
	// run's swap-under-load swapped.
	HostMemory bool
	// Variants, when set, run the scenario once per variant, each in fresh namespaces
	// (flood-recovery: a healthy and a leaking proxy). Env.Variant names the current one.
	Variants []string
	// Run reproduces the failure, diagnoses it and measures the fix. It returns one run per
	// call. Teardown of everything it created through Env is the runner's job.
	Run func(ctx context.Context, e *Env) (*FailureRun, error)
	// Timeout bounds one call of Run, setup and teardown included.
	Timeout time.Duration
}

// MetricSpec describes a scenario's metric and the margin its fix must reach.
type MetricSpec struct {
	Name   string
	Unit   string
	Better string // "higher" or "lower"
	// Margin says in words what Check requires ("after ≥ 10 × before").
	Margin string
	Check  func(before, after float64) bool
}

// FailureOptions control a failure run.
type FailureOptions struct {
	// AllowGlobal is required by scenarios that change global sysctls.
	AllowGlobal bool
	// Timeout replaces the scenario's own time bound when > 0.
	Timeout time.Duration
	// Progress receives one-line progress messages.
	Progress func(msg string)
	// Observe is how long orphan-hoard watches the unfixed orphans (0: its default).
	Observe time.Duration
	// Repeat is how many flood/idle/re-measure rounds flood-recovery runs (0: its default).
	Repeat int
	// Variant runs only this variant of a scenario with variants ("" = all).
	Variant string
	// Trace traces the kernel's tracepoints during each doctor window (doctor --trace):
	// drops by the kernel's reason, reclaim and compaction stalls. The tracepoints are the
	// host's, so the counts cover every namespace, the lab's and any other.
	Trace bool
}

// FailureReport is the JSON document of `headroom lab run SCENARIO --format json` for a
// failure scenario.
type FailureReport struct {
	Scenario string        `json:"scenario"`
	Runs     []*FailureRun `json:"runs"`
}

// FailureRun is one reproduction: the failure, what doctor said about it, and the fix.
type FailureRun struct {
	// Settings names what the "after" measurement ran with (the fix), or the variant.
	Settings string `json:"settings"`
	Metric   Metric `json:"metric"`
	// Findings are the ids doctor reported live during the failure (all scopes).
	Findings []string `json:"findings"`
	// Expected are the ids the scenario requires (at least one); Diagnosed says whether
	// doctor reported one of them.
	Expected  []string `json:"expected"`
	Diagnosed bool     `json:"diagnosed"`
	// Doctor is each live doctor run: where it looked and the expected findings in full.
	Doctor []DoctorSummary `json:"doctor"`
	// Observed are the kernel's own counters that show the failure (and the fix).
	Observed []Observation `json:"observed,omitempty"`
	// Applied is the fix as applied.
	Applied []Applied `json:"applied,omitempty"`
	Notes   []string  `json:"notes,omitempty"`
	// Recovery is flood-recovery's phase report.
	Recovery *RecoveryReport `json:"recovery,omitempty"`
}

// Metric is the scenario's measurement before and after the fix.
type Metric struct {
	Name   string  `json:"name"`
	Unit   string  `json:"unit"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	Better string  `json:"better"`
	Margin string  `json:"margin"`
	// OK says whether the fix reached the margin.
	OK bool `json:"ok"`
	// BeforeIsBound: Before is a lower bound (the failure was still going on when the
	// observation window ended).
	BeforeIsBound bool `json:"before_is_bound,omitempty"`
}

// Observation is one number that shows the failure or the fix.
type Observation struct {
	What   string  `json:"what"`
	Phase  string  `json:"phase"` // "reference", "before", "after"
	Value  float64 `json:"value"`
	Unit   string  `json:"unit,omitempty"`
	Source string  `json:"source"`
}

// DoctorSummary is one live doctor run.
type DoctorSummary struct {
	Scope    string             `json:"scope"` // "netns hr-…-b", "cgroup hr-…-svc"
	Findings []string           `json:"findings"`
	Expected []diagnose.Finding `json:"expected_findings,omitempty"`
	// Trace is the traced window doctor read (FailureOptions.Trace).
	Trace *model.TraceWindow `json:"trace,omitempty"`
}

// Env is what a failure scenario's Run works with.
type Env struct {
	Lab     *netlab.Lab
	Objects *netlab.Objects
	Options FailureOptions
	Variant string
	sc      *Scenario
}

// Progressf reports progress.
func (e *Env) Progressf(format string, args ...any) {
	if e.Options.Progress != nil {
		e.Options.Progress(fmt.Sprintf("run %s: ", e.Lab.RunID) + fmt.Sprintf(format, args...))
	}
}

// RunFailure runs a failure scenario (every variant, or Options.Variant) and returns its
// report. Each variant gets a fresh Lab and Objects, torn down whatever happens.
func RunFailure(ctx context.Context, sc *Scenario, opts FailureOptions) (*FailureReport, error) {
	f := sc.Failure
	if f == nil {
		return nil, fmt.Errorf("lab: %s is not a failure scenario", sc.Name)
	}
	if f.Global && !opts.AllowGlobal {
		return nil, fmt.Errorf("lab: %s changes global sysctls of this host (journaled and restored on exit): run it with --allow-global", sc.Name)
	}
	variants := f.Variants
	if opts.Variant != "" {
		found := false
		for _, v := range variants {
			found = found || v == opts.Variant
		}
		if !found {
			return nil, fmt.Errorf("lab: %s has no variant %q (have %v)", sc.Name, opts.Variant, variants)
		}
		variants = []string{opts.Variant}
	}
	if len(variants) == 0 {
		variants = []string{""}
	}
	rep := &FailureReport{Scenario: sc.Name, Runs: []*FailureRun{}}
	for _, v := range variants {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		r, err := runFailureOnce(ctx, sc, opts, v)
		if err != nil {
			name := sc.Name
			if v != "" {
				name += " (" + v + ")"
			}
			return rep, fmt.Errorf("%s: %w", name, err)
		}
		rep.Runs = append(rep.Runs, r)
	}
	return rep, nil
}

func runFailureOnce(ctx context.Context, sc *Scenario, opts FailureOptions, variant string) (run *FailureRun, err error) {
	f := sc.Failure
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = f.Timeout
	}
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, fmt.Errorf("lab: %s exceeded its time bound of %v", sc.Name, timeout))
	defer cancel()
	netlab.SweepEarlierRuns(func(msg string) { progressTo(opts, msg) })
	l, err := netlab.New()
	if err != nil {
		return nil, err
	}
	l.Progress = func(msg string) { progressTo(opts, msg) }
	// Every failure scenario creates namespaces, and most cgroups, zram swap or scratch
	// files: a guardian sweeps them if this process is killed (SIGKILL, the OOM killer),
	// where no deferred Close runs.
	if err := l.Guard(); err != nil {
		l.Close()
		return nil, err
	}
	// The scenario measures on the host's kernel: not while another run changes its global
	// sysctls (netlab/globallock.go).
	if err := l.ShareHost(); err != nil {
		l.Close()
		return nil, err
	}
	if f.HostMemory {
		if err := l.LockHost(); err != nil {
			l.Close()
			return nil, err
		}
	}
	objs, err := netlab.NewObjects(l.RunID)
	if err != nil {
		l.Close()
		return nil, err
	}
	// Objects first (helpers die with their cgroups, swap goes before its device), then the
	// namespaces and the global sysctls.
	defer func() {
		if cerr := objs.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("lab: teardown of run %s: %w", l.RunID, cerr))
		}
		if cerr := l.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("lab: teardown of run %s: %w", l.RunID, cerr))
		}
	}()
	e := &Env{Lab: l, Objects: objs, Options: opts, Variant: variant, sc: sc}
	e.Progressf("%s%s: %s", sc.Name, map[bool]string{true: " (" + variant + ")", false: ""}[variant != ""], sc.Summary)
	run, err = f.Run(ctx, e)
	if err != nil {
		if c := context.Cause(ctx); c != nil && ctx.Err() != nil && !errors.Is(err, c) {
			return nil, errors.Join(c, err)
		}
		return nil, err
	}
	if run.Expected == nil {
		run.Expected = append([]string{}, f.Expect...)
	}
	if run.Findings == nil {
		run.Findings = []string{}
	}
	for _, id := range run.Findings {
		for _, x := range run.Expected {
			if id == x {
				run.Diagnosed = true
			}
		}
	}
	m := &run.Metric
	m.Name, m.Unit, m.Better = f.Metric.Name, f.Metric.Unit, f.Metric.Better
	m.Before, m.After = round3(m.Before), round3(m.After)
	// A scenario without a static Check (flood-recovery: the margin depends on the variant)
	// sets Margin and OK itself.
	if f.Metric.Check != nil {
		m.Margin = f.Metric.Margin
		m.OK = f.Metric.Check(m.Before, m.After)
	}
	e.Progressf("%s before %g, after %g %s (%s: %s); doctor reported %v", m.Name, m.Before, m.After, m.Unit, m.Margin, map[bool]string{true: "met", false: "NOT met"}[m.OK], run.Findings)
	return run, nil
}

func progressTo(opts FailureOptions, msg string) {
	if opts.Progress != nil {
		opts.Progress(msg)
	}
}

func round3(v float64) float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	return math.Round(v*1000) / 1000
}

// DoctorResult is one live doctor run: the Timeline it collected, the diagnosis and the JSON
// report exactly as `headroom doctor --format json` writes it.
type DoctorResult struct {
	Scope     string
	Timeline  *model.Timeline
	Diagnosis diagnose.Diagnosis
	JSON      []byte
}

// IDs returns the finding ids of the JSON report (read back from the JSON, so what a test
// checks is what a user would see).
func (d *DoctorResult) IDs() []string {
	var doc struct {
		Findings []struct {
			ID string `json:"id"`
		} `json:"findings"`
	}
	if json.Unmarshal(d.JSON, &doc) != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, f := range doc.Findings {
		if !seen[f.ID] {
			seen[f.ID] = true
			out = append(out, f.ID)
		}
	}
	return out
}

// DoctorOptions say how a live doctor run samples.
type DoctorOptions struct {
	Duration time.Duration // default 2 s (three samples at 1 s)
	Interval time.Duration // default 1 s
	// Cgroup, when set, is also diagnosed on its own: see doctorCgroup.
	Cgroup *netlab.Cgroup
}

// Doctor runs doctor's live collection inside host h's network namespace — the per-namespace
// files (/proc/net/*, sockets through sock_diag, /proc/sys/net) show h, the global ones
// (vmstat, meminfo, PSI, stat) the machine — and doctor's rules over it, as `headroom doctor
// --format json` would on a host whose network namespace is h's. With opts.Cgroup it also
// diagnoses the cgroup's own pressure (doctorCgroup).
func (e *Env) Doctor(ctx context.Context, h *netlab.Host, opts DoctorOptions) ([]*DoctorResult, error) {
	if opts.Duration <= 0 {
		opts.Duration = 2 * time.Second
	}
	if opts.Interval <= 0 {
		opts.Interval = time.Second
	}
	var cgSamples []model.Sample
	var cgErr error
	var tl *model.Timeline
	var tracer *source.Tracer
	if e.Options.Trace {
		// Started here, in the host's mount namespace (tracefs is the host's), before the
		// samples so the window covers them; the tracer's guard restores it if we are killed.
		var err error
		if tracer, err = source.StartTrace(source.TraceOptions{}); err != nil {
			var na *source.TraceUnavailable
			if errors.As(err, &na) {
				return nil, fmt.Errorf("lab: --trace: %s: %w", na.Why, kernel.ErrNotSupported)
			}
			return nil, fmt.Errorf("lab: --trace: %w", err)
		}
		defer func() {
			if tracer != nil {
				tracer.Stop()
			}
		}()
	}
	err := h.Read(func(root kernel.Root) error {
		var err error
		tl, err = source.Collect(ctx, root, source.CollectOptions{
			Options:  source.DefaultOptions(),
			Duration: opts.Duration,
			Interval: opts.Interval,
			Progress: func(i, n int) {
				if opts.Cgroup != nil {
					s, err := cgroupSample(opts.Cgroup)
					if err != nil && cgErr == nil {
						cgErr = err
					}
					cgSamples = append(cgSamples, s)
				}
			},
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("lab: doctor in %s: %w", h.Netns(), err)
	}
	if tracer != nil {
		w, err := tracer.Stop()
		tracer = nil
		if err != nil {
			return nil, fmt.Errorf("lab: --trace: %w", err)
		}
		tl.Trace = w
		for _, u := range w.NotTraced {
			tl.NotAvailable = append(tl.NotAvailable, model.Unavailable{What: u.What, Why: "not available: " + u.Why})
		}
		e.Progressf("traced %s: %d drops %v, lost %d", w.Duration.Round(time.Millisecond), w.DropsTotal, w.Drops, w.Lost)
	}
	judge.Finish(tl)
	res := []*DoctorResult{diagnoseTimeline("netns "+h.Netns(), tl)}
	if opts.Cgroup != nil {
		if cgErr != nil && !errors.Is(cgErr, kernel.ErrNotSupported) {
			return nil, cgErr
		}
		if cgErr == nil {
			res = append(res, diagnoseTimeline("cgroup "+opts.Cgroup.Name, cgroupTimeline(opts.Cgroup, tl, cgSamples)))
		}
	}
	e.Progressf("doctor (%s): %v", strings.Join(scopes(res), ", "), allIDs(res))
	return res, nil
}

func scopes(rs []*DoctorResult) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Scope)
	}
	return out
}

func allIDs(rs []*DoctorResult) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rs {
		for _, id := range r.IDs() {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	sort.Strings(out)
	return out
}

func diagnoseTimeline(scope string, tl *model.Timeline) *DoctorResult {
	d := diagnose.Run(tl, nil)
	judge.PlaceFindings(tl, &d)
	var buf bytes.Buffer
	report.WriteJSON(&buf, tl, d)
	return &DoctorResult{Scope: scope, Timeline: tl, Diagnosis: d, JSON: buf.Bytes()}
}

// cgroupSample reads the cgroup's PSI memory line at one instant. Sample.Source names the
// cgroup file, so evidence built from it cites that file instead of /proc/pressure/memory.
func cgroupSample(cg *netlab.Cgroup) (model.Sample, error) {
	p, path, err := cg.Pressure()
	if err != nil {
		return model.Sample{Time: time.Now()}, err
	}
	return model.Sample{Time: time.Now(), Source: path, PSI: []kernel.Pressure{p}}, nil
}

// cgroupTimeline is the memory cgroup seen as a host of its own, for the rules that read
// PSI. Why a separate Timeline: memory-cgroup reclaim (try_charge_memcg →
// try_to_free_mem_cgroup_pages) is not counted in the global vmstat reclaim counters
// (mm/vmscan.c counts pgscan/pgsteal only "if (!cgroup_reclaim(sc))", and allocstall only
// in the page allocator's direct reclaim), so doctor's host view sees such a service's
// reclaim only through PSI, diluted by every other task of the machine. The cgroup's own
// memory.pressure (cgroup v2; kernel/sched/psi.c psi_show for the cgroup) has the same
// format and meaning restricted to its tasks, and a Timeline whose samples carry only it
// lets direct-reclaim-stalls judge it with its usual thresholds, citing the cgroup file.
// The v1 memory.stat counters have no equivalent in the Timeline (their pgpgin/pgpgout count
// charge events, not the pages /proc/vmstat's do), so they are reported by the scenario as
// observations, not fed to rules.
func cgroupTimeline(cg *netlab.Cgroup, host *model.Timeline, samples []model.Sample) *model.Timeline {
	tl := &model.Timeline{Source: model.SourceInfo{Kind: model.SourceLive, Name: "memory cgroup " + cg.Name}}
	tl.Host = model.Host{Hostname: host.Host.Hostname, Kernel: host.Host.Kernel, Arch: host.Host.Arch, WordBits: host.Host.WordBits}
	tl.Host.SetPageSize(host.Host.PageSize)
	tl.Samples = samples
	judge.Finish(tl)
	return tl
}

// doctorSummaries turns doctor runs into the report's summaries and the union of ids.
func doctorSummaries(rs []*DoctorResult, expect []string) ([]DoctorSummary, []string) {
	want := map[string]bool{}
	for _, x := range expect {
		want[x] = true
	}
	var out []DoctorSummary
	for _, r := range rs {
		s := DoctorSummary{Scope: r.Scope, Findings: r.IDs(), Trace: r.Timeline.Trace}
		if s.Findings == nil {
			s.Findings = []string{}
		}
		for _, f := range r.Diagnosis.Findings {
			if want[f.ID] {
				s.Expected = append(s.Expected, f)
			}
		}
		out = append(out, s)
	}
	return out, allIDs(rs)
}
