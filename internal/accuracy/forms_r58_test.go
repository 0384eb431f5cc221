package main

// Round 58: losses under a form that are limits of the form, each with its reason (the
// limit constants are forms_test.go's, limitStoryInTitle forms_r56_test.go's; two are new).
func init() {
	for _, p := range []struct{ key, why string }{
		{"gutter-tab 4955-linux-mm-2009-ossman-2.6.29.5-fc10-kvm-guest-virtio-net-sshd-order0-0x4020-dma32-free-1388-min-4020", limitPrefixOnQPSource},
		{"cri-prefix 5421-lkml-2023-charan-unreserve-highatomic-early-oom-normal-free-7728kb-reserved-highatomic-8192kb-managed-49224kb-wrapped", limitTitleInContainerLog},
		{"flattened 5421-lkml-2023-charan-unreserve-highatomic-early-oom-normal-free-7728kb-reserved-highatomic-8192kb-managed-49224kb-wrapped", limitStoryInTitle},
		{"journal-json-sse 5423-linux-mm-2016-hocko-reply-dm-crypt-imsm-raid10-dd-oom-meminfo-x2-slab-unreclaimable-1817501-writeback-651864-no-swap", limitMemInfoTailInJournal},
		{"flattened 5423-linux-mm-2016-hocko-reply-dm-crypt-imsm-raid10-dd-oom-meminfo-x2-slab-unreclaimable-1817501-writeback-651864-no-swap", limitFlattenedStatedAmidFigures},
		{"zero-width 5433-linux-mm-2011-arm-cortex-a9-vdlinux-2.6.35.9-compact-memory-oops-compaction-without-hugetlb-buddyinfo-13-orders-qp-healthy-memory", limitZeroWidthInQP},
		{"cri-prefix 5433-linux-mm-2011-arm-cortex-a9-vdlinux-2.6.35.9-compact-memory-oops-compaction-without-hugetlb-buddyinfo-13-orders-qp-healthy-memory", limitPrefixOnQPSource},
		{"double-spaced 5433-linux-mm-2011-arm-cortex-a9-vdlinux-2.6.35.9-compact-memory-oops-compaction-without-hugetlb-buddyinfo-13-orders-qp-healthy-memory", limitPrefixOnQPSource},
		{"double-spaced-quoted 5433-linux-mm-2011-arm-cortex-a9-vdlinux-2.6.35.9-compact-memory-oops-compaction-without-hugetlb-buddyinfo-13-orders-qp-healthy-memory", limitPrefixOnQPSource},
		{"inline-code-lines 5433-linux-mm-2011-arm-cortex-a9-vdlinux-2.6.35.9-compact-memory-oops-compaction-without-hugetlb-buddyinfo-13-orders-qp-healthy-memory", limitPrefixOnQPSource},
		{"inline-code-indented 5433-linux-mm-2011-arm-cortex-a9-vdlinux-2.6.35.9-compact-memory-oops-compaction-without-hugetlb-buddyinfo-13-orders-qp-healthy-memory", limitPrefixOnQPSource},
		{"chat-bracket-nick 5433-linux-mm-2011-arm-cortex-a9-vdlinux-2.6.35.9-compact-memory-oops-compaction-without-hugetlb-buddyinfo-13-orders-qp-healthy-memory", limitPrefixOnQPSource},
		{"irc-log 5433-linux-mm-2011-arm-cortex-a9-vdlinux-2.6.35.9-compact-memory-oops-compaction-without-hugetlb-buddyinfo-13-orders-qp-healthy-memory", limitPrefixOnQPSource},
		{"compose-logs 5433-linux-mm-2011-arm-cortex-a9-vdlinux-2.6.35.9-compact-memory-oops-compaction-without-hugetlb-buddyinfo-13-orders-qp-healthy-memory", limitPrefixOnQPSource},
		{"gutter-dot 5433-linux-mm-2011-arm-cortex-a9-vdlinux-2.6.35.9-compact-memory-oops-compaction-without-hugetlb-buddyinfo-13-orders-qp-healthy-memory", limitPrefixOnQPSource},
		{"bullets-star 5433-linux-mm-2011-arm-cortex-a9-vdlinux-2.6.35.9-compact-memory-oops-compaction-without-hugetlb-buddyinfo-13-orders-qp-healthy-memory", limitPrefixOnQPSource},
		{"cri-prefix 5465-rpi-3210-2019-pi4-32bit-usb3-ssd-dd-oom-reaper-dma-free-210020kb-of-which-cma-190576kb-min-16384kb-highmem-free-2.2gb-cut", limitTitleInContainerLog},
		{"flattened 5465-rpi-3210-2019-pi4-32bit-usb3-ssd-dd-oom-reaper-dma-free-210020kb-of-which-cma-190576kb-min-16384kb-highmem-free-2.2gb-cut", limitStoryInTitle},
		{"stern 5465-rpi-3210-2019-pi4-32bit-usb3-ssd-dd-oom-reaper-dma-free-210020kb-of-which-cma-190576kb-min-16384kb-highmem-free-2.2gb-cut", limitTitleInContainerLog},
		{"shell-prompt-root 5465-rpi-3210-2019-pi4-32bit-usb3-ssd-dd-oom-reaper-dma-free-210020kb-of-which-cma-190576kb-min-16384kb-highmem-free-2.2gb-cut", limitTitleUnderPrompt},
		{"details-summary 5465-rpi-3210-2019-pi4-32bit-usb3-ssd-dd-oom-reaper-dma-free-210020kb-of-which-cma-190576kb-min-16384kb-highmem-free-2.2gb-cut", limitTitleInFold},
		{"flattened 5505-rocm-legacy-176-2017-ubuntu1604-4.11-slabtop-2.9gb-kmalloc-192-to-1024-over-1m-objects-each-kernel-leak-desktop", limitFlattenedBlock},
		{"flattened 5543-kubernetes-58541-2018-k8s-1.9.1-kubeadm-journal-ru-locale-yanv-kubelet-memorypressure-attempting-to-reclaim-memory-hard-3000mi-soft-3500mi-cut", limitFlattenedBlock},
		{"gutter-bar 5547-gist-lovesegfault-2020-iperf3-w-1m-60s-10.0.0.7-to-10.0.0.3-15.9mbit-retr-27681-of-114mb-33pct-cwnd-11.3kb-gist-table-pipes", limitBarQuoteOnCellEnds},
		{"flattened 5588-netdev-2024-af-xdp-zc-ixgbe-82599es-6.3.2-bond-lacp-eth0-ethtool-s-diff-rx-no-dma-resources-1109-to-1119-in-10s-all-rx-dropped-quoted-printable", limitFlattenedBlock},
		{"gutter-bar 5588-netdev-2024-af-xdp-zc-ixgbe-82599es-6.3.2-bond-lacp-eth0-ethtool-s-diff-rx-no-dma-resources-1109-to-1119-in-10s-all-rx-dropped-quoted-printable", limitPrefixOnQPSource},
		{"gutter-zero-colon 5588-netdev-2024-af-xdp-zc-ixgbe-82599es-6.3.2-bond-lacp-eth0-ethtool-s-diff-rx-no-dma-resources-1109-to-1119-in-10s-all-rx-dropped-quoted-printable", limitPrefixOnQPSource},
		{"gutter-tab 5588-netdev-2024-af-xdp-zc-ixgbe-82599es-6.3.2-bond-lacp-eth0-ethtool-s-diff-rx-no-dma-resources-1109-to-1119-in-10s-all-rx-dropped-quoted-printable", limitPrefixOnQPSource},
		{"flattened 5591-dev-notes-fedora-multicast-udp-239.255.0.1-proc-net-snmp-rcvbuferrors-61057700-sndbuferrors-3037386066-netstat-su-receive-buffer-errors-111.68m", limitFlattenedBlock},
		{"flattened 5665-calico-kube-controllers-375-2019-ibm-iks-worker-kubelet-log-eviction-manager-reclaim-memory-must-evict-calico-kube-controllers-evicted-cut", limitFlattenedBlock},
		{"flattened 5704-aws-parallelcluster-docs-head-node-nfsd-too-many-open-connections-ena-ethtool-grep-exceeded-bw-in-38750610-bw-out-1165693-pps-103", limitFlattenedBlock},
	} {
		formsKnownLimits[p.key] = p.why
	}
}

const (
	limitMemInfoTailInJournal       = "a Mem-Info block whose continuation lines carry no stamp (show_mem prints them with pr_cont: '                slab_reclaimable:177477 slab_unreclaimable:1817501'): in a journal export each becomes a record of its own, and the block's counters no longer follow its 'Mem-Info:' line, so the slab line of a dump without its report is not read"
	limitFlattenedStatedAmidFigures = "a post joined onto one line with a quoted Mem-Info or zone dump: a line holding that many figures is read as flattened output (the flattened readers), not as a sentence, so the prose that states the OOM kill beside the figures is not read as a statement"
)
