package diagnose

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"headroom/artifact"
	"headroom/internal/testkit"
	"headroom/kernel"
	"headroom/model"
)

// counters builds kernel.Counters from name/value pairs.
func counters(kv ...any) kernel.Counters { return *testkit.Counters(kv...) }

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

func softnet(dropped ...int64) []kernel.SoftnetCPU {
	var out []kernel.SoftnetCPU
	for i, d := range dropped {
		out = append(out, kernel.SoftnetCPU{CPU: i, Columns: 13, Processed: 1000, Dropped: d})
	}
	return out
}

func netdev(name string, kv ...any) kernel.NetDev {
	return kernel.NetDev{Name: name, Counters: counters(kv...)}
}

func buddy(zone string, free ...int64) kernel.BuddyZone {
	return kernel.BuddyZone{Node: 0, Zone: zone, Free: free}
}

// mention is a setting a text names.
func mention(key, value, form string, line int) model.SettingMention {
	return model.SettingMention{Key: key, Value: value, Form: form, Line: line, Source: fmt.Sprintf("line %d", line)}
}

// host32 makes tl a 32-bit HighMem host: 8 GiB of RAM, 896 MiB of lowmem (seed 004's box).
func host32(tl *model.Timeline) {
	tl.Host.Arch = "i686"
	tl.Host.WordBits = 32
	tl.Host.MemTotalKB = 8 << 20
	tl.Host.LowTotalKB = 896 << 10
	hm := true
	tl.Host.HighMem = &hm
}

// host64 makes tl this project's reference machine: x86_64, 24 GiB, 6.18.
func host64(tl *model.Timeline) {
	tl.Host.Arch = "x86_64"
	tl.Host.WordBits = 64
	tl.Host.Kernel = "6.18.44"
	tl.Host.MemTotalKB = 24684084
}

func sockets(state string, n int, recvQ, sendQ int64) []kernel.Socket {
	var out []kernel.Socket
	for i := 0; i < n; i++ {
		out = append(out, kernel.Socket{State: state, Local: fmt.Sprintf("10.0.0.1:%d", 40000+i), Remote: "10.0.0.2:20003", RecvQ: recvQ, SendQ: sendQ})
	}
	return out
}

// vmstatRow is one pasted vmstat row as artifact fills it: rates only, no clock.
func vmstatRow(r, in, cs, us, sy, id float64) model.Sample {
	return model.Sample{Source: "vmstat", Rates: model.Rates{
		model.RateRunnable: r, model.RateIntrPerSec: in, model.RateCtxtPerSec: cs,
		model.RateCPUUserPct: us, model.RateCPUSystemPct: sy, model.RateCPUIdlePct: id,
	}}
}

// pasted builds a text timeline of vmstat tables, one segment each.
func pasted(tables []string, rows ...[]model.Sample) *model.Timeline {
	tl := &model.Timeline{Source: model.SourceInfo{Kind: model.SourceText, Name: "test"}}
	tl.Host.Sysctls = map[string]string{}
	for i, rs := range rows {
		first := len(tl.Samples)
		tl.Samples = append(tl.Samples, rs...)
		tl.Segments = append(tl.Segments, model.Segment{Name: "vmstat table", Kind: "vmstat", First: first, Last: len(tl.Samples) - 1, Label: tables[i]})
	}
	return tl
}

func repeat(n int, s model.Sample) []model.Sample {
	out := make([]model.Sample, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func parseSeed(t *testing.T, prefix string) *model.Timeline {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "seeds", prefix+"_*.txt"))
	if err != nil || len(files) != 1 {
		t.Fatalf("seed %s: %v %v", prefix, files, err)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tl, err := artifact.Parse(f, filepath.Base(files[0]), artifact.Options{})
	if err != nil {
		t.Fatalf("parse %s: %v", files[0], err)
	}
	return tl
}

// findings returns the findings of one rule over the whole registry run.
func findings(d Diagnosis, id string) []Finding {
	var out []Finding
	for _, f := range d.Findings {
		if f.ID == id {
			out = append(out, f)
		}
	}
	return out
}

func mustHave(t *testing.T, d Diagnosis, id string, min Severity) []Finding {
	t.Helper()
	fs := findings(d, id)
	if len(fs) == 0 {
		for _, c := range d.Checks {
			if c.ID == id {
				t.Fatalf("%s did not fire: %s %s", id, c.Status, c.Why)
			}
		}
		t.Fatalf("%s did not run", id)
	}
	if fs[0].Severity < min {
		t.Errorf("%s severity %v, want at least %v", id, fs[0].Severity, min)
	}
	return fs
}

func memSeed(t *testing.T, name string) (*model.Timeline, Diagnosis) {
	t.Helper()
	tl := memParseFile(t, "../testdata/seeds/"+name)
	return tl, Run(tl, nil)
}

// memParseFile reads a text file as `headroom doctor FILE` does.
func memParseFile(t *testing.T, path string) *model.Timeline {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tl, err := artifact.Parse(f, filepath.Base(path), artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func memFinding(t *testing.T, d Diagnosis, id string) Finding {
	t.Helper()
	for _, f := range d.Findings {
		if f.ID == id {
			return f
		}
	}
	for _, c := range d.Checks {
		if c.ID == id {
			t.Fatalf("%s did not fire: %s %s", id, c.Status, c.Why)
		}
	}
	t.Fatalf("%s not run", id)
	return Finding{}
}

func memCheck(d Diagnosis, id string) Check {
	for _, c := range d.Checks {
		if c.ID == id {
			return c
		}
	}
	return Check{}
}

// mustBeHealthyNaming: healthy, and the text names what was not read (want) and makes none of
// the claims in not (they rest on counters the input did not hold).
func mustBeHealthyNaming(t *testing.T, res Result, want string, not ...string) {
	t.Helper()
	mustBeHealthy(t, res)
	if !strings.Contains(res.Checked, want) {
		t.Errorf("healthy text %q does not name %q", res.Checked, want)
	}
	for _, n := range not {
		if strings.Contains(res.Checked, n) {
			t.Errorf("healthy text %q claims %q, which was not read", res.Checked, n)
		}
	}
}

// pasteTimeline reads a pasted snippet (a few real lines of a corpus case) as the CLI does.
func pasteTimeline(t *testing.T, text string) *model.Timeline {
	t.Helper()
	tl, err := artifact.Parse(strings.NewReader(text), "snippet", artifact.Options{})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	tl.DeriveRates()
	return tl
}
