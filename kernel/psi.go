package kernel

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"
)

// PSILine is one line of /proc/pressure/{cpu,memory,io} (4.20+, CONFIG_PSI; can be disabled
// at boot with psi=0, in which case the files are absent or reads fail with EOPNOTSUPP).
type PSILine struct {
	Avg10     float64 `json:"avg10"`
	Avg60     float64 `json:"avg60"`
	Avg300    float64 `json:"avg300"`
	TotalUsec int64   `json:"total_usec"`
}

// Pressure is one /proc/pressure file. Full is nil for cpu before 5.13 (no "full" line).
// Some is nil for irq (6.1+, CONFIG_IRQ_TIME_ACCOUNTING), which prints only "full". The
// system-wide cpu "full" line of 5.13+ is always zero: it is defined for cgroups only
// (kernel/sched/psi.c psi_show).
type Pressure struct {
	Resource string   `json:"resource"`
	Some     *PSILine `json:"some,omitempty"`
	Full     *PSILine `json:"full,omitempty"`
}

// PSIResources are the /proc/pressure files ReadAllPSI tries, in order.
var PSIResources = []string{"cpu", "memory", "io", "irq"}

// ReadPSI reads /proc/pressure/<resource> under root. A kernel without PSI, booted with
// psi=0 (no /proc/pressure) or refusing the read with EOPNOTSUPP gives an error wrapping
// ErrNotSupported.
func ReadPSI(root Root, resource string) (Pressure, error) {
	if resource == "" || strings.ContainsAny(resource, "/.") {
		return Pressure{}, fmt.Errorf("psi: bad resource name %q", resource)
	}
	name := "proc/pressure/" + resource
	f, err := root.Open(name)
	if err != nil {
		return Pressure{}, psiError(err)
	}
	defer f.Close()
	p, err := ParsePSI(resource, f)
	if err != nil {
		return Pressure{}, psiError(fmt.Errorf("/%s: %w", name, err))
	}
	return p, nil
}

// psiError turns EOPNOTSUPP (psi disabled, or irq pressure without irq time accounting)
// into ErrNotSupported, keeping the original error in the chain.
func psiError(err error) error {
	if errors.Is(err, syscall.EOPNOTSUPP) && !errors.Is(err, ErrNotSupported) {
		return fmt.Errorf("%w: %w", ErrNotSupported, err)
	}
	return err
}

// ReadAllPSI reads every /proc/pressure file this kernel has (PSIResources), skipping the
// ones it does not. It returns ErrNotSupported when there is none.
func ReadAllPSI(root Root) ([]Pressure, error) {
	var out []Pressure
	for _, res := range PSIResources {
		p, err := ReadPSI(root, res)
		if errors.Is(err, ErrNotSupported) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("/proc/pressure: %w", ErrNotSupported)
	}
	return out, nil
}

// ParsePSI parses the text of one pressure file; resource names it ("memory"). The same
// format is used by cgroup v2 cpu.pressure, memory.pressure and io.pressure.
func ParsePSI(resource string, r io.Reader) (Pressure, error) {
	return parseText(r, func(dst *Pressure, data []byte) error { return ParsePSIInto(dst, resource, data) })
}

// ParsePSIInto parses the text of one pressure file into dst, reusing its Some and Full
// (see ParseMemInfoInto).
func ParsePSIInto(dst *Pressure, resource string, data []byte) error {
	dst.Resource = resource
	if psiSameLayout(dst, data) {
		return nil
	}
	some, full := dst.Some, dst.Full
	var seenSome, seenFull bool
	lines := txtLines{data: data}
	for {
		line, ok := lines.nextNonBlank()
		if !ok {
			break
		}
		kind, rest := txtField(line)
		var l *PSILine
		switch {
		case bytes.Equal(kind, []byte("some")) && !seenSome:
			seenSome = true
			if some == nil {
				some = new(PSILine)
			}
			l = some
		case bytes.Equal(kind, []byte("full")) && !seenFull:
			seenFull = true
			if full == nil {
				full = new(PSILine)
			}
			l = full
		default:
			return lines.errorf("want one \"some\" and one \"full\" line, got %q", kind)
		}
		if err := psiLine(l, rest); err != nil {
			return &LineError{Line: lines.num, Err: fmt.Errorf("%s: %w", kind, err)}
		}
	}
	if !seenSome {
		some = nil
	}
	if !seenFull {
		full = nil
	}
	dst.Some, dst.Full = some, full
	if some == nil && full == nil {
		return fmt.Errorf("pressure %s: no \"some\" or \"full\" line", resource)
	}
	return nil
}

// psiLine parses "avg10=0.50 avg60=0.85 avg300=0.68 total=3884781".
func psiLine(l *PSILine, rest []byte) error {
	var seen [4]bool
	for {
		tok, r := txtField(rest)
		rest = r
		if len(tok) == 0 {
			break
		}
		key, val, ok := bytes.Cut(tok, []byte("="))
		if !ok {
			return excerptf("want key=value, got %q", tok)
		}
		var i int
		switch string(key) {
		case "avg10":
			i = 0
		case "avg60":
			i = 1
		case "avg300":
			i = 2
		case "total":
			i = 3
		default:
			return excerptf("unknown key %q", key)
		}
		if seen[i] {
			return fmt.Errorf("%s given twice", key)
		}
		seen[i] = true
		if i == 3 {
			v, ok := txtInt(val)
			if !ok || v < 0 {
				return excerptf("total: %q is not a count of microseconds", val)
			}
			l.TotalUsec = v
			continue
		}
		f, ok := txtFloat(val)
		if !ok || f < 0 {
			return excerptf("%s: %q is not a percentage", key, val)
		}
		switch i {
		case 0:
			l.Avg10 = f
		case 1:
			l.Avg60 = f
		case 2:
			l.Avg300 = f
		}
	}
	for i, ok := range seen {
		if !ok {
			return fmt.Errorf("missing %s", [...]string{"avg10", "avg60", "avg300", "total"}[i])
		}
	}
	return nil
}

// psiSameLayout is the fast path of ParsePSIInto (see txtIntAt): the lines dst has, "some"
// then "full", each "avg10=A avg60=B avg300=C total=T" in the kernel's order and spacing
// (kernel/sched/psi.c psi_show).
func psiSameLayout(dst *Pressure, data []byte) bool {
	if dst.Some == nil && dst.Full == nil {
		return false
	}
	p := 0
	for _, l := range [2]struct {
		kind string
		line *PSILine
	}{{"some avg10=", dst.Some}, {"full avg10=", dst.Full}} {
		if l.line == nil {
			continue
		}
		if !txtAt(data, p, l.kind) {
			return false
		}
		q := p + len(l.kind)
		var avg [3]float64
		for i, next := range [3]string{" avg60=", " avg300=", " total="} {
			e := q
			for e < len(data) && (data[e] == '.' || data[e]-'0' <= 9) {
				e++
			}
			f, ok := txtFloat(data[q:e]) // digits and '.': never negative
			if !ok || !txtAt(data, e, next) {
				return false
			}
			avg[i], q = f, e+len(next)
		}
		if txtAt(data, q, "-") {
			return false
		}
		total, e, ok := txtIntAt(data, q)
		if !ok {
			return false
		}
		if p, ok = txtEOL(data, e); !ok {
			return false
		}
		*l.line = PSILine{Avg10: avg[0], Avg60: avg[1], Avg300: avg[2], TotalUsec: total}
	}
	return p == len(data)
}
