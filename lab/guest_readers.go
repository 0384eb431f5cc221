package lab

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"headroom/input"
	"headroom/lab/vm"
	"headroom/report"
)

// readers (issue 28 item 4): the live readers on a real kernel other than this host's.
// Inside the guest, doctor (live, JSON), capture, one serve scrape and a few node checks
// run; around them the guest copies its own /proc and /sys files with cat. On the host every
// figure the readers reported is compared with those copies, parsed here by a few lines of
// code of our own (not kernel/'s readers: they are what is being checked). The idle guest
// must raise no warning or critical finding, and every node check must agree with what the
// copies say.

func init() {
	register(&Scenario{
		Name:    "readers",
		Summary: "the live readers (doctor, capture, serve, check) on a real kernel in a QEMU guest, compared with the guest's own /proc and /sys",
		Guest:   &GuestScenario{Timeout: 6 * time.Minute, Run: runReaders},
	})
}

// readersMemMiB: the 32-bit guest gets 2 GiB so that it has a HighMem zone (lowmem ends
// near 896 MB: arch/x86/mm/init_32.c, MAXMEM with the default 3G/1G split); 1 GiB is plenty
// for the 64-bit one.
func readersMemMiB(goarch string) int {
	if goarch == "386" {
		return 2048
	}
	return 1024
}

// readersRawFiles are copied by the guest's cat into raw/<snapshot>/<path>.
var readersRawFiles = []string{
	"/proc/meminfo", "/proc/zoneinfo", "/proc/buddyinfo", "/proc/net/sockstat", "/proc/cpuinfo",
	"/proc/sys/kernel/osrelease", "/proc/sys/net/ipv4/tcp_mem", "/proc/sys/net/ipv4/tcp_rmem",
	"/proc/sys/net/ipv4/tcp_wmem", "/proc/sys/vm/min_free_kbytes", "/proc/sys/vm/watermark_scale_factor",
	"/proc/sys/vm/lowmem_reserve_ratio", "/sys/class/net/eth0/mtu",
}

// readersChecks are the node checks run in the guest (nodecheck); the kernel-log ones read
// the guest's /dev/kmsg, which holds its boot log only.
var readersChecks = []string{"tcp-memory-pressure", "reserve-near-min", "page-allocation-failure", "tcp-out-of-memory", "too-many-orphans"}

const readersServePort = 9100

func readersScript() string {
	var b strings.Builder
	b.WriteString(`set -u
snap() {
	d=$OUT/raw/$1
	for f in ` + strings.Join(readersRawFiles, " ") + `; do
		mkdir -p "$d$(dirname $f)"
		cat "$f" > "$d$f" 2>/dev/null
	done
	grep -m1 KernelPageSize /proc/self/smaps > "$d/pagesize"
	uname -m > "$d/machine"
	readlink /sys/class/net/eth0/device/driver > "$d/eth0-driver"
}
snap before
headroom doctor --format json > $OUT/doctor.json 2> $OUT/doctor.err
echo $? > $OUT/doctor.rc
snap after
headroom capture -o $OUT/capture.txtar 2> $OUT/capture.err
echo $? > $OUT/capture.rc
headroom serve --listen 127.0.0.1:` + strconv.Itoa(readersServePort) + ` 2> $OUT/serve.err &
pid=$!
i=0
while [ $i -lt 120 ]; do
	if wget -q -O $OUT/metrics.txt http://127.0.0.1:` + strconv.Itoa(readersServePort) + `/metrics && grep -q '^headroom_zone_watermark_pages' $OUT/metrics.txt; then break; fi
	i=$((i+1))
	sleep 1
done
kill $pid
wait $pid
snap serve
for c in ` + strings.Join(readersChecks, " ") + `; do
	headroom check $c > $OUT/check-$c.out 2>&1
	echo $? > $OUT/check-$c.rc
done
`)
	return b.String()
}

// ReadersComparison is one figure a reader reported against the guest's own file.
type ReadersComparison struct {
	Reader   string `json:"reader"` // doctor, capture, serve, check
	Figure   string `json:"figure"`
	Reported string `json:"reported"`
	Guest    string `json:"guest"` // what the guest's file said (a range for moving figures)
	OK       bool   `json:"ok"`
	Note     string `json:"note,omitempty"`
}

