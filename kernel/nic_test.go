package kernel

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/vishvananda/netlink"
)

func TestReadNICsHost(t *testing.T) {
	nics, err := ReadNICs(HostRoot())
	if err != nil {
		t.Fatal(err)
	}
	ifs, err := net.Interfaces()
	if err != nil {
		t.Fatal(err)
	}
	// rtnetlink (net.Interfaces) and sysfs agree on names and MTUs.
	want := map[string]int{}
	for _, i := range ifs {
		want[i.Name] = i.MTU
	}
	got := map[string]int{}
	for _, n := range nics {
		got[n.Name] = int(n.MTU)
	}
	if !maps.Equal(got, want) {
		t.Errorf("sysfs NICs %v, rtnetlink %v", got, want)
	}
	for _, n := range nics {
		l, err := netlink.LinkByName(n.Name)
		if err != nil {
			t.Fatal(err)
		}
		if int64(l.Attrs().TxQLen) != n.TxQueueLen {
			t.Errorf("%s: tx_queue_len %d, rtnetlink says %d", n.Name, n.TxQueueLen, l.Attrs().TxQLen)
		}
		if n.Name == "lo" {
			if !n.Virtual || n.Driver != "" || n.SpeedMbps != -1 || n.RxQueues < 1 || n.TxQueues < 1 {
				t.Errorf("lo = %+v", n)
			}
		}
		if !n.Virtual && n.Driver == "" {
			t.Errorf("%s: a device with a parent but no driver: %+v", n.Name, n)
		}
		if n.Operstate == "" {
			t.Errorf("%s: no operstate", n.Name)
		}
	}
}

