package kernel

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/vishvananda/netlink"
	"golang.org/x/sys/unix"
)

// NIC is what /sys/class/net/IFNAME tells about an interface. SpeedMbps is -1 when the
// driver reports no speed (virtual devices, link down: the speed file reads -1 or fails with
// EINVAL). Driver is the basename of device/driver, "" for virtual devices.
type NIC struct {
	Name       string `json:"name"`
	Driver     string `json:"driver,omitempty"`
	SpeedMbps  int64  `json:"speed_mbps"`
	MTU        int64  `json:"mtu"`
	TxQueueLen int64  `json:"tx_queue_len"`
	Operstate  string `json:"operstate"`
	RxQueues   int    `json:"rx_queues"`
	TxQueues   int    `json:"tx_queues"`
	Virtual    bool   `json:"virtual"` // /sys/devices/virtual/net/...
}

// Capture layout of a NIC. A txtar capture cannot hold symbolic links or sysfs
// directories, so `headroom capture` stores, per interface IF (see CaptureNICFiles):
//
//	sys/class/net/IF/mtu              as sysfs prints it
//	sys/class/net/IF/tx_queue_len     as sysfs prints it
//	sys/class/net/IF/operstate        as sysfs prints it
//	sys/class/net/IF/speed            as sysfs prints it; "-1" when the read failed
//	sys/class/net/IF/headroom_driver  basename of the device/driver link; absent when none
//	sys/class/net/IF/headroom_queues  "rx N\ntx M\n": the rx-* and tx-* entries of queues/
//	sys/class/net/IF/headroom_virtual "1\n" for a virtual device, "0\n" otherwise
//
// ReadNICs prefers the headroom_* files when present and otherwise reads the live layout
// (symbolic links and the queues directory), so a copied /sys tree also works.
const (
	nicDriverFile  = "headroom_driver"
	nicQueuesFile  = "headroom_queues"
	nicVirtualFile = "headroom_virtual"
	classNet       = "sys/class/net"
)

// ReadNICs lists the network interfaces of root, sorted by name.
//
// From sysfs (/sys/class/net/*) for the live host and for captures. sysfs shows the
// network namespace of the process that mounted it (fs/sysfs/mount.c takes the mounter's
// namespace tag), not the namespace of the reading thread, so for a root obtained inside
// InNetns (Root.InThreadNetns) the interfaces are listed with rtnetlink instead
// (RTM_GETLINK through github.com/vishvananda/netlink, in the calling thread's
// namespace). See readNICsNetlink for what differs in that case.
func ReadNICs(root Root) ([]NIC, error) {
	if root.IsHost() && root.netDir != "proc/net" {
		return readNICsNetlink()
	}
	ents, err := root.ReadDir(classNet)
	if err != nil {
		return nil, err
	}
	var nics []NIC
	for _, e := range ents {
		// bonding_masters is a regular file in the same directory; interfaces are
		// symbolic links (live) or directories (captures).
		if e.Type().IsRegular() {
			continue
		}
		n, err := ReadNIC(root, e.Name())
		if err != nil {
			return nil, err
		}
		nics = append(nics, n)
	}
	slices.SortFunc(nics, func(a, b NIC) int { return strings.Compare(a.Name, b.Name) })
	return nics, nil
}

