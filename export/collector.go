package export

import (
	"maps"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"headroom/diagnose"
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
	// Skip lists rule ids not to run.
	Skip map[string]bool
	// Now is the clock; nil means time.Now. Tests inject a fixed one.
	Now func() time.Time
}

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
	if o.Now == nil {
		o.Now = time.Now
	}
}

// hostRefresh is how often the sysctls rules read and the NIC list are read again: they
// change rarely (tune --apply, a hot-plugged NIC) and cost a file open each.
const hostRefresh = time.Minute

// Collector is a prometheus.Collector over one kernel.Root (the live host, a captured
// directory or a txtar capture). It is safe for concurrent use.
type Collector struct {
	root kernel.Root
	opt  Options
	kind string // model.SourceLive or model.SourceCapture

	mu          sync.Mutex
	sampler     *source.Sampler
	eth         kernel.Ethtool
	ethErr      error
	host        model.Host
	hostMissing []model.Unavailable
	hostRead    time.Time
	nics        []kernel.NIC
	log         *logWatch
	ring        []model.Sample
	taken       uint64
	snap        *Snapshot
	closed      bool
}

// NewCollector opens the files of a sample under root. Nothing fails for a missing
// interface: what cannot be read is reported by headroom_source_available.
func NewCollector(root kernel.Root, opt Options) *Collector {
	opt.defaults()
	c := &Collector{root: root, opt: opt, kind: model.SourceCapture}
	if root.IsHost() {
		c.kind = model.SourceLive
	}
	// The sampler's own ethtool pass queries every interface; Collector asks only the
	// physical ones (see sampleNICs), so it is off here.
	c.sampler = source.NewSampler(root, source.Options{PageTypes: opt.PageTypes, Sockets: opt.Sockets})
	c.nics = c.sampler.NICs()
	c.host, c.hostMissing = source.ReadHost(root, c.nics)
	c.hostRead = opt.Now()
	if opt.Ethtool && root.IsHost() {
		c.eth, c.ethErr = kernel.NewEthtool()
	}
	c.log = newLogWatch(root, c.host.Kernel)
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
	s := c.Snapshot()
	for _, m := range s.Metrics() {
		ch <- m
	}
}

// Snapshot returns the current state: the last sample when it is younger than MinInterval,
// otherwise a new one. Callers that arrive while a sample is being taken wait for it and
// share it (the mutex makes the sampling single-flight).
func (c *Collector) Snapshot() *Snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap != nil && (c.closed || c.opt.Now().Sub(c.snap.done) < c.opt.MinInterval) {
		return c.snap
	}
	if c.closed {
		return &Snapshot{}
	}
	c.snap = c.refresh()
	return c.snap
}

// Last returns the last snapshot without sampling, or nil before the first.
func (c *Collector) Last() *Snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.snap
}

// refresh takes a sample, updates the window and runs the diagnosis. c.mu is held.
func (c *Collector) refresh() *Snapshot {
	start := c.opt.Now()
	if start.Sub(c.hostRead) >= hostRefresh {
		c.refreshHost(start)
	}
	s := c.sampler.Sample(start)
	c.sampleNICs(&s)
	tcpMemErr := c.refreshTCPSysctls()
	c.log.poll(start, bootTime(&s))
	c.taken++

	// Rates for the interval ending at this sample, from the previous one.
	if n := len(c.ring); n > 0 {
		pair := model.Timeline{Host: c.host, Samples: []model.Sample{c.ring[n-1], s}}
		pair.DeriveRates()
		s = pair.Samples[1]
	}
	c.ring = append(c.ring, s)
	from := start.Add(-c.opt.Window)
	drop := 0
	for drop < len(c.ring)-1 && (len(c.ring)-drop > c.opt.WindowSamples || c.ring[drop].Time.Before(from)) {
		drop++
	}
	c.ring = append(c.ring[:0:0], c.ring[drop:]...)
	sampled := c.opt.Now()

	log, events := c.log.window(from)
	tl := &model.Timeline{
		Source:  model.SourceInfo{Kind: c.kind, Name: c.root.Name},
		Host:    c.host, // its Sysctls map is replaced, never written, when refreshed
		Samples: c.ring, // never written in place: each refresh builds a new ring (above)
		Log:     log,
		Events:  events,
	}
	tl.NotAvailable = append(append([]model.Unavailable(nil), c.hostMissing...), c.sampler.Unavailable()...)
	if err := c.log.err(); err != nil {
		tl.NotAvailable = append(tl.NotAvailable, model.Unavailable{What: "kernel log (/dev/kmsg)", Why: err.Error()})
	}
	d := diagnose.Run(tl, c.opt.Skip)
	done := c.opt.Now()

	snap := &Snapshot{
		Time:              start,
		Sample:            &c.ring[len(c.ring)-1],
		Timeline:          tl,
		Diagnosis:         d,
		SampleDuration:    sampled.Sub(start),
		DiagnosisDuration: done.Sub(sampled),
		SamplesTaken:      c.taken,
		LogLost:           c.log.lost(),
		allocs:            c.log.allocCounts(),
		nics:              c.nics,
		done:              done,
	}
	snap.Sources = c.sources(&s, tcpMemErr)
	return snap
}

