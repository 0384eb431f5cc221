package source

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"headroom/internal/guard"
	"headroom/kernel"
	"headroom/model"
)

// A traced window (doctor --trace). The tracepoints are enabled in a tracefs instance of our
// own, instances/headroom-<pid>-<start ticks> (kernel/trace/trace.c instance_mkdir, 3.13+):
// an instance has its own buffers, event switches, filters and tracing_on, so the global
// trace buffer and whatever another tool set there are never touched, and removing the
// instance takes all of ours away at once. When tracefs is mounted nowhere, it is mounted at a directory of our own
// (not /sys/kernel/tracing, where another tool that mounts or uses it meanwhile would keep us
// from unmounting) and unmounted at the end.
//
// The events are read in binary from each CPU's trace_pipe_raw: whole ring-buffer pages,
// decoded with the offsets of the events' format files (kernel/tracefs.go). Reading the
// text of trace_pipe instead makes the kernel print every event (%pS looks up the location
// symbol for each) and us parse the line; docs/performance.md has both measured at a flood
// of dropped datagrams (TraceMechanismText keeps the text reader for that measurement).

// Trace mechanisms.
const (
	TraceMechanismRaw  = "raw"
	TraceMechanismText = "text"
)

const (
	traceInstancePrefix = "headroom-"
	// traceBufferKB is each CPU's buffer in our instance: 100k events/s of 40-56 bytes are
	// 5.6 MB/s over all CPUs; the reader empties the buffers every tracePoll, so 4 MiB per
	// CPU holds more than half a second of that on one CPU.
	traceBufferKB = 4096
	tracePoll     = 50 * time.Millisecond
	// traceMountDir holds a tracefs mount of our own when none existed.
	traceMountDir = "/run/headroom"
	// traceTopLocations is how many drop locations a window keeps.
	traceTopLocations = 20
)

// The tracepoints of a window. Each is optional: a kernel without one says so in NotTraced.
var traceEvents = []struct {
	system, name string
	needs        string
}{
	{"skb", "kfree_skb", "Linux 2.6.31+ with CONFIG_TRACEPOINTS"},
	{"vmscan", "mm_vmscan_direct_reclaim_begin", "Linux 2.6.36+"},
	{"vmscan", "mm_vmscan_direct_reclaim_end", "Linux 2.6.36+"},
	{"compaction", "mm_compaction_begin", "Linux 3.15+ with CONFIG_COMPACTION"},
	{"compaction", "mm_compaction_end", "Linux 3.15+ with CONFIG_COMPACTION"},
	{"kmem", "mm_page_alloc_extfrag", "Linux 2.6.34+"},
}

// TraceOptions says how to trace.
type TraceOptions struct {
	Mechanism string // TraceMechanismRaw (default) or TraceMechanismText
	// Mount is where tracefs is looked for first; empty: /sys/kernel/tracing.
	Mount string
	// MountDir, when not nil, is the tracefs to use: the root directory of a mount made by
	// MountTraceFS before the process gave up CAP_SYS_ADMIN (serve --trace). It is read
	// through /proc/self/fd/N and handed to the guard; the tracer does not close it.
	MountDir *os.File
}

// MountTraceFS prepares tracefs for a tracer that will run without CAP_SYS_ADMIN. Nothing
// else a traced window does needs a capability: as uid 0, with CAP_SYSLOG alone (for the
// addresses of /proc/kallsyms), creating and removing the instance, enabling its events,
// reading its buffers and stats and restoring them is allowed by the files' modes
// (measured: serve --trace and doctor --trace under setpriv with CapEff 0x400000000 traced
// and restored everything). Only mount(2) needs CAP_SYS_ADMIN. So when tracefs is mounted
// in this mount namespace it returns nil: the tracer uses that mount later. When it is
// not, it mounts tracefs at a directory of its own, opens the mount's root, detaches the
// mount (umount2 MNT_DETACH: nothing else sees it from now on, and it goes when the last
// descriptor of it is closed, so no unmount is needed later) and removes the directory.
// The caller keeps the returned directory open across its privilege drop (clearing
// close-on-exec when it re-executes) and passes it as TraceOptions.MountDir.
func MountTraceFS() (*os.File, error) {
	if ms, err := tracefsMounts(); err == nil && len(ms) > 0 {
		return nil, nil
	}
	if os.Geteuid() != 0 {
		return nil, &TraceUnavailable{"tracefs is not mounted, and mounting it needs root"}
	}
	dir, err := mountOwnTraceFS(traceOwnerName())
	if err != nil {
		return nil, err
	}
	f, err := os.Open(dir)
	if err != nil {
		restoreTrace("", dir, 0)
		return nil, fmt.Errorf("trace: open %s: %w", dir, err)
	}
	err = unix.Unmount(dir, unix.MNT_DETACH)
	os.Remove(dir)
	if err != nil {
		f.Close()
		restoreTrace("", dir, 0)
		return nil, fmt.Errorf("trace: detach %s: %w", dir, err)
	}
	return f, nil
}

