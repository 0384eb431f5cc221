package tune

import (
	"context"
	"errors"
	"fmt"
	"headroom/plan"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"headroom/model"
)

// Rollbacker undoes journal entries, newest first.
type Rollbacker struct {
	Journal *Journal
	// OpenFS returns the sysctl file system of a namespace ("" is the host) and a function
	// that releases it. An error wrapping ErrNoNetns means the namespace is gone.
	OpenFS func(netns string) (SysctlFS, func(), error)
	// Runner returns the command runner for a namespace; nil when NIC changes cannot be undone.
	Runner func(netns string) Runner
	// Limits are the host facts of the bounds: a rollback writes only values an apply
	// could have written (trust.go).
	Limits plan.Limits
	Log    *slog.Logger
	Now    func() time.Time
}

// ToUndo returns the entries a rollback would visit, newest first: every entry not yet
// rolled back whose changes may still be in effect, down to and including entry `to` (all
// of them when to is 0). An entry that failed and restored itself has nothing to undo and
// is skipped, unless it is `to`.
func ToUndo(jf *JournalFile, to int) ([]*Entry, error) {
	if to > 0 {
		e := jf.Find(to)
		if e == nil {
			return nil, fmt.Errorf("journal has no entry %d", to)
		}
		if e.State == StateRolledBack {
			return nil, fmt.Errorf("journal entry %d was already rolled back at %s", to, e.RolledBack.Format(time.RFC3339))
		}
	}
	sorted := append([]*Entry(nil), jf.Entries...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].ID > sorted[j].ID })
	var out []*Entry
	for _, e := range sorted {
		if to > 0 && e.ID < to {
			break
		}
		if err := checkKnown(e); err != nil {
			return nil, err
		}
		switch e.State {
		case StatePending, StateApplied, StateFailedIncomplete:
			out = append(out, e)
		case StateFailedRestored:
			if e.ID == to {
				out = append(out, e)
			}
		}
	}
	return out, nil
}

// ConflictError stops a rollback: a value is neither what headroom wrote nor what was there
// before, so someone changed it since; headroom leaves it, and the older entries, alone.
type ConflictError struct {
	Entry     *Entry
	Conflicts []string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("rollback stopped at journal entry %d: changed by someone else since headroom wrote it, left alone:\n  %s\n(set these by hand, then run --rollback again to continue with older entries)",
		e.Entry.ID, strings.Join(e.Conflicts, "\n  "))
}

func (r *Rollbacker) now() time.Time    { return nowUTC(r.Now) }
func (r *Rollbacker) log() *slog.Logger { return orDiscard(r.Log) }

// Rollback undoes entries newest first, down to entry `to` (0: all). For each change it
// compares the current value with the old and the new: the new value is restored to the
// old; an old value already there needs nothing (an apply interrupted before its first
// write); anything else is a conflict that stops the rollback. The journal is saved after
// every entry, so an interrupted rollback resumes where it stopped.
func (r *Rollbacker) Rollback(ctx context.Context, to int) ([]*Entry, error) {
	jf, err := r.Journal.Load()
	if err != nil {
		return nil, err
	}
	entries, err := ToUndo(jf, to)
	if err != nil {
		return nil, err
	}
	// Under the journal's lock no other headroom writes a drop-in: a temporary file of one
	// is left by a run killed inside WriteFileAtomic (an apply, or a rollback restoring the
	// old content), which the rollback removes as it promises.
	for _, e := range jf.Entries {
		if e.Persist != nil {
			removeStaleTemps(filepath.Dir(e.Persist.Path), filepath.Base(e.Persist.Path))
		}
	}
	var done []*Entry
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return done, err
		}
		cerr := r.undoEntry(ctx, e)
		e.Updated = r.now()
		if serr := r.Journal.Save(jf); serr != nil {
			return done, fmt.Errorf("journal entry %d: saving the journal: %w", e.ID, serr)
		}
		done = append(done, e)
		if cerr != nil {
			return done, cerr
		}
	}
	return done, nil
}

