package report

import (
	"fmt"
	"strings"

	"headroom/diagnose"
)

// The verdict is the first screen of every report (issue 19): what failed, why (the chain,
// each link with the number that proves it), the one change to make first and what follows,
// the independent problems, and what to collect next when the evidence cannot decide. The
// same lines feed text, Markdown and HTML; JSON carries the Story itself.

// verdict is the story laid out for rendering.
type verdict struct {
	Failed      string // the symptom with its number
	Chain       []verdictLink
	Aggravating []verdictLink
	Also        []verdictLink
	First       *diagnose.Step
	Then        []diagnose.Step
	Independent []independent
	Undecided   []string
	Next        []diagnose.Collect
	Quiet       bool // no current problem: info findings only
	NotRead     []string
}

// notReadLines are the sources that could not be read, each with the rules it left
// unjudged: "kernel log (/dev/kmsg): permission denied … → 8 rules not checked: alloc-fail-cma, …".
func notReadLines(s diagnose.Story) []string {
	var out []string
	for _, u := range s.NotRead {
		rules := u.Rules
		more := ""
		if len(rules) > 10 {
			more = fmt.Sprintf(" and %d more", len(rules)-10)
			rules = rules[:10]
		}
		n := "rules"
		if len(u.Rules) == 1 {
			n = "rule"
		}
		out = append(out, fmt.Sprintf("%s (%s) → %d %s not checked: %s%s", u.Source, u.Why, len(u.Rules), n, strings.Join(rules, ", "), more))
	}
	return out
}

// countedNone is the verdict when no finding makes a story and no source is named as unread,
// yet some rules lacked their data: "no problem found" alone would read as healthy, so it says
// how many rules were checked ("" when every rule had its data, or there is a story to tell).
func countedNone(d diagnose.Diagnosis, s diagnose.Story) string {
	if _, ok := makeVerdict(s); ok || len(notReadLines(s)) > 0 {
		return ""
	}
	checked, notChecked := checkCounts(d)
	if notChecked == 0 {
		return ""
	}
	h := fmt.Sprintf("%s by the %d of %d rules that had their data; %d not checked (the input lacks their data; --checks lists each)",
		headNone, checked, len(d.Checks), notChecked)
	if notChecked > checked {
		h += ", so this is no clean bill of health"
	}
	return h
}

// checkCounts counts the rules that had their data (a finding or ok) and those that did not.
func checkCounts(d diagnose.Diagnosis) (checked, notChecked int) {
	for _, c := range d.Checks {
		if c.Status == diagnose.StatusNotChecked {
			notChecked++
		} else {
			checked++
		}
	}
	return checked, notChecked
}

// Verdict headlines. With sources not read, no headline claims health: it says what was read.
const (
	headNone         = "no problem found"
	headQuiet        = "no current problem; since-boot or informational findings only"
	headNonePartial  = "no current problem in what was read; not read:"
	headQuietPartial = "no current problem in what was read (since-boot or informational findings only); not read:"
)

type verdictLink struct {
	ID, Title, Proof, Because string
}

type independent struct {
	Chain  []verdictLink
	Change *diagnose.Step
}

// proofText is one evidence line, cut to what a first screen has room for.
func proofText(e diagnose.Evidence) string {
	t := e.Value
	if e.What != "" {
		t = e.What + ": " + e.Value
	}
	const room = 160
	if r := []rune(t); len(r) > room {
		t = string(r[:room-1]) + "…"
	}
	return t
}

func linksOf(ls []diagnose.Link) []verdictLink {
	out := make([]verdictLink, 0, len(ls))
	for _, l := range ls {
		out = append(out, verdictLink{ID: l.ID, Title: l.Title, Proof: proofText(l.Proof), Because: l.Because})
	}
	return out
}

func makeVerdict(s diagnose.Story) (verdict, bool) {
	if len(s.Chains) == 0 {
		return verdict{}, false
	}
	var v verdict
	main := s.Chains[0]
	// Quiet: nothing the main cause leads to is above info. An info cause (a share of
	// slab) that explains a critical failure is no quiet verdict (corpus 771).
	v.Quiet = true
	for _, ls := range [][]diagnose.Link{main.Links, main.Also} {
		for _, l := range ls {
			if l.Severity > diagnose.Info {
				v.Quiet = false
			}
		}
	}
	// What failed: the first of the most severe links (the failure the rest follows from
	// or shows).
	failed := main.Links[0]
	for _, l := range main.Links[1:] {
		if l.Severity > failed.Severity {
			failed = l
		}
	}
	v.Failed = failed.Title + " (" + proofText(failed.Proof) + ")"
	v.Chain = linksOf(main.Links)
	v.Also = linksOf(main.Also)
	v.Aggravating = linksOf(main.Aggravating)
	v.First, v.Then = s.FirstChange, s.Then
	for _, c := range s.Chains[1:] {
		v.Independent = append(v.Independent, independent{Chain: linksOf(c.Links), Change: c.Change})
	}
	v.Undecided, v.Next = s.Undecided, s.NextEvidence
	return v, true
}

