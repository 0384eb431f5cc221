package vm

import (
	"fmt"
	"net/netip"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// The QEMU and kernel command lines, built from plain values so that tests check them
// without QEMU.

// bootParams is everything the QEMU command line depends on.
type bootParams struct {
	Accel        string // "kvm" or "tcg"
	MemoryMiB    int
	CPUs         int
	Vmlinuz      string
	Initrd       string
	Append       string   // kernel command line
	NICs         int      // tap file descriptors 3, 4, ... (ExtraFiles order)
	Share        string   // host directory shared over virtio-9p as mount tag shareTag
	Disks        []string // raw image files, virtio-blk /dev/vda, /dev/vdb, ...
	DiskWriteBPS []int64  // per disk: Disk.WriteBytesPerSec
	RxQueueSizes []int    // per NIC: NIC.RxQueueSize
}

// shareTag is the 9p mount tag of the run's share.
const shareTag = "hrshare"

// guestMAC is NIC i's MAC address: locally administered (52:54:00 is QEMU's own prefix).
func guestMAC(i int) string { return fmt.Sprintf("52:54:00:48:52:%02x", i) }

// qemuArgs builds QEMU's arguments (without the program name).
func qemuArgs(p bootParams) []string {
	a := []string{
		"-nodefaults", "-no-user-config", "-display", "none",
		// The serial console is QEMU's stdout: the kernel log and /init's markers. No
		// monitor: nothing but the kernel reads stdin.
		"-serial", "stdio", "-monitor", "none",
		// A reboot (panic=-1 after a panic, or a triple fault) ends QEMU instead of
		// booting again: a run ends once.
		"-no-reboot",
		"-m", strconv.Itoa(p.MemoryMiB),
		"-smp", strconv.Itoa(p.CPUs),
		"-kernel", p.Vmlinuz,
		"-initrd", p.Initrd,
		"-append", p.Append,
	}
	switch p.Accel {
	case "kvm":
		a = append(a, "-accel", "kvm", "-cpu", "host")
	default:
		// thread=multi: one host thread per guest CPU (MTTCG); "max" gives the guest every
		// feature TCG emulates (PAE, NX, SSE4 for the 32-bit and 64-bit kernels alike).
		a = append(a, "-accel", "tcg,thread=multi", "-cpu", "max")
	}
	for i := 0; i < p.NICs; i++ {
		a = append(a,
			"-netdev", fmt.Sprintf("tap,id=n%d,fd=%d,vhost=off", i, 3+i),
			"-device", fmt.Sprintf("virtio-net-pci,netdev=n%d,mac=%s%s", i, guestMAC(i), rxQueueOpt(p.RxQueueSizes, i)))
	}
	for i, d := range p.Disks {
		// cache=unsafe: the image is scratch, thrown away with the run; the guest's flushes
		// need not reach the host's disk.
		cache := "cache=unsafe"
		if i < len(p.DiskWriteBPS) && p.DiskWriteBPS[i] > 0 {
			cache = fmt.Sprintf("cache=none,throttling.bps-write=%d", p.DiskWriteBPS[i])
		}
		a = append(a,
			"-drive", fmt.Sprintf("file=%s,if=none,id=d%d,format=raw,%s", d, i, cache),
			"-device", fmt.Sprintf("virtio-blk-pci,drive=d%d", i))
	}
	if p.Share != "" {
		a = append(a,
			"-fsdev", "local,id=fs0,path="+p.Share+",security_model=none",
			"-device", "virtio-9p-pci,fsdev=fs0,mount_tag="+shareTag)
	}
	return a
}

// kernelCmdline is the guest kernel's command line: the serial console, a panic that ends
// the run (panic=-1 reboots at once; QEMU's -no-reboot exits), then the scenario's extra
// words, which come last so they win over the defaults.
func kernelCmdline(extra []string) string {
	base := []string{"console=ttyS0,115200", "panic=-1", "oops=panic", "rdinit=/init",
		// No guest-side mitigations: they cost TCG dearly and the lab measures memory, not
		// speculation.
		"mitigations=off"}
	return strings.Join(append(base, extra...), " ")
}

// Addresses: NIC i of the guest is on 198.18.(100+i).0/24 (RFC 2544's benchmarking range,
// as netlab uses), the host side of its tap .1, the guest .2. They exist only in the run's
// namespace and the guest.

// HostAddr is the address of the host side of NIC i's tap.
func HostAddr(i int) netip.Addr { return netip.AddrFrom4([4]byte{198, 18, byte(100 + i), 1}) }

// GuestAddr is the guest's address on NIC i.
func GuestAddr(i int) netip.Addr { return netip.AddrFrom4([4]byte{198, 18, byte(100 + i), 2}) }

// netPrefixLen is the prefix length of every NIC's subnet.
const netPrefixLen = 24

// pdeathsig makes a child die with SIGKILL when the thread that started it ends: QEMU must
// not outlive a killed run. Start such children with startLocked.
func pdeathsig() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }

// startLocked starts cmd from a goroutine locked to its thread and keeps that thread until
// the child exits: PR_SET_PDEATHSIG fires when the forking *thread* ends (prctl(2)), and the
// Go runtime may end threads. It returns once the child started; done is closed after Wait,
// with the error in *waitErr.
func startLocked(cmd *exec.Cmd) (done chan struct{}, waitErr *error, err error) {
	started := make(chan error, 1)
	done = make(chan struct{})
	waitErr = new(error)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		*waitErr = cmd.Wait()
		close(done)
	}()
	if err := <-started; err != nil {
		return nil, nil, err
	}
	return done, waitErr, nil
}

// rxQueueOpt is NIC i's rx_queue_size option ("" for QEMU's default).
func rxQueueOpt(sizes []int, i int) string {
	if i >= len(sizes) || sizes[i] <= 0 {
		return ""
	}
	return fmt.Sprintf(",rx_queue_size=%d", sizes[i])
}
