package plan

import (
	"fmt"
	"time"

	"headroom/kernel"
	"headroom/units"
)

// KernelDefaults are the buffer limits a kernel of a given version sets at boot for a given
// amount of free buffer memory. Plan never plans below them (nor below the host's current
// value) unless the memory budget forces it, and then it says so in a warning with the
// numbers (see docs/plan.md, "Invariants").
type KernelDefaults struct {
	TCPRmem [3]int64 // net.ipv4.tcp_rmem
	TCPWmem [3]int64 // net.ipv4.tcp_wmem
	RmemMax int64    // net.core.rmem_max
	WmemMax int64    // net.core.wmem_max
	Why     string   // where the numbers come from, for the plan's explanations
}

// CoreMemMaxFloor is net.core.rmem_max / wmem_max's default on 64-bit kernels from 2.6.25
// to 6.16 (SK_RMEM_MAX = _SK_MEM_OVERHEAD × _SK_MEM_PACKETS = 256 × SKB_TRUESIZE(256),
// include/net/sock.h; net/core/sock.c). Plan never plans these below it, on any kernel:
// applications that size SO_RCVBUF/SO_SNDBUF for a default host must keep getting what they
// ask for, and on kernels whose own default is lower (131071 on early 2.6, or a 32-bit
// SKB_TRUESIZE) the value is still only a cap on what a socket may ask for.
const CoreMemMaxFloor = 212992

// KernelDefaultBuffers returns the boot defaults of tcp_rmem, tcp_wmem, rmem_max and
// wmem_max for kernel k with freeBufferBytes of lowmem (MemTotal on 64-bit). tcp_init()
// (net/ipv4/tcp.c) caps the per-socket maxima at 1/128 of memory:
//
//	limit = nr_free_buffer_pages() << (PAGE_SHIFT − 7)       (bytes: memory ÷ 128)
//	tcp_wmem = {4096, 16384, max(64 KiB, min(4 MiB, limit))}
//	tcp_rmem = {4096, 87380, max(87380, min(share, limit))}
//
// with the receive share 4 MiB from 2.6.17 (John Heffner's "set default max buffers from
// memory pool size"; before it the maxima were the constants 174760 and 131072), 6 MiB from
// 3.4 (commit b49960a05e32), tcp_rmem[1] and its floor 131072 from 4.20 (commit
// a337531b942b), and a 32 MiB share from 6.16 ("tcp: increase tcp_rmem[2] to 32 MB"; this
// 6.18 host with 24 GiB reads 4096 131072 33554432). From 2.6.17 to 3.x the limit was taken
// from tcp_mem[1] rather than from free pages; that is never more than the free-pages form,
// so the form above never models a default lower than the real one.
//
// rmem_max/wmem_max are SK_RMEM_MAX (212992 on 64-bit) until net-next commit a6d4f25888b8
// ("net: set net.core.rmem_max and net.core.wmem_max to 4 MB", 2025), which this 6.18 host
// carries (4194304); plan assumes it from 6.17, the earlier of the two releases it can be
// in, so that it never assumes a default lower than the real one.
func KernelDefaultBuffers(k kernel.KernelVersion, freeBufferBytes int64) KernelDefaults {
	known := k.Known
	at := func(a, b, c int) bool { return !known || k.AtLeast(a, b, c) } // unknown = current
	limit := freeBufferBytes / 128
	if !at(2, 6, 17) {
		return KernelDefaults{TCPRmem: [3]int64{4096, 87380, 174760}, TCPWmem: [3]int64{4096, 16384, 131072},
			RmemMax: 131071, WmemMax: 131071, Why: fmt.Sprintf("%s's constants (before 2.6.17)", k)}
	}
	rshare, rfloor, rdef := int64(4<<20), int64(87380), int64(87380)
	switch {
	case at(6, 16, 0):
		rshare, rfloor, rdef = 32<<20, 131072, 131072
	case at(4, 20, 0):
		rshare, rfloor, rdef = 6<<20, 131072, 131072
	case at(3, 4, 0):
		rshare = 6 << 20
	}
	d := KernelDefaults{
		TCPRmem: [3]int64{4096, rdef, max(rfloor, min(rshare, limit))},
		TCPWmem: [3]int64{4096, 16384, max(64<<10, min(4<<20, limit))},
		RmemMax: CoreMemMaxFloor, WmemMax: CoreMemMaxFloor,
	}
	if at(6, 17, 0) {
		d.RmemMax, d.WmemMax = 4<<20, 4<<20
	}
	d.Why = fmt.Sprintf("%s's boot defaults for %s (tcp_init(): maxima ≤ memory ÷ 128 = %s)", k, units.FormatBytes(freeBufferBytes), units.FormatBytes(limit))
	return d
}

// RTTMarginFactor is the worst RTT plan assumes when no --rtt range is given: twice the
// nominal RTT. The classic rule sizes a bottleneck's buffer at one BDP (Villamizar & Song,
// 1994), so a full queue there adds one whole RTT; a flow whose buffers hold exactly one
// nominal BDP then runs at half rate.
const RTTMarginFactor = 2

