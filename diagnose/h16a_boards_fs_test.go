package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
)

// Pre-round 16 (h16a): SoC boards' NIC counters and kernel lines, and the cluster
// filesystems' kernel lines, from the drivers' and modules' own format strings (kernel
// sources named in artifact/barekernel.go and kernel/nicloss.go); snippets written here, none
// copied from a case.

func h16aRun(t *testing.T, text string) Diagnosis {
	t.Helper()
	tl, err := artifact.Parse(strings.NewReader(text), "t.txt", artifact.Options{})
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return Run(tl, nil)
}

func h16aCheck(d Diagnosis, id string) Check {
	for _, c := range d.Checks {
		if c.ID == id {
			return c
		}
	}
	return Check{}
}

// The SoC drivers' ring and FIFO loss counters, in a "NIC statistics:" block or grepped under
// the ethtool -S command (names with spaces and brackets too), reach nic-rx-overruns with the
// counter and its figure.
func TestH16aSoCNICCountersReachRxOverruns(t *testing.T) {
	for _, c := range []struct{ text, name, value string }{
		{"root@am335x-evm:~# ethtool -S eth0\nNIC statistics:\n     Good Rx Frames: 9823412\n     Rx Start of Frame Overruns: 7421\n     Rx DMA Overruns: 0\n", "Rx Start of Frame Overruns", "7421"},
		{"root@am335x-evm:~# ethtool -S eth0 | grep -i overrun\n     Rx Start of Frame Overruns: 7421\n     Rx Middle of Frame Overruns: 22\n", "Rx Middle of Frame Overruns", "22"},
		{"# ethtool -S eth0 | grep -E 'overrun|resource'\n     rx_overruns: 8812\n     rx_resource_errors: 3311\n", "rx_resource_errors", "3311"},
		{"# ethtool -S eth0\nNIC statistics:\n     rx_packets: 123456789\n     IEEE_rx_drop: 3456\n     IEEE_rx_macerr: 12\n", "IEEE_rx_macerr", "12"},
		{"root@ls1046ardb:~# ethtool -S eth1 | grep -i discard\n     [hw] rx discarded frames: 12\n     [hw] rx nobuffer discards: 99123\n", "[hw] rx nobuffer discards", "99123"},
		{"# ethtool -S eth0 | grep fifo\n     mmc_rx_fifo_overflow: 512\n", "mmc_rx_fifo_overflow", "512"},
	} {
		d := h16aRun(t, c.text)
		fs := findings(d, "nic-rx-overruns")
		if len(fs) == 0 || !evidenceHas(fs[0], c.name, c.value) {
			t.Errorf("%q: want nic-rx-overruns with %s %s, got %+v", c.text, c.name, c.value, fs)
		}
	}
	// FEC's IEEE_rx_drop ("Frames not counted correctly") is no loss; a grepped line of
	// words under no ethtool command is no counter.
	for _, text := range []string{
		"# ethtool -S eth0\nNIC statistics:\n     rx_packets: 123456789\n     IEEE_rx_drop: 3456\n",
		"Rx Start of Frame Overruns: 7421\n",
	} {
		if fs := findings(h16aRun(t, text), "nic-rx-overruns"); len(fs) != 0 {
			t.Errorf("%q: nic-rx-overruns fired: %+v", text, fs)
		}
	}
}

// Stampless kernel lines with the kernel's own prefix are read as the kernel log (not exit
// 3), and a failed allocation in them reaches the alloc-fail rules as a failure of unknown
// order (not checked, naming the line), never a clean log nor an invented cause; libcfs's
// request size is kept. Lines that state no refused memory stay healthy.
func TestH16aStamplessKernelLinesReachAllocFail(t *testing.T) {
	for _, c := range []struct{ text, mention string }{
		{"Our OSS keeps evicting clients:\n\nLustreError: 12345:0:(lib-move.c:4321:lnet_parse()) LNET: out of memory at lib-move.c:4321 (tried to alloc 'msg' = 1048576)\n", "tried to alloc 'msg' = 1048576"},
		{"00000100:00020000:2.0:1612345678.123456:0:12345:0:(client.c:1234:ptlrpc_new_bulk()) LNET: out of memory at client.c:1234 (tried to alloc 'desc' = 65536)\n", "ptlrpc_new_bulk"},
		{"```\nlibceph: osd3 (1)10.0.0.13:6801 socket closed (con state OPEN)\nrbd: rbd0: write at objno 1234 0~4096 result -12\n```\n", "result -12"},
		{"> drbd r0: sock_recvmsg returned -12\n> drbd r0: PingAck did not arrive in time.\n", "sock_recvmsg returned -12"},
		{"block drbd0: sock_recvmsg returned -12\n", "sock_recvmsg returned -12"},
		{"root@board:~# dmesg | tail -2\nstmmaceth ff540000.ethernet eth0: fail to alloc skb entry 117\nmacb ff0b0000.ethernet eth0: Unable to allocate sk_buff\n", "fail to alloc skb entry 117"},
	} {
		d := h16aRun(t, c.text)
		for _, id := range []string{"alloc-fail-reserve", "alloc-fail-fragmented"} {
			ch := h16aCheck(d, id)
			if ch.Status != StatusNotChecked || !strings.Contains(ch.Why, c.mention) {
				t.Errorf("%q: %s = %v %q, want not checked naming %q", c.text, id, ch.Status, ch.Why, c.mention)
			}
		}
		if strings.Contains(c.text, "rbd0") && strings.Contains(h16aCheck(d, "alloc-fail-reserve").Why, "receive path") {
			t.Errorf("rbd's block device read as an RX buffer descriptor: %q", h16aCheck(d, "alloc-fail-reserve").Why)
		}
	}
	for _, text := range []string{
		"libceph: osd3 (1)10.0.0.13:6801 socket closed (con state OPEN)\nlibceph: mon0 (1)10.0.0.1:6789 session lost, hunting for new mon\n",
		"o2net: Connection to node nodeB (num 1) at 192.168.1.2:7777 has been idle for 30.0 secs, shutting it down.\n(o2net,1234,3):o2net_connect_expired:1664 ERROR: no connection established with node 1 after 30.0 seconds, giving up and returning errors.\n",
		"drbd r0: PingAck did not arrive in time.\n",
		"LNetError: 2222:0:(o2iblnd_cb.c:3335:kiblnd_check_txs_locked()) Timed out tx: active_txs, 0 seconds\n",
		// The peer's error reply (ptlrpc_check_status): the server's ENOMEM, not this host's.
		"LustreError: 11-0: lustre-OST0001-osc-ffff8800: operation ost_write to node 10.0.0.5@o2ib failed: rc = -12\n",
	} {
		d := h16aRun(t, text)
		if len(d.Findings) != 0 {
			t.Errorf("%q: findings %+v, want none", text, d.Findings)
		}
		if ch := h16aCheck(d, "alloc-fail-reserve"); ch.Status != StatusOK {
			t.Errorf("%q: alloc-fail-reserve = %v %q, want healthy (a kernel log read, no failure)", text, ch.Status, ch.Why)
		}
	}
}
