package main

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
)

// caseScore is what one case gave, figure by figure (hit of total).
type caseScore struct {
	Ran                bool
	Exit               int
	Why                string
	HeaderHit, Headers int
	ZoneHit, ZoneFacts int
	ValueHit, Values   int
	MustHit, Must      int
	Missing            []string // must ids not reported
	FalseAlarms        []string // warning/critical ids outside must and may on a healthy case
	RootOK, RootScored bool
	Root               string
	Unparsed           int
	CPU                time.Duration
}

func (s caseScore) lost() bool {
	return !s.Ran || s.HeaderHit < s.Headers || s.ZoneHit < s.ZoneFacts || s.MustHit < s.Must ||
		len(s.FalseAlarms) > 0 || (s.RootScored && !s.RootOK)
}

func (s caseScore) row(c corpusCase) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-72s exit=%d", c.Stem, s.Exit)
	if !s.Ran {
		fmt.Fprintf(&b, " NOT RUN: %s", s.Why)
		return b.String()
	}
	if s.Headers > 0 {
		fmt.Fprintf(&b, " headers=%d/%d", s.HeaderHit, s.Headers)
	}
	if s.ZoneFacts > 0 {
		fmt.Fprintf(&b, " zones=%d/%d", s.ZoneHit, s.ZoneFacts)
	}
	if s.Values > 0 {
		fmt.Fprintf(&b, " values=%d/%d", s.ValueHit, s.Values)
	}
	if s.Must > 0 {
		fmt.Fprintf(&b, " must=%d/%d", s.MustHit, s.Must)
	}
	if len(s.Missing) > 0 {
		fmt.Fprintf(&b, " missing=%s", strings.Join(s.Missing, ","))
	}
	if c.Label.Healthy {
		if len(s.FalseAlarms) == 0 {
			b.WriteString(" healthy=clean")
		} else {
			fmt.Fprintf(&b, " healthy=FALSE-ALARM(%s)", strings.Join(s.FalseAlarms, ","))
		}
	}
	if s.RootScored {
		if s.RootOK {
			b.WriteString(" root=ok")
		} else {
			fmt.Fprintf(&b, " root=%q", s.Root)
		}
	}
	if s.Unparsed > 0 {
		fmt.Fprintf(&b, " unparsed=%d", s.Unparsed)
	}
	fmt.Fprintf(&b, " cpu=%dms", s.CPU.Milliseconds())
	return b.String()
}

// score compares one doctor run with the case's facts and verdict.
func score(c corpusCase, r doctorRun) caseScore {
	s := caseScore{Exit: r.Exit, CPU: r.CPU}
	s.Must = len(c.Label.Must)
	s.Missing = append([]string(nil), c.Label.Must...)
	s.Headers = len(truthHeaders(c.Truth))
	for _, z := range truthZones(c.Truth) {
		s.ZoneFacts += z.facts()
	}
	s.Values = len(truthNumbers(c.Truth))
	if r.Report == nil || r.Exit < 0 || r.Exit > 2 {
		s.Why = r.Err
		if s.Why == "" {
			s.Why = fmt.Sprintf("exit %d", r.Exit)
		}
		return s
	}
	if v, _ := r.Report["schema"].(float64); v != 1 {
		s.Why = fmt.Sprintf("schema %v, want 1", r.Report["schema"])
		return s
	}
	s.Ran = true
	arts, _ := r.Report["artifacts"].([]any)
	unp, _ := r.Report["unparsed"].([]any)
	s.Unparsed = len(unp)

	s.HeaderHit = matchHeaders(truthHeaders(c.Truth), outputHeaders(arts))
	s.ZoneHit = matchZones(truthZones(c.Truth), outputZones(arts))
	s.ValueHit = matchNumbers(truthNumbers(c.Truth), arts)

	reported := map[string]string{} // id → worst severity
	findings, _ := r.Report["findings"].([]any)
	for _, f := range findings {
		m, _ := f.(map[string]any)
		id, _ := m["id"].(string)
		sev, _ := m["severity"].(string)
		if rank(sev) > rank(reported[id]) || reported[id] == "" {
			reported[id] = sev
		}
	}
	s.Missing = s.Missing[:0]
	for _, id := range c.Label.Must {
		if _, ok := reported[id]; ok {
			s.MustHit++
		} else {
			s.Missing = append(s.Missing, id)
		}
	}
	if c.Label.Healthy {
		allowed := map[string]bool{}
		for _, id := range c.Label.May {
			allowed[id] = true
		}
		for _, id := range sortedKeys(reported) {
			if rank(reported[id]) >= rank("warning") && !allowed[id] {
				s.FalseAlarms = append(s.FalseAlarms, id)
			}
		}
	}
	if len(c.Label.Must) > 0 {
		s.RootScored = true
		s.Root = rootCause(r.Report)
		s.RootOK = s.Root == c.Label.Must[0]
	}
	return s
}

func rank(sev string) int {
	switch sev {
	case "critical":
		return 3
	case "warning":
		return 2
	case "info":
		return 1
	}
	return 0
}

