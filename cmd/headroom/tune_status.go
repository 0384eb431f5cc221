package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"headroom/diagnose"
	"headroom/input"
	"headroom/model"
	"headroom/plan"
	"headroom/tune"
)

// tuneOpenFS opens the sysctls of a journal entry's namespace: the --proc-sys tree for the
// host, the namespace's /proc/sys otherwise.
func tuneOpenFS(procSysDir string) func(ns string) (tune.SysctlFS, func(), error) {
	return func(ns string) (tune.SysctlFS, func(), error) {
		if ns == "" {
			return tune.ProcSys{Dir: procSysDir}, func() {}, nil
		}
		n, err := tune.OpenNetns(ns)
		if err != nil {
			return nil, nil, err
		}
		return n, func() { n.Close() }, nil
	}
}

func tuneRollbacker(f tuneFlags, j *tune.Journal, limits plan.Limits, stdio IO) *tune.Rollbacker {
	return &tune.Rollbacker{
		Journal: j,
		Limits:  limits,
		Log:     tuneLogger(stdio.Stderr),
		OpenFS:  tuneOpenFS(f.procSysDir),
		Runner:  func(ns string) tune.Runner { return tune.ExecRunner{Netns: ns} },
	}
}

// tuneVerified is --apply --verify: the guard windows around the apply, on this host (or in
// --netns), with an automatic rollback through the same journal. Each window is read once,
// through source as doctor reads it, for the guards and the judge.
func tuneVerified(ctx context.Context, f tuneFlags, a *tune.Applier, changes []model.Change) (*tune.Entry, []tune.Item, *tune.Verification, error) {
	dir := "/"
	if f.procSysDir != "/proc/sys" {
		// A --proc-sys tree stands for a host laid out under its parent's parent (DIR/proc/sys).
		dir = filepath.Dir(filepath.Dir(f.procSysDir))
	}
	rec := tune.HostRecorder{Dir: dir, Netns: f.netns, Finish: input.Finish}
	v := &tune.Verifier{Window: f.verify, Interval: f.verifyInterval, MaxAfter: f.verifyMax, Record: rec.Record, Judge: tuneJudge,
		Policy: tune.Policy{KeepUndecided: f.keepUndecided, KeepUnmeasured: f.keepUnmeasured}}
	rb := &tune.Rollbacker{Journal: a.Journal, Limits: a.Limits, Log: a.Log, OpenFS: tuneOpenFS(f.procSysDir),
		Runner: func(ns string) tune.Runner { return tune.ExecRunner{Netns: ns} }}
	return v.ApplyVerified(ctx, a, rb, changes)
}