// ReadersDetails is the readers scenario's part of the JSON report.
type ReadersDetails struct {
	GuestRelease string              `json:"guest_release"`
	GuestMachine string              `json:"guest_machine"`
	DoctorExit   int                 `json:"doctor_exit"`
	Findings     []readersFinding    `json:"findings"`
	Comparisons  []ReadersComparison `json:"comparisons"`
	Figures      map[string]string   `json:"figures"` // the guest's own figures, as cat read them
	Failed       int                 `json:"failed"`
}

type readersFinding struct {
	ID       string `json:"id"`
	Severity string `json:"severity"`
	Title    string `json:"title"`
}

func runReaders(ctx context.Context, o GuestOptions) (*GuestReport, error) {
	k, err := vm.LookupKernel(o.Kernel)
	if err != nil {
		return nil, err
	}
	rep := &GuestReport{Scenario: "readers", Kernel: k.Stat(vm.CacheDir())}
	res, err := vm.Run(ctx, vm.Spec{
		Kernel: o.Kernel, MemoryMiB: readersMemMiB(k.GOARCH), CPUs: 2, Script: readersScript(),
		Headroom: o.Headroom, Progress: o.Progress, Timeout: 5 * time.Minute,
	})
	if res != nil {
		rep.Kernel, rep.Accel = res.Kernel, res.Accel.Accel
		rep.BootSec, rep.RunSec = res.BootTime.Seconds(), res.Elapsed.Seconds()
	}
	if err != nil {
		if res != nil {
			rep.Console = res.Console
		}
		rep.Error = err.Error()
		return rep, err
	}
	o.Progress(fmt.Sprintf("readers: guest %s (%s) booted in %.1f s, ran %.1f s under %s", res.GuestRelease, res.GuestMachine, rep.BootSec, rep.RunSec, rep.Accel))
	d, err := judgeReaders(ctx, res)
	rep.Details = d
	if err != nil {
		rep.Error = err.Error()
		rep.Console = res.Console
		return rep, err
	}
	rep.OK = d.Failed == 0 && res.ExitCode == 0
	rep.Summary = append(rep.Summary, fmt.Sprintf("%d comparisons, %d failed; doctor exit %d, %d findings", len(d.Comparisons), d.Failed, d.DoctorExit, len(d.Findings)))
	for _, c := range d.Comparisons {
		if !c.OK {
			rep.Summary = append(rep.Summary, fmt.Sprintf("MISMATCH %s %s: reported %s, guest %s %s", c.Reader, c.Figure, c.Reported, c.Guest, c.Note))
		}
	}
	if res.ExitCode != 0 {
		rep.Summary = append(rep.Summary, fmt.Sprintf("guest script exited %d: %s", res.ExitCode, res.Stderr))
	}
	return rep, nil
}

// rawSnap is one snapshot of the guest's own files.
type rawSnap struct {
	files map[string]string
}

func (s rawSnap) file(p string) string { return s.files[strings.TrimPrefix(p, "/")] }

