package kernel

import (
	"headroom/internal/lazyre"
	"strconv"
	"strings"
)

// GetOrder is the page order a request of size bytes takes from the buddy allocator with
// pages of pageSize bytes: include/asm-generic/getorder.h get_order, the smallest order
// whose run of pages holds size (get_order(4096) = 0, get_order(4097) = 1 with 4 KiB pages).
// kmalloc above KMALLOC_MAX_CACHE_SIZE (SLUB: two pages) asks the page allocator for
// get_order(size) (mm/slub.c kmalloc_large); alloc_pages_exact, dma_alloc_coherent and
// __get_free_pages callers pass it too. ok is false for a size or page size ≤ 0.
func GetOrder(size, pageSize int64) (order int, ok bool) {
	if size <= 0 || pageSize <= 0 {
		return 0, false
	}
	for pageSize<<order < size {
		order++
	}
	return order, true
}

// A failed allocation in a subsystem's own words (issue 29, before round 6). Most kernel
// code that cannot get memory says so itself and prints no page allocation failure: it
// allocates with __GFP_NOWARN, or the failure was a slab or vmalloc one, or it only
// returns -ENOMEM and a caller logs the errno. The lines are the failure's only trace on
// the host, and what they hold is not a warn_alloc report: order, mode and zones are
// unsaid unless the line says them. Verified messages:
//
//	iwlwifi (drivers/net/wireless/intel/iwlwifi/pcie/rx.c iwl_pcie_rxq_alloc_rbs, the RX
//	  buffer refill): "alloc_pages failed, order: %d" and "Failed to alloc_pages with
//	  GFP_ATOMIC. Only %u free buffers remaining."; iwlegacy and iwlagn print the same
//	LNet/libcfs (lnet/include/libcfs LIBCFS_ALLOC_POST): "LNET: out of memory at %s:%d
//	  (tried to alloc '%s' = %d)" (kmalloc up to LIBCFS_VMALLOC_SIZE, vmalloc above, so the
//	  size gives no buddy order)
//	drivers' receive refill: "Failed to refill Rx ring %u" (nvethernet),
//	  "failed to allocate rx_skb" (rtw88, MsgDriverRxSkbAllocFail), "failed to refill rx
//	  ring: -12"
//	errno printed by the caller: "... failed: -12", "error -12", "-ENOMEM", "(ENOMEM)"
//
// What is not a failure of memory is left out: a resource, an IRQ, an MSI vector, a BAR,
// a minor number or an ID that a driver could not get (boot logs hold many: "can't
// allocate an IRQ", "BAR 7: failed to assign"); and the messages other readers own
// (warn_alloc's header, SLUB's, vmalloc's and the address-space failures, the OOM killer's,
// TCP's out of memory, conntrack's).

// SubsysAllocFailure is what one such line says.
type SubsysAllocFailure struct {
	// Order is the page order the line states ("order: 1"), -1 when it states none.
	Order int
	// Bytes is the request's size when the line states it in bytes, 0 when not.
	Bytes int64
	// Contiguous: the line names an allocator that takes physically contiguous pages from
	// the buddy allocator (kmalloc and its kin, alloc_pages, __get_free_pages,
	// dma_alloc_coherent), so a stated size has an order (GetOrder).
	Contiguous bool
	// Atomic is true when the line names GFP_ATOMIC, false when it names GFP_KERNEL, nil
	// when it names neither.
	Atomic *bool
	// RX: the line is about the receive path (an RX ring, buffer, skb or refill), where
	// drivers refill from NAPI's softirq with GFP_ATOMIC.
	RX bool
	// Errno: the failure is known only by its errno (-12, ENOMEM) on the line.
	Errno bool
	// DMA: the line names a DMA coherent buffer (dma_alloc_coherent, "DMA memory", "DMA
	// buffer", iwlwifi's "Falling back to small chunks of DMA"): a driver's firmware image,
	// firmware memory or descriptor ring, allocated in process context (probe, firmware
	// load, resume) with GFP_KERNEL, physically contiguous unless an IOMMU maps it. Not the
	// receive path's atomic refill (h19a).
	DMA bool
	// Pool names a dedicated pool the failure exhausted, not the buddy allocator's free
	// memory (PoolCMA, PoolDMAAtomic, PoolSwiotlb); "" for every other failure.
	Pool string
	// Pages and Ret are cma_alloc's "req-size: %lu pages, ret: %d" (PoolCMA's own line):
	// the request in pages and the errno (-12 ENOMEM: no free range; -16 EBUSY: pages could
	// not be migrated out). 0 when the line does not state them.
	Pages int64
	Ret   int
}

