package tune

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"headroom/input"
	"headroom/judge"
	"headroom/kernel"
	"headroom/model"
	"headroom/plan"
)

// The flows of `headroom tune`: cmd/headroom parses and checks the flags, reads the changes
// (--from through input, or DiagnoseHost), and calls one of these. Each writes what the user
// reads to Stdout and Stderr and returns an error for a failure; held says the run ended
// with something asked for not in effect (exit 1).

// Command is a run with changes: a dry run, --apply (with --persist, --nic, --verify ...),
// or a rendering (--format shell, sysctl, tuned).
type Command struct {
	Changes []model.Change
	// Origin is what a doctor report or a plan said of its host (ParseInput); nil for this
	// host's own diagnosis, a bare array of changes or a plan without a target.
	Origin      *Origin
	ForThisHost bool

	// Format is "text" (dry run, or --apply) or a rendering: "shell", "sysctl", "tuned"
	// (Out: the TuneD profile directory, "" to print tuned.conf).
	Format, Out string

	Apply, Persist, NIC, AllowLower, AllOrNothing bool
	Netns                                         string
	ProcSysDir, StateDir, SysctlDir               string

	// Verify, when positive, is --verify's window (Verifier).
	Verify, VerifyInterval, VerifyMax time.Duration
	Policy                            Policy

	Stdout, Stderr io.Writer
}

// warnf writes a note on stderr, as the command's own.
func warnf(w io.Writer, format string, a ...any) { fmt.Fprintf(w, "headroom tune: "+format+"\n", a...) }

// readLimits reads the bounds' host facts, saying on stderr what an unreadable MemTotal
// means.
func readLimits(stderr io.Writer) plan.Limits {
	limits, err := ReadLimits(kernel.HostRoot())
	if err != nil {
		warnf(stderr, "%v: bounds that depend on RAM will refuse their keys", err)
	}
	return limits
}

// Run renders, previews or applies the changes.
func (c *Command) Run(ctx context.Context) (held bool, err error) {
	limits := readLimits(c.Stderr)
	if c.Format != "text" {
		return c.render(limits)
	}
	// Changes derived elsewhere are refused before anything is read or written: their
	// values were computed from another host's memory, NICs and settings.
	var notHere []string
	if c.Origin != nil && !c.ForThisHost {
		facts, err := ReadThisHost(kernel.HostRoot())
		if err != nil {
			return false, fmt.Errorf("reading this host's facts to compare with the report's: %w", err)
		}
		notHere = c.Origin.Mismatch(facts)
	}
	if len(notHere) > 0 && c.Apply {
		return false, fmt.Errorf("refusing to apply: %s, nothing was changed:\n  %s\n(if they are meant for this host anyway, pass --for-this-host)", c.Origin.NotFor(), strings.Join(notHere, "\n  "))
	}
	var sysfs SysctlFS = ProcSys{Dir: c.ProcSysDir}
	if c.Netns != "" {
		n, err := OpenNetns(c.Netns)
		if err != nil {
			return false, err
		}
		defer n.Close()
		sysfs = n
	}
	// What the host uses now of tcp_max_orphans and tcp_mem: both are host-wide, so the
	// host's /proc/net/sockstat is the one to read, also for --netns.
	usage, err := ReadUsage(kernel.HostRoot())
	if err != nil {
		warnf(c.Stderr, "%v: lowering tcp_max_orphans or tcp_mem will be refused", err)
	}
	a := &Applier{FS: sysfs, Runner: ExecRunner{Netns: c.Netns}, Netns: c.Netns, NIC: c.NIC,
		Limits: limits, Log: CommandLogger(c.Stderr), AllowLower: c.AllowLower, AllOrNothing: c.AllOrNothing, Usage: usage}
	if !c.Apply {
		return c.dryRun(ctx, a, notHere)
	}
	return c.apply(ctx, a)
}

