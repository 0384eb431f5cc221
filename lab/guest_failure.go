package lab

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"headroom/lab/netlab"
	"headroom/lab/vm"
	"headroom/model"
)

// Guest failure scenarios (issue 28 items 2 and 3): a seed's failure reproduced on a real
// kernel in a QEMU guest under real memory pressure (Debian's 6.1 kernels have no fault
// injection), named by headroom's doctor inside the guest, and stopped by headroom's plan.
// Each runs two guests of the same kernel, memory and load:
//
//   - "before": the seed's configuration, the load, until the kernel prints its failure
//     (or the load ends); then doctor (live, JSON) and plan inside the same guest;
//   - "after": the seed's configuration, then the plan's settings (as the "before" guest's
//     plan computed them, for that guest), the same load, and no failure may appear.
//
// A fresh guest for "after" keeps the first run's kernel log, fragmentation and killed
// processes out of the second. The load: the host side of the tap (the run's namespace)
// opens TCP streams into the guest-sink helper (guest_sink.go), which reads them in the
// scenario's phases; the scenario's setup adds what else fills the guest's memory.

// guestFailureSpec is one guest failure scenario.
type guestFailureSpec struct {
	name      string
	memoryMiB int
	modules   []string
	mtu       int
	rxQueue   int       // virtio-net RX ring (vm.NIC.RxQueueSize)
	disks     []vm.Disk // the guest's disks
	// setup is the guest's sh that applies the seed's configuration and starts the
	// background load (it runs in both guests, before the plan is applied in "after").
	setup   string
	streams int
	sink    guestSinkConfig
	// planArgs are headroom plan's arguments inside the "before" guest (its own host facts);
	// planKeys the sysctl keys of the plan applied in "after" (nil: all of them).
	planArgs []string
	planKeys []string
	// expect: doctor must name at least one of these finding ids.
	expect []string
	// loadTimeout bounds the load of one guest (connect, phases).
	loadTimeout time.Duration
	// attempts: how many "before" guests may be tried until one reproduces (default 1).
	attempts int
	// trace: the "before" guest records its load with `record --trace` (the kernel's drop
	// reasons and stall times through the failure) and doctor reads the recording after.
	trace bool
}

// guestSinkPort is the sink's TCP port in the guest.
const guestSinkPort = 5001

// Console markers of the failure scenarios' scripts (the host waits for them).
const (
	markLoadReady = "HR-GUEST-LOAD-READY"
	markLoadDone  = "HR-GUEST-LOAD-DONE"
)

// GuestFailureRun is one guest of a failure scenario.
type GuestFailureRun struct {
	Phase    string  `json:"phase"`             // before, after
	Attempt  int     `json:"attempt,omitempty"` // which "before" guest this was (1, 2, ...)
	BootSec  float64 `json:"boot_seconds"`
	RunSec   float64 `json:"run_seconds"`
	ExitCode int     `json:"exit_code"`
	// Settings are the sysctl settings this guest ran with beyond the seed's (the plan's).
	Settings []string `json:"settings,omitempty"`
	// Failures are the guest kernel's own failure lines (allocation failures, OOM kills,
	// "TCP: out of memory") with the first lines of each report, as its kernel log has them.
	Failures       []string         `json:"failures"`
	AllocFailures  int              `json:"alloc_failures"`
	OOMKills       int              `json:"oom_kills"`
	Sink           *guestSinkResult `json:"sink,omitempty"`
	SentBytes      int64            `json:"sent_bytes"`
	SendSec        float64          `json:"send_seconds"`
	SendBitsPerSec float64          `json:"send_bits_per_sec"`
	Error          string           `json:"error,omitempty"`
	// Evidence is what the guest recorded of its memory while the load ran and after it
	// (guestEvidenceFiles: meminfo and zoneinfo at the end, samples every 2 s) and its
	// whole kernel log: the figures plan's reserve is judged on (docs/plan.md), kept with
	// the run so they can become test data.
	Evidence map[string]string `json:"evidence,omitempty"`
}

// guestEvidenceFiles are the files of $OUT a failure guest's run keeps as evidence.
var guestEvidenceFiles = []string{"meminfo-end.txt", "zoneinfo-end.txt", "sysctl-end.txt", "samples.txt", "plan.json"}