// The dedicated pools whose exhaustion a board's or a host's kernel log states (pre-round 8,
// boards: checked in the sources cited). Their free memory is not the zones' free memory, so
// no buddy-allocator cause (reserve, fragmentation) follows from their failure, and no
// buddyinfo decides it.
const (
	// PoolCMA: the contiguous memory allocator's area (mm/cma.c cma_alloc: "cma_alloc:
	// [name: ]alloc failed, req-size: %lu pages, ret: %d"; -ENOMEM when no range of the area
	// was free, -EBUSY when its pages could not be migrated out, pinned). Sized by the cma=
	// boot parameter or the device tree's reserved-memory node; CmaTotal and CmaFree in
	// /proc/meminfo are its state.
	PoolCMA = "CMA area"
	// PoolDMAAtomic: the atomic DMA coherent pools (kernel/dma/pool.c dma_alloc_from_pool:
	// WARN "Failed to get suitable pool for %s", since 6.18 "DMA pool exhausted for %s";
	// atomic_pool_expand: "DMA: failed to allocate %zu KiB %pGg pool for atomic allocation").
	// Sized by the coherent_pool= boot parameter.
	PoolDMAAtomic = "atomic DMA coherent pool"
	// PoolSwiotlb: the bounce buffer (kernel/dma/swiotlb.c swiotlb_tbl_map_single: "swiotlb
	// buffer is full (sz: %zd bytes), total %lu (slots), used %lu (slots)"). Sized by the
	// swiotlb= boot parameter.
	PoolSwiotlb = "swiotlb bounce buffer"
	// PoolXenFrames: the machine frames Xen gives dom0's netback for page flipping (the
	// classic netback's net_rx_action: alloc_mfn failed, "Memory squeeze in netback
	// driver."): Xen's free memory, sized by dom0_mem= and the other domains' memory.
	PoolXenFrames = "Xen machine frames for netback"
	// PoolXenGrants: a domain's grant table (drivers/xen/grant-table.c gnttab_expand:
	// "xen/grant-table: max_grant_frames reached cur=%u extra=%u limit=%u ..."): its frames
	// capped by max_grant_frames in the domain's config or Xen's gnttab_max_frames=.
	PoolXenGrants = "Xen grant table"
)

// poolFailure reads the pools' own failure lines, and usbnet's and lan78xx's deferred RX
// refill: "kevent 2 may have been dropped" (netdev_err before 5.14, then netdev_dbg with the
// name, "kevent EVENT_RX_MEMORY may have been dropped"): event 2 is EVENT_RX_MEMORY in
// include/linux/usb/usbnet.h and drivers/net/usb/lan78xx.c, set by rx_submit when
// __netdev_alloc_skb for an RX URB failed (usbnet.c rx_submit, lan78xx.c rx_submit), and the
// message says the refill work was already queued. Other kevents (4, EVENT_LINK_RESET …) are
// no memory. A format string ("%s", "%d") is source, not a host's log.
func poolFailure(msg string) (SubsysAllocFailure, bool) {
	if strings.Contains(msg, "%s") || strings.Contains(msg, "%d") || strings.Contains(msg, "%zd") || strings.Contains(msg, "%u") {
		return SubsysAllocFailure{}, false
	}
	f := SubsysAllocFailure{Order: -1}
	switch {
	case strings.Contains(msg, "swiotlb buffer is full"):
		f.Pool = PoolSwiotlb
		if m := reSubsysBytes.FindStringSubmatch(msg); m != nil {
			if v, err := strconv.ParseInt(strings.Join(m[1:], ""), 10, 64); err == nil && v > 0 {
				f.Bytes = v
			}
		}
		return f, true
	case strings.Contains(msg, "Memory squeeze in netback driver"):
		f.Pool = PoolXenFrames
		return f, true
	case strings.Contains(msg, "max_grant_frames reached"):
		f.Pool = PoolXenGrants
		return f, true
	case strings.Contains(msg, "Failed to get suitable pool for "), strings.Contains(msg, "DMA pool exhausted for "),
		// 32-bit ARM's own pool (arch/arm/mm/dma-mapping.c __alloc_from_pool, 3.6-3.15,
		// pr_err_once): "ERROR: %u KiB atomic DMA coherent pool is too small!" then
		// "Please increase it with coherent_pool= kernel parameter!".
		strings.Contains(msg, "atomic DMA coherent pool is too small"):
		f.Pool = PoolDMAAtomic
		return f, true
	case strings.Contains(msg, "may have been dropped"):
		i := strings.Index(msg, "kevent ")
		if i < 0 {
			return SubsysAllocFailure{}, false
		}
		ev, _, _ := strings.Cut(msg[i+len("kevent "):], " ")
		if ev != "2" && ev != "EVENT_RX_MEMORY" {
			return SubsysAllocFailure{}, false
		}
		f.RX = true
		return f, true
	}
	return SubsysAllocFailure{}, false
}

