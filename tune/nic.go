package tune

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"headroom/plan"
	"os/exec"
	"strconv"
	"strings"
)

// Runner runs a command and returns its standard output. The real one is ExecRunner; tests
// inject a fake, since rings and qdiscs are NIC state that a unit test must not touch.
type Runner interface {
	Run(ctx context.Context, argv ...string) (string, error)
}

// ExecRunner runs commands on this host, or inside a named network namespace through
// `ip netns exec`, which also mounts the namespace's /sys for ethtool.
type ExecRunner struct {
	Netns string
}

// Run runs argv and returns its stdout; a failure carries the command and its stderr.
func (r ExecRunner) Run(ctx context.Context, argv ...string) (string, error) {
	if r.Netns != "" {
		argv = append([]string{"ip", "netns", "exec", r.Netns}, argv...)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg != "" {
			return stdout.String(), fmt.Errorf("%s: %w: %s", strings.Join(argv, " "), err, msg)
		}
		return stdout.String(), fmt.Errorf("%s: %w", strings.Join(argv, " "), err)
	}
	return stdout.String(), nil
}

// validDev reports whether s can be an interface name (IFNAMSIZ is 16 with the NUL).
func validDev(s string) bool {
	if s == "" || len(s) > 15 || s == "." || s == ".." {
		return false
	}
	return !strings.ContainsAny(s, "/ \t\n\x00:")
}

// ethtool ring parameters, as `ethtool -G` names them and `ethtool -g` prints them.
var ringParams = map[string]string{"rx": "RX", "rx-mini": "RX Mini", "rx-jumbo": "RX Jumbo", "tx": "TX"}

// ParseEthtoolKey splits an ethtool change key "eth0 rx" into device and ring parameter.
func ParseEthtoolKey(key string) (dev, param string, err error) {
	f := strings.Fields(key)
	if len(f) != 2 || !validDev(f[0]) {
		return "", "", fmt.Errorf("ethtool key %q: want \"DEVICE rx|tx|rx-mini|rx-jumbo\"", key)
	}
	if _, ok := ringParams[f[1]]; !ok {
		return "", "", fmt.Errorf("ethtool key %q: ring parameter %q is not rx, tx, rx-mini or rx-jumbo", key, f[1])
	}
	return f[0], f[1], nil
}

// Rings is what `ethtool -g` reports: the driver's pre-set maximums and the current sizes,
// by ethtool -G parameter name; a value the driver does not report ("n/a") is absent.
type Rings struct {
	Max, Current map[string]int
}

// ParseEthtoolRings parses the output of `ethtool -g DEV` (ethtool 4.x to 6.x print the
// same two sections, "Pre-set maximums:" and "Current hardware settings:"; newer versions
// add lines such as "RX Buf Len:" that are ignored here).
func ParseEthtoolRings(out string) (Rings, error) {
	r := Rings{Max: map[string]int{}, Current: map[string]int{}}
	var cur map[string]int
	names := map[string]string{}
	for p, label := range ringParams {
		names[label] = p
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	seen := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "Pre-set maximums"):
			cur, seen = r.Max, true
			continue
		case strings.HasPrefix(line, "Current hardware settings"):
			cur, seen = r.Current, true
			continue
		}
		label, val, ok := strings.Cut(line, ":")
		if !ok || cur == nil {
			continue
		}
		p, known := names[strings.TrimSpace(label)]
		if !known {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(val))
		if err != nil {
			continue // "n/a"
		}
		cur[p] = n
	}
	if !seen {
		return r, fmt.Errorf("ethtool -g: no \"Current hardware settings\" section in %q", clip(out, 80))
	}
	return r, nil
}

type ethtoolTarget struct {
	runner     Runner
	dev, param string
}

func (t ethtoolTarget) rings(ctx context.Context) (Rings, error) {
	out, err := t.runner.Run(ctx, "ethtool", "-g", t.dev)
	if err != nil {
		return Rings{}, err
	}
	return ParseEthtoolRings(out)
}

func (t ethtoolTarget) read(ctx context.Context) (string, error) {
	r, err := t.rings(ctx)
	if err != nil {
		return "", err
	}
	v, ok := r.Current[t.param]
	if !ok {
		return "", fmt.Errorf("ethtool -g %s: the driver reports no %s ring size", t.dev, t.param)
	}
	return strconv.Itoa(v), nil
}

// check bounds a ring size by the driver's own pre-set maximum.
func (t ethtoolTarget) check(ctx context.Context, value string) error {
	n, err := strconv.Atoi(strings.TrimSpace(value))
	if err != nil || n < 1 {
		return &plan.BoundError{Key: t.dev + " " + t.param, Value: value, Problem: "not a positive ring size"}
	}
	r, err := t.rings(ctx)
	if err != nil {
		return err
	}
	max, ok := r.Max[t.param]
	if !ok {
		return fmt.Errorf("ethtool -g %s: the driver reports no %s maximum", t.dev, t.param)
	}
	if n > max {
		return &plan.BoundError{Key: t.dev + " " + t.param, Value: value,
			Problem: fmt.Sprintf("above the driver's pre-set maximum %d", max), Bound: "ethtool -g " + t.dev}
	}
	return nil
}

func (t ethtoolTarget) set(ctx context.Context, value string) error {
	_, err := t.runner.Run(ctx, "ethtool", "-G", t.dev, t.param, strings.TrimSpace(value))
	return err
}