// VerifyPending is the decision of a --verify whose after window has not ended: what the
// journal holds while it runs, and after the run was killed in it.
const VerifyPending = "pending"

// RollbackUnverified rolls back every applied entry whose --verify never decided: the run
// that applied it was killed (SIGKILL, the OOM killer, a reboot) during its after window.
// Nothing shows such a change helps, and --verify's promise is that a change without that
// evidence does not stay (issue 30 item 9). It runs under the journal's lock, which the
// verifying run held until it died, so a pending verification is never a live one. The
// entries, and any newer, are rolled back; their verification says why.
func (r *Rollbacker) RollbackUnverified(ctx context.Context) ([]*Entry, error) {
	jf, err := r.Journal.Load()
	if err != nil {
		return nil, err
	}
	first := 0
	for _, e := range jf.Entries {
		if e.State == StateApplied && e.Verify != nil && e.Verify.Decision == VerifyPending && (first == 0 || e.ID < first) {
			first = e.ID
		}
	}
	if first == 0 {
		return nil, nil
	}
	done, rerr := r.Rollback(context.WithoutCancel(ctx), first)
	jf, err = r.Journal.Load()
	if err != nil {
		return done, errors.Join(rerr, err)
	}
	for _, e := range jf.Entries {
		if v := e.Verify; v != nil && v.Decision == VerifyPending && e.ID >= first {
			v.Decision = "rolled-back"
			if e.State != StateRolledBack {
				v.Decision = "rollback-failed"
			}
			v.Error = "the after window was never measured: the run that applied this ended during it (killed?); rolled back by the next tune --apply"
			v.Tripped = append(v.Tripped, "the after window could not be measured")
		}
	}
	return done, errors.Join(rerr, r.Journal.Save(jf))
}