// ReadNIC reads one interface from sysfs (or from the capture layout) under root.
func ReadNIC(root Root, name string) (NIC, error) {
	if root.IsHost() && root.netDir != "proc/net" {
		nics, err := readNICsNetlink()
		if err != nil {
			return NIC{}, err
		}
		for _, n := range nics {
			if n.Name == name {
				return n, nil
			}
		}
		return NIC{}, fmt.Errorf("interface %s: %w", name, unix.ENODEV)
	}
	if name == "" || strings.ContainsAny(name, "/") || name == "." || name == ".." {
		return NIC{}, fmt.Errorf("interface name %q is not valid", name)
	}
	dir := classNet + "/" + name
	n := NIC{Name: name, SpeedMbps: -1}
	var err error
	if n.MTU, err = readIntFile(root, dir+"/mtu"); err != nil {
		return NIC{}, err
	}
	if n.TxQueueLen, err = readIntFile(root, dir+"/tx_queue_len"); err != nil {
		return NIC{}, err
	}
	// operstate appeared in 2.6.17 (RFC 2863 operational state); "" when absent.
	if b, err := root.ReadFile(dir + "/operstate"); err == nil {
		n.Operstate = strings.TrimSpace(string(b))
	} else if !errors.Is(err, ErrNotSupported) {
		return NIC{}, err
	}
	if n.SpeedMbps, err = readSpeed(root, dir+"/speed"); err != nil {
		return NIC{}, err
	}

	// Driver: capture file, else the device/driver link.
	if b, err := root.ReadFile(dir + "/" + nicDriverFile); err == nil {
		n.Driver = strings.TrimSpace(string(b))
	} else if root.fsys != nil {
		if t, err := fs.ReadLink(root.fsys, dir+"/device/driver"); err == nil {
			n.Driver = path.Base(t)
		}
	}

	// Virtual: capture file, else the class link target, else the absence of the device
	// link. Devices without a parent device are placed under /sys/devices/virtual
	// (drivers/base/core.c get_device_parent), and only devices with a parent get the
	// "device" link, so the two tests agree on the live host.
	if b, err := root.ReadFile(dir + "/" + nicVirtualFile); err == nil {
		n.Virtual = strings.TrimSpace(string(b)) == "1"
	} else if t, err := fs.ReadLink(root.fsys, dir); err == nil {
		n.Virtual = strings.Contains(t, "/virtual/")
	} else {
		_, err := fs.Stat(root.fsys, dir+"/device")
		n.Virtual = err != nil
	}

	// Queues: capture file, else count queues/rx-* and queues/tx-*. The directory holds
	// the active (real_num_rx/tx_queues) queues only (net/core/net-sysfs.c
	// net_rx_queue_update_kobjects); it exists since 2.6.35 (rx, RPS) and 2.6.38 (tx,
	// XPS). 0 means the kernel has no such directory.
	if b, err := root.ReadFile(dir + "/" + nicQueuesFile); err == nil {
		if n.RxQueues, n.TxQueues, err = parseNICQueues(b); err != nil {
			return NIC{}, fmt.Errorf("/%s/%s: %w", dir, nicQueuesFile, err)
		}
	} else if ents, err := root.ReadDir(dir + "/queues"); err == nil {
		for _, e := range ents {
			switch {
			case strings.HasPrefix(e.Name(), "rx-"):
				n.RxQueues++
			case strings.HasPrefix(e.Name(), "tx-"):
				n.TxQueues++
			}
		}
	} else if !errors.Is(err, ErrNotSupported) {
		return NIC{}, err
	}
	return n, nil
}

func parseNICQueues(b []byte) (rx, tx int, err error) {
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(l), " ")
		if !ok {
			return 0, 0, excerptf("line %q is not \"rx N\" or \"tx N\"", l)
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			return 0, 0, excerptf("line %q: bad count", l)
		}
		switch k {
		case "rx":
			rx = n
		case "tx":
			tx = n
		default:
			return 0, 0, excerptf("line %q is not \"rx N\" or \"tx N\"", l)
		}
	}
	return rx, tx, nil
}

func readIntFile(root Root, name string) (int64, error) {
	b, err := root.ReadFile(name)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("/%s: %w", name, err)
	}
	return v, nil
}

// readSpeed reads sysfs speed. speed_show (net/core/net-sysfs.c) fails with EINVAL when
// the device is down or not present and passes on the driver's error (EOPNOTSUPP when it
// has no get_link_ksettings); a driver that does not know the speed reports
// SPEED_UNKNOWN, printed as -1 since 3.x. Kernels up to 2.6.x stored the speed in a u16
// and printed an unknown speed as 65535; some 3.x kernels printed 4294967295. All of
// these are -1 here.
func readSpeed(root Root, name string) (int64, error) {
	b, err := root.ReadFile(name)
	if err != nil {
		if errors.Is(err, ErrNotSupported) || errors.Is(err, unix.EINVAL) ||
			errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.ENODEV) {
			return -1, nil
		}
		return 0, err
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("/%s: %w", name, err)
	}
	if v < 0 || v == 65535 || v == 4294967295 {
		return -1, nil
	}
	return v, nil
}

// CaptureNICFiles returns the files that represent interface ifname in a capture, keyed
// by their path relative to / (layout above). Reading them back with ReadNIC through a
// TxtarRoot gives the same NIC as reading root.
func CaptureNICFiles(root Root, ifname string) (map[string][]byte, error) {
	n, err := ReadNIC(root, ifname)
	if err != nil {
		return nil, err
	}
	return nicFiles(n), nil
}

