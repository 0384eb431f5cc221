package lab

import (
	"context"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"headroom/internal/contention"
	"headroom/kernel"
	"headroom/lab/netlab"
	"headroom/model"
	"headroom/tune"
)

// lfpVerify is the long fat pipe of the --verify tests (100 Mbit/s, 125 ms RTT) under a load
// of transfers from a to b, each a new connection (a lowered tcp_rmem maximum does not
// shrink an established socket's buffer: tcp_rcv_space_adjust only grows sk_rcvbuf,
// net/ipv4/tcp_input.c), with the guards sampled in b's namespace. b starts with a 128 KiB
// tcp_rmem maximum.
type lfpVerify struct {
	t        *testing.T
	a, b     *netlab.Host
	lk       *netlab.Link
	rmem     model.Change // headroom's tcp_rmem for the link
	state    string
	stop     func()
	loadErrs func() []string
}

// harmfulRmem is the deliberately harmful change: 64 KiB on a 1.56 MB BDP.
var harmfulRmem = model.Change{Kind: model.ChangeSysctl, Key: "net.ipv4.tcp_rmem", Recommended: "4096 65536 65536", Why: "deliberately harmful: 64 KiB on a 1.56 MB BDP", Rule: "test"}

func newLFPVerify(t *testing.T) *lfpVerify {
	t.Helper()
	_, a, b, lk := pair(t, netlab.LinkSpec{RateBitsPerSec: 100e6, Shaper: netlab.ShaperHTB, OneWayDelay: 125 * time.Millisecond / 2, Delay: netlab.DelayAuto, Seed: 1})
	// The sender's buffers are not what is judged: give it room for the BDP (1.56 MB).
	if err := a.Do(func() error { return netlab.WriteSysctl("net.ipv4.tcp_wmem", "4096 16384 16777216") }); err != nil {
		t.Fatal(err)
	}
	if err := b.Do(func() error { return netlab.WriteSysctl("net.ipv4.tcp_rmem", "4096 65536 131072") }); err != nil {
		t.Fatal(err)
	}
	settings, err := headroomSettings(100e6, 125*time.Millisecond, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	p := &lfpVerify{t: t, a: a, b: b, lk: lk, state: t.TempDir()}
	for _, c := range settings {
		if c.Kind == model.ChangeSysctl && c.Key == "net.ipv4.tcp_rmem" {
			p.rmem = c
		}
	}
	if p.rmem.Key == "" {
		t.Fatalf("headroom's plan for 100 Mbit/s × 125 ms has no tcp_rmem: %+v", settings)
	}

	// The load: three staggered loops of back-to-back 1.5 s transfers until stopped, so that
	// some connection is always in slow start and some at its window: one loop alone swings
	// between connection set-up and full window within a sampling interval.
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var mu sync.Mutex
	var loadErrs []string
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Duration(i) * 500 * time.Millisecond):
			}
			for ctx.Err() == nil {
				_, err := netlab.RunBulk(ctx, a, b, lk.AddrB, netlab.BulkConfig{Streams: 1, Warmup: 100 * time.Millisecond, Measure: 1400 * time.Millisecond, Port: 5101 + i})
				if err != nil && ctx.Err() == nil {
					mu.Lock()
					loadErrs = append(loadErrs, err.Error())
					mu.Unlock()
					time.Sleep(200 * time.Millisecond)
				}
			}
		}()
	}
	p.stop = func() { stop(); wg.Wait() }
	p.loadErrs = func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), loadErrs...) }
	t.Cleanup(p.stop)
	time.Sleep(2 * time.Second) // the first transfers are under way
	return p
}

// verify applies c in b's namespace with --verify's windows: 5 s sampled every 500 ms,
// short because the machine is shared, extended up to 15 s while a figure is undecided.
func (p *lfpVerify) verify(c model.Change) (*tune.Entry, *tune.Verification) {
	t := p.t
	t.Helper()
	limits, err := tune.ReadLimits(kernel.HostRoot())
	if err != nil {
		t.Fatal(err)
	}
	fs, err := tune.OpenNetns(p.b.Netns())
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	j, err := tune.OpenJournal(p.state)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	// AllowLower: the harmful change lowers tcp_rmem, which tune refuses without it.
	ap := &tune.Applier{FS: fs, Netns: p.b.Netns(), Journal: j, Limits: limits, AllowLower: true}
	rb := &tune.Rollbacker{Journal: j, Limits: limits, OpenFS: func(string) (tune.SysctlFS, func(), error) { return fs, func() {}, nil }}
	rec := tune.HostRecorder{Dir: "/", Netns: p.b.Netns()}
	v := &tune.Verifier{Window: 5 * time.Second, Interval: 500 * time.Millisecond, Record: rec.Record}
	e, _, ver, err := v.ApplyVerified(context.Background(), ap, rb, []model.Change{c})
	if err != nil || e == nil || ver == nil {
		t.Fatalf("apply --verify %s=%s: %v (entry %+v)", c.Key, c.Recommended, err, e)
	}
	var sb strings.Builder
	tune.WriteVerification(&sb, ver)
	t.Logf("%s → %s: entry %d %s\n%s", c.Key, c.Recommended, e.ID, e.State, sb.String())
	return e, ver
}

