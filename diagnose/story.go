package diagnose

import (
	"sort"
	"strings"
)

// Story is the diagnosis told as an expert tells it (issue 19): what failed, why (the chain
// from the root cause, each link with the number that proves it), the one change to make
// first and what follows, the independent problems with their own short chains, and, when
// the evidence cannot decide, what to collect next. It is computed from the declared edges
// (edges.go) and the findings' evidence.
type Story struct {
	// Causes are the root causes, the main one first. A root cause is a finding that no
	// other finding present explains.
	Causes []Cause `json:"causes"`
	// Chains has one chain per cause, in the same order: the first is the main story, the
	// others are independent problems.
	Chains []Chain `json:"chains"`
	// FirstChange is the one change to make first; Then what follows, in order.
	FirstChange *Step  `json:"first_change,omitempty"`
	Then        []Step `json:"then,omitempty"`
	// Undecided names the questions the evidence cannot answer; NextEvidence the exact
	// commands that would, each saying which question it answers.
	Undecided    []string  `json:"undecided,omitempty"`
	NextEvidence []Collect `json:"next_evidence,omitempty"`
	// NotRead names each evidence source the input could not give that left rules
	// unjudged, the kernel log first, with the rules: a verdict without them is "no problem
	// in what was read", never "healthy" (issue 27: an unprivileged doctor said "no current
	// problem" while 8 rules could not read /dev/kmsg).
	NotRead []Unread `json:"not_read,omitempty"`
}

// Unread is one evidence source that could not be read and the rules it left unjudged.
type Unread struct {
	Source string   `json:"source"` // "kernel log (/dev/kmsg)", "/proc/zoneinfo"
	Why    string   `json:"why"`
	Rules  []string `json:"rules_not_checked"`
}

// Cause is one root cause.
type Cause struct {
	ID       string   `json:"id"`
	Severity Severity `json:"severity"`
	Title    string   `json:"title"`
}

// Chain is a root cause and what follows from it, root first, the symptom last.
type Chain struct {
	Root  string `json:"root"`
	Links []Link `json:"links"`
	// Also are findings the root explains that are not on the longest path.
	Also []Link `json:"also,omitempty"`
	// Aggravating are findings that made a link worse or kept its fix from working.
	Aggravating []Link `json:"aggravating,omitempty"`
	// Change is this chain's first change (for independent problems: their own fix).
	Change *Step `json:"change,omitempty"`
}

// Link is one finding in a chain.
type Link struct {
	ID       string   `json:"id"`
	Severity Severity `json:"severity"`
	Title    string   `json:"title"`
	// Proof is the evidence line that proves this link.
	Proof Evidence `json:"proof"`
	// Because is the mechanism that leads here from the previous link, and Condition what
	// in the evidence made that edge hold; both empty for the root.
	Because   string `json:"because,omitempty"`
	Condition string `json:"condition,omitempty"`
	// Of is the finding this one explains or aggravates (Also and Aggravating only).
	Of string `json:"of,omitempty"`
}

// Step is one change: the value and the command that makes it.
type Step struct {
	Finding string `json:"finding"`
	Key     string `json:"key"`
	Current string `json:"current,omitempty"`
	Value   string `json:"value"`
	Command string `json:"command,omitempty"`
	Why     string `json:"why,omitempty"`
}

// Collect is one command to run for evidence this input lacks.
type Collect struct {
	Command string   `json:"command"`
	Answers string   `json:"answers"`
	For     []string `json:"for,omitempty"` // the finding ids the answer bears on
}

// RootCause returns the id of the main root cause of the findings, "" when there is none. The accuracy scorer compares it with the first
// must id of a labelled case.
func RootCause(findings []Finding) string {
	s := Tell(findings)
	if len(s.Causes) == 0 {
		return ""
	}
	return s.Causes[0].ID
}

// node is one finding id in the graph: the most severe of its findings.
type node struct {
	f     *Finding
	order int // position of its first finding in the diagnosis
	count int // findings with this id
}

type arc struct {
	e    Edge
	cond string
}

type graph struct {
	nodes map[string]*node
	ids   []string         // node ids in diagnosis order
	out   map[string][]arc // active edges by cause, aggravating ones excluded
	in    map[string][]arc // active edges by effect, aggravating ones excluded
	agg   map[string][]arc // aggravating edges by effect
	reach map[string]map[string]bool
}

