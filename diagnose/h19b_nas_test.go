package diagnose

import (
	"strings"
	"testing"
)

// Pre-round 19 (h19b): NAS and file servers' kernel lines, from the kernel's own format
// strings (fs/xfs kmem.c and xfs_buf.c, net/sunrpc/svcsock.c; sources named in
// kernel/subsysalloc.go xfsAllocDeadlock and artifact/unreadserver.go netFSLine); snippets
// written here in the forms NAS logs take (Unraid's syslog.txt, a QNAP dmesg, bare quotes),
// none copied from a case.

// XFS's retry warning with kmalloc's size is a failed allocation of get_order(size): a
// 65552-byte request is order 5, a sleeping one, and reaches alloc-fail-fragmented; stamped,
// under a syslog prefix with CRLF (Unraid's diagnostics) or bare in a post alike.
func TestH19bXFSDeadlockSizeReachesAllocFail(t *testing.T) {
	for _, text := range []string{
		"[1234567.123456] XFS: rsync(12345) possible memory allocation deadlock size 65552 in kmem_alloc (mode:0x2400240)\n[1234569.123456] XFS: rsync(12345) possible memory allocation deadlock size 65552 in kmem_alloc (mode:0x2400240)\n",
		"Nov 30 03:12:45 Tower kernel: XFS: smbd(8414) possible memory allocation deadlock size 65552 in kmem_alloc (mode:0x2d40)\r\nNov 30 03:12:46 Tower emhttpd: read SMART /dev/sdb\r\n",
		"The NAS keeps printing this:\n\nXFS: fs_mark(8414) possible memory allocation deadlock size 65552 in kmem_alloc (mode:0x2d40)\n\nAny idea?\n",
	} {
		d := h16aRun(t, text)
		fs := findings(d, "alloc-fail-fragmented")
		if len(fs) == 0 || !evidenceHas(fs[0], "page allocation failures", "order 5") || !evidenceHas(fs[0], "GFP mode", "not in the input; may reclaim") {
			t.Errorf("%q: want alloc-fail-fragmented at order 5, got %+v", text, d.Findings)
		}
	}
}

// Without a size (2.6-3.x's "in kmem_alloc (mode:0x250)", a slab cache's kmem_zone_alloc)
// the order is unsaid: the alloc-fail rules are not checked, naming the line, never healthy.
func TestH19bXFSDeadlockNoSizeNotChecked(t *testing.T) {
	for _, text := range []string{
		"Nov 30 03:12:45 fileserver kernel: XFS: possible memory allocation deadlock in kmem_alloc (mode:0x250)\n",
		"xfs: possible memory allocation deadlock in kmem_alloc (mode:0xd0)\n",
		"[ 812.000001] XFS: kworker/u8:1(123) possible memory allocation deadlock in kmem_zone_alloc (mode:0x8250)\n",
	} {
		d := h16aRun(t, text)
		ch := h16aCheck(d, "alloc-fail-fragmented")
		if ch.Status != StatusNotChecked || !strings.Contains(ch.Why, "possible memory allocation deadlock") {
			t.Errorf("%q: alloc-fail-fragmented = %v %q, want not checked naming the line", text, ch.Status, ch.Why)
		}
	}
}

// Counter-cases: prose that names the warning, the format string, a recommendation, and
// ordinary NAS lines are no failure.
func TestH19bNASCounterCases(t *testing.T) {
	for _, text := range []string{
		"We keep seeing possible memory allocation deadlock warnings from XFS on the NAS.\n",
		"\t\t\"%s(%u) possible memory allocation deadlock size %u in %s (mode:0x%x)\",\n",
		"Nov 30 03:12:46 Tower emhttpd: read SMART /dev/sdb\nNov 30 03:12:48 Tower kernel: XFS (md1): Mounting V5 Filesystem\nNov 30 03:12:49 Tower kernel: NFSD: Using nfsdcld client tracking operations.\n",
	} {
		d := h16aRun(t, text)
		for _, id := range []string{"alloc-fail-fragmented", "alloc-fail-reserve", "alloc-fail-lowmem"} {
			if len(findings(d, id)) != 0 {
				t.Errorf("%q: %s fired", text, id)
			}
			if ch := h16aCheck(d, id); strings.Contains(ch.Why, "own words") {
				t.Errorf("%q: %s read a failed allocation: %q", text, id, ch.Why)
			}
		}
	}
}

// arcstat beside a host's OOM kill: oom-kill cites the ARC's size and its negative avail;
// healthy arcstat and free output of a ZFS box (the ARC counted as used) stay healthy.
func TestH19bArcstatAtKillAndHealthy(t *testing.T) {
	kill := "[812345.678901] Out of memory: Killed process 4321 (kvm) total-vm:17825792kB, anon-rss:16777216kB, file-rss:2048kB, shmem-rss:0kB, UID:0 pgtables:34000kB oom_score_adj:0\n" +
		"root@pve:~# arcstat 1 1\n    time  read  ddread  ddh%  dmread  dmh%  pread  ph%   size      c  avail\n10:12:45   215     180   100      35   100      0    0    30G    30G  -1.0G\n"
	fs := findings(h16aRun(t, kill), "oom-kill")
	if len(fs) == 0 || !evidenceHas(fs[0], "ZFS ARC (arcstat)", "size 30 GiB") || !evidenceHas(fs[0], "ZFS ARC (arcstat)", "memory_available_bytes -1073741824") {
		t.Errorf("want oom-kill citing the ARC from arcstat, got %+v", fs)
	}
	healthy := "root@truenas[~]# free -h\n               total        used        free      shared  buff/cache   available\nMem:            62Gi        55Gi       3.1Gi        18Mi       1.2Gi       4.0Gi\nSwap:             0B          0B          0B\n" +
		"root@truenas[~]# arcstat 1 2\n    time  read  ddread  ddh%  dmread  dmh%  pread  ph%   size      c  avail\n10:12:45   215     180   100      35   100      0    0    49G    49G   3.9G\n10:12:46   834     801   100      33   100      0    0    49G    49G   3.9G\n"
	d := h16aRun(t, healthy)
	for _, f := range d.Findings {
		if f.Severity >= Warning {
			t.Errorf("healthy ZFS box: %s fired: %s", f.ID, f.Title)
		}
	}
}

// The SMB client's "Send error in OP = -12" in the kernel log is a failed allocation of
// unknown order (not checked, naming the line); -104 and -13 are no memory.
func TestH19bCIFSSendErrorENOMEM(t *testing.T) {
	d := h16aRun(t, "[ 4513.000001] CIFS: VFS: \\\\nas01 Send error in read = -12\n")
	if ch := h16aCheck(d, "alloc-fail-reserve"); ch.Status != StatusNotChecked || !strings.Contains(ch.Why, "Send error in read = -12") {
		t.Errorf("alloc-fail-reserve = %v %q, want not checked naming the line", ch.Status, ch.Why)
	}
	for _, text := range []string{
		"[ 4513.000001] CIFS: VFS: \\\\nas01 Send error in SessSetup = -104\n",
		"[ 4513.000001] CIFS VFS: Send error in SessSetup = -13\n",
	} {
		if ch := h16aCheck(h16aRun(t, text), "alloc-fail-reserve"); strings.Contains(ch.Why, "own words") {
			t.Errorf("%q read as a failed allocation: %q", text, ch.Why)
		}
	}
}
