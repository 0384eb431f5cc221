package source

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"headroom/internal/testkit"
	"headroom/kernel"
	"headroom/model"
)

// frozenRoot unpacks the committed capture of a 6.18 VM into a directory, so that the
// sampler reads it through the same open-once/pread path as the live host but the contents
// do not move between reads.
func frozenRoot(t testing.TB) (kernel.Root, string) {
	t.Helper()
	dir := testkit.CaptureDir(t, "../testdata/captures/vm-6.18.txtar")
	return kernel.DirRoot(dir), dir
}

// The file-reading options of a sample: what the floor comparison measures.
var filesOnly = Options{}

// SampleInto into a reused Sample gives exactly what a fresh Sample gives, however many
// times the storage is reused.
func TestSampleIntoMatchesSample(t *testing.T) {
	root, _ := frozenRoot(t)
	s := NewSampler(root, Options{PageTypes: true, Sockets: true, Ethtool: true})
	defer s.Close()
	now := time.Unix(1700000000, 0)
	want := s.Sample(now)
	if want.MemInfo == nil || len(want.Zones) == 0 || len(want.NetStat) < 5 || len(want.SockStat) < 2 ||
		len(want.PSI) != 3 || len(want.Threads) == 0 || want.Interrupts == nil || want.PageTypes == nil {
		t.Fatalf("fixture sample incomplete: %+v", want)
	}
	var reused model.Sample
	for i := range 3 {
		s.SampleInto(&reused, now)
		if !reflect.DeepEqual(reused, want) {
			a, _ := json.Marshal(reused)
			b, _ := json.Marshal(want)
			t.Fatalf("SampleInto #%d differs from Sample:\n%s\n%s", i, a, b)
		}
	}
	// Stale rates of a reused sample must not survive: DeriveRates skips samples with rates.
	reused.Rates = model.Rates{"x": 1}
	s.SampleInto(&reused, now)
	if len(reused.Rates) != 0 {
		t.Errorf("rates kept across SampleInto: %v", reused.Rates)
	}
}

// A sample returned by Sample keeps its values when the files change and later samples are
// taken, through Sample or SampleInto: it shares no storage with them.
func TestSampleSharesNothing(t *testing.T) {
	root, dir := frozenRoot(t)
	s := NewSampler(root, filesOnly)
	defer s.Close()
	first := s.Sample(time.Time{})
	before, err := json.Marshal(first)
	if err != nil {
		t.Fatal(err)
	}
	var reused model.Sample
	s.SampleInto(&reused, time.Time{})
	// Rewrite files in place (same inode: the sampler's descriptors see the new text).
	for name, line := range map[string]string{
		"proc/meminfo":   "MemFree:            4242 kB",
		"proc/vmstat":    "nr_free_pages 4242",
		"proc/net/snmp6": "Ip6InReceives                   4242",
	} {
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		key, _, _ := strings.Cut(line, " ")
		lines := strings.Split(string(b), "\n")
		found := false
		for i, l := range lines {
			if strings.HasPrefix(l, key+" ") {
				lines[i], found = line, true
			}
		}
		if !found {
			t.Fatalf("%s has no %s line", name, key)
		}
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s.SampleInto(&reused, time.Time{})
	second := s.Sample(time.Time{})
	after, _ := json.Marshal(first)
	if !bytes.Equal(before, after) {
		t.Error("a kept sample changed when later samples were read")
	}
	if v, _ := second.Mem("MemFree"); v != 4242 {
		t.Errorf("MemFree after the rewrite: %d, want 4242", v)
	}
	if v, _ := reused.VM("nr_free_pages"); v != 4242 {
		t.Errorf("nr_free_pages after the rewrite: %d, want 4242", v)
	}
	if v, _ := reused.NetStatValue("Ip6", "InReceives"); v != 4242 {
		t.Errorf("Ip6 InReceives after the rewrite: %d, want 4242", v)
	}
	if a, _ := first.Mem("MemFree"); a == 4242 {
		t.Error("the first sample sees the rewritten MemFree")
	}
	if a, b := first.VMStat, reused.VMStat; a == b {
		t.Error("Sample and SampleInto share a Counters")
	}
}

// Steady-state samples of the live host allocate nothing on the Go heap: every file parses
// into the reused Sample (issue 12). With pagetypeinfo too, as root.
func TestSampleIntoAllocs(t *testing.T) {
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		t.Skip("no /proc/zoneinfo: not a Linux host")
	}
	for _, opts := range []Options{filesOnly, {PageTypes: true}} {
		if opts.PageTypes && os.Geteuid() != 0 {
			t.Log("not root: /proc/pagetypeinfo is root-only since 5.4; checked without it")
			continue
		}
		s := NewSampler(kernel.HostRoot(), opts)
		var dst model.Sample
		now := time.Now()
		for range 3 {
			s.SampleInto(&dst, now)
		}
		if opts.PageTypes && dst.PageTypes == nil {
			t.Errorf("no pagetypeinfo in the sample: %v", s.Unavailable())
		}
		got := testing.AllocsPerRun(50, func() { s.SampleInto(&dst, now) })
		s.Close()
		t.Logf("allocations per steady-state sample (pagetypeinfo %v): %.1f", opts.PageTypes, got)
		// Counters that appear mid-run (a vmstat line that goes from absent to present, a
		// protocol module loaded) may rebuild one Counters or grow one slice: allow one
		// spare allocation for the whole sample.
		if got > 1 {
			t.Errorf("a steady-state sample allocates %.1f times, want 0 (1 at most, for a change of layout)", got)
		}
	}
}