func figure(t *testing.T, ver *tune.Verification, id string) tune.Figure {
	t.Helper()
	for _, f := range ver.Figures {
		if f.Guard == id {
			return f
		}
	}
	t.Fatalf("no %s figure in %+v", id, ver.Figures)
	return tune.Figure{}
}

// largeLosses lists the figures of ver that measured a loss of more than tune.LargeChange
// of their baseline, by at least their floor: what --verify must never keep (issue 27).
func largeLosses(ver *tune.Verification) []string {
	var out []string
	for _, f := range ver.Figures {
		if !f.Measured() || !f.Loss || f.Before == 0 {
			continue
		}
		if d := math.Abs(f.After - f.Before); d >= f.Floor && d > tune.LargeChange*math.Abs(f.Before) {
			out = append(out, f.Describe())
		}
	}
	return out
}

// TestTuneVerifyOnLongFatPipe runs `tune --apply --verify` end to end on the long fat pipe:
//
//   - headroom's tcp_rmem for the link, on a receiver that starts with a 128 KiB maximum, is
//     kept, with the measured delivery rate up beyond noise;
//   - tcp_rmem max 64 KiB, a deliberately harmful change, is rolled back automatically, by
//     the delivery figure: worse beyond noise, or, when other jobs on the machine widen the
//     margin, a loss of more than 25 % inside it (undecided, never kept); the transfers
//     recover. b only receives, so the senders' tcpi_delivery_rate is not b's to measure:
//     that figure must say "not measured", never "same".
//
// The effects are ten-fold. Under load (another job spinning on each CPU) the baseline's
// spread widens the margin; the after window is then extended (up to 15 s) while a figure
// is undecided.
func TestTuneVerifyOnLongFatPipe(t *testing.T) {
	needRoot(t)
	if testing.Short() {
		t.Skip("lab: tune --verify on the long fat pipe takes about 40 s; skipped with -short")
	}
	meter := contention.Start()
	p := newLFPVerify(t)

	e, ver := p.verify(p.rmem)
	in := figure(t, ver, "delivered-in")
	flows := figure(t, ver, "flow-receive")
	t.Logf("headroom's tcp_rmem: busiest receiving flows %s → %s (%s)", flows.Show(flows.Before), flows.Show(flows.After), flows.Verdict)
	switch {
	case ver.Decision != "kept" || e.State != tune.StateApplied:
		meter.Fail(t, "headroom's tcp_rmem %s was not kept: %s, tripped by %q, undecided %q", p.rmem.Recommended, ver.Summary(), ver.Tripped, ver.Undecided)
	case in.Verdict != tune.VerdictBetter:
		// Better beyond the noise margin, which widens with the load; the size of the gain
		// is the machine's (1.5 → 10 MB/s idle, 1 → 5.3 MB/s with four processes spinning).
		meter.Fail(t, "headroom's tcp_rmem: delivery %s → %s (%s), want better beyond noise", in.Show(in.Before), in.Show(in.After), in.Verdict)
	}

	e, ver = p.verify(harmfulRmem)
	in = figure(t, ver, "delivered-in")
	if ver.Decision != "rolled-back" || e.State != tune.StateRolledBack {
		t.Errorf("tcp_rmem max 64 KiB was %s (entry %s): delivery %s → %s", ver.Summary(), e.State, in.Show(in.Before), in.Show(in.After))
	} else if !(in.Verdict == tune.VerdictWorse || (in.Verdict == tune.VerdictUndecided && in.Loss)) ||
		!strings.Contains(strings.Join(append(ver.Tripped, ver.Undecided...), "\n"), "IP bytes delivered in") {
		t.Errorf("rolled back, but not by the delivery figure: tripped %q, undecided %q", ver.Tripped, ver.Undecided)
	}
	// The per-flow figure misses what each short connection receives after its last dump,
	// which makes it noisy enough that its margin may hold even a 94 % fall (5.74 → 0.363
	// MB/s against a margin of 11.5 MB/s in one run): it must not call the harm better, and
	// the log says what it called it.
	flows = figure(t, ver, "flow-receive")
	t.Logf("tcp_rmem max 64 KiB: busiest receiving flows %s", flows.Describe())
	if flows.Verdict == tune.VerdictBetter {
		t.Errorf("the busiest receiving flows call the harmful change better: %s", flows.Describe())
	}
	if d := figure(t, ver, "flow-delivery"); d.Verdict != tune.VerdictUnknown || !strings.Contains(d.Describe(), "not measured") {
		t.Errorf("b only receives, yet its flows' delivery rate was judged: %s", d.Describe())
	}
	// After the rollback the new connections get headroom's buffers again: delivery is back.
	p.stop()
	if errs := p.loadErrs(); len(errs) > 0 {
		t.Logf("load errors: %s", strings.Join(errs, "; "))
	}
	res, err := netlab.RunBulk(context.Background(), p.a, p.b, p.lk.AddrB, netlab.BulkConfig{Streams: 1, Warmup: 100 * time.Millisecond, Measure: 1400 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	// One transfer against one of the three loops' share of the harmful window.
	got, perLoop := res.TotalBitsPerSec/8, in.After/3
	t.Logf("after the rollback: one transfer delivers %.2f MB/s; each loop of the harmful window %.2f MB/s", got/1e6, perLoop/1e6)
	if got < 3*perLoop {
		meter.Fail(t, "after the rollback a transfer delivers %.2f MB/s, not clearly above the %.2f MB/s per connection of the harmful window", got/1e6, perLoop/1e6)
	}
}

// burnCPUs starts perCPU "cpu-burn" helpers pinned to each CPU this process may run on (the
// other jobs of a shared machine, at normal priority) and stops them when the test ends;
// Pdeathsig kills them with a killed test.
func burnCPUs(t *testing.T, perCPU int) int {
	t.Helper()
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		t.Fatal(err)
	}
	n := 0
	for cpu := 0; cpu < 1024; cpu++ {
		if !set.IsSet(cpu) {
			continue
		}
		for i := 0; i < perCPU; i++ {
			h, err := netlab.StartHelper(nil, "cpu-burn", cpuBurnConfig{CPU: cpu}, nil, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(h.Kill)
			n++
		}
	}
	return n
}

// Issue 27 item 4: with the machine loaded on purpose (two processes spinning on each CPU at
// normal priority, as the two other jobs were when --verify kept tcp_rmem max 64 KiB with
// delivery down 53 %), --verify never keeps a change whose measured effect is a loss of
// more than 25 %. The harmful change is verified twice on top of headroom's buffers (a
// five- to tenfold fall of what the window allows), and must not be kept; headroom's
// buffers are then verified from the 128 KiB start, and whatever is decided, no loss over
// 25 % is kept.
func TestTuneVerifyUnderLoadNeverKeepsALoss(t *testing.T) {
	needRoot(t)
	if testing.Short() {
		t.Skip("lab: tune --verify under CPU load takes about 60 s; skipped with -short")
	}
	p := newLFPVerify(t)
	// Started after the lab, so that they are stopped first (cleanups run last in, first
	// out) and the teardown runs unloaded.
	burners := burnCPUs(t, 2)
	t.Logf("%d cpu-burn helpers spinning", burners)
	setRmem := func(v string) {
		if err := p.b.Do(func() error { return netlab.WriteSysctl("net.ipv4.tcp_rmem", v) }); err != nil {
			t.Fatal(err)
		}
	}
	check := func(run string, c model.Change) (*tune.Entry, *tune.Verification) {
		e, ver := p.verify(c)
		if losses := largeLosses(ver); ver.Decision == "kept" && len(losses) > 0 {
			t.Errorf("%s: %s=%s kept (%s) with a measured loss over 25 %%:\n  %s", run, c.Key, c.Recommended, ver.Summary(), strings.Join(losses, "\n  "))
		}
		return e, ver
	}
	setRmem(p.rmem.Recommended)
	time.Sleep(2 * time.Second) // the transfers under way get headroom's buffers
	for _, run := range []string{"harmful 1", "harmful 2"} {
		e, ver := check(run, harmfulRmem)
		if ver.Decision == "kept" || e.State != tune.StateRolledBack {
			in := figure(t, ver, "delivered-in")
			t.Errorf("%s: tcp_rmem max 64 KiB on top of headroom's %s: %s (entry %s); delivery %s", run, p.rmem.Recommended, ver.Summary(), e.State, in.Describe())
		}
	}
	setRmem("4096 65536 131072")
	time.Sleep(2 * time.Second)
	_, ver := check("headroom's", p.rmem)
	t.Logf("headroom's tcp_rmem under load: %s", ver.Summary())
}
