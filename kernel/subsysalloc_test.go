package kernel

import (
	"strconv"
	"strings"
	"testing"
)

// TestParseSubsysAllocFailure: the subsystems' own words for a failed allocation of memory
// (the sources are in subsysalloc.go), and the lines that are not one: a resource, an IRQ or
// an ID that could not be had, and the messages other readers own.
func TestParseSubsysAllocFailure(t *testing.T) {
	for _, c := range []struct {
		msg      string
		ok       bool
		order    int
		bytes    int64
		rx, cont bool
		atomic   string // "", "true", "false"
		errno    bool
		pool     string
	}{
		{msg: "iwlwifi 0000:03:00.0: alloc_pages failed, order: 1", ok: true, order: 1, cont: true, rx: true},
		{msg: "iwlwifi 0000:03:00.0: Failed to alloc_pages with GFP_ATOMIC. Only 0 free buffers remaining.", ok: true, order: -1, cont: true, atomic: "true", rx: true},
		{msg: "LNetError: 2345:0:(module.c:12:lnet_ping()) LNET: out of memory at lib-move.c:1234 (tried to alloc 'msg' = 4096)", ok: true, order: -1, bytes: 4096},
		{msg: "libceph: osd3 10.0.0.3:6800 failed to allocate message: -12", ok: true, order: -1},
		{msg: "ath10k_pci 0000:02:00.0: failed to refill rx ring: -12", ok: true, order: -1, rx: true},
		{msg: "mlx5_core 0000:3b:00.0 eth0: __netdev_alloc_skb failed", ok: true, order: -1},
		{msg: "e1000e 0000:00:19.0 eth1: dev_alloc_skb failed", ok: true, order: -1},
		{msg: "mt76x2u 1-1:1.0: rx urb submit failed: -12", ok: true, order: -1, rx: true, errno: true},
		{msg: "nfsd: failed to allocate reply buffer", ok: true, order: -1},
		{msg: "RPC: xprt_alloc_slot: failed to allocate request", ok: true, order: -1},
		{msg: "mlx5_ib: mlx5_ib_alloc_mr: ENOMEM", ok: true, order: -1, errno: true},
		{msg: "mydrv: kmalloc of 8388608 bytes failed", ok: true, order: -1, bytes: 8388608, cont: true},
		{msg: "kernel: allocation of 4194304 bytes failed", ok: true, order: -1, bytes: 4194304},
		{msg: "brcmfmac: brcmf_sdio_rxglom: glom alloc failed, order 2", ok: true, order: 2, rx: true},
		{msg: "mydrv 0000:01:00.0: devm_kzalloc failed", ok: true, order: -1, cont: true},
		{msg: "sdhci: kmalloc failed", ok: true, order: -1, cont: true},
		{msg: "ath: skbuff alloc of size 1974 failed", ok: true, order: -1, bytes: 1974},
		{msg: "Kernel panic - not syncing: Out of memory: compulsory panic_on_oom is enabled"},
		{msg: "MEMCG CHARGE FAIL: cgroup=ffff880174e8a020 usage=536858624 limit=536870912 request=131072 ret=-12"},
		{msg: "python3: vmalloc: allocation failure, allocated 12288 of 20480 bytes, mode:0x15080c0(GFP_KERNEL_ACCOUNT|__GFP_ZERO)"},
		// Not memory: boot logs' resources, IRQs and IDs.
		{msg: "pci 0000:00:1c.0: BAR 13: failed to allocate [io size 0x1000]"},
		{msg: "nvme nvme0: failed to allocate IRQ vectors"},
		{msg: "ahci 0000:00:1f.2: MSI-X allocation failed"},
		{msg: "ACPI: Unable to allocate resources for device"},
		{msg: "foo: failed to request irq: -12"},
		// Other readers' messages.
		{msg: "swapper/0: page allocation failure: order:0, mode:0x20"},
		{msg: "SLUB: Unable to allocate memory on node -1, gfp=0x20(GFP_ATOMIC)"},
		{msg: "vmalloc: allocation failure: 16777216 bytes"},
		{msg: "Out of memory: Killed process 123 (java)"},
		{msg: "TCP: out of memory -- consider tuning tcp_mem"},
		{msg: "nf_conntrack: nf_conntrack_alloc: Can't alloc conntrack."},
		// Pre-round 8, boards: the dedicated pools' own failure lines and usbnet's/lan78xx's
		// deferred RX refill (sources at PoolCMA, PoolDMAAtomic, PoolSwiotlb, poolFailure).
		{msg: "cma: cma_alloc: alloc failed, req-size: 8192 pages, ret: -12", ok: true, order: -1, pool: PoolCMA},
		{msg: "cma: cma_alloc: reserved: alloc failed, req-size: 1024 pages, ret: -16", ok: true, order: -1, pool: PoolCMA},
		{msg: "Failed to get suitable pool for fe300000.mmcnr", ok: true, order: -1, pool: PoolDMAAtomic},
		{msg: "DMA pool exhausted for 30be0000.ethernet", ok: true, order: -1, pool: PoolDMAAtomic},
		{msg: "DMA: failed to allocate 256 KiB GFP_KERNEL|GFP_DMA pool for atomic allocation", ok: true, order: -1, atomic: "false", pool: PoolDMAAtomic},
		{msg: "nvme 0000:01:00.0: swiotlb buffer is full (sz: 65536 bytes), total 32768 (slots), used 32700 (slots)", ok: true, order: -1, bytes: 65536, pool: PoolSwiotlb},
		// Pre-round 16 (h16b): Xen's pools: netback's machine frames, a domain's grant table
		// (PoolXenFrames, PoolXenGrants); the balloon's hotplug EEXIST and netfront's
		// linearised skb are no pool that ran out.
		{msg: "xen_net: Memory squeeze in netback driver.", ok: true, order: -1, pool: PoolXenFrames},
		{msg: "xen:grant_table: xen/grant-table: max_grant_frames reached cur=32 extra=1 limit=32 gnttab_free_count=0 req_entries=24", ok: true, order: -1, pool: PoolXenGrants},
		{msg: "xen:balloon: Cannot add additional memory (-17)"},
		{msg: "xennet: skb rides the rocket: 19 slots, 65226 bytes"},
		{msg: "smsc95xx 1-1.1:1.0 eth0: kevent 2 may have been dropped", ok: true, order: -1, rx: true},
		{msg: "lan78xx 1-1.1.1:1.0 eth0: kevent 2 may have been dropped", ok: true, order: -1, rx: true},
		{msg: "cdc_ether 2-1:2.0 usb0: kevent EVENT_RX_MEMORY may have been dropped", ok: true, order: -1, rx: true},
		{msg: "lan78xx 1-1.1.1:1.0 eth0: kevent 4 may have been dropped"},
		{msg: "cdc_ether 2-1:2.0 usb0: kevent EVENT_LINK_RESET may have been dropped"},
		{msg: "smsc95xx 1-1.1:1.0 eth0: kevent 2 scheduled"},
		{msg: "cma: Reserved 256 MiB at 0x000000001ec00000"},
		{msg: "DMA: preallocated 256 KiB GFP_KERNEL pool for atomic allocations"},
		{msg: "software IO TLB: mapped [mem 0x00000000bbed0000-0x00000000bfed0000] (64MB)"},
		{msg: `WARN(1, "Failed to get suitable pool for %s\n", dev_name(dev));`},
		// Pre-round 19 (h19b): XFS's retry warning (xfsAllocDeadlock), kmalloc's size, the
		// buffer cache's order-0 page, a slab cache's object; the format string and prose
		// that names the warning are no failure.
		{msg: "XFS: possible memory allocation deadlock in kmem_alloc (mode:0x250)", ok: true, order: -1, cont: true, atomic: "false"},
		{msg: "XFS: fs_mark(8414) possible memory allocation deadlock size 65768 in kmem_alloc (mode:0x2d40)", ok: true, order: -1, bytes: 65768, cont: true, atomic: "false"},
		{msg: "XFS: kworker/u8:1(123) possible memory allocation deadlock in xfs_buf_allocate_memory (mode:0x1250)", ok: true, order: 0, cont: true, atomic: "false"},
		{msg: "XFS: rsync(4711) possible memory allocation deadlock in kmem_zone_alloc (mode:0x8250)", ok: true, order: -1, atomic: "false"},
		{msg: `"%s(%u) possible memory allocation deadlock size %u in %s (mode:0x%x)",`},
		{msg: "we keep seeing possible memory allocation deadlock warnings from XFS on the NAS"},
		{msg: "CIFS: VFS: \\\\nas01 Send error in read = -12", ok: true, order: -1, errno: true},
		{msg: "CIFS: VFS: \\\\nas01 Send error in SessSetup = -104"},
		{msg: "CIFS VFS: Send error in SessSetup = -13"},
		// No failure at all.
		{msg: "Memory: 16318476K/16696524K available (12288K kernel code)"},
		{msg: "e1000e: eth0 NIC Link is Up 1000 Mbps Full Duplex"},
	} {
		f, ok := ParseSubsysAllocFailure(c.msg)
		if ok != c.ok {
			t.Errorf("%q: ok %v, want %v", c.msg, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		atomic := ""
		if f.Atomic != nil {
			atomic = map[bool]string{true: "true", false: "false"}[*f.Atomic]
		}
		if f.Order != c.order || f.Bytes != c.bytes || f.RX != c.rx || f.Contiguous != c.cont || atomic != c.atomic || f.Errno != c.errno || f.Pool != c.pool {
			t.Errorf("%q: got %+v (atomic %q), want order %d bytes %d rx %v contiguous %v atomic %q errno %v", c.msg, f, atomic, c.order, c.bytes, c.rx, c.cont, c.atomic, c.errno)
		}
	}
}

// TestGetOrder: include/asm-generic/getorder.h get_order with 4 KiB pages.
func TestGetOrder(t *testing.T) {
	for _, c := range []struct {
		size  int64
		order int
	}{{1, 0}, {4096, 0}, {4097, 1}, {8192, 1}, {32768 + 320, 4}, {4 << 20, 10}, {8 << 20, 11}} {
		if o, ok := GetOrder(c.size, 4096); !ok || o != c.order {
			t.Errorf("GetOrder(%d) = %d, %v; want %d", c.size, o, ok, c.order)
		}
	}
	if _, ok := GetOrder(0, 4096); ok {
		t.Error("GetOrder(0) ok")
	}
}

// BenchmarkParseSubsysAllocFailure: the alloc-fail rules ask it of every kernel log record
// when no report was read; a line of another kind must cost a few substring searches.
func BenchmarkParseSubsysAllocFailure(b *testing.B) {
	msgs := []string{"e1000e 0000:00:19.0 eth0: NIC Link is Up 1000 Mbps Full Duplex, Flow Control: Rx/Tx",
		"EXT4-fs (sda1): mounted filesystem with ordered data mode. Opts: (null)",
		"ath10k_pci 0000:02:00.0: failed to refill rx ring: -12"}
	for b.Loop() {
		for _, m := range msgs {
			ParseSubsysAllocFailure(m)
		}
	}
}

// TestSubsysAllocParserRemembers: the remembered parse answers as the parse does, the
// second time of a message too, and past its memory's bound.
func TestSubsysAllocParserRemembers(t *testing.T) {
	var p SubsysAllocParser
	for range 2 {
		for _, m := range []string{"ath10k_pci 0000:02:00.0: failed to refill rx ring: -12", "nvme nvme0: failed to allocate IRQ vectors", "iwlwifi: alloc_pages failed, order: 2"} {
			f0, ok0 := ParseSubsysAllocFailure(m)
			f1, ok1 := p.Parse(m)
			if ok0 != ok1 || f0.Order != f1.Order || f0.RX != f1.RX {
				t.Errorf("%q: remembered %+v %v, parsed %+v %v", m, f1, ok1, f0, ok0)
			}
		}
	}
	for i := range subsysAllocMemo + 10 {
		p.Parse(strings.Repeat("x", i%7) + "failed to allocate buffer " + strconv.Itoa(i))
	}
	if len(p.seen) > subsysAllocMemo {
		t.Errorf("memory holds %d messages, bound %d", len(p.seen), subsysAllocMemo)
	}
	if _, ok := p.Parse("mydrv: failed to allocate buffer 999999"); !ok {
		t.Error("a message past the bound is not read")
	}
}
