package lab

import (
	"context"
	"time"

	"headroom/lab/vm"
)

// atomic-rx-refill (issue 28 item 3, seed 000): a small box with no swap receives a
// sustained TCP transfer and writes it to a disk, while page cache and a service's
// anonymous memory hold nearly all RAM. Seed 000's SheevaPlug (512 MB, 2.6.30) logged
// "page allocation failure. order:2, mode:0x20" from its NIC's RX refill (mv643xx_eth_poll →
// rxq_refill) until min_free_kbytes went from ~2000 to 20000. Here: Debian's 6.1 amd64 in a
// 384 MiB guest (MemTotal ≈ 331 MiB) with min_free_kbytes lowered to 512 kB (Debian's default for that memory is 2241 kB,
// init_per_zone_wmark_min: 4·√lowmem_kbytes; with it the failure came in 2 of 8 runs by hand
// and in none of 4 lab guests: the reserve's margin above the atomic floor, ⅝ of min plus the
// low−min gap, is what kswapd must defend), MTU 9000; a 200 MiB service touching
// its anonymous memory; a writer filling the page cache of a file on an ext2 file system
// (a virtio disk whose writes QEMU caps at 20 MB/s, like a USB disk); and 8 streams from the host into a receiver that appends what it reads to a file
// on that disk and alternates 3 s of reading with 3 s of stalling (a NAS whose disk falls
// behind). virtio_net refills its RX ring from NAPI with GFP_ATOMIC (virtnet_poll →
// try_fill_recv → skb_page_frag_refill, order 0 after the order-3 attempt that may not
// warn): once kswapd lags, the refill finds the zone at its atomic floor and fails.
// Measured by hand first (docs/lab-results.md): "kswapd0: page allocation failure: order:0,
// mode:0xa20(GFP_ATOMIC)" with DMA32 at 780 kB free against a (boosted) min of 6936 kB.

func init() {
	register(&Scenario{
		Name:    "atomic-rx-refill",
		Summary: "the SheevaPlug NAS report's RX refill failure on a real 64-bit kernel (QEMU): a small box's NIC RX refill fails GFP_ATOMIC under page cache and anonymous memory; doctor names it; the same load is run again with the plan's min_free_kbytes",
		Guest: &GuestScenario{
			Kernels: []string{"debian-6.1-amd64"},
			Timeout: 20 * time.Minute,
			Run: func(ctx context.Context, o GuestOptions) (*GuestReport, error) {
				s := atomicRxSpec()
				s.trace = o.Trace
				return runGuestFailure(ctx, s, o)
			},
		},
	})
}

func atomicRxSpec() *guestFailureSpec {
	return &guestFailureSpec{
		name:      "atomic-rx-refill",
		memoryMiB: 384,
		mtu:       9000,
		rxQueue:   1024,
		// A disk whose writes the host caps at 20 MB/s (a USB disk): its dirty pages wait for
		// writeback, so reclaim cannot keep up with a burst by dropping clean cache alone.
		disks: []vm.Disk{{SizeMiB: 2048, Mount: "/mnt", WriteBytesPerSec: 20_000_000}},
		setup: `sysctl -w vm.min_free_kbytes=512 net.core.rmem_max=16777216 net.ipv4.tcp_rmem="4096 131072 16777216" > $OUT/seed-sysctl.txt
sysctl vm.min_free_kbytes vm.watermark_scale_factor net.ipv4.tcp_mem >> $OUT/seed-sysctl.txt
# the service: 200 MiB of anonymous memory, every page written once a second
( echo 0 > /proc/self/oom_score_adj; HEADROOM_LAB_HELPER=guest-hog HEADROOM_LAB_HELPER_CONFIG='{"bytes":209715200}' exec headroom > /dev/null 2> $OUT/hog.err ) &
# the page cache of a file being written, over and over
( echo 0 > /proc/self/oom_score_adj; while :; do dd if=/dev/zero of=/mnt/fill bs=1M count=1500 2>/dev/null; rm -f /mnt/fill; done ) &
sleep 5
grep -E 'MemTotal|MemFree|^Cached|AnonPages|Dirty' /proc/meminfo > $OUT/meminfo-start.txt
`,
		streams: 8,
		sink: guestSinkConfig{
			RcvBufBytes: 4 << 20,
			WriteFile:   "/mnt/recv",
			WrapBytes:   256 << 20,
			Phases: []guestSinkPhase{
				{Name: "receiving", CycleRead: 3 * time.Second, CycleStall: 3 * time.Second, For: 240 * time.Second, EndOnFailure: true},
			},
		},
		// The plan for this box: a 1 Gbit/s NAS receiving the 8 streams. It reads the guest's
		// meminfo (what reclaim cannot free: the service, the tmpfs root) and keeps the
		// reserve within what fits beside it, taking TCP's cap back to make room; so the
		// after guest runs with its tcp_mem as well as its reserve (docs/plan.md, "The
		// reserve on a small host").
		planArgs:    []string{"--bandwidth", "1Gbit", "--rtt", "1ms", "--streams", "8"},
		planKeys:    []string{"vm.min_free_kbytes", "vm.watermark_scale_factor", "net.ipv4.tcp_mem"},
		expect:      []string{"alloc-fail-reserve", "alloc-fail-fragmented"},
		loadTimeout: 8 * time.Minute,
		attempts:    3,
	}
}
