package kernel

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/vishvananda/netlink"
	"golang.org/x/sys/unix"
)

func TestIfreqDataSize(t *testing.T) {
	// struct ifreq is 32 bytes on 32-bit ABIs and 40 on 64-bit ones; the kernel copies
	// that many bytes from our struct.
	min := uintptr(40)
	if unsafe.Sizeof(uintptr(0)) == 4 {
		min = 32
	}
	if s := unsafe.Sizeof(ifreqData{}); s < min {
		t.Errorf("ifreqData is %d bytes, struct ifreq is %d", s, min)
	}
	if off := unsafe.Offsetof(ifreqData{}.data); off != unix.IFNAMSIZ {
		t.Errorf("ifr_data at offset %d, want %d", off, unix.IFNAMSIZ)
	}
	// The GDRVINFO fallback reads n_stats by offset; x/sys/unix has the struct.
	var d unix.EthtoolDrvinfo
	if unsafe.Offsetof(d.N_stats) != drvNStatsOff || unsafe.Sizeof(d) != drvinfoSize {
		t.Errorf("ethtool_drvinfo: n_stats at %d size %d, we use %d and %d", unsafe.Offsetof(d.N_stats), unsafe.Sizeof(d), drvNStatsOff, drvinfoSize)
	}
}

// ethtoolCLI runs the ethtool(8) command inside ns, for cross-checks.
func ethtoolCLI(t *testing.T, ns string, args ...string) (string, error) {
	t.Helper()
	if _, err := exec.LookPath("ethtool"); err != nil {
		t.Skip("no ethtool(8) to cross-check with")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("no ip(8) to enter the namespace with")
	}
	out, err := exec.Command("ip", append([]string{"netns", "exec", ns, "ethtool"}, args...)...).CombinedOutput()
	return string(out), err
}

