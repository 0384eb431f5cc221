package export

// Layers of NIC loss, the layer label of headroom_nic_loss_total: where on the receive (or
// transmit) path a frame was lost, which decides the fix.
const (
	// LayerLink: damaged or refused on the wire, at the PHY/MAC (CRC, framing, length,
	// carrier, collisions). A cabling, duplex or optics problem; memory does not fix it.
	LayerLink = "link"
	// LayerRing: the NIC had the frame and no free RX descriptor or FIFO room (ring or FIFO
	// overrun, "missed"). The host did not refill the ring in time: softirq starved, ring
	// too small, or the refill's allocation failed.
	LayerRing = "ring"
	// LayerRefill: the driver's RX buffer allocation failed (the memory side of the same
	// loss: seed 000's rxq_refill order-2 GFP_ATOMIC failures). Counts failed allocations,
	// not frames.
	LayerRefill = "refill"
	// LayerStack: the driver delivered or accepted the frame and the kernel dropped it
	// (rx_dropped, tx_dropped).
	LayerStack = "stack"
)

// lossClass is where a counter's losses happened.
type lossClass struct{ direction, layer string }

// netdevLoss classifies the /proc/net/dev columns (kernel.NetDev names). Three of them are
// sums (net/core/net-procfs.c dev_seq_printf_stats, unchanged since 2.6):
//   - rx_dropped is "drop" = rx_dropped + rx_missed_errors, so on drivers that count ring
//     overruns as missed (e1000, igb, ixgbe) ring losses show here too; the driver's own
//     rx_missed_errors (source="ethtool") separates them.
//   - rx_frame_errors is "frame" = rx_length_errors + rx_over_errors + rx_crc_errors +
//     rx_frame_errors; rx_over_errors is a ring overflow on a few drivers, the rest are link.
//   - tx_carrier_errors is "carrier" = carrier + aborted + window + heartbeat errors.
//
// rx_errors and tx_errors are totals of the others and are not exported (they would double
// count); rx_compressed and multicast are not losses.
var netdevLoss = map[string]lossClass{
	"rx_dropped":        {"rx", LayerStack},
	"rx_fifo_errors":    {"rx", LayerRing},
	"rx_missed_errors":  {"rx", LayerRing},
	"rx_over_errors":    {"rx", LayerRing},
	"rx_frame_errors":   {"rx", LayerLink},
	"rx_crc_errors":     {"rx", LayerLink},
	"rx_length_errors":  {"rx", LayerLink},
	"tx_dropped":        {"tx", LayerStack},
	"tx_fifo_errors":    {"tx", LayerRing},
	"tx_carrier_errors": {"tx", LayerLink},
	"collisions":        {"tx", LayerLink},
}

// ethtoolLoss classifies driver statistics (ethtool -S names) by name. The standard
// rtnl_link_stats64 names that drivers also print are classified as above. Driver-specific
// names: e1000/e1000e/igb rx_no_buffer_count, ixgbe rx_no_dma_resources, mlx5
// rx_out_of_buffer, bnxt rx_discards, ice rx_dropped_no_buffer... are ring losses (the same
// list as diagnose's nic-rx-overruns rule); alloc_rx_buff_failed (e1000/igb/ixgbe),
// rx_alloc_fail, rx_buff_alloc_err (mlx5), rx_page_alloc_fail and rx_alloc_failed are refill
// failures. Counters not listed are not exported: drivers print hundreds.
var ethtoolLoss = map[string]lossClass{
	"rx_no_buffer_count":   {"rx", LayerRing},
	"rx_no_dma_resources":  {"rx", LayerRing},
	"rx_out_of_buffer":     {"rx", LayerRing},
	"rx_discards":          {"rx", LayerRing},
	"rx_fw_discards":       {"rx", LayerRing},
	"rx_dropped_no_buffer": {"rx", LayerRing},
	"alloc_rx_buff_failed": {"rx", LayerRefill},
	"rx_alloc_fail":        {"rx", LayerRefill},
	"rx_buff_alloc_err":    {"rx", LayerRefill},
	"rx_page_alloc_fail":   {"rx", LayerRefill},
	"rx_alloc_failed":      {"rx", LayerRefill},
	"rx_align_errors":      {"rx", LayerLink},
	"rx_symbol_errors":     {"rx", LayerLink},
	"tx_aborted_errors":    {"tx", LayerLink},
	"tx_window_errors":     {"tx", LayerLink},
	"tx_heartbeat_errors":  {"tx", LayerLink},
}

func classifyNetDev(name string) (lossClass, bool) {
	c, ok := netdevLoss[name]
	return c, ok
}

func classifyEthtool(name string) (lossClass, bool) {
	if c, ok := ethtoolLoss[name]; ok {
		return c, true
	}
	c, ok := netdevLoss[name]
	return c, ok
}