var (
	// reSubsysAllocFail: the words of a failed allocation.
	reSubsysAllocFail = lazyre.New(`(?i)\b(?:fail(?:ed|ure|s)?\s+(?:to\s+)?(?:re)?(?:alloc\w*|refill)|(?:can'?t|cannot|could\s*n[o']t|couldn'?t|unable\s+to|not\s+able\s+to)\s+(?:re)?alloc\w*|\w*alloc\w*(?:\(\))?\s+(?:has\s+)?fail(?:ed|ure|s)?|\w*(?:get_skb|skb_copy|skb_clone|copy_expand|pktget)\w*(?:\(\))?:?\s+fail(?:ed|ure|s)?|(?:[kv][mzc]?alloc\w*|alloc\w*)\s+(?:of|for)\s+[^,;:]{1,40}?\s+(?:has\s+)?fail(?:ed|ure|s)?|out\s+of\s+memory|no\s+memory\s+for|cannot\s+allocate\s+memory|memory\s+allocation\s+(?:error|failure|failed))\b`)
	// reSubsysErrno: -ENOMEM printed as a number or a name by the caller.
	// The SMB client's "Send error in %s = %d" (fs/smb/client cifssmb.c, smb2pdu.c; h19b)
	// names the operation between "error" and the errno.
	reSubsysErrno = lazyre.New(`(?i)(?:\b(?:error|err|ret|rc|status|returned|result|code)\s*[=:]?\s*\(?-12\b|\berror\s+in\s+\w{1,40}\s*=\s*-12\b|:\s*-12\s*$|\(-12\)|-ENOMEM\b|\bENOMEM\b|\berrno\s*=?\s*12\b)`)
	// reNotMemory: what a driver allocates that is no memory.
	reNotMemory   = lazyre.New(`(?i)\b(?:irqs?|interrupts?|msi(?:-?x)?|vectors?|resources?|bars?|(?:mem|io|mmio)\s+regions?|minors?|majors?|bus\s+numbers?|ids?|idr|ida|slots?|iova|address\s+space|qids?|luns?|devt|inodes?|dma\s+channels?|pasid|asid|vmid)\b|\[(?:io|mem|bus)\s`)
	reSubsysOrder = lazyre.New(`(?i)\border\s*[:=]?\s*(\d{1,2})\b`)
	// reSubsysBytes: "N bytes", "of size N", and libcfs's LIBCFS_ALLOC_POST "(tried to alloc
	// 'ptr' = N)" (Lustre's LNet and OBD allocations, N in bytes).
	// ath11k's and ath12k's qmi "(%d B type %u)" (qmi.c ath11k_qmi_alloc_target_mem_chunk) is
	// bytes too.
	reSubsysBytes      = lazyre.New(`(?i)\b(\d{1,12})\s*bytes\b|\((\d{1,12})\s?B\b|\bof\s+size\s+(\d{1,12})\b|\btried\s+to\s+alloc\s+'[^']{0,64}'\s*=\s*(\d{1,12})\b`)
	reSubsysContiguous = lazyre.New(`(?:\b|_)(?:k[mzc]alloc\w*|kmalloc|kzalloc|kcalloc|krealloc|kmalloc_array|kmalloc_node|alloc_pages\w*|__get_free_pages|get_free_pages|dma_alloc_coherent|dma_alloc_attrs|alloc_pages_exact)\b`)
	// reSubsysRX: an RX buffer descriptor is "rbd", but "rbd: rbd0: ..." is Ceph's RADOS
	// block device (drivers/block/rbd.c pr_fmt), no receive path: "rbd" before ':' is not one.
	reSubsysRX = lazyre.New(`(?i)(?:\brx|_rx|receive|refill|\brbs?\b|\brbd(?:[ ,.;)]|$)|free\s+buffers\s+remaining|recvframe|recvbuf|recv_buf|readframes|read_port)`)
	// reRingAlloc: a ring of descriptors allocated, not refilled ("failed to allocate rx
	// ring", "failed to alloc tx ring 3").
	reRingAlloc = lazyre.New(`(?i)\balloc\w*\s+(?:the\s+)?[rt]x\s+ring\b`)
	// reSubsysDMA: a DMA coherent buffer named by the line (SubsysAllocFailure.DMA).
	reSubsysDMA = lazyre.New(`(?i)\bdma_alloc_(?:coherent|attrs)\b|\bdma\s+(?:memory|buffer|allocation|mem)\b|\bcoherent\s+(?:memory|buffer)\b`)
)