// setVethChannels sets rx and tx channels of every end of a veth pair to n, with the pair
// down while the counts differ, and brings it up again.
func setVethChannels(t *testing.T, ns string, n int, ends ...string) (string, error) {
	t.Helper()
	setUp := func(up bool) error {
		return InNetns(ns, func(Root) error {
			for _, name := range ends {
				l, err := netlink.LinkByName(name)
				if err != nil {
					return err
				}
				if up {
					err = netlink.LinkSetUp(l)
				} else {
					err = netlink.LinkSetDown(l)
				}
				if err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err := setUp(false); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := setUp(true); err != nil {
			t.Error(err)
		}
	}()
	for _, name := range ends {
		if out, err := ethtoolCLI(t, ns, "-L", name, "rx", strconv.Itoa(n), "tx", strconv.Itoa(n)); err != nil {
			return out, err
		}
	}
	return "", nil
}

// parseEthtoolS reads `ethtool -S` output into names and values.
func parseEthtoolS(t *testing.T, out string) ([]string, map[string]int64) {
	t.Helper()
	var names []string
	vals := map[string]int64{}
	for _, l := range strings.Split(out, "\n")[1:] {
		k, v, ok := strings.Cut(strings.TrimSpace(l), ": ")
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatalf("ethtool -S line %q: %v", l, err)
		}
		names = append(names, k)
		vals[k] = n
	}
	return names, vals
}

func TestEthtoolVeth(t *testing.T) {
	ns := newTestNetns(t)
	addVeth(t, ns, "hrv0", "hrv1", 4)
	var (
		e         Ethtool
		peerIndex int
	)
	err := InNetns(ns, func(Root) error {
		var err error
		if e, err = NewEthtool(); err != nil {
			return err
		}
		l, err := netlink.LinkByName("hrv1")
		if err != nil {
			return err
		}
		peerIndex = l.Attrs().Index
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()

	// The socket stays in the namespace: these calls run on the test's own thread.
	stats, err := e.Stats("hrv0")
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := stats.Get("peer_ifindex"); !ok || v != int64(peerIndex) {
		t.Errorf("peer_ifindex = %d (present %v), want hrv1's index %d", v, ok, peerIndex)
	}
	out, err := ethtoolCLI(t, ns, "-S", "hrv0")
	if err != nil {
		t.Fatalf("ethtool -S: %v\n%s", err, out)
	}
	names, vals := parseEthtoolS(t, out)
	if strings.Join(names, ",") != strings.Join(stats.Names(), ",") {
		t.Errorf("names differ from ethtool -S:\nours    %v\nethtool %v", stats.Names(), names)
	}
	if vals["peer_ifindex"] != int64(peerIndex) {
		t.Errorf("ethtool -S peer_ifindex = %d", vals["peer_ifindex"])
	}

	// The second call reuses the cached names.
	ie := e.(*ioctlEthtool)
	cached := ie.sets["hrv0"]
	again, err := e.Stats("hrv0")
	if err != nil {
		t.Fatal(err)
	}
	if ie.sets["hrv0"] != cached || again.Len() != stats.Len() {
		t.Error("second Stats call did not reuse the cached string set")
	}
	// ... and its index, but not the values: an earlier answer kept in a sample must not
	// change with the next one.
	if again.Len() > 0 && (&again.values[0] == &stats.values[0] || &again.names[0] != &stats.names[0]) {
		t.Error("the second answer shares the first one's values, or not its names")
	}
	if v, ok := again.Get("peer_ifindex"); !ok || v != int64(peerIndex) {
		t.Errorf("second answer: peer_ifindex = %d (present %v), want %d", v, ok, peerIndex)
	}

	// Fewer channels, fewer per-queue statistics: the count change is noticed and the
	// names fetched again. Both ends change, with the pair down: veth delivers a packet on
	// the peer's RX queue of the same index as the TX queue it was sent on
	// (drivers/net/veth.c veth_xmit, skb_record_rx_queue), and with RPS enabled anywhere on
	// the host get_rps_cpu (net/core/dev.c) WARNs and taints the kernel on a queue index >=
	// real_num_rx_queues. Reducing only hrv0 once did exactly that ("received packet on
	// queue 2, but number of RX queues is 2", kernel.tainted 0 -> 512).
	if out, err := setVethChannels(t, ns, 2, "hrv0", "hrv1"); err != nil {
		t.Logf("ethtool -L not supported on this veth (%v: %s); skipping the count-change check", err, out)
	} else {
		fewer, err := e.Stats("hrv0")
		if err != nil {
			t.Fatal(err)
		}
		out, _ := ethtoolCLI(t, ns, "-S", "hrv0")
		names, _ := parseEthtoolS(t, out)
		if fewer.Len() >= stats.Len() || strings.Join(names, ",") != strings.Join(fewer.Names(), ",") {
			t.Errorf("after ethtool -L: %d statistics %v, ethtool -S shows %v (before: %d)", fewer.Len(), fewer.Names(), names, stats.Len())
		}
		if _, ok := fewer.Get("rx_queue_3_drops"); ok {
			t.Error("queue 3 statistics still present after reducing to 2 channels")
		}
	}

	// Rings: whatever this kernel's veth does, ethtool -g must agree with us.
	ring, rerr := e.Ring("hrv0")
	out, cerr := ethtoolCLI(t, ns, "-g", "hrv0")
	switch {
	case errors.Is(rerr, ErrNotSupported):
		if cerr == nil || !strings.Contains(out, "not supported") {
			t.Errorf("Ring: %v, but ethtool -g says:\n%s", rerr, out)
		}
	case rerr != nil:
		t.Errorf("Ring: %v", rerr)
	default:
		if cerr != nil || !strings.Contains(out, fmt.Sprintf("RX:\t\t%d", ring.Rx)) {
			t.Errorf("Ring = %+v, ethtool -g says:\n%s", ring, out)
		}
	}

	// loopback: no statistics, no rings; not an error for the report.
	if _, err := e.Stats("lo"); !errors.Is(err, ErrNotSupported) {
		t.Errorf("Stats(lo) = %v, want ErrNotSupported", err)
	}
	if _, err := e.Stats("nosuch0"); err == nil || errors.Is(err, ErrNotSupported) || !errors.Is(err, unix.ENODEV) {
		t.Errorf("Stats(nosuch0) = %v, want ENODEV", err)
	}
	var nics []NIC
	var root Root
	if err := InNetns(ns, func(r Root) (err error) { root = r; nics, err = ReadNICs(r); return err }); err != nil {
		t.Fatal(err)
	}
	got := ReadNICStats(root, e, nics)
	if len(got) != 3 {
		t.Fatalf("ReadNICStats = %+v", got)
	}
	for _, s := range got {
		switch s.Name {
		case "lo":
			if s.Stats != nil || !strings.Contains(s.StatsErr, "not supported") || s.Ring != nil || s.RingErr == "" {
				t.Errorf("lo: %+v", s)
			}
		default:
			if s.Stats == nil || s.StatsErr != "" {
				t.Errorf("%s: %+v", s.Name, s)
			}
		}
	}
}

func TestEthtoolHostLoopback(t *testing.T) {
	e, err := NewEthtool()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Stats("lo"); !errors.Is(err, ErrNotSupported) {
		t.Errorf("Stats(lo) = %v, want ErrNotSupported", err)
	}
	if _, err := e.Ring("lo"); !errors.Is(err, ErrNotSupported) {
		t.Errorf("Ring(lo) = %v, want ErrNotSupported", err)
	}
	if _, err := e.Stats(strings.Repeat("x", 16)); err == nil {
		t.Error("a 16-byte interface name was accepted")
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Stats("lo"); err == nil {
		t.Error("Stats after Close succeeded")
	}
}

// fakeEthtool answers from maps, for the logic that does not need a kernel.
type fakeEthtool struct {
	stats map[string]Counters
	rings map[string]Ring
}

func (f fakeEthtool) Stats(n string) (Counters, error) {
	if c, ok := f.stats[n]; ok {
		return c, nil
	}
	return Counters{}, fmt.Errorf("ethtool -S %s: %w", n, ErrNotSupported)
}

func (f fakeEthtool) Ring(n string) (Ring, error) {
	if r, ok := f.rings[n]; ok {
		return r, nil
	}
	return Ring{}, fmt.Errorf("ethtool -g %s: %w", n, ErrNotSupported)
}

func (fakeEthtool) Close() error { return nil }

func TestReadNICStatsCapture(t *testing.T) {
	var c Counters
	c.Set("rx_missed_errors", 4711)
	c.Set("rx_no_buffer_count", 12)
	f := fakeEthtool{
		stats: map[string]Counters{"eth0": c},
		rings: map[string]Ring{"eth0": {RxMax: 4096, TxMax: 4096, Rx: 256, Tx: 256}},
	}
	var a txtar.Archive
	for _, n := range []string{"eth0", "lo"} {
		b, err := CaptureNICStats(f, n)
		if err != nil {
			t.Fatal(err)
		}
		a.Files = append(a.Files, txtar.File{Name: NICStatsCapturePath(n), Data: b})
	}
	nics := []NIC{{Name: "eth0"}, {Name: "lo"}, {Name: "eth1"}}
	got := ReadNICStats(TxtarRoot(txtar.Parse(txtar.Format(&a)), "capture"), nil, nics)
	if len(got) != 3 {
		t.Fatalf("got %+v", got)
	}
	e0 := got[0]
	if v, _ := e0.Stats.Get("rx_missed_errors"); v != 4711 || e0.Stats.Names()[1] != "rx_no_buffer_count" || e0.Ring.Rx != 256 || e0.StatsErr != "" {
		t.Errorf("eth0 = %+v", e0)
	}
	if lo := got[1]; lo.Stats != nil || lo.Ring != nil || !strings.Contains(lo.StatsErr, "not supported") {
		t.Errorf("lo = %+v", lo)
	}
	// An interface the capture did not cover says so instead of vanishing.
	if e1 := got[2]; e1.Name != "eth1" || e1.Stats != nil || !strings.Contains(e1.StatsErr, "headroom/ethtool/eth1.json") {
		t.Errorf("eth1 = %+v", e1)
	}
	// A corrupt file is reported per interface.
	bad := TxtarRoot(&txtar.Archive{Files: []txtar.File{{Name: NICStatsCapturePath("eth0"), Data: []byte("{")}}}, "bad")
	if g := ReadNICStats(bad, nil, nics[:1]); g[0].Stats != nil || !strings.Contains(g[0].StatsErr, "eth0.json") {
		t.Errorf("corrupt capture: %+v", g[0])
	}
	// The live path with a fake: the same shape.
	live := ReadNICStats(HostRoot(), f, nics[:2])
	b1, _ := json.Marshal(live)
	b2, _ := json.Marshal(got[:2])
	if string(b1) != string(b2) {
		t.Errorf("live %s\ncapture %s", b1, b2)
	}
	if g := ReadNICStats(HostRoot(), nil, nics[:1]); g[0].StatsErr == "" {
		t.Error("no Ethtool handle on the host gave no error")
	}
}

// BenchmarkEthtoolStats is the sampler's per-interface cost on a veth (37 statistics
// with 4 queues): GSSET_INFO + GSTATS with the names cached.
func BenchmarkEthtoolStats(b *testing.B) {
	ns := newTestNetns(b)
	addVeth(b, ns, "hrv0", "hrv1", 4)
	var e Ethtool
	if err := InNetns(ns, func(Root) (err error) { e, err = NewEthtool(); return err }); err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	for b.Loop() {
		if _, err := e.Stats("hrv0"); err != nil {
			b.Fatal(err)
		}
	}
}

// A driver that repeats a statistic's name still gets every value, the name pointing at the
// later one, and answers never share values.
func TestStatSetAnswer(t *testing.T) {
	mk := func(names ...string) *statSet {
		set := &statSet{names: names}
		for _, n := range names {
			set.layout.Set(n, 0)
		}
		return set
	}
	data := func(vals ...uint64) []byte {
		b := make([]byte, 8*len(vals))
		for i, v := range vals {
			binary.NativeEndian.PutUint64(b[8*i:], v)
		}
		return b
	}
	set := mk("rx_packets", "rx_dropped", "tx_packets")
	a := set.answer(data(10, 2, 30))
	b := set.answer(data(11, 3, 31))
	if v, _ := a.Get("rx_dropped"); v != 2 {
		t.Errorf("first answer rx_dropped = %d after a second answer, want 2", v)
	}
	if v, _ := b.Get("tx_packets"); v != 31 || b.Len() != 3 {
		t.Errorf("second answer tx_packets = %d, %d names", v, b.Len())
	}
	dup := mk("rx_errors", "rx_errors", "tx_errors")
	d := dup.answer(data(1, 5, 7))
	if d.Len() != 3 {
		t.Errorf("repeated name: %d entries, want the driver's 3", d.Len())
	}
	if v, _ := d.Get("rx_errors"); v != 5 {
		t.Errorf("repeated name: rx_errors = %d, want the later value 5", v)
	}
	if n, v := d.At(0); n != "rx_errors" || v != 1 {
		t.Errorf("repeated name: At(0) = %s %d, want rx_errors 1", n, v)
	}
}

// Once the names are cached, a Stats call is one ioctl (GSTATS with the cached count); a
// count that grows far past statsSlack (1 to 32 channels of a veth: hundreds more
// per-queue values) is still noticed and the names fetched again, whether this kernel
// answers the mismatch with no values or writes its own count of values into the guard
// page after the buffer (EFAULT).
func TestEthtoolStatsOneIoctl(t *testing.T) {
	ns := newTestNetns(t)
	addVeth(t, ns, "hrg0", "hrg1", 32)
	var e Ethtool
	if err := InNetns(ns, func(Root) (err error) { e, err = NewEthtool(); return err }); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ie := e.(*ioctlEthtool)
	if out, err := setVethChannels(t, ns, 1, "hrg0", "hrg1"); err != nil {
		t.Skipf("ethtool -L not supported on this veth (%v: %s)", err, out)
	}
	few, err := e.Stats("hrg0")
	if err != nil {
		t.Fatal(err)
	}
	if !ie.sets["hrg0"].guarded {
		t.Fatal("the statistics buffer is not guarded (mmap or mprotect failed)")
	}
	calls := ie.calls
	again, err := e.Stats("hrg0")
	if err != nil {
		t.Fatal(err)
	}
	if got := ie.calls - calls; got != 1 || again.Len() != few.Len() {
		t.Errorf("a Stats call with the names cached made %d ioctls (want 1) and read %d values (want %d)", got, again.Len(), few.Len())
	}
	if out, err := setVethChannels(t, ns, 32, "hrg0", "hrg1"); err != nil {
		t.Fatalf("ethtool -L 32: %v: %s", err, out)
	}
	more, err := e.Stats("hrg0")
	if err != nil {
		t.Fatal(err)
	}
	out, err := ethtoolCLI(t, ns, "-S", "hrg0")
	if err != nil {
		t.Fatalf("ethtool -S: %v\n%s", err, out)
	}
	names, _ := parseEthtoolS(t, out)
	if more.Len() < few.Len()+statsSlack || strings.Join(names, ",") != strings.Join(more.Names(), ",") {
		t.Errorf("after ethtool -L 32: %d statistics %v, ethtool -S shows %d %v (before: %d)", more.Len(), more.Names(), len(names), names, few.Len())
	}
	if _, ok := more.Get("rx_queue_31_drops"); !ok {
		t.Error("queue 31's statistics missing after raising to 32 channels")
	}
}

// A buffer of newStatSet ends at a page the kernel cannot write: a read longer than the
// buffer stops there instead of writing past it.
func TestStatSetGuard(t *testing.T) {
	set := newStatSet([]string{"a", "b"})
	defer set.free()
	if !set.guarded {
		t.Skip("no guarded mapping here")
	}
	fd, err := unix.Open("/dev/zero", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Skip(err)
	}
	defer unix.Close(fd)
	for i := range set.buf {
		set.buf[i] = 1
	}
	// The kernel is told the buffer is a page longer than it is.
	long := unsafe.Slice(&set.buf[0], len(set.buf)+4096)
	n, err := unix.Read(fd, long)
	if n > len(set.buf) {
		t.Fatalf("the kernel wrote %d bytes into a buffer of %d", n, len(set.buf))
	}
	if err == nil && n < len(set.buf) {
		t.Fatalf("read %d bytes, want the buffer's %d or EFAULT", n, len(set.buf))
	}
	t.Logf("read: %d bytes, %v", n, err)
}
