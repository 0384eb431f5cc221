package lab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"headroom/lab/netlab"
	"headroom/lab/vm"
)

// The flows of `headroom lab`: cmd/headroom parses the flags and calls these. What the user
// reads goes to Stdout (results) and Stderr (progress); an error is for cmd to print as
// "headroom lab run: ERR", followed, for a *NeedRootError, by what the run creates.

// NeedRootError is a run refused for want of root; Creates says what the run creates.
type NeedRootError struct {
	Err     error
	Creates string
}

func (e *NeedRootError) Error() string { return e.Err.Error() }
func (e *NeedRootError) Unwrap() error { return e.Err }

// needRootError wraps err as a *NeedRootError when it is netlab.ErrNeedRoot.
func needRootError(err error, creates string) error {
	if errors.Is(err, netlab.ErrNeedRoot) {
		return &NeedRootError{Err: err, Creates: creates}
	}
	return err
}

// WriteList prints the scenarios, each with its kind, and the settings sets (lab list).
func WriteList(w io.Writer) {
	fmt.Fprintln(w, "scenarios:")
	for _, s := range Scenarios() {
		kind := "compare"
		if s.Failure != nil {
			kind = "failure"
			if s.Failure.Global {
				kind = "failure, --allow-global"
			}
		}
		if s.Guest != nil {
			kind = "guest, --kernel"
		}
		fmt.Fprintf(w, "  %-26s [%s] %s\n", s.Name, kind, s.Summary)
	}
	fmt.Fprintln(w, "settings sets:")
	for _, s := range SettingsSets() {
		fmt.Fprintf(w, "  %-26s %s\n", s.Name(), s.Summary)
	}
}

// Cleanup removes what killed runs left behind and prints what was swept (lab cleanup).
func Cleanup(w io.Writer) error {
	removed, err := netlab.CleanupAll(netlab.NamePrefix)
	for _, n := range removed {
		fmt.Fprintln(w, netlab.SweepLine(n))
	}
	return err
}

// Command is `headroom lab run` or `lab compare` once its flags are read.
type Command struct {
	Compare bool
	// Scenario is the scenario's name; Settings the set's name or file, SettingsGiven
	// whether --settings was on the command line (compare runs every set).
	Scenario      string
	Settings      string
	SettingsGiven bool
	// Format is "text" or "json".
	Format string
	// Given are the flags on the command line (without "--", in flag.Visit's order): a
	// guest or failure scenario refuses the matrix flags.
	Given []string
	// Overrides are the matrix scenarios' flags; Failure the failure scenarios'; Guest the
	// guest scenarios'.
	Overrides   Overrides
	Failure     FailureOptions
	Guest       GuestOptions
	AllowGlobal bool
	Timeout     time.Duration

	Stdout, Stderr io.Writer
}

// Name is the command as the user typed it: "lab run" or "lab compare".
func (c *Command) Name() string {
	if c.Compare {
		return "lab compare"
	}
	return "lab run"
}

// besides lists the flags given other than allowed, as "--name".
func (c *Command) besides(allowed ...string) []string {
	var out []string
	for _, f := range c.Given {
		if !slices.Contains(allowed, f) {
			out = append(out, "--"+f)
		}
	}
	return out
}

// Progress is the lab's progress line on w: the time and the message.
func Progress(w io.Writer) func(string) {
	return func(msg string) { fmt.Fprintf(w, "%s %s\n", time.Now().Format("15:04:05"), msg) }
}

