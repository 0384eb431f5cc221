package export

import (
	"maps"
	"path"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"headroom/diagnose"
	"headroom/judge"
	"headroom/kernel"
	"headroom/model"
	"headroom/source"
)

// Options configure a Collector.
type Options struct {
	// MinInterval is the least time between two samples: a scrape (or a status page
	// request) that comes sooner is answered from the last sample, so concurrent or
	// frequent scrapers do not multiply the cost. 0 means 1 s.
	MinInterval time.Duration
	// Window is how far back the diagnosis looks: samples and kernel-log events older than
	// this (from the newest sample) leave the window. 0 means 10 min.
	Window time.Duration
	// WindowSamples bounds the samples kept in the window whatever the scrape rate.
	// 0 means 60.
	WindowSamples int
	// WindowInterval is the least time between two samples of the window, the samples the
	// rules and the status page read. A sample taken sooner (a scrape more frequent than
	// this) reads only the files whose numbers the exposition carries
	// (exposedParts: not /proc/stat, /proc/interrupts, /proc/loadavg, snmp6 nor the kernel
	// threads, which only become rates and CPU shares, nor /proc/meminfo and /proc/net/snmp,
	// which feed no metric) and stays out of the window. So the window spans Window whatever the scrape rate (at one sample per
	// scrape a 1 s scraper filled its 60 samples in a minute, and the rules looked one
	// minute back, not ten), and a frequent scrape costs what it exposes. A new kernel-log
	// event makes the next sample a window sample regardless. 0 means Window/WindowSamples
	// (10 s by default: Prometheus' usual 15 s makes every scrape a window sample); negative
	// puts every sample in the window.
	WindowInterval time.Duration
	// RulesInterval is the least time between two runs of the rules over the window: a
	// sample within it is exported at once but keeps the findings of the last run. A new
	// kernel-log event (an allocation failure, an OOM kill) runs them at the next sample
	// regardless. 0 means 15 s; negative runs them on every sample.
	RulesInterval time.Duration
	// Sockets dumps every TCP socket through sock_diag on each sample for the per-state
	// counts (cost grows with the number of sockets). Without it, socket counts come from
	// /proc/net/sockstat only.
	Sockets bool
	// PageTypes reads /proc/pagetypeinfo on each sample (root only since 5.4; the kernel
	// walks the free lists under the zone lock to print it).
	PageTypes bool
	// Ethtool reads driver statistics and ring sizes of the physical NICs (never of
	// virtual devices: a container host has hundreds of veths).
	Ethtool bool
	// Trace, when set, is called at each window sample for the traced window since its
	// last call (source.Tracer.Cut, serve --trace); the windows are summed into the
	// headroom_trace_* counters (export/trace.go). nil: nothing is traced.
	Trace func() *model.TraceWindow
	// ReleaseMemory returns the memory the rules used to the OS as soon as they have run
	// (debug.FreeOSMemory: a garbage collection and a scavenge, a few ms per rules
	// interval). The window is unpacked for them, some 100 KB a sample, and without it the
	// runtime would keep those pages until its background scavenger got to them. For a
	// daemon whose resident size matters (serve); tests leave it off.
	ReleaseMemory bool
	// LogSince is how far back the rules read the kernel log, from the newest sample, when
	// it is longer than Window: doctor's --log-since. Records older than the window's
	// first sample by more than diagnose.LogRecentHorizon are the recent past (a warning at
	// most), as doctor judges them, so that one log gives one verdict whichever command
	// reads it. 0 means one hour; negative reads the window's records only.
	LogSince time.Duration
	// Skip lists rule ids not to run.
	Skip map[string]bool
	// Now is the clock; nil means time.Now. Tests inject a fixed one.
	Now func() time.Time
}

// DefaultRulesInterval is Options.RulesInterval's default. Findings change slowly (a
// fragmented zone, a tcp_mem too small for the load) and the alert rules hold them for at
// least a minute (for: 1m) before firing, so a finding 15 s late costs nothing; running the
// 40 rules over a 60-sample window on every scrape cost more than the sample itself.
const DefaultRulesInterval = 15 * time.Second