// subsysAllocOwned are messages other readers own (kernel.Msg*): a line with one is theirs.
var subsysAllocOwned = [][]string{MsgPageAllocFailure, MsgSlabFailure, MsgNotPhysical, MsgTCPOutOfMemory, MsgOutOfSocketMemory, MsgOOMNoKillable, MsgConntrackAllocFail,
	MsgOOMVendorNoKill, MsgOOMKill,
	{MsgNoMMUAllocFailure, MsgPageAllocStall, "vmalloc error", "vmalloc: allocation failure", "SLUB: ", "SLAB: ", "oom killer", "OOM killer", "oom_reaper", "lowmemorykiller", "not syncing",
		// A memory cgroup's charge that failed at its limit (try_charge) is the cgroup's
		// limit, not an allocation the allocator refused.
		"CHARGE", "charge"}}

// ParseSubsysAllocFailure reports whether a kernel log message is a subsystem's or a
// driver's own statement that an allocation of memory failed, and what it says of it.
func ParseSubsysAllocFailure(msg string) (SubsysAllocFailure, bool) {
	// The pools' own words carry none of the gate's words below ("swiotlb buffer is full").
	if strings.Contains(msg, "swiotlb") || strings.Contains(msg, "pool ") || strings.Contains(msg, "kevent ") || strings.Contains(msg, "squeeze") || strings.Contains(msg, "max_grant_frames") {
		if f, ok := poolFailure(msg); ok {
			return f, true
		}
	}
	// iwlwifi's firmware load (pcie/trans.c iwl_pcie_load_section, IWL_DEBUG_INFO "Falling
	// back to small chunks of DMA"): dma_alloc_coherent of a section's chunk (up to
	// FH_MEM_TB_MAX_LENGTH, 128 KiB) with GFP_KERNEL|__GFP_NOWARN failed, and the load goes
	// on page by page. No failure word: the words are its own.
	if strings.Contains(msg, "Falling back to small chunks of DMA") {
		return SubsysAllocFailure{Order: -1, DMA: true}, true
	}
	if strings.Contains(msg, "allocation deadlock") {
		if f, ok := splAllocDeadlock(msg); ok {
			return f, true
		}
		return xfsAllocDeadlock(msg)
	}
	// Cheap gate: every form has "alloc", "memory", "refill", "-12", "errno", "ENOMEM" or an
	// skb getter ("brcmu_pkt_buf_get_skb failed") in it (not a bare "12": most dmesg stamps
	// hold one).
	if !strings.Contains(msg, "lloc") && !strings.Contains(msg, "LLOC") && !strings.Contains(msg, "emory") && !strings.Contains(msg, "-12") && !strings.Contains(msg, "ENOMEM") && !strings.Contains(msg, "efill") && !strings.Contains(msg, "errno") && !strings.Contains(msg, "skb") && !brcmPktGet(msg) {
		return SubsysAllocFailure{}, false
	}
	// And a word of failure: "Memory: 16318476K/16696524K available" has none.
	if !hasFailureWord(msg) {
		return SubsysAllocFailure{}, false
	}
	// Lustre's "%s: operation %s to node %s failed: rc = %d" (ptlrpc_check_status,
	// LCONSOLE_ERROR_MSG 0x011, "LustreError: 11-0: ...") is the status of the peer's error
	// reply (PTL_RPC_MSG_ERR): a -12 there is the server's ENOMEM, not this host's.
	if strings.Contains(msg, ": operation ") && strings.Contains(msg, " to node ") {
		return SubsysAllocFailure{}, false
	}
	if mlx5FirmwareStatus(msg) {
		return SubsysAllocFailure{}, false
	}
	for _, set := range subsysAllocOwned {
		for _, m := range set {
			if strings.Contains(msg, m) {
				return SubsysAllocFailure{}, false
			}
		}
	}
	f := SubsysAllocFailure{Order: -1}
	loc := reSubsysAllocFail.FindStringIndex(msg)
	if loc == nil {
		if !reSubsysErrno.MatchString(msg) {
			return SubsysAllocFailure{}, false
		}
		f.Errno = true
	}
	if loc != nil {
		// What the failed verb is about: the words after it ("failed to allocate IRQ",
		// "can't allocate resource") or before it ("IRQ allocation failed").
		// Before it only in the noun's form ("IRQ allocation failed"), where the noun
		// stands right before the verb.
		phrase := strings.ToLower(msg[loc[0]:loc[1]])
		after := msg[loc[1]:min(len(msg), loc[1]+32)]
		before := ""
		if first, _, _ := strings.Cut(phrase, " "); strings.Contains(first, "alloc") {
			before = msg[max(0, loc[0]-16):loc[0]]
		}
		if reNotMemory.MatchString(after) || reNotMemory.MatchString(before) {
			return SubsysAllocFailure{}, false
		}
	} else if reNotMemory.MatchString(msg) {
		return SubsysAllocFailure{}, false // "failed to request IRQ: -12" is no failed allocation of memory
	}
	if m := reSubsysOrder.FindStringSubmatch(msg); m != nil {
		if v, err := strconv.Atoi(m[1]); err == nil {
			f.Order = v
		}
	}
	if m := reSubsysBytes.FindStringSubmatch(msg); m != nil && !strings.Contains(msg, "malloced ") {
		if v, err := strconv.ParseInt(strings.Join(m[1:], ""), 10, 64); err == nil && v > 0 {
			f.Bytes = v
		}
	}
	f.Contiguous = reSubsysContiguous.MatchString(msg)
	switch {
	case strings.Contains(msg, "GFP_ATOMIC"):
		t := true
		f.Atomic = &t
	case strings.Contains(msg, "GFP_KERNEL"):
		t := false
		f.Atomic = &t
	}
	f.RX = reSubsysRX.MatchString(msg)
	// iwlwifi's and iwlegacy's only alloc_pages is the RX buffer's (pcie/rx.c
	// iwl_pcie_rx_alloc_page, "Failed to alloc_pages" since 4.x without the pool's words).
	if !f.RX && strings.Contains(msg, "alloc_pages") && strings.Contains(msg, "iwl") {
		f.RX = true
	}
	f.DMA = reSubsysDMA.MatchString(msg)
	if f.RX && reRingAlloc.MatchString(msg) {
		// The ring itself, not its buffers (rtw88 pci.c rtw_pci_init_rx_ring: "failed to
		// allocate rx ring", dma_alloc_coherent at probe): a DMA coherent buffer.
		f.RX, f.DMA = false, true
	}
	if strings.Contains(msg, "cma_alloc") || strings.Contains(msg, "from CMA") {
		f.Pool = PoolCMA
		f.Pages, f.Ret = cmaRequest(msg)
	} else if strings.Contains(msg, "pool for atomic allocation") {
		f.Pool = PoolDMAAtomic
	}
	return f, true
}