// Run runs the scenario: held says a guest or failure scenario ran but a judgement did not
// hold (doctor missed the finding, the fix missed its margin).
func (c *Command) Run(ctx context.Context) (held bool, err error) {
	if c.Compare && c.SettingsGiven {
		return false, errors.New("--settings does not apply; compare runs every set")
	}
	sc, err := LookupScenario(c.Scenario)
	if err != nil {
		return false, err
	}
	if sc.Guest != nil || c.Guest.Kernel != "" {
		if c.Compare {
			return false, fmt.Errorf("%s: guest scenarios run with headroom lab run %s --kernel NAME", sc.Name, sc.Name)
		}
		if other := c.besides("format", "timeout", "kernel", "trace"); len(other) > 0 {
			return false, fmt.Errorf("%s runs in a QEMU guest: %s do not apply", sc.Name, strings.Join(other, ", "))
		}
		return c.runGuest(ctx, sc)
	}
	if sc.Failure != nil {
		if c.Compare {
			return false, fmt.Errorf("%s is a failure scenario: use headroom lab run %s", sc.Name, sc.Name)
		}
		if other := c.besides("format", "allow-global", "timeout", "observe", "repeat", "variant", "trace"); len(other) > 0 {
			return false, fmt.Errorf("%s is a failure scenario: %s do not apply", sc.Name, strings.Join(other, ", "))
		}
		return c.runFailure(ctx, sc)
	}
	if c.Failure.Trace {
		return false, fmt.Errorf("--trace traces the doctor windows of failure scenarios; %s runs no doctor", sc.Name)
	}
	cases, err := sc.Cases(c.Overrides)
	if err != nil {
		return false, err
	}
	var sets []Settings
	if c.Compare {
		for _, s := range SettingsSets() {
			sets = append(sets, s)
		}
	} else {
		s, err := SettingsByNameOrFile(c.Settings)
		if err != nil {
			return false, err
		}
		sets = []Settings{s}
	}
	opts := RunOptions{AllowGlobal: c.AllowGlobal, Timeout: c.Timeout, Progress: Progress(c.Stderr)}
	rep, err := RunScenario(ctx, sc, cases, sets, opts)
	if len(rep.Runs) > 0 || err == nil {
		if e := c.write(rep, func(w io.Writer) error { return WriteTable(w, rep) }); e != nil {
			return false, e
		}
	}
	return false, needRootError(err, "the lab creates network namespaces")
}

// runGuest runs a guest scenario (lab/vm) and prints its report.
func (c *Command) runGuest(ctx context.Context, sc *Scenario) (bool, error) {
	opts := c.Guest
	opts.Timeout, opts.Progress = c.Timeout, Progress(c.Stderr)
	rep, err := RunGuest(ctx, sc, opts)
	if rep != nil {
		if e := c.write(rep, func(w io.Writer) error { return WriteGuestReport(w, rep) }); e != nil {
			return false, e
		}
	}
	if err != nil {
		return false, needRootError(err, "the QEMU lab creates a network namespace and a tap")
	}
	return !rep.OK, nil
}

// runFailure runs a failure scenario and prints its report.
func (c *Command) runFailure(ctx context.Context, sc *Scenario) (bool, error) {
	opts := c.Failure
	opts.AllowGlobal, opts.Timeout, opts.Progress = c.AllowGlobal, c.Timeout, Progress(c.Stderr)
	rep, err := RunFailure(ctx, sc, opts)
	if rep != nil && (len(rep.Runs) > 0 || err == nil) {
		if e := c.write(rep, func(w io.Writer) error { return WriteFailureTable(w, sc, rep) }); e != nil {
			return false, e
		}
	}
	if err != nil {
		return false, needRootError(err, "the lab creates network namespaces and cgroups")
	}
	for _, r := range rep.Runs {
		if !r.Metric.OK || (len(r.Expected) > 0 && !r.Diagnosed) {
			return true, nil
		}
	}
	return false, nil
}

// write prints a run's report as JSON or as text.
func (c *Command) write(rep any, text func(io.Writer) error) error {
	if c.Format == "json" {
		enc := json.NewEncoder(c.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return text(c.Stdout)
}

// Kernels lists the kernels the QEMU lab boots (lab kernels), fetching the absent ones
// first with fetch; a kernel that could not be fetched is said on stderr, and ok is false.
func Kernels(ctx context.Context, fetch bool, format string, stdout, stderr io.Writer) (ok bool) {
	cache := vm.CacheDir()
	ok = true
	if fetch {
		for _, k := range vm.Kernels() {
			if _, err := vm.Fetch(ctx, k, cache, Progress(stderr)); err != nil {
				fmt.Fprintf(stderr, "headroom lab kernels: %v\n", err)
				ok = false
			}
		}
	}
	st := vm.StatAll(cache)
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"cache": cache, "kernels": st}) == nil && ok
	}
	fmt.Fprintf(stdout, "cache %s (%s)\n", cache, vm.CacheEnv)
	for _, s := range st {
		if s.Present {
			fmt.Fprintf(stdout, "  %-20s present  %s %s (%s) %s\n", s.Name, s.Package, s.Version, s.Release, s.Vmlinuz)
		} else {
			fmt.Fprintf(stdout, "  %-20s absent   %s\n", s.Name, s.Missing)
		}
	}
	return ok
}