func (o *Options) defaults() {
	if o.MinInterval <= 0 {
		o.MinInterval = time.Second
	}
	if o.Window <= 0 {
		o.Window = 10 * time.Minute
	}
	if o.WindowSamples <= 0 {
		o.WindowSamples = 60
	}
	if o.WindowInterval == 0 {
		o.WindowInterval = o.Window / time.Duration(o.WindowSamples)
	}
	if o.RulesInterval == 0 {
		o.RulesInterval = DefaultRulesInterval
	}
	if o.LogSince == 0 {
		o.LogSince = time.Hour
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

// hostRefresh is how often the sysctls rules read and the NIC list are read again: they
// change rarely (tune --apply, a hot-plugged NIC) and cost a file open each.
const hostRefresh = time.Minute

// Collector is a prometheus.Collector over one kernel.Root (the live host, a captured
// directory or a txtar capture). It is safe for concurrent use.
//
// What it keeps between scrapes is bounded and mostly reused: the newest sample, whose
// storage the sampler overwrites (source.Sampler.SampleInto), the window packed (window.go:
// some 2.5 KB a sample instead of 100 KB), the last diagnosis, the label sets of the
// exposition, and a bounded tail of the kernel log.
type Collector struct {
	root kernel.Root
	opt  Options
	kind string // model.SourceLive or model.SourceCapture
	// trace sums every traced window since the start (the counters); traceParts are the
	// windows cut at the window samples still in the window (the rules read them merged).
	trace      traceTotals
	traceParts []model.TraceWindow

	mu          sync.Mutex
	sampler     *source.Sampler
	eth         kernel.Ethtool
	ethErr      error
	host        model.Host
	hostMissing []model.Unavailable
	hostRead    time.Time
	nics        []kernel.NIC
	phys        []kernel.NIC // the physical NICs of nics
	// cgroups is the socket memory per memory cgroup, re-read with the host facts (a walk
	// of the cgroup tree is too costly for every scrape).
	cgroups []kernel.CgroupSock
	log     *logWatch
	sysctls [len(tcpSysctls)]sysctlFile

	cur        model.Sample // the newest sample; the sampler reuses its storage
	packer     packer
	window     []packedSample // oldest first
	seed       packedSample   // the sample before the window, for the first one's rates
	templates  counterTemplates
	taken      uint64 // samples taken
	windowed   uint64 // samples that entered the window
	diag       *diagState
	judge      judge.Runner // the rules over the window (JudgeWindow: the window is kept here, packed)
	snap       *Snapshot
	labels     labelCache
	points     pointBuf
	bodies     *bodyPool // the snapshots' body buffers (expose.go)
	netDir     string    // netFiles' answer
	lastSource []SourceStatus
	srcBuf     []SourceStatus // sources' scratch
	snmpOK     bool           // the last window sample read /proc/net/snmp
	closed     bool
}

// diagState is the outcome of the last run of the rules.
type diagState struct {
	d        diagnose.Diagnosis
	at       time.Time // the sample time of the newest sample it saw
	window   int       // samples it saw
	duration time.Duration
	events   uint64 // kernel-log events committed when it ran
	windowed uint64 // samples that had entered the window when it ran
	unpacked int    // samples it had to unpack (the others were kept from the run before)
}

// tcpSysctls are re-read on every sample: the TCP metrics are compared with them, and a
// change (tune --apply) must show at once.
var tcpSysctls = [...]string{"net.ipv4.tcp_mem", "net.ipv4.tcp_max_orphans"}

// NewCollector opens the files of a sample under root. Nothing fails for a missing
// interface: what cannot be read is reported by headroom_source_available.
func NewCollector(root kernel.Root, opt Options) *Collector {
	opt.defaults()
	c := &Collector{root: root, opt: opt, kind: model.SourceCapture, judge: judge.Runner{Skip: opt.Skip}}
	if root.IsLive() {
		c.kind = model.SourceLive
	}
	// The sampler's own ethtool pass queries every interface; Collector asks only the
	// physical ones (see sampleNICs), so it is off here.
	c.sampler = source.NewSampler(root, source.Options{PageTypes: opt.PageTypes, Sockets: opt.Sockets})
	c.nics = c.sampler.NICs()
	c.phys = physical(c.nics)
	c.host, c.hostMissing = source.ReadHost(root, c.nics)
	c.hostRead = opt.Now()
	c.readCgroups()
	if opt.Ethtool && root.IsLive() {
		c.eth, c.ethErr = kernel.NewEthtool()
	}
	for i, k := range tcpSysctls {
		c.sysctls[i].open(root, k)
	}
	c.log = newLogWatch(root, c.host.Kernel)
	c.points.labels = &c.labels
	c.bodies = newBodyPool()
	return c
}

// Close releases the sampler's files, the ethtool socket and /dev/kmsg.
func (c *Collector) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	c.sampler.Close()
	if c.eth != nil {
		c.eth.Close()
	}
	for i := range c.sysctls {
		c.sysctls[i].close()
	}
	c.log.close()
	return nil
}

// Describe sends every metric descriptor of the collector.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range allDescs {
		ch <- d.desc
	}
}

