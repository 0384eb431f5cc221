package kernel

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestSysctlExists(t *testing.T) {
	for _, c := range []struct {
		key     string
		release string // "" = unknown
		want    bool
		whyHas  string // a word the reason must carry
	}{
		{"vm.swappiness", "2.4.20", false, "2.6.0"},
		{"vm.swappiness", "2.4.20", false, "nothing like it"},
		{"/proc/sys/vm/swappiness", "2.4.20-aa1", false, "2.4 VM"},
		{"vm.swappiness", "2.5.40", true, "not established"}, // the 2.5 series is not decided
		{"vm.swappiness", "2.6.0", true, "has"},
		{"vm.swappiness", "", true, "not known"},
		{"vm.min_free_kbytes", "2.4.20", false, "freepages"},
		{"vm.min_free_kbytes", "2.6.32", true, "has"},
		{"vm.watermark_scale_factor", "4.5.7", false, "4.6"},
		{"vm.watermark_scale_factor", "4.6.0", true, "795ae7a0de6b"},
		{"vm.watermark_boost_factor", "4.4.0", false, "5.0"},
		{"vm.watermark_boost_factor", "4.19.300", false, "5.0"},
		{"vm.watermark_boost_factor", "5.0.0", true, ""},
		{"vm.compaction_proactiveness", "5.8.18", false, "compact_memory"},
		{"vm.compaction_proactiveness", "5.9.0", true, ""},
		{"net.core.netdev_budget_usecs", "4.11.12", false, "4.12"},
		{"net.core.netdev_budget_usecs", "4.12.0", true, ""},
		{"net.ipv4.tcp_notsent_lowat", "3.11.10", false, "3.12"},
		{"net.ipv4.tcp_notsent_lowat", "3.12.0", true, ""},
		{"vm.extfrag_threshold", "2.6.34", false, "2.6.35"},
		{"vm.extfrag_threshold", "2.6.35", true, ""},
		{"net.ipv4.tcp_tw_recycle", "4.11.0", true, ""},
		{"net.ipv4.tcp_tw_recycle", "4.12.0", false, "removed in 4.12"},
		{"net.ipv4.tcp_tw_recycle", "6.18.44", false, "4396e46187ca"},
		{"net.core.netdev_budget", "2.4.17", false, "2.4.17"},
		{"net.core.netdev_budget", "2.4.20", true, "not established"},
		{"net.netfilter.nf_conntrack_max", "2.4.20", false, "ip_conntrack_max"},
		{"net.ipv4.tcp_rmem", "2.2.20", false, "rmem_default"},
		{"net.ipv4.tcp_rmem", "2.4.20", true, ""},
		{"net.core.rmem_max", "2.2.20", true, ""},
		{"net.ipv4.tcp_some_future_key", "2.4.20", true, "not recorded"},
	} {
		v, err := ParseKernelVersion(c.release)
		if err != nil {
			t.Fatal(err)
		}
		got, why := SysctlExists(c.key, v, v.Known)
		if got != c.want || !strings.Contains(why, c.whyHas) || why == "" {
			t.Errorf("SysctlExists(%s, %q) = %v, %q; want %v and a reason with %q", c.key, c.release, got, why, c.want, c.whyHas)
		}
		if strings.Contains(why, "\n") {
			t.Errorf("%s on %s: the reason must be one line: %q", c.key, c.release, why)
		}
	}
}