// judgeReaders compares every reader's figures with the guest's copies.
func judgeReaders(ctx context.Context, res *vm.Result) (*ReadersDetails, error) {
	snaps := map[string]rawSnap{}
	for _, tag := range []string{"before", "after", "serve"} {
		s := rawSnap{files: map[string]string{}}
		for name, b := range res.Files {
			if rest, ok := strings.CutPrefix(name, "raw/"+tag+"/"); ok {
				s.files[rest] = string(b)
			}
		}
		if s.file("/proc/meminfo") == "" || s.file("/proc/zoneinfo") == "" {
			return nil, fmt.Errorf("readers: the guest's %s copies are missing (script stderr: %s)", tag, res.Stderr)
		}
		snaps[tag] = s
	}
	before, after, serve := snaps["before"], snaps["after"], snaps["serve"]
	d := &ReadersDetails{GuestRelease: res.GuestRelease, GuestMachine: res.GuestMachine, Figures: map[string]string{}}
	add := func(c ReadersComparison) {
		if !c.OK {
			d.Failed++
		}
		d.Comparisons = append(d.Comparisons, c)
	}
	eq := func(reader, figure string, reported any, guest any) {
		r, g := fmt.Sprint(reported), fmt.Sprint(guest)
		add(ReadersComparison{Reader: reader, Figure: figure, Reported: r, Guest: g, OK: r == g})
	}
	// missing records a figure a reader did not report: absent is not zero, and not a match.
	missing := func(reader, figure string, guest any) {
		add(ReadersComparison{Reader: reader, Figure: figure, Reported: "absent", Guest: fmt.Sprint(guest), Note: "not reported"})
	}
	// within compares a moving figure with the range the guest's copies before and after
	// the reader saw, widened by tol.
	within := func(reader, figure string, reported, a, b, tol int64, unit string) {
		lo, hi := min(a, b)-tol, max(a, b)+tol
		add(ReadersComparison{Reader: reader, Figure: figure, Reported: fmt.Sprintf("%d %s", reported, unit),
			Guest: fmt.Sprintf("%d..%d %s", min(a, b), max(a, b), unit), OK: reported >= lo && reported <= hi,
			Note: fmt.Sprintf("moving figure: guest's copies before and after, ± %d %s", tol, unit)})
	}

	// The guest's own figures.
	release := strings.TrimSpace(before.file("/proc/sys/kernel/osrelease"))
	machine := strings.TrimSpace(before.file("machine"))
	pageKB, err := rawPageKB(before.file("pagesize"))
	if err != nil {
		return nil, err
	}
	mi, ma := rawMeminfo(before.file("/proc/meminfo")), rawMeminfo(after.file("/proc/meminfo"))
	zb, za, zs := rawZones(before.file("/proc/zoneinfo")), rawZones(after.file("/proc/zoneinfo")), rawZones(serve.file("/proc/zoneinfo"))
	bb, ba := rawBuddyHighest(before.file("/proc/buddyinfo")), rawBuddyHighest(after.file("/proc/buddyinfo"))
	tcpMem := strings.Fields(before.file("/proc/sys/net/ipv4/tcp_mem"))
	cpus := strings.Count(before.file("/proc/cpuinfo"), "\nprocessor") + boolInt(strings.HasPrefix(before.file("/proc/cpuinfo"), "processor"))
	wordBits := 64
	if machine != "x86_64" {
		wordBits = 32
	}
	_, lowTotal := mi["LowTotal"]
	hasHighZone := false
	for _, z := range zb {
		hasHighZone = hasHighZone || z.name == "HighMem"
	}
	d.Figures["release"], d.Figures["machine"] = release, machine
	d.Figures["page_size"] = strconv.FormatInt(pageKB*1024, 10)
	d.Figures["MemTotal_kB"] = strconv.FormatInt(mi["MemTotal"], 10)
	if lowTotal {
		d.Figures["LowTotal_kB"] = strconv.FormatInt(mi["LowTotal"], 10)
		d.Figures["HighTotal_kB"] = strconv.FormatInt(mi["HighTotal"], 10)
	}
	d.Figures["cpus"] = strconv.Itoa(cpus)
	d.Figures["tcp_mem"] = strings.Join(tcpMem, " ")
	d.Figures["min_free_kbytes"] = strings.TrimSpace(before.file("/proc/sys/vm/min_free_kbytes"))
	d.Figures["watermark_scale_factor"] = strings.TrimSpace(before.file("/proc/sys/vm/watermark_scale_factor"))
	d.Figures["lowmem_reserve_ratio"] = strings.Join(strings.Fields(before.file("/proc/sys/vm/lowmem_reserve_ratio")), " ")
	for _, z := range zb {
		if z.managed > 0 {
			d.Figures[fmt.Sprintf("zone %d %s min/low/high/managed pages", z.node, z.name)] = fmt.Sprintf("%d/%d/%d/%d", z.min, z.low, z.high, z.managed)
		}
	}

	// doctor, live.
	var doc struct {
		Host     report.Host      `json:"host"`
		Summary  report.Summary   `json:"summary"`
		Findings []readersFinding `json:"findings"`
	}
	if err := json.Unmarshal(res.Files["doctor.json"], &doc); err != nil {
		return nil, fmt.Errorf("readers: doctor's JSON: %v (stderr: %s)", err, res.Files["doctor.err"])
	}
	d.DoctorExit, _ = strconv.Atoi(strings.TrimSpace(string(res.Files["doctor.rc"])))
	d.Findings = doc.Findings
	eq("doctor", "host.kernel", doc.Host.Kernel, release)
	eq("doctor", "host.arch", doc.Host.Arch, machine)
	eq("doctor", "host.word_bits", doc.Host.WordBits, wordBits)
	if doc.Host.HighMem == nil {
		missing("doctor", "host.highmem", hasHighZone || lowTotal)
	} else {
		eq("doctor", "host.highmem", *doc.Host.HighMem, hasHighZone || lowTotal)
	}
	eq("doctor", "host.page_size", doc.Host.PageSize, pageKB*1024)
	eq("doctor", "host.mem_total_kb", doc.Host.MemTotalKB, mi["MemTotal"])
	if lowTotal {
		eq("doctor", "host.low_total_kb", doc.Host.LowTotalKB, mi["LowTotal"])
	}
	eq("doctor", "host.cpus", doc.Host.CPUs, cpus)
	const memTolKB = 32 << 10 // headroom's own process and the guest's page cache move between copies
	optKB := func(figure string, v *int64, key string) {
		if v == nil {
			missing("doctor", figure, mi[key])
			return
		}
		within("doctor", figure, *v, mi[key], ma[key], memTolKB, "kB")
	}
	if doc.Summary.MemTotalKB == nil {
		missing("doctor", "summary.mem_total_kb", mi["MemTotal"])
	} else {
		eq("doctor", "summary.mem_total_kb", *doc.Summary.MemTotalKB, mi["MemTotal"])
	}
	optKB("summary.mem_free_kb", doc.Summary.MemFreeKB, "MemFree")
	optKB("summary.mem_available_kb", doc.Summary.MemAvailableKB, "MemAvailable")
	reportedZones := map[string]report.ZoneSummary{}
	for _, z := range doc.Summary.Zones {
		reportedZones[fmt.Sprintf("%d %s", z.Node, z.Zone)] = z
	}
	for i, z := range zb {
		if z.managed == 0 {
			continue
		}
		key := fmt.Sprintf("%d %s", z.node, z.name)
		r, ok := reportedZones[key]
		if !ok {
			missing("doctor", "zone "+key, "managed "+strconv.FormatInt(z.managed, 10)+" pages")
			continue
		}
		eq("doctor", "zone "+key+" min_kb", r.MinKB, z.min*pageKB)
		eq("doctor", "zone "+key+" low_kb", r.LowKB, z.low*pageKB)
		eq("doctor", "zone "+key+" high_kb", r.HighKB, z.high*pageKB)
		if r.ManagedKB == nil {
			missing("doctor", "zone "+key+" managed_kb", z.managed*pageKB)
		} else {
			eq("doctor", "zone "+key+" managed_kb", *r.ManagedKB, z.managed*pageKB)
		}
		within("doctor", "zone "+key+" free_kb", r.FreeKB, z.free*pageKB, zoneAt(za, i, z).free*pageKB, memTolKB, "kB")
		if r.HighestFreeOrder == nil {
			missing("doctor", "zone "+key+" highest_free_order", bb[key])
		} else {
			lo, hi := min(bb[key], ba[key]), max(bb[key], ba[key])
			add(ReadersComparison{Reader: "doctor", Figure: "zone " + key + " highest_free_order", Reported: strconv.Itoa(*r.HighestFreeOrder),
				Guest: fmt.Sprintf("%d..%d", lo, hi), OK: *r.HighestFreeOrder >= lo && *r.HighestFreeOrder <= hi, Note: "buddyinfo before and after"})
		}
	}
	if len(doc.Summary.Zones) != countPopulated(zb) {
		add(ReadersComparison{Reader: "doctor", Figure: "zones", Reported: strconv.Itoa(len(doc.Summary.Zones)), Guest: strconv.Itoa(countPopulated(zb)), Note: "populated zones in zoneinfo"})
	}
	if t := doc.Summary.TCPMem; t == nil {
		missing("doctor", "summary.tcp_mem", strings.Join(tcpMem, " "))
	} else {
		eq("doctor", "summary.tcp_mem.limits", joinInts(t.Limits), strings.Join(tcpMem, " "))
		eq("doctor", "summary.tcp_mem.page_size", t.PageSize, pageKB*1024)
		if t.Pages == nil {
			missing("doctor", "summary.tcp_mem.pages", rawSockstatMem(before.file("/proc/net/sockstat")))
		} else {
			within("doctor", "summary.tcp_mem.pages", *t.Pages, rawSockstatMem(before.file("/proc/net/sockstat")), rawSockstatMem(after.file("/proc/net/sockstat")), 16, "pages")
		}
	}
	var eth0 *report.NICSummary
	for i := range doc.Summary.NICs {
		if doc.Summary.NICs[i].Name == "eth0" {
			eth0 = &doc.Summary.NICs[i]
		}
	}
	driver := filepath.Base(strings.TrimSpace(before.file("eth0-driver")))
	mtu := strings.TrimSpace(before.file("/sys/class/net/eth0/mtu"))
	if eth0 == nil {
		missing("doctor", "nic eth0", driver)
	} else {
		eq("doctor", "nic eth0 driver", eth0.Driver, driver)
		eq("doctor", "nic eth0 mtu", eth0.MTU, mtu)
	}
	for _, f := range doc.Findings {
		if f.Severity != "info" {
			add(ReadersComparison{Reader: "doctor", Figure: "finding " + f.ID, Reported: f.Severity, Guest: "idle guest", Note: "an idle guest must raise no warning or critical: " + f.Title})
		}
	}
	eq("doctor", "exit status", d.DoctorExit, 0)

	// capture: the files it took, and the Timeline the host reads from it.
	if rc := strings.TrimSpace(string(res.Files["capture.rc"])); rc != "0" {
		add(ReadersComparison{Reader: "capture", Figure: "exit status", Reported: rc, Guest: "0", Note: string(res.Files["capture.err"])})
	} else if err := judgeCapture(ctx, res.Files["capture.txtar"], before, after, add, eq, missing); err != nil {
		add(ReadersComparison{Reader: "capture", Figure: "read back", Reported: err.Error(), Guest: "a capture input.Open reads"})
	}

	// serve: one scrape.
	m := parseExposition(string(res.Files["metrics.txt"]))
	if len(m) == 0 {
		add(ReadersComparison{Reader: "serve", Figure: "scrape", Reported: "no metrics", Guest: "an exposition", Note: string(res.Files["serve.err"])})
	} else {
		eq("serve", "headroom_page_size_bytes", m.get("headroom_page_size_bytes", ""), strconv.FormatInt(pageKB*1024, 10))
		eq("serve", "headroom_kernel_info release", m.label("headroom_kernel_info", "release"), release)
		eq("serve", "headroom_kernel_info word_bits", m.label("headroom_kernel_info", "word_bits"), strconv.Itoa(wordBits))
		for i, th := range []string{"min", "pressure", "max"} {
			if i < len(tcpMem) {
				eq("serve", "headroom_tcp_mem_limit_pages "+th, m.get("headroom_tcp_mem_limit_pages", `threshold="`+th+`"`), tcpMem[i])
			}
		}
		for i, z := range za {
			if z.managed == 0 {
				continue
			}
			zl := fmt.Sprintf(`node="%d",zone="%s"`, z.node, z.name)
			for _, w := range []struct {
				name string
				v    int64
			}{{"min", z.min}, {"low", z.low}, {"high", z.high}} {
				eq("serve", fmt.Sprintf("headroom_zone_watermark_pages %d %s %s", z.node, z.name, w.name),
					m.get("headroom_zone_watermark_pages", fmt.Sprintf(`node="%d",watermark="%s",zone="%s"`, z.node, w.name, z.name)), strconv.FormatInt(w.v, 10))
			}
			eq("serve", fmt.Sprintf("headroom_zone_managed_pages %d %s", z.node, z.name), m.get("headroom_zone_managed_pages", zl), strconv.FormatInt(z.managed, 10))
			if v, err := strconv.ParseFloat(m.get("headroom_zone_free_pages", zl), 64); err != nil {
				missing("serve", fmt.Sprintf("headroom_zone_free_pages %d %s", z.node, z.name), z.free)
			} else {
				within("serve", fmt.Sprintf("headroom_zone_free_pages %d %s", z.node, z.name), int64(v), z.free, zoneAt(zs, i, z).free, memTolKB/pageKB, "pages")
			}
		}
	}

	// check: each node check's exit status against what the copies say.
	for _, c := range readersChecks {
		rc := strings.TrimSpace(string(res.Files["check-"+c+".rc"]))
		want, why := expectCheck(c, after, res.Dmesg)
		add(ReadersComparison{Reader: "check", Figure: c, Reported: rc + " " + strings.TrimSpace(string(res.Files["check-"+c+".out"])), Guest: want + " (" + why + ")", OK: rc == want})
	}
	return d, nil
}

