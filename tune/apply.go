package tune

import (
	"context"
	"errors"
	"fmt"
	"headroom/plan"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"headroom/model"
)

// target is one thing a change sets: a sysctl, a ring size, a root qdisc.
type target interface {
	read(ctx context.Context) (string, error)
	apply(ctx context.Context, value string) error
	restore(ctx context.Context, old string) error
	isNew(cur, new string) bool // cur shows the change in effect
	isOld(cur, old string) bool // cur shows the value from before
}

type sysctlTarget struct {
	fs  SysctlFS
	key string
}

func (t sysctlTarget) read(context.Context) (string, error) { return t.fs.Read(t.key) }
func (t sysctlTarget) apply(_ context.Context, v string) error {
	return t.fs.Write(t.key, NormalizeValue(v))
}
func (t sysctlTarget) restore(_ context.Context, old string) error {
	return t.fs.Write(t.key, NormalizeValue(old))
}
func (t sysctlTarget) isNew(cur, new string) bool { return SameValue(cur, new) }
func (t sysctlTarget) isOld(cur, old string) bool { return SameValue(cur, old) }

// makeTarget builds the target of a change; runner may be nil when NIC changes are off.
func makeTarget(kind, key string, fs SysctlFS, runner Runner) (target, error) {
	switch kind {
	case model.ChangeSysctl:
		if fs == nil {
			return nil, errors.New("no sysctl file system")
		}
		return sysctlTarget{fs: fs, key: key}, nil
	case model.ChangeEthtool:
		dev, p, err := ParseEthtoolKey(key)
		if err != nil {
			return nil, err
		}
		if runner == nil {
			return nil, errors.New("ethtool changes need a command runner")
		}
		return ethtoolTarget{runner: runner, dev: dev, param: p}, nil
	case model.ChangeTC:
		dev, k, err := ParseTCKey(key)
		if err != nil {
			return nil, err
		}
		if runner == nil {
			return nil, errors.New("tc changes need a command runner")
		}
		return tcTarget{runner: runner, dev: dev, kind: k}, nil
	}
	return nil, fmt.Errorf("changes of kind %q are never applied", kind)
}

// Action says what apply will do with a change.
type Action string

const (
	ActionApply      Action = "apply"       // will be written
	ActionAlreadySet Action = "already-set" // the current value is the recommended one
	ActionAdvice     Action = "advice"      // kind "other": printed, never applied
	ActionNeedsNIC   Action = "needs-nic"   // ethtool or tc without --nic
	ActionRefused    Action = "refused"     // out of bounds, unknown bound, unreadable, below use
	ActionGlobal     Action = "global"      // a host-wide key, asked for inside a namespace
	// ActionNeedsAllowLower: the change lowers a raise-only limit (see Lowers) and
	// Applier.AllowLower is off.
	ActionNeedsAllowLower Action = "needs-allow-lower"
)

// Blocks says whether an item of this action stops an all-or-nothing apply: everything that
// was asked for and will not be written.
func (a Action) Blocks() bool {
	return a == ActionRefused || a == ActionGlobal || a == ActionNeedsAllowLower || a == ActionNeedsNIC
}

// Item is a change with the current value read from the host and what apply will do.
type Item struct {
	Change  model.Change
	Current string // as read now; "" with CurrentErr when unreadable
	// CurrentErr says why the current value could not be read.
	CurrentErr error
	Action     Action
	Reason     string // for refused, global, needs-nic, needs-allow-lower and already-set: in words
	// Lowers says which values the change lowers ("4194304 → 212992"); "" when it raises or
	// has no direction. Shown in the dry run whatever the action.
	Lowers string
}

// PersistOptions asks for a sysctl.d drop-in.
type PersistOptions struct {
	Dir  string // DefaultSysctlDir unless testing
	Name string // DropInName
}

// Path is the drop-in's path.
func (p PersistOptions) Path() string {
	name := p.Name
	if name == "" {
		name = DropInName
	}
	dir := p.Dir
	if dir == "" {
		dir = DefaultSysctlDir
	}
	// Absolute, so that the journal names the file whatever directory rollback runs from.
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return filepath.Join(dir, name)
}

