package source

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"headroom/kernel"
	"headroom/model"
)

// Options choose the costly parts of a sample.
type Options struct {
	// PageTypes reads /proc/pagetypeinfo each sample. Off by default: the kernel walks the
	// free lists under the zone lock to produce it.
	PageTypes bool
	// Sockets dumps every TCP socket through sock_diag each sample (cost grows with the
	// socket count: see docs/performance.md).
	Sockets bool
	// Ethtool reads driver statistics and ring sizes of each physical NIC.
	Ethtool bool
	// TopSockets is how many sockets by memory each sample keeps (0: 10).
	TopSockets int
	// OnSockets, when set, is given each sample's whole TCP dump (with Sockets), stamped
	// with the sample's time, before it is summarized: tune --verify follows the busiest
	// flows' tcp_info from dump to dump. The slice is reused by the next sample.
	OnSockets func(now time.Time, socks []kernel.Socket) `json:"-"`
}

// DefaultOptions are what doctor uses: everything but pagetypeinfo.
func DefaultOptions() Options { return Options{Sockets: true, Ethtool: true, TopSockets: 10} }

// Sampler reads samples from a Root. It is not safe for concurrent use.
type Sampler struct {
	root   kernel.Root
	opts   Options
	source string // Sample.Source

	meminfo, vmstat, buddy, zoneinfo, pagetype *procFile
	netdev, netstat, snmp, snmp6               *procFile
	sockstat, sockstat6, protocols, softnet    *procFile
	conntrack                                  *procFile // /proc/net/stat/nf_conntrack
	stat, interrupts, loadavg                  *procFile
	psi                                        []*procFile
	threads                                    []*procFile
	files                                      []*procFile // all of the above, in the order a sample reads them
	buf                                        []byte      // the read buffer all files share (procFile.buf)

	eth  kernel.Ethtool
	nics []kernel.NIC

	// diag is the sock_diag socket of a live root, opened with the files so that it dumps
	// the network namespace the files were opened in; socks is its reused dump buffer.
	diag    *kernel.SockDiag
	diagErr error
	socks   []kernel.Socket

	tail kernel.Groups // appendGroups' scratch

	// unavailable collects each interface that could not be read, once per run.
	unavailable map[string]string
	order       []string
}

// NewSampler opens the files of a sample under root. Files that do not exist are recorded as
// unavailable; nothing here fails for a missing interface.
func NewSampler(root kernel.Root, opts Options) *Sampler {
	if opts.TopSockets == 0 {
		opts.TopSockets = 10
	}
	s := &Sampler{root: root, opts: opts, source: "/proc", unavailable: map[string]string{}}
	if root.Dir() == "" {
		s.source = root.Name
	}
	open := func(name string) *procFile {
		p := openProcFile(root, name)
		p.buf = &s.buf
		s.files = append(s.files, p)
		return p
	}
	s.meminfo = open("proc/meminfo")
	s.vmstat = open("proc/vmstat")
	s.buddy = open("proc/buddyinfo")
	s.zoneinfo = open("proc/zoneinfo")
	if opts.PageTypes {
		s.pagetype = open("proc/pagetypeinfo")
	}
	s.netdev = open(root.NetPath("dev"))
	s.netstat = open(root.NetPath("netstat"))
	s.snmp = open(root.NetPath("snmp"))
	s.snmp6 = open(root.NetPath("snmp6"))
	s.sockstat = open(root.NetPath("sockstat"))
	s.sockstat6 = open(root.NetPath("sockstat6"))
	s.protocols = open(root.NetPath("protocols"))
	s.softnet = open(root.NetPath("softnet_stat"))
	s.conntrack = open(root.NetPath(kernel.ConntrackStatFile))
	s.stat = open("proc/stat")
	s.interrupts = open("proc/interrupts")
	s.loadavg = open("proc/loadavg")
	for _, res := range []string{"cpu", "memory", "io"} {
		s.psi = append(s.psi, open("proc/pressure/"+res))
	}
	if ts, err := kernel.ReadKernelThreads(root); err == nil {
		for _, t := range ts {
			s.threads = append(s.threads, open(kernel.TaskStatPath(t.PID)))
		}
	} else {
		s.note("kernel threads (kswapd, kcompactd, ksoftirqd)", err)
	}
	if nics, err := kernel.ReadNICs(root); err == nil {
		s.nics = nics
	} else {
		s.note("/sys/class/net", err)
	}
	if opts.Ethtool && root.IsHost() {
		if e, err := kernel.NewEthtool(); err == nil {
			s.eth = e
		} else {
			s.note("ethtool", err)
		}
	}
	if opts.Sockets && root.IsHost() {
		s.diag, s.diagErr = kernel.OpenSockDiag()
	}
	return s
}

