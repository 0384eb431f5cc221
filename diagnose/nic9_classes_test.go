package diagnose

import (
	"strings"
	"testing"
)

// Pre-round 6 hardening (nic9): the ethtool -S names of RX buffer refill failures and ring
// losses of cloud guests' virtual NICs and more drivers, and the cloud's allowance counters,
// each on a minimal snippet written from the driver's own strings (kernel/nicloss.go cites
// the file of each). Every firing case failed before the change: the names were unread, so
// nic-rx-overruns said "not checked" or healthy, and no rule read the allowance counters.

// The refill and ring names of one driver each, in the forms they are pasted: a "NIC
// statistics:" block, a grep of ethtool -S under its command, per-queue names.
func TestNic9RefillAndRingCountersByDriver(t *testing.T) {
	cases := []struct {
		name, text, counter, value string
		sev                        Severity // refill failures warn (net_nic_rx.go); a ring loss without packets to weigh it is info
	}{
		{"ena per-queue page_alloc_fail", `$ ethtool -S eth0
NIC statistics:
     tx_timeout: 0
     interface_up: 1
     queue_0_tx_cnt: 5000
     queue_0_rx_cnt: 90000
     queue_0_rx_page_alloc_fail: 0
     queue_1_rx_cnt: 80000
     queue_1_rx_page_alloc_fail: 41
`, "queue_1_rx_page_alloc_fail", "41 since boot", Warning},
		{"ena refil_partial in a grep", `[ec2-user@ip-10-0-0-5 ~]$ ethtool -S eth0 | grep refil
     queue_0_rx_refil_partial: 0
     queue_1_rx_refil_partial: 12
`, "queue_1_rx_refil_partial", "12 since boot", Warning},
		{"gve page_alloc_fail", `# ethtool -S ens4
NIC statistics:
     rx_packets: 123456
     tx_packets: 65432
     rx_dropped: 0
     rx_skb_alloc_fail: 0
     rx_buf_alloc_fail: 0
     rx_desc_err_dropped_pkt: 0
     page_alloc_fail: 9
     dma_mapping_error: 0
`, "page_alloc_fail", "9 since boot", Warning},
		{"vmxnet3 second queue", `# ethtool -S ens192
NIC statistics:
     Rx Queue#: 0
       ucast pkts rx: 5000
       pkts rx OOB: 0
       pkts rx err: 0
       drv dropped rx total: 0
          err: 0
          fcs: 0
       rx buf alloc fail: 0
     Rx Queue#: 1
       ucast pkts rx: 4000
       pkts rx OOB: 0
       pkts rx err: 0
       drv dropped rx total: 0
          err: 0
          fcs: 0
       rx buf alloc fail: 23
     tx timeout count: 0
`, "rx buf alloc fail#2", "23 since boot", Warning},
		{"vmxnet3 pkts rx OOB", `# ethtool -S ens192
NIC statistics:
     Rx Queue#: 0
       ucast pkts rx: 5000
       pkts rx OOB: 310
       pkts rx err: 0
       rx buf alloc fail: 0
`, "pkts rx OOB", "310 since boot", Info},
		{"hv_netvsc rx_no_memory", `$ sudo ethtool -S eth0
NIC statistics:
     tx_scattered: 0
     tx_no_memory: 0
     tx_no_space: 0
     tx_too_big: 0
     tx_busy: 0
     tx_send_full: 0
     rx_comp_busy: 0
     rx_no_memory: 77
     stop_queue: 0
     wake_queue: 0
     vf_rx_packets: 1000
`, "rx_no_memory", "77 since boot", Warning},
		{"bnxt per-ring rx_oom_discards", `# ethtool -S ens1f0np0
NIC statistics:
     [0]: rx_ucast_packets: 1000
     [0]: rx_discards: 0
     [0]: rx_buf_errors: 0
     [0]: rx_oom_discards: 0
     [1]: rx_ucast_packets: 1000
     [1]: rx_discards: 0
     [1]: rx_oom_discards: 6
`, "[1]_rx_oom_discards", "6 since boot", Warning},
		{"bnxt rx_total_oom_discards in a grep", `# ethtool -S ens1f0np0 | grep total
     rx_total_l4_csum_errors: 0
     rx_total_buf_errors: 0
     rx_total_oom_discards: 15
`, "rx_total_oom_discards", "15 since boot", Warning},
		{"ixgbe alloc_rx_page_failed", `# ethtool -S eth2
NIC statistics:
     rx_packets: 777777
     rx_missed_errors: 0
     rx_no_dma_resources: 0
     alloc_rx_page_failed: 4
     alloc_rx_buff_failed: 0
`, "alloc_rx_page_failed", "4 since boot", Warning},
		{"mana hc_rx_discards_no_wqe", `# ethtool -S eth1
NIC statistics:
     stop_queue: 0
     wake_queue: 0
     hc_rx_discards_no_wqe: 2048
     hc_rx_err_vport_disabled: 0
     hc_rx_ucast_pkts: 100000
`, "hc_rx_discards_no_wqe", "2048 since boot", Info},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tl := pasteTimeline(t, c.text)
			f := mustFire(t, run(t, "nic-rx-overruns", tl), c.sev)
			if !evidenceHas(f, c.counter, c.value) {
				t.Errorf("evidence %+v, want %s %s", f.Evidence, c.counter, c.value)
			}
			// The same listing with every value 0 raises nothing.
			zero := zeroValues(c.text)
			if r := run(t, "nic-rx-overruns", pasteTimeline(t, zero)); len(r.Findings) > 0 {
				t.Errorf("zeros fired: %+v", r.Findings)
			}
		})
	}
}

