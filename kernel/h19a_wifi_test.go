package kernel

import "testing"

// TestWiFiDriverAllocFailures (h19a): the Wi-Fi drivers' own words for a failed allocation,
// from their format strings (drivers/net/wireless/...; the out-of-tree Realtek drivers'
// os_dep/linux/recv_linux.c), and the same drivers' ordinary lines, which are none.
func TestWiFiDriverAllocFailures(t *testing.T) {
	for _, c := range []struct {
		msg         string
		ok, rx, dma bool
		bytes       int64
	}{
		// brcmfmac sdio.c brcmf_sdio_readframes / brcmf_sdiod_recv_buf: brcmf_err("brcmu_pkt_buf_get_skb failed[: len %d]")
		{msg: "brcmfmac: brcmf_sdio_readframes: brcmu_pkt_buf_get_skb failed", ok: true, rx: true},
		{msg: "brcmfmac: brcmf_sdiod_recv_buf: brcmu_pkt_buf_get_skb failed: len 1536", ok: true, rx: true},
		// brcmfmac msgbuf.c brcmf_msgbuf_rxbuf_data_post: "Failed to alloc SKB"
		{msg: "ieee80211 phy0: brcmf_msgbuf_rxbuf_data_post: Failed to alloc SKB", ok: true, rx: true},
		// ath9k_htc hif_usb.c ath9k_hif_usb_rx_stream (__dev_alloc_skb GFP_ATOMIC)
		{msg: "usb 1-1.2: ath9k_htc: RX memory allocation error", ok: true, rx: true},
		// ath10k pci.c __ath10k_pci_rx_post_pipe
		{msg: "ath10k_pci 0000:01:00.0: failed to post pci rx buf: -12", ok: true, rx: true},
		// wil6210 txrx.c wil_rx_refill
		{msg: "wil6210 0000:01:00.0 wlan0: wil_rx_refill: Error -12 in rx refill[412]", ok: true, rx: true},
		// mwifiex pcie.c mwifiex_init_rxq_ring
		{msg: "mwifiex_pcie 0000:01:00.0: Unable to allocate skb for RX ring.", ok: true, rx: true},
		// iwlwifi pcie/rx.c iwl_pcie_rx_alloc_page (4.x+): IWL_CRIT "Failed to alloc_pages"
		{msg: "iwlwifi 0000:00:14.3: Failed to alloc_pages", ok: true, rx: true},
		// Realtek out-of-tree (8812au, 88x2bu, 8188eu): recvbuf2recvframe, usb_read_port
		{msg: "RTW: recvbuf2recvframe: alloc_skb fail , drop frag frame", ok: true, rx: true},
		{msg: "RTW: #### usb_read_port() alloc_skb fail!#####", ok: true, rx: true},
		{msg: "R8188EU: rtw_skb_alloc() failed!", ok: true},
		// DMA coherent buffers: ath11k qmi.c ath11k_qmi_alloc_target_mem_chunk (GFP_KERNEL|
		// __GFP_NOWARN), iwlwifi pcie/trans.c iwl_pcie_load_section
		{msg: "ath11k_pci 0000:03:00.0: failed to allocate dma memory for qmi (524288 B type 1)", ok: true, dma: true, bytes: 524288},
		{msg: "ath11k_pci 0000:03:00.0: qmi dma allocation failed (524288 B type 1), will try later with small size", ok: true, dma: true, bytes: 524288},
		{msg: "iwlwifi 0000:02:00.0: Falling back to small chunks of DMA", ok: true, dma: true},
		{msg: "foo 0000:01:00.0: dma_alloc_coherent failed", ok: true, dma: true},
		// rtw88 pci.c rtw_pci_init_rx_ring: the ring's dma_alloc_coherent at probe
		{msg: "rtw_8822ce 0000:02:00.0: failed to allocate rx ring", ok: true, dma: true},
		// The same drivers' ordinary lines.
		{msg: "ath10k_pci 0000:01:00.0: Unknown eventid: 36925"},
		{msg: "iwlwifi 0000:00:14.3: loaded firmware version 72.daa05125.0 so-a0-gf-a0-72.ucode op_mode iwlmvm"},
		{msg: "brcmfmac: brcmf_c_preinit_dcmds: Firmware: BCM4345/6 wl0: Apr 15 2021 03:03:20 version 7.45.234 (4ca95bb CY) FWID 01-996384e2"},
		{msg: "wlp0s20f3: associated"},
		{msg: "rtw_8822ce 0000:02:00.0: failed to get tx report from firmware"},
		{msg: "ath11k_pci 0000:03:00.0: qmi dma allocation succeeded (524288 B type 1)"},
		{msg: "mt7921e 0000:01:00.0: ASIC revision: 79610010"},
		{msg: "wlan0: dropped skb from unknown peer"},
		{msg: "driver falls back to small chunks of DMA when memory is fragmented"},
	} {
		f, ok := ParseSubsysAllocFailure(c.msg)
		if ok != c.ok {
			t.Errorf("%q: ok %v, want %v", c.msg, ok, c.ok)
			continue
		}
		if ok && (f.RX != c.rx || f.DMA != c.dma || f.Bytes != c.bytes) {
			t.Errorf("%q: got %+v, want rx %v dma %v bytes %d", c.msg, f, c.rx, c.dma, c.bytes)
		}
	}
}