// tuneJudge is the judge of tune --verify (tune.Judge): the ids of the critical findings the
// rules make of a recorded window, sorted. tune does not import the rules; this passes them.
func tuneJudge(tl *model.Timeline) ([]string, error) {
	var ids []string
	for _, f := range diagnose.Run(tl, nil).Findings {
		if f.Severity == diagnose.Critical && !slices.Contains(ids, f.ID) {
			ids = append(ids, f.ID)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

func writeTuneVerification(w io.Writer, v *tune.Verification) {
	var b strings.Builder
	tune.WriteVerification(&b, v)
	list := func(head string, l []string) {
		if len(l) > 0 {
			b.WriteString(head + ":\n  " + strings.Join(l, "\n  ") + "\n")
		}
	}
	switch {
	case v.Outcome == tune.OutcomeKept && len(v.Improved) == 0:
		b.WriteString("kept: every change measured, no guard worse beyond noise (and none improved beyond it)\n")
	case v.Outcome == tune.OutcomeKept:
		list("kept; improved", v.Improved)
	default:
		b.WriteString(v.Summary() + "\n")
		list("tripped by", v.Tripped)
		list("undecided, a large change inside the noise margin (kept only with --keep-undecided, and a loss over 25 % never)", v.Undecided)
		if len(v.Unmeasured) > 0 && v.Decision != "kept" {
			b.WriteString("not measured (above): keep changes no guard could measure with --keep-unmeasured\n")
		}
		list("improved", v.Improved)
	}
	io.WriteString(w, b.String())
}

// tuneStatusReport reads the journal and the boot configuration.
func tuneStatusReport(ctx context.Context, stateDir, procSysDir, sysctlDir, bootRoot string) (*tune.StatusReport, error) {
	if _, err := os.Stat(stateDir); errors.Is(err, fs.ErrNotExist) {
		return &tune.StatusReport{}, nil // headroom never applied anything here
	}
	if err := tune.CheckStateDir(stateDir); err != nil {
		return nil, err
	}
	jf, err := tune.ReadJournal(filepath.Join(stateDir, tune.JournalName))
	if err != nil {
		return nil, err
	}
	opt := tune.StatusOptions{OpenFS: tuneOpenFS(procSysDir), BootRoot: bootRoot, SysctlDir: sysctlDir}
	if filepath.Clean(procSysDir) == "/proc/sys" {
		// ethtool and tc read this host's devices: not for a test or captured tree.
		opt.Runner = func(ns string) tune.Runner { return tune.ExecRunner{Netns: ns} }
	}
	return tune.Status(ctx, jf, opt), nil
}

func tuneStatus(ctx context.Context, f tuneFlags, stdio IO) int {
	rep, err := tuneStatusReport(ctx, f.stateDir, f.procSysDir, f.sysctlDir, f.bootRoot)
	if err != nil {
		return failed(stdio, "tune", err)
	}
	switch f.statusFormat {
	case "json":
		enc := json.NewEncoder(stdio.Stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(rep)
	case "text":
		err = tune.WriteStatus(stdio.Stdout, rep)
	default:
		fmt.Fprintf(stdio.Stderr, "headroom tune: --status-format %q: want text or json\n", f.statusFormat)
		return exitFailure
	}
	if err != nil {
		return failed(stdio, "tune", err)
	}
	if len(rep.Drifted()) > 0 || len(rep.Overridden()) > 0 {
		return exitWarning
	}
	return exitOK
}

// settingsDrifted is doctor's finding on the journal: a key headroom applied that holds
// another value now, or whose drop-in a later boot file overrides. Nil when neither.
func settingsDrifted(rep *tune.StatusReport) *diagnose.Finding {
	drifted, over := rep.Drifted(), rep.Overridden()
	if len(drifted) == 0 && len(over) == 0 {
		return nil
	}
	f := &diagnose.Finding{ID: "settings-drifted", Severity: diagnose.Warning}
	var what []string
	for _, k := range drifted {
		where := "/proc/sys"
		if k.Netns != "" {
			where = "network namespace " + k.Netns
		}
		f.Evidence = append(f.Evidence, diagnose.Evidence{What: k.Key + " (journal entry " + fmt.Sprint(k.Entry) + ")",
			Value: fmt.Sprintf("%s now, headroom applied %s", k.Now, k.Applied), Source: where})
		what = append(what, fmt.Sprintf("%s is %s, not the %s headroom applied (changed by: %s)", k.Key, k.Now, k.Applied, k.Cause))
	}
	for _, k := range over {
		last := k.Boot[len(k.Boot)-1]
		f.Evidence = append(f.Evidence, diagnose.Evidence{What: k.Key + " at the next boot",
			Value: fmt.Sprintf("%s from %s:%d, after headroom's %s", last.Value, last.File, last.Line, k.DropIn), Source: last.By})
		what = append(what, k.AtBoot)
	}
	switch {
	case len(drifted) > 0 && len(over) > 0:
		f.Title = fmt.Sprintf("%d setting(s) headroom applied changed since, and %d will be overridden at the next boot", len(drifted), len(over))
	case len(drifted) > 0:
		f.Title = fmt.Sprintf("%d setting(s) headroom applied changed since", len(drifted))
	default:
		f.Title = fmt.Sprintf("%d setting(s) headroom persisted will be overridden at the next boot", len(over))
	}
	f.Explanation = strings.Join(what, "; ") + ". The fixes the journal records are not what the host runs (or will run after a reboot): " +
		"see `headroom tune --status`, and remove or renumber the file that wins, or re-apply."
	return f
}

// doctorSettingsDrifted adds settings-drifted to a live diagnosis: the journal's keys read
// from the host (or --root), its boot configuration from the same root.
func doctorSettingsDrifted(ctx context.Context, d *diagnose.Diagnosis, stateDir, root string) {
	if root == "" {
		root = "/"
	}
	rep, err := tuneStatusReport(ctx, stateDir, filepath.Join(root, "proc/sys"), filepath.Join(root, tune.DefaultSysctlDir), root)
	switch {
	case err != nil:
		d.Checks = append(d.Checks, diagnose.Check{ID: "settings-drifted", Status: diagnose.StatusNotChecked, Why: "reading headroom's journal: " + err.Error()})
	case len(rep.Keys) == 0:
		d.Checks = append(d.Checks, diagnose.Check{ID: "settings-drifted", Status: diagnose.StatusNotChecked, Why: "no settings applied by headroom tune in " + stateDir})
	default:
		if f := settingsDrifted(rep); f != nil {
			d.Findings = append(d.Findings, *f)
			d.Checks = append(d.Checks, diagnose.Check{ID: "settings-drifted", Status: diagnose.StatusFinding})
		} else {
			d.Checks = append(d.Checks, diagnose.Check{ID: "settings-drifted", Status: diagnose.StatusOK,
				Why: fmt.Sprintf("%d setting(s) from headroom's journal hold their values and win at boot", len(rep.Keys))})
		}
	}
}