// Applier applies changes with a journal.
type Applier struct {
	FS      SysctlFS // sysctls, in Netns when set
	Runner  Runner   // ethtool and tc; nil leaves NIC changes out
	Journal *Journal // required by Apply, not by Preview
	Log     *slog.Logger
	Netns   string // the namespace FS and Runner work in, for the journal and the scope check
	NIC     bool   // apply ethtool and tc changes (they can briefly reset a link)
	Persist *PersistOptions
	Limits  plan.Limits
	// AllowLower lets changes lower raise-only limits (--allow-lower). tcp_max_orphans and
	// tcp_mem are never set below what the host uses now (Usage), whatever it says.
	AllowLower bool
	Usage      Usage
	// VerifyWindow is set by Verifier.ApplyVerified: the entry is marked applied with its
	// verification pending (VerifyPending) in the same journal save, so a run killed in
	// the after window leaves an entry the next apply rolls back (RollbackUnverified).
	VerifyWindow string
	// AllOrNothing refuses the whole set when any change would not be written (--all-or-
	// nothing); by default Apply writes what it can and reports the rest.
	AllOrNothing bool
	Now          func() time.Time
	// AfterJournal runs once the pending entry is on disk and before the first change. Tests
	// use it to kill the process at the worst moment; it is nil otherwise.
	AfterJournal func()
}

func (a *Applier) now() time.Time    { return nowUTC(a.Now) }
func (a *Applier) log() *slog.Logger { return orDiscard(a.Log) }

// nowUTC is the clock's time (time.Now when nil) in UTC, as the journal records it.
func nowUTC(clock func() time.Time) time.Time {
	if clock != nil {
		return clock().UTC()
	}
	return time.Now().UTC()
}