// mountOwnTraceFS mounts tracefs at traceMountDir/tracefs-<owner>.
func mountOwnTraceFS(owner string) (string, error) {
	dir := filepath.Join(traceMountDir, "tracefs-"+owner)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", &TraceUnavailable{fmt.Sprintf("tracefs is not mounted, and no directory to mount it at: %v", err)}
	}
	if err := unix.Mount("nodev", dir, "tracefs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		os.Remove(dir)
		if errors.Is(err, unix.ENODEV) {
			return "", &TraceUnavailable{"the kernel has no tracefs (needs Linux 4.1+ with CONFIG_TRACING)"}
		}
		return "", &TraceUnavailable{fmt.Sprintf("cannot mount tracefs: %v (needs CAP_SYS_ADMIN)", err)}
	}
	return dir, nil
}

// Tracer is a running traced window.
type Tracer struct {
	opt      TraceOptions
	mount    string // tracefs in use
	mounted  string // our own mount, removed at the end ("" when tracefs was mounted)
	instance string
	owner    string // "<pid>-<start ticks>", in the instance's and our mount's names
	guard    *guard.Guard
	start    time.Time
	events   []string
	notTrace []model.Unavailable
	page     kernel.TracePageHeader

	// decoders by event ID
	kfree      *traceKfree
	reclaimB   uint16
	reclaimE   uint16
	compactB   uint16
	compactE   uint16
	extfrag    uint16
	haveExtfrg bool

	stop     chan struct{}
	wg       sync.WaitGroup
	mu       sync.Mutex
	agg      traceAgg
	readErr  error
	stopped  bool
	lostSeen uint64            // lost events counted in parts already cut
	locNames map[uint64]string // drop locations named so far ("": not in kallsyms)
	locNamed bool              // kallsyms had names when last read
}

type traceKfree struct {
	id       uint16
	location kernel.TraceField
	reason   kernel.TraceField
	reasons  map[uint64]string // nil: no reason field (before 5.17)
}

// traceAgg is what the readers count.
type traceAgg struct {
	drops     uint64
	byReason  map[uint64]uint64
	byLoc     map[[2]uint64]uint64 // by reason and location address
	byName    map[string]uint64    // text reader: reasons by name
	byLocName map[[2]string]uint64 // text reader: by reason and location as the kernel printed it
	stalls    []traceStallEvent
	comms     map[int]string // stalled tasks' names, read when their stall began
	extfrag   uint64
	missed    uint64
	events    uint64
}

type traceStallEvent struct {
	ts    uint64
	pid   int
	kind  byte // 'r' reclaim, 'c' compaction
	begin bool
}

// TraceUnavailable is the reason a window cannot be traced on this host: not an error of
// the run, a "not available (needs …)" line in the report.
type TraceUnavailable struct{ Why string }

func (e *TraceUnavailable) Error() string { return e.Why }