// guestEvidence collects a run's evidence, each file at most maxEvidence bytes (the tail:
// the end of a kernel log or of the samples is what matters).
func guestEvidence(res *vm.Result) map[string]string {
	const maxEvidence = 512 << 10
	tail := func(b []byte) string {
		if len(b) > maxEvidence {
			b = b[len(b)-maxEvidence:]
		}
		return string(b)
	}
	ev := map[string]string{}
	for _, f := range guestEvidenceFiles {
		if b := res.Files[f]; len(b) > 0 {
			ev[f] = tail(b)
		}
	}
	if res.Dmesg != "" {
		ev["dmesg"] = tail([]byte(res.Dmesg))
	}
	return ev
}

// GuestFailureDetails is a failure scenario's part of the guest report.
type GuestFailureDetails struct {
	Before *GuestFailureRun `json:"before"`
	// Attempts are every "before" guest booted (Before is the last of them).
	Attempts   []*GuestFailureRun `json:"attempts"`
	After      *GuestFailureRun   `json:"after,omitempty"`
	Reproduced bool               `json:"reproduced"`
	// Doctor's verdict inside the "before" guest.
	FindingIDs []string         `json:"finding_ids"`
	Findings   []readersFinding `json:"findings"`
	RootCauses []string         `json:"root_causes"`
	Chains     [][]string       `json:"chains"` // each chain's finding ids, root first
	Named      []string         `json:"named"`  // the expected ids doctor named
	// Plan is the plan's sysctl drop-in computed in the "before" guest; Applied the part of
	// it the "after" guest ran with.
	Plan    string   `json:"plan"`
	Applied []string `json:"applied"`
	Stopped bool     `json:"stopped"`
	// Trace is the "before" guest's traced load (guestFailureSpec.trace), as doctor read it
	// from the recording.
	Trace *GuestTrace `json:"trace,omitempty"`
}

// GuestTrace is what the kernel's tracepoints said through a guest's load.
type GuestTrace struct {
	Window *model.TraceWindow `json:"window"`
	// Cited are the findings whose first evidence is a traced count ("tracepoint ...").
	Cited []string `json:"cited"`
	// PFMemallocDrop is TcpExt PFMemallocDrop's growth over the load: before 6.17 the
	// kernel frees such a packet as SOCKET_FILTER (tcp_v4_rcv after tcp_filter).
	PFMemallocDrop int64  `json:"pfmemalloc_drop"`
	Error          string `json:"error,omitempty"`
}