// Files lists the files each sample reads, in the order it reads them: OS paths for a
// directory root ("/proc/meminfo"), names inside the capture otherwise. Files that could
// not be opened are left out, and so are the sock_diag dump and the ethtool queries, which
// are not files. `make bench` gives this list to its C floor program, so both read the same
// files.
func (s *Sampler) Files() []string {
	out := make([]string, 0, len(s.files))
	for _, f := range s.files {
		switch {
		case f.err != nil:
		case f.fd >= 0:
			out = append(out, filepath.Join(s.root.Dir(), f.name))
		default:
			out = append(out, f.name)
		}
	}
	return out
}

// note records an interface that could not be read; the first reason wins.
func (s *Sampler) note(what string, err error) {
	if err == nil {
		return
	}
	if _, seen := s.unavailable[what]; seen {
		return
	}
	// The readers' errors start with the file's path, which What already says.
	why := strings.TrimPrefix(err.Error(), what+": ")
	if errors.Is(err, kernel.ErrNotSupported) {
		why = "not available on this kernel or host"
	}
	s.unavailable[what] = why
	s.order = append(s.order, what)
}

// Unavailable lists what could not be read so far, in the order first met.
func (s *Sampler) Unavailable() []model.Unavailable {
	out := make([]model.Unavailable, 0, len(s.order))
	for _, w := range s.order {
		out = append(out, model.Unavailable{What: w, Why: s.unavailable[w]})
	}
	return out
}

// NICs returns the interfaces found when the sampler was opened.
func (s *Sampler) NICs() []kernel.NIC { return s.nics }

// Sample reads one sample, stamped with now. The sample shares no storage with the sampler
// or with earlier samples, so a Timeline can keep it.
func (s *Sampler) Sample(now time.Time) model.Sample {
	var sm model.Sample
	s.SampleInto(&sm, now)
	return sm
}

// SampleInto reads one sample into dst, reusing the storage that dst holds from an earlier
// SampleInto: counters, slices, and the strings of names that did not change. A loop that
// keeps one Sample (serve, the benchmarks) therefore allocates nothing per sample once the
// first has sized everything, pagetypeinfo included, apart from what docs/performance.md
// lists (sockets, ethtool). Whatever dst held is overwritten, rates included; a
// caller that keeps samples uses Sample. What could not be read is left nil or empty.
func (s *Sampler) SampleInto(dst *model.Sample, now time.Time) { s.SamplePartsInto(dst, now, AllParts) }

// Parts are the files (and queries) of a sample, for SamplePartsInto.
type Parts uint32

const (
	PartMemInfo    Parts = 1 << iota // /proc/meminfo
	PartVMStat                       // /proc/vmstat
	PartBuddyInfo                    // /proc/buddyinfo
	PartZoneInfo                     // /proc/zoneinfo
	PartPageTypes                    // /proc/pagetypeinfo (with Options.PageTypes)
	PartNetDev                       // /proc/net/dev
	PartNetStat                      // /proc/net/netstat
	PartSNMP                         // /proc/net/snmp
	PartSNMP6                        // /proc/net/snmp6
	PartSockStat                     // /proc/net/sockstat and sockstat6
	PartProtocols                    // /proc/net/protocols
	PartSoftnet                      // /proc/net/softnet_stat
	PartStat                         // /proc/stat
	PartInterrupts                   // /proc/interrupts
	PartLoadAvg                      // /proc/loadavg
	PartPressure                     // /proc/pressure/{cpu,memory,io}
	PartThreads                      // the kernel threads' stat files
	PartEthtool                      // ethtool statistics and rings (with Options.Ethtool)
	PartSockets                      // the sock_diag dump (with Options.Sockets)
	PartConntrack                    // /proc/net/stat/nf_conntrack (present with nf_conntrack)

	AllParts = 1<<iota - 1
)