func TestNICCaptureRoundTrip(t *testing.T) {
	host, err := ReadNICs(HostRoot())
	if err != nil {
		t.Fatal(err)
	}
	var a txtar.Archive
	for _, n := range host {
		files, err := CaptureNICFiles(HostRoot(), n.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range slices.Sorted(maps.Keys(files)) {
			a.Files = append(a.Files, txtar.File{Name: name, Data: files[name]})
		}
	}
	// bonding_masters sits among the interfaces when the bonding module is loaded.
	a.Files = append(a.Files, txtar.File{Name: "sys/class/net/bonding_masters", Data: []byte("\n")})
	// Through the txtar text format, as a capture file would be stored.
	parsed := txtar.Parse(txtar.Format(&a))
	got, err := ReadNICs(TxtarRoot(parsed, "capture"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, host) {
		t.Errorf("through a capture:\n%+v\nlive:\n%+v", got, host)
	}
}

// nicWriteTree creates files under dir; a value starting with "->" makes a symbolic link.
func nicWriteTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, v := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(v, "->"); ok {
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReadNICsSysfsLayout reads a copy of the live sysfs layout (symbolic links, queues
// directories) from a directory, with the speed encodings of several kernel eras.
func TestReadNICsSysfsLayout(t *testing.T) {
	dir := t.TempDir()
	pci := "sys/devices/pci0000:00/0000:00:19.0"
	nicWriteTree(t, dir, map[string]string{
		"sys/class/net/eth0":                   "->../../devices/pci0000:00/0000:00:19.0/net/eth0",
		"sys/class/net/eth1":                   "->../../devices/pci0000:00/0000:00:1a.0/net/eth1",
		"sys/class/net/veth9":                  "->../../devices/virtual/net/veth9",
		"sys/class/net/bonding_masters":        "bond0\n",
		pci + "/net/eth0/mtu":                  "9000\n",
		pci + "/net/eth0/tx_queue_len":         "1000\n",
		pci + "/net/eth0/operstate":            "up\n",
		pci + "/net/eth0/speed":                "1000\n",
		pci + "/net/eth0/device":               "->../../../0000:00:19.0",
		pci + "/driver":                        "->../../../bus/pci/drivers/e1000e",
		pci + "/net/eth0/queues/rx-0/rps_cpus": "0\n",
		pci + "/net/eth0/queues/rx-1/rps_cpus": "0\n",
		pci + "/net/eth0/queues/tx-0/xps_cpus": "0\n",
		// 2.6.30: link down printed as 65535, no queues directory.
		"sys/devices/pci0000:00/0000:00:1a.0/net/eth1/mtu":          "1500\n",
		"sys/devices/pci0000:00/0000:00:1a.0/net/eth1/tx_queue_len": "1000\n",
		"sys/devices/pci0000:00/0000:00:1a.0/net/eth1/operstate":    "down\n",
		"sys/devices/pci0000:00/0000:00:1a.0/net/eth1/speed":        "65535\n",
		"sys/devices/pci0000:00/0000:00:1a.0/net/eth1/device":       "->../../../0000:00:1a.0",
		"sys/devices/pci0000:00/0000:00:1a.0/driver":                "->../../../bus/pci/drivers/mv643xx_eth",
		"sys/devices/virtual/net/veth9/mtu":                         "1500\n",
		"sys/devices/virtual/net/veth9/tx_queue_len":                "1000\n",
		"sys/devices/virtual/net/veth9/operstate":                   "lowerlayerdown\n",
		"sys/devices/virtual/net/veth9/speed":                       "4294967295\n",
		"sys/devices/virtual/net/veth9/queues/rx-0/rps_cpus":        "0\n",
		"sys/devices/virtual/net/veth9/queues/tx-0/xps_cpus":        "0\n",
	})
	got, err := ReadNICs(DirRoot(dir))
	if err != nil {
		t.Fatal(err)
	}
	want := []NIC{
		{Name: "eth0", Driver: "e1000e", SpeedMbps: 1000, MTU: 9000, TxQueueLen: 1000, Operstate: "up", RxQueues: 2, TxQueues: 1},
		{Name: "eth1", Driver: "mv643xx_eth", SpeedMbps: -1, MTU: 1500, TxQueueLen: 1000, Operstate: "down"},
		{Name: "veth9", SpeedMbps: -1, MTU: 1500, TxQueueLen: 1000, Operstate: "lowerlayerdown", RxQueues: 1, TxQueues: 1, Virtual: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestReadNICsMalformed(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		has   string
	}{
		{"bad mtu", map[string]string{"mtu": "lots\n", "tx_queue_len": "1\n"}, "/sys/class/net/x0/mtu"},
		{"no mtu", map[string]string{"tx_queue_len": "1\n"}, "not supported"},
		{"bad speed", map[string]string{"mtu": "1500\n", "tx_queue_len": "1\n", "speed": "fast\n"}, "/sys/class/net/x0/speed"},
		{"bad queues", map[string]string{"mtu": "1500\n", "tx_queue_len": "1\n", "headroom_queues": "rx four\n"}, "headroom_queues"},
		{"unknown queue kind", map[string]string{"mtu": "1500\n", "tx_queue_len": "1\n", "headroom_queues": "xdp 1\n"}, "headroom_queues"},
	} {
		var a txtar.Archive
		for k, v := range tc.files {
			a.Files = append(a.Files, txtar.File{Name: "sys/class/net/x0/" + k, Data: []byte(v)})
		}
		_, err := ReadNICs(TxtarRoot(&a, "t"))
		if err == nil || !strings.Contains(err.Error(), tc.has) {
			t.Errorf("%s: err = %v, want one containing %q", tc.name, err, tc.has)
		}
	}
	if _, err := ReadNICs(TxtarRoot(&txtar.Archive{}, "t")); !errors.Is(err, ErrNotSupported) {
		t.Errorf("no sys/class/net: %v, want ErrNotSupported", err)
	}
	if _, err := ReadNIC(HostRoot(), "../x"); err == nil {
		t.Error("ReadNIC accepted a path as interface name")
	}
}

// sysfsInNetns reads a NIC's sysfs files the way `ip netns exec` does: in a new mount
// namespace with /sys mounted again from inside the network namespace.
func sysfsInNetns(t *testing.T, ns, ifname string) (files map[string]string, queues []string) {
	t.Helper()
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("no ip(8) to cross-check sysfs inside the namespace")
	}
	out, err := exec.Command("ip", "netns", "exec", ns, "sh", "-c",
		fmt.Sprintf("cd /sys/class/net/%s && for f in mtu speed operstate tx_queue_len; do echo $f $(cat $f 2>/dev/null || echo -1); done && ls queues", ifname)).CombinedOutput()
	if err != nil {
		t.Fatalf("ip netns exec: %v\n%s", err, out)
	}
	files = map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if k, v, ok := strings.Cut(l, " "); ok {
			files[k] = v
		} else {
			queues = append(queues, l)
		}
	}
	return files, queues
}

func TestReadNICsInNetnsVeth(t *testing.T) {
	ns := newTestNetns(t)
	addVeth(t, ns, "hrv0", "hrv1", 4)
	var nics []NIC
	if err := InNetns(ns, func(root Root) (err error) { nics, err = ReadNICs(root); return err }); err != nil {
		t.Fatal(err)
	}
	if names := nicNames(nics); !reflect.DeepEqual(names, []string{"hrv0", "hrv1", "lo"}) {
		t.Fatalf("NICs in the namespace: %v", names)
	}
	files, queues := sysfsInNetns(t, ns, "hrv0")
	v := nics[0]
	rx, tx := 0, 0
	for _, q := range queues {
		if strings.HasPrefix(q, "rx-") {
			rx++
		} else if strings.HasPrefix(q, "tx-") {
			tx++
		}
	}
	want := NIC{Name: "hrv0", Operstate: files["operstate"], RxQueues: rx, TxQueues: tx, Virtual: true}
	want.MTU, _ = strconv.ParseInt(files["mtu"], 10, 64)
	want.SpeedMbps, _ = strconv.ParseInt(files["speed"], 10, 64)
	want.TxQueueLen, _ = strconv.ParseInt(files["tx_queue_len"], 10, 64)
	if v != want {
		t.Errorf("rtnetlink view %+v\nsysfs view     %+v", v, want)
	}
	if v.SpeedMbps <= 0 || v.Operstate != "up" || v.RxQueues != 4 {
		t.Errorf("veth = %+v, want a speed, up, 4 queues", v)
	}
}

// TestVethPairSilent: a veth pair of the tests carries no packet it was not given, so no
// test can have a packet in flight while it changes the pair's queues.
func TestVethPairSilent(t *testing.T) {
	ns := newTestNetns(t)
	addVeth(t, ns, "hrv0", "hrv1", 4)
	// IPv6 would send its first DAD probe and MLD report within rtr_solicit_delay (1 s,
	// net/ipv6/addrconf.c addrconf_dad_begin) of the link coming up.
	time.Sleep(1500 * time.Millisecond)
	err := InNetns(ns, func(Root) error {
		for _, name := range []string{"hrv0", "hrv1"} {
			l, err := netlink.LinkByName(name)
			if err != nil {
				return err
			}
			if st := l.Attrs().Statistics; st == nil || st.RxPackets != 0 || st.TxPackets != 0 {
				t.Errorf("%s carried traffic of its own: %+v", name, st)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func nicNames(nics []NIC) []string {
	var s []string
	for _, n := range nics {
		s = append(s, n.Name)
	}
	return s
}

// addVeth creates a veth pair a<->b with n queues each inside ns and sets both up. IPv6 is
// off in ns first, so the pair carries no traffic of its own (router solicitations, DAD,
// MLD reports): the tests read counters and change queue counts, and a packet in flight on
// a queue that a channel change removes is what made get_rps_cpu WARN (see
// TestEthtoolVeth).
func addVeth(t testing.TB, ns, a, b string, n int) {
	t.Helper()
	err := InNetns(ns, func(Root) error {
		for _, k := range []string{"all", "default"} {
			// net.ipv6.conf.* is per namespace (net/ipv6/addrconf.c, addrconf_init_net):
			// this thread is in ns.
			p := "/proc/sys/net/ipv6/conf/" + k + "/disable_ipv6"
			if err := os.WriteFile(p, []byte("1\n"), 0); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
		la := netlink.NewLinkAttrs()
		la.Name, la.NumTxQueues, la.NumRxQueues = a, n, n
		v := &netlink.Veth{LinkAttrs: la, PeerName: b}
		v.PeerNumTxQueues, v.PeerNumRxQueues = uint32(n), uint32(n)
		if err := netlink.LinkAdd(v); err != nil {
			return err
		}
		for _, name := range []string{a, b} {
			l, err := netlink.LinkByName(name)
			if err != nil {
				return err
			}
			if err := netlink.LinkSetUp(l); err != nil {
				return err
			}
		}
		// Operational state follows asynchronously (linkwatch); wait for "up" so that
		// readers agree with each other.
		for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			la, err := netlink.LinkByName(a)
			if err != nil {
				return err
			}
			lb, err := netlink.LinkByName(b)
			if err != nil {
				return err
			}
			if la.Attrs().OperState == netlink.OperUp && lb.Attrs().OperState == netlink.OperUp {
				return nil
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("veth %s/%s not operationally up after 3s", a, b)
			}
		}
	})
	if err != nil {
		t.Skipf("cannot create veth pair: %v", err)
	}
}
