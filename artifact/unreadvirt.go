package artifact

// Virtualization hosts' own lines of a VM that could not get its memory (pre-round 17, h17d;
// each format string checked in QEMU's and Proxmox's qemu-server sources). They reach the
// user through Proxmox's task log ("TASK ERROR: start failed: …", pvedaemon's journal),
// libvirt's "internal error: qemu unexpectedly closed the monitor: …" (virsh, libvirtd's
// journal, nova-compute's and vdsm's logs quote it), or QEMU's own stderr. Each is a
// refusal before the guest ran: no kill by the kernel's OOM killer, so no oom-kill; the
// kernel's figures (meminfo's Committed_AS and CommitLimit, HugePages_Free) would say
// which limit, and without them no rule of headroom's decides it. Read under any prefix:
// collabOwnLine's and webAppOwnLine's gates hold them ('y' "memory", 'K' "KVM", 'S'
// "QemuServer").
func init() {
	collabForms = append(collabForms,
		// QEMU system/physmem.c ram_block_add: error_setg_errno(errp, errno, "cannot set up
		// guest memory '%s'", name) when the anonymous mapping of the VM's RAM failed.
		ownLineForm{"guest memory '", ": Cannot allocate memory", false, "QEMU could not allocate the VM's RAM (system/physmem.c ram_block_add: \"cannot set up guest memory 'pc.ram': Cannot allocate memory\"; Proxmox: \"start failed: QEMU exited with code 1\", libvirt: \"qemu unexpectedly closed the monitor\"): the mapping of the guest's whole memory was refused with ENOMEM: the host's commit accounting (vm.overcommit_memory 2 past CommitLimit, or mode 0 refusing one allocation larger than RAM plus swap) or a limit on QEMU's process (memory cgroup, RLIMIT_AS); the VM did not start; no kill by the kernel's OOM killer. overcommit-exposed would need `grep -E 'Committed_AS|CommitLimit' /proc/meminfo; sysctl vm.overcommit_memory`; on a ZFS host the ARC's share (arc_summary) is memory the guests cannot have"},
		// QEMU system/physmem.c file_ram_alloc: "unable to map backing store for guest RAM"
		// (memory-backend-file: hugetlbfs, Proxmox's hugepages:, libvirt's <hugepages/>).
		// The needle leaves out "unable to ": match treats a needle starting with 'u' as uWSGI's.
		ownLineForm{"map backing store for guest RAM", ": Cannot allocate memory", false, "QEMU could not map the VM's RAM from its backing file (system/physmem.c file_ram_alloc: \"unable to map backing store for guest RAM: Cannot allocate memory\"): with hugepages (hugetlbfs, Proxmox's hugepages:, libvirt's <hugepages/>) the pool had too few free huge pages (HugePages_Free, per NUMA node under /sys/devices/system/node/*/hugepages); the VM did not start; no kill and no finding of headroom's rules (huge pages are a reserved pool, not the kernel's free memory)"},
		// QEMU util/oslib-posix.c qemu_prealloc_mem / touch_all_pages: error_setg(errp,
		// "os_mem_prealloc: Insufficient free host memory pages available to allocate guest
		// RAM") when touching the preallocated pages raised SIGBUS.
		ownLineForm{"Insufficient free host memory pages available to allocate guest RAM", "", false, "QEMU's preallocation of the VM's RAM ran out (util/oslib-posix.c: \"os_mem_prealloc: Insufficient free host memory pages available to allocate guest RAM\", a SIGBUS while touching the pages): the huge page pool (HugePages_Free) or the backing file system had fewer pages than the guest's memory; the VM did not start; no kill and no finding of headroom's rules"},
		// QEMU accel/kvm/kvm-all.c kvm_init (older vl.c): "failed to initialize KVM: %s" with
		// strerror of KVM_CREATE_VM's error.
		ownLineForm{"failed to initialize KVM: ", "Cannot allocate memory", false, "KVM refused to create the VM (QEMU kvm_init: \"failed to initialize KVM: Cannot allocate memory\", the KVM_CREATE_VM ioctl returned ENOMEM): the host kernel could not allocate the VM's own structures (kvm_create_vm's struct kvm, memslots, the MMU's pages) or a memory cgroup refused the kernel memory's charge; a kernel allocation refused with no order or zone in the line, and no kill; the kernel log around it (a page allocation failure) would say which zone"},
		// Proxmox qemu-server PVE/QemuServer/Memory.pm hugepages_allocate: die "hugepage
		// allocation failed" (Perl adds " at FILE line N."): after raising nr_hugepages the
		// node's free_hugepages stayed below the VM's need.
		ownLineForm{"hugepage allocation failed at ", "PVE/QemuServer", false, "Proxmox could not reserve the VM's huge pages (qemu-server PVE/QemuServer/Memory.pm hugepages_allocate: \"hugepage allocation failed\"): after raising nr_hugepages the NUMA node's free_hugepages stayed below the VM's need: the kernel found too few free contiguous 2 MiB or 1 GiB blocks (fragmented memory, or memory in use) at start; the VM did not start; memory-fragmented would need /proc/buddyinfo (the free blocks of order 9 and above) from that moment"},
	)
}

// isVirtTag: the syslog tags under which virtualization hosts log a VM's start and QEMU's
// stderr: Proxmox's daemons and task workers (pvedaemon forks qm start's worker, whose
// lines it logs), QEMU itself, libvirt's daemons, OpenStack's compute service, oVirt's vdsm,
// Incus/LXD. Their lines are read by collabOwnLine's forms (and are otherwise another
// program's log, as before).
func isVirtTag(tag string) bool {
	switch tag {
	case "pvedaemon", "pve-guests", "pvestatd", "pvescheduler", "qm", "qmeventd", "task",
		"kvm", "qemu", "qemu-kvm", "qemu-system-x86_64", "qemu-system-aarch64",
		"libvirtd", "virtqemud", "nova-compute", "vdsm", "vdsmd", "incusd", "lxd":
		return true
	}
	return false
}