func (r *Rollbacker) undoEntry(ctx context.Context, e *Entry) error {
	var conflicts []string
	undone, unchanged := 0, 0

	needFS := false
	needRunner := false
	for _, rec := range e.Changes {
		if rec.Kind == model.ChangeSysctl {
			needFS = true
		} else {
			needRunner = true
		}
	}
	if err := checkRestorable(e, r.Limits); err != nil {
		return err
	}
	var fs SysctlFS
	nsGone := false
	if needFS {
		f, release, err := r.OpenFS(e.Netns)
		switch {
		case errors.Is(err, ErrNoNetns):
			nsGone = true
		case err != nil:
			return fmt.Errorf("journal entry %d: %w", e.ID, err)
		default:
			defer release()
			fs = f
		}
	}
	if e.Netns != "" && !nsGone && needRunner {
		if _, err := os.Stat(NetnsDir + "/" + e.Netns); err != nil {
			nsGone = true
		}
	}
	recreated := false
	if !nsGone {
		switch err := checkWhere(e, fs); {
		case errors.Is(err, errNetnsRecreated):
			nsGone, recreated = true, true
		case err != nil:
			return err
		}
	}
	var runner Runner
	if needRunner && r.Runner != nil {
		runner = r.Runner(e.Netns)
	}

	for i := len(e.Changes) - 1; i >= 0; i-- {
		rec := &e.Changes[i]
		if !needsUndo(rec.Status) {
			continue // restored, rolled back or unchanged already
		}
		if nsGone {
			rec.Status = StatusUnchanged
			rec.Error = ""
			unchanged++
			continue
		}
		t, err := makeTarget(rec.Kind, rec.Key, fs, runner)
		if err != nil {
			conflicts = append(conflicts, fmt.Sprintf("%s: %v", rec.Key, err))
			continue
		}
		cur, err := t.read(ctx)
		if err != nil {
			rec.Status, rec.Error = StatusConflict, err.Error()
			conflicts = append(conflicts, fmt.Sprintf("%s: cannot read: %v", rec.Key, err))
			continue
		}
		switch {
		case t.isOld(cur, rec.Old):
			rec.Status, rec.Error = StatusUnchanged, ""
			unchanged++
		case t.isNew(cur, rec.New):
			err := t.restore(ctx, rec.Old)
			if err == nil {
				err = verify(ctx, t, func(c string) bool { return t.isOld(c, rec.Old) }, rec.Old)
			}
			if err != nil {
				rec.Status, rec.Error = StatusConflict, "restore failed: "+err.Error()
				conflicts = append(conflicts, fmt.Sprintf("%s: restoring %q failed: %v", rec.Key, rec.Old, err))
				continue
			}
			rec.Status, rec.Error = StatusRolledBack, ""
			undone++
			r.log().Info(fmt.Sprintf("%s: %s → %s (rollback of entry %d)", rec.Key, NormalizeValue(cur), NormalizeValue(rec.Old), e.ID),
				"why", rec.Why, "rule", rec.Rule, "netns", e.Netns, "entry", e.ID)
		default:
			rec.Status = StatusConflict
			rec.Error = fmt.Sprintf("now %q, neither the old %q nor the new %q", NormalizeValue(cur), NormalizeValue(rec.Old), rec.New)
			conflicts = append(conflicts, fmt.Sprintf("%s: %s", rec.Key, rec.Error))
		}
	}

	if p := e.Persist; p != nil && p.Status != StatusRolledBack && p.Status != StatusUnchanged {
		cur, exists, err := readOptional(p.Path)
		switch {
		case err != nil:
			conflicts = append(conflicts, fmt.Sprintf("%s: %v", p.Path, err))
		case exists && cur == p.NewContent:
			if p.Existed {
				err = WriteFileAtomic(p.Path, []byte(p.OldContent), 0o644)
			} else {
				err = RemoveFileDurable(p.Path)
			}
			if err != nil {
				p.Status, p.Error = StatusConflict, err.Error()
				conflicts = append(conflicts, fmt.Sprintf("%s: %v", p.Path, err))
			} else {
				p.Status, p.Error = StatusRolledBack, ""
				undone++
				what := "restored"
				if !p.Existed {
					what = "removed"
				}
				r.log().Info(fmt.Sprintf("drop-in %s %s (rollback of entry %d)", p.Path, what, e.ID), "entry", e.ID)
			}
		case (p.Existed && exists && cur == p.OldContent) || (!p.Existed && !exists):
			p.Status, p.Error = StatusUnchanged, ""
			unchanged++
		default:
			p.Status = StatusConflict
			p.Error = "the file changed since headroom wrote it"
			conflicts = append(conflicts, fmt.Sprintf("%s: %s", p.Path, p.Error))
		}
	}

	if len(conflicts) > 0 {
		return &ConflictError{Entry: e, Conflicts: conflicts}
	}
	now := r.now()
	wasPending := e.State == StatePending
	e.State = StateRolledBack
	e.RolledBack = &now
	switch {
	case recreated:
		e.Notes = append(e.Notes, fmt.Sprintf("network namespace %q was deleted and made again since: the one headroom wrote went with its settings, nothing to undo", e.Netns))
	case nsGone:
		e.Notes = append(e.Notes, fmt.Sprintf("network namespace %q no longer exists: its settings went with it, nothing to undo", e.Netns))
	case undone == 0 && wasPending:
		// The journal is saved before the first write and after the last, so a pending
		// entry whose values are all old was either interrupted before its first write, or
		// rolled back by a run that could not save the journal afterwards (ENOSPC): which,
		// the journal cannot tell.
		e.Notes = append(e.Notes, "nothing to undo: every value equals its old value (the apply was interrupted before its first change, or an earlier rollback restored them and could not save the journal)")
	case undone == 0:
		e.Notes = append(e.Notes, "nothing to undo: every value already equals its old value")
	default:
		e.Notes = append(e.Notes, fmt.Sprintf("rolled back %d change(s); %d already had their old value", undone, unchanged))
	}
	return nil
}

