package kernel

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
)

// CPUTimes is one "cpu"/"cpuN" line of /proc/stat in USER_HZ ticks, columns in kernel order:
// user nice system idle iowait(2.5.41) irq softirq(2.6.0) steal(2.6.11) guest(2.6.24)
// guest_nice(2.6.33). Fields holds as many as were printed.
type CPUTimes struct {
	CPU    string  `json:"cpu"` // "cpu" for the total, "cpu0"...
	Fields []int64 `json:"fields"`
}

// Stat is /proc/stat. Scalars holds ctxt, btime, processes, procs_running, procs_blocked,
// and intr (the total, first number of the intr line); SoftIRQ holds the softirq line by
// name (total, HI, TIMER, NET_TX, NET_RX, BLOCK, IRQ_POLL, TASKLET, SCHED, HRTIMER, RCU; the
// line exists since 2.6.31).
//
// The per-IRQ numbers of the intr line are not kept (there can be thousands; /proc/interrupts
// has them per CPU and named). On 2.4, whose /proc/stat also has "page in out" and "swap in
// out", those become Scalars pgpgin, pgpgout, pswpin and pswpout (the kstat fields they
// print, fs/proc/proc_misc.c kstat_read_proc); its disk lines (disk, disk_rio, disk_wio,
// disk_rblk, disk_wblk, disk_io:) are about block devices and are skipped. Any other line
// must be "name integer" and goes to Scalars under its own name. SoftIRQ is empty when the
// file has no softirq line (before 2.6.31).
type Stat struct {
	Total   CPUTimes   `json:"total"`
	PerCPU  []CPUTimes `json:"per_cpu"`
	Scalars Counters   `json:"scalars"`
	SoftIRQ Counters   `json:"softirq"`
}