// brcmPktGet: Broadcom's wl, et and dhd drivers (the router firmwares' wireless and
// Ethernet drivers: AsusWRT and its Merlin fork, DD-WRT, FreshTomato, Padavan) get a packet
// buffer through their OS layer's PKTGET, osl_pktget → osl_alloc_skb → __dev_alloc_skb
// (GFP_ATOMIC in atomic context: shared/linux_osl.c), and say "%s: PKTGET failed" (wl, dhd's
// DHD_ERROR "... PKTGET failed", sdio's "PKTGET failed: len %d", dbus's "dbus_sdio_pktget
// failed"): an skb allocation that failed. Their other words, "%s: out of memory, malloced
// %d bytes" (MALLOC → kmalloc), are read by the generic "out of memory" below; the figure
// there is MALLOCED(osh), the driver's running total of what it holds (osh->malloced), not
// the request, so it is no request size.
func brcmPktGet(msg string) bool {
	return strings.Contains(msg, "PKTGET") || strings.Contains(msg, "pktget")
}

// cmaRequest reads cma_alloc's "req-size: %lu pages, ret: %d" (mm/cma.c); zeros when the
// line does not hold it.
func cmaRequest(msg string) (pages int64, ret int) {
	_, rest, ok := strings.Cut(msg, MsgCMAAllocFail[0])
	if !ok {
		return 0, 0
	}
	n, rest, ok := strings.Cut(rest, " pages, ret: ")
	if !ok {
		return 0, 0
	}
	p, err1 := strconv.ParseInt(n, 10, 64)
	e := strings.TrimSpace(rest)
	j := 0
	for j < len(e) && (e[j] == '-' && j == 0 || e[j] >= '0' && e[j] <= '9') {
		j++
	}
	r, err2 := strconv.Atoi(e[:j]) // the errno, then whatever quoted it ("-12`")
	if err1 != nil || err2 != nil || p <= 0 || r >= 0 {
		return 0, 0
	}
	return p, r
}

