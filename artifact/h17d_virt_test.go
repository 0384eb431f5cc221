package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// Pre-round 17 (h17d): virtualization hosts' lines, from QEMU's, Proxmox's qemu-server,
// OpenZFS's and vmxnet3's own format strings (unreadvirt.go, zfsarc.go, ethtool.go). Snippets
// written here in the forms users paste them; none copied from a case.

// QEMU's and Proxmox's refusals of a VM's memory, under Proxmox's and libvirt's tags, in a
// task log and bare: named with what they prove; no OOM, no kill; not exit 3.
func TestH17dVirtOwnLinesNamed(t *testing.T) {
	checkOwnLinesNamed(t, []ownLineCase{
		{"kvm: cannot set up guest memory 'pc.ram': Cannot allocate memory\nTASK ERROR: start failed: QEMU exited with code 1\n", "ram_block_add"},
		{"Nov 30 07:41:13 pve pvedaemon[7211]: kvm: cannot set up guest memory 'pc.ram': Cannot allocate memory\n", "CommitLimit"},
		{"Nov 30 07:41:13 kvm01 libvirtd[1534]: internal error: qemu unexpectedly closed the monitor: 2026-11-30T07:41:13.201563Z qemu-system-x86_64: cannot set up guest memory 'pc.ram': Cannot allocate memory\n", "ram_block_add"},
		{"error: internal error: QEMU unexpectedly closed the monitor (vm='db1'): 2026-11-30T07:41:13.201563Z qemu-system-x86_64: -object memory-backend-file,id=ram-node0,prealloc=yes,mem-path=/dev/hugepages/libvirt/qemu/9-db1,size=8589934592: unable to map backing store for guest RAM: Cannot allocate memory\n", "HugePages_Free"},
		{"qemu-system-x86_64: os_mem_prealloc: Insufficient free host memory pages available to allocate guest RAM\n", "preallocation"},
		{"```\nfailed to initialize KVM: Cannot allocate memory\nTASK ERROR: start failed: QEMU exited with code 1\n```\n", "KVM_CREATE_VM"},
		{"TASK ERROR: start failed: hugepage allocation failed at /usr/share/perl5/PVE/QemuServer/Memory.pm line 541.\n", "hugepages_allocate"},
		{"root@pve:~# grep . /sys/kernel/mm/ksm/pages_sharing /sys/kernel/mm/ksm/pages_shared\n/sys/kernel/mm/ksm/pages_sharing:2234567\n/sys/kernel/mm/ksm/pages_shared:412345\n", "mm/ksm.c"},
		{"/sys/module/zfs/parameters/zfs_arc_max:0\n", "zfs_arc_max 0"},
	})
}

// The same words where they state nothing of this host: a question, a recommendation, a
// DPDK program's hugepage line, another program's ENOMEM: not named as QEMU's or Proxmox's.
func TestH17dVirtNotFromOthers(t *testing.T) {
	for _, text := range []string{
		"Why does QEMU say it cannot set up guest memory when there is plenty free?\n",
		"Error: hugepage allocation failed\n",
		"EAL: hugepage allocation failed at startup, check nr_hugepages\n",
		"KVM failed to initialize on this box, maybe VT-x is off\n",
		"Nov 30 07:41:13 pve pvedaemon[7211]: <root@pam> end task UPID:pve:00001C2B:0001A2F4:674AC0A8:qmstart:104:root@pam: OK\n",
		"You can check /sys/kernel/mm/ksm/pages_sharing to see how much KSM saves.\n",
	} {
		tl := checkNotNamedAs(t, text, "QEMU", "Proxmox", "KSM")
		if statedOOM(tl) || len(f15Kills(tl)) != 0 || tl.ZFSARC != nil {
			t.Errorf("%q: an OOM, a kill or an ARC read", text)
		}
	}
}

// arcstats (the kstat header, the column line, named rows of type 4 and 3) and
// arc_summary's size lines (both generations) are read, every line, with their figures.
func TestH17dZFSARCRead(t *testing.T) {
	const gib = int64(1) << 30
	for _, c := range []struct {
		text             string
		size, cmax, cmin int64
		avail            int64
		hasAvail         bool
		form             string
	}{
		{"# cat /proc/spl/kstat/zfs/arcstats\n13 1 0x01 123 33456 4169424522 1032145678901234\nname                            type data\nhits                            4    987654321\nc                               4    60129542144\nc_min                           4    2104533504\nc_max                           4    67343032320\nsize                            4    60129542144\nmemory_all_bytes                4    67343032320\nmemory_available_bytes          3    -1073741824\n",
			60129542144, 67343032320, 2104533504, -1073741824, true, "arcstats"},
		// Before OpenZFS 2.0 memory_available_bytes was unsigned: a negative value wraps.
		{"name                            type data\nsize                            4    1073741824\nmemory_available_bytes          4    18446744072635809792\n",
			1073741824, 0, 0, -1073741824, true, "arcstats"},
		{"ARC status:                                                      HEALTHY\n        Memory throttle count:                                         0\n\nARC size (current):                                    98.9 %   62.0 GiB\n        Target size (adaptive):                       100.0 %   62.5 GiB\n        Min size (hard limit):                          6.2 %    4.0 GiB\n        Max size (high water):                           16:1   64.0 GiB\n",
			62 * gib, 64 * gib, 4 * gib, 0, false, "arc_summary"},
		{"ARC Size:\t\t\t\t90.67%\t335.47\tGiB\n\tTarget Size: (Adaptive)\t\t90.72%\t335.66\tGiB\n\tMin Size (Hard Limit):\t\t54.05%\t200.00\tGiB\n\tMax Size (High Water):\t\t1:1\t370.00\tGiB\n",
			360208169697, 370 * gib, 200 * gib, 0, false, "arc_summary"},
	} {
		tl := ParseString(c.text, "t", Options{})
		a := tl.ZFSARC
		if a == nil {
			t.Errorf("%q: no ARC read", c.text)
			continue
		}
		if a.SizeBytes != c.size || a.CMaxBytes != c.cmax || a.CMinBytes != c.cmin || a.HasAvailable != c.hasAvail || a.MemoryAvailableBytes != c.avail || a.Form != c.form {
			t.Errorf("%q: got %+v", c.text, *a)
		}
		for _, u := range tl.Unparsed {
			t.Errorf("%q: line unread: %+v", c.text, u)
		}
		checkAccount(t, tl)
	}
	// Not the ARC: a table of another kstat's rows without the column line, a sentence about
	// the ARC's size, a recommendation of zfs_arc_max, another tool's "Max size:".
	for _, text := range []string{
		"size                            4    60129542144\nc_max                           4    67343032320\n",
		"The ARC size (current) is 62 GiB which seems high\n",
		"options zfs zfs_arc_max=17179869184\n",
		"Max size: 10 GiB\n",
		"Max size (high water): about 16 GiB I think\n",
	} {
		if tl := ParseString(text, "t", Options{}); tl.ZFSARC != nil {
			t.Errorf("%q: ARC read: %+v", text, *tl.ZFSARC)
		}
	}
}

