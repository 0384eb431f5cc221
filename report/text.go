package report

import (
	"fmt"
	"headroom/units"
	"io"
	"strings"
	"time"

	"headroom/diagnose"
	"headroom/kernel"
	"headroom/model"
)

// TextOptions tune the terminal report.
type TextOptions struct {
	Verbose bool // list every rule's status, not only findings and not-checked counts
	Checks  bool // list the rules that could not check, one line each (else one line for all)
}

// WriteText writes the terminal report: the verdict (the story: what failed, why, the first
// change, what to collect next), the host summary, then the findings with their evidence and
// changes, current problems before since-boot history, then the checks in one line (every
// rule that could not check with --checks) and what was not available.
func WriteText(w io.Writer, tl *model.Timeline, d diagnose.Diagnosis, opt TextOptions) error {
	p := &printer{w: w}
	s := Summarize(tl)
	h := tl.Host
	src := tl.Source.Kind
	if tl.Source.Name != "" {
		src += " " + tl.Source.Name
	}
	when := fmt.Sprintf("%d sample", s.Samples)
	if s.Samples != 1 {
		when += "s"
	}
	if s.SpanSeconds > 0 {
		when += fmt.Sprintf(" over %.1f s", s.SpanSeconds)
	}
	p.f("headroom doctor: %s, %s\n\n", src, when)
	if h := tl.Host.OtherOS; h != "" && d.NothingChecked() {
		// A text from another system (issue 29: a FreeBSD netstat -sp tcp): say so, not
		// "nothing is evidence"; its counters and settings are not Linux's, so no rule reads them.
		p.f("Verdict: the text is from %s, not Linux: headroom's %d rules read Linux kernels, so none applies and this is no clean bill of health\n\n", h, len(d.Checks))
	} else if d.NothingChecked() {
		// Every rule lacked its data: "no problem found" would read as healthy. Say what
		// was not read instead (issue 29 item 4: a paste of output headroom cannot read
		// yet runs, and says so).
		p.f("Verdict: nothing could be checked: none of the %d rules had the data it needs, so this is no clean bill of health", len(d.Checks))
		if tl.Lines != nil && tl.Lines.Unparsed > 0 {
			p.f(" (%s output or stated figures headroom could not read, listed below)", linesHold(tl.Lines.Unparsed))
		}
		p.f("\n\n")
	} else if st := storyOf(d); countedNone(d, st) != "" {
		// No finding worth a verdict, but rules lacked their data: "no problem found"
		// would read as healthy (a /proc/slab_allocators paste ran 1 rule of 46).
		p.f("Verdict: %s\n\n", countedNone(d, st))
	} else {
		writeVerdictText(p, st)
	}
	p.f("Kernel   %s\n", orUnknown(hostLine(h)))
	if tl.Source.NetView != "" {
		p.f("Network  read in %s\n", tl.Source.NetView)
	}
	if ns := tl.Netns; ns != nil {
		p.f("Namespace %s:%s\n", ns.Name, netnsLine(ns))
	}
	if s.MemTotalKB != nil {
		p.f("%s\n", "Memory   "+memoryLine(s, h))
	}
	if len(s.Zones) > 0 {
		p.f("\nZones (free memory against watermarks)\n")
		p.f("  %-4s %-8s %12s %12s %12s %12s  %s\n", "node", "zone", "free", "min", "low", "high", "largest free block")
		for _, z := range s.Zones {
			order := "n/a"
			if z.HighestFreeOrder != nil {
				if *z.HighestFreeOrder < 0 {
					order = "none"
				} else {
					order = fmt.Sprintf("order %d (%s)", *z.HighestFreeOrder, kb(int64(h.PageSize/1024)<<*z.HighestFreeOrder))
				}
			}
			p.f("  %-4d %-8s %12s %12s %12s %12s  %s\n", z.Node, z.Zone, kb(z.FreeKB), kb(z.MinKB), kb(z.LowKB), kb(z.HighKB), order)
		}
	}
	if len(s.NICs) > 0 {
		p.f("\nInterfaces\n")
		p.f("  %-16s %-12s %10s %6s  %s\n", "name", "driver", "speed", "mtu", "rx ring")
		for _, n := range s.NICs {
			speed := "n/a"
			if n.SpeedMbps > 0 {
				speed = fmt.Sprintf("%d Mb/s", n.SpeedMbps)
			}
			drv := n.Driver
			if drv == "" && n.Virtual {
				drv = "(virtual)"
			}
			ring := "n/a"
			switch {
			case n.RxRing != nil:
				ring = fmt.Sprintf("%d of %d", *n.RxRing, *n.RxRingMax)
			case n.Ring != "":
				ring = "n/a (" + n.Ring + ")"
			}
			p.f("  %-16s %-12s %10s %6d  %s\n", n.Name, orDash(drv), speed, n.MTU, ring)
		}
	}
	if t := s.TCPMem; t != nil {
		ps := int64(t.PageSize)
		if ps == 0 {
			ps = 4096
		}
		line := "\nTCP memory "
		if t.Pages != nil {
			line += fmt.Sprintf("%d pages (%s)", *t.Pages, units.FormatBytes(*t.Pages*ps))
		} else {
			line += "n/a"
		}
		if len(t.Limits) == 3 {
			line += fmt.Sprintf(" against tcp_mem pressure %d pages (%s), limit %d pages (%s)", t.Limits[1], units.FormatBytes(t.Limits[1]*ps), t.Limits[2], units.FormatBytes(t.Limits[2]*ps))
		}
		p.f("%s\n", line)
	}
	if len(s.Sockets) > 0 {
		var parts []string
		for _, st := range sortedStates(s.Sockets) {
			parts = append(parts, fmt.Sprintf("%s %d", st, s.Sockets[st]))
		}
		line := "Sockets    " + strings.Join(parts, ", ")
		if s.Orphans != nil {
			line += fmt.Sprintf("; orphans %d", *s.Orphans)
		}
		p.f("%s\n", line)
	}
	if len(tl.Cgroups) > 0 {
		p.f("Socket memory by cgroup (largest first; a v1 parent includes its children)\n")
		for i, c := range tl.Cgroups {
			if i == CgroupTop {
				p.f("  ... %d more\n", len(tl.Cgroups)-i)
				break
			}
			line := fmt.Sprintf("  %-10s v%d  %s", units.FormatBytes(c.Bytes), c.Version, c.Path)
			if c.LimitBytes > 0 {
				line += fmt.Sprintf("  (limit %s", units.FormatBytes(c.LimitBytes))
				if c.HasFailcnt {
					line += fmt.Sprintf(", failcnt %d", c.Failcnt)
				}
				line += ")"
			}
			p.f("%s\n", line)
		}
	}
	if len(tl.Artifacts) > 0 {
		kinds := map[string]int{}
		var order []string
		for _, a := range tl.Artifacts {
			if kinds[a.Kind] == 0 {
				order = append(order, a.Kind)
			}
			kinds[a.Kind]++
		}
		var parts []string
		for _, k := range order {
			parts = append(parts, fmt.Sprintf("%s ×%d", k, kinds[k]))
		}
		p.f("\nRead from the text: %s\n", strings.Join(parts, ", "))
	}
	if a := tl.Lines; a != nil {
		p.f("Lines    %d of %d read; %d prose, %d blank, %d other programs' log, %d could not be read\n", a.Read, a.Total, a.Prose, a.Blank, a.Other, a.Unparsed)
	}
	unread := tl.Unparsed
	if len(tl.ReadInPart) > 0 {
		unread = tl.UnparsedLeft
	}
	for _, u := range unread {
		p.f("  could not read lines %d-%d: %s\n", u.FirstLine, u.LastLine, u.Why)
	}
	for _, u := range tl.ReadInPart {
		p.f("  remark on lines %d-%d (read): %s\n", u.FirstLine, u.LastLine, u.Why)
	}

	p.f("\nFindings\n")
	if len(d.Findings) == 0 {
		p.f("  none\n")
	}
	for _, f := range currentFirst(d.Findings) {
		p.f("  %-8s %s: %s\n", strings.ToUpper(f.Severity.String()), f.ID, f.Title)
		if f.When != nil {
			p.f("           from %s to %s\n", f.When.From.Format("15:04:05"), f.When.To.Format("15:04:05"))
		}
		for _, e := range f.Evidence {
			p.f("           %s: %s  [%s]\n", e.What, e.Value, e.Source)
		}
		for _, c := range f.Changes {
			cur := c.Current
			if cur == "" {
				cur = "?"
			}
			p.f("           change %s: %s → %s  (%s)\n", c.Key, cur, c.Recommended, c.Why)
		}
	}
	var ok, notChecked []diagnose.Check
	for _, c := range d.Checks {
		switch c.Status {
		case diagnose.StatusOK:
			ok = append(ok, c)
		case diagnose.StatusNotChecked:
			notChecked = append(notChecked, c)
		}
	}
	p.f("\nChecks: %d rules, %d with findings, %d healthy, %d not checked\n", len(d.Checks), len(d.Findings), len(ok), len(notChecked))
	if opt.Verbose {
		for _, c := range ok {
			p.f("  ok           %s: %s\n", c.ID, c.Why)
		}
	}
	if opt.Checks || opt.Verbose {
		for _, c := range notChecked {
			p.f("  not checked  %s: %s\n", c.ID, c.Why)
		}
	} else if len(notChecked) > 0 {
		p.f("  not checked: the input lacks their data (--checks lists each with what it needs)\n")
	}
	if w := tl.Trace; w != nil {
		writeTrace(p, w)
	}
	if len(tl.NotAvailable) > 0 {
		p.f("Not available:\n")
		for _, u := range tl.NotAvailable {
			p.f("  %s: %s\n", u.What, u.Why)
		}
	}
	return p.err
}

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) f(format string, args ...any) {
	if p.err != nil {
		return
	}
	_, p.err = fmt.Fprintf(p.w, format, args...)
}