// AutotuneHeadroom is how far above one BDP autotuning grows a buffer: the receiver asks for
// twice what the application copied in the last RTT (tcp_rcv_space_adjust(),
// net/ipv4/tcp_input.c) and the sender for twice the congestion window (tcp_sndbuf_expand()).
// A maximum of exactly one BDP stops that growth short of what the kernel wants.
const AutotuneHeadroom = 2

// WorstRTT is the longest RTT the buffers must cover: Input.RTTMax when given, else
// RTTMarginFactor × RTT.
func WorstRTT(in Input) time.Duration {
	if in.RTTMax > 0 {
		return max(in.RTTMax, in.RTT)
	}
	return RTTMarginFactor * in.RTT
}

// CoverBytes is the window a stream's buffer maxima must hold: the larger of autotuning's
// headroom over the BDP at the nominal RTT and the BDP at the worst RTT.
func CoverBytes(streamBitsPerSec float64, rtt, worst time.Duration) int64 {
	return max(AutotuneHeadroom*BDPBytes(streamBitsPerSec, rtt), BDPBytes(streamBitsPerSec, worst))
}

// bufSet is the four per-socket limits: tcp_rmem max, tcp_wmem max, rmem_max, wmem_max.
type bufSet struct{ r, w, cr, cw int64 }

func (v bufSet) each(f func(a, b, c int64) int64, o, p bufSet) bufSet {
	return bufSet{f(v.r, o.r, p.r), f(v.w, o.w, p.w), f(v.cr, o.cr, p.cr), f(v.cw, o.cw, p.cw)}
}

// bufferFloors are the values plan does not go below without a budget reason: the host's
// current value where known and not below the target kernel's default, else that default;
// rmem_max and wmem_max never below CoreMemMaxFloor. A current value below the kernel's
// default is raised to it (issue 27: a maximum is a cap that only a flow that needs it
// reaches, so a low one only slows that flow). src names each floor for the explanations.
func bufferFloors(k kernel.KernelVersion, basisBytes int64, cur currentMap) (floor bufSet, src [4]string) {
	d := KernelDefaultBuffers(k, basisBytes)
	floor = bufSet{d.TCPRmem[2], d.TCPWmem[2], max(d.RmemMax, CoreMemMaxFloor), max(d.WmemMax, CoreMemMaxFloor)}
	def := "the kernel default (" + k.String() + ")"
	src = [4]string{def, def, def, def}
	keep := func(i int, c int64, f *int64) {
		if c > *f {
			*f, src[i] = c, "the current value"
		}
	}
	if c, ok := cur.triplet("net.ipv4.tcp_rmem"); ok {
		keep(0, c[2], &floor.r)
	}
	if c, ok := cur.triplet("net.ipv4.tcp_wmem"); ok {
		keep(1, c[2], &floor.w)
	}
	if c, ok := cur.int("net.core.rmem_max"); ok {
		keep(2, c, &floor.cr)
	}
	if c, ok := cur.int("net.core.wmem_max"); ok {
		keep(3, c, &floor.cw)
	}
	return floor, src
}

// fitBuffers picks the per-socket limits: what the link needs or the floor, whichever is
// higher, when that fits the budget. Otherwise it first gives up what the floors hold above
// the need, evenly, and only when the need itself does not fit scales the need down, never
// below hard. The results are whole pages except where a floor or hard limit says otherwise.
func fitBuffers(want, floor, hard bufSet, page int64, fits func(bufSet) bool) bufSet {
	hi := func(a, b, _ int64) int64 { return max(a, b) }
	target := want.each(hi, floor, bufSet{})
	if fits(target) {
		return target
	}
	// lerp(s) moves from lo (s = 0) to up (s = 1), rounding down to pages, never below hard.
	search := func(lo, up bufSet) bufSet {
		at := func(s float64) bufSet {
			return lo.each(func(a, b, h int64) int64 {
				return max(h, min(b, roundDownBytes(a+int64(s*float64(b-a)), page)))
			}, up, hard)
		}
		best, l, u := at(0), 0.0, 1.0
		if !fits(best) {
			return best
		}
		for range 50 {
			m := (l + u) / 2
			if fits(at(m)) {
				l, best = m, at(m)
			} else {
				u = m
			}
		}
		return best
	}
	var v bufSet
	switch {
	case !fits(hard):
		// Even the kernel's defaults (which the flow count never lowers) exceed the budget for
		// this many streams: tcp_mem's max, not the per-socket caps, holds the host to it. The
		// caps then cover what each stream needs when all of them together fit.
		v = hard
		if fits(want) {
			v = want.each(hi, hard, bufSet{})
		}
	case fits(want.each(hi, hard, bufSet{})):
		v = search(want.each(hi, hard, bufSet{}), target)
	default:
		v = search(hard, want.each(hi, hard, bufSet{}))
	}
	// The worst case charges a socket max(tcp_rmem max, 2 × rmem_max): an autotuned buffer
	// up to twice the SO_RCVBUF cap costs nothing more, so take it (up to the target).
	v.r = max(v.r, min(target.r, 2*v.cr))
	v.w = max(v.w, min(target.w, 2*v.cw))
	return v
}