// failureWords: one of them is in every line reSubsysAllocFail or reSubsysErrno matches, in
// the cases the kernel prints them (checked before the regexps, which cost microseconds).
var failureWords = []string{"fail", "Fail", "FAIL", "can't", "Can't", "cannot", "Cannot", "CANNOT", "could", "Could", "unable", "Unable", "UNABLE", "able to",
	"out of memory", "Out of memory", "OUT OF MEMORY", "Out Of Memory", "no memory", "No memory", "-12", "(-12)", "ENOMEM", "errno", "Memory allocation", "memory allocation"}

func hasFailureWord(msg string) bool {
	for _, w := range failureWords {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

// SubsysAllocParser is ParseSubsysAllocFailure with a memory of the messages it has read: a
// flood repeats one message thousands of times ("failed to refill rx ring: -12"), and each
// regexp costs microseconds. At most subsysAllocMemo messages are remembered.
type SubsysAllocParser struct {
	seen map[string]subsysAllocSeen
}

type subsysAllocSeen struct {
	f  SubsysAllocFailure
	ok bool
}

const subsysAllocMemo = 4096

// Parse is ParseSubsysAllocFailure(msg), remembered.
func (p *SubsysAllocParser) Parse(msg string) (SubsysAllocFailure, bool) {
	if r, ok := p.seen[msg]; ok {
		return r.f, r.ok
	}
	f, ok := ParseSubsysAllocFailure(msg)
	if p.seen == nil {
		p.seen = map[string]subsysAllocSeen{}
	}
	if len(p.seen) < subsysAllocMemo {
		p.seen[msg] = subsysAllocSeen{f, ok}
	}
	return f, ok
}

// xfsAllocDeadlock reads XFS's retry warning (pre-round 19, h19b; fs/xfs/kmem.c and
// xfs_buf.c, 2.6 to 5.x): an allocation XFS may not fail (no KM_MAYFAIL, no KM_NOSLEEP)
// loops until it succeeds and says so every 100 retries, "possible memory allocation deadlock
// in %s (mode:0x%x)" (2.6-3.x, xfs_err: "XFS: "), since 3.17 with "%s(%u) " (comm, pid)
// before it and, in kmem_alloc, "size %u" after it: "XFS: fs_mark(8414) possible memory
// allocation deadlock size 65768 in kmem_alloc (mode:0x2d40)". kmem_alloc asks kmalloc
// (contiguous pages: a size past two pages has its buddy order, GetOrder),
// xfs_buf_allocate_memory asks alloc_page (order 0), kmem_zone_alloc a slab cache's object
// (its order unsaid). The loop runs only for sleeping requests (GFP_KERNEL or GFP_NOFS, the
// mode's layout is the kernel's), so the failure is never atomic. A format string is source.
func xfsAllocDeadlock(msg string) (SubsysAllocFailure, bool) {
	k := strings.Index(msg, "possible memory allocation deadlock")
	if k < 0 || strings.Contains(msg, "%u") || strings.Contains(msg, "%s") {
		return SubsysAllocFailure{}, false
	}
	rest := msg[k+len("possible memory allocation deadlock"):]
	in := strings.Index(rest, " in ")
	if in < 0 || !strings.Contains(rest[in:], "mode:") {
		return SubsysAllocFailure{}, false
	}
	sleeping := false
	f := SubsysAllocFailure{Order: -1, Atomic: &sleeping}
	if n, ok := strings.CutPrefix(rest[:in], " size "); ok {
		if v, err := strconv.ParseInt(strings.TrimSpace(n), 10, 64); err == nil && v > 0 {
			f.Bytes = v
		}
	}
	fn := rest[in+len(" in "):]
	if j := strings.IndexAny(fn, " ("); j >= 0 {
		fn = fn[:j]
	}
	switch fn {
	case "kmem_alloc":
		f.Contiguous = true
	case "xfs_buf_allocate_memory":
		f.Order, f.Contiguous = 0, true
	}
	return f, true
}

// splAllocDeadlock reads OpenZFS's SPL retry warning (pre-round 28, h28a; module/os/linux/spl/
// spl-kmem.c spl_kmem_alloc_impl, and module/spl/spl-kmem.c before 0.8): kmem_alloc and
// kmem_zalloc without KM_NOSLEEP loop on kmalloc_node until it succeeds, and print, rate
// limited, "Possible memory allocation deadlock: size=%lu lflags=0x%x" (printk KERN_WARNING,
// no prefix; dump_stack follows, its frames spl_kmem_alloc_impl). kmalloc_node takes
// contiguous pages (a size past two pages has its buddy order, GetOrder); lflags is the gfp
// mask of KM_SLEEP (GFP_KERNEL) or KM_PUSHPAGE (GFP_NOIO): a sleeping request, never atomic
// (KM_NOSLEEP returns NULL instead of looping). A vmem_alloc's request tries __vmalloc first
// and never prints it. The format string itself ("size=%lu") is no failure.
func splAllocDeadlock(msg string) (SubsysAllocFailure, bool) {
	const w = "Possible memory allocation deadlock: size="
	k := strings.Index(msg, w)
	if k < 0 {
		return SubsysAllocFailure{}, false
	}
	n, rest, ok := strings.Cut(msg[k+len(w):], " ")
	v, err := strconv.ParseInt(n, 10, 64)
	if !ok || err != nil || v <= 0 || !strings.HasPrefix(rest, "lflags=0x") {
		return SubsysAllocFailure{}, false
	}
	sleeping := false
	return SubsysAllocFailure{Order: -1, Bytes: v, Contiguous: true, Atomic: &sleeping}, true
}

// mlx5FirmwareStatus: mlx5_core's report of a firmware command's status (h19c). The device
// answers a command (MANAGE_PAGES, CREATE_MKEY, ...) with a status that cmd.c
// cmd_status_to_err turns into an errno, "limits exceeded" (MLX5_CMD_STAT_LIM_ERR) into
// -ENOMEM: mlx5_cmd_out_err's "%s(0x%x) op_mod(0x%x) failed, status %s(0x%x), syndrome
// (0x%x), err(%d)" and give_pages' "func_id 0x%x, npages %d, err %d" (printed only when the
// command failed; the host's pages it could not allocate go by alloc_system_page's "failed to
// allocate page" instead, read as a failed allocation). A -12 there is the device's limit,
// not the host's memory.
func mlx5FirmwareStatus(msg string) bool {
	if strings.Contains(msg, ") failed, status ") && strings.Contains(msg, ", syndrome (") {
		return true
	}
	return strings.Contains(msg, "npages ") && (strings.Contains(msg, "func_id 0x") || strings.Contains(msg, "func_vhca_id 0x"))
}