// StartTrace enables the window's tracepoints in an instance of our own. It returns a
// *TraceUnavailable when this host cannot be traced (no tracefs, not root, no instances).
func StartTrace(opt TraceOptions) (*Tracer, error) {
	if opt.Mechanism == "" {
		opt.Mechanism = TraceMechanismRaw
	}
	if opt.Mechanism != TraceMechanismRaw && opt.Mechanism != TraceMechanismText {
		return nil, fmt.Errorf("trace mechanism %q: raw or text", opt.Mechanism)
	}
	t := &Tracer{opt: opt, stop: make(chan struct{}), agg: newTraceAgg(), owner: traceOwnerName()}
	if err := t.findMount(); err != nil {
		return nil, err
	}
	sweepDeadTraceInstances(t.mount)
	if _, err := os.Stat(filepath.Join(t.mount, "instances")); err != nil {
		t.unmountOwn()
		return nil, &TraceUnavailable{"tracefs has no instances directory (needs Linux 3.13+)"}
	}
	if err := t.readFormats(); err != nil {
		t.unmountOwn()
		return nil, err
	}
	t.instance = filepath.Join(t.mount, "instances", traceInstancePrefix+t.owner)
	g, err := startTraceGuard(traceGuardConfig{PID: os.Getpid(), Instance: t.instance, Mount: t.mounted}, t.opt.MountDir)
	if err != nil {
		t.unmountOwn()
		return nil, err
	}
	t.guard = g
	if err := os.Mkdir(t.instance, 0o700); err != nil {
		t.abort()
		if errors.Is(err, os.ErrPermission) {
			return nil, &TraceUnavailable{"cannot create a tracefs instance (needs root)"}
		}
		return nil, fmt.Errorf("create tracefs instance: %w", err)
	}
	if err := t.configure(); err != nil {
		t.abort()
		return nil, err
	}
	t.start = time.Now()
	if err := t.startReaders(); err != nil {
		t.abort()
		return nil, err
	}
	return t, nil
}

// findMount finds tracefs in this mount namespace, or mounts it.
func (t *Tracer) findMount() error {
	if t.opt.MountDir != nil {
		t.mount = fmt.Sprintf("/proc/self/fd/%d", t.opt.MountDir.Fd())
		return nil
	}
	want := t.opt.Mount
	if want == "" {
		want = "/sys/kernel/tracing"
	}
	mounts, err := tracefsMounts()
	if err == nil {
		for _, m := range mounts {
			if m == want {
				t.mount = m
				return nil
			}
		}
		if len(mounts) > 0 {
			t.mount = mounts[0]
			return nil
		}
	}
	if os.Geteuid() != 0 {
		return &TraceUnavailable{"tracefs is not mounted, and mounting it needs root"}
	}
	dir, err := mountOwnTraceFS(t.owner)
	if err != nil {
		return err
	}
	t.mount, t.mounted = dir, dir
	return nil
}

func (t *Tracer) unmountOwn() {
	if t.mounted != "" {
		restoreTrace("", t.mounted, 0)
		t.mounted = ""
	}
}

// tracefsMounts lists this mount namespace's tracefs mount points.
func tracefsMounts() ([]string, error) {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		// "36 35 0:12 / /sys/kernel/tracing rw,... - tracefs nodev rw"
		pre, post, ok := strings.Cut(line, " - ")
		if !ok || !strings.HasPrefix(post, "tracefs ") {
			continue
		}
		f := strings.Fields(pre)
		if len(f) >= 5 {
			out = append(out, unescapeMount(f[4]))
		}
	}
	return out, nil
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// A tracer's instance and mount are named by its process: "headroom-<pid>-<start ticks>"
// and "tracefs-<pid>-<start ticks>". Tracefs instances are global (one tracefs for the
// whole machine) while pids are per pid namespace, so the start time after boot (field 22
// of /proc/PID/stat, the same clock in every namespace) keeps two containers' pid 1 apart.
func traceOwnerName() string {
	st, err := kernel.ReadTaskStat(kernel.HostRoot(), os.Getpid())
	if err != nil {
		return strconv.Itoa(os.Getpid())
	}
	return fmt.Sprintf("%d-%d", os.Getpid(), st.StartTicks)
}

// traceOwnerGone reports whether the process that named name ("<pid>-<ticks>") is surely
// gone: its pid is free, or taken by a later process. Only in the initial pid namespace
// (PROC_PID_INIT_INO, include/linux/proc_ns.h) is every tracer's pid visible; elsewhere
// nothing is judged gone.
func traceOwnerGone(name string) bool {
	if ns, err := os.Readlink("/proc/self/ns/pid"); err != nil || ns != "pid:[4026531836]" {
		return false
	}
	p, t, ok := strings.Cut(name, "-")
	pid, err1 := strconv.Atoi(p)
	ticks, err2 := strconv.ParseInt(t, 10, 64)
	if !ok || err1 != nil || err2 != nil || pid <= 0 || pid == os.Getpid() {
		return false
	}
	if _, err := os.Stat("/proc/" + p); errors.Is(err, os.ErrNotExist) {
		return true
	}
	st, err := kernel.ReadTaskStat(kernel.HostRoot(), pid)
	if err != nil {
		return false
	}
	return st.StartTicks != ticks || st.State == "Z"
}

