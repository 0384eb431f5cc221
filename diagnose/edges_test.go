package diagnose

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

// The story reads typed facts, never prose (issue 31). Each case below is built twice: the
// text of a finding says one thing and its facts the other. The edge must follow the facts
// both ways, so a rule may reword its title or evidence without changing the story.

// edgeBetween returns the condition of the edge from cause to effect in the story of the two
// findings, and whether the edge holds (as a link or as an aggravating cause).
func edgeBetween(cause, effect Finding) (string, bool) {
	g := buildGraph([]Finding{effect, cause})
	for _, a := range append(g.out[cause.ID], g.agg[effect.ID]...) {
		if a.e.Cause == cause.ID && a.e.Effect == effect.ID {
			return a.cond, true
		}
	}
	return "", false
}

// edgeCase is one pair of findings and the condition the edge between them must have ("" for
// no edge).
type edgeCase struct {
	name          string
	cause, effect Finding
	want          string
}

func TestEdgesAreTyped(t *testing.T) {
	fail := Finding{ID: "alloc-fail-reserve", Severity: Critical}
	lowFail := Finding{ID: "alloc-fail-lowmem", Severity: Critical, Title: "allocations failed", Facts: Facts{Memory: MemoryLowmem}}
	lowTCP := Finding{ID: "tcp-mem-oversized", Severity: Warning, Title: "tcp_mem is large", Facts: Facts{Memory: MemoryLowmem}}
	cgOOM := Finding{ID: "oom-kill", Severity: Critical, Title: "the OOM killer ran", Facts: Facts{OOM: OOMCgroup}}
	swap := Finding{ID: "swap-under-load", Severity: Warning}
	minFree := Finding{ID: "min-free-too-low", Severity: Warning}
	for _, c := range []edgeCase{
		// Memory domain. The text says lowmem everywhere, the facts all memory: a lowmem
		// failure is not explained by a tcp_mem judged against all memory.
		{"lowmem in the text only", Finding{ID: "tcp-mem-oversized", Severity: Warning, Title: "tcp_mem lets TCP take 1.6 GiB, 183% of lowmem",
			Evidence: []Evidence{{What: "lowmem", Value: "880 MiB"}, {What: "tcp_mem", Value: "419430 pages = 183% of lowmem"}},
			Facts:    Facts{Memory: MemoryAll}}, lowFail, ""},
		{"lowmem in the facts only", lowTCP, lowFail, "both in lowmem"},
		{"an effect in lowmem by its text only", lowTCP, Finding{ID: "alloc-fail-reserve", Severity: Critical, Title: "atomic allocations failed in lowmem",
			Evidence: []Evidence{{What: "lowmem", Value: "90% of lowmem"}}}, "the same memory"},
		{"an effect in lowmem by its facts", lowTCP, Finding{ID: "alloc-fail-reserve", Severity: Critical, Facts: Facts{Memory: MemoryLowmem}}, "both in lowmem"},
		// Share of memory.
		{"a slab share in the text only", Finding{ID: "slab-unreclaimable-growth", Severity: Warning, Title: "slab held 45% of memory",
			Evidence: []Evidence{{What: "SUnreclaim share of MemTotal", Value: "45.0% of 1.0 GiB"}},
			Facts:    Facts{Memory: MemoryAll, Share: 0.10}}, fail, ""},
		{"a slab share in the facts", Finding{ID: "slab-unreclaimable-growth", Severity: Warning, Title: "slab is large", Facts: Facts{Memory: MemoryAll, Share: 0.45}}, fail, "slab holds 45% of the memory"},
		// Where the OOM killer ran, and the cgroup's slab copy.
		{"host in the title, cgroup in the facts", Finding{ID: "oom-kill", Severity: Critical, Title: "the host ran out of memory: the OOM killer ran 3×", Facts: Facts{OOM: OOMCgroup}}, fail, ""},
		{"host and cgroup kills: the host's kills are the exhausted memory", Finding{ID: "oom-kill", Severity: Critical, Title: "the OOM killer ran 2× for the whole host and 3× inside memory cgroups", Facts: Facts{OOM: OOMHostAndCgroup}}, fail, "the same exhausted memory"},
		{"cgroup in the title, host in the facts", Finding{ID: "oom-kill", Severity: Critical, Title: "a memory cgroup hit its limit", Facts: Facts{OOM: OOMHost}}, fail, "the same exhausted memory"},
		{"a cgroup's cache by its name in the title only", cgOOM, Finding{ID: "slab-alloc-failure", Severity: Critical, Title: "slab cache dentry(100:12G) could not grow"}, ""},
		{"a cgroup's cache in the facts", cgOOM, Finding{ID: "slab-alloc-failure", Severity: Critical, Title: "slab cache dentry could not grow", Facts: Facts{CgroupCache: true}}, "the cache is the cgroup's own copy"},
		{"a host kill with cgroup in its title and a cgroup's cache", Finding{ID: "oom-kill", Severity: Critical, Title: "a memory cgroup hit its limit", Facts: Facts{OOM: OOMHost}},
			Finding{ID: "slab-alloc-failure", Severity: Critical, Facts: Facts{CgroupCache: true}}, ""},
		// Bytes held.
		{"orphan bytes in the text only", Finding{ID: "orphan-send-queues", Severity: Warning,
			Evidence: []Evidence{{What: "FIN_WAIT1 sockets", Value: "19 of 20 closing sockets hold ≥ 64 KiB each; 300.0 MiB in total"}}}, fail, ""},
		{"orphan bytes in the facts", Finding{ID: "orphan-send-queues", Severity: Warning, Facts: Facts{HeldBytes: 300 << 20}}, fail, "closing sockets hold 300 MiB"},
		// A busy CPU.
		{"a busy CPU in the text only", swap, Finding{ID: "nic-rx-overruns", Severity: Critical,
			Evidence: []Evidence{{What: "CPU around these counters", Value: "3 of 5 CPU samples busy: RX processing competes with a busy box"}}}, ""},
		{"a busy CPU in the facts", swap, Finding{ID: "nic-rx-overruns", Severity: Critical, Facts: Facts{CPUBusy: true}}, "CPU busy around the counters"},
		// The key an unknown key was meant as.
		{"the meant key in the text only", Finding{ID: "sysctl-unknown-key", Severity: Warning,
			Evidence: []Evidence{{What: "vm.min_kbytes_free (sysctl -w)", Value: "no kernel has this key; did the author mean vm.min_free_kbytes?"}}}, minFree, ""},
		{"the meant key in the facts", Finding{ID: "sysctl-unknown-key", Severity: Warning, Facts: Facts{MeantKeys: []string{"vm.min_free_kbytes"}}}, minFree, "the key was meant as vm.min_free_kbytes"},
		{"the meant key, stated to have worked", Finding{ID: "sysctl-unknown-key", Severity: Warning, Facts: Facts{MeantKeys: []string{"vm.min_free_kbytes"}, StatedWorked: true}}, minFree, ""},
	} {
		cond, ok := edgeBetween(c.cause, c.effect)
		if got := map[bool]string{true: cond}[ok]; got != c.want || ok != (c.want != "") {
			t.Errorf("%s: %s → %s: condition %q (edge %v), want %q", c.name, c.cause.ID, c.effect.ID, cond, ok, c.want)
		}
	}
}

