package artifact

import (
	"testing"

	"headroom/model"
)

// fix41c: round 36's storage allocator and huge page lines (corpus 3490, 3491, 3493, 3494)
// and a setting's name read as an OOM event (3473), by class. fix40bWhys (fix40b_test.go)
// lists a text's unread lines by reason.

// Ceph BlueFS's allocator lines (3490's OSD log, 3491's status line in a fence) are named as
// a storage allocator's, and no allocation failure, zone or buddy list is read from them.
func TestFix41cCephAllocatorNamed(t *testing.T) {
	text := "When I check OSD log I can see :\n" +
		"debug     -4> 2022-03-10T09:59:05.434+0000 7ff21a9db080  1 bluefs _allocate unable to allocate 0x90000 on bdev 1, allocator name block, allocator type hybrid, capacity 0x4ffc00000, block size 0x10000, free 0x0, fragmentation 0, allocated 0x0\n" +
		"debug     -3> 2022-03-10T09:59:05.434+0000 7ff21a9db080 -1 bluefs _allocate allocation failed, needed 0x80cbb\n" +
		"debug     -2> 2022-03-10T09:59:05.434+0000 7ff21a9db080 -1 bluefs _flush_range allocated: 0x0 offset: 0x0 length: 0x80cbb\n"
	tl := ParseString(text, "p", Options{})
	if w := fix40bWhys(text); w[whyCephAllocator] != [2]int{2, 4} || len(w) != 1 {
		t.Errorf("unread: %v", w)
	}
	if !NothingRead(tl) || len(tl.Events) != 0 || tl.Log.Len() != 0 {
		t.Errorf("read as the kernel's: %d events, %d samples", len(tl.Events), len(tl.Samples))
	}
	status := "```\nallocator name block, allocator type hybrid, capacity 0x500000000, block size 0x1000, free 0x2e2c1e000, fragmentation 0.203124, allocated 0x20000\n```\n"
	if w := fix40bWhys(status); w[whyCephAllocator] != [2]int{2, 2} {
		t.Errorf("status line: %v", w)
	}
	for _, s := range []string{
		"Why is bluefs unable to allocate 0x90000 on bdev 1?",         // a question
		"kmalloc: unable to allocate 0x1000 bytes",                    // another program's, no bdev
		"swapper/0: page allocation failure: order:2, mode:0x4020",    // the kernel's own
		"fragmentation 0.2 of the buddy allocator, free 0x1000 pages", // not BlueFS's status words
		"Make sure the allocator type is hybrid and free space is enough",
	} {
		if cephAllocatorLine(s) {
			t.Errorf("%q named as Ceph's allocator", s)
		}
	}
}

// DPDK EAL's huge page pool lines in every release's form, and an SPDK application's reading
// of the pool (3493, 3494), are named; prose about huge pages is not.
func TestFix41cHugepageLinesNamed(t *testing.T) {
	for _, s := range []string{
		"EAL: No available hugepages reported in hugepages-1048576kB",
		"EAL: No free hugepages reported in hugepages-1048576kB",
		"EAL: No available 1048576 kB hugepages reported",
		"EAL: No free 2048 kB hugepages reported on node 0",
		"    EAL: No available hugepages reported in hugepages-2048kB",
		"> EAL: No available hugepages reported in hugepages-1048576kB",
	} {
		if !ealHugepagesLine(s) {
			t.Errorf("%q not named as EAL's", s)
		}
	}
	for _, s := range []string{
		"No available hugepages reported in hugepages-1048576kB",                    // no EAL prefix: another program's words
		"Why does EAL: No available hugepages reported in hugepages-2048kB appear?", // a question around it
		"EAL: Cannot get hugepage information.",                                     // another line (a failure to start)
		"we have no available hugepages reported in the pod",
	} {
		if ealHugepagesLine(s) {
			t.Errorf("%q named as EAL's", s)
		}
	}
	for _, s := range []string{
		"[2024-11-18T03:59:07.957093578+00:00  INFO io_engine:io-engine.rs:232] free_pages 2MB: 2050 nr_pages 2MB: 2050",
		"2020-10-21T17:41:45.363896115+00:00  INFO mayastor: free_pages: 512 nr_pages: 512",
		"[2024-11-18T03:59:07.957017902+00:00  WARN io_engine:io-engine.rs:172] Failed to read the number of pages at /sys/kernel/mm/hugepages/hugepages-1048576kB error=No such file or directory (os error 2)",
	} {
		if !spdkHugepagesLine(s) {
			t.Errorf("%q not named as SPDK's", s)
		}
	}
	for _, s := range []string{
		"echo 1024 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages", // a command
		"set nr_pages to 512 and check free_pages",                           // advice
		"free_pages: 512 nr_pages: 512 is that enough?",                      // a question
	} {
		if spdkHugepagesLine(s) {
			t.Errorf("%q named as SPDK's", s)
		}
	}
	text := "```\n2020-10-21T17:41:45.363813184+00:00  INFO mayastor: Starting Mayastor ..\n" +
		"2020-10-21T17:41:45.363896115+00:00  INFO mayastor: free_pages: 512 nr_pages: 512\n" +
		"EAL: No available hugepages reported in hugepages-1048576kB\nEAL: VFIO support initialized\n```\n"
	w := fix40bWhys(text)
	if w[whySPDKHugepages] != [2]int{3, 3} || w[whyEALHugepages] != [2]int{4, 4} {
		t.Errorf("unread: %v", w)
	}
}

// A kill or panic word inside a setting's name (3473's design document: "set
// /proc/sys/vm/panic_on_oom to 2") is no OOM event; the event told in words still is.
func TestFix41cOOMWordInSettingName(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"+ - Currently SONiC enabled OOM killer, and set /proc/sys/vm/panic_on_oom to 2, which will trigger kernal panic when OOM. This is by design to protect SONiC key process and container.\n", 0},
		{"We run with the OOM killer and vm.panic_on_oom=1 on every node.\n", 0},
		{"The OOM killer is on; kernel.panic = 10 reboots after a panic.\n", 0},
		// counter-cases: real events keep their reading
		{"Last night the OOM killer killed mysqld; panic_on_oom is 0 here.\n", 1},
		{"The box hit OOM and panicked, even with vm.panic_on_oom set to 0.\n", 1},
		{"Our switch crashed with OOM yesterday.\n", 1},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.want {
			t.Errorf("%q: stated OOM %v, want %v", c.text, got, c.want)
		}
	}
	if !oomWordInKey("OOM killer, and set /proc/sys/vm/panic_on_oom") || oomWordInKey("OOM killer killed") || oomWordInKey("crashed with OOM") {
		t.Error("oomWordInKey")
	}
}

// A design document's budget for a typical machine is no host's memory size; the author's
// own machine still is.
func TestFix41cTypicalMachineMemory(t *testing.T) {
	for _, c := range []struct {
		text string
		want int64
	}{
		{"+ - A typical switch device have 4 GB memory and sonic usually will use 1.5 GB for dockers, and 500 MB for system process.\n", 0},
		{"Most switches have 8 GB RAM these days.\n", 0},
		// counter-cases: the author's machine
		{"My switch has 4 GB memory and runs SONiC.\n", 4 << 20},
		{"Our server typically has 16 GB RAM.\n", 16 << 20},
		{"out of 32 gigs of ram, usage is usually 12-16gb on the process it self which saturates around 20gb out of 32gb of ram,\n", 32 << 20},
	} {
		if got := ParseString(c.text, "p", Options{}).Host.MemTotalKB; got != c.want {
			t.Errorf("%q: host memory %d kB, want %d", c.text, got, c.want)
		}
	}
}
