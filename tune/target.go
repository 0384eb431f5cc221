package tune

import (
	"fmt"
	"math"

	"headroom/kernel"
	"headroom/model"
	"headroom/plan"
	"headroom/units"
)

// A plan's numbers scale with the host it was computed for: tcp_mem is counted in pages and
// budgeted against memory (lowmem on a 32-bit HighMem kernel), min_free_kbytes and the
// watermarks are shares of RAM, the defaults it raises from and the keys it may write follow
// the kernel release (plan/defaults.go, kernel/sysctlsince.go). planMismatch compares that
// shape with this host.

// planMemSlackPercent is how far a plan's memory may be from this host's MemTotal. A person
// gives --memory as the installed RAM ("24GiB", or "24GB" in powers of ten) while MemTotal
// is what is left after the firmware's and the kernel's reservations: this 24 GiB host reads
// MemTotal 24684084 kB (23.5 GiB, 2 % under 24 GiB; 24 GB is 5 % under MemTotal). The plan's
// budgets are shares of memory, so 10 % moves each by at most 10 %.
const planMemSlackPercent = 10

// planMismatch says, one line per fact, how the plan's target differs from this host: memory
// (and lowmem) beyond planMemSlackPercent, the kernel's release series (major.minor: the
// defaults and keys follow mainline releases, not stable updates), the arch family and word
// size, the page size, and the CPUs when the plan knows them. A fact this host's could not be
// read for is a difference too: nothing shows the plan fits.
func planMismatch(t *plan.TargetHost, h model.Host) []string {
	var why []string
	add := func(format string, a ...any) { why = append(why, fmt.Sprintf(format, a...)) }
	// how says where the plan's fact came from, after what in parentheses: "i686 (32-bit,
	// given with --arch)"; a plan of a headroom before target_host does not say.
	how := func(what string, s plan.FactSource, flag string) string {
		var from string
		switch s {
		case plan.FactGiven:
			from = "given with " + flag
		case plan.FactRead:
			from = "read from the host plan ran on"
			if t.ReadFrom != "" {
				from = fmt.Sprintf("read from host %q", t.ReadFrom)
			}
		case plan.FactAssumed:
			from = "plan's default"
		}
		switch {
		case what == "" && from == "":
			return ""
		case what == "":
			return " (" + from + ")"
		case from == "":
			return " (" + what + ")"
		}
		return " (" + what + ", " + from + ")"
	}

	if t.MemoryBytes <= 0 {
		add("the plan does not say the memory it was computed for")
	} else if hb := h.MemTotalKB * 1024; !within(t.MemoryBytes, hb, planMemSlackPercent) {
		add("the plan is for %s of memory%s; this host has %s (MemTotal)", units.FormatBytes(t.MemoryBytes), how("", t.MemoryFrom, "--memory"), units.FormatBytes(hb))
	}
	if t.LowmemBytes > 0 && h.LowTotalKB > 0 && !within(t.LowmemBytes, h.LowTotalKB*1024, planMemSlackPercent) {
		add("the plan is for %s of lowmem%s; this host has %s (LowTotal)", units.FormatBytes(t.LowmemBytes), how("", t.LowmemFrom, "--lowmem"), units.FormatBytes(h.LowTotalKB*1024))
	}

	pv, perr := kernel.ParseKernelVersion(t.Kernel)
	hv, herr := kernel.ParseKernelVersion(h.Kernel)
	switch {
	case perr != nil || !pv.Known:
		add("the plan's kernel %q is not a release tune can compare with this host's %s", t.Kernel, h.Kernel)
	case herr != nil || !hv.Known:
		add("this host's kernel release %q could not be compared with the plan's %s", h.Kernel, t.Kernel)
	case pv.Major != hv.Major || pv.Minor != hv.Minor:
		add("the plan is for kernel %d.%d%s; this host runs %s", pv.Major, pv.Minor, how("", t.KernelFrom, "--kernel"), h.Kernel)
	}

	pbits := t.WordBits
	if pbits == 0 {
		pbits = kernel.ArchWordBits(t.Arch)
	}
	hbits := h.WordBits
	if hbits == 0 {
		hbits = kernel.ArchWordBits(h.Arch)
	}
	pfam, hfam := kernel.ArchFamily(t.Arch), kernel.ArchFamily(h.Arch)
	switch {
	case h.Arch == "" || hbits == 0:
		add("this host's machine type is unknown (%q): the plan's %s cannot be compared with it", h.Arch, t.Arch)
	case pbits != hbits || pfam != hfam || (pfam == "" && t.Arch != h.Arch):
		add("the plan is for %s%s; this host is %s (%d-bit)", t.Arch, how(fmt.Sprintf("%d-bit", pbits), t.ArchFrom, "--arch"), h.Arch, hbits)
	}

	if t.PageSizeBytes > 0 && h.PageSize > 0 && t.PageSizeBytes != h.PageSize {
		add("the plan counts pages of %s%s; this host's pages are %s (tcp_mem and udp_mem are in pages)",
			units.FormatBytes(int64(t.PageSizeBytes)), how("", t.PageSizeFrom, "--page-size"), units.FormatBytes(int64(h.PageSize)))
	}
	if t.CPUs > 0 && h.CPUs > 0 && t.CPUs != h.CPUs {
		add("the plan is for %d CPUs%s; this host has %d", t.CPUs, how("", t.CPUsFrom, ""), h.CPUs)
	}
	return why
}

// within reports whether a is within pct percent of b (b > 0), in floating point so that
// a planted figure cannot overflow the arithmetic.
func within(a, b int64, pct float64) bool {
	return b > 0 && math.Abs(float64(a)-float64(b))*100 <= float64(b)*pct
}