// judgeCapture reads the capture back as the host reads any capture (input.Open) and
// compares the Timeline's host facts and sysctls with the guest's copies.
func judgeCapture(ctx context.Context, txt []byte, before, after rawSnap, add func(ReadersComparison),
	eq func(string, string, any, any), missing func(string, string, any)) error {
	dir, err := os.MkdirTemp("", "headroom-readers-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "guest.txtar")
	if err := os.WriteFile(p, txt, 0o600); err != nil {
		return err
	}
	tl, err := input.Open(ctx, p, input.Options{})
	if err != nil {
		return err
	}
	mi := rawMeminfo(before.file("/proc/meminfo"))
	pageKB, _ := rawPageKB(before.file("pagesize"))
	eq("capture", "host.kernel", tl.Host.Kernel, strings.TrimSpace(before.file("/proc/sys/kernel/osrelease")))
	eq("capture", "host.arch", tl.Host.Arch, strings.TrimSpace(before.file("machine")))
	eq("capture", "host.page_size", tl.Host.PageSize, pageKB*1024)
	eq("capture", "host.mem_total_kb", tl.Host.MemTotalKB, mi["MemTotal"])
	if _, ok := mi["LowTotal"]; ok {
		eq("capture", "host.low_total_kb", tl.Host.LowTotalKB, mi["LowTotal"])
	}
	for _, k := range []struct{ key, file string }{
		{"net.ipv4.tcp_mem", "/proc/sys/net/ipv4/tcp_mem"},
		{"net.ipv4.tcp_rmem", "/proc/sys/net/ipv4/tcp_rmem"},
		{"net.ipv4.tcp_wmem", "/proc/sys/net/ipv4/tcp_wmem"},
		{"vm.min_free_kbytes", "/proc/sys/vm/min_free_kbytes"},
		{"vm.watermark_scale_factor", "/proc/sys/vm/watermark_scale_factor"},
		{"vm.lowmem_reserve_ratio", "/proc/sys/vm/lowmem_reserve_ratio"},
	} {
		g := strings.Join(strings.Fields(before.file(k.file)), " ")
		v, ok := tl.Host.Sysctls[k.key]
		if !ok {
			missing("capture", "sysctl "+k.key, g)
			continue
		}
		eq("capture", "sysctl "+k.key, strings.Join(strings.Fields(v), " "), g)
	}
	if len(tl.Samples) == 0 {
		add(ReadersComparison{Reader: "capture", Figure: "samples", Reported: "0", Guest: "1"})
	}
	return nil
}

// expectCheck says which exit status a node check should have given, from the guest's
// copies: 1 (problem) or 0 (ok).
func expectCheck(name string, s rawSnap, dmesg string) (string, string) {
	switch name {
	case "tcp-memory-pressure":
		mem := rawSockstatMem(s.file("/proc/net/sockstat"))
		lim := strings.Fields(s.file("/proc/sys/net/ipv4/tcp_mem"))
		if len(lim) == 3 {
			p, _ := strconv.ParseInt(lim[1], 10, 64)
			if mem >= p {
				return "1", fmt.Sprintf("sockstat mem %d ≥ pressure %d", mem, p)
			}
			return "0", fmt.Sprintf("sockstat mem %d < pressure %d", mem, p)
		}
	case "reserve-near-min":
		for _, z := range rawZones(s.file("/proc/zoneinfo")) {
			if z.managed > 0 && z.free < z.min+(z.low-z.min)/2 {
				return "1", fmt.Sprintf("zone %s free %d below the middle of min..low", z.name, z.free)
			}
		}
		return "0", "every zone's free pages above the middle of its min..low band"
	case "page-allocation-failure", "tcp-out-of-memory", "too-many-orphans":
		text := map[string]string{"page-allocation-failure": "page allocation failure", "tcp-out-of-memory": "TCP: out of memory", "too-many-orphans": "too many orphaned sockets"}[name]
		if n := strings.Count(dmesg, text); n >= 3 {
			return "1", fmt.Sprintf("%d %q in the guest's log", n, text)
		}
		return "0", fmt.Sprintf("no %q in the guest's log", text)
	}
	return "?", "no expectation"
}

// The guest's own files, parsed by the few lines each needs.

func rawMeminfo(s string) map[string]int64 {
	out := map[string]int64{}
	for _, l := range strings.Split(s, "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			continue
		}
		if n, err := strconv.ParseInt(f[0], 10, 64); err == nil {
			out[k] = n
		}
	}
	return out
}