func hostLine(h model.Host) string {
	var parts []string
	if h.OtherOS != "" && h.Kernel == "" {
		parts = append(parts, "not Linux: "+h.OtherOS)
	}
	if h.Kernel != "" {
		parts = append(parts, h.Kernel)
	}
	if h.Arch != "" {
		parts = append(parts, h.Arch)
	}
	if h.WordBits != 0 {
		parts = append(parts, fmt.Sprintf("%d-bit", h.WordBits))
	}
	if h.HighMem != nil && *h.HighMem {
		parts = append(parts, "HighMem")
	}
	if h.PageSize > 0 {
		parts = append(parts, fmt.Sprintf("page %d B", h.PageSize))
	}
	if h.CPUs > 0 {
		parts = append(parts, fmt.Sprintf("%d CPUs", h.CPUs))
	}
	return strings.Join(parts, ", ")
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// kb prints a kB amount with a binary unit.
func kb(v int64) string { return units.FormatBytes(v * 1024) }

// CgroupTop is how many cgroups the report lists by socket memory.
const CgroupTop = 5

// netnsLine lists a namespace's TCP settings and its TCP socket memory.
func netnsLine(ns *model.NetnsView) string {
	var b strings.Builder
	for _, k := range kernel.NetnsSysctlKeys() {
		if v, ok := ns.Sysctls[k]; ok {
			fmt.Fprintf(&b, " %s=%q", k, v)
		}
	}
	if n, ok := ns.SockStat.Get("TCP", "inuse"); ok {
		fmt.Fprintf(&b, ", TCP sockets %d", n)
	}
	if n, ok := ns.Netstat.Get("TcpExt", "TCPRcvQDrop"); ok {
		fmt.Fprintf(&b, ", TCPRcvQDrop %d", n)
	}
	for _, u := range ns.Unavailable {
		fmt.Fprintf(&b, "; not read: %s", u)
	}
	return b.String()
}

// writeTrace prints a traced window's counts: what the kernel itself said during it.
func writeTrace(p *printer, w *model.TraceWindow) {
	if w.Text != "" {
		p.f("Drops by the kernel's reason, read from the text (%s, %s; an excerpt: other reasons are not shown absent):\n", w.Text, w.Mechanism)
	} else {
		p.f("Traced %s (%s):\n", w.Duration.Round(100*time.Millisecond), w.Mechanism)
	}
	switch {
	case !w.Reasons:
		p.f("  packets dropped: %d (this kernel gives no reasons)\n", w.DropsTotal)
	case w.DropsTotal == 0:
		p.f("  packets dropped: none\n")
	default:
		var rs []string
		for i, d := range w.Drops {
			if i == 8 {
				rs = append(rs, "...")
				break
			}
			rs = append(rs, fmt.Sprintf("%s %d", d.Name, d.Count))
		}
		p.f("  packets dropped: %d by reason: %s\n", w.DropsTotal, strings.Join(rs, ", "))
		for i, l := range w.Locations {
			if i == 5 {
				break
			}
			p.f("    %-9d %s at %s\n", l.Count, l.Reason, l.Name)
		}
	}
	for _, s := range []struct {
		what string
		st   *model.TraceStalls
	}{{"direct reclaim", w.Reclaim}, {"compaction", w.Compaction}} {
		if s.st != nil {
			p.f("  %s: %d stalls, %v in all, longest %v\n", s.what, s.st.Count, s.st.Total.Round(time.Microsecond), s.st.Max.Round(time.Microsecond))
			for i, tk := range s.st.Tasks {
				if i == 3 {
					break
				}
				p.f("    %s[%d]: %d, %v in all, longest %v\n", tk.Comm, tk.PID, tk.Count, tk.Total.Round(time.Microsecond), tk.Max.Round(time.Microsecond))
			}
		}
	}
	if w.Extfrag != nil {
		p.f("  extfrag events: %d\n", *w.Extfrag)
	}
	if w.Lost > 0 {
		p.f("  lost events: %d (the counts are lower bounds)\n", w.Lost)
	}
}

// linesHold: "1 line holds", "3 lines hold".
func linesHold(n int) string {
	if n == 1 {
		return "1 line holds"
	}
	return fmt.Sprintf("%d lines hold", n)
}
