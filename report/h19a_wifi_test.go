package report

import (
	"strings"
	"testing"

	"headroom/artifact"
	"headroom/diagnose"
)

// h19a: a Wi-Fi driver's own words for a failed RX or DMA allocation, pasted bare, in a
// fence, quoted or under a syslog prefix, leave the alloc-fail family not checked with the
// reason naming what the line lacks (never healthy, never exit 3); with warn_alloc's report
// beside it, the report decides and the family fires. The same drivers' ordinary lines
// leave the family healthy.
func TestH19aWiFiAllocFailures(t *testing.T) {
	family := []string{"alloc-fail-reserve", "alloc-fail-fragmented", "alloc-fail-high-order-atomic"}
	checks := func(text string) map[string]diagnose.Check {
		tl := artifact.ParseString(text, "t", artifact.Options{})
		if artifact.NothingRead(tl) {
			t.Fatalf("%q: nothing read", text)
		}
		m := map[string]diagnose.Check{}
		for _, c := range diagnose.Run(tl, nil).Checks {
			m[c.ID] = c
		}
		return m
	}
	for _, c := range []struct{ text, why string }{
		{"```\niwlwifi 0000:00:14.3: Failed to alloc_pages\niwlwifi 0000:00:14.3: Failed to alloc_pages\n```\n", "receive path"},
		{"iwlwifi 0000:03:00.0: Failed to alloc_pages with GFP_ATOMIC. Only 0 free buffers remaining.\n", "with GFP_ATOMIC, as the line says"},
		{"brcmfmac: brcmf_sdio_readframes: brcmu_pkt_buf_get_skb failed\n", "receive path"},
		{"> [ 100.100001] usb 1-1.2: ath9k_htc: RX memory allocation error\n", "receive path"},
		{"Nov 30 10:00:01 ap kernel: RTW: recvbuf2recvframe: alloc_skb fail , drop frag frame\n", "receive path"},
		{"RTW: #### usb_read_port() alloc_skb fail!#####\n", "receive path"},
		{"wil6210 0000:01:00.0 wlan0: wil_rx_refill: Error -12 in rx refill[412]\n", "receive path"},
		{"[    5.113000] iwlwifi 0000:02:00.0: Falling back to small chunks of DMA\n", "DMA coherent buffer"},
		{"ath11k_pci 0000:03:00.0: failed to allocate dma memory for qmi (524288 B type 1)\n", "DMA coherent buffer"},
	} {
		m := checks(c.text)
		for _, id := range family {
			if m[id].Status != diagnose.StatusNotChecked || !strings.Contains(m[id].Why, c.why) {
				t.Errorf("%q: %s %v %q, want not checked naming %q", c.text, id, m[id].Status, m[id].Why, c.why)
			}
		}
	}
	// With the report: order 1 GFP_ATOMIC from iwl_pcie_rx_alloc_page, no dump.
	rep := `[ 8123.441100] kworker/u16:3: page allocation failure: order:1, mode:0x204020(GFP_ATOMIC|__GFP_COMP)
[ 8123.441105] CPU: 2 PID: 4211 Comm: kworker/u16:3 Not tainted 4.15.0-29-generic #31-Ubuntu
[ 8123.441106] Call Trace:
[ 8123.441113]  warn_alloc+0x102/0x190
[ 8123.441116]  __alloc_pages_slowpath+0xe0d/0xe50
[ 8123.441124]  iwl_pcie_rx_alloc_page+0x62/0x180 [iwlwifi]
[ 8123.441128]  iwl_pcie_rxq_alloc_rbs+0x8b/0x160 [iwlwifi]
[ 8123.441210] iwlwifi 0000:03:00.0: Failed to alloc_pages with GFP_ATOMIC. Only 0 free buffers remaining.
`
	if m := checks(rep); m["alloc-fail-fragmented"].Status != diagnose.StatusFinding {
		t.Errorf("report: alloc-fail-fragmented %v %q, want fired", m["alloc-fail-fragmented"].Status, m["alloc-fail-fragmented"].Why)
	}
	// Counter-case: the same drivers' ordinary lines.
	healthy := `[    4.812345] iwlwifi 0000:00:14.3: loaded firmware version 72.daa05125.0 so-a0-gf-a0-72.ucode op_mode iwlmvm
[   12.356789] wlp0s20f3: associated
[   15.000000] ath10k_pci 0000:01:00.0: Unknown eventid: 36925
[   15.100000] brcmfmac: brcmf_c_preinit_dcmds: Firmware: BCM4345/6 wl0: Apr 15 2021 03:03:20 version 7.45.234 (4ca95bb CY) FWID 01-996384e2
`
	m := checks(healthy)
	for _, id := range family {
		if m[id].Status != diagnose.StatusOK {
			t.Errorf("healthy: %s %v %q", id, m[id].Status, m[id].Why)
		}
	}
}
