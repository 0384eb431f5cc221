package diagnose

import (
	"strings"
	"testing"

	"headroom/model"
)

// Allocation failures printed by Debian's real 6.1 kernels in the kernel lab's QEMU guests
// (issue 28; docs/lab-results.md), copied from the guests' consoles into testdata/mem.

func memGuestText(t *testing.T, name string) *model.Timeline {
	t.Helper()
	return memParseFile(t, "testdata/mem/"+name)
}

// 6.1.0-50-686-pae, 2 GiB guest, 30 stalled TCP streams with tcp_mem above lowmem: the
// GFP_ATOMIC refill of virtio_net failed with Normal at 15300 kB against min 41280 kB. The
// 6.x dump lists only DMA and Normal (the zones the request could use) and no HighMem line;
// its footer "298978 pages HighMem/MovableOnly" proves the HighMem zone. The failure is
// lowmem exhaustion, not a too-small reserve: alloc-fail-lowmem, and the reserve rule
// defers to it.
func TestAllocFailLowmemWithoutHighMemLine(t *testing.T) {
	tl := memGuestText(t, "guest-6.1-686-pae-lowmem-tcp.txt")
	var af *model.AllocFailure
	for i := range tl.Events {
		if tl.Events[i].AllocFailure != nil {
			af = tl.Events[i].AllocFailure
		}
	}
	if af == nil || af.HighMemPages == nil || *af.HighMemPages != 298978 {
		t.Fatalf("footer's HighMem pages not read: %+v", af)
	}
	for _, z := range af.Zones {
		if z.Zone == "HighMem" {
			t.Fatalf("the guest's dump has no HighMem line, the parse made one: %+v", af.Zones)
		}
	}
	if tl.Host.HighMem == nil || !*tl.Host.HighMem {
		t.Errorf("host facts: HighMem not inferred from the footer: %+v", tl.Host)
	}
	d := Run(tl, nil)
	f := memFinding(t, d, classLowmem)
	if f.Severity != Critical || !evidenceHas(f, "zone Normal", "free 15300 kB, min 41280 kB") {
		t.Errorf("lowmem finding: %v %+v", f.Severity, f.Evidence)
	}
	if !strings.Contains(strings.Join(evidenceValues(f), " "), "298978 pages HighMem") {
		t.Errorf("the finding does not say where HighMem was seen: %+v", f.Evidence)
	}
	if c := memCheck(d, classReserve); c.Status != StatusOK {
		t.Errorf("reserve should defer to lowmem: %+v", c)
	}

	// A live kernel log: the same report, HighMem known from the host (LowTotal) instead.
	tl = memGuestText(t, "guest-6.1-686-pae-lowmem-tcp.txt")
	yes := true
	for i := range tl.Events {
		if a := tl.Events[i].AllocFailure; a != nil {
			a.HighMemPages = nil
		}
	}
	tl.Host.HighMem = &yes
	memFinding(t, Run(tl, nil), classLowmem)

	// Neither the footer nor the host says HighMem: nothing proves lowmem, the zones at
	// their floor are reserve exhaustion.
	tl.Host.HighMem = nil
	d = Run(tl, nil)
	memFinding(t, d, classReserve)
	if c := memCheck(d, classLowmem); c.Status != StatusOK {
		t.Errorf("lowmem without HighMem: %+v", c)
	}
}

// 6.1.0-50-amd64, 384 MiB guest: virtio_net's GFP_ATOMIC refill failed with DMA32 at 780 kB
// against a printed min of 6936 kB, of which 4800 kB was watermark boost. The footer says 0
// pages HighMem (a 64-bit kernel): alloc-fail-reserve. The min_free_kbytes the dump implies
// is the unboosted min of DMA and DMA32 (2136 + 100 kB; the guest's setting was 2241).
func TestAllocFailReserveBoostedMin(t *testing.T) {
	tl := memGuestText(t, "guest-6.1-amd64-atomic-rx.txt")
	d := Run(tl, nil)
	f := memFinding(t, d, classReserve)
	if !evidenceHas(f, "zone DMA32", "free 780 kB, min 6936 kB") {
		t.Errorf("reserve finding: %+v", f.Evidence)
	}
	c, ok := changeFor(f, "vm.min_free_kbytes")
	if !ok || c.Current != "2236" {
		t.Errorf("min_free_kbytes inferred from the dump: %+v (want 2236: the printed min less the boost)", c)
	}
	if c := memCheck(d, classLowmem); c.Status != StatusOK {
		t.Errorf("lowmem on a 64-bit kernel: %+v", c)
	}
}

func evidenceValues(f Finding) []string {
	var out []string
	for _, e := range f.Evidence {
		out = append(out, e.What+": "+e.Value)
	}
	return out
}