// rawPageKB reads "KernelPageSize:        4 kB" (from /proc/self/smaps).
func rawPageKB(s string) (int64, error) {
	f := strings.Fields(s)
	if len(f) != 3 || f[0] != "KernelPageSize:" || f[2] != "kB" {
		return 0, fmt.Errorf("readers: page size copy %q", s)
	}
	return strconv.ParseInt(f[1], 10, 64)
}

type rawZone struct {
	node                          int
	name                          string
	free, min, low, high, managed int64
}

// rawZones reads each zone's "pages free", min, low, high and managed from zoneinfo (the
// first of each in a zone's block: the per-CPU pagesets further down have "high:" of
// their own, with a colon).
func rawZones(s string) []rawZone {
	var out []rawZone
	var cur *rawZone
	seen := map[string]bool{}
	for _, l := range strings.Split(s, "\n") {
		f := strings.Fields(l)
		if len(f) == 4 && f[0] == "Node" && f[2] == "zone" {
			n, _ := strconv.Atoi(strings.TrimSuffix(f[1], ","))
			out = append(out, rawZone{node: n, name: f[3]})
			cur = &out[len(out)-1]
			seen = map[string]bool{}
			continue
		}
		if cur == nil || len(f) < 2 {
			continue
		}
		key, val := f[0], f[1]
		if key == "pages" && len(f) == 3 && f[1] == "free" {
			key, val = "free", f[2]
		}
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil || seen[key] {
			continue
		}
		switch key {
		case "free":
			cur.free = n
		case "min":
			cur.min = n
		case "low":
			cur.low = n
		case "high":
			cur.high = n
		case "managed":
			cur.managed = n
		default:
			continue
		}
		seen[key] = true
	}
	return out
}