// SamplePartsInto is SampleInto reading only parts. The fields of the parts left out keep
// what dst held, except NetStat, which holds the groups of those of netstat, snmp and snmp6
// that were read. serve
// reads each scrape the files its metrics carry and a full sample only when its window
// takes one (export.Options.WindowInterval): on this VM /proc/interrupts alone costs the
// kernel more than /proc/zoneinfo to print (show_interrupts walks every IRQ descriptor for
// every CPU, kernel/irq/proc.c).
func (s *Sampler) SamplePartsInto(dst *model.Sample, now time.Time, parts Parts) {
	dst.Time = now
	dst.Source = s.source
	clear(dst.Rates)

	if parts&PartMemInfo != 0 {
		dst.MemInfo = ptrInto(s, s.meminfo, dst.MemInfo, kernel.ParseMemInfoInto)
	}
	if parts&PartVMStat != 0 {
		dst.VMStat = ptrInto(s, s.vmstat, dst.VMStat, kernel.ParseVMStatInto)
	}
	if parts&PartBuddyInfo != 0 {
		sliceInto(s, s.buddy, &dst.Buddy, kernel.ParseBuddyInfoInto)
	}
	if parts&PartZoneInfo != 0 {
		sliceInto(s, s.zoneinfo, &dst.Zones, kernel.ParseZoneInfoInto)
	}
	if parts&PartPageTypes != 0 {
		if s.pagetype != nil {
			dst.PageTypes = ptrInto(s, s.pagetype, dst.PageTypes, kernel.ParsePageTypeInfoInto)
		} else {
			dst.PageTypes = nil
		}
	}
	if parts&PartNetDev != 0 {
		sliceInto(s, s.netdev, &dst.NetDev, kernel.ParseNetDevInto)
	}
	dst.NetStat = dst.NetStat[:0]
	if parts&PartNetStat != 0 {
		s.appendGroups(&dst.NetStat, s.netstat, kernel.ParseNetStatInto)
	}
	if parts&PartSNMP != 0 {
		s.appendGroups(&dst.NetStat, s.snmp, kernel.ParseNetStatInto)
	}
	if parts&PartSNMP6 != 0 {
		s.appendGroups(&dst.NetStat, s.snmp6, kernel.ParseSNMP6Into)
	}
	if parts&PartSockStat != 0 {
		dst.SockStat = dst.SockStat[:0]
		s.appendGroups(&dst.SockStat, s.sockstat, kernel.ParseSockStatInto)
		s.appendGroups(&dst.SockStat, s.sockstat6, kernel.ParseSockStatInto)
	}
	if parts&PartProtocols != 0 {
		sliceInto(s, s.protocols, &dst.Protocols, kernel.ParseProtocolsInto)
	}
	if parts&PartSoftnet != 0 {
		sliceInto(s, s.softnet, &dst.Softnet, kernel.ParseSoftnetInto)
	}
	if parts&PartConntrack != 0 {
		s.conntrackInto(dst)
	}
	if parts&PartStat != 0 {
		dst.Stat = ptrInto(s, s.stat, dst.Stat, kernel.ParseStatInto)
	}
	if parts&PartInterrupts != 0 {
		dst.Interrupts = ptrInto(s, s.interrupts, dst.Interrupts, kernel.ParseInterruptsInto)
	}
	if parts&PartLoadAvg != 0 {
		dst.LoadAvg = ptrInto(s, s.loadavg, dst.LoadAvg, kernel.ParseLoadAvgInto)
	}
	if parts&PartPressure != 0 {
		s.pressureInto(dst)
	}
	if parts&PartThreads != 0 {
		s.threadsInto(dst)
	}
	if parts&PartEthtool != 0 {
		dst.NICStats = nil
		if s.opts.Ethtool {
			dst.NICStats = kernel.ReadNICStats(s.root, s.eth, s.nics)
		}
	}
	if parts&PartSockets != 0 {
		dst.Sockets, dst.SocketList = nil, nil
		if s.opts.Sockets {
			socks, err := s.readSockets()
			if s.ok("sock_diag TCP dump", err) {
				if s.opts.OnSockets != nil {
					s.opts.OnSockets(now, socks)
				}
				sum := kernel.Summarize(socks, s.opts.TopSockets)
				dst.Sockets = &sum
				dst.SocketList = sum.Top
			}
		}
	}
}

// pressureInto reads the PSI files into dst.PSI.
func (s *Sampler) pressureInto(dst *model.Sample) {
	dst.PSI = dst.PSI[:0]
	for _, f := range s.psi {
		dst.PSI = grow(dst.PSI)
		p := &dst.PSI[len(dst.PSI)-1]
		b, err := f.read()
		if err == nil {
			if err = kernel.ParsePSIInto(p, f.res, b); err != nil {
				err = fmt.Errorf("%s: %w", f.path, err)
			}
		}
		if !s.ok(f.path, err) {
			dst.PSI = dst.PSI[:len(dst.PSI)-1]
		}
	}
}

