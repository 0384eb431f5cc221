package judge_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"headroom/diagnose"
	"headroom/internal/testkit"
	"headroom/judge"
	"headroom/model"
)

// test-judge-probe fires on every window and says in its title which samples and kernel log
// records the window held, and whether its first sample had a swap-out rate.
func init() {
	diagnose.Register(diagnose.Rule{ID: "test-judge-probe", Title: "test", Family: diagnose.FamilyMemory, Check: func(tl *model.Timeline) diagnose.Result {
		if len(tl.Samples) == 0 {
			return diagnose.NotChecked("no samples")
		}
		sec := func(t time.Time) int { return int(t.Sub(t0) / time.Second) }
		var logs []string
		for _, l := range tl.Log.All() {
			logs = append(logs, l.Message)
		}
		_, rated := tl.Samples[0].Rates[model.RateSwapOutKBPerSec]
		return diagnose.Fired(diagnose.Finding{Severity: diagnose.Info,
			Title: fmt.Sprintf("%d..%d n=%d rated=%v log=%s", sec(tl.Samples[0].Time), sec(tl.Last().Time), len(tl.Samples), rated, strings.Join(logs, ","))})
	}})
}

// onlyTest runs the test rules alone, so that the registry's real rules (which may read the
// made-up samples) do not change the verdicts these tests count.
func onlyTest() map[string]bool {
	skip := map[string]bool{}
	for _, r := range diagnose.Rules() {
		if !strings.HasPrefix(r.ID, "test-") {
			skip[r.ID] = true
		}
	}
	return skip
}

func probeTitle(t *testing.T, v judge.Verdict) string {
	t.Helper()
	for _, f := range v.Diagnosis.Findings {
		if f.ID == "test-judge-probe" {
			return f.Title
		}
	}
	t.Fatalf("probe did not run: %+v", v.Diagnosis)
	return ""
}

// swapSample is sample i of a host whose pswpout counter is out(i).
func swapSample(i int, out func(i int) int) model.Sample {
	s := testkit.SwapRampSample(t0, i)
	s.VMStat = testkit.Counters("pswpin", 5, "pswpout", out(i), "pgscan_kswapd", 10*i)
	return s
}

func host() model.Host {
	var h model.Host
	h.Kernel = "6.6.15-amd64"
	h.SetPageSize(4096)
	return h
}

func TestBoundsDrop(t *testing.T) {
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Second) }
	now := at(9)
	for _, c := range []struct {
		b    judge.Bounds
		n    int
		want int
	}{
		{judge.Bounds{}, 10, 0},                                  // unbounded
		{judge.Bounds{Samples: 4}, 10, 6},                        // the newest 4 stay
		{judge.Bounds{Samples: 4}, 3, 0},                         // under the bound
		{judge.Bounds{Span: 3 * time.Second}, 10, 6},             // 6, 7, 8, 9: 6 is exactly 3 s old and stays
		{judge.Bounds{Span: time.Millisecond}, 10, 9},            // only the newest
		{judge.Bounds{Samples: 8, Span: 3 * time.Second}, 10, 6}, // the tighter bound wins
		{judge.Bounds{Samples: 2, Span: 3 * time.Second}, 10, 8},
		{judge.Bounds{Samples: 1}, 1, 0}, // the newest always stays
	} {
		if got := c.b.Drop(c.n, now.Add(time.Duration(c.n-10)*time.Second), at); got != c.want {
			t.Errorf("%+v of %d samples: drop %d, want %d", c.b, c.n, got, c.want)
		}
	}
}

// A window holds the last Bounds.Samples samples; the kernel log records logged from the
// sample before its first (the interval that leads to the first, whose rates it carries) and
// everything logged after its newest sample; nothing older.
func TestRunnerWindowBoundaries(t *testing.T) {
	r := judge.Runner{Bounds: judge.Bounds{Samples: 4}, Skip: onlyTest()}
	r.Begin(model.SourceInfo{Kind: model.SourceLive, Name: "test"}, host())
	flat := func(int) int { return 1000 }
	for i := 0; i < 10; i++ {
		s := swapSample(i, flat)
		r.Add(s)
		// A record half a second after each sample, read with the next interval's log.
		r.Log([]model.LogRecord{model.LogRecord{Message: fmt.Sprintf("L%d", i)}.WithTime(s.Time.Add(time.Second / 2))})
		v, ok := r.Judge()
		if i == 0 {
			if ok {
				t.Fatalf("a window of one sample was judged: %+v", v)
			}
			continue
		}
		first := max(0, i-3)
		var logs []string
		for k := max(0, first-1); k <= i; k++ {
			logs = append(logs, fmt.Sprintf("L%d", k))
		}
		if i < 4 {
			logs = logs[:0]
			for k := 0; k <= i; k++ {
				logs = append(logs, fmt.Sprintf("L%d", k))
			}
		}
		want := fmt.Sprintf("%d..%d n=%d rated=%v log=%s", first, i, i-first+1, first > 0, strings.Join(logs, ","))
		if got := probeTitle(t, v); got != want {
			t.Errorf("after sample %d: window %q, want %q", i, got, want)
		}
		if got := len(r.Samples()); got != i-first+1 {
			t.Errorf("after sample %d: Samples() holds %d", i, got)
		}
	}
	// By time: a window of 2.5 s holds the samples at most 2.5 s older than the newest.
	r = judge.Runner{Bounds: judge.Bounds{Span: 2500 * time.Millisecond}, Skip: onlyTest()}
	r.Begin(model.SourceInfo{Kind: model.SourceLive}, host())
	for i := 0; i < 6; i++ {
		r.Add(swapSample(i, flat))
	}
	v, _ := r.Judge()
	if got := probeTitle(t, v); got != "3..5 n=3 rated=true log=" {
		t.Errorf("2.5 s window: %q", got)
	}
}