// dryRun previews the changes. A change --apply would refuse (out of bounds, no bound,
// unreadable, below use) is not a clean result, as it is not on --apply. Changes held back
// until a flag asks for them (--nic, --allow-lower) are the user's choice, like advice.
func (c *Command) dryRun(ctx context.Context, a *Applier, notHere []string) (bool, error) {
	items := a.Preview(ctx, c.Changes)
	if err := WritePreview(c.Stdout, items); err != nil {
		return false, err
	}
	if len(notHere) > 0 {
		fmt.Fprintf(c.Stdout, "REFUSED, every change: %s:\n  %s\n(if they are meant for this host anyway, pass --for-this-host)\n", c.Origin.NotFor(), strings.Join(notHere, "\n  "))
		return false, errors.New("dry run, nothing changed: --apply would refuse these changes")
	}
	refused := 0
	for _, it := range items {
		if it.Action == ActionRefused {
			refused++
		}
	}
	if refused > 0 {
		warnf(c.Stderr, "dry run, nothing changed: --apply would refuse %d change(s) (REFUSED above) and apply the rest (none with --all-or-nothing)", refused)
		return true, nil
	}
	warnf(c.Stderr, "dry run, nothing changed; apply with --apply (undo with --rollback)")
	return false, nil
}

// apply applies through the journal, first rolling back what an earlier --verify run killed
// in its after window left, and says what was applied, what not, and the verification.
func (c *Command) apply(ctx context.Context, a *Applier) (bool, error) {
	if c.Persist {
		a.Persist = &PersistOptions{Dir: c.SysctlDir}
	}
	j, err := OpenJournal(c.StateDir)
	if err != nil {
		return false, err
	}
	defer j.Close()
	a.Journal = j
	rb := c.rollbacker(j, a.Limits, a.Log)
	// An earlier --apply --verify killed in its after window left a change that nothing
	// showed to help: it does not stay.
	unverified, err := rb.RollbackUnverified(ctx)
	for _, u := range unverified {
		fmt.Fprintf(c.Stdout, "journal entry %d %s: its --verify run ended before the after window was measured\n", u.ID, u.State)
	}
	if err != nil {
		return false, fmt.Errorf("rolling back an unverified entry: %w", err)
	}
	var e *Entry
	var items []Item
	var ver *Verification
	if c.Verify > 0 {
		e, items, ver, err = c.verifier().ApplyVerified(ctx, a, rb, c.Changes)
	} else {
		e, items, err = a.Apply(ctx, c.Changes)
	}
	var skipped []Item
	held := false
	for _, it := range items {
		if it.Action != ActionApply {
			skipped = append(skipped, it)
		}
		// needs-nic is opt-in like advice; the others were asked for and are not in effect.
		held = held || (it.Action.Blocks() && it.Action != ActionNeedsNIC)
	}
	if err != nil {
		// What was not applied whatever the failure is still said.
		writeNotApplied(c.Stdout, skipped)
		return false, err
	}
	if e == nil {
		fmt.Fprintln(c.Stdout, "nothing to change")
	} else {
		for _, r := range e.Changes {
			fmt.Fprintf(c.Stdout, "%s: %s → %s  (%s)\n", ChangeName(r.Kind, r.Key), NormalizeValue(r.Old), r.New, strings.TrimSuffix(r.Why+", "+r.Rule, ", "))
		}
		if e.Persist != nil {
			fmt.Fprintf(c.Stdout, "persisted in %s\n", e.Persist.Path)
		}
		if e.State == StateApplied {
			fmt.Fprintf(c.Stdout, "journal entry %d %s; undo with: headroom tune --rollback --to %d\n", e.ID, e.State, e.ID)
		} else {
			fmt.Fprintf(c.Stdout, "journal entry %d %s\n", e.ID, e.State)
		}
	}
	if ver != nil {
		writeVerdict(c.Stdout, ver)
		held = held || ver.Decision != "kept"
	}
	writeNotApplied(c.Stdout, skipped)
	return held, nil
}

// hostDir is the host the command tunes: this host ("/"), or the host a --proc-sys tree
// stands for, laid out under its parent's parent (DIR/proc/sys).
func (c *Command) hostDir() string {
	if c.ProcSysDir == "" || c.ProcSysDir == "/proc/sys" {
		return "/"
	}
	return filepath.Dir(filepath.Dir(c.ProcSysDir))
}