// sweepDeadTraceInstances removes the instances of tracers whose process is gone and whose
// guard could not remove them (both killed at once), and their own tracefs mounts.
func sweepDeadTraceInstances(mount string) {
	if ms, err := tracefsMounts(); err == nil {
		for _, m := range ms {
			owner, ok := strings.CutPrefix(m, filepath.Join(traceMountDir, "tracefs-"))
			if ok && traceOwnerGone(owner) {
				restoreTrace(filepath.Join(m, "instances", traceInstancePrefix+owner), m, time.Second)
			}
		}
	}
	es, err := os.ReadDir(filepath.Join(mount, "instances"))
	if err != nil {
		return
	}
	for _, e := range es {
		owner, ok := strings.CutPrefix(e.Name(), traceInstancePrefix)
		if ok && traceOwnerGone(owner) {
			restoreTrace(filepath.Join(mount, "instances", e.Name()), "", time.Second)
		}
	}
}

// readFormats reads the format files of the window's events and the page header.
func (t *Tracer) readFormats() error {
	hp, err := os.Open(filepath.Join(t.mount, "events", "header_page"))
	if err != nil {
		return &TraceUnavailable{fmt.Sprintf("tracefs events/header_page: %v (needs root)", err)}
	}
	t.page, err = kernel.ParseTracePageHeader(hp)
	hp.Close()
	if err != nil {
		return fmt.Errorf("trace: %w", err)
	}
	for _, ev := range traceEvents {
		p := filepath.Join(t.mount, "events", ev.system, ev.name, "format")
		f, err := os.Open(p)
		if err != nil {
			t.notTrace = append(t.notTrace, model.Unavailable{What: ev.system + ":" + ev.name, Why: "not in this kernel (needs " + ev.needs + ")"})
			continue
		}
		fm, err := kernel.ParseTraceFormat(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("trace: %s: %w", p, err)
		}
		switch ev.name {
		case "kfree_skb":
			k := &traceKfree{id: fm.ID}
			var ok bool
			if k.location, ok = fm.Field("location"); !ok {
				return fmt.Errorf("trace: %s: no location field", p)
			}
			if k.reason, ok = fm.Field("reason"); ok {
				k.reasons = fm.Symbolic["reason"]
				if k.reasons == nil {
					k.reasons = map[uint64]string{}
				}
			} else {
				t.notTrace = append(t.notTrace, model.Unavailable{What: "skb drop reasons", Why: "skb:kfree_skb has no reason field (needs Linux 5.17+)"})
			}
			t.kfree = k
		case "mm_vmscan_direct_reclaim_begin":
			t.reclaimB = fm.ID
		case "mm_vmscan_direct_reclaim_end":
			t.reclaimE = fm.ID
		case "mm_compaction_begin":
			t.compactB = fm.ID
		case "mm_compaction_end":
			t.compactE = fm.ID
		case "mm_page_alloc_extfrag":
			t.extfrag, t.haveExtfrg = fm.ID, true
		}
		t.events = append(t.events, ev.system+":"+ev.name)
	}
	if len(t.events) == 0 {
		return &TraceUnavailable{"none of the tracepoints is in this kernel (needs CONFIG_TRACEPOINTS)"}
	}
	return nil
}

// configure sizes our instance's buffers, sets its clock and enables the events.
func (t *Tracer) configure() error {
	w := func(name, v string) error {
		return os.WriteFile(filepath.Join(t.instance, name), []byte(v), 0)
	}
	if err := w("buffer_size_kb", strconv.Itoa(traceBufferKB)); err != nil {
		return fmt.Errorf("trace: instance buffer_size_kb: %w", err)
	}
	// mono: one clock for every CPU, so a stall that began on one CPU and ended on another
	// is timed right (the default "local" clock is per CPU). Absent before 3.10: keep local.
	if err := w("trace_clock", "mono"); err != nil && !errors.Is(err, os.ErrNotExist) && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("trace: instance trace_clock: %w", err)
	}
	for _, e := range t.events {
		sys, name, _ := strings.Cut(e, ":")
		if err := w(filepath.Join("events", sys, name, "enable"), "1"); err != nil {
			return fmt.Errorf("trace: enable %s: %w", e, err)
		}
	}
	return nil
}

// abort removes what StartTrace made after a failure.
func (t *Tracer) abort() {
	err := restoreTrace(t.instance, t.mounted, traceGuardBusyWait)
	if t.guard != nil {
		t.guard.Release(err == nil, traceGuardBusyWait)
	}
}

