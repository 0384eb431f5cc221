package plan

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"headroom/model"
	"headroom/units"
)

// WriteJSON writes the plan as indented JSON (the Plan struct's snake_case fields).
func WriteJSON(w io.Writer, p Plan) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	if err := e.Encode(p); err != nil {
		return fmt.Errorf("plan: writing json: %w", err)
	}
	return nil
}

// summary is the plan's header: the link, the host, the per-stream numbers and the budget.
func summary(p Plan) []string {
	in := p.Input
	host := fmt.Sprintf("host: Linux %s %s (%d-bit), %s RAM", p.Kernel, in.Arch, p.WordBits, units.FormatBytes(in.MemoryBytes))
	if p.Budget.Basis == "lowmem" {
		host += fmt.Sprintf(", lowmem %s", units.FormatBytes(in.LowmemBytes))
	}
	host += fmt.Sprintf(", %d B pages", in.PageSizeBytes)
	streams := plural(in.Streams, "stream")
	if in.StreamsAssumed {
		streams += " (assumed: --streams not given)"
	}
	link := fmt.Sprintf("link: %s over %v RTT in %s (%s each), role %s, MTU %d",
		units.FormatBitsPerSec(in.BandwidthBitsPerSec), in.RTT, streams, units.FormatBitsPerSec(p.StreamBitsPerSec), in.Role, in.MTUBytes)
	if in.RTTMax > 0 {
		link += fmt.Sprintf(" (range up to %v)", p.WorstRTT)
	}
	link += fmt.Sprintf("; buffers cover max(2 × BDP, BDP at the worst RTT %v)", p.WorstRTT)
	if in.RateLimitBitsPerSec > 0 {
		link += fmt.Sprintf(", sender limited to %s", units.FormatBitsPerSec(in.RateLimitBitsPerSec))
	}
	stream := fmt.Sprintf("per stream: BDP %s; %s; buffers %s receive / %s send reach %s",
		units.FormatBytes(p.BDPBytesPerStream), p.WindowRatioWhy, units.FormatBytes(p.RcvBufBytes), units.FormatBytes(p.SndBufBytes), units.FormatBitsPerSec(p.StreamReachBitsPerSec))
	switch in.Role {
	case RoleReceiver:
		stream = fmt.Sprintf("per stream: BDP %s; %s; receive buffer %s reaches %s",
			units.FormatBytes(p.BDPBytesPerStream), p.WindowRatioWhy, units.FormatBytes(p.RcvBufBytes), units.FormatBitsPerSec(p.StreamReachBitsPerSec))
	case RoleSender:
		stream = fmt.Sprintf("per stream: BDP %s; %s; send buffer %s reaches %s",
			units.FormatBytes(p.SendBDPBytesPerStream), p.WindowRatioWhy, units.FormatBytes(p.SndBufBytes), units.FormatBitsPerSec(p.StreamReachBitsPerSec))
	}
	verdict := "FITS"
	if !p.Budget.Fits {
		verdict = "DOES NOT FIT"
	}
	return []string{link, host, stream, fmt.Sprintf("budget (%s): %s", verdict, p.Budget.Why)}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// writeSummary writes the plan's summary lines and its warnings, each after prefix: the
// head of the text and of the sysctl.d file alike.
func writeSummary(w io.Writer, p Plan, prefix string) {
	for _, l := range summary(p) {
		fmt.Fprintln(w, prefix+l)
	}
	for _, wn := range p.Warnings {
		fmt.Fprintln(w, prefix+"WARNING: "+wn)
	}
}

// WriteText writes the plan for a terminal: a header, the numbers, then each setting as "key current
// planned" with its reasoning on the next line, the guides' values checked against the same
// budget, and the notes.
func WriteText(w io.Writer, p Plan) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "headroom plan")
	writeSummary(bw, p, "  ")
	if len(p.Numbers) > 0 {
		// The figures the settings below are chosen from, as their reasons cite them.
		fmt.Fprintln(bw)
		fmt.Fprintln(bw, "Numbers:")
		for _, n := range p.Numbers {
			fmt.Fprintf(bw, "  %-30s %-22s %s\n", n.Name, n.Text, n.How)
		}
	}
	fmt.Fprintln(bw)
	fmt.Fprintf(bw, "%-34s %-26s %s\n", "SETTING", "CURRENT", "PLANNED")
	for _, c := range p.Settings {
		key := c.Key
		if c.Kind != model.ChangeSysctl {
			key = c.Kind + " " + c.Key
		}
		fmt.Fprintf(bw, "%-34s %-26s %s\n", key, dash(c.Current), c.Recommended)
		fmt.Fprintf(bw, "    %s\n", c.Why)
	}
	if len(p.Guides) > 0 {
		fmt.Fprintln(bw)
		fmt.Fprintf(bw, "What the guides would give, against the same budget (%s):\n", units.FormatBytes(p.Budget.BudgetBytes))
		for _, g := range p.Guides {
			verdict := "fits"
			if !g.FitsBudget {
				verdict = "DOES NOT FIT"
			}
			fmt.Fprintf(bw, "  %s [%s] (%s)\n", g.Name, verdict, g.Source)
			for _, c := range g.Settings {
				fmt.Fprintf(bw, "    %s = %s\n", c.Key, c.Recommended)
			}
			fmt.Fprintf(bw, "    %s\n", g.Why)
		}
	}
	if len(p.Notes) > 0 {
		fmt.Fprintln(bw)
		fmt.Fprintln(bw, "Notes:")
		for _, n := range p.Notes {
			fmt.Fprintf(bw, "  - %s\n", n)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("plan: writing text: %w", err)
	}
	return nil
}

// WriteSysctl writes a sysctl.d drop-in: every sysctl setting with its reasoning as a comment,
// then the non-sysctl changes (ethtool, tc) as commented commands to run by hand.
func WriteSysctl(w io.Writer, p Plan) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "# sysctl.d drop-in written by headroom plan")
	writeSummary(bw, p, "# ")
	var other []model.Change
	for _, c := range p.Settings {
		if c.Kind != model.ChangeSysctl {
			other = append(other, c)
			continue
		}
		fmt.Fprintln(bw)
		fmt.Fprintf(bw, "# %s\n", c.Why)
		if c.Current != "" {
			fmt.Fprintf(bw, "# was: %s\n", c.Current)
		}
		fmt.Fprintf(bw, "%s = %s\n", c.Key, c.Recommended)
	}
	if len(other) > 0 {
		fmt.Fprintln(bw)
		fmt.Fprintln(bw, "# Not sysctl settings; run by hand (or with headroom tune):")
		for _, c := range other {
			dev, _, _ := strings.Cut(c.Key, " ")
			var cmds []string
			switch {
			case c.Kind == model.ChangeEthtool:
				cmds = []string{fmt.Sprintf("ethtool -G %s rx %s", dev, c.Recommended)}
			case c.Kind == model.ChangeTC && strings.HasSuffix(c.Key, " root htb"):
				var rate string
				if f := strings.Fields(c.Recommended); len(f) >= 2 && f[0] == "rate" {
					rate = f[1]
				}
				cmds = HTBCommands(dev, rate, "")
			default:
				cmds = strings.Split(c.Recommended, "; ")
			}
			for _, cmd := range cmds {
				fmt.Fprintf(bw, "#   %s\n", cmd)
			}
			fmt.Fprintf(bw, "#     (%s)\n", c.Why)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("plan: writing sysctl.d: %w", err)
	}
	return nil
}
