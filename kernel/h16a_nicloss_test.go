package kernel

import "testing"

// Pre-round 16 (h16a): the SoC NICs' loss counters (names from each driver's ethtool strings,
// nicloss.go) are ring or FIFO losses at the NIC; FEC's IEEE_rx_drop ("Frames not counted
// correctly") and DPAA2's "[hw] rx discarded frames" are not classified.
func TestH16aSoCNICCounters(t *testing.T) {
	for _, n := range []string{"Rx Start of Frame Overruns", "Rx Middle of Frame Overruns", "Rx DMA Overruns", "rx_resource_errors", "rx_overruns", "IEEE_rx_macerr", "[hw] rx nobuffer discards", "mmc_rx_fifo_overflow", "InDroppedDma"} {
		if l, ok := ClassifyNICCounter(n, false); !ok || !l.RxOverrun() {
			t.Errorf("%q: %+v %v, want an RX ring or FIFO loss", n, l, ok)
		}
	}
	for _, n := range []string{"IEEE_rx_drop", "[hw] rx discarded frames", "Good Rx Frames", "IEEE_rx_frame_ok"} {
		if l, ok := ClassifyNICCounter(n, false); ok {
			t.Errorf("%q: classified %+v", n, l)
		}
	}
}

// libcfs's "(tried to alloc 'ptr' = N)" states the request's bytes; its order stays unknown
// (kmalloc or vmalloc by size). Lustre's "operation X to node Y failed: rc = -12" is the
// peer's reply, not this host's failure; a server's own "Error -12" is. Ceph's "rbd: rbd0:" is no RX buffer descriptor; a driver's
// "rbd" ring still is.
func TestH16aSubsysAllocForms(t *testing.T) {
	f, ok := ParseSubsysAllocFailure("LustreError: 1:0:(lib-move.c:4321:lnet_parse()) LNET: out of memory at lib-move.c:4321 (tried to alloc 'msg' = 1048576)")
	if !ok || f.Bytes != 1048576 || f.Order != -1 || f.Contiguous {
		t.Errorf("libcfs: %+v %v", f, ok)
	}
	if f, ok := ParseSubsysAllocFailure("rbd: rbd0: write at objno 1234 0~4096 result -12"); !ok || f.RX {
		t.Errorf("rbd: %+v %v, want a failure not on the receive path", f, ok)
	}
	if f, ok := ParseSubsysAllocFailure("LustreError: 11-0: lustre-OST0001-osc-ffff8800: operation ost_write to node 10.0.0.5@o2ib failed: rc = -12"); ok {
		t.Errorf("a peer's error reply read as this host's failure: %+v", f)
	}
	if f, ok := ParseSubsysAllocFailure("LustreError: 3333:0:(ost_handler.c:1234:ost_brw_write()) lustre-OST0001: Error -12 reading data"); !ok {
		t.Errorf("the server's own -12: %+v %v, want a failure", f, ok)
	}
	if f, ok := ParseSubsysAllocFailure("foo 0000:01:00.0: failed to allocate rbd ring: -12"); !ok || !f.RX {
		t.Errorf("a driver's rbd ring: %+v %v, want the receive path", f, ok)
	}
}