// rootCause is the first cause of the report's diagnosis (issue 19), "" without one.
func rootCause(rep map[string]any) string {
	d, _ := rep["diagnosis"].(map[string]any)
	causes, _ := d["causes"].([]any)
	if len(causes) == 0 {
		return ""
	}
	c, _ := causes[0].(map[string]any)
	id, _ := c["id"].(string)
	return id
}

// header is an allocation-failure report's first line: who asked, for what order, with
// which mask (as printed; "" when the kernel printed none or the expert left it out).
type header struct {
	Process string
	Order   int
	Mode    string
}

// truthHeaders walks the facts for allocation-failure reports: objects with a process and
// an order that are not OOM or SLUB reports (those print other headers).
func truthHeaders(t any) []header {
	var hs []header
	walk(t, func(m map[string]any) {
		p, okP := m["process"].(string)
		o, okO := m["order"].(float64)
		if !okP || !okO {
			return
		}
		if typ, _ := m["type"].(string); typ != "" && typ != "alloc_failure" {
			return
		}
		// The OOM killer's "X invoked oom-killer: gfp_mask=0x..., order=0" names a process
		// and an order too; a label that writes it without a type (corpus 644) is still no
		// allocation-failure header, which prints "mode:" (mm/page_alloc.c warn_alloc).
		// The same invoker written as "gfp" (corpus 1567) or with its oom_score_adj, which
		// only the OOM killer's header prints (mm/oom_kill.c dump_header), is one too.
		// An oom_score_adj or oom_adj beside it makes it the invoker even when the label
		// writes its gfp_mask as "mode" (corpus 3352, "nginx invoked oom-killer:
		// gfp_mask=0x280da, order=0, oom_adj=0, oom_score_adj=0" on 2.6.32): warn_alloc
		// prints neither adjustment (fix39c).
		_, gfpMask := m["gfp_mask"]
		_, gfp := m["gfp"]
		_, adj := m["oom_score_adj"]
		_, oldAdj := m["oom_adj"]
		if adj || oldAdj {
			return
		}
		if gfpMask || gfp {
			if _, mode := m["mode"]; !mode {
				return
			}
		}
		mode, _ := m["mode"].(string)
		hs = append(hs, header{Process: p, Order: int(o), Mode: normMode(mode)})
	})
	return hs
}

func outputHeaders(arts []any) []header {
	var hs []header
	for _, a := range arts {
		m, _ := a.(map[string]any)
		// fix53a: a stall warning ("khugepaged: page allocation stalls for 10273ms,
		// order:10, mode:0x4340ca(...)", warn_alloc in 4.9-4.14 mm/page_alloc.c) is the same
		// warn_alloc header with the same process, order and mode; headroom reads it as an
		// alloc_stall artifact, and a label that writes it as a process and an order (no
		// "type") counts it among the headers.
		if k, _ := m["kind"].(string); k != "alloc_failure" && k != "alloc_stall" {
			continue
		}
		d, _ := m["data"].(map[string]any)
		p, _ := d["process"].(string)
		o, okO := d["order"].(float64)
		mode, _ := d["mode"].(string)
		n := 1
		if c, ok := d["count"].(float64); ok && c > 1 {
			n = int(c)
		}
		if !okO {
			o = -1
		}
		for i := 0; i < n; i++ {
			hs = append(hs, header{Process: p, Order: int(o), Mode: normMode(mode)})
		}
	}
	return hs
}

// normProcess compares process names as the kernel printed them: warn_alloc prints
// current->comm bare ("%s: page allocation failure"), so square brackets around the whole
// name are the poster's placeholder mark ("[some_app]: page allocation failure"), which one
// label keeps and another drops (corpus 589 and 1671 quote the same question). Brackets
// inside a name ("runc:[2:INIT]") are the name's own and stay.
func normProcess(s string) string {
	if len(s) > 2 && s[0] == '[' && s[len(s)-1] == ']' && !strings.ContainsAny(s[1:len(s)-1], "[]") {
		return s[1 : len(s)-1]
	}
	return s
}

// normMode compares masks as numbers are compared: 0x020 is 0x20, 0×20 (a look-alike pasted
// by a blog) is what its writer meant, and the names a 4.10+ kernel prints after the mask are
// its decoding of the same number.
func normMode(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.ReplaceAll(s, "×", "x")
	if i := strings.IndexByte(s, '('); i > 0 { // 0x2080020(GFP_ATOMIC): the kernel's own decoding
		s = strings.TrimSpace(s[:i])
	}
	if strings.HasPrefix(s, "0x") {
		h := strings.TrimLeft(s[2:], "0")
		if h == "" {
			h = "0"
		}
		return "0x" + h
	}
	return s
}

// matchHeaders counts the truth headers found in the output, each output header used once.
func matchHeaders(truth, out []header) int {
	used := make([]bool, len(out))
	hit := 0
	for _, t := range truth {
		for i, o := range out {
			if used[i] || normProcess(o.Process) != normProcess(t.Process) || o.Order != t.Order {
				continue
			}
			if t.Mode != "" && o.Mode != t.Mode {
				continue
			}
			used[i] = true
			hit++
			break
		}
	}
	return hit
}

