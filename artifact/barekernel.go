package artifact

import (
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
)

// Kernel lines pasted without a stamp or a syslog prefix, whose own prefix says they are the
// kernel's (pre-round 16, h16a, from the sources named): a board's dmesg without
// CONFIG_PRINTK_TIME, a grep of /var/log/messages with the prefix cut, a cluster
// filesystem's console lines quoted in a mail. Each prefix below is printed by the kernel
// (or its module) itself, never by a program, so the line is read as a kernel log record and
// the rules that read the log see it (a subsystem's failed allocation reaches the
// alloc-fail rules through kernel.ParseSubsysAllocFailure).
//
//   - Lustre and LNet (libcfs's console output, libcfs_debug_msg): "LustreError: ",
//     "LNetError: " and, with libcfs's header "PID:EXT:(file.c:LINE:func()) " or a console
//     message id "NN-N: " after them, "Lustre: " and "LNet: ".
//   - lctl dk (Lustre's debug buffer, libcfs tracefile.c: "%08x:%08x:%u.%u%s:%u.%06llu:" then
//     stack, pid, extern pid and "(file.c:LINE:func())"): the kernel's own debug records.
//   - Ceph's kernel client: "libceph: " (net/ceph, pr_fmt KBUILD_MODNAME), "rbd: rbdN: "
//     (drivers/block/rbd.c rbd_warn).
//   - DRBD: "drbd RES: ", "drbd RES/VOL drbdN: " (drbd 8.4 and 9, drbd_err on a connection
//     or a device), "block drbdN: " (8.3 and older, dev_err).
//   - nbd: "block nbdN: " (drivers/block/nbd.c dev_err/dev_info on its disk; fix37b).
//   - OCFS2: "o2net: ", "o2hb: ", "o2cb: " (pr_fmt-less printk of cluster/), and masklog's
//     "(COMM,PID,CPU):func:LINE " (fs/ocfs2/cluster/masklog.h).
//   - A device's own line (dev_printk, netdev_printk: "DRIVER BUSID: " or "DRIVER BUSID
//     IFNAME: ", a platform, PCI, SDIO or USB bus id: "ff540000.ethernet", "0000:01:00.0", "mmc1:0001:1",
//     "1-1.3:1.0") that states a failed
//     allocation (kernel.ParseSubsysAllocFailure): stmmac's "fail to alloc skb entry %d",
//     macb's "Unable to allocate sk_buff", a device's "swiotlb buffer is full (sz: N bytes)";
//     and a module's pr_fmt with the function's name ("brcmfmac: FUNC: ", brcmf_err) that
//     states one: brcmfmac's "Failed to alloc SKB" (msgbuf.c, the RX buffer post). Other
//     device lines stay what they were.
//   - The kernel's report of a user process killed by a fatal fault (fix43a, corpus 3638;
//     arch/x86/mm/fault.c show_signal_msg: "%s%s[%d]: segfault at %lx ip %px sp %px error %lx",
//     sparc's with " (rpc %p)" after the ip, older kernels' %p printing a NULL ip as "(null)",
//     print_vma_addr's " in %s[%lx+%lx]", 6.x's " likely on CPU %d (core %d, socket %d)";
//     arch/x86/kernel/traps.c: "traps: %s[%d] general protection fault ip:%lx sp:%lx
//     error:%lx", "traps: %s[%d] trap %s ip:%lx sp:%lx error:%lx"): a dmesg line with its
//     stamp cut or a kernel without printk time. A kernel record of a program's crash, no
//     memory or network failure: read as a log line, no rule's (as it is with its stamp).
//     Not a shell's "Segmentation fault (core dumped)", systemd-coredump's or a program's
//     own crash line (no "[PID]: segfault at ... ip ... sp ... error").
//   - XFS's "possible memory allocation deadlock" retry warning ("XFS: ", "xfs: "; h19b), and
//     OpenZFS SPL's "Possible memory allocation deadlock: size=N lflags=0xM" (h28a).