// zeroValues sets every counter of a snippet to 0 (the queue index of vmxnet3's "Rx Queue#"
// too, which is no counter).
func zeroValues(text string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if i := strings.LastIndex(l, ": "); i > 0 && !strings.Contains(l, "ethtool") {
			nl := ""
			if strings.HasSuffix(l, "\n") {
				nl = "\n"
			}
			l = l[:i] + ": 0" + nl
		}
		b.WriteString(l)
	}
	return b.String()
}

// Names that look like failures and are not memory: bnxt's rx_buf_errors is the chip's
// buffer-error completion, page_pool's rx_pp_alloc_empty an allocation that took the slow
// path, ENA's bad_req_id a device protocol error. None is read as a refill failure.
func TestNic9NotRefillFailures(t *testing.T) {
	tl := pasteTimeline(t, `# ethtool -S eth0
NIC statistics:
     rx_packets: 100000
     rx_missed_errors: 0
     [0]: rx_buf_errors: 7
     rx_pp_alloc_empty: 1200
     rx_pp_alloc_slow: 1300
     queue_0_rx_bad_req_id: 2
     queue_0_rx_dma_mapping_err: 1
`)
	mustBeHealthy(t, run(t, "nic-rx-overruns", tl))
}

// ENA's allowance counters above 0: the cloud's limit, named as such, not the host's memory.
func TestNic9AllowanceExceeded(t *testing.T) {
	t.Run("block with queue packet counts", func(t *testing.T) {
		tl := pasteTimeline(t, `$ ethtool -S eth0
NIC statistics:
     tx_timeout: 0
     interface_up: 1
     bw_in_allowance_exceeded: 0
     bw_out_allowance_exceeded: 0
     pps_allowance_exceeded: 52013
     conntrack_allowance_exceeded: 0
     linklocal_allowance_exceeded: 0
     conntrack_allowance_available: 134877
     queue_0_tx_cnt: 2000000
     queue_0_rx_cnt: 3000000
`)
		f := mustFire(t, run(t, "nic-allowance-exceeded", tl), Warning)
		if !strings.Contains(f.Title, "not this host's memory") || !strings.Contains(f.Title, "pps_allowance_exceeded") {
			t.Errorf("title %q", f.Title)
		}
		if !evidenceHas(f, "share of packets", "(52013 of 5052013)") || !evidenceHas(f, "conntrack_allowance_available", "remaining quota, not a drop count") {
			t.Errorf("evidence %+v", f.Evidence)
		}
		// An allowance is no ring: nic-rx-overruns does not count it.
		if r := run(t, "nic-rx-overruns", tl); len(r.Findings) > 0 {
			t.Errorf("nic-rx-overruns fired on allowance counters: %+v", r.Findings)
		}
	})
	t.Run("grep without packet counts", func(t *testing.T) {
		tl := pasteTimeline(t, `[root@node ~]# ethtool -S eth0 | grep allowance
     bw_in_allowance_exceeded: 0
     bw_out_allowance_exceeded: 0
     pps_allowance_exceeded: 0
     conntrack_allowance_exceeded: 0
     linklocal_allowance_exceeded: 1311
     conntrack_allowance_available: 601984
`)
		f := mustFire(t, run(t, "nic-allowance-exceeded", tl), Info)
		if f.Severity != Info || !evidenceHas(f, "linklocal_allowance_exceeded", "1311 packets") || !strings.Contains(f.Title, "eth0") {
			t.Errorf("finding %+v", f)
		}
	})
	t.Run("growing between two readings", func(t *testing.T) {
		tl := pasteTimeline(t, `$ date; ethtool -S ens5 | grep allowance
     bw_in_allowance_exceeded: 100
     conntrack_allowance_exceeded: 5

$ sleep 60; ethtool -S ens5 | grep allowance
     bw_in_allowance_exceeded: 100
     conntrack_allowance_exceeded: 905
`)
		f := mustFire(t, run(t, "nic-allowance-exceeded", tl), Warning)
		if !evidenceHas(f, "conntrack_allowance_exceeded", "+900") {
			t.Errorf("evidence %+v", f.Evidence)
		}
	})
	t.Run("zeros are healthy", func(t *testing.T) {
		tl := pasteTimeline(t, `# ethtool -S eth0
NIC statistics:
     bw_in_allowance_exceeded: 0
     bw_out_allowance_exceeded: 0
     pps_allowance_exceeded: 0
     conntrack_allowance_exceeded: 0
     linklocal_allowance_exceeded: 0
     conntrack_allowance_available: 601984
`)
		mustBeHealthyNaming(t, run(t, "nic-allowance-exceeded", tl), "eth0")
	})
	t.Run("absent is not checked", func(t *testing.T) {
		tl := pasteTimeline(t, `# ethtool -S eth2
NIC statistics:
     rx_packets: 777777
     rx_missed_errors: 0
`)
		mustNotCheck(t, run(t, "nic-allowance-exceeded", tl), "no cloud allowance counter")
	})
}

