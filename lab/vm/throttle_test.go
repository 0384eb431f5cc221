package vm

import (
	"strings"
	"testing"
)

// A NIC's RX ring size and a disk's write cap reach QEMU's command line (the failure
// scenarios need both: lab/guest_atomic_rx.go); absent, the defaults stay.
func TestQEMUArgsRxQueueAndDiskThrottle(t *testing.T) {
	p := bootParams{Accel: "tcg", MemoryMiB: 384, CPUs: 1, Vmlinuz: "/k", Initrd: "/i", NICs: 2,
		Disks: []string{"/d0.img", "/d1.img"}, DiskWriteBPS: []int64{20000000}, RxQueueSizes: []int{1024}}
	a := strings.Join(qemuArgs(p), " ")
	for _, want := range []string{
		"virtio-net-pci,netdev=n0,mac=52:54:00:48:52:00,rx_queue_size=1024",
		"virtio-net-pci,netdev=n1,mac=52:54:00:48:52:01 ",
		"file=/d0.img,if=none,id=d0,format=raw,cache=none,throttling.bps-write=20000000",
		"file=/d1.img,if=none,id=d1,format=raw,cache=unsafe",
	} {
		if !strings.Contains(a+" ", want) {
			t.Errorf("missing %q in %s", want, a)
		}
	}
}