// stepText is one change as a line: key current → value, and the command.
func stepText(st diagnose.Step) string {
	var b strings.Builder
	b.WriteString(st.Key)
	if st.Current != "" {
		b.WriteString(" " + st.Current + " →")
	} else {
		b.WriteString(":")
	}
	b.WriteString(" " + st.Value)
	return b.String()
}

// writeVerdictText writes the verdict for a terminal.
func writeVerdictText(p *printer, s diagnose.Story) {
	v, ok := makeVerdict(s)
	nr := notReadLines(s)
	if !ok || v.Quiet {
		switch {
		case !ok && len(nr) == 0:
			p.f("Verdict: %s\n", headNone)
			return
		case !ok:
			p.f("Verdict: %s\n", headNonePartial)
		case len(nr) == 0:
			p.f("Verdict: %s\n", headQuiet)
		default:
			p.f("Verdict: %s\n", headQuietPartial)
		}
		for _, l := range nr {
			p.f("  Not read     %s\n", l)
		}
		if ok {
			for _, l := range append(v.Chain[:1:1], firstLinks(v.Independent)...) {
				p.f("  Noted        %s: %s  [%s]\n", l.ID, l.Title, l.Proof)
			}
		}
		p.f("\n")
		return
	}
	p.f("Verdict\n")
	p.f("  What failed  %s\n", v.Failed)
	p.f("  Why          ")
	for i, l := range v.Chain {
		if i > 0 {
			p.f("               → %s\n", l.Because)
			p.f("               ")
		}
		p.f("%s: %s\n", l.ID, l.Title)
		p.f("                 [%s]\n", l.Proof)
	}
	for _, l := range v.Also {
		p.f("               also %s: %s  [%s]\n", l.ID, l.Title, l.Proof)
	}
	for _, l := range v.Aggravating {
		p.f("               made worse by %s: %s\n                 (%s)\n", l.ID, l.Title, l.Because)
	}
	if v.First != nil {
		p.f("  First change %s\n", stepText(*v.First))
		if v.First.Command != "" {
			p.f("               $ %s\n", v.First.Command)
		}
		if v.First.Why != "" {
			p.f("               (%s)\n", v.First.Why)
		}
		for i, st := range v.Then {
			p.f("  Then %d       %s", i+1, stepText(st))
			if st.Command != "" {
				p.f("   $ %s", st.Command)
			}
			p.f("\n")
		}
	}
	for i, in := range v.Independent {
		if i == 0 {
			p.f("  Separately\n")
		}
		var ids []string
		for _, l := range in.Chain {
			ids = append(ids, l.ID)
		}
		p.f("    %s: %s  [%s]\n", strings.Join(ids, " → "), in.Chain[len(in.Chain)-1].Title, in.Chain[0].Proof)
		if in.Change != nil {
			p.f("      fix: %s\n", stepText(*in.Change))
		}
	}
	if len(v.Undecided) > 0 || len(v.Next) > 0 {
		p.f("  Not decided  %s\n", strings.Join(v.Undecided, "; "))
		for _, c := range v.Next {
			p.f("    $ %-50s %s\n", c.Command, c.Answers)
		}
	}
	for _, l := range nr {
		p.f("  Not read     %s\n", l)
	}
	p.f("\n")
}