// virtio_net's per-queue RX drops are the driver's failed skb allocations for received frames
// when the queue's XDP dropped nothing (virtio_net.c receive_small/receive_big/
// receive_mergeable); before they were a queue drop no rule read. With XDP drops on the queue
// the count mixes both and stays unread; veth's drops (peer_ifindex) are XDP ring drops.
func TestNic9VirtioQueueDrops(t *testing.T) {
	virtio := `# ethtool -S eth0
NIC statistics:
     rx_queue_0_packets: 5000000
     rx_queue_0_bytes: 700000000
     rx_queue_0_drops: 0
     rx_queue_0_xdp_drops: 0
     rx_queue_0_kicks: 90
     rx_queue_1_packets: 4000000
     rx_queue_1_bytes: 600000000
     rx_queue_1_drops: 318
     rx_queue_1_xdp_drops: 0
     rx_queue_1_kicks: 80
     tx_queue_0_packets: 100
     tx_queue_0_kicks: 100
`
	f := mustFire(t, run(t, "nic-rx-overruns", pasteTimeline(t, virtio)), Warning)
	if !evidenceHas(f, "rx_queue_1_drops", "318 since boot") {
		t.Errorf("evidence %+v", f.Evidence)
	}
	// 6.10+ names: rx1_drops beside rx1_kicks.
	f = mustFire(t, run(t, "nic-rx-overruns", pasteTimeline(t, `# ethtool -S ens3
NIC statistics:
     rx0_packets: 1000
     rx0_drops: 12
     rx0_kicks: 5
`)), Warning)
	if !evidenceHas(f, "rx0_drops", "12 since boot") {
		t.Errorf("evidence %+v", f.Evidence)
	}
	// Counter-cases: XDP dropped on the queue; veth; zeros.
	for _, text := range []string{
		strings.ReplaceAll(virtio, "rx_queue_1_xdp_drops: 0", "rx_queue_1_xdp_drops: 300"),
		`# ethtool -S veth1
NIC statistics:
     peer_ifindex: 7
     rx_queue_0_xdp_packets: 100
     rx_queue_0_drops: 40
`,
		zeroValues(virtio),
	} {
		if r := run(t, "nic-rx-overruns", pasteTimeline(t, text)); len(r.Findings) > 0 {
			t.Errorf("fired: %+v\non %s", r.Findings, text)
		}
	}
}
