package lab

import (
	"context"
	"strconv"
	"time"

	"headroom/lab/vm"
)

// lowmem-tcp (issue 28 item 2, seed 004): a 32-bit kernel with HighMem whose TCP may take
// more memory than lowmem holds. Seed 004's servers (2.6.13, 8 GB, under 600 MB of lowmem
// usable) ran 16 MiB TCP buffers and ~20 GridFTP streams whose receivers fell behind; the
// receive queues filled lowmem, NIC RX refills failed ("page allocation failure. order:0,
// mode:0x20") and the machines became unstable. Here: Debian's 6.1 686-pae in a 2 GiB guest
// (LowTotal 864020 kB, the rest HighMem), the seed's settings (rmem_max/wmem_max and the
// tcp_rmem/tcp_wmem maximum 16 MiB, tcp_mem far above lowmem), streams from the host into a
// receiver that reads, then stalls until the kernel fails or TCP memory stops growing, then
// reads again. Every page of a socket buffer is lowmem (skb data comes from kmalloc and the
// page-frag allocator without __GFP_HIGHMEM), so 30 stalled streams × 32 MiB (SO_RCVBUF 16
// MiB, doubled by the kernel: sock_setsockopt) are more than lowmem. Measured by hand first
// (docs/lab-results.md): virtio_net's GFP_ATOMIC refill (try_fill_recv → skb_page_frag_refill)
// fails with Normal at 15 MB against a 41 MB min, then refill_work's GFP_KERNEL retry invokes
// the OOM killer, which kills the receiver.

func init() {
	register(&Scenario{
		Name:    "lowmem-tcp",
		Summary: "Fermilab's lowmem exhaustion on a real 32-bit HighMem kernel (QEMU): 16 MiB TCP buffers and tcp_mem above lowmem exhaust lowmem under stalled receivers; doctor names it, the plan stops it",
		Guest: &GuestScenario{
			Kernels: []string{"debian-6.1-686-pae"},
			Timeout: 20 * time.Minute,
			Run: func(ctx context.Context, o GuestOptions) (*GuestReport, error) {
				s := lowmemTCPSpec()
				s.trace = o.Trace
				return runGuestFailure(ctx, s, o)
			},
		},
	})
}

// lowmemStreams: 30 rather than the seed's 20 because the guest's lowmem (844 MiB usable)
// is larger than the seed's (< 600 MB): 20 × 32 MiB would fit in it.
const lowmemStreams = 30

func lowmemTCPSpec() *guestFailureSpec {
	return &guestFailureSpec{
		name:      "lowmem-tcp",
		memoryMiB: 2048,
		modules:   []string{"sch_netem"},
		mtu:       1500,
		// The seed's configuration: 16 MiB buffers everywhere, tcp_mem 2.3 GiB (pages of 4
		// KiB) against 844 MiB of lowmem. A 10 ms delay on the guest's egress (its ACKs)
		// stands for the wide-area path.
		setup: `sysctl -w net.core.rmem_max=16777216 net.core.wmem_max=16777216 \
	net.ipv4.tcp_rmem="4096 87380 16777216" net.ipv4.tcp_wmem="4096 65536 16777216" \
	net.ipv4.tcp_mem="400000 500000 600000" > $OUT/seed-sysctl.txt
` + lowmemNetem() + ` > $OUT/netem.txt 2>&1 || { echo "netem on eth0 failed" >&2; cat $OUT/netem.txt >&2; exit 1; }
grep -E 'MemTotal|LowTotal|HighTotal' /proc/meminfo > $OUT/meminfo-start.txt
`,
		streams: lowmemStreams,
		sink: guestSinkConfig{
			RcvBufBytes: 16 << 20,
			Phases: []guestSinkPhase{
				{Name: "reading", Read: true, For: 10 * time.Second},
				{Name: "stalled", For: 180 * time.Second, EndOnFailure: true, EndWhenStable: 15 * time.Second},
				{Name: "resumed", Read: true, For: 15 * time.Second},
			},
		},
		planArgs:    []string{"--bandwidth", "1Gbit", "--rtt", "20ms", "--streams", strconv.Itoa(lowmemStreams)},
		expect:      []string{"alloc-fail-lowmem", "tcp-mem-oversized"},
		loadTimeout: 6 * time.Minute,
	}
}

// lowmemNetem is the guest command that delays eth0's egress by 10 ms (busybox's tc has no
// netem: vm.Qdisc runs the guest's headroom over netlink).
func lowmemNetem() string {
	cmd, err := vm.Qdisc{Dev: "eth0", Kind: "netem", Delay: 10 * time.Millisecond}.Command()
	if err != nil {
		return "echo " + shQuoteLab("netem: "+err.Error()) + " >&2; false"
	}
	return cmd
}
