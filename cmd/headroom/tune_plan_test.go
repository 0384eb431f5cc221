package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"headroom/model"
	"headroom/plan"
	"headroom/tune"
)

// Issue 27 item 3: a plan carries the host shape it was computed for, and tune refuses a plan
// for another shape unless --for-this-host.

// planFor runs `headroom plan --format json` for a 1 Gbit/s, 10 ms link with extra flags
// (none: this host) and returns the JSON and its settings.
func planFor(t *testing.T, extra ...string) (string, []model.Change) {
	t.Helper()
	out, stderr, code := runPlanArgs(t, append([]string{"--bandwidth", "1Gbit", "--rtt", "10ms", "--format", "json"}, extra...)...)
	if code != exitOK && code != exitWarning {
		t.Fatalf("plan %v: %d %s", extra, code, stderr)
	}
	changes, err := tune.ParseChanges(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	return out, changes
}

// procSysOfPlan lays out a fake /proc/sys holding each sysctl the plan sets, at this host's
// value (read only) so that the changes are what they would be here.
func procSysOfPlan(t *testing.T, changes []model.Change) string {
	t.Helper()
	vals := map[string]string{}
	for _, c := range changes {
		if c.Kind != model.ChangeSysctl {
			continue
		}
		v, err := tune.HostProcSys().Read(c.Key)
		if err != nil {
			t.Skipf("reading this host's %s for the fake tree: %v", c.Key, err)
		}
		vals[c.Key] = v
	}
	return fakeProcSys(t, vals)
}

func TestPlanCarriesTargetHost(t *testing.T) {
	out, _ := planFor(t, "--memory", "1GiB", "--kernel", "5.15", "--arch", "i686")
	var p plan.Plan
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	want := plan.TargetHost{MemoryBytes: 1 << 30, MemoryFrom: plan.FactGiven, Kernel: "5.15", KernelFrom: plan.FactGiven,
		Arch: "i686", ArchFrom: plan.FactGiven, WordBits: 32, PageSizeBytes: 4096, PageSizeFrom: plan.FactAssumed}
	// lowmem: 1 GiB on x86-32 leaves 896 MiB of it, the arch's split.
	if p.Target == nil {
		t.Fatalf("no target_host in %s", out)
	}
	got := *p.Target
	if got.LowmemBytes != 896<<20 || got.LowmemFrom != plan.FactAssumed {
		t.Errorf("lowmem %d from %q, want 896 MiB assumed", got.LowmemBytes, got.LowmemFrom)
	}
	got.LowmemBytes, got.LowmemFrom = 0, ""
	if got != want {
		t.Errorf("target_host %+v\nwant        %+v", got, want)
	}

	// For this host: everything read, the CPUs too, and from which host.
	out, _ = planFor(t)
	p = plan.Plan{}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	facts, err := tune.ReadThisHost(planRoot)
	if err != nil {
		t.Skip(err)
	}
	h := p.Target
	if h == nil || h.MemoryFrom != plan.FactRead || h.KernelFrom != plan.FactRead || h.ArchFrom != plan.FactRead ||
		h.MemoryBytes != facts.MemTotalKB*1024 || h.Kernel != facts.Kernel || h.CPUs != facts.CPUs || h.CPUsFrom != plan.FactRead || h.ReadFrom != facts.Hostname {
		t.Errorf("plan for this host: target_host %+v, host %+v", h, facts)
	}
}

func TestTuneRefusesPlanForAnotherHost(t *testing.T) {
	foreign, changes := planFor(t, "--memory", "1GiB", "--kernel", "5.15")
	dir := procSysOfPlan(t, changes)
	before := map[string]string{}
	for _, c := range changes {
		if c.Kind == model.ChangeSysctl {
			before[c.Key] = readProcSys(t, dir, c.Key)
		}
	}
	state := t.TempDir()

	code, stdout, stderr := runTuneCmd(t, foreign, "--from", "-", "--proc-sys", dir, "--state-dir", state)
	t.Logf("dry run, exit %d:\n%s%s", code, lastLines(stdout, 4), stderr)
	for _, want := range []string{"REFUSED, every change: the plan was computed for another host:",
		"the plan is for 1 GiB of memory (given with --memory); this host has ",
		"the plan is for kernel 5.15 (given with --kernel); this host runs ", "--for-this-host"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("dry run lacks %q", want)
		}
	}
	if code != exitFailure {
		t.Errorf("dry run exit %d, want %d", code, exitFailure)
	}

	code, stdout, stderr = runTuneCmd(t, foreign, "--from", "-", "--apply", "--allow-lower", "--proc-sys", dir, "--state-dir", state)
	t.Logf("--apply, exit %d:\n%s%s", code, stdout, stderr)
	if code != exitFailure || !strings.Contains(stderr, "refusing to apply: the plan was computed for another host, nothing was changed") ||
		!strings.Contains(stderr, "1 GiB of memory") {
		t.Errorf("apply: exit %d stderr %q", code, stderr)
	}
	for k, v := range before {
		if got := readProcSys(t, dir, k); got != v {
			t.Errorf("refused, yet %s = %q (was %q)", k, got, v)
		}
	}
	if _, err := os.Stat(filepath.Join(state, tune.JournalName)); err == nil {
		t.Error("refused, yet a journal was written")
	}

	// --for-this-host: the bounds still apply, the plan is applied.
	code, stdout, stderr = runTuneCmd(t, foreign, "--from", "-", "--apply", "--allow-lower", "--for-this-host", "--proc-sys", dir, "--state-dir", state)
	if code == exitFailure || !strings.Contains(stdout, "journal entry 1 applied") {
		t.Fatalf("--for-this-host: exit %d\n%s%s", code, stdout, stderr)
	}
	written := 0
	for _, c := range changes {
		if c.Kind == model.ChangeSysctl && !tune.SameValue(before[c.Key], c.Recommended) && tune.SameValue(readProcSys(t, dir, c.Key), c.Recommended) {
			written++
		}
	}
	if written == 0 {
		t.Errorf("--for-this-host applied nothing:\n%s", stdout)
	}
}

// A plan for this host (every fact read here) is taken as before, as is one whose given
// facts match this host.
func TestTuneAcceptsPlanForThisHost(t *testing.T) {
	facts, err := tune.ReadThisHost(planRoot)
	if err != nil {
		t.Skip(err)
	}
	mine, changes := planFor(t)
	given, _ := planFor(t, "--memory", strconv.FormatInt(facts.MemTotalKB, 10)+"KiB", "--kernel", facts.Kernel, "--arch", facts.Arch)
	for name, p := range map[string]string{"read": mine, "given": given} {
		dir := procSysOfPlan(t, changes)
		code, stdout, stderr := runTuneCmd(t, p, "--from", "-", "--apply", "--allow-lower", "--proc-sys", dir, "--state-dir", t.TempDir())
		if code == exitFailure || strings.Contains(stdout+stderr, "another host") || !strings.Contains(stdout, "journal entry 1 applied") {
			t.Errorf("%s: exit %d\n%s%s", name, code, stdout, stderr)
		}
	}
}

func lastLines(s string, n int) string {
	l := strings.SplitAfter(strings.TrimRight(s, "\n"), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "") + "\n"
}