var (
	// reLibcfsHeader: libcfs's "PID:EXT:(file.c:LINE:func()) " or a console id "NN-N: ".
	reLibcfsHeader = lazyre.New(`^(?:\d{1,7}:\d{1,7}:\([\w.-]{1,64}:\d{1,6}:\w{1,64}\(\)\)\s|\d{1,3}-\d{1,3}:\s)`)
	// reLctlDebug: lctl dk's record header.
	reLctlDebug = lazyre.New(`^[0-9a-f]{8}:[0-9a-f]{8}:\d{1,4}\.\d{1,2}F?:\d{1,12}\.\d{1,9}:\d{1,12}:\d{1,9}:\d{1,9}:\(`)
	// reDrbdPrefix: DRBD's resource or device prefix.
	reDrbdPrefix = lazyre.New(`^(?:drbd [\w.-]{1,64}(?:/\d{1,5} drbd\d{1,6})?|block drbd\d{1,6}): `)
	// reNbdPrefix: nbd's device prefix, "block nbdN: " (fix37b).
	reNbdPrefix = lazyre.New(`^block nbd\d{1,6}: \S`)
	// reMasklog: OCFS2 masklog's "(comm,pid,cpu):func:line ".
	reMasklog = lazyre.New(`^\([\w/.:-]{1,32},\d{1,9},\d{1,4}\):\w{1,64}:\d{1,6} `)
	// reDevPrefix: dev_printk's "driver busid[ ifname]: " with a platform or PCI bus id.
	reDevPrefix = lazyre.New(`^[\w-]{2,32} (?:[0-9a-f]{4,16}\.[\w-]{2,32}|[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.\d|mmc\d{1,2}:[0-9a-f]{4}(?::\d{1,2})?|\d{1,2}-[\d.]{1,16}(?::\d{1,2}\.\d{1,2})?)(?: [\w.-]{2,16})?: `)
	// reModFuncPrefix: a module's pr_fmt and the function's name, "brcmfmac:
	// brcmf_msgbuf_rxbuf_data_post: " (brcmf_err: pr_err("%s: " fmt, __func__)).
	// reRealtekFunc: after the Realtek prefix, the function's name with ": " or "()" (RTW_INFO
	// and DBG_871X print "%s: " with __func__, or the name itself), a "####" banner before it.
	reRealtekFunc = lazyre.New(`^(?:#{1,8}\s*)?[A-Za-z_]\w{2,63}(?:\(\w{0,16}\)[\s:!-]|:\s)`)
	// reSPLOwn: SPL's assertion and panic lines (spl-err.c spl_panic: the VERIFY macros'
	// message "VERIFY3(%s) failed (%lld %s %lld)", then "PANIC at %s:%d:%s()") and its
	// large-allocation warning (spl-kmem.c: "Large kmem_alloc(%lu, 0x%x), please file an
	// issue at:"): a request above spl_kmem_alloc_warn, warned of, not failed.
	reSPLOwn = lazyre.New(`^(?:VERIFY\w{0,4}\(.{1,400}\) failed(?: \(|$)|PANIC at [\w.-]{1,64}\.[ch]:\d{1,6}:\w{1,64}\(\)\s*$|Large kmem_alloc\(\d{1,20}, 0x[0-9a-f]{1,8}\))`)
	// reBcachePrefix: bcache's pr_fmt with the function's name.
	reBcachePrefix = lazyre.New(`^bcache: \w{1,64}\(\) `)
	// reHungTask: khungtaskd's report's first line.
	reHungTask = lazyre.New(`^INFO: task .{1,64}:\d{1,9} blocked for more than \d{1,9} seconds\.`)
	// reBtrfsPrefix: btrfs_printk's level and device.
	reBtrfsPrefix = lazyre.New(`^BTRFS(?: (?:emergency|alert|critical|error|warning|notice|info|debug))?(?: \(device [\w./:-]{1,64}(?: state [A-Za-z]{1,8})?\))?: `)
	// reISCSIConn: iscsi_cls_conn_printk's device name.
	reISCSIConn = lazyre.New(`^connection\d{1,6}:\d{1,6}: `)
	// reUserFault: show_signal_msg's segfault line and traps.c's do_trap/GP lines (fix43a).
	reUserFault     = lazyre.New(`^(?:[^\s\[\]]{1,64}\[\d{1,9}\]: segfault at [0-9a-f]{1,16} ip (?:[0-9a-f]{1,16}|\(null\))(?: \(rpc [0-9a-f]{1,16}\))? sp (?:[0-9a-f]{1,16}|\(null\)) error [0-9a-f]{1,8}\b|traps: [^\s\[\]]{1,64}\[\d{1,9}\] (?:general protection fault|trap [a-z ]{1,32}) ip:[0-9a-f]{1,16} sp:[0-9a-f]{1,16} error:[0-9a-f]{1,8}\b)`)
	reModFuncPrefix = lazyre.New(`^[a-z][a-z0-9_-]{1,31}: [a-z][a-z0-9]{0,31}_\w{1,63}: `)
)