// refreshHost re-reads the host facts (sysctls, NIC list). c.mu is held.
func (c *Collector) refreshHost(now time.Time) {
	if nics, err := kernel.ReadNICs(c.root); err == nil {
		c.nics = nics
	}
	c.host, c.hostMissing = source.ReadHost(c.root, c.nics)
	c.hostRead = now
}

// refreshTCPSysctls re-reads on every sample the two limits the TCP metrics are compared
// with, so that a change (tune --apply) shows at once. The map is replaced, not written,
// because earlier snapshots share it.
func (c *Collector) refreshTCPSysctls() error {
	var firstErr error
	var changed map[string]string
	for _, k := range []string{"net.ipv4.tcp_mem", "net.ipv4.tcp_max_orphans"} {
		v, err := kernel.ReadSysctl(c.root, k)
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
	phys := physical(c.nics)
	if len(phys) == 0 || (c.root.IsHost() && c.eth == nil) {
		return
	}
	s.NICStats = kernel.ReadNICStats(c.root, c.eth, phys)
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
// a source that failed leaves its fields empty).
func (c *Collector) sources(s *model.Sample, tcpMemErr error) []SourceStatus {
	why := map[string]string{}
	for _, u := range c.sampler.Unavailable() {
		why[u.What] = u.Why
	}
	var out []SourceStatus
	add := func(name string, ok bool, reason string) {
		if !ok && reason == "" {
			reason = why[name]
		}
		if ok {
			reason = ""
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
	add("/proc/net/snmp", s.NetStat.Group("Tcp") != nil, "")
	add("/proc/net/sockstat", s.SockStat.Group("TCP") != nil, "")
	add("/proc/net/protocols", len(s.Protocols) > 0, "")
	add("/proc/net/softnet_stat", len(s.Softnet) > 0, "")
	for _, res := range []string{"cpu", "memory", "io"} {
		add("/proc/pressure/"+res, s.Pressure(res) != nil, "")
	}
	if err := c.log.err(); err != nil {
		add("/dev/kmsg", false, err.Error())
	} else {
		add("/dev/kmsg", true, "")
	}
	add("/proc/sys/net/ipv4/tcp_mem", tcpMemErr == nil, errText(tcpMemErr))
	if c.opt.Ethtool && len(physical(c.nics)) > 0 {
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
		add("sock_diag", s.Sockets != nil, why["sock_diag TCP dump"])
	}
	return out
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Snapshot is one sample with the window it closes and the diagnosis of that window.
// Everything in it is read-only once published.
type Snapshot struct {
	Time              time.Time // when the newest sample was taken
	Sample            *model.Sample
	Timeline          *model.Timeline // the diagnosed window
	Diagnosis         diagnose.Diagnosis
	Sources           []SourceStatus
	SampleDuration    time.Duration // reading and parsing every source, ethtool and the log
	DiagnosisDuration time.Duration
	SamplesTaken      uint64
	LogLost           uint64

	allocs []allocCount
	nics   []kernel.NIC
	done   time.Time

	once    sync.Once
	metrics []prometheus.Metric
}

// Metrics returns the snapshot's metrics, built once and shared by every scrape that
// reads this snapshot.
func (s *Snapshot) Metrics() []prometheus.Metric {
	s.once.Do(func() {
		if s.Sample == nil {
			return
		}
		s.metrics = buildMetrics(s)
	})
	return s.metrics
}