// orDiscard is l, or a logger that writes nowhere.
func orDiscard(l *slog.Logger) *slog.Logger {
	if l != nil {
		return l
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// Preview reads the current values and decides, change by change, what Apply would do.
// It changes nothing.
func (a *Applier) Preview(ctx context.Context, changes []model.Change) []Item {
	items := make([]Item, len(changes))
	var sysctlKeys []string
	for i, c := range changes {
		it := Item{Change: c}
		switch c.Kind {
		case model.ChangeOther:
			it.Action = ActionAdvice
			it.Reason = "advice: headroom never applies it"
		case model.ChangeSysctl:
			it.Action = ActionApply
			sysctlKeys = append(sysctlKeys, c.Key)
			if err := plan.CheckBound(c.Key, c.Recommended, a.Limits); err != nil {
				it.Action, it.Reason = ActionRefused, err.Error()
			}
		case model.ChangeEthtool, model.ChangeTC:
			it.Action = ActionApply
			if !a.NIC {
				it.Action = ActionNeedsNIC
				it.Reason = "ring sizes and qdiscs can briefly reset the link: applied only with --apply --nic"
			}
		}
		if c.Kind != model.ChangeOther {
			a.readCurrent(ctx, &it)
		}
		items[i] = it
	}
	// Scope first among refusals: a global key in a namespace is refused whatever its value.
	if a.Netns != "" && len(sysctlKeys) > 0 && a.FS != nil {
		var ge *GlobalKeyError
		if err := checkNetnsScope(a.Netns, a.FS, sysctlKeys); errors.As(err, &ge) {
			for _, k := range ge.Keys {
				for i := range items {
					// A global value the namespace shows read-only and that already has the
					// planned value needs nothing from anyone.
					if c := items[i].Change; c.Kind == model.ChangeSysctl && c.Key == k.Key && items[i].Action != ActionRefused &&
						(items[i].CurrentErr != nil || !SameValue(items[i].Current, c.Recommended)) {
						items[i].Action = ActionGlobal
						items[i].Reason = fmt.Sprintf("global, not per network namespace: %s; set it for the host with: sysctl -w %s=%s",
							k.History, c.Key, shellQuote(NormalizeValue(c.Recommended)))
					}
				}
			}
		}
	}
	for i := range items {
		it := &items[i]
		if it.Action != ActionApply {
			continue
		}
		switch {
		case it.CurrentErr != nil:
			it.Action, it.Reason = ActionRefused, "cannot read the current value: "+it.CurrentErr.Error()
		case a.isAlreadySet(it):
			it.Action, it.Reason = ActionAlreadySet, "already set"
		case it.Change.Kind != model.ChangeSysctl:
			if err := a.checkNIC(ctx, it.Change); err != nil {
				it.Action, it.Reason = ActionRefused, err.Error()
			}
		}
	}
	// Raise only: say what each change lowers; refuse tcp_max_orphans and tcp_mem below what
	// the host uses now, and other lowerings unless allowed.
	for i := range items {
		it := &items[i]
		if it.CurrentErr != nil || it.Action == ActionAlreadySet || it.Change.Kind == model.ChangeOther {
			continue
		}
		it.Lowers, _ = Lowers(it.Change.Kind, it.Change.Key, it.Current, it.Change.Recommended)
		if it.Action != ActionApply {
			continue
		}
		if it.Change.Kind == model.ChangeSysctl {
			if why := belowUse(it.Change.Key, it.Current, it.Change.Recommended, a.Usage); why != "" {
				it.Action, it.Reason = ActionRefused, why
				continue
			}
		}
		if it.Lowers != "" && !a.AllowLower {
			it.Action = ActionNeedsAllowLower
			it.Reason = fmt.Sprintf("lowers %s: the host (an admin, a tool or the kernel) has more now; pass --allow-lower to lower it", it.Lowers)
		}
	}
	return items
}

func (a *Applier) readCurrent(ctx context.Context, it *Item) {
	t, err := makeTarget(it.Change.Kind, it.Change.Key, a.FS, a.Runner)
	if err != nil {
		it.CurrentErr = err
		return
	}
	it.Current, it.CurrentErr = t.read(ctx)
}

func (a *Applier) isAlreadySet(it *Item) bool {
	t, err := makeTarget(it.Change.Kind, it.Change.Key, a.FS, a.Runner)
	if err != nil {
		return false
	}
	if it.Change.Kind == model.ChangeTC {
		return false // the shown qdisc cannot be compared with the parameters asked for
	}
	return t.isNew(it.Current, it.Change.Recommended)
}

func (a *Applier) checkNIC(ctx context.Context, c model.Change) error {
	t, err := makeTarget(c.Kind, c.Key, a.FS, a.Runner)
	if err != nil {
		return err
	}
	switch t := t.(type) {
	case ethtoolTarget:
		return t.check(ctx, c.Recommended)
	case tcTarget:
		return t.check(ctx, c.Recommended)
	}
	return nil
}

// RefusedError is returned by an all-or-nothing apply when any change would not be written:
// nothing was journaled or changed.
type RefusedError struct {
	Items []Item // the refused ones
}

func (e *RefusedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "refusing to apply: %d change(s) refused, nothing was changed", len(e.Items))
	for _, it := range e.Items {
		fmt.Fprintf(&b, "\n  %s %s: %s", it.Change.Kind, it.Change.Key, it.Reason)
	}
	return b.String()
}

// ApplyError is a write that failed during an apply, after the journal entry was written.
type ApplyError struct {
	Entry         *Entry
	Index, Total  int    // the failed write, 1-based, of how many
	Key           string // the failed change's key
	Err           error
	Restored      []string // keys restored to their old value
	RestoreFailed []string // keys whose restore failed too
	Persist       bool     // the failure was writing the drop-in
}

func (e *ApplyError) Error() string {
	var what string
	if e.Persist {
		what = fmt.Sprintf("journal entry %d: writing the drop-in failed: %v", e.Entry.ID, e.Err)
	} else {
		what = fmt.Sprintf("journal entry %d: change %d of %d (%s) failed: %v", e.Entry.ID, e.Index, e.Total, e.Key, e.Err)
	}
	switch {
	case len(e.RestoreFailed) > 0:
		what += fmt.Sprintf("; restored %s; restoring %s FAILED too: run headroom tune --rollback",
			listOrNone(e.Restored), strings.Join(e.RestoreFailed, ", "))
	case len(e.Restored) > 0:
		what += fmt.Sprintf("; restored the %d change(s) already written: %s", len(e.Restored), strings.Join(e.Restored, ", "))
	default:
		what += "; nothing had been written yet"
	}
	return what
}

// Unwrap gives errors.Is the errno of the failed write.
func (e *ApplyError) Unwrap() error { return e.Err }

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// Apply writes the journal entry, then the changes, each read back. It returns the entry
// (nil when there was nothing to change), the preview items, and an error: *RefusedError
// before anything was journaled, *ApplyError after a failed write (the entry then says what
// was restored).
func (a *Applier) Apply(ctx context.Context, changes []model.Change) (*Entry, []Item, error) {
	if a.Journal == nil {
		return nil, nil, errors.New("apply needs a journal")
	}
	items := a.Preview(ctx, changes)
	var refused []Item
	for _, it := range items {
		if it.Action.Blocks() {
			refused = append(refused, it)
		}
	}
	if len(refused) > 0 && a.AllOrNothing {
		return nil, items, &RefusedError{Items: refused}
	}
	if a.Persist != nil && a.Netns != "" && IsBootSysctlDir(a.Persist.Dir) {
		return nil, items, fmt.Errorf("refusing --persist for network namespace %q into %s: systemd-sysctl would apply it to the whole host at boot; pass --sysctl-dir with a directory of the namespace's own", a.Netns, a.Persist.Dir)
	}

	var work []Item
	var persistChanges []model.Change
	for _, it := range items {
		if it.Action == ActionApply {
			work = append(work, it)
		}
		if it.Change.Kind == model.ChangeSysctl && (it.Action == ActionApply || it.Action == ActionAlreadySet) {
			persistChanges = append(persistChanges, it.Change)
		}
	}

	jf, err := a.Journal.Load()
	if err != nil {
		return nil, items, err
	}
	now := a.now()
	e := &Entry{ID: jf.nextID(), Time: now, Updated: now, Netns: a.Netns, State: StatePending}
	for _, it := range work {
		c := it.Change
		e.Changes = append(e.Changes, Record{Kind: c.Kind, Key: c.Key, Old: it.Current, New: NormalizeValue(c.Recommended),
			Why: oneLine(c.Why), Rule: c.Rule, Status: StatusPlanned})
	}
	if a.Persist != nil && len(persistChanges) > 0 {
		path := a.Persist.Path()
		old, existed, err := readOptional(path)
		if err != nil {
			return nil, items, fmt.Errorf("drop-in %s: %w", path, err)
		}
		stamp := fmt.Sprintf("headroom entry %d, %s", e.ID, now.Format(time.RFC3339))
		merged := mergeDropIn(old, persistChanges, a.Netns, path, stamp)
		if merged != old {
			e.Persist = &PersistRecord{Path: path, Existed: existed, OldContent: old, NewContent: merged, Status: StatusPlanned}
		}
	}
	if len(e.Changes) == 0 && e.Persist == nil {
		return nil, items, nil
	}

	if err := a.stampEntry(e); err != nil {
		return nil, items, err
	}
	// The journal goes first: from here on, a crash leaves an entry that rollback understands.
	jf.Entries = append(jf.Entries, e)
	if err := a.Journal.Save(jf); err != nil {
		return nil, items, fmt.Errorf("writing the journal before any change: %w (nothing was changed)", err)
	}
	a.log().Info(fmt.Sprintf("journal entry %d written before any change", e.ID),
		"journal", a.Journal.Path(), "changes", len(e.Changes), "netns", a.Netns)
	if a.AfterJournal != nil {
		a.AfterJournal()
	}

	fail := func(ae *ApplyError) (*Entry, []Item, error) {
		ae.Entry = e
		ae.Total = len(e.Changes)
		e.Error = ae.Error()
		if len(ae.RestoreFailed) > 0 {
			e.State = StateFailedIncomplete
		} else {
			e.State = StateFailedRestored
		}
		e.Updated = a.now()
		if err := a.Journal.Save(jf); err != nil {
			return e, items, fmt.Errorf("%v; and updating the journal failed: %w", ae, err)
		}
		return e, items, ae
	}

	targets := make([]target, len(e.Changes))
	for i := range e.Changes {
		r := &e.Changes[i]
		t, err := makeTarget(r.Kind, r.Key, a.FS, a.Runner)
		if err != nil {
			r.Status, r.Error = StatusFailed, err.Error()
			return fail(a.restoreWritten(ctx, e, targets, i, &ApplyError{Index: i + 1, Key: r.Key, Err: err}))
		}
		targets[i] = t
		err = ctx.Err()
		if err == nil {
			err = t.apply(ctx, r.New)
		}
		if err == nil {
			err = verify(ctx, t, func(cur string) bool { return t.isNew(cur, r.New) }, r.New)
		}
		if err != nil {
			r.Status, r.Error = StatusFailed, err.Error()
			a.log().Error(fmt.Sprintf("%s: %s → %s failed", r.Key, NormalizeValue(r.Old), r.New),
				"err", err, "why", r.Why, "rule", r.Rule, "netns", a.Netns, "entry", e.ID)
			return fail(a.restoreWritten(ctx, e, targets, i, &ApplyError{Index: i + 1, Key: r.Key, Err: err}))
		}
		r.Status = StatusWritten
		a.log().Info(fmt.Sprintf("%s: %s → %s", r.Key, NormalizeValue(r.Old), r.New),
			"why", r.Why, "rule", r.Rule, "netns", a.Netns, "entry", e.ID)
	}

	if e.Persist != nil {
		p := e.Persist
		if err := WriteFileAtomic(p.Path, []byte(p.NewContent), 0o644); err != nil {
			p.Status, p.Error = StatusFailed, err.Error()
			return fail(a.restoreWritten(ctx, e, targets, len(e.Changes), &ApplyError{Key: p.Path, Err: err, Persist: true}))
		}
		p.Status = StatusWritten
		a.log().Info(fmt.Sprintf("drop-in %s written", p.Path), "entry", e.ID, "existed", p.Existed)
	}

	e.State = StateApplied
	e.Updated = a.now()
	if a.VerifyWindow != "" {
		e.Verify = &Verification{Window: a.VerifyWindow, Decision: VerifyPending}
	}
	if err := a.Journal.Save(jf); err != nil {
		return e, items, fmt.Errorf("every change is in effect, but marking journal entry %d applied failed: %w (rollback still works: the entry is pending)", e.ID, err)
	}
	return e, items, nil
}

// restoreWritten undoes changes [0, n) of e in reverse order after a failure.
func (a *Applier) restoreWritten(ctx context.Context, e *Entry, targets []target, n int, ae *ApplyError) *ApplyError {
	// Restoring must happen even when ctx was cancelled (Ctrl-C during an apply).
	rctx := context.WithoutCancel(ctx)
	// The failed change itself may have taken effect: a write the kernel accepted but whose
	// read-back differs (a value clamped by the driver). Restore it too unless it still
	// shows the old value; a rejected write (EINVAL and the like) left it untouched.
	if n < len(e.Changes) && targets[n] != nil {
		r, t := &e.Changes[n], targets[n]
		if cur, err := t.read(rctx); err == nil && !t.isOld(cur, r.Old) {
			err := t.restore(rctx, r.Old)
			if err == nil {
				err = verify(rctx, t, func(c string) bool { return t.isOld(c, r.Old) }, r.Old)
			}
			if err != nil {
				r.Status = StatusRestoreFailed
				r.Error += "; it had taken effect, and restoring it failed: " + err.Error()
				ae.RestoreFailed = append(ae.RestoreFailed, r.Key)
			} else {
				r.Error += "; it had taken effect and was restored"
				ae.Restored = append(ae.Restored, r.Key)
			}
		}
	}
	for j := n - 1; j >= 0; j-- {
		r := &e.Changes[j]
		if r.Status != StatusWritten || targets[j] == nil {
			continue
		}
		t := targets[j]
		err := t.restore(rctx, r.Old)
		if err == nil {
			err = verify(rctx, t, func(cur string) bool { return t.isOld(cur, r.Old) }, r.Old)
		}
		if err != nil {
			r.Status, r.Error = StatusRestoreFailed, err.Error()
			ae.RestoreFailed = append(ae.RestoreFailed, r.Key)
			a.log().Error(fmt.Sprintf("%s: restoring %s → %s failed", r.Key, r.New, NormalizeValue(r.Old)), "err", err, "entry", e.ID)
			continue
		}
		r.Status = StatusRestored
		ae.Restored = append(ae.Restored, r.Key)
		a.log().Info(fmt.Sprintf("%s: %s → %s (restored after a failed change)", r.Key, r.New, NormalizeValue(r.Old)),
			"why", "undo", "netns", a.Netns, "entry", e.ID)
	}
	return ae
}

// verify reads the target back: the kernel may accept a write and store something else
// (a value clamped by the driver, a qdisc that did not attach).
func verify(ctx context.Context, t target, ok func(string) bool, want string) error {
	cur, err := t.read(ctx)
	if err != nil {
		return fmt.Errorf("reading back: %w", err)
	}
	if !ok(cur) {
		return fmt.Errorf("read back %q after writing %q", cur, want)
	}
	return nil
}