// Collect sends the metrics of the current snapshot (sampling first if the last sample is
// older than MinInterval).
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	for _, m := range c.current().Metrics() {
		ch <- m
	}
}

// current returns the last snapshot when it is younger than MinInterval, otherwise a new
// one. Callers that arrive while a sample is being taken wait for it and share it (the
// mutex makes the sampling single-flight).
func (c *Collector) current() *Snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.currentLocked()
}

func (c *Collector) currentLocked() *Snapshot {
	if c.snap != nil && (c.closed || c.opt.Now().Sub(c.snap.done) < c.opt.MinInterval) {
		return c.snap
	}
	if c.closed {
		return &Snapshot{}
	}
	old := c.snap
	c.snap = c.refresh()
	if old != nil {
		old.retire() // its bodies go back to the pool once no answer writes them
	}
	return c.snap
}

// Snapshot is current with the window unpacked into the snapshot's Timeline and Sample (for
// the status page; the /metrics path never needs them). The timeline is made once per
// snapshot and is the caller's to read; it shares nothing with the collector.
func (c *Collector) Snapshot() *Snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.currentLocked()
	if s.Timeline == nil && len(s.points) > 0 && len(c.window) > 0 {
		// s is the newest snapshot, so the window is the one it closes.
		s.Timeline = c.timeline(s.Time.Add(-c.opt.Window))
		s.Sample = s.Timeline.Last()
	}
	return s
}

// Last returns the last snapshot without sampling, or nil before the first.
func (c *Collector) Last() *Snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.snap
}

// viewSnapshot is Snapshot for one reader (the status page): a copy of the current snapshot
// with the window unpacked into it, which nothing else keeps, so that its memory is free
// once the reader is done (the snapshot Snapshot returns keeps its window until the next
// sample replaces it).
func (c *Collector) viewSnapshot() *Snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.currentLocked()
	v := &Snapshot{
		Time: s.Time, Timeline: s.Timeline, Sample: s.Sample, Diagnosis: s.Diagnosis, DiagnosedAt: s.DiagnosedAt,
		DiagnosisWindow: s.DiagnosisWindow, Sources: s.Sources, SampleDuration: s.SampleDuration,
		DiagnosisDuration: s.DiagnosisDuration, SamplesTaken: s.SamplesTaken, LogLost: s.LogLost,
		allocs: s.allocs, points: s.points, done: s.done,
	}
	if v.Timeline == nil && len(v.points) > 0 && len(c.window) > 0 {
		v.Timeline = c.timeline(s.Time.Add(-c.opt.Window))
		v.Sample = v.Timeline.Last()
	}
	return v
}

