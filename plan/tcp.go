package plan

import (
	"fmt"
	"math"
	"time"

	"headroom/kernel"
)

// BDPBytes is the bandwidth-delay product: the bytes in flight when a path of the given rate
// and round-trip time is full. A sender must be allowed to have this much unacknowledged
// data, and the receiver must advertise this much window, for one stream to fill the path.
// Rounded up; 0 for a non-positive rate or RTT.
//
//	BDP = bandwidth [bit/s] ÷ 8 × RTT [s]      (1 Gbit/s × 125 ms = 15,625,000 bytes)
func BDPBytes(bandwidthBitsPerSec float64, rtt time.Duration) int64 {
	if bandwidthBitsPerSec <= 0 || rtt <= 0 || math.IsNaN(bandwidthBitsPerSec) || math.IsInf(bandwidthBitsPerSec, 0) {
		return 0
	}
	return int64(math.Ceil(bandwidthBitsPerSec / 8 * rtt.Seconds()))
}

// MeasuredScalingRatio is the share of tcp_rmem that became receive window on this project's
// reference machine (Linux 6.18, veth, MTU 1500): one stream limited to a 1 MB receive buffer
// at 127 ms RTT reached about 43 Mbit/s, and 43e6 / 8 × 0.127 / 1e6 ≈ 0.68. Since Linux 6.6
// the kernel measures this ratio per socket as skb->len / skb->truesize of received segments
// (tp->scaling_ratio, updated in tcp_measure_rcv_mss(), net/ipv4/tcp_input.c), so it depends
// on the driver's buffer layout; give Input.WindowRatio when you have measured your own.
const MeasuredScalingRatio = 0.68

// ReceiveWindowRatio returns the share of a socket's receive buffer (sk_rcvbuf, bounded by
// tcp_rmem[2]) that TCP advertises as window, i.e. tcp_win_from_space() in include/net/tcp.h:
//
//   - before 6.6: window = space − space >> tcp_adv_win_scale when the scale is positive, and
//     space >> −scale otherwise. The default scale was 2 (¾ of the buffer) until 3.4 and 1
//     (½) from 3.4 (commit b49960a05e32, "tcp: change tcp_adv_win_scale and tcp_rmem[2]").
//   - from 6.6: window = space × scaling_ratio / 256, with scaling_ratio measured from the
//     traffic (commit dfa2f0483360, "tcp: get rid of sysctl_tcp_adv_win_scale"); the sysctl
//     still exists but is ignored. We use MeasuredScalingRatio.
//
// advWinScale is the current tcp_adv_win_scale when known (has=true). measured > 0 overrides
// everything (a ratio the caller measured on the target host).
func ReceiveWindowRatio(kv kernel.KernelVersion, advWinScale int, has bool, measured float64) (ratio float64, why string) {
	if measured > 0 {
		return measured, fmt.Sprintf("window ratio %.2f as given", measured)
	}
	if !kv.Known || kv.AtLeast(6, 6, 0) {
		w := fmt.Sprintf("window ratio %.2f: 6.6+ measures skb->len/truesize (tp->scaling_ratio); %.2f measured on Linux 6.18, MTU 1500", MeasuredScalingRatio, MeasuredScalingRatio)
		if !kv.Known {
			w += "; kernel unknown, assumed 6.6+"
		}
		return MeasuredScalingRatio, w
	}
	scale := 1
	src := "default since 3.4"
	if !kv.AtLeast(3, 4, 0) {
		scale, src = 2, "default before 3.4"
	}
	if has {
		scale, src = advWinScale, "current"
	}
	return advWinScaleRatio(scale), fmt.Sprintf("window ratio %.3g: tcp_adv_win_scale=%d (%s)", advWinScaleRatio(scale), scale, src)
}

// advWinScaleRatio is tcp_win_from_space()'s fraction before 6.6 for a tcp_adv_win_scale
// value (the kernel accepts −31..31).
func advWinScaleRatio(scale int) float64 {
	if scale > 31 {
		scale = 31
	}
	if scale < -31 {
		scale = -31
	}
	if scale <= 0 {
		return math.Ldexp(1, scale) // space >> -scale
	}
	return 1 - math.Ldexp(1, -scale) // space - (space >> scale)
}

