package lab

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"headroom/internal/contention"
)

// Tests of the failure scenarios (issue 9). Each runs the scenario on the real kernel as
// root, asserts that the failure appears (the kernel's own counters), that doctor's live
// JSON contains the expected finding id, and that the fix moves the metric by the margin the
// scenario file states; then that the host is left as it was (namespaces, cgroups, zram,
// swap, scratch files, sysctls).

// runFailureScenario runs one scenario and checks the common parts of its report. A run
// whose margin or diagnosis fails is retried once: the measurements are of a real kernel
// on a 2-core machine that other jobs share, and a busy machine makes a fix look worse (a
// slower re-measure, a reader that falls behind), never better; the first attempt is
// logged. The host must be left as it was after each attempt.
func runFailureScenario(t *testing.T, name string, opts FailureOptions) *FailureReport {
	t.Helper()
	needRoot(t)
	sc, err := LookupScenario(name)
	if err != nil {
		t.Fatal(err)
	}
	var rep *FailureReport
	var problems []string
	meter := contention.Start()
	for try := 1; try <= 2; try++ {
		before := snapshotHost(t)
		opts.Progress = func(m string) { t.Log(m) }
		start := time.Now()
		rep, err = RunFailure(context.Background(), sc, opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s took %v (try %d)", name, time.Since(start).Round(100*time.Millisecond), try)
		b, _ := json.MarshalIndent(rep, "", "  ")
		t.Logf("report:\n%s", b)
		before.compare(t, snapshotHost(t))
		problems = nil
		for _, r := range rep.Runs {
			if len(r.Expected) > 0 && !r.Diagnosed {
				problems = append(problems, fmt.Sprintf("%s (%s): doctor reported %v, none of the expected %v", name, r.Settings, r.Findings, r.Expected))
			}
			if !r.Metric.OK {
				problems = append(problems, fmt.Sprintf("%s (%s): %s before %g, after %g %s: margin %q not met", name, r.Settings, r.Metric.Name, r.Metric.Before, r.Metric.After, r.Metric.Unit, r.Metric.Margin))
			}
		}
		if len(problems) == 0 {
			break
		}
		if try == 1 {
			t.Logf("try 1 failed, retrying once (load average %s): %v", loadAvg(), problems)
		}
	}
	if len(problems) > 0 {
		meter.Fail(t, "%s", strings.Join(problems, "; "))
	}
	return rep
}

func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	return strings.TrimSpace(string(b))
}

func TestFloodRecovery(t *testing.T) {
	meter := contention.Start()
	rep := runFailureScenario(t, "flood-recovery", FailureOptions{})
	if len(rep.Runs) != 2 {
		t.Fatalf("%d runs, want healthy and leaking", len(rep.Runs))
	}
	for _, r := range rep.Runs {
		if r.Recovery == nil {
			t.Fatalf("%s: no recovery report", r.Settings)
		}
		want := map[string]string{"healthy": "recovered", "leaking": "did not recover"}[r.Settings]
		switch {
		case r.Recovery.Verdict == want:
		case r.Settings == "healthy": // a busy host makes a healthy proxy look slow afterwards
			meter.Fail(t, "%s proxy: verdict %q, want %q", r.Settings, r.Recovery.Verdict, want)
		default:
			t.Errorf("%s proxy: verdict %q, want %q", r.Settings, r.Recovery.Verdict, want)
		}
		if r.Recovery.BaselinePerSec <= 0 {
			t.Errorf("%s: baseline %g connections/s", r.Settings, r.Recovery.BaselinePerSec)
		}
	}
}

func TestTCPMemorySqueeze(t *testing.T) {
	rep := runFailureScenario(t, "tcp-memory-squeeze", FailureOptions{})
	r := rep.Runs[0]
	// The failure itself, in the kernel's counters: the squeezed phase pruned or dropped.
	var drops float64
	for _, o := range r.Observed {
		if o.Phase == "before" && (o.What == "TcpExt PruneCalled" || o.What == "TcpExt TCPRcvQDrop" || o.What == "TcpExt TCPOFODrop") {
			drops += o.Value
		}
	}
	if drops == 0 {
		t.Errorf("no PruneCalled/TCPRcvQDrop/TCPOFODrop growth while squeezed: %+v", r.Observed)
	}
}