// readGuestTrace reads the traced load of a "before" guest.
func readGuestTrace(res *vm.Result) *GuestTrace {
	gt := &GuestTrace{PFMemallocDrop: -1}
	var doc struct {
		Trace    *model.TraceWindow `json:"trace"`
		Findings []struct {
			ID       string `json:"id"`
			Evidence []struct {
				Source string `json:"source"`
			} `json:"evidence"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(res.Files["doctor-trace.json"], &doc); err != nil || doc.Trace == nil {
		gt.Error = fmt.Sprintf("no traced window (record: %s; doctor: %s)", strings.TrimSpace(string(res.Files["record.err"])), strings.TrimSpace(string(res.Files["doctor-trace.err"])))
		return gt
	}
	gt.Window = doc.Trace
	for _, f := range doc.Findings {
		if len(f.Evidence) > 0 && strings.HasPrefix(f.Evidence[0].Source, "tracepoint") {
			gt.Cited = append(gt.Cited, f.ID)
		}
	}
	a, ok1 := netstatValue(string(res.Files["netstat-start.txt"]), "TcpExt:", "PFMemallocDrop")
	b, ok2 := netstatValue(string(res.Files["netstat-end.txt"]), "TcpExt:", "PFMemallocDrop")
	if ok1 && ok2 {
		gt.PFMemallocDrop = b - a
	}
	return gt
}

// netstatValue reads one counter of /proc/net/netstat's text (a header line, then values).
func netstatValue(text, group, name string) (int64, bool) {
	var head []string
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		if len(f) == 0 || f[0] != group {
			continue
		}
		if head == nil {
			head = f
			continue
		}
		if i := slices.Index(head, name); i > 0 && i < len(f) {
			v, err := strconv.ParseInt(f[i], 10, 64)
			return v, err == nil
		}
		return 0, false
	}
	return 0, false
}

func (s *guestFailureSpec) script(phase string) string {
	var b strings.Builder
	b.WriteString("set -u\n# the shell and its later children (doctor, plan) stay out of the OOM killer's way\necho -1000 > /proc/self/oom_score_adj\n")
	b.WriteString(s.setup)
	// Evidence: the memory's make-up every 2 s while the load runs (what reclaim can and
	// cannot free, the zone's free pages against its watermarks, TCP's pages).
	b.WriteString(`( while :; do { echo "t $(cut -d' ' -f1 /proc/uptime)"; grep -E '^(MemFree|Cached|Dirty|Writeback|AnonPages|Shmem|Unevictable|Mlocked|SUnreclaim|KernelStack|PageTables|Active\(file\)|Inactive\(file\)):' /proc/meminfo; grep -A5 'zone *DMA32' /proc/zoneinfo | grep -E 'free|min|low|high'; grep TCP: /proc/net/sockstat; } >> $OUT/samples.txt; sleep 2; done ) &
sampler=$!
`)
	if phase == "after" {
		b.WriteString("sysctl -p /etc/headroom/plan.conf > $OUT/applied.txt 2>&1 || { echo 'applying the plan failed' >&2; cat $OUT/applied.txt >&2; exit 1; }\n")
	}
	cfg := s.sink
	cfg.Listen = fmt.Sprintf(":%d", guestSinkPort)
	cfg.Streams = s.streams
	cfg.ResultFile = "/share/out/sink.json"
	cfg.ProgressTag = "HR-GUEST-SINK"
	cj, _ := json.Marshal(cfg)
	if s.trace && phase == "before" {
		// The kernel's drop reasons through the load: a recorder with its traced window,
		// its counts written every 5 s (so a recorder the OOM killer ends leaves most of them).
		b.WriteString(`mkdir -p /sys/kernel/tracing && mount -t tracefs nodev /sys/kernel/tracing
cat /proc/net/netstat > $OUT/netstat-start.txt
headroom record -o $OUT/trace.jsonl.gz --interval 2s --sockets=false --trace --trace-every 5s 2> $OUT/record.err &
rec=$!
`)
	}
	// Spares the OOM killer may take after the sink: a victim's mm is reaped and marked done
	// (MMF_OOM_SKIP, mm/oom_kill.c oom_reap_task) before do_exit closes its files, so its
	// sockets' memory is freed a moment after the kill. An allocation that invokes the OOM
	// killer in that gap (virtio_net's refill_work) with nothing left to kill panics the guest
	// ("Out of memory and no killable processes", out_of_memory); a spare's kill gives the
	// sockets that moment. Seen on this lab's 686-pae guest under a loaded host, two tries of
	// two.
	b.WriteString(`for i in 1 2 3; do ( echo 0 > /proc/self/oom_score_adj; exec sleep 100000 ) & done
`)
	fmt.Fprintf(&b, `# the receiving application: killable by the OOM killer like any service
( echo 0 > /proc/self/oom_score_adj; HEADROOM_LAB_HELPER=guest-sink HEADROOM_LAB_HELPER_CONFIG=%s exec headroom > $OUT/sink.out 2>&1 ) &
sink=$!
i=0
while ! netstat -ltn 2>/dev/null | grep -q ':%d '; do
	i=$((i+1)); [ $i -lt 600 ] || { echo "the sink did not listen" >&2; exit 1; }
	sleep 0.1
done
echo %s > /dev/console
wait $sink
echo "sink exit $?" > $OUT/sink.rc
kill $sampler 2>/dev/null
cat /proc/meminfo > $OUT/meminfo-end.txt; cat /proc/zoneinfo > $OUT/zoneinfo-end.txt
sysctl vm.min_free_kbytes vm.watermark_scale_factor vm.watermark_boost_factor vm.dirty_ratio vm.dirty_background_ratio net.ipv4.tcp_mem net.ipv4.tcp_rmem net.core.rmem_max > $OUT/sysctl-end.txt 2>&1
echo %s > /dev/console
`, shQuoteLab(string(cj)), guestSinkPort, markLoadReady, markLoadDone)
	if s.trace && phase == "before" {
		b.WriteString(`cat /proc/net/netstat > $OUT/netstat-end.txt
kill -INT $rec; wait $rec; echo $? > $OUT/record.rc
headroom doctor --from $OUT/trace.jsonl.gz --format json > $OUT/doctor-trace.json 2> $OUT/doctor-trace.err
`)
	}
	if phase == "before" {
		b.WriteString("headroom doctor --format json > $OUT/doctor.json 2> $OUT/doctor.err\necho $? > $OUT/doctor.rc\n")
		fmt.Fprintf(&b, "headroom plan %s --format sysctl > $OUT/plan.conf 2> $OUT/plan.err\necho $? > $OUT/plan.rc\n", strings.Join(s.planArgs, " "))
		fmt.Fprintf(&b, "headroom plan %s --format json > $OUT/plan.json 2>/dev/null\n", strings.Join(s.planArgs, " "))
	}
	return b.String()
}

// shQuoteLab quotes s for sh.
func shQuoteLab(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// runGuestFailure runs both guests and judges them.
func runGuestFailure(ctx context.Context, s *guestFailureSpec, o GuestOptions) (*GuestReport, error) {
	k, err := vm.LookupKernel(o.Kernel)
	if err != nil {
		return nil, err
	}
	rep := &GuestReport{Scenario: s.name, Kernel: k.Stat(vm.CacheDir())}
	d := &GuestFailureDetails{}
	rep.Details = d
	started := time.Now()
	fail := func(run *GuestFailureRun, res *vm.Result, err error) (*GuestReport, error) {
		rep.Error = err.Error()
		if res != nil {
			rep.Console = res.Console
		}
		rep.RunSec = time.Since(started).Seconds()
		return rep, err
	}
	// A failure that comes from timing (atomic-rx-refill) may not come in one guest: up to
	// s.attempts "before" guests, each reported; the first that reproduces is the one doctor
	// and the plan speak for.
	var before *GuestFailureRun
	var res *vm.Result
	for i := 1; i <= max(s.attempts, 1); i++ {
		before, res, err = s.runOne(ctx, o, "before", nil)
		before.Attempt = i
		d.Attempts = append(d.Attempts, before)
		if res != nil && rep.Accel == "" {
			rep.Accel, rep.BootSec = res.Accel.Accel, res.BootTime.Seconds()
		}
		if err != nil || before.AllocFailures > 0 || before.OOMKills > 0 {
			break
		}
		if i < max(s.attempts, 1) {
			o.Progress(fmt.Sprintf("%s: before guest %d of %d: no failure in its load; another guest", s.name, i, s.attempts))
		}
	}
	d.Before = before
	if err != nil {
		return fail(before, res, err)
	}
	d.Reproduced = before.AllocFailures > 0 || before.OOMKills > 0
	if s.trace {
		d.Trace = readGuestTrace(res)
	}
	if err := d.readDoctor(res, s.expect); err != nil {
		return fail(before, res, err)
	}
	plan, applied, err := planSettings(res, s.planKeys)
	if err != nil {
		return fail(before, res, err)
	}
	d.Plan, d.Applied = plan, applied
	o.Progress(fmt.Sprintf("%s: before: %d allocation failures, %d OOM kills; doctor named %v (root causes %v); plan applies %d settings",
		s.name, before.AllocFailures, before.OOMKills, d.Named, d.RootCauses, len(applied)))
	after, res2, err := s.runOne(ctx, o, "after", applied)
	d.After = after
	if err != nil {
		return fail(after, res2, err)
	}
	d.Stopped = after.AllocFailures == 0 && after.OOMKills == 0 && s.loadRan(after.Sink)
	rep.OK = d.Reproduced && len(d.Named) > 0 && d.Stopped
	rep.RunSec = time.Since(started).Seconds()
	rep.Summary = guestFailureSummary(s, d)
	return rep, nil
}

// loadRan reports whether the after guest carried the whole load that made the before guest
// fail: its sink finished, or finished every phase but the last (the resumed reading after
// the stall, which only measures recovery; a guest that ends a few seconds into it carried
// the load all the same). A sink that never got past the load proves nothing.
func (s *guestFailureSpec) loadRan(r *guestSinkResult) bool {
	if r == nil {
		return false
	}
	return r.Done || len(r.Phases) >= len(s.sink.Phases)-1
}

// runOne boots one guest, drives the load and collects what came back.
func (s *guestFailureSpec) runOne(ctx context.Context, o GuestOptions, phase string, settings []string) (*GuestFailureRun, *vm.Result, error) {
	run := &GuestFailureRun{Phase: phase, ExitCode: -1, Settings: settings}
	spec := vm.Spec{
		Kernel: o.Kernel, MemoryMiB: s.memoryMiB, CPUs: 1, Modules: s.modules,
		NICs: []vm.NIC{{MTU: s.mtu, RxQueueSize: s.rxQueue}}, Disks: s.disks, Script: s.script(phase), Headroom: o.Headroom,
		Progress: o.Progress, Timeout: s.loadTimeout + 4*time.Minute,
	}
	if phase == "after" {
		spec.Files = []vm.File{{Path: "/etc/headroom/plan.conf", Data: []byte(strings.Join(settings, "\n") + "\n")}}
	}
	g, err := vm.Start(ctx, spec)
	if err != nil {
		return run, nil, err
	}
	defer g.Close()
	lctx, cancel := context.WithTimeout(ctx, s.loadTimeout)
	defer cancel()
	if err := g.WaitConsole(lctx, markLoadReady); err != nil {
		res, _ := g.Wait(ctx)
		return run, res, fmt.Errorf("%s: %s guest: the load did not start: %w (script stderr: %s)", s.name, phase, err, guestStderr(res))
	}
	o.Progress(fmt.Sprintf("%s: %s guest up, %d streams into it", s.name, phase, s.streams))
	snd, err := startGuestStreams(g.Host(), netip.AddrPortFrom(vm.GuestAddr(0), guestSinkPort), s.streams)
	if err != nil {
		res, _ := g.Wait(ctx)
		return run, res, fmt.Errorf("%s: %s guest: %w", s.name, phase, err)
	}
	werr := g.WaitConsole(lctx, markLoadDone)
	run.SentBytes, run.SendSec = snd.stop()
	if run.SendSec > 0 {
		run.SendBitsPerSec = float64(run.SentBytes) * 8 / run.SendSec
	}
	res, err := g.Wait(ctx)
	if err != nil {
		return run, res, err
	}
	run.BootSec, run.RunSec, run.ExitCode = res.BootTime.Seconds(), res.Elapsed.Seconds(), res.ExitCode
	run.Failures, run.AllocFailures, run.OOMKills = guestFailureLines(res.Dmesg)
	run.Evidence = guestEvidence(res)
	if b := res.Files["sink.json"]; len(b) > 0 {
		var sr guestSinkResult
		if err := json.Unmarshal(b, &sr); err == nil {
			run.Sink = &sr
		}
	}
	if werr != nil {
		return run, res, fmt.Errorf("%s: %s guest: the load did not end: %w (script stderr: %s)", s.name, phase, werr, guestStderr(res))
	}
	if res.ExitCode != 0 {
		return run, res, fmt.Errorf("%s: %s guest: script exited %d: %s", s.name, phase, res.ExitCode, strings.TrimSpace(res.Stderr))
	}
	o.Progress(fmt.Sprintf("%s: %s guest done: %d allocation failures, %d OOM kills, %.1f MB sent in %.0f s", s.name, phase, run.AllocFailures, run.OOMKills, float64(run.SentBytes)/1e6, run.SendSec))
	return run, res, nil
}

// guestFailureLines returns the guest kernel log's failure reports: each report's header
// and its next lines up to the zone dump's first line, the OOM kill lines, and the counts.
func guestFailureLines(dmesg string) (lines []string, allocFails, ooms int) {
	ls := strings.Split(dmesg, "\n")
	for i := 0; i < len(ls); i++ {
		l := ls[i]
		switch {
		case strings.Contains(l, kmsgFailure):
			allocFails++
			if allocFails > 3 {
				continue
			}
			lines = append(lines, l)
			// The call trace's frames say where (the RX refill), the zone lines of the
			// dump why (free against min); the rest of the report is left out.
			dump := false
		report:
			for j := i + 1; j < len(ls); j++ {
				m := ls[j]
				switch {
				case strings.Contains(m, kmsgFailure), strings.Contains(m, "invoked oom-killer"), strings.Contains(m, "Tasks state"):
					break report
				case strings.Contains(m, "Mem-Info:"):
					dump = true
				case !dump && strings.Contains(m, "+0x") && !strings.Contains(m, "RIP:"):
					lines = append(lines, m)
				case dump && (strings.Contains(m, " free:") && strings.Contains(m, " min:") || strings.Contains(m, "pages HighMem")):
					lines = append(lines, m)
				}
			}
		case strings.Contains(l, kmsgOOM):
			ooms++
			lines = append(lines, l)
		case strings.Contains(l, "invoked oom-killer"), strings.Contains(l, "TCP: out of memory"):
			lines = append(lines, l)
		}
	}
	return lines, allocFails, ooms
}

// readDoctor reads doctor's JSON from the "before" guest.
func (d *GuestFailureDetails) readDoctor(res *vm.Result, expect []string) error {
	b := res.Files["doctor.json"]
	if len(b) == 0 {
		return fmt.Errorf("doctor in the guest wrote no JSON (%s)", strings.TrimSpace(string(res.Files["doctor.err"])))
	}
	var doc struct {
		Findings []struct {
			ID       string `json:"id"`
			Severity string `json:"severity"`
			Title    string `json:"title"`
		} `json:"findings"`
		Diagnosis struct {
			Causes []struct {
				ID string `json:"id"`
			} `json:"causes"`
			Chains []struct {
				Root  string `json:"root"`
				Links []struct {
					ID string `json:"id"`
				} `json:"links"`
			} `json:"chains"`
		} `json:"diagnosis"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return fmt.Errorf("doctor's JSON from the guest: %w", err)
	}
	for _, f := range doc.Findings {
		d.FindingIDs = append(d.FindingIDs, f.ID)
		d.Findings = append(d.Findings, readersFinding{ID: f.ID, Severity: f.Severity, Title: f.Title})
		if slices.Contains(expect, f.ID) {
			d.Named = append(d.Named, f.ID)
		}
	}
	for _, c := range doc.Diagnosis.Causes {
		d.RootCauses = append(d.RootCauses, c.ID)
	}
	for _, c := range doc.Diagnosis.Chains {
		var ids []string
		for _, l := range c.Links {
			ids = append(ids, l.ID)
		}
		d.Chains = append(d.Chains, ids)
	}
	return nil
}

// planSettings reads the plan's sysctl drop-in from the "before" guest and keeps keys
// (all when keys is nil) as "key = value" lines.
func planSettings(res *vm.Result, keys []string) (plan string, applied []string, err error) {
	b := res.Files["plan.conf"]
	if len(b) == 0 {
		return "", nil, fmt.Errorf("plan in the guest wrote nothing (%s)", strings.TrimSpace(string(res.Files["plan.err"])))
	}
	plan = string(b)
	for _, l := range strings.Split(plan, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		k, _, ok := strings.Cut(l, "=")
		if !ok {
			continue
		}
		if keys == nil || slices.Contains(keys, strings.TrimSpace(k)) {
			applied = append(applied, l)
		}
	}
	if len(applied) == 0 {
		return plan, nil, fmt.Errorf("the plan from the guest sets none of %v", keys)
	}
	return plan, applied, nil
}

func guestFailureSummary(s *guestFailureSpec, d *GuestFailureDetails) []string {
	var out []string
	b, a := d.Before, d.After
	verdict := func(ok bool) string {
		if ok {
			return "yes"
		}
		return "NO"
	}
	out = append(out, fmt.Sprintf("reproduced: %s (%d allocation failures, %d OOM kills in the guest's kernel log; before guest %d of up to %d)", verdict(d.Reproduced), b.AllocFailures, b.OOMKills, len(d.Attempts), max(s.attempts, 1)))
	for i, l := range b.Failures {
		if i >= 4 {
			break
		}
		out = append(out, "  guest: "+strings.TrimSpace(l))
	}
	out = append(out, fmt.Sprintf("named by doctor in the guest: %s (expected one of %v; findings %v; root causes %v)", verdict(len(d.Named) > 0), s.expect, d.FindingIDs, d.RootCauses))
	out = append(out, fmt.Sprintf("stopped by the plan: %s (%d allocation failures, %d OOM kills with %s)", verdict(d.Stopped), a.AllocFailures, a.OOMKills, strings.Join(d.Applied, "; ")))
	out = append(out, "throughput before → after: "+sinkCompare(b, a))
	if t := d.Trace; t != nil {
		if t.Window == nil {
			out = append(out, "traced load: "+t.Error)
		} else {
			out = append(out, fmt.Sprintf("traced load (%s, %d events lost): drops by the kernel's reason %v; top locations %v; direct reclaim %+v; findings citing a traced count %v; TcpExt PFMemallocDrop +%d",
				t.Window.Duration.Round(time.Second), t.Window.Lost, t.Window.Drops, firstCounts(t.Window.Locations, 6), t.Window.Reclaim, t.Cited, t.PFMemallocDrop))
		}
	}
	return out
}

func firstCounts(c []model.TraceCount, n int) []model.TraceCount {
	return c[:min(n, len(c))]
}

// sinkCompare prints each phase's goodput before and after.
func sinkCompare(b, a *GuestFailureRun) string {
	var parts []string
	pb, pa := sinkPhases(b), sinkPhases(a)
	n := max(len(pb), len(pa))
	phase := func(ps []guestSinkPhaseResult, i int) (string, string) {
		if i >= len(ps) {
			return "", "none (the receiver was gone)"
		}
		p := ps[i]
		if p.EndedBy == "running" {
			return p.Name, fmt.Sprintf("%.1f Mbit/s over %.0f s until the receiver was killed", p.GoodputBits/1e6, p.Seconds)
		}
		return p.Name, fmt.Sprintf("%.1f Mbit/s over %.0f s (ended by %s)", p.GoodputBits/1e6, p.Seconds, p.EndedBy)
	}
	for i := 0; i < n; i++ {
		nb, vb := phase(pb, i)
		na, va := phase(pa, i)
		name := nb
		if name == "" {
			name = na
		}
		parts = append(parts, fmt.Sprintf("%s %s → %s", name, vb, va))
	}
	parts = append(parts, fmt.Sprintf("sent %.0f MB in %.0f s (%.1f Mbit/s) → %.0f MB in %.0f s (%.1f Mbit/s)",
		float64(b.SentBytes)/1e6, b.SendSec, b.SendBitsPerSec/1e6, float64(a.SentBytes)/1e6, a.SendSec, a.SendBitsPerSec/1e6))
	return strings.Join(parts, "; ")
}

// guestStreams is the host side of the load: TCP streams from the run's namespace into the
// guest, each writing as fast as the guest takes it.
type guestStreams struct {
	conns []net.Conn
	sent  atomic.Int64
	start time.Time
	wg    sync.WaitGroup
	once  sync.Once
	dur   time.Duration
}

func startGuestStreams(h *netlab.Host, dst netip.AddrPort, n int) (*guestStreams, error) {
	gs := &guestStreams{start: time.Now()}
	// Sockets are created on a thread inside the namespace (Host.Do) and belong to it for
	// life; the writes may then run on any goroutine.
	err := h.Do(func() error {
		for i := 0; i < n; i++ {
			c, err := net.DialTimeout("tcp4", dst.String(), 30*time.Second)
			if err != nil {
				return fmt.Errorf("stream %d to %s: %w", i, dst, err)
			}
			gs.conns = append(gs.conns, c)
		}
		return nil
	})
	if err != nil {
		for _, c := range gs.conns {
			c.Close()
		}
		return nil, err
	}
	buf := make([]byte, 128<<10)
	for _, c := range gs.conns {
		gs.wg.Add(1)
		go func(c net.Conn) {
			defer gs.wg.Done()
			for {
				k, err := c.Write(buf)
				gs.sent.Add(int64(k))
				if err != nil {
					return
				}
			}
		}(c)
	}
	return gs, nil
}

// stop closes the streams and returns what was sent and over how long.
func (gs *guestStreams) stop() (int64, float64) {
	gs.once.Do(func() {
		gs.dur = time.Since(gs.start)
		for _, c := range gs.conns {
			c.Close()
		}
		gs.wg.Wait()
	})
	return gs.sent.Load(), gs.dur.Seconds()
}

// sinkPhases are a sink's finished phases and the one under way when it was killed.
func sinkPhases(r *GuestFailureRun) []guestSinkPhaseResult {
	if r == nil || r.Sink == nil {
		return nil
	}
	ps := append([]guestSinkPhaseResult(nil), r.Sink.Phases...)
	if r.Sink.Current != nil {
		ps = append(ps, *r.Sink.Current)
	}
	return ps
}

// guestStderr is the script's stderr of a run that may not have come back.
func guestStderr(res *vm.Result) string {
	if res == nil {
		return "none: the guest did not come back"
	}
	return strings.TrimSpace(res.Stderr)
}