func zoneAt(zs []rawZone, i int, z rawZone) rawZone {
	if i < len(zs) && zs[i].node == z.node && zs[i].name == z.name {
		return zs[i]
	}
	return z
}

func countPopulated(zs []rawZone) int {
	n := 0
	for _, z := range zs {
		if z.managed > 0 {
			n++
		}
	}
	return n
}

// rawBuddyHighest reads the highest order with a free block per "node zone" (-1: none).
func rawBuddyHighest(s string) map[string]int {
	out := map[string]int{}
	for _, l := range strings.Split(s, "\n") {
		f := strings.Fields(l)
		if len(f) < 5 || f[0] != "Node" || f[2] != "zone" {
			continue
		}
		key := strings.TrimSuffix(f[1], ",") + " " + f[3]
		h := -1
		for i, c := range f[4:] {
			if c != "0" {
				h = i
			}
		}
		out[key] = h
	}
	return out
}

// rawSockstatMem reads "mem N" of the TCP line of sockstat, in pages.
func rawSockstatMem(s string) int64 {
	for _, l := range strings.Split(s, "\n") {
		f := strings.Fields(l)
		if len(f) > 0 && f[0] == "TCP:" {
			for i := 1; i+1 < len(f); i++ {
				if f[i] == "mem" {
					n, _ := strconv.ParseInt(f[i+1], 10, 64)
					return n
				}
			}
		}
	}
	return -1
}