func TestOrphanHoard(t *testing.T) {
	rep := runFailureScenario(t, "orphan-hoard", FailureOptions{})
	r := rep.Runs[0]
	if !r.Metric.BeforeIsBound {
		t.Errorf("without the fix the orphans cleared after %g s; want them still holding queues at the end of the window", r.Metric.Before)
	}
	var held float64
	for _, o := range r.Observed {
		if o.Phase == "before" && o.What == "send queues held" {
			held = o.Value
		}
	}
	// Each of the 8 orphans holds at least the 64 KiB the rule counts as a hoard.
	if held < orphanConns*64<<10 {
		t.Errorf("orphans held %g bytes of send queue, want ≥ %d", held, orphanConns*64<<10)
	}
}

func TestUDPFlood(t *testing.T) {
	rep := runFailureScenario(t, "udp-flood", FailureOptions{})
	r := rep.Runs[0]
	var errs float64
	for _, o := range r.Observed {
		if o.Phase == "before" && o.What == "Udp RcvbufErrors" {
			errs = o.Value
		}
	}
	if errs == 0 {
		t.Errorf("no RcvbufErrors while flooding: %+v", r.Observed)
	}
}

func TestRxUnknownProtocol(t *testing.T) {
	rep := runFailureScenario(t, "rx-unknown-protocol", FailureOptions{})
	r := rep.Runs[0]
	if m := memoryBlamed(r); len(m) > 0 {
		t.Errorf("doctor blamed memory for frames nobody handles: %v", m)
	}
	// The finding names the veth that dropped them.
	found := false
	for _, d := range r.Doctor {
		for _, f := range d.Expected {
			found = found || strings.HasPrefix(f.Title, "veth0 drops received packets")
		}
	}
	if !found {
		t.Errorf("rx-dropped-software does not name veth0: %+v", r.Doctor)
	}
}

func TestPageCachePressure(t *testing.T) {
	rep := runFailureScenario(t, "page-cache-pressure", FailureOptions{})
	r := rep.Runs[0]
	var stall float64
	for _, o := range r.Observed {
		if o.Phase == "before" && strings.HasPrefix(o.What, "cgroup memory stall share") {
			stall = o.Value
		}
	}
	if stall <= 0 {
		t.Errorf("the cgroup did not stall on memory: %+v", r.Observed)
	}
}

func TestSwapUnderLoad(t *testing.T) {
	rep := runFailureScenario(t, "swap-under-load", FailureOptions{})
	r := rep.Runs[0]
	var out float64
	for _, o := range r.Observed {
		if o.Phase == "before" && o.What == "pswpout" {
			out = o.Value
		}
	}
	if out <= 0 {
		t.Errorf("pswpout did not rise: %+v", r.Observed)
	}
}

// The global scenarios change knobs of the whole machine for a few seconds each: they run
// only where HEADROOM_LAB_GLOBAL=1 (CI's dedicated machine, .ci/run), and must restore every
// value (runFailureScenario compares the host's sysctls before and after).
func needGlobal(t *testing.T) {
	t.Helper()
	if os.Getenv("HEADROOM_LAB_GLOBAL") != "1" {
		t.Skip("lab: global scenario: set HEADROOM_LAB_GLOBAL=1 on a dedicated machine (CI does)")
	}
}

func TestGlobalScenarios(t *testing.T) {
	needRoot(t)
	needGlobal(t)
	for _, name := range []string{"tcp-mem-low", "orphan-limit", "backlog-drops", "budget-squeeze"} {
		t.Run(name, func(t *testing.T) {
			runFailureScenario(t, name, FailureOptions{AllowGlobal: true})
		})
	}
}

func TestGlobalScenarioNeedsAllowGlobal(t *testing.T) {
	sc, err := LookupScenario("tcp-mem-low")
	if err != nil {
		t.Fatal(err)
	}
	_, err = RunFailure(context.Background(), sc, FailureOptions{})
	if err == nil || !strings.Contains(err.Error(), "--allow-global") {
		t.Errorf("err = %v, want a refusal naming --allow-global", err)
	}
}