// refresh takes a sample, updates the window, runs the rules when they are due and makes
// the snapshot's points. c.mu is held.
func (c *Collector) refresh() *Snapshot {
	start := c.opt.Now()
	if start.Sub(c.hostRead) >= hostRefresh {
		c.refreshHost(start)
	}
	// The kernel log is read first, so that a report it completes makes this sample a
	// window sample and runs the rules on it. Its records are dated from the boot time of
	// /proc/stat, which the first sample has to read first; later ones have it from the
	// last window sample (btime does not change while the host runs).
	polled := len(c.window) > 0
	if polled {
		c.log.poll(start, bootTime(&c.cur))
	}
	// The previous sample is overwritten: a window sample lives on packed in the window.
	// A sample that is not one reads only what the exposition carries (exposedParts) and
	// keeps the other fields from the last window sample.
	inWindow := c.windowDue(start)
	if inWindow {
		c.sampler.SampleInto(&c.cur, start)
		c.snmpOK = c.cur.NetStat.Group("Tcp") != nil
	} else {
		c.sampler.SamplePartsInto(&c.cur, start, exposedParts)
	}
	c.sampleNICs(&c.cur)
	tcpMemErr := c.refreshTCPSysctls()
	if !polled {
		c.log.poll(start, bootTime(&c.cur))
	}
	c.taken++
	sampled := c.opt.Now()

	if inWindow {
		if c.opt.Trace != nil {
			if w := c.opt.Trace(); w != nil {
				c.trace.add(w)
				c.traceParts = append(c.traceParts, *w)
			}
		}
		c.addToWindow(start)
		// One part is cut per window sample: the window keeps as many as it keeps samples
		// (the oldest covers the time just before the window's first sample).
		if n := len(c.traceParts) - len(c.window); n > 0 {
			k := copy(c.traceParts, c.traceParts[n:])
			clear(c.traceParts[k:])
			c.traceParts = c.traceParts[:k]
		}
		if c.rulesDue(start) {
			c.runRules(start.Add(-c.opt.Window))
		}
	}

	snap := &Snapshot{
		Time:              start,
		Diagnosis:         c.diag.d,
		DiagnosedAt:       c.diag.at,
		DiagnosisWindow:   c.diag.window,
		SampleDuration:    sampled.Sub(start),
		DiagnosisDuration: c.diag.duration,
		SamplesTaken:      c.taken,
		LogLost:           c.log.lost(),
		allocs:            c.log.allocCounts(),
		cgroups:           c.cgroups,
		netFiles:          c.netFiles(),
		trace:             c.trace.clone(),
	}
	snap.Sources = c.sources(&c.cur, tcpMemErr)
	c.points.reset()
	buildPoints(&c.points, snap, &c.cur, &c.host, c.phys)
	snap.points = slices.Clone(c.points.finish())
	snap.tmpl = c.points.tmpl
	snap.done = c.opt.Now()
	snap.pool = c.bodies
	return snap
}

// exposedParts are the files a sample outside the window reads: those the metrics carry.
// /proc/meminfo and /proc/net/snmp feed no metric, only the availability of their source,
// which is then that of the last window sample; /proc/stat, /proc/interrupts,
// /proc/loadavg, snmp6 and the kernel threads only become rates and CPU shares.
// /proc/net/protocols feeds one gauge, TCP's memory-pressure flag, which is then that of
// the last window sample (at most --window-interval old): the kernel prints some 30
// protocols' rows to show it (26 µs of kernel time here, a fifth of what the files between
// window samples cost), and every entry into pressure is counted by TcpExt
// TCPMemoryPressures, which /proc/net/netstat gives on every scrape. The conntrack
// statistics (/proc/net/stat/nf_conntrack) feed only the rules.
const exposedParts = source.AllParts &^ (source.PartMemInfo | source.PartSNMP | source.PartSNMP6 |
	source.PartStat | source.PartInterrupts | source.PartLoadAvg | source.PartThreads |
	source.PartProtocols | source.PartConntrack)

// windowDue reports whether the sample taken at now enters the window: the first, one
// WindowInterval after the newest window sample, or the first after a kernel-log event the
// rules have not seen (they run on window samples only). c.mu is held.
func (c *Collector) windowDue(now time.Time) bool {
	n := len(c.window)
	return n == 0 || c.opt.WindowInterval < 0 || now.Sub(c.window[n-1].time) >= c.opt.WindowInterval ||
		(c.diag != nil && c.log.committed != c.diag.events)
}

// addToWindow packs the newest sample into the window and drops what leaves it. c.mu is
// held.
func (c *Collector) addToWindow(now time.Time) {
	// The window is packed without rates: they are derived when it is unpacked, each
	// sample's from the one before it (the first's from seed), so a scrape does not pay for
	// them.
	c.cur.Rates = nil
	c.window = append(c.window, c.packer.pack(&c.cur))
	c.windowed++
	bounds := judge.Bounds{Samples: c.opt.WindowSamples, Span: c.opt.Window}
	drop := bounds.Drop(len(c.window), now, func(i int) time.Time { return c.window[i].time })
	if drop > 0 {
		c.seed = c.window[drop-1]
		c.seed.full = nil
		// Copied down, not resliced, so that the array does not keep dropped samples
		// reachable nor grow.
		n := copy(c.window, c.window[drop:])
		clear(c.window[n:])
		c.window = c.window[:n]
	}
}

