package diagnose

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"headroom/kernel"
	"headroom/model"
)

// Test helpers of the memory rules.

func memCounters(kv ...any) *kernel.Counters { c := counters(kv...); return &c }

func memBool(b bool) *bool { return &b }

// memZone builds a show_mem zone line: kB values, lowmem_reserve in pages, free blocks per
// order.
func memZone(name string, freeKB, minKB, presentKB int64, reserve []int64, blocks []int64) model.ZoneReport {
	return model.ZoneReport{Zone: name, FreeKB: freeKB, MinKB: minKB, LowKB: minKB * 5 / 4, HighKB: minKB * 3 / 2,
		PresentKB: presentKB, LowmemReserve: reserve, FreeBlocks: blocks}
}

// memAllocEvent builds an allocation-failure event.
func memAllocEvent(line int, proc string, order int, mode string, flags []string, atomic *bool, kernelRel string, zones []model.ZoneReport, trace ...string) model.Event {
	return model.Event{Kind: model.EventAllocFailure, Source: "line " + strconv.Itoa(line), FirstLine: line,
		AllocFailure: &model.AllocFailure{Process: proc, Order: order, Mode: mode, GFPFlags: flags, Atomic: atomic,
			Kernel: kernelRel, Zones: zones, CallTrace: trace}}
}

// memSeed004Zones is the zone dump of seed 004 (Fermilab, 2.6.13-2smp, 8 GB 32-bit), numbers
// as printed there.
func memSeed004Zones() []model.ZoneReport {
	return []model.ZoneReport{
		memZone("DMA", 5276, 4680, 16384, []int64{0, 880, 8944}, []int64{1, 1, 1, 0, 0, 1, 0, 0, 1, 0, 1}),
		memZone("Normal", 12248, 32768, 901120, []int64{0, 0, 64512}, []int64{0, 1, 1, 0, 1, 1, 1, 3, 2, 2, 1}),
		memZone("HighMem", 744, 512, 8257536, []int64{0, 0, 0}, []int64{0, 1, 16, 1, 3, 0, 1, 0, 0, 0, 0}),
	}
}

// memTextTimeline is a timeline of a pasted text: no samples, a log.
func memTextTimeline() *model.Timeline {
	tl := &model.Timeline{Source: model.SourceInfo{Kind: model.SourceText, Name: "test.txt"}}
	tl.Host.Sysctls = map[string]string{}
	return tl
}

// memHost64 is a 64-bit host with a 10 Gbit/s NIC and 16 GiB.
func memHost64(tl *model.Timeline, kernelRel string) {
	tl.Host.Kernel = kernelRel
	tl.Host.Arch = "x86_64"
	tl.Host.SetPageSize(4096)
	tl.Host.MemTotalKB = 16 << 20
	tl.Host.CPUs = 8
	tl.Host.NICs = []kernel.NIC{{Name: "eth0", Driver: "ixgbe", SpeedMbps: 10000, MTU: 1500, Operstate: "up"}}
	if tl.Host.Sysctls == nil {
		tl.Host.Sysctls = map[string]string{}
	}
}

func findingsBySeverity(d Diagnosis, family Family, min Severity) []Finding {
	var out []Finding
	for _, f := range d.Findings {
		if r, ok := Lookup(f.ID); ok && r.Family == family && f.Severity >= min {
			out = append(out, f)
		}
	}
	return out
}

func changeFor(f Finding, key string) (model.Change, bool) {
	for _, c := range f.Changes {
		if c.Key == key {
			return c, true
		}
	}
	return model.Change{}, false
}

// memHostFixture reads testdata/mem/host-6.18-idle.txtar: two snapshots of this CI host one
// second apart, as a live timeline.
func memHostFixture(t *testing.T) *model.Timeline {
	t.Helper()
	data, err := os.ReadFile("testdata/mem/host-6.18-idle.txtar")
	if err != nil {
		t.Fatal(err)
	}
	a := txtar.Parse(data)
	file := func(name string) []byte {
		for _, f := range a.Files {
			if f.Name == name {
				return f.Data
			}
		}
		t.Fatalf("fixture lacks %s", name)
		return nil
	}
	tl := &model.Timeline{Source: model.SourceInfo{Kind: model.SourceLive, Name: "ci"}}
	tl.Host = model.Host{Kernel: "6.18.44-fc-v669", Arch: "x86_64", WordBits: 64, CPUs: 2,
		NICs:    []kernel.NIC{{Name: "eth0", Driver: "virtio_net", SpeedMbps: -1, MTU: 1400, Operstate: "up"}},
		Sysctls: map[string]string{}}
	tl.Host.SetPageSize(4096)
	for _, f := range a.Files {
		if k, ok := strings.CutPrefix(f.Name, "proc/sys/"); ok {
			tl.Host.Sysctls[strings.ReplaceAll(k, "/", ".")] = strings.TrimSpace(string(f.Data))
		}
	}
	for i, p := range []string{"s0/", "s1/"} {
		var s model.Sample
		s.Time = t0.Add(time.Duration(i) * time.Second)
		s.Source = "/proc"
		var err error
		if s.Buddy, err = kernel.ParseBuddyInfo(bytes.NewReader(file(p + "proc/buddyinfo"))); err != nil {
			t.Fatal(err)
		}
		if s.Zones, err = kernel.ParseZoneInfo(bytes.NewReader(file(p + "proc/zoneinfo"))); err != nil {
			t.Fatal(err)
		}
		mi, err := kernel.ParseMemInfo(bytes.NewReader(file(p + "proc/meminfo")))
		if err != nil {
			t.Fatal(err)
		}
		s.MemInfo = &mi
		vm, err := kernel.ParseVMStat(bytes.NewReader(file(p + "proc/vmstat")))
		if err != nil {
			t.Fatal(err)
		}
		s.VMStat = &vm
		in, err := kernel.ParseInterrupts(bytes.NewReader(file(p + "proc/interrupts")))
		if err != nil {
			t.Fatal(err)
		}
		s.Interrupts = &in
		psi, err := kernel.ParsePSI("memory", bytes.NewReader(file(p+"proc/pressure/memory")))
		if err != nil {
			t.Fatal(err)
		}
		s.PSI = []kernel.Pressure{psi}
		tl.Samples = append(tl.Samples, s)
	}
	if v, ok := tl.Samples[0].Mem("MemTotal"); ok {
		tl.Host.MemTotalKB = v
	}
	tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "virtio_net virtio0 eth0: renamed from enp0s3", Priority: 6}.WithSource("/dev/kmsg seq 1")})
	tl.DeriveRates()
	return tl
}