// bareKernelLine reports whether t, a line without a log prefix, is one of the kernel lines
// above.
func bareKernelLine(t string) bool {
	s := strings.TrimLeft(t, " \t")
	if len(s) < 8 {
		return false
	}
	switch s[0] {
	case 'L':
		if strings.HasPrefix(s, "Large kmem_alloc(") {
			return reSPLOwn.MatchString(s) // SPL's (h28a, below)
		}
		if strings.HasPrefix(s, "LustreError: ") || strings.HasPrefix(s, "LNetError: ") {
			return true
		}
		for _, p := range []string{"Lustre: ", "LNet: "} {
			if rest, ok := strings.CutPrefix(s, p); ok && reLibcfsHeader.MatchString(rest) {
				return true
			}
		}
	case 'l':
		if strings.HasPrefix(s, "libceph: ") {
			return true
		}
	case 'r':
		if strings.HasPrefix(s, "rbd: rbd") {
			return true
		}
	case 'o':
		if strings.HasPrefix(s, "o2net: ") || strings.HasPrefix(s, "o2hb: ") || strings.HasPrefix(s, "o2cb: ") {
			return true
		}
	case 'd', 'b':
		if (strings.HasPrefix(s, "drbd ") || strings.HasPrefix(s, "block drbd")) && reDrbdPrefix.MatchString(s) {
			return true
		}
		// nbd's dev_printk on its disk (drivers/block/nbd.c, nbd_to_dev: disk_to_dev, class
		// "block"): "block nbdN: Possible stuck request %p: control (%s@%llu,%uB). Runtime %u
		// seconds", "block nbdN: Connection timed out", "block nbdN: shutting down sockets"
		// (fix37b).
		if strings.HasPrefix(s, "block nbd") && reNbdPrefix.MatchString(s) {
			return true
		}
		// bcache's pr_fmt "bcache: %s() " (drivers/md/bcache/bcache.h, __func__) (h28a).
		if strings.HasPrefix(s, "bcache: ") && reBcachePrefix.MatchString(s) {
			return true
		}
	case '(':
		return strings.IndexByte(s, ',') > 0 && reMasklog.MatchString(s)
	case 's':
		// FreeBSD's sonewconn record of a full listen queue (kernel.MsgBSDListenOverflow,
		// fix55b), quoted without its syslog prefix as posts paste it.
		if strings.HasPrefix(s, "sonewconn: pcb ") {
			_, ok := kernel.ParseBSDListenOverflow(s)
			return ok
		}
	case 'X', 'x':
		// XFS's retry warning (xfs_err's "XFS: ", 2.6's "xfs: "; kernel.ParseSubsysAllocFailure
		// reads it): a kernel line however it was quoted (h19b).
		return (strings.HasPrefix(s, "XFS: ") || strings.HasPrefix(s, "xfs: ")) && strings.Contains(s, " memory allocation deadlock ")
	case 'B':
		// btrfs_printk's "BTRFS %s (device %s): " (fs/btrfs/messages.c; "BTRFS: " and
		// "BTRFS LEVEL: " without a device) (h28a).
		return reBtrfsPrefix.MatchString(s)
	case 'c':
		// iscsi_cls_conn_printk's "connectionN:M: " (scsi_transport_iscsi.c, the
		// connection's dev_name): "connection1:0: detected conn error (1020)" (h28a).
		return strings.HasPrefix(s, "connection") && reISCSIConn.MatchString(s)
	case 'P', 'V':
		// OpenZFS SPL's own lines, printk without a prefix (h28a): a kernel line however it
		// was quoted. kernel.ParseSubsysAllocFailure reads the retry warning; the others are
		// read as log lines, no rule's.
		if strings.HasPrefix(s, "Possible memory allocation deadlock: size=") {
			_, failed := kernel.ParseSubsysAllocFailure(s)
			return failed
		}
		return reSPLOwn.MatchString(s)
	case 'F', 'f', 'I', 'i':
		// init/initramfs.c: "Freeing initrd memory: %ldK" (free_initrd_mem's report) and
		// "Initramfs unpacking failed: %s" (populate_rootfs), in a boot console's paste,
		// also lower-cased by a page (fix21c).
		// Not a return of false otherwise: a device's line starts with these letters too
		// ("iwlwifi 0000:00:14.3: Failed to alloc_pages", igb, ixgbe, fec; h19a).
		if hasPrefixFold(s, "Freeing initrd memory: ") || hasPrefixFold(s, "Initramfs unpacking failed: ") {
			return true
		}
		// kernel/hung_task.c: "INFO: task %s:%d blocked for more than %ld seconds." (a
		// storage stack's thread, txg_sync, xfsaild, nfsd, stuck in D state) (h28a).
		if strings.HasPrefix(s, "INFO: task ") {
			return reHungTask.MatchString(s)
		}
	case 'R':
		// sunrpc's record marker over its limit (svcsock.c, before 4.x: "RPC: fragment too
		// large: %d") (h28a).
		if strings.HasPrefix(s, "RPC: fragment too large: ") {
			return true
		}
		// The Realtek out-of-tree and staging drivers' own prefix (8812au, 88x2bu:
		// include/rtw_debug.h DRIVER_PREFIX "RTW: "; staging r8188eu "R8188EU: ") before a
		// function's name that need not hold an underscore ("recvbuf2recvframe"): their
		// failed allocation (h19a).
		if rest, ok := cutRealtekPrefix(s); ok && reRealtekFunc.MatchString(rest) {
			_, failed := kernel.ParseSubsysAllocFailure(rest)
			return failed
		}
	}
	if (strings.Contains(s, "]: segfault at ") || strings.HasPrefix(s, "traps: ")) && reUserFault.MatchString(s) {
		return true
	}
	if vmallocFailureLine(s) {
		return true
	}
	if len(s) > 18 && s[8] == ':' && s[17] == ':' && reLctlDebug.MatchString(s) {
		return true
	}
	if kernelTaskLine(s) {
		return true // a task's or CPU's line of a stall or dump report (kerneltaskline.go)
	}
	return devAllocLine(s)
}

