package diagnose

import (
	"strings"
	"testing"
	"time"

	"headroom/kernel"
	"headroom/model"
)

// counters builds kernel.Counters from name/value pairs.
func counters(kv ...any) kernel.Counters {
	var c kernel.Counters
	for i := 0; i+1 < len(kv); i += 2 {
		c.Set(kv[i].(string), int64(kv[i+1].(int)))
	}
	return c
}

func group(name string, kv ...any) kernel.Group {
	return kernel.Group{Name: name, Counters: counters(kv...)}
}

var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// timeline returns a live-like timeline with n empty samples one second apart.
func timeline(n int) *model.Timeline {
	tl := &model.Timeline{Source: model.SourceInfo{Kind: model.SourceLive, Name: "test"}}
	tl.Host.SetPageSize(4096)
	tl.Host.Sysctls = map[string]string{}
	for i := 0; i < n; i++ {
		tl.Samples = append(tl.Samples, model.Sample{Time: t0.Add(time.Duration(i) * time.Second), Source: "/proc"})
	}
	return tl
}

func run(t *testing.T, id string, tl *model.Timeline) Result {
	t.Helper()
	r, ok := Lookup(id)
	if !ok {
		t.Fatalf("rule %s not registered", id)
	}
	return r.Check(tl)
}

func mustFire(t *testing.T, res Result, sev Severity) Finding {
	t.Helper()
	if res.NotChecked != "" {
		t.Fatalf("not checked: %s", res.NotChecked)
	}
	if len(res.Findings) == 0 {
		t.Fatalf("did not fire (checked: %s)", res.Checked)
	}
	f := res.Findings[0]
	if f.Severity != sev {
		t.Fatalf("severity %v, want %v; evidence %+v", f.Severity, sev, f.Evidence)
	}
	if len(f.Evidence) == 0 {
		t.Fatal("finding without evidence")
	}
	return f
}

func mustBeHealthy(t *testing.T, res Result) {
	t.Helper()
	if res.NotChecked != "" {
		t.Fatalf("not checked: %s", res.NotChecked)
	}
	if len(res.Findings) > 0 {
		t.Fatalf("fired on healthy input: %+v", res.Findings)
	}
}

func mustNotCheck(t *testing.T, res Result, mention string) {
	t.Helper()
	if res.NotChecked == "" {
		t.Fatalf("expected not checked, got findings=%d checked=%q", len(res.Findings), res.Checked)
	}
	if !strings.Contains(res.NotChecked, mention) {
		t.Fatalf("not-checked reason %q does not mention %q", res.NotChecked, mention)
	}
}

func evidenceHas(f Finding, what, value string) bool {
	for _, e := range f.Evidence {
		if strings.Contains(e.What, what) && strings.Contains(e.Value, value) {
			return true
		}
	}
	return false
}