// startReaders starts one reader per CPU (raw) or one for trace_pipe (text).
func (t *Tracer) startReaders() error {
	if t.opt.Mechanism == TraceMechanismText {
		fd, err := unix.Open(filepath.Join(t.instance, "trace_pipe"), unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("trace: %w", err)
		}
		t.wg.Add(1)
		go t.readText(fd)
		return nil
	}
	cpus, err := filepath.Glob(filepath.Join(t.instance, "per_cpu", "cpu*"))
	if err != nil || len(cpus) == 0 {
		return fmt.Errorf("trace: no per_cpu buffers in %s", t.instance)
	}
	pageSize := os.Getpagesize()
	if b, err := os.ReadFile(filepath.Join(t.instance, "buffer_subbuf_size_kb")); err == nil {
		// 6.8+: the sub-buffer ("page") may be larger than a page.
		if kb, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && kb > 0 {
			pageSize = kb << 10
		}
	}
	var fds []int
	for _, c := range cpus {
		fd, err := unix.Open(filepath.Join(c, "trace_pipe_raw"), unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != nil {
			for _, f := range fds {
				unix.Close(f)
			}
			return fmt.Errorf("trace: %w", err)
		}
		fds = append(fds, fd)
	}
	for _, fd := range fds {
		t.wg.Add(1)
		go t.readRaw(fd, pageSize)
	}
	return nil
}

// pump reads fd until it has nothing (EAGAIN), handing each read to use, then flushes what
// it counted into the tracer's counts (so Cut sees it), every tracePoll until the window
// ends, and drains once more after that.
func (t *Tracer) pump(fd int, buf []byte, use func([]byte), flush func()) {
	defer t.wg.Done()
	defer unix.Close(fd)
	final := false
	for {
		for {
			n, err := unix.Read(fd, buf)
			if n > 0 {
				use(buf[:n])
				continue
			}
			if err != nil && !errors.Is(err, unix.EAGAIN) && !errors.Is(err, unix.EINTR) {
				t.mu.Lock()
				t.readErr = err
				t.mu.Unlock()
				return
			}
			if err == nil || errors.Is(err, unix.EAGAIN) {
				break
			}
		}
		flush()
		if final {
			return
		}
		select {
		case <-t.stop:
			final = true // tracing is off: one more drain reads what is left
		case <-time.After(tracePoll):
		}
	}
}

func newTraceAgg() traceAgg {
	return traceAgg{byReason: map[uint64]uint64{}, byLoc: map[[2]uint64]uint64{}, byName: map[string]uint64{}, byLocName: map[[2]string]uint64{}}
}

func (t *Tracer) readRaw(fd, pageSize int) {
	local := newTraceAgg()
	flush := func() {
		if local.events > 0 || local.missed > 0 {
			t.merge(&local)
			local = newTraceAgg()
		}
	}
	t.pump(fd, make([]byte, pageSize), func(b []byte) {
		p, err := kernel.ParseTracePage(t.page, b, func(ts uint64, rec []byte) { t.decode(&local, ts, rec) })
		if err != nil {
			t.mu.Lock()
			t.readErr = err
			t.mu.Unlock()
		}
		if p.Missed {
			local.missed += max(p.MissedCount, 1)
		}
	}, flush)
}

// decode counts one binary record.
func (t *Tracer) decode(a *traceAgg, ts uint64, rec []byte) {
	if len(rec) < 8 {
		return
	}
	a.events++
	id := binary.NativeEndian.Uint16(rec) // common_type
	switch {
	case t.kfree != nil && id == t.kfree.id:
		a.drops++
		var r uint64
		if t.kfree.reasons != nil {
			r, _ = t.kfree.reason.Uint(rec)
			a.byReason[r]++
		}
		if loc, ok := t.kfree.location.Uint(rec); ok {
			a.byLoc[[2]uint64{r, loc}]++
		}
	case t.haveExtfrg && id == t.extfrag:
		a.extfrag++
	case id == t.reclaimB || id == t.reclaimE || id == t.compactB || id == t.compactE:
		// common_pid at offset 4 in every era (struct trace_entry, include/linux/trace_events.h)
		pid := int(int32(binary.NativeEndian.Uint32(rec[4:8])))
		kind := byte('r')
		if id == t.compactB || id == t.compactE {
			kind = 'c'
		}
		begin := id == t.reclaimB || id == t.compactB
		a.stalls = append(a.stalls, traceStallEvent{ts: ts, pid: pid, kind: kind, begin: begin})
		a.nameTask(pid, begin)
	}
}

// nameTask reads a stalled task's name while it is still stalled (the reader runs every
// tracePoll; a short-lived task is gone by the end of the window). Stalls are rare next to
// drops, so the read costs nothing at a flood.
func (a *traceAgg) nameTask(pid int, begin bool) {
	if !begin {
		return
	}
	if a.comms == nil {
		a.comms = map[int]string{}
	}
	if _, ok := a.comms[pid]; !ok {
		a.comms[pid] = taskComm(pid)
	}
}

func (t *Tracer) merge(l *traceAgg) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.agg.drops += l.drops
	t.agg.extfrag += l.extfrag
	t.agg.missed += l.missed
	t.agg.events += l.events
	for k, v := range l.byReason {
		t.agg.byReason[k] += v
	}
	for k, v := range l.byLoc {
		t.agg.byLoc[k] += v
	}
	for k, v := range l.byName {
		t.agg.byName[k] += v
	}
	for k, v := range l.byLocName {
		t.agg.byLocName[k] += v
	}
	t.agg.stalls = append(t.agg.stalls, l.stalls...)
	for p, c := range l.comms {
		if c != "" || t.agg.comms == nil || t.agg.comms[p] == "" {
			if t.agg.comms == nil {
				t.agg.comms = map[int]string{}
			}
			t.agg.comms[p] = c
		}
	}
}