// rulesDue reports whether the rules run on the sample taken at now.
func (c *Collector) rulesDue(now time.Time) bool {
	return c.diag == nil || c.opt.RulesInterval < 0 || now.Sub(c.diag.at) >= c.opt.RulesInterval ||
		c.log.committed != c.diag.events
}

// runRules runs the registry over the window. c.mu is held.
func (c *Collector) runRules(from time.Time) {
	t0 := c.opt.Now()
	// Keep the window unpacked for the next run when that run will find most of it still
	// there: when at most half a window of window samples came since the last run (always
	// at the default window interval, whatever the scrape rate: then a run unpacks only the
	// newest window samples). When the window turns over between runs (every sample in the
	// window and fast scrapers), keeping it would hold some 25 KB a sample for nothing.
	keep := dropUnpacked
	if c.diag != nil && 2*(c.windowed-c.diag.windowed) <= uint64(len(c.window)) {
		keep = keepUnpacked
	}
	tl, unpacked := c.timelineKeep(from, keep)
	d := c.judge.JudgeWindow(tl).Diagnosis
	c.diag = &diagState{d: d, at: tl.Last().Time, window: len(tl.Samples), duration: c.opt.Now().Sub(t0),
		events: c.log.committed, windowed: c.windowed, unpacked: unpacked}
	tl = nil
	if unpacked > len(c.window)/4 {
		// Hand the memory of a large unpacking back at once (see Options.ReleaseMemory);
		// one new sample's is left to the collector.
		c.releaseMemory()
	}
}

// releaseMemory returns the heap's free pages to the OS when Options.ReleaseMemory says so:
// after the window was unpacked (the rules, the status page).
func (c *Collector) releaseMemory() {
	if c.opt.ReleaseMemory {
		debug.FreeOSMemory()
	}
}

// What timelineKeep does with the samples it unpacks.
const (
	leaveUnpacked = iota // keep those kept, keep no new ones (the status page)
	dropUnpacked         // keep none
	keepUnpacked         // keep them all for the next run
)

// timeline unpacks the window into the Timeline the rules read, with rates. c.mu is held.
func (c *Collector) timeline(from time.Time) *model.Timeline {
	tl, _ := c.timelineKeep(from, leaveUnpacked)
	return tl
}

// timelineKeep is timeline; keep says what becomes of the unpacked samples (samples kept
// from an earlier call are used either way). unpacked is how many samples it unpacked. The
// samples are read-only: timelines share them. c.mu is held.
func (c *Collector) timelineKeep(from time.Time, keep int) (tl *model.Timeline, unpacked int) {
	// from is the window's start, Window before the newest sample; the log reaches back
	// LogSince from that sample when that is longer, and the registry divides it as doctor's
	// --log-since does (diagnose.Run).
	logFrom := from
	if past := c.opt.LogSince - c.opt.Window; past > 0 {
		logFrom = from.Add(-past)
	}
	log, events := c.log.window(logFrom)
	tl = &model.Timeline{
		Source:  model.SourceInfo{Kind: c.kind, Name: c.root.Name},
		Host:    c.host, // its Sysctls map is replaced, never written, when refreshed
		Samples: make([]model.Sample, 0, len(c.window)+1),
		Log:     model.NewLog(log),
		Events:  events,
		Cgroups: c.cgroups,
		// The rules cite the kernel's drop reasons and stall times (serve --trace) as
		// doctor --trace's do.
		Trace: model.MergeTraces(c.traceParts),
	}
	if logFrom.Before(from) {
		tl.LogCurrentSince = logFrom
	}
	get := func(ps *packedSample) model.Sample {
		if ps.full != nil {
			return *ps.full
		}
		unpacked++
		return ps.unpack(&c.templates)
	}
	// The sample before the window gives the first one its rates, unless that one has
	// them already.
	seeded := c.seed.data != nil && (len(c.window) == 0 || c.window[0].full == nil)
	if seeded {
		tl.Samples = append(tl.Samples, get(&c.seed))
	}
	for i := range c.window {
		tl.Samples = append(tl.Samples, get(&c.window[i]))
	}
	tl.DeriveRates() // only where missing: kept samples have theirs
	if seeded {
		tl.Samples = tl.Samples[1:]
	}
	for i := range c.window {
		switch {
		case keep == dropUnpacked:
			c.window[i].full = nil
		case keep == keepUnpacked && c.window[i].full == nil:
			s := tl.Samples[i]
			c.window[i].full = &s
		}
	}
	tl.NotAvailable = append(append([]model.Unavailable(nil), c.hostMissing...), c.sampler.Unavailable()...)
	if err := c.log.err(); err != nil {
		tl.NotAvailable = append(tl.NotAvailable, model.Unavailable{What: "kernel log (/dev/kmsg)", Why: err.Error()})
	}
	return tl, unpacked
}

