package kernel

import "testing"

// The names as the live ioctl reader gets them (kernel/ethtool.go strings): vmxnet3's with
// their leading blanks, a repeated name as name#2; ENA's per-queue RX names; and the names
// that are not refill failures.
func TestNic9ClassifyDriverNames(t *testing.T) {
	for name, want := range map[string]string{
		"  rx buf alloc fail":        NICCauseRefill, // vmxnet3_rq_driver_stats
		"  rx buf alloc fail#2":      NICCauseRefill,
		"  pkts rx OOB":              NICCauseRing, // UPT1_RxStats.pktsRxOutOfBuf
		"queue_3_rx_page_alloc_fail": NICCauseRefill,
		"queue_3_rx_skb_alloc_fail":  NICCauseRefill,
		"queue_12_rx_refil_partial":  NICCauseRefill,
		"rx_skb_alloc_fail":          NICCauseRefill, // gve
		"rx_buf_alloc_fail":          NICCauseRefill,
		"page_alloc_fail":            NICCauseRefill,
		"rx_no_memory":               NICCauseRefill, // hv_netvsc
		"hc_rx_discards_no_wqe":      NICCauseRing,   // mana
		"rx_oom_discards":            NICCauseRefill, // bnxt
		"[5]: rx_oom_discards":       "",             // the reader joins it as [5]_rx_oom_discards
		"[5]_rx_oom_discards":        NICCauseRefill,
		"rx_total_oom_discards":      NICCauseRefill,
		"alloc_rx_page_failed":       NICCauseRefill, // ixgbe
		"pps_allowance_exceeded":     NICCauseShaped,
		"rx_drop_unchain_oom":        NICCauseRefill, // ath10k-ct
		"d_rx_crc_err_drop":          "",
		"rx_missed_cntr":             NICCauseRing, // stmmac (pre-round 8)
		"rx_overflow_cntr":           NICCauseRing,
		"rbuf_ovflow_cnt":            NICCauseRing,   // bcmgenet
		"alloc_rx_buff_failed":       NICCauseRefill, // bcmgenet's soft MIB too
		"rx_dma_failed":              "",
		"rx_buf_unav_irq":            "",
		"rbuf_err_cnt":               "",
		// not losses of this host's memory, or no loss at all:
		"conntrack_allowance_available": "",
		"[0]_rx_buf_errors":             "",
		"rx_pp_alloc_empty":             "",
		"rx_pp_alloc_slow":              "",
		"queue_0_rx_bad_req_id":         "",
		"queue_0_tx_dma_mapping_err":    "",
		"queue_0_tx_cnt":                "",
		"rx_cache_alloc":                "",
	} {
		l, ok := ClassifyNICCounter(name, false)
		got := ""
		if ok {
			got = l.Cause
		}
		if got != want {
			t.Errorf("%q: cause %q, want %q", name, got, want)
		}
	}
	if _, ok := CloudAllowanceLimit(CloudConntrackAvailable); ok {
		t.Errorf("conntrack_allowance_available is a quota, not an allowance counter")
	}
}