// Files lists what a sample reads, and only what exists.
func TestSamplerFiles(t *testing.T) {
	root, dir := frozenRoot(t)
	s := NewSampler(root, filesOnly)
	defer s.Close()
	files := s.Files()
	if len(files) < 15 {
		t.Fatalf("only %d files: %v", len(files), files)
	}
	seen := map[string]bool{}
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("listed file %s: %v", f, err)
		}
		seen[f] = true
	}
	for _, name := range []string{"proc/meminfo", "proc/zoneinfo", "proc/net/netstat", "proc/pressure/memory"} {
		if !seen[filepath.Join(dir, name)] {
			t.Errorf("%s not listed: %v", name, files)
		}
	}
	if seen[filepath.Join(dir, "proc/pagetypeinfo")] {
		t.Error("pagetypeinfo listed though not asked for")
	}
}

// hostSampler opens the live host's sampler for a benchmark, skipping off Linux.
func hostSampler(b *testing.B, opts Options) *Sampler {
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		b.Skip("no /proc/zoneinfo: not a Linux host")
	}
	s := NewSampler(kernel.HostRoot(), opts)
	b.Cleanup(s.Close)
	return s
}

// BenchmarkSampleInto is the steady state of a collector: one full sample of the host's files
// (no sock_diag, no ethtool, no pagetypeinfo) into a reused Sample.
func BenchmarkSampleInto(b *testing.B) {
	s := hostSampler(b, filesOnly)
	var dst model.Sample
	now := time.Now()
	s.SampleInto(&dst, now)
	b.ReportAllocs()
	for b.Loop() {
		s.SampleInto(&dst, now)
	}
}

// BenchmarkSample is the same work into a fresh Sample each time (what doctor and record
// keep in a Timeline).
func BenchmarkSample(b *testing.B) {
	s := hostSampler(b, filesOnly)
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Sample(now)
	}
}

// BenchmarkSampleIntoDefault is doctor's options: the files plus the sock_diag dump of every
// TCP socket and ethtool on each physical NIC.
func BenchmarkSampleIntoDefault(b *testing.B) {
	s := hostSampler(b, DefaultOptions())
	var dst model.Sample
	now := time.Now()
	s.SampleInto(&dst, now)
	b.ReportAllocs()
	for b.Loop() {
		s.SampleInto(&dst, now)
	}
}

// BenchmarkSampleIntoPageTypes adds /proc/pagetypeinfo, which the kernel prints by walking
// every free list under the zone lock.
func BenchmarkSampleIntoPageTypes(b *testing.B) {
	if os.Geteuid() != 0 {
		b.Skip("/proc/pagetypeinfo is root-only since 5.4")
	}
	s := hostSampler(b, Options{PageTypes: true})
	var dst model.Sample
	now := time.Now()
	s.SampleInto(&dst, now)
	b.ReportAllocs()
	for b.Loop() {
		s.SampleInto(&dst, now)
	}
}

