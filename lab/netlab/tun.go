package netlab

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// Offload flags for TUNSETOFFLOAD, from include/uapi/linux/if_tun.h (x/sys/unix does not
// export them). Telling the kernel that the reader of the TUN handles partial checksums and
// TCP segmentation makes the TUN device advertise NETIF_F_HW_CSUM|NETIF_F_TSO|NETIF_F_TSO6
// (drivers/net/tun.c: set_offload), so the stack hands it 64 KB GSO packets instead of
// 1500-byte frames: one read and one write per 44 segments.
const (
	tunFCsum = 0x01 // TUN_F_CSUM
	tunFTSO4 = 0x02 // TUN_F_TSO4
	tunFTSO6 = 0x04 // TUN_F_TSO6
)

// vnetHdrLen is sizeof(struct virtio_net_hdr), the prefix of every read and write on a TUN
// opened with IFF_VNET_HDR when TUNSETVNETHDRSZ is left alone (drivers/net/tun.c:
// tun->vnet_hdr_sz defaults to sizeof(struct virtio_net_hdr)). The delay line passes it
// through untouched: gso_type, gso_size and the checksum offsets mean the same thing to the
// TUN on the other side.
const vnetHdrLen = 10

// maxTunFrame bounds one read: a GSO packet is at most 64 KB (GSO_LEGACY_MAX_SIZE, since the
// TUN device does not enable BIG TCP) plus the virtio header.
const maxTunFrame = vnetHdrLen + 65536 + 256

// openTun creates TUN device name in the calling thread's network namespace (call it through
// Netns.Do: the device belongs to the namespace of the thread that issues TUNSETIFF) and
// returns its file, registered with the Go poller so reads block only their goroutine. The
// device disappears when the file is closed (it is not made persistent).
func openTun(name string) (*os.File, error) {
	fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("lab: open /dev/net/tun: %w", err)
	}
	ifr, err := unix.NewIfreq(name)
	if err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("lab: tun name %q: %w", name, err)
	}
	ifr.SetUint16(unix.IFF_TUN | unix.IFF_NO_PI | unix.IFF_VNET_HDR)
	if err := unix.IoctlIfreq(fd, unix.TUNSETIFF, ifr); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("lab: TUNSETIFF %s: %w", name, err)
	}
	if err := unix.IoctlSetInt(fd, unix.TUNSETOFFLOAD, tunFCsum|tunFTSO4|tunFTSO6); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("lab: TUNSETOFFLOAD %s: %w", name, err)
	}
	return os.NewFile(uintptr(fd), "/dev/net/tun:"+name), nil
}
