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
	return parseText(r, ParseInterruptsInto)
}

// ParseInterruptsInto parses /proc/interrupts text into dst, reusing its storage (see
// ParseMemInfoInto).
func ParseInterruptsInto(dst *Interrupts, data []byte) error {
	if k := interruptsSameLayout(dst, data); k > 0 {
		dst.Lines = dst.Lines[:k]
		return nil
	}
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
		line, ok := lines.nextNonBlank()
		if !ok {
			break
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

// interruptsSameLayout is the fast path of ParseInterruptsInto (see txtIntAt): the CPU
// header of dst, then the lines of dst in order (up to the capacity of dst.Lines, as in
// netStatSameLayout), each with the same name, as many counts as before and the same
// description. It returns the number of lines the text filled, 0 when it does not fit.
// The per-CPU columns are read once each, so the cost stays linear in CPUs × sources.
func interruptsSameLayout(in *Interrupts, data []byte) int {
	cpus := in.CPUs
	if len(cpus) == 0 {
		return 0 // no header: every leading integer is a count; the general parser decides
	}
	// "CPU%d" per online CPU, as the general parser's interruptsHeader accepts them.
	p := 0
	for _, c := range cpus {
		q := txtSkip(data, p, ' ')
		e := q + len(c)
		if len(c) <= 3 || len(c) > 3+18 || !txtAt(data, q, c) || c[:3] != "CPU" ||
			!txtFieldEnds(data, e) {
			return 0
		}
		for i := 3; i < len(c); i++ {
			if c[i] < '0' || c[i] > '9' {
				return 0
			}
		}
		p = e
	}
	p, ok := txtEOL(data, txtSkip(data, p, ' '))
	if !ok {
		return 0
	}
	lines := in.Lines[:cap(in.Lines)]
	k := 0
	for ; p < len(data); k++ {
		if k == len(lines) {
			return 0
		}
		l := &lines[k]
		n := len(l.PerCPU)
		if n == 0 || n > len(cpus) {
			return 0
		}
		q, ok := txtNameAt(data, txtSkip(data, p, ' '), l.Name, ':')
		if !ok {
			return 0
		}
		q++
		var total int64
		for i := range l.PerCPU {
			q = txtSkip(data, q, ' ')
			if q < len(data) && data[q] == '-' { // "-0" is a count to the general parser
				return 0
			}
			v, e, ok := int64(0), q+1, false
			if v, ok = txtDigit(data, q); !ok { // a single digit, inlined: most counters of a quiet host are 0
				v, e, ok = txtIntAt(data, q)
			}
			if !ok || !txtFieldEnds(data, e) {
				return 0
			}
			l.PerCPU[i] = v
			total += v
			q = e
		}
		l.Total = total
		// The description runs to the end of the line, blanks around it trimmed. The first
		// newline is found before comparing, so a description that holds one cannot match.
		q = txtSkip(data, q, ' ')
		nl := len(data)
		if i := bytes.IndexByte(data[q:], '\n'); i >= 0 {
			nl = q + i
		}
		end := nl
		for end > q && data[end-1] == ' ' {
			end--
		}
		d := l.Desc
		if string(data[q:end]) != d || (d != "" && (txtSpace(d[0]) || txtSpace(d[len(d)-1]))) {
			return 0
		}
		if n < len(cpus) {
			// The general parser would take a leading integer of the description as one
			// more count.
			if tok, _ := txtField(data[q:end]); len(tok) > 0 {
				if v, ok := txtInt(tok); ok && v >= 0 {
					return 0
				}
			}
		}
		p = min(nl+1, len(data))
	}
	return k
}