// vmallocFailureLine: mm/vmalloc.c's own lines for a failure of address space, not of pages
// (g273's 6101 and 6103: a ppc32 G4's swapon and modprobe with no printk time): warn_alloc's
// "COMM: vmalloc error: size N, vm_struct allocation failed, mode:..." (5.15+),
// "vmap allocation for size N failed: use vmalloc=<size> to increase size" and
// "vmalloc_node_range for size N failed: Address range restricted to 0x... - 0x...". Read as
// kernel records, they reach alloc-fail-not-physical (kernel.MsgNotPhysical).
func vmallocFailureLine(s string) bool {
	switch {
	case strings.HasPrefix(s, "vmap allocation for size "), strings.HasPrefix(s, "vmalloc_node_range for size "):
		return strings.Contains(s, " failed")
	case strings.Contains(s, ": vmalloc error: size "):
		return strings.Contains(s, "vm_struct allocation failed")
	}
	return false
}

// cutRealtekPrefix: s without the Realtek drivers' "RTW: " or "R8188EU: " prefix.
func cutRealtekPrefix(s string) (string, bool) {
	for _, p := range []string{"RTW: ", "R8188EU: "} {
		if rest, ok := strings.CutPrefix(s, p); ok {
			return rest, true
		}
	}
	return "", false
}

// devAllocLine: a device's own line (reDevPrefix) that states a failed allocation.
func devAllocLine(s string) bool {
	sp := strings.IndexByte(s, ' ')
	if sp < 2 || sp > 32 || !strings.Contains(s[sp:min(len(s), sp+40)], ": ") {
		return false
	}
	if !reDevPrefix.MatchString(s) && !reModFuncPrefix.MatchString(s) {
		return false
	}
	_, ok := kernel.ParseSubsysAllocFailure(s)
	return ok
}

// hasPrefixFold: strings.HasPrefix in any ASCII case.
func hasPrefixFold(s, p string) bool { return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) }