// DiagnoseHost is `headroom tune` without --from: the changes of a doctor run on the host
// the command tunes (hostDir, read as doctor reads it: 3 s of samples, the kernel log back
// an hour), each with the rule that proposed it.
func (c *Command) DiagnoseHost(ctx context.Context) ([]model.Change, error) {
	dir := c.hostDir()
	tl, err := input.Open(ctx, dir, input.Options{Kind: input.Live, MountedHost: dir != "/",
		Duration: 3 * time.Second, Interval: time.Second, LogSince: time.Hour})
	if err != nil {
		return nil, err
	}
	var r judge.Runner
	var changes []model.Change
	for _, f := range r.JudgeWindow(tl).Diagnosis.Findings {
		for _, ch := range f.Changes {
			if ch.Rule == "" {
				ch.Rule = f.ID
			}
			changes = append(changes, ch)
		}
	}
	return changes, nil
}

// verifier is --verify's: each window recorded once from the host the command tunes (with
// the network counters of --netns).
func (c *Command) verifier() *Verifier {
	rec := HostRecorder{Dir: c.hostDir(), Netns: c.Netns}
	return &Verifier{Window: c.Verify, Interval: c.VerifyInterval, MaxAfter: c.VerifyMax, Record: rec.Record, Judge: Critical, Policy: c.Policy}
}

func (c *Command) rollbacker(j *Journal, limits plan.Limits, log *slog.Logger) *Rollbacker {
	return &Rollbacker{Journal: j, Limits: limits, Log: log, OpenFS: OpenFSUnder(c.ProcSysDir),
		Runner: func(ns string) Runner { return ExecRunner{Netns: ns} }}
}

// render writes --format shell, sysctl or tuned from the changes that pass the bounds
// --apply checks; the others are listed on stderr and fail the run, so a rendered file never
// carries a value headroom would refuse to write.
func (c *Command) render(limits plan.Limits) (bool, error) {
	ok, refused := Renderable(c.Changes, limits)
	var err error
	switch c.Format {
	case "shell":
		err = RenderShell(c.Stdout, ok, c.Netns)
	case "sysctl":
		err = RenderSysctl(c.Stdout, ok, c.Netns, filepath.Join(c.SysctlDir, DropInName))
	case "tuned":
		if c.Out == "" {
			err = RenderTuned(c.Stdout, ok)
			break
		}
		if err = WriteTunedProfile(c.Out, ok); err == nil {
			warnf(c.Stderr, "wrote TuneD profile %s; install it as /etc/tuned/%s and run: tuned-adm profile %s",
				filepath.Join(c.Out, "tuned.conf"), TunedProfileName, TunedProfileName)
		}
	default:
		return false, fmt.Errorf("--format %q: want text, shell, sysctl or tuned", c.Format)
	}
	if err != nil {
		return false, err
	}
	if len(refused) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "left out of the --format %s output, refused as --apply would refuse them:", c.Format)
		for _, it := range refused {
			fmt.Fprintf(&b, "\n  %s %s: %s", it.Change.Kind, it.Change.Key, it.Reason)
		}
		return false, errors.New(b.String())
	}
	return false, nil
}

// writeNotApplied lists the changes an apply left out, with why.
func writeNotApplied(w io.Writer, skipped []Item) {
	if len(skipped) > 0 {
		fmt.Fprintln(w, "not applied:")
		WritePreview(w, skipped)
	}
}