// PrintRollback writes, without changing anything, the commands that undo the entries a
// rollback to `to` would visit: `sysctl -w` lines (inside `ip netns exec` for a
// namespace), ethtool and tc lines, and the drop-in's restore. An entry that --rollback
// would refuse to write (checkRestorable, with limits as on apply) is refused here too,
// since the script is run as root just the same.
func PrintRollback(w io.Writer, jf *JournalFile, to int, limits plan.Limits) error {
	entries, err := ToUndo(jf, to)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := checkRestorable(e, limits); err != nil {
			return err
		}
	}
	if len(entries) == 0 {
		_, err := fmt.Fprintln(w, "# nothing to roll back")
		return err
	}
	var b strings.Builder
	b.WriteString("#!/bin/sh\n# Undo of headroom tune journal entries, newest first.\nset -e\n")
	for _, e := range entries {
		fmt.Fprintf(&b, "\n# entry %d, %s, %s", e.ID, e.Time.Format(time.RFC3339), commentText(string(e.State)))
		if e.Netns != "" {
			fmt.Fprintf(&b, ", network namespace %s", commentText(e.Netns))
		}
		b.WriteString("\n")
		prefix := ""
		if e.Netns != "" {
			prefix = "ip netns exec " + shellQuote(e.Netns) + " "
		}
		for i := len(e.Changes) - 1; i >= 0; i-- {
			rec := e.Changes[i]
			switch rec.Status {
			case StatusRestored, StatusRolledBack, StatusUnchanged:
				continue
			}
			fmt.Fprintf(&b, "# %s: %s → %s (undoing: %s)\n", commentText(rec.Key), commentText(rec.New), commentText(rec.Old), commentText(rec.Why))
			switch rec.Kind {
			case model.ChangeSysctl:
				fmt.Fprintf(&b, "%ssysctl -w %s\n", prefix, shellQuote(rec.Key+"="+NormalizeValue(rec.Old)))
			case model.ChangeEthtool:
				if dev, p, err := ParseEthtoolKey(rec.Key); err == nil {
					fmt.Fprintf(&b, "%sethtool -G %s %s %s\n", prefix, shellQuote(dev), p, shellQuote(NormalizeValue(rec.Old)))
				}
			case model.ChangeTC:
				if dev, _, err := ParseTCKey(rec.Key); err == nil {
					fmt.Fprintf(&b, "%stc qdisc del dev %s root\n", prefix, shellQuote(dev))
				}
			}
		}
		if p := e.Persist; p != nil && p.Status != StatusRolledBack && p.Status != StatusUnchanged {
			if p.Existed {
				// One single-quoted word, not a here-document: a line of the old content
				// equal to a here-document's marker would end it and run the rest as
				// shell. Inside single quotes nothing is special but the quote itself
				// (POSIX.1-2017 XCU 2.2.2), which shellQuote closes, escapes and reopens.
				if strings.ContainsRune(p.OldContent, 0) {
					return fmt.Errorf("journal entry %d: the old content of %s holds a NUL byte, which a shell word cannot carry", e.ID, p.Path)
				}
				fmt.Fprintf(&b, "printf '%%s' %s > %s\n", quoteAlways(p.OldContent), shellQuote(p.Path))
			} else {
				fmt.Fprintf(&b, "rm -f %s\n", shellQuote(p.Path))
			}
		}
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// quoteAlways single-quotes s for sh, whatever it holds.
func quoteAlways(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// commentText makes s safe inside a shell comment line: a newline (or any control
// character) would end the comment and make the rest a command.
func commentText(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, NormalizeValue(s))
}

// shellQuote quotes s for sh when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-/=:@+,", r))
	}) < 0 {
		return s
	}
	return quoteAlways(s)
}
