package model

import (
	"cmp"
	"slices"
	"time"

	"headroom/kernel"
)

// DeltaKind says how a counter moved between two readings.
type DeltaKind uint8

const (
	// DeltaGrew: the counter did not go backwards; the delta is cur - prev.
	DeltaGrew DeltaKind = iota
	// DeltaWrapped: the counter passed the top of its width and started again at 0 (a u32
	// column such as /proc/net/softnet_stat's, printed from an unsigned int, does this after
	// 2^32 events: minutes of 10 Mpps on one CPU). The delta is the modular difference.
	DeltaWrapped
	// DeltaReset: the counter went back to (near) zero: a reboot, a driver reload, an
	// interface re-created, a CPU taken offline and back. The delta is cur, the count since
	// the reset: a lower bound of the growth, from an unknown time.
	DeltaReset
)

// Counter widths: the C type the kernel keeps the counter in.
const (
	Width32 = 32 // unsigned int: softnet_stat columns, some driver statistics
	Width64 = 64 // unsigned long / u64: vmstat, /proc/stat, netstat, /proc/net/dev on 64-bit
)

// Delta returns the growth of a counter of the given width (Width32 or Width64) from prev to
// cur, and how it moved. Counters are carried as int64; a u64 above 2^63 arrives negative,
// so the arithmetic is done on the unsigned values.
//
// A counter that went backwards either wrapped or was reset, and the two readings alone
// cannot always tell which. A wrap is taken when prev was in the top quarter of the range and
// the modular difference is under a quarter of it (a counter that far up, passing the top in
// less than a quarter-range of events); anything else is a reset. A u64 never realistically
// reaches its top quarter, so on 64-bit counters a drop is a reset.
func Delta(prev, cur int64, width int) (int64, DeltaKind) {
	bits := uint(width)
	if bits == 0 || bits > 64 {
		bits = 64
	}
	mask := ^uint64(0)
	if bits < 64 {
		mask = 1<<bits - 1
	}
	a, b := uint64(prev)&mask, uint64(cur)&mask
	if b >= a {
		return int64(b - a), DeltaGrew
	}
	quarter := mask>>2 + 1
	if d := (b - a) & mask; a >= mask-quarter+1 && d < quarter {
		return int64(d), DeltaWrapped
	}
	return int64(b), DeltaReset
}

// SoftnetDelta is the growth of one CPU's /proc/net/softnet_stat columns between two
// samples. The columns are unsigned int in struct softnet_data and printed with %08x
// (net/core/net-procfs.c softnet_seq_show), so each is a u32 that wraps.
type SoftnetDelta struct {
	CPU         int
	Processed   int64
	Dropped     int64
	TimeSqueeze int64
	// Wrapped says a column passed 2^32 in the window: the since-boot value of that column
	// is then smaller than the count since boot, and a share computed from it is wrong.
	Wrapped bool
	// Reset says a column went back (the CPU went offline and back, or another boot): the
	// deltas are lower bounds.
	Reset bool
}

// SoftnetDeltas returns the per-CPU growth between two softnet readings, for the CPUs
// present in both (matched by CPU number: a CPU taken offline drops its row).
func SoftnetDeltas(prev, cur []kernel.SoftnetCPU) []SoftnetDelta {
	var out []SoftnetDelta
	for _, c := range cur {
		i := slices.IndexFunc(prev, func(p kernel.SoftnetCPU) bool { return p.CPU == c.CPU })
		if i < 0 {
			continue
		}
		p := prev[i]
		d := SoftnetDelta{CPU: c.CPU}
		var k [3]DeltaKind
		d.Processed, k[0] = Delta(p.Processed, c.Processed, Width32)
		d.Dropped, k[1] = Delta(p.Dropped, c.Dropped, Width32)
		d.TimeSqueeze, k[2] = Delta(p.TimeSqueeze, c.TimeSqueeze, Width32)
		for _, kind := range k {
			d.Wrapped = d.Wrapped || kind == DeltaWrapped
			d.Reset = d.Reset || kind == DeltaReset
		}
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b SoftnetDelta) int { return cmp.Compare(a.CPU, b.CPU) })
	return out
}

// SoftnetTotals sums per-CPU deltas.
func SoftnetTotals(ds []SoftnetDelta) (t SoftnetDelta) {
	t.CPU = -1
	for _, d := range ds {
		t.Processed += d.Processed
		t.Dropped += d.Dropped
		t.TimeSqueeze += d.TimeSqueeze
		t.Wrapped = t.Wrapped || d.Wrapped
		t.Reset = t.Reset || d.Reset
	}
	return t
}

// SoftnetWindow returns the per-CPU growth of the softnet columns between the first and the
// last sample that have them, and the seconds between those two (0 when unknown). ok is
// false with fewer than two such samples or no CPU in common.
func (t *Timeline) SoftnetWindow() (per []SoftnetDelta, seconds float64, ok bool) {
	has := func(s *Sample) bool { return len(s.Softnet) > 0 }
	first, last := t.FirstWith(has), t.LastWith(has)
	if first == nil || first == last {
		return nil, 0, false
	}
	per = SoftnetDeltas(first.Softnet, last.Softnet)
	if !first.Time.IsZero() && !last.Time.IsZero() {
		seconds = last.Time.Sub(first.Time).Seconds()
	}
	return per, seconds, len(per) > 0
}

// SoftnetProcessedWrapped reports whether the since-boot processed column of last (a u32
// per CPU) has passed 2^32 at least once, so that it is smaller than the packets the CPU
// processed since boot and no share may be computed from it: a CPU whose column wrapped
// inside the window, or whose processing rate in the window, kept since boot (/proc/stat
// btime), adds up to 2^32 or more.
func SoftnetProcessedWrapped(last *Sample, per []SoftnetDelta, seconds float64) bool {
	uptime := 0.0
	if last != nil && last.Stat != nil && !last.Time.IsZero() {
		if bt, ok := last.Stat.Scalars.Get("btime"); ok && bt > 0 {
			uptime = last.Time.Sub(time.Unix(bt, 0)).Seconds()
		}
	}
	for _, d := range per {
		if d.Wrapped {
			return true
		}
		if seconds > 0 && uptime > 0 && float64(d.Processed)/seconds*uptime >= 1<<32 {
			return true
		}
	}
	return false
}
