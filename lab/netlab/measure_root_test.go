package netlab_test

import (
	"context"
	"net"
	"slices"
	"testing"
	"time"

	"headroom/lab/netlab"
	"headroom/lab/netlab/netlabtest"
)

// TestUDPFloodCounted: a receiver that keeps up gets what the flood sent, at the rate asked;
// a slow receiver with a small buffer loses datagrams, and the namespace's Udp
// RcvbufErrors (Host.NetStat, per namespace) count exactly the ones it did not get.
func TestUDPFloodCounted(t *testing.T) {
	netlabtest.NeedRoot(t)
	_, a, b, lk := netlabtest.Pair(t, netlab.LinkSpec{})
	addr := net.JoinHostPort(lk.AddrB.String(), "5011")
	const pps = 4000

	rx, err := netlab.ListenUDP(b, addr, netlab.UDPSink{RcvBuf: 4 << 20})
	if err != nil {
		t.Fatal(err)
	}
	snd, err := netlab.StartUDPFlood(context.Background(), a, addr, netlab.UDPFlood{PPS: pps, Bytes: 200, Pin: true, CPU: 0})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	time.Sleep(time.Second)
	snd.Stop()
	secs := time.Since(start).Seconds()
	time.Sleep(100 * time.Millisecond)
	rx.Close()
	sent, got := snd.Sent(), rx.Received()
	t.Logf("fast receiver: sent %d in %.2f s, received %d", sent, secs, got)
	// The schedule never sends ahead, and gives up at most 5 ms at a time when the thread
	// was not run: well over half the rate on a busy 2-core VM.
	if rate := float64(sent) / secs; rate > pps*1.05 || rate < pps/2 {
		t.Errorf("sent %.0f datagrams/s, want about %d", rate, pps)
	}
	if got != sent {
		t.Errorf("received %d of %d on a veth with a 4 MiB buffer", got, sent)
	}

	ns0, err := b.NetStat()
	if err != nil {
		t.Fatal(err)
	}
	slow, err := netlab.ListenUDP(b, addr, netlab.UDPSink{RcvBuf: 4096, Pause: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if got := slow.RcvBuf(); got != 2*4096 {
		t.Errorf("RcvBuf = %d, want the kernel's doubled 8192", got)
	}
	snd, err = netlab.StartUDPFlood(context.Background(), a, addr, netlab.UDPFlood{PPS: pps, Bytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	snd.Stop()
	time.Sleep(100 * time.Millisecond) // one more drain
	slow.Close()
	ns1, err := b.NetStat()
	if err != nil {
		t.Fatal(err)
	}
	delta := func(name string) int64 {
		x, ok0 := ns0.Get("Udp", name)
		y, ok1 := ns1.Get("Udp", name)
		if !ok0 || !ok1 {
			t.Fatalf("no Udp %s in the namespace's snmp", name)
		}
		return y - x
	}
	errs, in := delta("RcvbufErrors"), delta("InDatagrams")
	sent, got = snd.Sent(), slow.Received()
	t.Logf("slow receiver: sent %d, received %d, Udp InDatagrams +%d, RcvbufErrors +%d", sent, got, in, errs)
	if errs == 0 {
		t.Error("a 4 KiB buffer read every 50 ms dropped nothing")
	}
	// InDatagrams counts datagrams read (udp_recvmsg), RcvbufErrors those refused at the full
	// buffer (__udp_enqueue_schedule_skb); a busy VM may lose a few before the socket.
	if in != got || in+errs > sent || in+errs < sent-sent/100 {
		t.Errorf("counters do not add up: sent %d, InDatagrams %d + RcvbufErrors %d, received %d", sent, in, errs, got)
	}
}

// TestDevCountersAndTCPMem: /proc/net/dev is read in the host's own namespace (its end of
// the link counts the pings; a device it lacks is an error), and sockstat's TCP mem is read.
func TestDevCountersAndTCPMem(t *testing.T) {
	netlabtest.NeedRoot(t)
	_, a, b, lk := netlabtest.Pair(t, netlab.LinkSpec{})
	if _, err := netlab.Ping(a, lk.AddrB, 3, 10*time.Millisecond, time.Second); err != nil {
		t.Fatal(err)
	}
	c, err := b.DevCounters(lk.DevB)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := c.Get("rx_packets"); !ok || v < 3 {
		t.Errorf("%s rx_packets = %d, %v after three pings", lk.DevB, v, ok)
	}
	if _, err := b.DevCounters("hr-none0"); err == nil {
		t.Errorf("hr-none0 found in %s", b.Netns())
	}
	if v, err := netlab.TCPMemPages(); err != nil || v < 0 {
		t.Errorf("TCPMemPages = %d, %v", v, err)
	}
}

// TestSnapshotOwned: a run's namespaces and owner file are in the snapshot while it lives
// and gone after Close.
func TestSnapshotOwned(t *testing.T) {
	netlabtest.NeedRoot(t)
	before, err := netlab.SnapshotOwned()
	if err != nil {
		t.Fatal(err)
	}
	l, err := netlab.New()
	if err != nil {
		t.Fatal(err)
	}
	h, err := l.AddHost("a")
	if err != nil {
		l.Close()
		t.Fatal(err)
	}
	mid, err := netlab.SnapshotOwned()
	if err != nil {
		l.Close()
		t.Fatal(err)
	}
	if !slices.Contains(mid.Netns, h.Netns()) || !slices.Contains(mid.Owners, l.RunID+".json") {
		t.Errorf("live run %s missing: namespaces %q, owners %q", l.RunID, mid.Netns, mid.Owners)
	}
	if id, ok := netlab.RunOf(h.Netns()); !ok || id != l.RunID {
		t.Errorf("RunOf(%s) = %q, %v", h.Netns(), id, ok)
	}
	// The run is this process's: a leak check counts it, also with no child named.
	mine := netlab.Mine()
	if !mine(l.RunID) {
		t.Errorf("Mine() does not accept run %s that New started here", l.RunID)
	}
	if len(before.RunChanges(mid, mine)) == 0 {
		t.Error("RunChanges saw nothing while a run was live")
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	after, err := netlab.SnapshotOwned()
	if err != nil {
		t.Fatal(err)
	}
	// Another process's run (another go test beside this one) may come and go meanwhile:
	// only this process's runs are compared.
	for _, c := range before.RunChanges(after, mine) {
		t.Error(c)
	}
}