// storyNode reports whether a finding takes part in the story. The kernel's known limits are
// context for the changes, not a cause. Info findings (since-boot counters that did not
// move, history logged before the run) take part but rank below current problems.
// A finding that rests on another machine's numbers (weighStated: a quote, a test box) is
// context too: it is no link in this host's story.
func storyNode(f *Finding) bool {
	return f.ID != "kernel-known-limits" && !f.Facts.Foreign
}

func buildGraph(findings []Finding) *graph {
	g := &graph{nodes: map[string]*node{}, out: map[string][]arc{}, in: map[string][]arc{}, agg: map[string][]arc{}}
	for i := range findings {
		f := &findings[i]
		if !storyNode(f) {
			continue
		}
		n, ok := g.nodes[f.ID]
		if !ok {
			g.nodes[f.ID] = &node{f: f, order: i, count: 1}
			g.ids = append(g.ids, f.ID)
			continue
		}
		n.count++
		if f.Severity > n.f.Severity {
			n.f = f
		}
	}
	for _, e := range edges {
		c, okC := g.nodes[e.Cause]
		x, okE := g.nodes[e.Effect]
		if !okC || !okE || !overlap(c.f, x.f) {
			continue
		}
		// Every cause the edges allow for a NIC's loss is the kernel's receive path (its
		// ring, NAPI and softnet, the page allocator, reclaim): a port a user-space driver
		// owns has none of it on its path, whatever else the paste shows of the host.
		if x.f.Facts.UserSpacePort && !e.Aggravates {
			continue
		}
		if e.RuledOut != nil && e.RuledOut(x.f) {
			continue
		}
		cond := ""
		if e.Holds != nil {
			var ok bool
			if cond, ok = e.Holds(c.f, x.f); !ok {
				continue
			}
		}
		if c.f.When != nil && x.f.When != nil && cond == "" {
			cond = "the same time"
		}
		a := arc{e: e, cond: cond}
		if e.Aggravates {
			g.agg[e.Effect] = append(g.agg[e.Effect], a)
			continue
		}
		g.out[e.Cause] = append(g.out[e.Cause], a)
		g.in[e.Effect] = append(g.in[e.Effect], a)
	}
	g.reach = map[string]map[string]bool{}
	for _, id := range g.ids {
		seen := map[string]bool{}
		var walk func(string)
		walk = func(n string) {
			for _, a := range g.out[n] {
				if !seen[a.e.Effect] {
					seen[a.e.Effect] = true
					walk(a.e.Effect)
				}
			}
		}
		walk(id)
		g.reach[id] = seen
	}
	return g
}

// roots are the findings nothing outside their own cycle explains. In a cycle (kswapd and
// TLB shootdowns feed each other) the member declared first as a cause stands for it.
func (g *graph) roots() []string {
	aggravates := map[string]bool{}
	for _, as := range g.agg {
		for _, a := range as {
			aggravates[a.e.Cause] = true
		}
	}
	var out []string
	for _, id := range g.ids {
		// A finding that only made another worse is told beside it, not as a problem of
		// its own.
		root := !aggravates[id] || len(g.out[id]) > 0
		for _, a := range g.in[id] {
			if !g.reach[id][a.e.Cause] { // explained from outside its cycle
				root = false
				break
			}
			if edgeRank(a.e.Cause) < edgeRank(id) { // same cycle: the first declared leads
				root = false
				break
			}
		}
		if root {
			out = append(out, id)
		}
	}
	return out
}

// edgeRank is the position of the first edge that names id as a cause.
func edgeRank(id string) int {
	for i, e := range edges {
		if e.Cause == id {
			return i
		}
	}
	return len(edges)
}

// longest is the longest simple path from id along active edges.
func (g *graph) longest(id string, on map[string]bool) []arc {
	on[id] = true
	defer delete(on, id)
	var best []arc
	for _, a := range g.out[id] {
		if on[a.e.Effect] {
			continue
		}
		p := append([]arc{a}, g.longest(a.e.Effect, on)...)
		if len(p) > len(best) {
			best = p
		}
	}
	return best
}