func TestMemcgCacheName(t *testing.T) {
	for name, want := range map[string]bool{
		"dentry(100:12G)": true, "proc_inode_cache(4255426:scffsgroup)": true,
		"kmalloc-256": false, "skbuff_head_cache": false, "": false, "x(1)": false,
	} {
		if got := memcgCacheName(name); got != want {
			t.Errorf("memcgCacheName(%q) = %v", name, got)
		}
	}
}

// A finding on another machine's numbers is no story node by its facts, whatever its title.
func TestStoryNodeForeignIsTyped(t *testing.T) {
	f := Finding{ID: "tcp-mem-oversized", Title: "tcp_mem is large (" + model.ForeignMark + ", not this host's)"}
	if !storyNode(&f) {
		t.Error("a title decided that a finding is another machine's")
	}
	f = Finding{ID: "tcp-mem-oversized", Title: "tcp_mem is large", Facts: Facts{Foreign: true}}
	if storyNode(&f) {
		t.Error("a finding on another machine's numbers took part in the story")
	}
}

// The question for the zones' state follows Facts.ZoneState, not an evidence line's name.
func TestZoneQuestionIsTyped(t *testing.T) {
	asks := func(f Finding) bool {
		for _, u := range Tell([]Finding{f}).Undecided {
			if strings.Contains(u, "no zone state") {
				return true
			}
		}
		return false
	}
	named := Finding{ID: "alloc-fail-reserve", Severity: Critical, Evidence: []Evidence{{What: "zone Normal (node 0), eligible", Value: "free 100 kB, min 200 kB"}}}
	if !asks(named) {
		t.Error("an evidence line named zone stood for the zones' state")
	}
	typed := Finding{ID: "alloc-fail-reserve", Severity: Critical, Facts: Facts{ZoneState: true}}
	if asks(typed) {
		t.Error("the zones' state is in the finding, yet the story asks for it")
	}
}