// vmxnet3's "Rx Queue#: N" line starts its ethtool -S block without the command above it;
// the same words in a sentence do not.
func TestH17dVmxnet3QueueHeader(t *testing.T) {
	tl := ParseString("Rx Queue#: 0\n  ucast pkts rx: 123456789\n  pkts rx OOB: 48213\n  rx buf alloc fail: 5121\n", "t", Options{})
	if len(tl.Samples) == 0 || len(tl.Samples[0].NICStats) == 0 || tl.Samples[0].NICStats[0].Stats == nil {
		t.Fatalf("vmxnet3's block not read: %+v", tl.Unparsed)
	}
	if v, ok := tl.Samples[0].NICStats[0].Stats.Get("rx buf alloc fail"); !ok || v != 5121 {
		t.Errorf("rx buf alloc fail = %d, %v", v, ok)
	}
	for _, s := range []string{"Rx Queue#: 0", "  Tx Queue#: 12 "} {
		if !isVmxnet3QueueHeader(s) {
			t.Errorf("%q: not vmxnet3's header", s)
		}
	}
	for _, s := range []string{"Rx Queue#: zero", "Rx Queue: 0", "the Rx Queue#: 0 line"} {
		if isVmxnet3QueueHeader(s) {
			t.Errorf("%q: taken for vmxnet3's header", s)
		}
	}
}

// checkNotNamedAs parses text and fails for each unread line whose reason holds one of
// words (a counter-case named as a program's own line); it returns the timeline.
func checkNotNamedAs(t *testing.T, text string, words ...string) *model.Timeline {
	t.Helper()
	tl := ParseString(text, "t", Options{})
	for _, u := range tl.Unparsed {
		for _, w := range words {
			if strings.Contains(u.Why, w) {
				t.Errorf("%q: named as %s's: %+v", text, w, u)
			}
		}
	}
	return tl
}

// Proxmox's pveversion names the running kernel ("(running kernel: R)"); another package's
// "-pve1" version below it (zfsutils-linux's) is none, and a sentence without the
// parenthesis sets nothing.
func TestH17dPveversionKernel(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"root@pve:~# pveversion -v\nproxmox-ve: 8.2.0 (running kernel: 6.8.12-4-pve)\npve-manager: 8.2.7 (running version: 8.2.7/3e0176e6bb2ade3b)\nzfsutils-linux: 2.2.6-pve1\nqemu-server: 8.2.4\n", "6.8.12-4-pve"},
		{"pve-manager/8.2.7/3e0176e6bb2ade3b (running kernel: 6.8.12-4-pve)\n", "6.8.12-4-pve"},
		{"the running kernel: is it 6.8?\n", ""},
	} {
		if got := ParseString(c.text, "t", Options{}).Host.Kernel; got != c.want {
			t.Errorf("%q: kernel %q, want %q", c.text, got, c.want)
		}
	}
}

// h28a: arcstats' arc_no_grow and memory_throttle_count, and arc_summary's "Memory throttle
// count", are kept on the ARC (the throttle figures a finding cites beside it).
func TestH28aArcstatsThrottleFigures(t *testing.T) {
	tl := ParseString("name                            type data\nsize                            4    1073741824\narc_no_grow                     4    1\nmemory_throttle_count           4    412\n", "t", Options{})
	if a := tl.ZFSARC; a == nil || !a.HasNoGrow || a.NoGrow != 1 || !a.HasThrottle || a.ThrottleCount != 412 {
		t.Errorf("arcstats: %+v", tl.ZFSARC)
	}
	tl = ParseString("ARC status:                                                      HEALTHY\n        Memory throttle count:                                         7\n\nARC size (current):                                    98.9 %   62.0 GiB\n", "t", Options{})
	if a := tl.ZFSARC; a == nil || !a.HasThrottle || a.ThrottleCount != 7 {
		t.Errorf("arc_summary: %+v", tl.ZFSARC)
	}
	// Counter-case: a row of the same name outside the table is not the ARC's.
	if tl = ParseString("memory_throttle_count 4 412\n", "t", Options{}); tl.ZFSARC != nil {
		t.Errorf("a row without the column line read: %+v", tl.ZFSARC)
	}
}