// rank orders root causes: the one whose chain reaches the worst severity first, then the
// one that explains more, then the more severe root, then one that shows a loss before a
// setting that shows none (Facts.NoLoss), then the diagnosis order.
func (g *graph) rank(roots []string) {
	worst := func(id string) Severity {
		w := g.nodes[id].f.Severity
		for r := range g.reach[id] {
			if s := g.nodes[r].f.Severity; s > w {
				w = s
			}
		}
		return w
	}
	sort.SliceStable(roots, func(i, j int) bool {
		a, b := roots[i], roots[j]
		if wa, wb := worst(a), worst(b); wa != wb {
			return wa > wb
		}
		if ra, rb := len(g.reach[a]), len(g.reach[b]); ra != rb {
			return ra > rb
		}
		if sa, sb := g.nodes[a].f.Severity, g.nodes[b].f.Severity; sa != sb {
			return sa > sb
		}
		// A setting with no loss shown is the lesser story than a loss measured (drops,
		// failures) of the same severity, whichever rule ran first.
		if na, nb := g.nodes[a].f.Facts.NoLoss, g.nodes[b].f.Facts.NoLoss; na != nb {
			return nb
		}
		return g.nodes[a].order < g.nodes[b].order
	})
}

// Tell computes the story of findings, without knowing which rules could not check.
func Tell(findings []Finding) Story { return tell(findings, nil) }

// tell computes the story; checks (by rule id) tell a rule that could not check from one
// that looked and found nothing, so only the former is asked for.
func tell(findings []Finding, checks map[string]Status) Story {
	g := buildGraph(findings)
	roots := g.roots()
	g.rank(roots)
	s := Story{Causes: []Cause{}, Chains: []Chain{}}
	for _, r := range roots {
		n := g.nodes[r]
		s.Causes = append(s.Causes, Cause{ID: r, Severity: n.f.Severity, Title: n.f.Title})
		s.Chains = append(s.Chains, g.chain(r))
	}
	tellChanges(&s, g, findings)
	tellNextEvidence(&s, g, checks)
	return s
}

func (g *graph) link(id string, a *arc) Link {
	n := g.nodes[id]
	l := Link{ID: id, Severity: n.f.Severity, Title: n.f.Title, Proof: proof(n.f)}
	if a != nil {
		l.Because, l.Condition = a.e.Link, a.cond
	}
	return l
}

func (g *graph) chain(root string) Chain {
	c := Chain{Root: root, Links: []Link{g.link(root, nil)}}
	path := g.longest(root, map[string]bool{})
	onPath := map[string]bool{root: true}
	for i := range path {
		a := path[i]
		c.Links = append(c.Links, g.link(a.e.Effect, &a))
		onPath[a.e.Effect] = true
	}
	// What the root reaches off the longest path, each under the first link that explains it.
	for _, id := range g.ids {
		if !g.reach[root][id] || onPath[id] {
			continue
		}
		for _, a := range g.in[id] {
			if onPath[a.e.Cause] || g.reach[root][a.e.Cause] {
				l := g.link(id, &a)
				l.Of = a.e.Cause
				c.Also = append(c.Also, l)
				break
			}
		}
	}
	covered := map[string]bool{}
	for id := range onPath {
		covered[id] = true
	}
	for _, l := range c.Also {
		covered[l.ID] = true
	}
	for _, id := range g.ids {
		if !covered[id] {
			continue
		}
		for _, a := range g.agg[id] {
			if covered[a.e.Cause] {
				continue
			}
			l := g.link(a.e.Cause, &a)
			l.Of = id
			c.Aggravating = append(c.Aggravating, l)
			break
		}
	}
	return c
}

// proof picks the evidence line that proves a finding: the first that carries a number and
// is not background (the kernel release, a decoding note).
func proof(f *Finding) Evidence {
	for _, e := range f.Evidence {
		if e.Role == Factor {
			return e
		}
	}
	for _, e := range f.Evidence {
		if e.Role != Background && strings.ContainsAny(e.Value, "0123456789") {
			return e
		}
	}
	if len(f.Evidence) > 0 {
		return f.Evidence[0]
	}
	return Evidence{What: f.Title}
}