// Kernel limits are kept, dropped and read by their fact ids and the typed release.
func TestKernelLimitsAreTyped(t *testing.T) {
	v, err := kernel.ParseKernelVersion("4.9.0")
	if err != nil {
		t.Fatal(err)
	}
	limits := Finding{ID: "kernel-known-limits", Severity: Info, Facts: Facts{Kernel: v},
		Evidence: []Evidence{
			{What: "kernel", Value: "2.4.20"}, // the text says 2.4; the facts say 4.9
			{What: "before memory compaction (2.6.35, commit 748446bb6b5a)", Value: "named like a limit, but no fact"},
			{What: "a limit in other words", Value: "x", Fact: "skb-drop-reasons"},
		}}
	fs := []Finding{{ID: "kswapd-saturated", Severity: Critical}, limits, {ID: "kernel-known-limits"}}
	trimKernelLimits(fs) // the last, without evidence, is left as it is
	var whats []string
	for _, e := range fs[1].Evidence {
		whats = append(whats, e.What)
	}
	got := strings.Join(whats, " | ")
	if strings.Contains(got, "before 2.6") || !strings.Contains(got, "before memory compaction") || strings.Contains(got, "other words") || !strings.Contains(got, "other limits") {
		t.Errorf("kept %s", got)
	}
	if !strings.Contains(fs[1].Explanation, "(before memory compaction (2.6.35, commit 748446bb6b5a)).") {
		t.Errorf("explanation %q", fs[1].Explanation)
	}
	// The remedies read the typed release: 4.9 has vm.watermark_scale_factor.
	s := Tell(fs)
	if s.FirstChange == nil || !stepsHave(append([]Step{*s.FirstChange}, s.Then...), "vm.watermark_scale_factor", "(4.6+)") {
		t.Errorf("steps %+v %+v, want watermark_scale_factor for a 4.9 kernel", s.FirstChange, s.Then)
	}
}

// A link's proof is chosen by the evidence lines' roles, not their names or wording.
func TestProofIsTyped(t *testing.T) {
	f := Finding{ID: "kernel-time-growth", Evidence: []Evidence{
		{What: "kernel", Value: "2.6.32 (2.6)"}, // named like background, but measured
		{What: "growth", Value: "0.24% → 2.32% (9.7×)"},
		{What: "release", Value: "4.9.0", Role: Background},
	}}
	if p := proof(&f); p.What != "kernel" {
		t.Errorf("proof %+v: a line named kernel was skipped, or a factor read from its text", p)
	}
	f.Evidence[0].Role = Background
	if p := proof(&f); p.What != "growth" {
		t.Errorf("proof %+v, want the first measured line with a number", p)
	}
	f.Evidence = append(f.Evidence, Evidence{What: "factor", Value: "9.7 times", Role: Factor})
	if p := proof(&f); p.What != "factor" {
		t.Errorf("proof %+v, want the typed factor line", p)
	}
}

// No code of the package decides from a finding's title or explanation, and the story's
// files decide from no evidence line's name: a strings or regexp call, or a comparison, that
// reads .Title or .Explanation (anywhere in diagnose), or .What (edges.go, story*.go), fails
// this.
func TestNoProseReads(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		banned := map[string]bool{"Title": true, "Explanation": true}
		if name == "edges.go" || strings.HasPrefix(name, "story") {
			banned["What"] = true
		}
		flag := func(e ast.Expr) {
			ast.Inspect(e, func(m ast.Node) bool {
				if sel, ok := m.(*ast.SelectorExpr); ok && banned[sel.Sel.Name] {
					t.Errorf("%s: a decision read from .%s", fset.Position(sel.Pos()), sel.Sel.Name)
				}
				return true
			})
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				if proseMatcher(x.Fun) {
					for _, arg := range x.Args {
						flag(arg)
					}
				}
			case *ast.BinaryExpr:
				if x.Op == token.EQL || x.Op == token.NEQ {
					flag(x.X)
					flag(x.Y)
				}
			}
			return true
		})
	}
	if checked < 40 {
		t.Fatalf("read %d files", checked)
	}
}

// proseMatcher: a call into package strings, or a regexp's matching method.
func proseMatcher(fun ast.Expr) bool {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if id, ok := sel.X.(*ast.Ident); ok && id.Name == "strings" {
		return true
	}
	return strings.HasPrefix(sel.Sel.Name, "Match") || strings.HasPrefix(sel.Sel.Name, "Find")
}

// When every limit bears on no finding, the explanation says so instead of listing nothing
// ("removes all of them ()", corpus 1480 before the fix).
func TestKernelLimitsAllDroppedExplained(t *testing.T) {
	v, err := kernel.ParseKernelVersion("5.13.0")
	if err != nil {
		t.Fatal(err)
	}
	fs := []Finding{{ID: "kernel-known-limits", Severity: Info, Facts: Facts{Kernel: v},
		Evidence: []Evidence{{What: "kernel", Value: "5.13"}, {What: "a limit", Value: "x", Fact: "skb-drop-reasons"}}}}
	trimKernelLimits(fs)
	if e := fs[0].Explanation; strings.Contains(e, "()") || !strings.Contains(e, "none of them bears on a finding here") {
		t.Errorf("explanation %q", e)
	}
}