// SetsockoptWindowRatio is the window share of a receive buffer that an application fixed with
// SO_RCVBUF (such a socket does not autotune):
//
//   - before 6.6: the same tcp_adv_win_scale fraction as for autotuned sockets;
//   - 6.6 to 6.9: its scaling_ratio was never refreshed from traffic and stayed at the initial
//     (1200 << 8) / SKB_TRUESIZE(4096), about 0.25;
//   - 6.10: 0.5 (commit 697a6c8cec03, "tcp: increase the default TCP scaling ratio", April
//     2024, chosen to emulate tcp_adv_win_scale=1);
//   - 6.11 on: refreshed from traffic like autotuned sockets (commit 05f76b2d634e, July 2024).
//
// Stable trees backported both fixes (6.6.y and 6.9.y carry them), so for 6.6 to 6.10 this is
// the conservative value.
func SetsockoptWindowRatio(kv kernel.KernelVersion, advWinScale int, has bool, measured float64) float64 {
	switch {
	case !kv.Known || kv.AtLeast(6, 11, 0):
	case kv.AtLeast(6, 10, 0):
		return 0.5
	case kv.AtLeast(6, 6, 0):
		return 0.25
	}
	r, _ := ReceiveWindowRatio(kv, advWinScale, has, measured)
	return r
}

// BufferBytesFor is the socket buffer (bytes, rounded up to whole pages) whose window share
// holds one BDP: buffer = ⌈BDP ÷ ratio⌉.
func BufferBytesFor(bandwidthBitsPerSec float64, rtt time.Duration, ratio float64, pageSizeBytes int) int64 {
	bdp := BDPBytes(bandwidthBitsPerSec, rtt)
	if bdp == 0 || ratio <= 0 {
		return 0
	}
	return roundUpBytes(int64(math.Ceil(float64(bdp)/ratio)), int64(pageSizeBytes))
}

// ThroughputBitsPerSec is the most one stream carries when its window is ratio × bufferBytes:
// rate = buffer × ratio × 8 ÷ RTT.
func ThroughputBitsPerSec(bufferBytes int64, rtt time.Duration, ratio float64) float64 {
	if rtt <= 0 {
		return 0
	}
	return float64(bufferBytes) * ratio * 8 / rtt.Seconds()
}

// KernelDefaultTCPMemPages is the tcp_mem triplet a kernel computes at boot from its free
// buffer pages (lowmem pages, roughly MemTotal on 64-bit) in tcp_init_mem(), net/ipv4/tcp.c
// (the form carried by the 4.x to 6.x trees; this 6.18 host with 24 GiB reads exactly
// 287898 383867 575796 = this formula for 6,141,872 free buffer pages):
//
//	limit = max(nr_free_buffer_pages / 16, 128); tcp_mem = {limit/4*3, limit, limit/4*3*2}
//
// Earlier kernels (including 2.6.13, seed 004) derived tcp_mem from the established-hash
// size instead; this function does not model those.
func KernelDefaultTCPMemPages(freeBufferPages int64) [3]int64 {
	limit := freeBufferPages / 16
	if limit < 128 {
		limit = 128
	}
	low := limit / 4 * 3
	return [3]int64{low, limit, low * 2}
}

// IsKernelDefaultTCPMemMax says whether a host's tcp_mem max is the kernel's own default for
// the modelled max (KernelDefaultTCPMemPages). The model counts MemTotal (or lowmem) where
// the kernel counted nr_free_buffer_pages() at boot, a few per cent fewer (this 24 GiB host:
// 0.5%), so a current max within 10% below the model is that default, not a smaller setting,
// and raising it to the model would be a change of nothing.
func IsKernelDefaultTCPMemMax(curMax, modelMax int64) bool {
	return curMax >= modelMax*9/10
}

// defaultTCPRmemDefaultBytes is tcp_rmem[1] as the kernel sets it: 87380 until 4.19, 131072
// from 4.20 (commit a337531b942b, "tcp: up initial rmem to 128KB and SYN rwin to around 64KB").
func defaultTCPRmemDefaultBytes(k kernel.KernelVersion) int64 {
	if k.Known && !k.AtLeast(4, 20, 0) {
		return 87380
	}
	return 131072
}

// roundUpBytes rounds b up to a multiple of unit (unit <= 0 leaves b unchanged).
func roundUpBytes(b, unit int64) int64 {
	if unit <= 0 {
		return b
	}
	return (b + unit - 1) / unit * unit
}

// roundDownBytes rounds b down to a multiple of unit, but never below one unit.
func roundDownBytes(b, unit int64) int64 {
	if unit <= 0 {
		return b
	}
	r := b / unit * unit
	if r < unit {
		return unit
	}
	return r
}
