package lab

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"headroom/lab/vm"
)

// Guest scenarios run on a real kernel other than this host's: a QEMU guest booted by
// lab/vm (docs/lab.md, "The kernel lab"). The scenario gives its guest's script and judges
// what comes back; lab/vm boots, networks, collects and cleans up.
type GuestScenario struct {
	// Kernels lists the kernels (vm.Kernels names) the scenario runs on; empty: all.
	Kernels []string
	// Timeout bounds one run (boot included) unless GuestOptions.Timeout says otherwise.
	Timeout time.Duration
	// Run runs the scenario on the kernel in o and judges it. Everything it starts through
	// lab/vm is stopped by lab/vm; Run closes the guests it starts.
	Run func(ctx context.Context, o GuestOptions) (*GuestReport, error)
}

// GuestOptions control a guest scenario's run.
type GuestOptions struct {
	Kernel   string        // a vm.Kernels name
	Timeout  time.Duration // > 0 replaces the scenario's bound
	Progress func(msg string)
	// Headroom is the guest's headroom binary ("" lets lab/vm find or build one).
	Headroom string
	// Trace: a failure scenario's "before" guest records its load with record --trace, so
	// the report has the kernel's drop reasons and stall times through the failure (lab run
	// --trace). Off by default: in a small guest whose failure depends on its memory, the
	// recorder's 6123-6868 pages of RSS and its guard's 3221-3272 (partly the binary they
	// share, as the OOM killer's task lists of two traced atomic-rx-refill guests showed)
	// are memory an untraced run does not spend.
	Trace bool
}

// GuestReport is the JSON document of `lab run NAME --kernel K` for a guest scenario.
type GuestReport struct {
	Scenario string    `json:"scenario"`
	Kernel   vm.Status `json:"kernel"`
	Accel    string    `json:"accel"`
	BootSec  float64   `json:"boot_seconds"`
	RunSec   float64   `json:"run_seconds"`
	OK       bool      `json:"ok"`
	Summary  []string  `json:"summary"`
	Details  any       `json:"details,omitempty"`
	Console  string    `json:"console,omitempty"` // the guest's serial console, when the run failed
	Error    string    `json:"error,omitempty"`
}

// RunGuest runs guest scenario sc on opts.Kernel.
func RunGuest(ctx context.Context, sc *Scenario, opts GuestOptions) (*GuestReport, error) {
	if sc.Guest == nil {
		return nil, fmt.Errorf("lab: %s is not a guest scenario (it runs on this host's kernel; --kernel does not apply)", sc.Name)
	}
	if opts.Kernel == "" {
		return nil, fmt.Errorf("lab: %s runs in a QEMU guest: name its kernel with --kernel (%s)", sc.Name, strings.Join(guestKernels(sc), ", "))
	}
	if !slices.Contains(guestKernels(sc), opts.Kernel) {
		return nil, fmt.Errorf("lab: %s does not run on kernel %q (it runs on %s)", sc.Name, opts.Kernel, strings.Join(guestKernels(sc), ", "))
	}
	if opts.Progress == nil {
		opts.Progress = func(string) {}
	}
	if opts.Timeout <= 0 {
		opts.Timeout = sc.Guest.Timeout
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	return sc.Guest.Run(ctx, opts)
}

func guestKernels(sc *Scenario) []string {
	if len(sc.Guest.Kernels) > 0 {
		return sc.Guest.Kernels
	}
	var out []string
	for _, k := range vm.Kernels() {
		out = append(out, k.Name)
	}
	return out
}

// WriteGuestReport prints a guest scenario's report as text: the verdict, the summary lines
// and, for readers, every comparison.
func WriteGuestReport(w io.Writer, r *GuestReport) error {
	verdict := "FAILED"
	if r.OK {
		verdict = "ok"
	}
	fmt.Fprintf(w, "%s on %s (%s %s, %s): %s; boot %.1f s, run %.1f s under %s\n", r.Scenario, r.Kernel.Name, r.Kernel.Package, r.Kernel.Version, r.Kernel.Release, verdict, r.BootSec, r.RunSec, r.Accel)
	for _, s := range r.Summary {
		fmt.Fprintf(w, "  %s\n", s)
	}
	if d, ok := r.Details.(*ReadersDetails); ok {
		for _, c := range d.Comparisons {
			mark := "ok"
			if !c.OK {
				mark = "MISMATCH"
			}
			fmt.Fprintf(w, "  %-8s %-8s %-52s reported %-22s guest %s\n", mark, c.Reader, c.Figure, c.Reported, c.Guest)
		}
		for _, f := range d.Findings {
			fmt.Fprintf(w, "  finding %s (%s): %s\n", f.ID, f.Severity, f.Title)
		}
	}
	if r.Error != "" {
		fmt.Fprintf(w, "  error: %s\n", r.Error)
	}
	_, err := fmt.Fprint(w)
	return err
}