func joinInts(v []int64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(s, " ")
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// exposition is a scrape, by "name{labels}" with the labels as written (serve writes them
// sorted).
type exposition map[string]string

func parseExposition(s string) exposition {
	m := exposition{}
	sc := bufio.NewScanner(bytes.NewReader([]byte(s)))
	for sc.Scan() {
		l := sc.Text()
		if l == "" || l[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(l, ' ')
		if i < 0 {
			continue
		}
		m[l[:i]] = l[i+1:]
	}
	return m
}

// get returns the value of name{labels} ("" labels: the bare name), normalised to an
// integer when it is one (serve prints large values as 1.507328e+06).
func (m exposition) get(name, labels string) string {
	k := name
	if labels != "" {
		k += "{" + labels + "}"
	}
	v, ok := m[k]
	if !ok {
		return "absent"
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && f == float64(int64(f)) {
		return strconv.FormatInt(int64(f), 10)
	}
	return v
}

// label returns label lab of the first series of name.
func (m exposition) label(name, lab string) string {
	var keys []string
	for k := range m {
		if strings.HasPrefix(k, name+"{") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, kv := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(k, name+"{"), "}"), ",") {
			if n, v, ok := strings.Cut(kv, "="); ok && n == lab {
				return strings.Trim(v, `"`)
			}
		}
	}
	return "absent"
}
