package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
)

// Pre-round 28 (h28a): the storage stacks' kernel lines, from their own format strings
// (OpenZFS module/os/linux/spl/spl-kmem.c spl_kmem_alloc_impl and spl-err.c spl_panic;
// btrfs_printk, bcache's pr_fmt, iscsi_cls_conn_printk, sunrpc's svcsock.c, hung_task.c; the
// sources named in kernel/subsysalloc.go splAllocDeadlock and artifact/barekernel.go);
// snippets written here in the forms users paste, none copied from a case.

// SPL's retry warning states kmalloc_node's size: a size past two pages is a sleeping request
// of get_order(size) and reaches alloc-fail-fragmented at that order; stamped with its
// dump_stack, under a journal prefix, bare, quoted in mail alike.
func TestH28aSPLDeadlockReachesAllocFail(t *testing.T) {
	for _, c := range []struct {
		text  string
		order string
	}{
		{"[1234567.123456] Possible memory allocation deadlock: size=32784 lflags=0x1404200\n[1234567.123460] CPU: 5 PID: 2211 Comm: z_wr_iss Tainted: P           O      5.15.0-91-generic #101-Ubuntu\n[1234567.123463] Call Trace:\n[1234567.123468]  dump_stack_lvl+0x4a/0x63\n[1234567.123472]  spl_kmem_alloc_impl+0x10e/0x120 [spl]\n", "order 4"},
		{"Nov 28 03:14:07 pve kernel: Possible memory allocation deadlock: size=8208 lflags=0x1404200\nNov 28 03:14:07 pve kernel: CPU: 2 PID: 912 Comm: txg_sync Tainted: P           O      6.5.11-7-pve #1\n", "order 2"},
		{"Possible memory allocation deadlock: size=65552 lflags=0x1404200\nPossible memory allocation deadlock: size=65552 lflags=0x1404200\n", "order 5"},
		{"> [1234567.123456] Possible memory allocation deadlock: size=131088 lflags=0x1404200\n", "order 6"},
	} {
		d := h16aRun(t, c.text)
		fs := findings(d, "alloc-fail-fragmented")
		if len(fs) == 0 || !evidenceHas(fs[0], "page allocation failures", c.order) || !evidenceHas(fs[0], "GFP mode", "may reclaim") {
			t.Errorf("%q: want alloc-fail-fragmented at %s, got %+v", c.text, c.order, d.Findings)
		}
	}
}

// With arcstats beside it the finding names the memory the ARC holds, its share of RAM and
// its throttle figures.
func TestH28aAllocFailNamesZFSARC(t *testing.T) {
	text := "[1234567.123456] Possible memory allocation deadlock: size=32784 lflags=0x1404200\n$ cat /proc/spl/kstat/zfs/arcstats\n13 1 0x01 123 33456 5911305185 2313475982716378\nname                            type data\nc_max                           4    16595054592\nsize                            4    16401152512\narc_no_grow                     4    1\nmemory_throttle_count           4    412\nmemory_all_bytes                4    33190109184\nmemory_available_bytes          3    -129327104\n"
	d := h16aRun(t, text)
	fs := findings(d, "alloc-fail-fragmented")
	if len(fs) == 0 || !evidenceHas(fs[0], "ZFS ARC (arcstats)", "size 15.3 GiB (49% of memory_all_bytes") ||
		!evidenceHas(fs[0], "ZFS ARC (arcstats)", "arc_no_grow 1") || !evidenceHas(fs[0], "ZFS ARC (arcstats)", "memory_throttle_count 412") {
		t.Errorf("want alloc-fail-fragmented citing the ARC, got %+v", d.Findings)
	}
	// Counter-case: the same failure without arcstats cites no ARC.
	d = h16aRun(t, "Possible memory allocation deadlock: size=32784 lflags=0x1404200\n")
	if fs := findings(d, "alloc-fail-fragmented"); len(fs) == 0 || evidenceHas(fs[0], "ZFS ARC", "") {
		t.Errorf("without arcstats: %+v", d.Findings)
	}
}

// The storage stacks' own kernel lines pasted bare are kernel log lines (read, no exit 3),
// and reach no rule: SPL's large-allocation warning (warned, not failed), its VERIFY and
// PANIC, btrfs', bcache's, iSCSI's, sunrpc's and the hung-task lines.
func TestH28aBareStorageLinesRead(t *testing.T) {
	for _, text := range []string{
		"Large kmem_alloc(98304, 0x1000), please file an issue at:\n",
		"VERIFY3(0 == dmu_buf_hold_array(os, object, offset, size, FALSE, FTAG, &numbufs, &dbp)) failed (0 == 5)\nPANIC at dmu.c:1126:dmu_write()\n",
		"BTRFS warning (device sdb1): csum failed root 5 ino 257 off 0 csum 0x98f94189 expected csum 0x00000000 mirror 1\n",
		"BTRFS info (device nvme0n1p2): balance: ended with status: 0\n",
		"bcache: register_bcache() error /dev/sdc: device already registered\n",
		" connection1:0: detected conn error (1020)\n",
		"RPC: fragment too large: 1195725856\n",
		"INFO: task txg_sync:1102 blocked for more than 120 seconds.\n",
	} {
		tl, err := artifact.Parse(strings.NewReader(text), "t.txt", artifact.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if tl.Log.Len() == 0 || len(tl.Unparsed) != 0 {
			t.Errorf("%q: %d log records, unread %+v", text, tl.Log.Len(), tl.Unparsed)
		}
		d := Run(tl, nil)
		for _, id := range []string{"alloc-fail-fragmented", "alloc-fail-reserve", "oom-kill"} {
			if len(findings(d, id)) != 0 {
				t.Errorf("%q: %s fired", text, id)
			}
		}
	}
}

// Counter-cases: the format string, prose naming the warning, a sentence starting with the
// words; no failure and no log line.
func TestH28aCounterCases(t *testing.T) {
	for _, text := range []string{
		"\t\t\t    \"Possible memory allocation deadlock: \"\n\t\t\t    \"size=%lu lflags=0x%x\",\n",
		"Possible memory allocation deadlock: size=%lu lflags=0x%x\n",
		"I keep getting Possible memory allocation deadlock messages from SPL, size=large.\n",
		"Possible memory allocation deadlock: size=N lflags=0x... is printed by SPL.\n",
		"INFO: task names are listed below\n",
		"connection pools are full\n",
		"BTRFS is a copy-on-write filesystem.\n",
	} {
		d := h16aRun(t, text)
		for _, id := range []string{"alloc-fail-fragmented", "alloc-fail-reserve", "alloc-fail-lowmem"} {
			if len(findings(d, id)) != 0 {
				t.Errorf("%q: %s fired", text, id)
			}
		}
		tl, _ := artifact.Parse(strings.NewReader(text), "t.txt", artifact.Options{})
		if tl.Log.Len() != 0 {
			t.Errorf("%q: read as %d kernel log line(s)", text, tl.Log.Len())
		}
	}
}
