// Package nodecheck answers one question about the host's present state at a time, in the
// form node-problem-detector's custom plugin monitor reads (`headroom check NAME`): an exit
// status (0 ok, 1 problem, 2 unknown) and one short line. NPD runs the plugin every
// invoke_interval and sets a node condition while it reports a problem and clears it at the
// first run that reports ok, so every check here describes a state that holds now (or
// within a stated window), never something that happened once since boot.
//
// The checks read the kernel files directly, not a Timeline: a plugin run is a fresh
// process with a few seconds of budget (NPD's default timeout is 5 s), and each check needs
// one or two files, not a sample of the whole host.
package nodecheck

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"headroom/internal/ctxsleep"
	"headroom/kernel"
)

// Status is a check's verdict, numbered as NPD's custom plugin protocol reads a plugin's
// exit code (NPD pkg/custompluginmonitor/types: OK 0, NonOK 1, Unknown 2; any other exit
// code is read as unknown too).
type Status int

const (
	OK      Status = 0
	Problem Status = 1
	Unknown Status = 2
)

func (s Status) String() string {
	switch s {
	case OK:
		return "ok"
	case Problem:
		return "problem"
	}
	return "unknown"
}

// MaxMessage is NPD's default max_output_length: it trims the plugin's stdout and cuts it
// at that many bytes, so a longer message loses its end in the node condition.
const MaxMessage = 80

// Result is what one run of a check reports.
type Result struct {
	Status  Status
	Message string
}

// Line is the message as the plugin prints it: one line of at most MaxMessage bytes, cut
// on a rune boundary (NPD cuts bytes, which can split a UTF-8 sequence).
func (r Result) Line() string {
	s := strings.Join(strings.Fields(r.Message), " ")
	if len(s) <= MaxMessage {
		return s
	}
	cut := MaxMessage
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut]
}

// Env is what a check may read, and the clocks it may use; tests replace the clocks.
type Env struct {
	Root kernel.Root
	// Sleep waits d or until ctx ends (softnet-dropping's second reading).
	Sleep func(ctx context.Context, d time.Duration) error
	// SinceBoot is the time since boot on the clock the kernel log stamps its records with
	// (printk's local_clock, which like CLOCK_MONOTONIC does not count suspend).
	SinceBoot func() (time.Duration, error)
}

// Options are the flags of the checks that take any.
type Options struct {
	// Interval between softnet-dropping's two readings of /proc/net/softnet_stat.
	Interval time.Duration
	// Matches and Within: a kernel-log check reports a problem when at least Matches
	// records of its message were logged within the last Within.
	Matches int
	Within  time.Duration
}

// DefaultOptions are the values the CLI starts from.
var DefaultOptions = Options{Interval: 2 * time.Second, Matches: 3, Within: 10 * time.Minute}

// Check is one `headroom check NAME` mode and the NPD condition it feeds.
type Check struct {
	Name string
	// Condition is the NPD node condition type the check sets (CamelCase, as node
	// conditions are named); OKReason and OKMessage are the condition's default (cleared)
	// state.
	Condition string
	OKReason  string
	OKMessage string
	// Reason is the reason NPD reports while the problem lasts: the id of the rule serve
	// exports as headroom_finding{id=...} for the same state, so an NPD condition and a
	// Prometheus alert join on one name (alloc-fail stands for the alloc-fail-* rules,
	// which tell the failures' causes apart and need the report's zone dump to do so).
	Reason string
	// Summary is one line for `headroom check` without arguments.
	Summary string
	run     func(ctx context.Context, env Env, o Options) Result
}

// Checks lists every mode, in the order of the usage text.
func Checks() []Check {
	cs := []Check{
		{Name: "tcp-memory-pressure", Condition: "TCPMemoryPressure", Reason: "tcp-memory-pressure",
			OKReason: "TCPMemoryNormal", OKMessage: "TCP memory below tcp_mem pressure",
			Summary: "TCP in memory pressure now (/proc/net/protocols, else sockstat vs tcp_mem)",
			run:     checkTCPPressure},
		{Name: "reserve-near-min", Condition: "MemoryReserveNearMin", Reason: "zone-reserve-low",
			OKReason: "MemoryReserveAboveMin", OKMessage: "free memory above the zones' min watermarks",
			Summary: "a zone's free pages in the lower half of its min..low band, or below min (/proc/zoneinfo)",
			run:     checkReserve},
		{Name: "softnet-dropping", Condition: "SoftnetDropping", Reason: "softnet-backlog-drops",
			OKReason: "SoftnetNotDropping", OKMessage: "no packets dropped at the per-CPU input backlog",
			Summary: "packets dropped at the per-CPU backlog between two readings --interval apart",
			run:     checkSoftnet},
	}
	for _, m := range LogMessages() {
		cs = append(cs, Check{Name: m.Name, Condition: m.Condition, Reason: m.Reason,
			OKReason: m.OKReason, OKMessage: m.OKMessage,
			Summary: fmt.Sprintf("at least --matches %q records within --within (/dev/kmsg)", m.Texts[0]),
			run: func(ctx context.Context, env Env, o Options) Result {
				return checkLog(env, o, m)
			}})
	}
	return cs
}

// Lookup returns the check named name.
func Lookup(name string) (Check, bool) {
	for _, c := range Checks() {
		if c.Name == name {
			return c, true
		}
	}
	return Check{}, false
}

// Run runs the check. A check that cannot read what it needs says unknown, with why.
func (c Check) Run(ctx context.Context, env Env, o Options) Result {
	if env.Sleep == nil {
		env.Sleep = ctxsleep.Sleep
	}
	if env.SinceBoot == nil {
		env.SinceBoot = monotonic
	}
	return c.run(ctx, env, o)
}

// unknown turns a read error into the unknown verdict, naming the file and, for the usual
// causes, what to do in a pod.
func unknown(err error) Result {
	msg := err.Error()
	switch {
	case errors.Is(err, kernel.ErrPermission):
		msg = "cannot read /dev/kmsg: needs CAP_SYSLOG (dmesg_restrict=1)"
	case errors.Is(err, kernel.ErrNotSupported):
		msg = "not available: " + msg
	}
	return Result{Status: Unknown, Message: msg}
}

// ErrNoCheck is Command's answer to a name that is no check (or none): the caller lists
// Checks.
var ErrNoCheck = errors.New("no such check")

// Command runs `headroom check NAME`: the check on root (a directory read once, as a
// capture; "/" is this host) or on hostRoot (the host's / mounted in a container), its line
// written to stdout; the Status is the plugin's exit code. A usage error (ErrNoCheck, a bad
// option) writes nothing.
func Command(ctx context.Context, name, root, hostRoot string, o Options, stdout io.Writer) (Status, error) {
	c, ok := Lookup(name)
	if !ok {
		return Unknown, ErrNoCheck
	}
	if o.Interval <= 0 {
		return Unknown, errors.New("--interval must be above 0")
	}
	kr := kernel.DirRoot(root)
	if hostRoot != "" {
		if root != "/" {
			return Unknown, errors.New("give --root or --host-root, not both")
		}
		kr = kernel.MountedHostRoot(hostRoot)
	}
	r := c.Run(ctx, Env{Root: kr}, o)
	fmt.Fprintln(stdout, r.Line())
	return r.Status, nil
}
