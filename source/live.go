package source

import (
	"errors"
	"fmt"
	"io"
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
}

// DefaultOptions are what doctor uses: everything but pagetypeinfo.
func DefaultOptions() Options { return Options{Sockets: true, Ethtool: true, TopSockets: 10} }

// Sampler reads samples from a Root. It is not safe for concurrent use.
type Sampler struct {
	root kernel.Root
	opts Options

	meminfo, vmstat, buddy, zoneinfo, pagetype *procFile
	netdev, netstat, snmp, snmp6               *procFile
	sockstat, sockstat6, protocols, softnet    *procFile
	stat, interrupts, loadavg                  *procFile
	psi                                        []*procFile
	threads                                    []*procFile

	eth  kernel.Ethtool
	nics []kernel.NIC

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
	s := &Sampler{root: root, opts: opts, unavailable: map[string]string{}}
	open := func(name string) *procFile { return openProcFile(root, name) }
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
	s.stat = open("proc/stat")
	s.interrupts = open("proc/interrupts")
	s.loadavg = open("proc/loadavg")
	for _, res := range []string{"cpu", "memory", "io"} {
		s.psi = append(s.psi, open("proc/pressure/"+res))
	}
	if ts, err := kernel.ReadKernelThreads(root, "kswapd", "kcompactd", "ksoftirqd"); err == nil {
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
	return s
}

// note records an interface that could not be read; the first reason wins.
func (s *Sampler) note(what string, err error) {
	if err == nil {
		return
	}
	if _, seen := s.unavailable[what]; seen {
		return
	}
	why := err.Error()
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

// Sample reads one sample, stamped with now.
func (s *Sampler) Sample(now time.Time) model.Sample {
	sm := model.Sample{Time: now, Source: "/proc"}
	if s.root.Dir() == "" {
		sm.Source = s.root.Name
	}
	if c, err := parseProc(s.meminfo, kernel.ParseMemInfo); s.ok("/proc/meminfo", err) {
		sm.MemInfo = &c
	}
	if c, err := parseProc(s.vmstat, kernel.ParseVMStat); s.ok("/proc/vmstat", err) {
		sm.VMStat = &c
	}
	if v, err := parseProc(s.buddy, kernel.ParseBuddyInfo); s.ok("/proc/buddyinfo", err) {
		sm.Buddy = v
	}
	if v, err := parseProc(s.zoneinfo, kernel.ParseZoneInfo); s.ok("/proc/zoneinfo", err) {
		sm.Zones = v
	}
	if s.pagetype != nil {
		if v, err := parseProc(s.pagetype, kernel.ParsePageTypeInfo); s.ok("/proc/pagetypeinfo", err) {
			sm.PageTypes = &v
		}
	}
	if v, err := parseProc(s.netdev, kernel.ParseNetDev); s.ok("/proc/net/dev", err) {
		sm.NetDev = v
	}
	for _, f := range []*procFile{s.netstat, s.snmp} {
		if v, err := parseProc(f, kernel.ParseNetStat); s.ok("/"+f.name, err) {
			sm.NetStat = append(sm.NetStat, v...)
		}
	}
	if v, err := parseProc(s.snmp6, kernel.ParseSNMP6); s.ok("/proc/net/snmp6", err) {
		sm.NetStat = append(sm.NetStat, v...)
	}
	for _, f := range []*procFile{s.sockstat, s.sockstat6} {
		if v, err := parseProc(f, kernel.ParseSockStat); s.ok("/"+f.name, err) {
			sm.SockStat = append(sm.SockStat, v...)
		}
	}
	if v, err := parseProc(s.protocols, kernel.ParseProtocols); s.ok("/proc/net/protocols", err) {
		sm.Protocols = v
	}
	if v, err := parseProc(s.softnet, kernel.ParseSoftnet); s.ok("/proc/net/softnet_stat", err) {
		sm.Softnet = v
	}
	if v, err := parseProc(s.stat, kernel.ParseStat); s.ok("/proc/stat", err) {
		sm.Stat = &v
	}
	if v, err := parseProc(s.interrupts, kernel.ParseInterrupts); s.ok("/proc/interrupts", err) {
		sm.Interrupts = &v
	}
	if v, err := parseProc(s.loadavg, kernel.ParseLoadAvg); s.ok("/proc/loadavg", err) {
		sm.LoadAvg = &v
	}
	for _, f := range s.psi {
		res := f.name[strings.LastIndexByte(f.name, '/')+1:]
		v, err := parseProc(f, func(r io.Reader) (kernel.Pressure, error) { return kernel.ParsePSI(res, r) })
		if s.ok("/"+f.name, err) {
			sm.PSI = append(sm.PSI, v)
		}
	}
	for _, f := range s.threads {
		// A thread that exited (CPU hot-unplug removes ksoftirqd/N) is simply skipped.
		if v, err := parseProc(f, kernel.ParseTaskStat); err == nil {
			sm.Threads = append(sm.Threads, v)
		}
	}
	if s.opts.Ethtool {
		sm.NICStats = kernel.ReadNICStats(s.root, s.eth, s.nics)
	}
	if s.opts.Sockets {
		socks, err := kernel.ReadSockets(s.root)
		if s.ok("sock_diag TCP dump", err) {
			sum := kernel.Summarize(socks, s.opts.TopSockets)
			sm.Sockets = &sum
			sm.SocketList = sum.Top
		}
	}
	return sm
}

// ok records err (once) and reports whether the read succeeded.
func (s *Sampler) ok(what string, err error) bool {
	if err != nil {
		s.note(what, err)
		return false
	}
	return true
}

// Close releases the open files and the ethtool socket.
func (s *Sampler) Close() {
	for _, f := range []*procFile{s.meminfo, s.vmstat, s.buddy, s.zoneinfo, s.pagetype, s.netdev, s.netstat, s.snmp, s.snmp6, s.sockstat, s.sockstat6, s.protocols, s.softnet, s.stat, s.interrupts, s.loadavg} {
		if f != nil {
			f.close()
		}
	}
	for _, f := range append(s.psi, s.threads...) {
		f.close()
	}
	if s.eth != nil {
		s.eth.Close()
	}
}

// errString formats an error for the report without the Go wrapping noise.
func errString(err error) string { return fmt.Sprint(err) }