// BenchmarkReadOnly is the reads of a sample without parsing: the sampler's own floor.
func BenchmarkReadOnly(b *testing.B) {
	s := hostSampler(b, filesOnly)
	for _, f := range s.files { // size the shared read buffer outside the loop
		_, _ = f.read()
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range s.files {
			if _, err := f.read(); err != nil && f.err == nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseSample is SampleInto with each file's text taken from the committed 6.18
// capture and parsed again every time without reading: the user-space share of a sample on
// fixed text, free of the kernel's and the hypervisor's noise, so that parser changes can be
// compared by instruction count (valgrind --tool=cachegrind, docs/performance.md).
func BenchmarkParseSample(b *testing.B) {
	root, _ := frozenRoot(b)
	s := NewSampler(root, filesOnly)
	b.Cleanup(s.Close)
	for _, f := range s.files {
		if data, err := f.read(); err == nil {
			f.frozen = bytes.Clone(data)
		}
	}
	var dst model.Sample
	s.SampleInto(&dst, time.Time{})
	b.ReportAllocs()
	for b.Loop() {
		s.SampleInto(&dst, time.Time{})
	}
}

// BenchmarkOSReadFile reads the same files with os.ReadFile (open, fstat, read, close each
// time): the naive way, for comparison.
func BenchmarkOSReadFile(b *testing.B) {
	s := hostSampler(b, filesOnly)
	files := s.Files()
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			if _, err := os.ReadFile(f); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkSampleIntoCapture parses the committed 6.18 capture unpacked into a directory:
// the parse cost on fixed text, independent of what the host is doing.
func BenchmarkSampleIntoCapture(b *testing.B) {
	root, _ := frozenRoot(b)
	s := NewSampler(root, filesOnly)
	b.Cleanup(s.Close)
	var dst model.Sample
	s.SampleInto(&dst, time.Time{})
	b.ReportAllocs()
	for b.Loop() {
		s.SampleInto(&dst, time.Time{})
	}
}

// BenchmarkParseHostFiles parses each file of a sample as this host prints it right now,
// read once: which parser costs what in a sample (docs/performance.md lists the figures).
func BenchmarkParseHostFiles(b *testing.B) {
	s := hostSampler(b, filesOnly)
	var (
		mem, vm             kernel.Counters
		buddy               []kernel.BuddyZone
		zones               []kernel.Zone
		devs                []kernel.NetDev
		netstat, snmp, six  kernel.Groups
		sockstat, sockstat6 kernel.Groups
		softnet             []kernel.SoftnetCPU
		st                  kernel.Stat
		irq                 kernel.Interrupts
		load                kernel.LoadAvg
		psi                 kernel.Pressure
		task                kernel.TaskStat
		protocols           []kernel.Protocol
	)
	cases := []struct {
		f     *procFile
		parse func([]byte) error
	}{
		{s.meminfo, func(d []byte) error { return kernel.ParseMemInfoInto(&mem, d) }},
		{s.vmstat, func(d []byte) error { return kernel.ParseVMStatInto(&vm, d) }},
		{s.buddy, func(d []byte) error { return kernel.ParseBuddyInfoInto(&buddy, d) }},
		{s.zoneinfo, func(d []byte) error { return kernel.ParseZoneInfoInto(&zones, d) }},
		{s.netdev, func(d []byte) error { return kernel.ParseNetDevInto(&devs, d) }},
		{s.netstat, func(d []byte) error { return kernel.ParseNetStatInto(&netstat, d) }},
		{s.snmp, func(d []byte) error { return kernel.ParseNetStatInto(&snmp, d) }},
		{s.snmp6, func(d []byte) error { return kernel.ParseSNMP6Into(&six, d) }},
		{s.sockstat, func(d []byte) error { return kernel.ParseSockStatInto(&sockstat, d) }},
		{s.sockstat6, func(d []byte) error { return kernel.ParseSockStatInto(&sockstat6, d) }},
		{s.protocols, func(d []byte) error { return kernel.ParseProtocolsInto(&protocols, d) }},
		{s.softnet, func(d []byte) error { return kernel.ParseSoftnetInto(&softnet, d) }},
		{s.stat, func(d []byte) error { return kernel.ParseStatInto(&st, d) }},
		{s.interrupts, func(d []byte) error { return kernel.ParseInterruptsInto(&irq, d) }},
		{s.loadavg, func(d []byte) error { return kernel.ParseLoadAvgInto(&load, d) }},
		{s.psi[1], func(d []byte) error { return kernel.ParsePSIInto(&psi, "memory", d) }},
	}
	if len(s.threads) > 0 {
		cases = append(cases, struct {
			f     *procFile
			parse func([]byte) error
		}{s.threads[0], func(d []byte) error { return kernel.ParseTaskStatInto(&task, d) }})
	}
	for _, c := range cases {
		data, err := c.f.read()
		if err != nil {
			continue // not on this host
		}
		data = bytes.Clone(data)
		b.Run(strings.ReplaceAll(c.f.name, "/", "_"), func(b *testing.B) {
			if err := c.parse(data); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if err := c.parse(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// SamplePartsInto reads the parts asked for, as SampleInto reads them, and leaves the
// fields of the others as they were (NetStat: without the groups of the files not read).
func TestSamplePartsInto(t *testing.T) {
	root, dir := frozenRoot(t)
	s := NewSampler(root, Options{PageTypes: true})
	defer s.Close()
	now := time.Unix(1700000000, 0)
	full := s.Sample(now)
	if a, b := jsonOf(t, full), jsonOf(t, func() model.Sample { var m model.Sample; s.SamplePartsInto(&m, now, AllParts); return m }()); !bytes.Equal(a, b) {
		t.Fatal("SamplePartsInto(AllParts) differs from Sample")
	}

	// What serve reads between window samples: no meminfo, snmp, snmp6, stat, interrupts,
	// loadavg nor threads.
	parts := AllParts &^ (PartMemInfo | PartSNMP | PartSNMP6 | PartStat | PartInterrupts | PartLoadAvg | PartThreads)
	var fresh model.Sample
	s.SamplePartsInto(&fresh, now, parts)
	if fresh.MemInfo != nil || fresh.Stat != nil || fresh.Interrupts != nil || fresh.LoadAvg != nil || len(fresh.Threads) != 0 {
		t.Errorf("read a part left out: meminfo %v stat %v interrupts %v loadavg %v threads %d",
			fresh.MemInfo != nil, fresh.Stat != nil, fresh.Interrupts != nil, fresh.LoadAvg != nil, len(fresh.Threads))
	}
	want := full
	want.MemInfo, want.Stat, want.Interrupts, want.LoadAvg, want.Threads = nil, nil, nil, nil, nil
	want.NetStat = nil
	for _, g := range full.NetStat {
		if strings.HasSuffix(g.Name, "Ext") { // TcpExt, IpExt, MPTcpExt: /proc/net/netstat
			want.NetStat = append(want.NetStat, g)
		}
	}
	if len(want.NetStat) == 0 || len(want.NetStat) == len(full.NetStat) {
		t.Fatalf("fixture: %d of %d groups from /proc/net/netstat", len(want.NetStat), len(full.NetStat))
	}
	if a, b := jsonOf(t, fresh), jsonOf(t, want); !bytes.Equal(a, b) {
		t.Errorf("the parts read differ from the full sample's:\n%s\n%s", a, b)
	}

	// A reused sample keeps the fields of the parts left out, and reads the others anew.
	reused := s.Sample(now)
	stat, mem, threads := reused.Stat, reused.MemInfo, len(reused.Threads)
	p := filepath.Join(dir, "proc/vmstat")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, []byte("nr_free_pages "))
	if i < 0 {
		t.Fatal("no nr_free_pages in the capture's vmstat")
	}
	j := i + bytes.IndexByte(b[i:], '\n')
	if err := os.WriteFile(p, append(append(append([]byte(nil), b[:i]...), "nr_free_pages 4242"...), b[j:]...), 0o644); err != nil {
		t.Fatal(err)
	}
	s.SamplePartsInto(&reused, now.Add(time.Second), parts)
	if reused.Stat != stat || reused.MemInfo != mem || len(reused.Threads) != threads {
		t.Error("SamplePartsInto changed the fields of parts it left out")
	}
	if v, _ := reused.VM("nr_free_pages"); v != 4242 {
		t.Errorf("nr_free_pages %d after the file changed, want 4242", v)
	}
}

func jsonOf(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