// refreshHost re-reads the host facts (sysctls, NIC list). c.mu is held.
func (c *Collector) refreshHost(now time.Time) {
	if nics, err := kernel.ReadNICs(c.root); err == nil {
		c.nics = nics
		c.phys = physical(nics)
	}
	c.host, c.hostMissing = source.ReadHost(c.root, c.nics)
	c.hostRead = now
	c.readCgroups()
}

// netFiles is the directory the live root reads the network files from; "" for a capture.
func (c *Collector) netFiles() string {
	if !c.root.IsLive() {
		return ""
	}
	if c.netDir == "" { // the root's, fixed when it was made: joined once, not per scrape
		c.netDir = path.Join("/", c.root.Dir(), c.root.NetDir())
	}
	return c.netDir
}

// readCgroups re-reads the socket memory per cgroup, on a live root only. c.mu is held
// (or c is not shared yet).
func (c *Collector) readCgroups() {
	if !c.root.IsLive() {
		return
	}
	cg, err := kernel.ReadCgroupSockets(c.root)
	c.cgroups = cg
	if err != nil {
		c.hostMissing = append(c.hostMissing, model.Unavailable{What: "cgroup socket memory", Why: err.Error()})
	}
}

// refreshTCPSysctls re-reads tcpSysctls. The map is replaced, not written, because the
// timelines of earlier diagnoses share it.
func (c *Collector) refreshTCPSysctls() error {
	var firstErr error
	var changed map[string]string
	for i, k := range tcpSysctls {
		v, err := c.sysctls[i].read(c.host.Sysctls[k])
		if err != nil {
			if firstErr == nil && k == "net.ipv4.tcp_mem" {
				firstErr = err
			}
			continue
		}
		if c.host.Sysctls[k] != v {
			if changed == nil {
				changed = maps.Clone(c.host.Sysctls)
				if changed == nil {
					changed = map[string]string{}
				}
			}
			changed[k] = v
		}
	}
	if changed != nil {
		c.host.Sysctls = changed
	}
	return firstErr
}

// sampleNICs adds the ethtool view of the physical NICs to s: driver statistics and rings
// are what the NIC rules and the loss metrics read. A capture root reads its stored
// headroom/ethtool files through the same function.
func (c *Collector) sampleNICs(s *model.Sample) {
	if !c.opt.Ethtool {
		return
	}
	if len(c.phys) == 0 || (c.root.IsLive() && c.eth == nil) {
		return
	}
	s.NICStats = kernel.ReadNICStats(c.root, c.eth, c.phys)
}

func physical(nics []kernel.NIC) []kernel.NIC {
	var out []kernel.NIC
	for _, n := range nics {
		if !n.Virtual && n.Name != "lo" {
			out = append(out, n)
		}
	}
	return out
}

// bootTime is /proc/stat btime, zero when unknown.
func bootTime(s *model.Sample) time.Time {
	if s.Stat != nil {
		if bt, ok := s.Stat.Scalars.Get("btime"); ok {
			return time.Unix(bt, 0)
		}
	}
	return time.Time{}
}

// SourceStatus says whether one kernel interface could be read for the newest sample.
type SourceStatus struct {
	Source    string // "/proc/zoneinfo", "/dev/kmsg", "ethtool", "sock_diag"
	Available bool
	Why       string // why not, when known
}