// readText reads trace_pipe's text (the mechanism kept for the measurement).
func (t *Tracer) readText(fd int) {
	local := newTraceAgg()
	flush := func() {
		if local.events > 0 {
			t.merge(&local)
			local = newTraceAgg()
		}
	}
	var rest []byte
	t.pump(fd, make([]byte, 64<<10), func(b []byte) {
		rest = append(rest, b...)
		for {
			i := bytes.IndexByte(rest, '\n')
			if i < 0 {
				break
			}
			t.decodeText(&local, rest[:i])
			rest = rest[i+1:]
		}
		rest = append([]byte(nil), rest...)
	}, flush)
}

// decodeText counts one trace_pipe line:
// "  <idle>-0  [001] ..s1.  1234.567890: kfree_skb: skbaddr=... location=udp_queue_rcv_one_skb+0x1a5/0x4c0 reason: SOCKET_RCVBUFF"
func (t *Tracer) decodeText(a *traceAgg, line []byte) {
	colon := bytes.Index(line, []byte(": "))
	if colon < 0 {
		return
	}
	head, body := line[:colon], line[colon+2:]
	ev, args, ok := bytes.Cut(body, []byte(": "))
	if !ok {
		return
	}
	a.events++
	switch string(ev) {
	case "kfree_skb":
		a.drops++
		var reason string
		if _, r, ok := bytes.Cut(args, []byte("reason: ")); ok {
			reason = string(r)
			a.byName[reason]++
		}
		if _, l, ok := bytes.Cut(args, []byte("location=")); ok {
			if sp := bytes.IndexByte(l, ' '); sp >= 0 {
				l = l[:sp]
			}
			if sl := bytes.IndexByte(l, '/'); sl >= 0 {
				l = l[:sl]
			}
			a.byLocName[[2]string{reason, string(l)}]++
		}
	case "mm_page_alloc_extfrag":
		a.extfrag++
	case "mm_vmscan_direct_reclaim_begin", "mm_vmscan_direct_reclaim_end", "mm_compaction_begin", "mm_compaction_end":
		f := bytes.Fields(head)
		if len(f) < 2 {
			return
		}
		task := f[0]
		dash := bytes.LastIndexByte(task, '-')
		pid, _ := strconv.Atoi(string(task[dash+1:]))
		sec, err := strconv.ParseFloat(string(f[len(f)-1]), 64)
		if err != nil {
			return
		}
		kind := byte('r')
		if bytes.HasPrefix(ev, []byte("mm_compaction")) {
			kind = 'c'
		}
		begin := bytes.HasSuffix(ev, []byte("_begin"))
		a.stalls = append(a.stalls, traceStallEvent{ts: uint64(sec * 1e9), pid: pid, kind: kind, begin: begin})
		a.nameTask(pid, begin)
	}
}

