package kernel

import (
	"bytes"
	"fmt"
	"io"
)

// Interrupts is /proc/interrupts: the CPU header and one line per source. Name is the first
// column without the colon ("0", "NMI", "LOC", "RES", "CAL", "TLB", "IPI0", "Err"). On x86,
// TLB counts TLB shootdown IPIs received, CAL function-call IPIs, RES rescheduling IPIs
// (arch/x86/kernel/irq.c arch_show_interrupts). On arm64 the IPIs are "IPI0".."IPI6" named
// by Desc (arch/arm64/kernel/smp.c ipi_types: "Rescheduling interrupts", "Function call
// interrupts", ...); 32-bit ARM likewise (arch/arm/kernel/smp.c). Sources that print a
// single total (x86 ERR and MIS, ARM Err) have one value in PerCPU and Total set.
type Interrupts struct {
	CPUs  []string    `json:"cpus"`
	Lines []Interrupt `json:"lines"`
}

// Interrupt is one line of /proc/interrupts.
type Interrupt struct {
	Name   string  `json:"name"`
	PerCPU []int64 `json:"per_cpu"`
	Total  int64   `json:"total"`
	Desc   string  `json:"desc,omitempty"`
}

// Each line is "NAME:" then one "%10u" count per online CPU of the header, then a
// description: chip name, hardware IRQ, trigger and action names for device IRQs
// (kernel/irq/proc.c show_interrupts), a phrase for the per-arch lines. The description can
// itself start with a number (ARM "GICv2  29 Level ..." follows the counts, never precedes
// them), so at most one count per header CPU is read. Text without the CPU header (a pasted
// excerpt) is read with every leading integer taken as a count.

// ReadInterrupts reads /proc/interrupts under root.
func ReadInterrupts(root Root) (Interrupts, error) {
	return parseFile(root, "proc/interrupts", ParseInterrupts)
}

// ParseInterrupts parses /proc/interrupts text.
func ParseInterrupts(r io.Reader) (Interrupts, error) {
	data, err := txtReadAll(r)
	if err != nil {
		return Interrupts{}, err
	}
	var in Interrupts
	if err := ParseInterruptsInto(&in, data); err != nil {
		return Interrupts{}, err
	}
	return in, nil
}

// ParseInterruptsInto parses /proc/interrupts text into dst, reusing its storage (see
// ParseMemInfoInto).
func ParseInterruptsInto(dst *Interrupts, data []byte) error {
	cpus := dst.CPUs[:0]
	out := dst.Lines[:0]
	defer func() {
		if len(cpus) == 0 {
			cpus = nil // no header: absent, as in a fresh parse
		}
		dst.CPUs, dst.Lines = cpus, out
	}()
	lines := txtLines{data: data}
	first := true
	for {
		line, ok := lines.next()
		if !ok {
			break
		}
		if txtBlank(line) {
			continue
		}
		if first {
			first = false
			if interruptsHeader(line) {
				rest := line
				for {
					var tok []byte
					tok, rest = txtField(rest)
					if len(tok) == 0 {
						break
					}
					cpus = txtGrow(cpus)
					cpus[len(cpus)-1] = txtString(cpus[len(cpus)-1], tok)
				}
				continue
			}
		}
		colon := bytes.IndexByte(line, ':')
		if colon < 0 {
			return lines.errorf("want \"NAME: counts\", got %q", txtTrim(line))
		}
		name := txtTrim(line[:colon])
		if len(name) == 0 || bytes.ContainsAny(name, " \t") {
			return lines.errorf("bad source name %q", name)
		}
		out = txtGrow(out)
		l := &out[len(out)-1]
		l.Name = txtString(l.Name, name)
		l.PerCPU = l.PerCPU[:0]
		l.Total = 0
		rest := line[colon+1:]
		for len(cpus) == 0 || len(l.PerCPU) < len(cpus) {
			tok, r := txtField(rest)
			v, ok := txtInt(tok)
			if !ok || v < 0 {
				break
			}
			rest = r
			l.PerCPU = append(l.PerCPU, v)
			l.Total += v
		}
		if len(l.PerCPU) == 0 {
			return lines.errorf("%s: no counts", name)
		}
		l.Desc = txtString(l.Desc, txtTrim(rest))
	}
	if len(out) == 0 {
		return fmt.Errorf("interrupts: no lines")
	}
	return nil
}

// interruptsHeader reports whether line is the "CPU0 CPU1 ..." header.
func interruptsHeader(line []byte) bool {
	tok, rest := txtField(line)
	if len(tok) == 0 {
		return false
	}
	for len(tok) > 0 {
		n, ok := bytes.CutPrefix(tok, []byte("CPU"))
		if !ok {
			return false
		}
		if v, ok := txtInt(n); !ok || v < 0 || n[0] == '+' {
			return false
		}
		tok, rest = txtField(rest)
	}
	return true
}
