package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"headroom/diagnose"
	"headroom/tune"
)

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
	rep, err := tune.ReadStatus(ctx, stateDir, filepath.Join(root, "proc/sys"), filepath.Join(root, tune.DefaultSysctlDir), root)
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