// Stop ends the window: tracing off, the buffers drained, the instance removed (and tracefs
// unmounted when it was mounted here), the guard released. It is safe to call twice.
func (t *Tracer) Stop() (*model.TraceWindow, error) {
	t.mu.Lock()
	if t.stopped {
		t.mu.Unlock()
		return nil, errors.New("trace: stopped already")
	}
	t.stopped = true
	t.mu.Unlock()
	offErr := os.WriteFile(filepath.Join(t.instance, "tracing_on"), []byte("0"), 0)
	close(t.stop)
	t.wg.Wait()
	// The window is counted before the instance goes: it reads the instance's stats, and
	// saved_cmdlines through our mount.
	t.mu.Lock()
	w := t.cutLocked()
	t.mu.Unlock()
	restoreErr := restoreTrace(t.instance, t.mounted, traceGuardBusyWait)
	t.guard.Release(restoreErr == nil, traceGuardBusyWait)
	if restoreErr != nil {
		return nil, fmt.Errorf("trace: restoring: %w", restoreErr)
	}
	if offErr != nil {
		return nil, fmt.Errorf("trace: %w", offErr)
	}
	return w, t.readErr
}

// Cut returns the window since the start or the last Cut and starts the next one, without
// stopping: a recorder writes a part every --trace-every. Events still in the buffers (at
// most tracePoll's worth) go to the next part; a stall that began in this part and ends in
// the next is timed in the next.
func (t *Tracer) Cut() *model.TraceWindow {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return nil
	}
	return t.cutLocked()
}

func (t *Tracer) cutLocked() *model.TraceWindow {
	now := time.Now()
	lost := t.lostFromStats()
	w, open := t.window(now.Sub(t.start), lost-min(lost, t.lostSeen))
	t.lostSeen = lost
	comms := t.agg.comms
	t.agg = newTraceAgg()
	t.agg.stalls, t.agg.comms = open, comms
	t.start = now
	return w
}

// lostFromStats reads each CPU's "overrun" and "dropped events" of our instance (events
// overwritten or refused because the buffer was full, kernel/trace/trace.c
// tracing_stats_read).
func (t *Tracer) lostFromStats() uint64 {
	var lost uint64
	stats, _ := filepath.Glob(filepath.Join(t.instance, "per_cpu", "cpu*", "stats"))
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			if !ok || (k != "overrun" && k != "dropped events") {
				continue
			}
			if n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64); err == nil {
				lost += n
			}
		}
	}
	return lost
}

// window turns the counts into the Timeline's evidence.
func (t *Tracer) window(dur time.Duration, lost uint64) (*model.TraceWindow, []traceStallEvent) {
	a := &t.agg
	w := &model.TraceWindow{Start: t.start, Duration: dur, Events: t.events, DropsTotal: a.drops, Lost: max(lost, a.missed), NotTraced: t.notTrace}
	if t.opt.Mechanism == TraceMechanismText {
		w.Mechanism = "tracefs instance, text of trace_pipe"
		w.Reasons = t.kfree != nil && t.kfree.reasons != nil
		if w.Reasons {
			for r, n := range a.byName {
				w.Drops = append(w.Drops, model.TraceCount{Name: r, Count: n})
			}
			w.Drops = model.SortCounts(w.Drops, 0)
		}
		for k, n := range a.byLocName {
			w.Locations = append(w.Locations, model.TraceCount{Name: k[1], Reason: k[0], Count: n})
		}
		w.Locations, w.LocationsNamed = model.SortCounts(w.Locations, traceTopLocations), true
	} else {
		w.Mechanism = "tracefs instance, per-CPU binary buffers (trace_pipe_raw)"
		if t.kfree != nil && t.kfree.reasons != nil {
			w.Reasons = true
			for r, n := range a.byReason {
				w.Drops = append(w.Drops, model.TraceCount{Name: t.reasonName(r), Count: n})
			}
			w.Drops = model.SortCounts(w.Drops, 0)
		}
		w.Locations, w.LocationsNamed = t.locations()
	}
	comm := t.comms()
	var open, o []traceStallEvent
	if t.reclaimB != 0 && t.reclaimE != 0 {
		w.Reclaim, open = pairStalls(a.stalls, 'r', comm)
	}
	if t.compactB != 0 && t.compactE != 0 {
		w.Compaction, o = pairStalls(a.stalls, 'c', comm)
		open = append(open, o...)
	}
	if t.haveExtfrg {
		n := a.extfrag
		w.Extfrag = &n
	}
	return w, open
}