// statSoftIRQNames name the softirq line's columns after the total, by how many there are
// (kernel/softirq.c softirq_to_name): 2.6.31 had 9 softirqs; 2.6.32 added BLOCK_IOPOLL after
// BLOCK, renamed IRQ_POLL in 4.5 (the slot is named IRQ_POLL here for every version).
var statSoftIRQNames = [...][]string{
	{"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "TASKLET", "SCHED", "HRTIMER", "RCU"},
	{"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU"},
}

// ReadStat reads /proc/stat under root.
func ReadStat(root Root) (Stat, error) {
	return parseFile(root, "proc/stat", ParseStat)
}

// ParseStat parses /proc/stat text.
func ParseStat(r io.Reader) (Stat, error) {
	return parseText(r, ParseStatInto)
}

// ParseStatInto parses /proc/stat text into dst, reusing its storage (see ParseMemInfoInto).
func ParseStatInto(dst *Stat, data []byte) error {
	if statSameLayout(dst, data) {
		return nil
	}
	perCPU := dst.PerCPU[:0]
	defer func() {
		if len(perCPU) == 0 {
			perCPU = nil // absent, as in a fresh parse
		}
		dst.PerCPU = perCPU
	}()
	var scalars, softirq txtCountersFill
	scalars.start(&dst.Scalars)
	softirqSeen, totalSeen := false, false
	lines := txtLines{data: data}
	for {
		line, ok := lines.nextNonBlank()
		if !ok {
			break
		}
		name, rest := txtField(line)
		switch {
		case bytes.HasPrefix(name, []byte("cpu")):
			var ct *CPUTimes
			if len(name) == 3 {
				if totalSeen {
					return lines.errorf("second \"cpu\" line")
				}
				totalSeen = true
				ct = &dst.Total
			} else {
				if _, ok := txtInt(name[3:]); !ok || name[3] == '-' || name[3] == '+' {
					return lines.errorf("bad CPU name %q", name)
				}
				perCPU = txtGrow(perCPU)
				ct = &perCPU[len(perCPU)-1]
			}
			ct.CPU = txtString(ct.CPU, name)
			var bad []byte
			if ct.Fields, bad = txtCounts(ct.Fields[:0], rest); bad != nil {
				return lines.errorf("%s column %d: %q is not a tick count", name, len(ct.Fields)+1, bad)
			}
			if len(ct.Fields) < 4 {
				return lines.errorf("%s: %d columns, want at least 4 (user nice system idle)", name, len(ct.Fields))
			}
		case bytes.Equal(name, []byte("intr")):
			tok, _ := txtField(rest)
			v, ok := txtInt(tok)
			if !ok || v < 0 {
				return lines.errorf("intr: total %q is not a count", tok)
			}
			scalars.setString("intr", v)
		case bytes.Equal(name, []byte("softirq")):
			if softirqSeen {
				return lines.errorf("second softirq line")
			}
			softirqSeen = true
			if err := statSoftIRQ(&softirq, &dst.SoftIRQ, rest); err != nil {
				return &LineError{Line: lines.num, Err: err}
			}
		case bytes.Equal(name, []byte("page")) || bytes.Equal(name, []byte("swap")):
			in, r := txtField(rest)
			out, r := txtField(r)
			vin, ok1 := txtInt(in)
			vout, ok2 := txtInt(out)
			if !ok1 || !ok2 || !txtBlank(r) {
				return lines.errorf("%s: want \"%s in out\", got %q", name, name, txtTrim(line))
			}
			if name[0] == 'p' {
				scalars.setString("pgpgin", vin)
				scalars.setString("pgpgout", vout)
			} else {
				scalars.setString("pswpin", vin)
				scalars.setString("pswpout", vout)
			}
		case bytes.HasPrefix(name, []byte("disk")):
			// 2.4 block device statistics; see Stat.
		default:
			val, r := txtField(rest)
			if len(val) == 0 || !txtBlank(r) {
				return lines.errorf("want \"name value\", got %q", txtTrim(line))
			}
			v, ok := txtInt(val)
			if !ok {
				return lines.errorf("%s: %q is not an integer", name, val)
			}
			scalars.set(name, v)
		}
	}
	scalars.done()
	if !softirqSeen {
		dst.SoftIRQ.Reset()
	}
	if !totalSeen {
		return fmt.Errorf("stat: no \"cpu\" line")
	}
	return nil
}

// statSoftIRQ parses "total HI TIMER ..." of the softirq line.
func statSoftIRQ(fill *txtCountersFill, c *Counters, rest []byte) error {
	var vals [16]int64
	n := 0
	for {
		tok, r := txtField(rest)
		rest = r
		if len(tok) == 0 {
			break
		}
		v, ok := txtInt(tok)
		if !ok || v < 0 {
			return excerptf("softirq column %d: %q is not a count", n+1, tok)
		}
		if n == len(vals) {
			return fmt.Errorf("softirq: more than %d columns", len(vals)-1)
		}
		vals[n] = v
		n++
	}
	var names []string
	for _, ns := range statSoftIRQNames {
		if len(ns) == n-1 {
			names = ns
		}
	}
	if names == nil {
		return fmt.Errorf("softirq: %d counters after the total; known layouts have 9 (2.6.31) or 10 (2.6.32+)", max(n-1, 0))
	}
	fill.start(c)
	fill.setString("total", vals[0])
	for i, name := range names {
		fill.setString(name, vals[i+1])
	}
	fill.done()
	return nil
}

// statSameLayout is the fast path of ParseStatInto (see txtIntAt): the lines are dispatched
// on their first word as the general parser does them, and each must match dst: the same
// CPUs with as many columns as before, the scalars in the same order, the softirq line with
// its columns. The per-IRQ numbers of the intr line are skipped unread, as there.
func statSameLayout(dst *Stat, data []byte) bool {
	if dst.Total.CPU != "cpu" || len(dst.Total.Fields) < 4 || (dst.PerCPU != nil && len(dst.PerCPU) == 0) {
		return false // (the general parser leaves PerCPU nil, not empty, without CPU lines)
	}
	scalars, softirq := &dst.Scalars, &dst.SoftIRQ
	if n := len(softirq.names); n > 0 && !statSoftIRQLayout(softirq.names) {
		return false
	}
	var p, cpus, nScalar int
	var total, seenSoftIRQ bool
	for p < len(data) {
		var ok bool
		switch {
		case txtAt(data, p, "cpu"):
			var ct *CPUTimes
			if txtAt(data, p+3, " ") {
				if total {
					return false
				}
				total, ct = true, &dst.Total
			} else {
				if cpus == len(dst.PerCPU) {
					return false
				}
				ct = &dst.PerCPU[cpus]
				cpus++
				if !statCPUName(ct.CPU) || !txtAt(data, p, ct.CPU) || !txtAt(data, p+len(ct.CPU), " ") {
					return false
				}
			}
			if p, ok = statColumns(ct.Fields, data, p+len(ct.CPU)); !ok || len(ct.Fields) < 4 {
				return false
			}
		case txtAt(data, p, "softirq "):
			if seenSoftIRQ || len(softirq.values) == 0 {
				return false
			}
			seenSoftIRQ = true
			if p, ok = statColumns(softirq.values, data, p+len("softirq")); !ok {
				return false
			}
		default:
			if nScalar == len(scalars.names) {
				return false
			}
			name := scalars.names[nScalar]
			e, ok := txtNameAt(data, p, name, ' ')
			if !ok || strings.HasPrefix(name, "cpu") || strings.HasPrefix(name, "disk") ||
				name == "softirq" || name == "page" || name == "swap" {
				return false
			}
			v, q, ok := txtIntAt(data, txtSkip(data, e, ' '))
			if !ok {
				return false
			}
			if name == "intr" {
				// The total; the per-IRQ numbers after it are not read.
				if v < 0 || (q < len(data) && data[q] != ' ' && data[q] != '\n') {
					return false
				}
				nl := bytes.IndexByte(data[q:], '\n')
				if nl < 0 {
					q = len(data)
				} else {
					q += nl
				}
			}
			if p, ok = txtEOL(data, q); !ok {
				return false
			}
			scalars.values[nScalar] = v
			nScalar++
		}
	}
	return total && cpus == len(dst.PerCPU) && nScalar == len(scalars.names) && seenSoftIRQ == (len(softirq.names) > 0)
}

// statColumns reads exactly len(cols) tick counts at data[q:], each after spaces, then the
// end of the line, and returns the start of the next line.
func statColumns(cols []int64, data []byte, q int) (int, bool) {
	for i := range cols {
		if !txtAt(data, q, " ") {
			return q, false
		}
		q = txtSkip(data, q, ' ')
		if txtAt(data, q, "-") { // "-0" is a count to the general parser
			return q, false
		}
		v, e, ok := int64(0), q+1, false
		if v, ok = txtDigit(data, q); !ok { // a single digit, inlined: most counters of a quiet host are 0
			v, e, ok = txtIntAt(data, q)
		}
		if !ok {
			return q, false
		}
		cols[i], q = v, e
	}
	return txtEOL(data, q)
}

// statCPUName reports whether name is "cpu" and decimal digits, as the general parser
// accepts it.
func statCPUName(name string) bool {
	if len(name) <= 3 || len(name) > 3+18 {
		return false
	}
	for i := 3; i < len(name); i++ {
		if name[i] < '0' || name[i] > '9' {
			return false
		}
	}
	return true
}

// statSoftIRQLayout reports whether names is "total" and one of statSoftIRQNames, as
// statSoftIRQ makes them.
func statSoftIRQLayout(names []string) bool {
	if names[0] != "total" {
		return false
	}
	for _, layout := range statSoftIRQNames {
		if len(layout) == len(names)-1 && slices.Equal(layout, names[1:]) {
			return true
		}
	}
	return false
}