func nicFiles(n NIC) map[string][]byte {
	dir := classNet + "/" + n.Name + "/"
	virt := "0\n"
	if n.Virtual {
		virt = "1\n"
	}
	m := map[string][]byte{
		dir + "mtu":          fmt.Appendf(nil, "%d\n", n.MTU),
		dir + "tx_queue_len": fmt.Appendf(nil, "%d\n", n.TxQueueLen),
		dir + "operstate":    []byte(n.Operstate + "\n"),
		dir + "speed":        fmt.Appendf(nil, "%d\n", n.SpeedMbps),
		dir + nicQueuesFile:  fmt.Appendf(nil, "rx %d\ntx %d\n", n.RxQueues, n.TxQueues),
		dir + nicVirtualFile: []byte(virt),
	}
	if n.Driver != "" {
		m[dir+nicDriverFile] = []byte(n.Driver + "\n")
	}
	return m
}

// readNICsNetlink lists the interfaces of the calling thread's network namespace with
// RTM_GETLINK. Differences from sysfs, all from net/core/rtnetlink.c rtnl_fill_ifinfo:
//   - RxQueues/TxQueues are IFLA_NUM_RX/TX_QUEUES, the queues allocated
//     (dev->num_rx_queues), which exceed the active count that sysfs lists when a driver
//     runs fewer channels than it allocated. For veth, loopback and the lab's devices the
//     two are equal.
//   - Virtual is "no parent device" (no IFLA_PARENT_DEV_NAME, which recent kernels, 5.15
//     on, send for devices with a parent) and, for kernels that do not send that attribute, a device with a link kind (veth,
//     bridge, tun...) or the loopback.
//   - Driver comes from ETHTOOL_GDRVINFO for non-virtual devices (sysfs shows no driver
//     for virtual ones, and neither do we).
//   - SpeedMbps comes from ETHTOOL_GSET like sysfs speed_show, and is -1 when the device
//     is not up, as there.
func readNICsNetlink() ([]NIC, error) {
	var links []netlink.Link
	var err error
	for range 3 {
		// A dump interrupted by a concurrent change is retried (NLM_F_DUMP_INTR).
		links, err = netlink.LinkList()
		if !errors.Is(err, netlink.ErrDumpInterrupted) {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("rtnetlink: list links: %w", err)
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("ethtool socket: %w", err)
	}
	defer unix.Close(fd)
	nics := make([]NIC, 0, len(links))
	for _, l := range links {
		a := l.Attrs()
		n := NIC{
			Name:       a.Name,
			SpeedMbps:  -1,
			MTU:        int64(a.MTU),
			TxQueueLen: int64(a.TxQLen),
			Operstate:  operstateName(uint8(a.OperState)),
			RxQueues:   a.NumRxQueues,
			TxQueues:   a.NumTxQueues,
		}
		n.Virtual = a.ParentDev == "" && (l.Type() != "device" || a.Flags&net.FlagLoopback != 0)
		if !n.Virtual {
			if info, err := unix.IoctlGetEthtoolDrvinfo(fd, a.Name); err == nil {
				n.Driver = unix.ByteSliceToString(info.Driver[:])
			}
		}
		if a.Flags&net.FlagUp != 0 {
			if s, err := ethtoolSpeed(fd, a.Name); err == nil {
				n.SpeedMbps = s
			}
		}
		nics = append(nics, n)
	}
	slices.SortFunc(nics, func(a, b NIC) int { return strings.Compare(a.Name, b.Name) })
	return nics, nil
}

// operstateName spells IF_OPER_* (include/uapi/linux/if.h) as sysfs operstate does
// (net/core/net-sysfs.c operstates[]).
func operstateName(v uint8) string {
	names := [...]string{"unknown", "notpresent", "down", "lowerlayerdown", "testing", "dormant", "up"}
	if int(v) < len(names) {
		return names[v]
	}
	return "unknown"
}

// VirtualNICName reports whether an interface name is one the kernel gives software devices
// by default (loopback, bonding, bridges, VLANs, veth, tunnels), used when the input does not
// say whether the device is virtual (ifconfig has no /sys/devices/virtual): such a device has
// no link speed of its own (a bond's is its slaves', drivers/net/bonding bond_update_speed_duplex).
func VirtualNICName(name string) bool {
	if name == "lo" || strings.Contains(name, ".") || strings.Contains(name, "@") {
		return true
	}
	for _, p := range []string{"bond", "br", "virbr", "veth", "docker", "tun", "tap", "vlan", "team", "dummy", "gre", "sit", "ip6tnl", "wg", "vxlan", "cni", "flannel", "cali"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
