package artifact

import "testing"

// Pre-round 16 (h16a): kernel lines without stamp or syslog prefix whose own prefix is the
// kernel's (barekernel.go), and lines that share their words but are not theirs.
func TestH16aBareKernelLine(t *testing.T) {
	for _, s := range []string{
		"LustreError: 12345:0:(lib-move.c:4321:lnet_parse()) LNET: out of memory at lib-move.c:4321 (tried to alloc 'msg' = 1048576)",
		"LNetError: 2222:0:(o2iblnd_cb.c:3335:kiblnd_check_txs_locked()) Timed out tx: active_txs, 0 seconds",
		"Lustre: 3333:0:(client.c:2100:ptlrpc_expire_one_request()) @@@ Request sent has timed out for slow reply",
		"LustreError: 11-0: lustre-OST0001-osc-ffff88: operation ost_write to node 10.0.0.5@o2ib failed: rc = -12",
		"Lustre: 11-0: lustre-MDT0000: Connection restored",
		"00000100:00020000:2.0:1612345678.123456:0:12345:0:(client.c:1234:ptlrpc_new_bulk()) out of memory",
		"libceph: osd3 (1)10.0.0.13:6801 socket closed (con state OPEN)",
		"rbd: rbd0: write at objno 1234 0~4096 result -12",
		"drbd r0: sock_recvmsg returned -12",
		"drbd r0/0 drbd0: disk( UpToDate -> Failed )",
		"block drbd1: PingAck did not arrive in time.",
		"o2net: No longer connected to node nodeB (num 1) at 192.168.1.2:7777",
		"(o2net,1234,3):o2net_connect_expired:1664 ERROR: no connection established with node 1 after 30.0 seconds",
		"stmmaceth ff540000.ethernet eth0: fail to alloc skb entry 117",
		"macb ff0b0000.ethernet eth0: Unable to allocate sk_buff",
		"ath10k_pci 0000:01:00.0: failed to refill rx ring: -12",
		"lan78xx 1-1.1.1:1.0 eth0: kevent 2 may have been dropped",
		"r8169 0000:02:00.0 eth0: Failed to allocate RX buffer",
		"libertas_sdio mmc1:0001:1: failed to alloc skb: -12",
		"nvme 0000:01:00.0: swiotlb buffer is full (sz: 65536 bytes), total 32768 (slots), used 32700 (slots)",
		"brcmfmac: brcmf_msgbuf_rxbuf_data_post: Failed to alloc SKB",
	} {
		if !bareKernelLine(s) {
			t.Errorf("%q: not read as the kernel's line", s)
		}
	}
	for _, s := range []string{
		"Lustre: a parallel filesystem we run on 40 nodes",
		"LNet: we use o2ib on the compute side",
		"libceph is the kernel client",
		"rbd: the image is mapped at boot",
		"drbd is fine: it resyncs after the failure",
		"drbd r0 is Primary on node1",
		"Note: failed to allocate memory for the buffer",
		"stmmaceth ff540000.ethernet eth0: Link is Up - 1Gbps/Full - flow control rx/tx",
		"(see the o2net docs):section:12 below",
		"ethernet ff540000: fail to alloc skb entry 117",
		"brcmfmac: brcmf_sdio_bus_rxctl: resumed on timeout",
		"Note: some_function: failed to allocate memory",
		"npm: failed to allocate memory for the cache",
	} {
		if bareKernelLine(s) {
			t.Errorf("%q: read as a kernel line", s)
		}
	}
}

// A text of such lines is read (not exit 3), a kernel log of its lines; a sentence that
// only names one ("if you see 'drbd r0: sock_recvmsg returned -12' ...") is not a record.
func TestH16aBareKernelLinesParsed(t *testing.T) {
	tl := ParseString("```\nlibceph: osd3 (1)10.0.0.13:6801 socket closed (con state OPEN)\nrbd: rbd0: write at objno 1234 0~4096 result -12\n```\n", "t", Options{})
	if NothingRead(tl) || tl.Log.Len() != 2 {
		t.Errorf("libceph/rbd lines: %d records, nothing read %v", tl.Log.Len(), NothingRead(tl))
	}
	checkAccount(t, tl)
	tl = ParseString("Lustre: a parallel filesystem we run on 40 nodes.\n", "t", Options{})
	if tl.Log.Len() != 0 {
		t.Errorf("a sentence read as a kernel record: %d", tl.Log.Len())
	}
}

// cma_debug_show_areas's line after a failed cma_alloc (mm/cma.c, CONFIG_CMA_DEBUG): the
// area's free and total pages and its largest free run are kept with the failure; without
// the line, or with another line holding '@' and "=>", they are not.
func TestH16aCMAAreas(t *testing.T) {
	cma := func(text string) map[string]any {
		tl := ParseString(text, "t", Options{})
		for _, a := range tl.Artifacts {
			if m, ok := a.Data.(map[string]any); ok && m["cma_alloc_failures"] != nil {
				return m
			}
		}
		return nil
	}
	m := cma("[ 8123.456789] cma: cma_alloc: linux,cma: alloc failed, req-size: 2025 pages, ret: -12\n" +
		"[ 8123.456801] cma: number of available pages: 3@125+8@248+1024@4096=> 1035 free of 65536 total pages\n")
	if m == nil || m["cma_free_pages"] != int64(1035) || m["cma_total_pages"] != int64(65536) || m["cma_largest_free_run_pages"] != int64(1024) || m["req_pages"] != int64(2025) {
		t.Errorf("CMA areas: %+v", m)
	}
	m = cma("[ 1.0] cma: cma_alloc: alloc failed, req-size: 512 pages, ret: -12\n" +
		"[ 1.1] cma: number of available pages: range 0: 400@0+200@512\n[ 1.2] cma: range 1: 300@0=> 516 free of 4096 total pages\n")
	if m == nil || m["cma_free_pages"] != int64(516) || m["cma_largest_free_run_pages"] != int64(400) {
		t.Errorf("CMA areas by range: %+v", m)
	}
	for _, text := range []string{
		"[ 1.0] cma: cma_alloc: alloc failed, req-size: 512 pages, ret: -12\n",
		"[ 1.0] cma: cma_alloc: alloc failed, req-size: 512 pages, ret: -12\n[ 1.1] foo: user@host => 5 free of 10 total pages in the queue\n",
	} {
		if m := cma(text); m == nil || m["cma_free_pages"] != nil {
			t.Errorf("%q: %+v", text, m)
		}
	}
}