// writeVerdict prints the verification after an apply: its figures and what decided it.
func writeVerdict(w io.Writer, v *Verification) {
	var b strings.Builder
	WriteVerification(&b, v)
	list := func(head string, l []string) {
		if len(l) > 0 {
			b.WriteString(head + ":\n  " + strings.Join(l, "\n  ") + "\n")
		}
	}
	switch {
	case v.Outcome == OutcomeKept && len(v.Improved) == 0:
		b.WriteString("kept: every change measured, no guard worse beyond noise (and none improved beyond it)\n")
	case v.Outcome == OutcomeKept:
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

// Rollback is `headroom tune --rollback [--to ID] [--print]`: restore from the journal,
// newest entry first, or print the equivalent commands.
func Rollback(ctx context.Context, to int, print bool, stateDir, procSysDir string, stdout, stderr io.Writer) error {
	limits := readLimits(stderr)
	if print {
		if err := CheckStateDir(stateDir); err != nil {
			return err
		}
		jf, err := ReadJournal(filepath.Join(stateDir, JournalName))
		if err != nil {
			return err
		}
		return PrintRollback(stdout, jf, to, limits)
	}
	j, err := OpenJournal(stateDir)
	if err != nil {
		return err
	}
	defer j.Close()
	c := Command{ProcSysDir: procSysDir}
	done, err := c.rollbacker(j, limits, CommandLogger(stderr)).Rollback(ctx, to)
	for _, e := range done {
		where := ""
		if e.Netns != "" {
			where = " (network namespace " + e.Netns + ")"
		}
		fmt.Fprintf(stdout, "journal entry %d%s: %s", e.ID, where, e.State)
		if len(e.Notes) > 0 {
			fmt.Fprintf(stdout, ": %s", e.Notes[len(e.Notes)-1])
		}
		fmt.Fprintln(stdout)
	}
	if err != nil {
		return err
	}
	if len(done) == 0 {
		fmt.Fprintln(stdout, "nothing to roll back")
	}
	return nil
}

// ReadStatus reads the journal under stateDir and, for each key it applied, the value now
// (under procSysDir, or the entry's namespace) and the boot configuration under bootRoot.
// A state directory that does not exist is an empty report: headroom never applied
// anything there.
func ReadStatus(ctx context.Context, stateDir, procSysDir, sysctlDir, bootRoot string) (*StatusReport, error) {
	if _, err := os.Stat(stateDir); errors.Is(err, fs.ErrNotExist) {
		return &StatusReport{}, nil
	}
	if err := CheckStateDir(stateDir); err != nil {
		return nil, err
	}
	jf, err := ReadJournal(filepath.Join(stateDir, JournalName))
	if err != nil {
		return nil, err
	}
	opt := StatusOptions{OpenFS: OpenFSUnder(procSysDir), BootRoot: bootRoot, SysctlDir: sysctlDir}
	if filepath.Clean(procSysDir) == "/proc/sys" {
		// ethtool and tc read this host's devices: not for a test or captured tree.
		opt.Runner = func(ns string) Runner { return ExecRunner{Netns: ns} }
	}
	return Status(ctx, jf, opt), nil
}

// ShowStatus is `headroom tune --status`: the report as text or json. held says a key
// drifted or a boot file overrides the drop-in.
func ShowStatus(ctx context.Context, stateDir, procSysDir, sysctlDir, bootRoot, format string, stdout io.Writer) (held bool, err error) {
	if format != "text" && format != "json" {
		return false, fmt.Errorf("--status-format %q: want text or json", format)
	}
	rep, err := ReadStatus(ctx, stateDir, procSysDir, sysctlDir, bootRoot)
	if err != nil {
		return false, err
	}
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(rep)
	} else {
		err = WriteStatus(stdout, rep)
	}
	if err != nil {
		return false, err
	}
	return len(rep.Drifted()) > 0 || len(rep.Overridden()) > 0, nil
}

// OpenFSUnder opens the sysctls of a journal entry's namespace: the procSysDir tree for the
// host, the namespace's /proc/sys otherwise.
func OpenFSUnder(procSysDir string) func(ns string) (SysctlFS, func(), error) {
	return func(ns string) (SysctlFS, func(), error) {
		if ns == "" {
			return ProcSys{Dir: procSysDir}, func() {}, nil
		}
		n, err := OpenNetns(ns)
		if err != nil {
			return nil, nil, err
		}
		return n, func() { n.Close() }, nil
	}
}

// WriteBounds is --list-bounds: the sysctls headroom writes, with their scope and bound.
func WriteBounds(w io.Writer) {
	for _, k := range plan.BoundedKeys() {
		fmt.Fprintf(w, "%-34s %-9s %s\n", k, kernel.LookupSysctlScope(k).Scope, plan.BoundSource(k))
	}
}

// CommandLogger logs one line per change to w. The time is left out: the journal has it.
func CommandLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
}