// Windows judged one after another, each of 5 samples (tumbling): swap-out grows only in the
// interval that ends at sample 12, so the rule fires in the window of samples 10..14 alone;
// it starts there and stops in the next, and the growth is not carried into the next window.
func TestRunnerRuleFiresInOneWindowOnly(t *testing.T) {
	r := judge.Runner{Bounds: judge.Bounds{Samples: 5}, Skip: onlyTest()}
	r.Begin(model.SourceInfo{Kind: model.SourceLive}, host())
	out := func(i int) int {
		if i >= 12 {
			return 1256
		}
		return 1000
	}
	var fired []int
	for i := 0; i < 30; i++ {
		r.Add(swapSample(i, out))
		if i%5 != 4 {
			continue
		}
		v, ok := r.Judge()
		if !ok {
			t.Fatalf("window ending at %d not judged", i)
		}
		_, firing := v.Firing["test-record-swap-window"]
		started := slices.Contains(v.Started, "test-record-swap-window")
		stopped := slices.Contains(v.Stopped, "test-record-swap-window")
		switch {
		case i == 14:
			if !firing || !started || stopped {
				t.Errorf("window 10..14: firing %v started %v stopped %v", firing, started, stopped)
			}
		case i == 19:
			if firing || started || !stopped {
				t.Errorf("window 15..19: firing %v started %v stopped %v", firing, started, stopped)
			}
		default:
			if firing || started || stopped {
				t.Errorf("window ending at %d: firing %v started %v stopped %v", i, firing, started, stopped)
			}
		}
		if firing {
			fired = append(fired, i)
		}
		if slices.Contains(v.Started, "test-judge-probe") != (i == 4) {
			t.Errorf("window ending at %d: the probe, firing in every window, started %v", i, v.Started)
		}
	}
	if !slices.Equal(fired, []int{14}) {
		t.Errorf("fired in the windows ending at %v, want [14]", fired)
	}
}

// A counter reset between windows (another boot, a re-created interface) gives no rate
// across it, and the window that holds it judges only the growth it saw: the rule does not
// fire on the counter going from 5000 back to 3, and fires on the growth after it.
func TestRunnerCounterResetBetweenWindows(t *testing.T) {
	r := judge.Runner{Bounds: judge.Bounds{Samples: 5}, Skip: onlyTest()}
	r.Begin(model.SourceInfo{Kind: model.SourceLive}, host())
	out := func(i int) int {
		switch {
		case i < 10:
			return 5000
		case i < 17:
			return 3 // reset at sample 10
		}
		return 3 + 256*(i-16)
	}
	for i := 0; i < 25; i++ {
		r.Add(swapSample(i, out))
		if i == 10 {
			win := r.Samples()
			if v, ok := win[len(win)-1].Rates[model.RateSwapOutKBPerSec]; ok {
				t.Errorf("sample 10: swap-out rate %v across the reset", v)
			}
		}
		if i%5 != 4 {
			continue
		}
		v, _ := r.Judge()
		_, firing := v.Firing["test-record-swap-window"]
		if want := i >= 19; firing != want {
			t.Errorf("window ending at %d: firing %v, want %v", i, firing, want)
		}
	}
	win := r.Samples()
	if v := win[len(win)-1].Rates[model.RateSwapOutKBPerSec]; v != 1024 {
		t.Errorf("after the reset: swap-out %v kB/s, want 1024", v)
	}
}

// JudgeWindow judges a window kept elsewhere (serve's, tune --verify's) the same way, and
// Critical lists the ids of its critical findings.
func TestRunnerJudgeWindow(t *testing.T) {
	var r judge.Runner
	r.Skip = onlyTest()
	tl := &model.Timeline{Source: model.SourceInfo{Kind: model.SourceArchive}, Host: host()}
	for i := 0; i < 8; i++ {
		tl.Samples = append(tl.Samples, swapSample(i, func(i int) int { return 1000 + 256*i }))
	}
	judge.Finish(tl)
	v := r.JudgeWindow(tl)
	if !slices.Equal(v.Started, []string{"test-record-swap-window", "test-judge-probe"}) || len(v.Stopped) != 0 {
		t.Errorf("started %v stopped %v, want the warning before the info", v.Started, v.Stopped)
	}
	if c := v.Critical(); len(c) != 0 {
		t.Errorf("critical %v", c)
	}
	v = r.JudgeWindow(&model.Timeline{Host: host()})
	if !slices.Equal(v.Stopped, []string{"test-record-swap-window", "test-judge-probe"}) || len(v.Started) != 0 {
		t.Errorf("on an empty window: started %v stopped %v", v.Started, v.Stopped)
	}
}