// writeVerdictMarkdown writes the verdict for a ticket.
func writeVerdictMarkdown(b *strings.Builder, s diagnose.Story) {
	v, ok := makeVerdict(s)
	nr := notReadLines(s)
	b.WriteString("## Verdict\n\n")
	writeNotRead := func() {
		for _, l := range nr {
			fmt.Fprintf(b, "- **Not read:** %s\n", mdEsc(l))
		}
		if len(nr) > 0 {
			b.WriteString("\n")
		}
	}
	if !ok {
		if len(nr) == 0 {
			b.WriteString("No problem found.\n\n")
			return
		}
		b.WriteString("No current problem in what was read; not read:\n\n")
		writeNotRead()
		return
	}
	if v.Quiet {
		if len(nr) > 0 {
			b.WriteString("No current problem in what was read (since-boot or informational findings only); not read:\n\n")
			writeNotRead()
			b.WriteString("Noted:\n\n")
		} else {
			b.WriteString("No current problem; since-boot or informational findings only:\n\n")
		}
		for _, l := range append(v.Chain[:1:1], firstLinks(v.Independent)...) {
			fmt.Fprintf(b, "- `%s` %s — %s\n", l.ID, mdEsc(l.Title), mdEsc(l.Proof))
		}
		b.WriteString("\n")
		return
	}
	defer writeNotRead()
	fmt.Fprintf(b, "**What failed:** %s\n\n**Why:**\n\n", mdEsc(v.Failed))
	for i, l := range v.Chain {
		if i > 0 {
			fmt.Fprintf(b, "   → *%s*\n", mdEsc(l.Because))
		}
		fmt.Fprintf(b, "%d. `%s` %s — %s\n", i+1, l.ID, mdEsc(l.Title), mdEsc(l.Proof))
	}
	for _, l := range v.Also {
		fmt.Fprintf(b, "- also `%s` %s — %s\n", l.ID, mdEsc(l.Title), mdEsc(l.Proof))
	}
	for _, l := range v.Aggravating {
		fmt.Fprintf(b, "- made worse by `%s`: %s (%s)\n", l.ID, mdEsc(l.Title), mdEsc(l.Because))
	}
	b.WriteString("\n")
	if v.First != nil {
		fmt.Fprintf(b, "**First change:** %s\n", mdEsc(stepText(*v.First)))
		if v.First.Command != "" {
			fmt.Fprintf(b, "\n```\n%s\n```\n", v.First.Command)
		}
		if v.First.Why != "" {
			fmt.Fprintf(b, "\n%s\n", mdEsc(v.First.Why))
		}
		if len(v.Then) > 0 {
			b.WriteString("\n**Then:**\n\n")
			for i, st := range v.Then {
				fmt.Fprintf(b, "%d. %s", i+1, mdEsc(stepText(st)))
				if st.Command != "" {
					fmt.Fprintf(b, " (`%s`)", st.Command)
				}
				b.WriteString("\n")
			}
		}
		b.WriteString("\n")
	}
	if len(v.Independent) > 0 {
		b.WriteString("**Separately:**\n\n")
		for _, in := range v.Independent {
			var ids []string
			for _, l := range in.Chain {
				ids = append(ids, "`"+l.ID+"`")
			}
			fmt.Fprintf(b, "- %s: %s — %s", strings.Join(ids, " → "), mdEsc(in.Chain[len(in.Chain)-1].Title), mdEsc(in.Chain[0].Proof))
			if in.Change != nil {
				fmt.Fprintf(b, "; fix: %s", mdEsc(stepText(*in.Change)))
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	if len(v.Next) > 0 {
		b.WriteString("**Collect next:**")
		if len(v.Undecided) > 0 {
			b.WriteString(" " + mdEsc(strings.Join(v.Undecided, "; ")))
		}
		b.WriteString("\n\n")
		for _, c := range v.Next {
			fmt.Fprintf(b, "- `%s` — %s\n", c.Command, mdEsc(c.Answers))
		}
		b.WriteString("\n")
	}
}

// currentFirst orders findings so since-boot history (info logged before the run, counters
// that did not move) stays below the current problems: by severity, the diagnosis's order
// kept within one severity.
func currentFirst(fs []diagnose.Finding) []diagnose.Finding {
	out := make([]diagnose.Finding, 0, len(fs))
	for _, sev := range []diagnose.Severity{diagnose.Critical, diagnose.Warning, diagnose.Info} {
		for _, f := range fs {
			if f.Severity == sev {
				out = append(out, f)
			}
		}
	}
	return out
}

// storyOf is the diagnosis's story; a Diagnosis assembled without diagnose.Run (a test, a
// caller that filtered the findings) gets it told from its findings.
func storyOf(d diagnose.Diagnosis) diagnose.Story {
	if len(d.Story.Chains) == 0 && len(d.Findings) > 0 {
		return diagnose.Tell(d.Findings)
	}
	return d.Story
}

// firstLinks are the roots of the independent problems.
func firstLinks(in []independent) []verdictLink {
	var out []verdictLink
	for _, c := range in {
		out = append(out, c.Chain[0])
	}
	return out
}