// locations names the top drop locations through /proc/kallsyms.
func (t *Tracer) locations() ([]model.TraceCount, bool) {
	if len(t.agg.byLoc) == 0 {
		return nil, true
	}
	// The names are kept across cuts: /proc/kallsyms is parsed only when an address is new
	// (serve --trace cuts every window sample, and a parse took 50-135 ms of wall time here;
	// a handful of drop sites recur). An address named before a module loaded keeps its name.
	if t.locNames == nil {
		t.locNames = map[uint64]string{}
	}
	var fresh []uint64
	for k := range t.agg.byLoc {
		if _, ok := t.locNames[k[1]]; !ok {
			fresh = append(fresh, k[1])
		}
	}
	if len(fresh) > 0 {
		var syms *kernel.Kallsyms
		if f, err := os.Open("/proc/kallsyms"); err == nil {
			syms, _ = kernel.ParseKallsyms(bufio.NewReaderSize(f, 256<<10))
			f.Close()
		}
		t.locNamed = syms.Len() > 0
		for _, a := range fresh {
			t.locNames[a] = syms.Name(a)
		}
	}
	named := t.locNamed
	var out []model.TraceCount
	for k, n := range t.agg.byLoc {
		name := t.locNames[k[1]]
		if name == "" {
			name = fmt.Sprintf("0x%x", k[1])
		}
		c := model.TraceCount{Name: name, Count: n}
		if t.kfree.reasons != nil {
			c.Reason = t.reasonName(k[0])
		}
		out = append(out, c)
	}
	return model.SortCounts(out, traceTopLocations), named
}

// reasonName names a drop reason by the kernel's own table; a value the table lacks is
// kept as a number.
func (t *Tracer) reasonName(r uint64) string {
	if name, ok := t.kfree.reasons[r]; ok {
		return name
	}
	return fmt.Sprintf("reason %d", r)
}

// comms names the tasks of the stalls: what the reader read when the stall began, then
// /proc/PID/comm, else the
// kernel's saved_cmdlines (read only; kept by every instance's events,
// kernel/trace/trace_sched_switch.c tracing_record_cmdline), read at the end of the window
// and only when a task is already gone.
func (t *Tracer) comms() func(pid int) string {
	var saved map[int]string
	return func(pid int) string {
		if c := t.agg.comms[pid]; c != "" {
			return c
		}
		if c := taskComm(pid); c != "" {
			return c
		}
		if saved == nil {
			saved = map[int]string{}
			if b, err := os.ReadFile(filepath.Join(t.mount, "saved_cmdlines")); err == nil {
				for _, l := range strings.Split(string(b), "\n") {
					p, c, ok := strings.Cut(l, " ")
					if n, err := strconv.Atoi(p); ok && err == nil {
						saved[n] = c
					}
				}
			}
		}
		return saved[pid]
	}
}

// pairStalls times each task's begin→end pairs of one kind, in time order, and returns the
// begins still open at the end.
func pairStalls(evs []traceStallEvent, kind byte, comm func(int) string) (*model.TraceStalls, []traceStallEvent) {
	var mine []traceStallEvent
	for _, e := range evs {
		if e.kind == kind {
			mine = append(mine, e)
		}
	}
	sort.SliceStable(mine, func(i, j int) bool { return mine[i].ts < mine[j].ts })
	s := &model.TraceStalls{}
	open := map[int]uint64{}
	tasks := map[int]*model.TraceTask{}
	for _, e := range mine {
		if e.begin {
			open[e.pid] = e.ts
			continue
		}
		b, ok := open[e.pid]
		if !ok || e.ts < b {
			continue // its begin was before the window
		}
		delete(open, e.pid)
		d := time.Duration(e.ts - b)
		s.Count++
		s.Total += d
		s.Max = max(s.Max, d)
		tk := tasks[e.pid]
		if tk == nil {
			tk = &model.TraceTask{PID: e.pid, Comm: comm(e.pid)}
			tasks[e.pid] = tk
		}
		tk.Count++
		tk.Total += d
		tk.Max = max(tk.Max, d)
	}
	s.Open = len(open)
	var still []traceStallEvent
	for pid, ts := range open {
		still = append(still, traceStallEvent{ts: ts, pid: pid, kind: kind, begin: true})
	}
	for _, tk := range tasks {
		s.Tasks = append(s.Tasks, *tk)
	}
	s.Tasks = model.TopTasks(s.Tasks)
	return s, still
}

func taskComm(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
