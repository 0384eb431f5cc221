package report

import (
	"fmt"
	"io"
	"strings"

	"headroom/diagnose"
	"headroom/model"
)

// WriteMarkdown writes a ticket-ready summary: the host in one line, a table of the
// findings (severity, rule, what, when), then each finding's evidence and the commands
// of its changes, and what could not be checked. GitHub-, GitLab- and Jira-flavoured
// Markdown all render it; nothing in it depends on an extension beyond tables.
func WriteMarkdown(w io.Writer, tl *model.Timeline, d diagnose.Diagnosis) error {
	p := &printer{w: w}
	s := Summarize(tl)
	p.f("## headroom: %s\n\n", mdEsc(sourceLine(tl)))
	p.f("- **Host:** %s\n", mdEsc(orUnknown(hostLine(tl.Host))))
	p.f("- **Input:** %s\n", summarySamples(s))
	if s.MemTotalKB != nil {
		p.f("- **Memory:** %s\n", memoryLine(s, tl.Host))
	}
	for _, z := range s.Zones {
		r := zoneRow(z, tl.Host)
		below := ""
		if r.Below {
			below = " **(below low)**"
		}
		p.f("- **Zone %s (node %d):** free %s%s; watermarks min %s, low %s, high %s; largest free block %s\n", r.Zone, r.Node, r.Free, below, r.Min, r.Low, r.High, r.Best)
	}
	if t := s.TCPMem; t != nil {
		p.f("- **TCP memory:** %s\n", tcpMemLine(t))
	}
	p.f("\n")
	var vb strings.Builder
	story := storyOf(d)
	diagnose.DropAbsentSteps(tl, &story) // a story told here from the findings alone
	if h := countedNone(d, story); h != "" {
		vb.WriteString("## Verdict\n\n" + strings.ToUpper(h[:1]) + h[1:] + ".\n\n")
	} else {
		writeVerdictMarkdown(&vb, story)
	}
	p.f("%s### Findings\n\n", vb.String())
	if len(d.Findings) == 0 {
		p.f("**No findings.** Every rule that had its data found nothing wrong.\n")
	} else {
		p.f("| severity | rule | finding | when |\n|---|---|---|---|\n")
		for _, f := range d.Findings {
			when := "—"
			if f.When != nil {
				when = whenText(*f.When)
			}
			p.f("| %s | `%s` | %s | %s |\n", strings.ToUpper(f.Severity.String()), f.ID, mdCell(f.Title), when)
		}
		for _, f := range d.Findings {
			p.f("\n### %s `%s`\n\n%s\n\n", strings.ToUpper(f.Severity.String()), f.ID, mdEsc(f.Title))
			for _, e := range f.Evidence {
				p.f("- %s: `%s` (%s)\n", mdEsc(e.What), mdCode(e.Value), mdEsc(e.Source))
			}
			var cmds []string
			for _, c := range f.Changes {
				cur := c.Current
				if cur == "" {
					cur = "?"
				}
				if why, absent := diagnose.AbsentSysctl(tl, c.Key); absent {
					// diagnose.Run already takes such changes out; a diagnosis made another
					// way (an older recording) still gets no command that cannot run.
					p.f("- **not offered** `%s`: %s\n", c.Key, mdEsc(why))
					continue
				}
				p.f("- **change** `%s`: %s → %s: %s\n", c.Key, mdCode(cur), mdCode(c.Recommended), mdEsc(c.Why))
				if c.Kind == model.ChangeSysctl {
					cmds = append(cmds, fmt.Sprintf("sysctl -w %s=%q", c.Key, c.Recommended))
				}
			}
			if len(cmds) > 0 {
				p.f("\n```sh\n%s\n```\n", strings.Join(cmds, "\n"))
			}
		}
	}
	var notChecked []diagnose.Check
	ok := 0
	for _, c := range d.Checks {
		switch c.Status {
		case diagnose.StatusNotChecked:
			notChecked = append(notChecked, c)
		case diagnose.StatusOK:
			ok++
		}
	}
	p.f("\n%d rules: %d findings, %d healthy, %d not checked", len(d.Checks), len(d.Findings), ok, len(notChecked))
	if len(notChecked) > 0 {
		var ids []string
		for _, c := range notChecked {
			ids = append(ids, "`"+c.ID+"`")
		}
		p.f(" (%s)", strings.Join(ids, ", "))
	}
	p.f(".\n")
	for _, u := range tl.NotAvailable {
		p.f("\n> not available: %s: %s", mdEsc(u.What), mdEsc(u.Why))
	}
	if len(tl.NotAvailable) > 0 {
		p.f("\n")
	}
	return p.err
}

var mdReplacer = strings.NewReplacer("\\", "\\\\", "*", "\\*", "_", "\\_", "<", "&lt;", ">", "&gt;", "`", "\\`", "[", "\\[", "]", "\\]")

// mdEsc escapes text so that Markdown renders it as written.
func mdEsc(s string) string { return mdReplacer.Replace(s) }

// mdCell is mdEsc for a table cell, where a pipe or a newline would end the cell.
func mdCell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(mdEsc(s), "|", "\\|"), "\n", " ")
}

// mdCode makes text safe inside a `code span`: backticks cannot be escaped there, so
// they become quotes; newlines would end the span.
func mdCode(s string) string {
	return strings.NewReplacer("`", "'", "\n", " ", "|", "¦").Replace(s)
}