// sources lists what the newest sample read, judged by what it holds (absent is not zero:
// a source that failed leaves its fields empty). The list of the previous sample is
// returned when nothing changed, as it almost always is.
func (c *Collector) sources(s *model.Sample, tcpMemErr error) []SourceStatus {
	out := c.srcBuf[:0]
	var why map[string]string
	reasonFor := func(name string) string {
		if why == nil {
			why = map[string]string{}
			for _, u := range c.sampler.Unavailable() {
				why[u.What] = u.Why
			}
		}
		return why[name]
	}
	add := func(name string, ok bool, reason string) {
		if ok {
			reason = ""
		} else if reason == "" {
			reason = reasonFor(name)
		}
		out = append(out, SourceStatus{Source: name, Available: ok, Why: reason})
	}
	add("/proc/meminfo", s.MemInfo != nil, "")
	add("/proc/vmstat", s.VMStat != nil, "")
	add("/proc/zoneinfo", len(s.Zones) > 0, "")
	add("/proc/buddyinfo", len(s.Buddy) > 0, "")
	if c.opt.PageTypes {
		add("/proc/pagetypeinfo", s.PageTypes != nil, "")
	}
	add("/proc/net/dev", len(s.NetDev) > 0, "")
	add("/proc/net/netstat", s.NetStat.Group("TcpExt") != nil, "")
	add("/proc/net/snmp", c.snmpOK, "") // read by window samples only (exposedParts)
	add("/proc/net/sockstat", s.SockStat.Group("TCP") != nil, "")
	add("/proc/net/protocols", len(s.Protocols) > 0, "") // window samples only, as snmp
	add("/proc/net/softnet_stat", len(s.Softnet) > 0, "")
	for _, res := range psiSources {
		add(res.path, s.Pressure(res.resource) != nil, "")
	}
	if err := c.log.err(); err != nil {
		add("/dev/kmsg", false, err.Error())
	} else {
		add("/dev/kmsg", true, "")
	}
	add("/proc/sys/net/ipv4/tcp_mem", tcpMemErr == nil, errText(tcpMemErr))
	if c.opt.Ethtool && len(c.phys) > 0 {
		ok, reason := false, errText(c.ethErr)
		for _, st := range s.NICStats {
			if st.Stats != nil || st.Ring != nil {
				ok = true
			} else if reason == "" {
				reason = st.StatsErr
			}
		}
		add("ethtool", ok, reason)
	}
	if c.opt.Sockets {
		reason := ""
		if s.Sockets == nil {
			reason = reasonFor("sock_diag TCP dump")
		}
		add("sock_diag", s.Sockets != nil, reason)
	}
	c.srcBuf = out
	if !slices.Equal(out, c.lastSource) {
		c.lastSource = slices.Clone(out) // snapshots share it: never written after
	}
	return c.lastSource
}

var psiSources = []struct{ resource, path string }{
	{"cpu", "/proc/pressure/cpu"}, {"memory", "/proc/pressure/memory"}, {"io", "/proc/pressure/io"},
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Snapshot is one sample, its metrics, and the last diagnosis. Everything in it is
// read-only once published.
type Snapshot struct {
	Time time.Time // when the newest sample was taken
	// Sample and Timeline are the newest sample and the window it closes, unpacked for
	// Collector.Snapshot (nil in the snapshots the /metrics path uses).
	Sample    *model.Sample
	Timeline  *model.Timeline
	Diagnosis diagnose.Diagnosis // the last run of the rules, at DiagnosedAt
	// DiagnosedAt is the time of the newest sample the rules saw: Time, or up to the rules
	// interval before it.
	DiagnosedAt       time.Time
	DiagnosisWindow   int // samples the rules saw
	Sources           []SourceStatus
	SampleDuration    time.Duration // reading and parsing every source, ethtool and the log
	DiagnosisDuration time.Duration // the last run of the rules
	SamplesTaken      uint64
	LogLost           uint64

	allocs  []allocCount
	cgroups []kernel.CgroupSock
	// netFiles is where the network files were read (headroom_network_view_info), for a
	// live root.
	netFiles string
	// trace are the traced windows' totals (serve --trace).
	trace  traceTotals
	points []point
	tmpl   *expoTemplate // the exposition of points but their values; nil: appendExposition
	done   time.Time

	once    sync.Once
	metrics []prometheus.Metric
	bodies  bodyCache
	pool    *bodyPool // where its bodies' buffers come from and go back to; nil: not pooled
}

// Metrics returns the snapshot's metrics, built once and shared by every scrape that
// reads this snapshot.
func (s *Snapshot) Metrics() []prometheus.Metric {
	s.once.Do(func() { s.metrics = constMetrics(s.points) })
	return s.metrics
}