// conntrackInto reads netfilter's conntrack statistics into dst.Conntrack (summed over the
// CPUs, kernel.ParseConntrackStatInto), for conntrack-full's drop, early_drop and
// insert_failed and their growth between samples. The file exists only while nf_conntrack is
// loaded (or built in), per network namespace (nf_conntrack_standalone.c registers it in each
// netns's /proc/net/stat): its absence is noted with that reason, so the counters read "not
// available", never zero.
func (s *Sampler) conntrackInto(dst *model.Sample) {
	err := s.conntrack.err
	if err == nil {
		if dst.Conntrack == nil {
			dst.Conntrack = new(kernel.Counters)
		}
		if err = parseInto(s.conntrack, dst.Conntrack, kernel.ParseConntrackStatInto); err == nil {
			return
		}
	}
	dst.Conntrack = nil
	if errors.Is(err, kernel.ErrNotSupported) {
		err = errNoConntrack
	}
	s.note(s.conntrack.path, err)
}

// errNoConntrack is why a host without /proc/net/stat/nf_conntrack has no conntrack statistics.
var errNoConntrack = errors.New("absent: nf_conntrack is not loaded in this network namespace, so conntrack drop, early_drop and insert_failed were not checked")

// threadsInto reads the kernel threads' stat files into dst.Threads.
func (s *Sampler) threadsInto(dst *model.Sample) {
	dst.Threads = dst.Threads[:0]
	for _, f := range s.threads {
		// A thread that exited (CPU hot-unplug removes ksoftirqd/N) is simply skipped. Its
		// descriptor keeps naming the exited task (the open file pins its struct pid), so
		// reads fail rather than show a task that reused the PID.
		dst.Threads = grow(dst.Threads)
		if parseInto(f, &dst.Threads[len(dst.Threads)-1], kernel.ParseTaskStatInto) != nil {
			dst.Threads = dst.Threads[:len(dst.Threads)-1]
		}
	}
}

// readSockets dumps the TCP sockets: through the kept sock_diag socket on a live root, from
// the capture's file otherwise. The dump buffer is reused; Summarize copies what it keeps.
func (s *Sampler) readSockets() ([]kernel.Socket, error) {
	if !s.root.IsHost() {
		return kernel.ReadSockets(s.root)
	}
	if s.diag == nil {
		return nil, s.diagErr
	}
	var err error
	s.socks, err = s.diag.DumpTCP(s.socks[:0])
	return s.socks, err
}

// ptrInto parses p into *old (a new value when old is nil) and returns it, or nil when the
// file could not be read or parsed.
func ptrInto[T any](s *Sampler, p *procFile, old *T, parse func(*T, []byte) error) *T {
	if p.err != nil {
		s.note(p.path, p.err) // absent for the whole run: allocate nothing
		return nil
	}
	v := old
	if v == nil {
		v = new(T)
	}
	if !s.ok(p.path, parseInto(p, v, parse)) {
		return nil
	}
	return v
}

// sliceInto parses p into *v, reusing its storage, or leaves it empty (keeping the storage
// for the next sample) when the file could not be read or parsed. v points into the
// Sample so that passing it to parse allocates nothing.
func sliceInto[T any](s *Sampler, p *procFile, v *[]T, parse func(*[]T, []byte) error) {
	if !s.ok(p.path, parseInto(p, v, parse)) {
		*v = (*v)[:0]
	}
}

// appendGroups parses p into the capacity of *dst past its length and appends the groups:
// netstat, snmp and snmp6 share one Groups in a sample, and each file's groups land on the
// same elements as in the previous sample, so their Counters are reused.
func (s *Sampler) appendGroups(dst *kernel.Groups, p *procFile, parse func(*kernel.Groups, []byte) error) {
	n := len(*dst)
	// The tail lives in the Sampler, not on the stack: its address goes to parse through a
	// func value, which would make a local escape to the heap on every call.
	s.tail = (*dst)[n:]
	defer func() { s.tail = nil }()
	if !s.ok(p.path, parseInto(p, &s.tail, parse)) || len(s.tail) == 0 {
		return
	}
	if cap(*dst)-n >= len(s.tail) && &(*dst)[:n+1][n] == &s.tail[0] {
		*dst = (*dst)[:n+len(s.tail)] // parsed in place
		return
	}
	*dst = append(*dst, s.tail...) // the tail outgrew the capacity and moved
}

// grow extends v by one element, reusing the one left in its capacity by an earlier sample.
func grow[T any](v []T) []T {
	if len(v) < cap(v) {
		return v[:len(v)+1]
	}
	var zero T
	return append(v, zero)
}

// ok records err (once) and reports whether the read succeeded.
func (s *Sampler) ok(what string, err error) bool {
	if err != nil {
		s.note(what, err)
		return false
	}
	return true
}

// Close releases the open files, the sock_diag socket and the ethtool socket.
func (s *Sampler) Close() {
	for _, f := range s.files {
		f.close()
	}
	if s.diag != nil {
		s.diag.Close()
		s.diag = nil
	}
	if s.eth != nil {
		s.eth.Close()
	}
}