// TestSysctlSinceTable checks each entry against itself and against the key list: releases
// in order, a source for every bound, and a key some kernel has.
func TestSysctlSinceTable(t *testing.T) {
	removedRE := regexp.MustCompile(`removed in (\d+\.\d+)`)
	for _, k := range SysctlSinceKeys() {
		h, _ := LookupSysctlSince(k)
		if h.Source == "" {
			t.Errorf("%s: no source", k)
		}
		if !h.All && !h.AbsentBefore.Known && !h.Since.Known {
			t.Errorf("%s: neither a bound nor All: leave the key out rather than record nothing", k)
		}
		if h.AbsentBefore.Known && h.Since.Known && h.Since.Compare(h.AbsentBefore) < 0 {
			t.Errorf("%s: present from %s but absent before %s", k, h.Since, h.AbsentBefore)
		}
		if h.Gone.Known && (h.GoneSource == "" || (h.Since.Known && h.Gone.Compare(h.Since) <= 0)) {
			t.Errorf("%s: gone in %s needs a source and must follow %s", k, h.Gone, h.Since)
		}
		note, known := SysctlNote(k)
		if !known {
			t.Errorf("%s: not in sysctlkeys.txt", k)
		}
		// A removal is also told by sysctlkeys.txt's note: both must name the same release.
		if m := removedRE.FindStringSubmatch(note); m != nil || h.Gone.Known {
			if m == nil || !h.Gone.Known || m[1] != strconv.Itoa(h.Gone.Major)+"."+strconv.Itoa(h.Gone.Minor) {
				t.Errorf("%s: sysctlkeys.txt says %q, the history says gone in %s", k, note, h.Gone)
			}
		}
	}
}

// TestSysctlSinceCoversWrittenKeys: every key headroom may suggest or write has its history
// recorded, so a new key cannot be added to a rule, to plan or to tune's bounds without it.
// The keys are the ranges tune writes within (plan's bounds require one) and every key a
// rule's or plan's source puts in a change: a Key: field or an add(kind, key, ...) call.
func TestSysctlSinceCoversWrittenKeys(t *testing.T) {
	need := map[string]string{}
	for _, k := range SysctlRangeKeys() {
		need[k] = "kernel/sysctlrange.go"
	}
	for k, where := range changeKeysInSource(t, "../diagnose", "../plan") {
		need[k] = where
	}
	if len(need) < 30 {
		t.Fatalf("only %d keys found: the source scan is broken", len(need))
	}
	for k, where := range need {
		if _, ok := LookupSysctlSince(k); !ok {
			t.Errorf("%s (%s): no history in kernel/sysctlsince.go; record when it came (and went), or that 2.4.17 lacks it", k, where)
		}
	}
}

var sysctlKeyRE = regexp.MustCompile(`^(vm|net)\.[a-z0-9_]+(\.[a-z0-9_]+)*$`)

// changeKeysInSource returns the sysctl keys the non-test Go files of dirs write into a
// change: string literals in a Key: field, or the key argument of an add(kind, key, …) call.
func changeKeysInSource(t *testing.T, dirs ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	fset := token.NewFileSet()
	lit := func(e ast.Expr, where string) {
		bl, ok := e.(*ast.BasicLit)
		if !ok || bl.Kind != token.STRING {
			return
		}
		s, err := strconv.Unquote(bl.Value)
		if err == nil && sysctlKeyRE.MatchString(s) {
			out[s] = where
		}
	}
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no Go files in %s: %v", dir, err)
		}
		for _, fn := range files {
			if strings.HasSuffix(fn, "_test.go") {
				continue
			}
			src, err := os.ReadFile(fn)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(fset, fn, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.KeyValueExpr:
					if id, ok := x.Key.(*ast.Ident); ok && id.Name == "Key" {
						lit(x.Value, fset.Position(x.Pos()).String())
					}
				case *ast.CallExpr:
					if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "add" {
						for _, a := range x.Args {
							lit(a, fset.Position(x.Pos()).String())
						}
					}
				}
				return true
			})
		}
	}
	return out
}

// ip_conntrack's read-only count (net/ipv4/netfilter/ip_conntrack_standalone.c,
// ip_ct_sysctl_table "ip_conntrack_count", before nf_conntrack replaced it in 2.6.22) is a
// key of its era, not a misspelling (corpus 723).
func TestIPConntrackCountHistorical(t *testing.T) {
	if known, _ := KnownSysctl("/proc/sys/net/ipv4/netfilter/ip_conntrack_count"); !known {
		t.Error("net.ipv4.netfilter.ip_conntrack_count unknown")
	}
	if !SysctlKeyPrefix("net.ipv4.netfilter.ip_c") || SysctlKeyPrefix("net.ipv4.netfilter.ip_conntrack_count") || SysctlKeyPrefix("vm.min_kbytes") {
		t.Error("SysctlKeyPrefix")
	}
}
