package model

import (
	"slices"
	"strings"

	"headroom/kernel"
)

// Memory is what a Timeline tells about the host's memory: its size, the lowmem of a 32-bit
// HighMem kernel and the kernel's word size, each with where it was read. A zero figure is
// unknown (absent is not zero). It is the one home of these derivations (issue 31): the
// memory rules and the network rules each had one, with different precedence (one read
// /proc/zoneinfo for lowmem, the other did not; one took the first allocation-failure report,
// the other the last).
type Memory struct {
	TotalKB     int64
	TotalSource string
	// LowmemKB is the memory a 32-bit kernel with a HighMem zone maps permanently (the zones
	// below HighMem); 0 when the host has no such split or it is unknown.
	LowmemKB     int64
	LowmemSource string
	// WordBits is 32 or 64, 0 when unknown.
	WordBits       int
	WordBitsSource string
}

// Is64Bit reports whether the kernel is known to be 64-bit.
func (m Memory) Is64Bit() bool { return m.WordBits == 64 }

// Memory derives the host's memory facts. Each figure is read from the first of these that
// has it, the most direct first:
//
//	total:  the host facts' MemTotal; the last sample's /proc/meminfo MemTotal; the newest
//	        allocation-failure report's "N pages RAM" (lib/show_mem.c), else the sum of its
//	        zones' present sizes.
//	lowmem: the host facts' LowTotal; the last sample's /proc/meminfo LowTotal (printed only
//	        under CONFIG_HIGHMEM, fs/proc/meminfo.c); the last /proc/zoneinfo sample with a
//	        HighMem zone: present pages of the zones below it; the newest allocation-failure
//	        report that shows HighMem: present kB of the zones below it. LowTotal counts
//	        managed pages and zone "present" counts spanned pages minus holes, so the zones'
//	        figure is a little larger; it is the fallback only.
//	word:   the host facts' word size; the architecture's (kernel.ArchWordBits); 32 when the
//	        host has HighMem (CONFIG_HIGHMEM exists on 32-bit architectures only).
func (t *Timeline) Memory() Memory {
	var m Memory
	pageKB := int64(4)
	if t.Host.PageSize > 0 {
		pageKB = int64(t.Host.PageSize) / 1024
	}
	if t.Host.MemTotalKB > 0 {
		m.TotalKB, m.TotalSource = t.Host.MemTotalKB, "host facts: MemTotal"
	}
	if t.Host.LowTotalKB > 0 {
		m.LowmemKB, m.LowmemSource = t.Host.LowTotalKB, "host facts: LowTotal"
	}
	if m.TotalKB == 0 {
		if s := t.LastWith(func(s *Sample) bool { v, ok := s.Mem("MemTotal"); return ok && v > 0 }); s != nil {
			v, _ := s.Mem("MemTotal")
			m.TotalKB, m.TotalSource = v, sampleFile(s, "/proc/meminfo")
		}
	}
	if m.LowmemKB == 0 {
		if s := t.LastWith(func(s *Sample) bool { v, ok := s.Mem("LowTotal"); return ok && v > 0 }); s != nil {
			v, _ := s.Mem("LowTotal")
			m.LowmemKB, m.LowmemSource = v, sampleFile(s, "/proc/meminfo")+" LowTotal"
		}
	}
	if m.LowmemKB == 0 {
		if s := t.LastWith(func(s *Sample) bool { return len(s.Zones) > 0 }); s != nil {
			var low int64
			high := false
			for _, z := range s.Zones {
				if strings.EqualFold(z.Name, "HighMem") {
					high = true
				}
				if !BelowHighMem(z.Name) {
					continue
				}
				if p, ok := z.Fields.Get("present"); ok {
					low += p * pageKB
				}
			}
			if high && low > 0 {
				m.LowmemKB, m.LowmemSource = low, sampleFile(s, "/proc/zoneinfo")+" present pages of the zones below HighMem"
			}
		}
	}
	for i := len(t.Events) - 1; i >= 0 && m.TotalKB == 0; i-- {
		// An OOM report's show_mem footer counts the host's pages too (fix68g: dump_header
		// prints the same dump as warn_alloc); the zones' present sizes are no total there,
		// as the dump may print only the request's zones.
		if o := t.Events[i].OOMKill; o != nil && o.PagesRAM != nil && *o.PagesRAM > 0 && t.Events[i].AllocFailure == nil {
			m.TotalKB, m.TotalSource = *o.PagesRAM*pageKB, "pages RAM in the OOM report at "+t.Events[i].Source
		}
	}
	for i := len(t.Events) - 1; i >= 0 && (m.LowmemKB == 0 || m.TotalKB == 0); i-- {
		af, src := t.Events[i].AllocFailure, t.Events[i].Source
		if af == nil {
			continue
		}
		if m.TotalKB == 0 {
			if af.PagesRAM != nil && *af.PagesRAM > 0 {
				m.TotalKB, m.TotalSource = *af.PagesRAM*pageKB, "pages RAM in the report at "+src
			} else {
				var sum int64
				for _, z := range af.Zones {
					sum += z.PresentKB
				}
				if sum > 0 {
					m.TotalKB, m.TotalSource = sum, "sum of the zones' present in the report at "+src
				}
			}
		}
		if m.LowmemKB == 0 && af.ShowsHighMem() {
			var low int64
			var names []string
			for _, z := range af.Zones {
				if BelowHighMem(z.Zone) && z.PresentKB > 0 {
					low += z.PresentKB
					if !slices.Contains(names, z.Zone) {
						names = append(names, z.Zone)
					}
				}
			}
			if low > 0 {
				m.LowmemKB, m.LowmemSource = low, strings.Join(names, " + ")+" present in the report at "+src
			}
		}
	}
	switch {
	case t.Host.WordBits != 0:
		m.WordBits, m.WordBitsSource = t.Host.WordBits, "host facts"
	case kernel.ArchWordBits(t.Host.Arch) != 0:
		m.WordBits, m.WordBitsSource = kernel.ArchWordBits(t.Host.Arch), "architecture "+t.Host.Arch
	case m.LowmemKB > 0 || (t.Host.HighMem != nil && *t.Host.HighMem):
		m.WordBits, m.WordBitsSource = 32, "a HighMem zone (32-bit kernels only)"
	}
	return m
}

// BelowHighMem reports whether a zone is one of those a 32-bit HighMem kernel maps
// permanently: DMA, DMA32 and Normal (enum zone_type, include/linux/mmzone.h; Movable and
// Device sit above HighMem and are not lowmem).
func BelowHighMem(zone string) bool {
	switch strings.ToLower(zone) {
	case "dma", "dma32", "normal":
		return true
	}
	return false
}

// ShowsHighMem reports whether an allocation-failure report shows a HighMem zone with pages,
// or the footer's "N pages HighMem/MovableOnly" count.
func (af *AllocFailure) ShowsHighMem() bool {
	return HasHighMemZone(af.Zones) || af.HighMemPages != nil && *af.HighMemPages > 0
}

// HasHighMemZone reports whether a zone dump lists a HighMem zone with pages present, or
// with free pages when its line was cut before present: (the free pages are the zone's own).
func HasHighMemZone(zs []ZoneReport) bool {
	for _, z := range zs {
		if strings.EqualFold(z.Zone, "HighMem") && (z.PresentKB > 0 || z.FreeKB > 0) {
			return true
		}
	}
	return false
}

// sampleFile names where a sample's values came from: the sample's own source (a line of a
// text, a capture) or, for a live sample, the file.
func sampleFile(s *Sample, file string) string {
	if s.Source != "" && s.Source != "/proc" {
		return s.Source
	}
	return file
}
