package kernel

import "strings"

// DPDK ports bypass the kernel: their counters are rte_eth_stats (lib/ethdev/rte_ethdev.h),
// which user-space tools print under the struct's field names (dpvs' `dpip -s link show`,
// l2fwd and its variants) or testpmd's "RX-missed" labels (app/test-pmd/config.c
// nic_stats_display). The fields mean what the kernel's link counters mean:
//
//   - imissed: "Total of RX packets dropped by the HW, because there are no available
//     buffer (i.e. RX queues are full)": the NIC had no free RX descriptor, the event
//     e1000/igb/ixgbe/i40e count as rx_missed_errors (a ring loss, nic-rx-overruns).
//   - rx_nombuf: "Total number of RX mbuf allocation failures": the poll loop could not
//     refill the ring from its mbuf pool, the user-space twin of alloc_rx_buff_failed.
//   - ierrors / oerrors: "erroneous received packets" / "failed transmitted packets".
//
// dpdkStatNames maps those names, lower-cased, to the NetDev counter names the rules read.
var dpdkStatNames = map[string]string{
	"ipackets":   "rx_packets",
	"opackets":   "tx_packets",
	"ibytes":     "rx_bytes",
	"obytes":     "tx_bytes",
	"imissed":    "rx_missed_errors",
	"ierrors":    "rx_errors",
	"oerrors":    "tx_errors",
	"rx_nombuf":  "rx_nombuf",
	"rx-packets": "rx_packets",
	"tx-packets": "tx_packets",
	"rx-bytes":   "rx_bytes",
	"tx-bytes":   "tx_bytes",
	"rx-missed":  "rx_missed_errors",
	"rx-errors":  "rx_errors",
	"tx-errors":  "tx_errors",
	"rx-nombuf":  "rx_nombuf",
}

// DPDKStatName returns the NetDev counter name of a DPDK port statistic ("imissed",
// "RX-missed"), ok false for a name that is not one.
func DPDKStatName(name string) (string, bool) {
	n, ok := dpdkStatNames[strings.ToLower(name)]
	return n, ok
}