// zone is one zone's watermarks and free blocks as read by hand or by headroom.
type zone struct {
	Node  int // -1 unknown
	Name  string
	KB    map[string]float64 // free_kb, min_kb, low_kb, high_kb as present
	Buddy []float64          // nil when not printed
}

var zoneKeys = []string{"free_kb", "min_kb", "low_kb", "high_kb"}

func (z zone) facts() int {
	n := len(z.KB)
	if z.Buddy != nil {
		n++
	}
	return n
}

func truthZones(t any) []zone {
	var zs []zone
	walk(t, func(m map[string]any) {
		if z, ok := toZone(m); ok {
			zs = append(zs, z)
		}
	})
	return zs
}

func toZone(m map[string]any) (zone, bool) {
	name, ok := m["zone"].(string)
	if !ok {
		return zone{}, false
	}
	if _, ok := m["free_kb"].(float64); !ok {
		return zone{}, false
	}
	z := zone{Node: -1, Name: name, KB: map[string]float64{}}
	if n, ok := m["node"].(float64); ok {
		z.Node = int(n)
	}
	for _, k := range zoneKeys {
		if v, ok := m[k].(float64); ok {
			z.KB[k] = v
		}
	}
	var counts []any
	if b, ok := m["buddy"].(map[string]any); ok {
		counts, _ = b["counts"].([]any)
	} else if l, ok := m["buddy"].([]any); ok {
		counts = l
	} else if l, ok := m["free_blocks"].([]any); ok {
		counts = l
	}
	if counts != nil {
		z.Buddy = make([]float64, 0, len(counts))
		for _, c := range counts {
			v, _ := c.(float64)
			z.Buddy = append(z.Buddy, v)
		}
	}
	return z, true
}

func outputZones(arts []any) []zone {
	var zs []zone
	for _, a := range arts {
		m, _ := a.(map[string]any)
		walk(m["data"], func(m map[string]any) {
			if z, ok := toZone(m); ok {
				zs = append(zs, z)
			}
		})
	}
	return zs
}

// matchZones gives each truth zone the unused output zone of the same name (and node, when
// both know it) that agrees on the most facts, in order, and counts the facts that agree.
func matchZones(truth, out []zone) int {
	used := make([]bool, len(out))
	hit := 0
	for _, t := range truth {
		best, bestN := -1, -1
		for i, o := range out {
			if used[i] || !strings.EqualFold(o.Name, t.Name) || (t.Node >= 0 && o.Node >= 0 && t.Node != o.Node) {
				continue
			}
			if n := agree(t, o); n > bestN {
				best, bestN = i, n
			}
		}
		if best >= 0 {
			used[best] = true
			hit += bestN
		}
	}
	return hit
}

func agree(t, o zone) int {
	n := 0
	for k, v := range t.KB {
		if ov, ok := o.KB[k]; ok && ov == v {
			n++
		}
	}
	if t.Buddy != nil && o.Buddy != nil && sameCounts(t.Buddy, o.Buddy) {
		n++
	}
	return n
}

// sameCounts: buddy lists agree order by order; an order one side does not print is zero
// (kernels differ in MAX_ORDER).
func sameCounts(a, b []float64) bool {
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y float64
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return false
		}
	}
	return true
}

// derivedKey reports a truth key whose numbers the expert computed rather than read off the
// text ("derived", "…_derived", "…_pct", "…ratio…"): no parser prints them, so they are not
// scored. The gathering brief asks for "_derived" keys, so that suffix counts as well.
func derivedKey(key string) bool {
	return key == "derived" || strings.HasSuffix(key, "_derived") ||
		strings.HasSuffix(key, "_pct") || strings.Contains(key, "ratio")
}

// truthNumbers are the numbers ≥ 10 the expert wrote down, except derived ones (see
// derivedKey) that no parser prints.
func truthNumbers(t any) []float64 {
	seen := map[float64]bool{}
	var walkN func(v any, key string)
	walkN = func(v any, key string) {
		if derivedKey(key) {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walkN(e, k)
			}
		case []any:
			for _, e := range x {
				walkN(e, key)
			}
		case float64:
			if math.Abs(x) >= 10 {
				seen[x] = true
			}
		}
	}
	walkN(t, "")
	ns := make([]float64, 0, len(seen))
	for n := range seen {
		ns = append(ns, n)
	}
	sort.Float64s(ns)
	return ns
}

func matchNumbers(truth []float64, arts []any) int {
	have := map[float64]bool{}
	var walkN func(v any)
	walkN = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, e := range x {
				walkN(e)
			}
		case []any:
			for _, e := range x {
				walkN(e)
			}
		case float64:
			have[x] = true
		}
	}
	for _, a := range arts {
		if m, ok := a.(map[string]any); ok {
			walkN(m["data"])
		}
	}
	hit := 0
	for _, n := range truth {
		if have[n] {
			hit++
		}
	}
	return hit
}

// walk calls f on every object in v, depth first.
func walk(v any, f func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		f(x)
		for _, k := range sortedKeys(x) {
			walk(x[k], f)
		}
	case []any:
		for _, e := range x {
			walk(e, f)
		}
	}
}