func (t ethtoolTarget) apply(ctx context.Context, value string) error { return t.set(ctx, value) }
func (t ethtoolTarget) restore(ctx context.Context, old string) error { return t.set(ctx, old) }
func (t ethtoolTarget) isNew(cur, new string) bool                    { return SameValue(cur, new) }
func (t ethtoolTarget) isOld(cur, old string) bool                    { return SameValue(cur, old) }

// tc changes set a root rate limit. The key is "DEV root KIND" (KIND tbf or htb); the
// recommended value is the qdisc's parameters, e.g. "rate 200mbit burst 256kb latency 50ms"
// for tbf, or "rate 200mbit ceil 200mbit" for htb, which becomes a root htb qdisc whose
// default class 1:1 carries the rate (seed 004's HTB limit).
type tcTarget struct {
	runner    Runner
	dev, kind string
}

// ParseTCKey splits a tc change key.
func ParseTCKey(key string) (dev, kind string, err error) {
	f := strings.Fields(key)
	if len(f) != 3 || !validDev(f[0]) || f[1] != "root" || (f[2] != "tbf" && f[2] != "htb") {
		return "", "", fmt.Errorf("tc key %q: want \"DEVICE root tbf|htb\"", key)
	}
	return f[0], f[2], nil
}

// read returns the root qdisc as `tc qdisc show dev DEV root` prints it, without the
// reference count (which changes as the kernel holds the qdisc): "qdisc noqueue 0: root".
func (t tcTarget) read(ctx context.Context) (string, error) {
	out, err := t.runner.Run(ctx, "tc", "qdisc", "show", "dev", t.dev, "root")
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(strings.TrimSpace(out), "\n")
	f := strings.Fields(line)
	var keep []string
	for i := 0; i < len(f); i++ {
		if f[i] == "refcnt" && i+1 < len(f) {
			i++
			continue
		}
		keep = append(keep, f[i])
	}
	if len(keep) < 3 || keep[0] != "qdisc" {
		return "", fmt.Errorf("tc qdisc show dev %s root: unexpected output %q", t.dev, clip(out, 80))
	}
	return strings.Join(keep, " "), nil
}

// isDefaultQdisc: the qdisc the kernel attaches by itself has handle 0: (noqueue on
// virtual devices, the default_qdisc or mq on hardware); deleting any root qdisc brings it
// back (qdisc_graft in net/sched/sch_api.c), which is how rollback restores it.
func isDefaultQdisc(shown string) bool {
	f := strings.Fields(shown)
	return len(f) >= 3 && f[2] == "0:"
}

func (t tcTarget) check(ctx context.Context, value string) error {
	if err := checkTCParams(value); err != nil {
		return &plan.BoundError{Key: t.dev + " root " + t.kind, Value: value, Problem: err.Error()}
	}
	cur, err := t.read(ctx)
	if err != nil {
		return err
	}
	if !isDefaultQdisc(cur) {
		return &plan.BoundError{Key: t.dev + " root " + t.kind, Value: value,
			Problem: fmt.Sprintf("the root qdisc is %q, not the kernel's default; headroom can only restore a default root qdisc, so it leaves this one alone", cur)}
	}
	return nil
}

// checkTCParams accepts "name value" pairs of plain tokens and requires a rate.
func checkTCParams(value string) error {
	f := strings.Fields(value)
	if len(f) == 0 || len(f)%2 != 0 {
		return fmt.Errorf("want \"rate R [name value]...\"")
	}
	hasRate := false
	for i, s := range f {
		for _, r := range s {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' || r == ':') {
				return fmt.Errorf("%q is not a plain tc token", s)
			}
		}
		if i%2 == 0 && s == "rate" {
			hasRate = true
		}
	}
	if !hasRate {
		return fmt.Errorf("no rate")
	}
	return nil
}

// commands are the tc invocations that install the limit.
func (t tcTarget) commands(value string) [][]string {
	params := strings.Fields(value)
	if t.kind == "htb" {
		return [][]string{
			{"tc", "qdisc", "replace", "dev", t.dev, "root", "handle", "1:", "htb", "default", "1"},
			append([]string{"tc", "class", "replace", "dev", t.dev, "parent", "1:", "classid", "1:1", "htb"}, params...),
		}
	}
	return [][]string{append([]string{"tc", "qdisc", "replace", "dev", t.dev, "root", "tbf"}, params...)}
}

func (t tcTarget) apply(ctx context.Context, value string) error {
	for _, c := range t.commands(value) {
		if _, err := t.runner.Run(ctx, c...); err != nil {
			return err
		}
	}
	return nil
}

func (t tcTarget) restore(ctx context.Context, old string) error {
	if !isDefaultQdisc(old) {
		return fmt.Errorf("tc %s: the old root qdisc %q was not the default; restore it by hand", t.dev, old)
	}
	_, err := t.runner.Run(ctx, "tc", "qdisc", "del", "dev", t.dev, "root")
	return err
}

func (t tcTarget) isNew(cur, _ string) bool {
	f := strings.Fields(cur)
	return len(f) >= 3 && f[1] == t.kind && !isDefaultQdisc(cur)
}

func (t tcTarget) isOld(cur, old string) bool { return SameValue(cur, old) }
