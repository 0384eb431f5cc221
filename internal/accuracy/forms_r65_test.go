package main

// Round 65: losses under a form that are limits of the form, each with its reason (two new
// kinds).
const (
	limitQuotedSymptomCount = "a quoted \"table full, dropping packet\" line without a time is Info only beside the text's own calm count (fix70a: 3 of 31248); under this form the count's sysctl output (in a fence the form breaks) is not read, so the line stands alone and is critical, as any unstamped table-full line without a count is"
	limitDumpIntroduction   = "a headerless Mem-Info dump is the OOM killer's when the prose line introducing it ('Some sample output from an OOM killer invocation:') ends within three lines above it (fix70k); under this form the dump's first lines or its fence become list items or code spans read as prose, and the introduction is no longer next to the dump"
)

func init() {
	for _, p := range []struct{ key, why string }{
		{"zero-width 6783-lkml-2016-klaus-4.9.0-i386-3gb-thinkpad-xorg-i915-oom-gfp-dma32-normal-free-42404-min-42416-slab-reclaimable-184192-highmem-free-120916-quoted-printable", limitZeroWidthInQP},
		{"journal-json-sse 6783-lkml-2016-klaus-4.9.0-i386-3gb-thinkpad-xorg-i915-oom-gfp-dma32-normal-free-42404-min-42416-slab-reclaimable-184192-highmem-free-120916-quoted-printable", limitJournalOfQPSource},
		{"journal-json 6783-lkml-2016-klaus-4.9.0-i386-3gb-thinkpad-xorg-i915-oom-gfp-dma32-normal-free-42404-min-42416-slab-reclaimable-184192-highmem-free-120916-quoted-printable", limitJournalOfQPSource},
		{"irc-log 6783-lkml-2016-klaus-4.9.0-i386-3gb-thinkpad-xorg-i915-oom-gfp-dma32-normal-free-42404-min-42416-slab-reclaimable-184192-highmem-free-120916-quoted-printable", limitPrefixOnQPSource},
		{"gutter-bar 6783-lkml-2016-klaus-4.9.0-i386-3gb-thinkpad-xorg-i915-oom-gfp-dma32-normal-free-42404-min-42416-slab-reclaimable-184192-highmem-free-120916-quoted-printable", limitPrefixOnQPSource},
		{"gutter-dot 6783-lkml-2016-klaus-4.9.0-i386-3gb-thinkpad-xorg-i915-oom-gfp-dma32-normal-free-42404-min-42416-slab-reclaimable-184192-highmem-free-120916-quoted-printable", limitPrefixOnQPSource},
		{"gutter-zero-colon 6783-lkml-2016-klaus-4.9.0-i386-3gb-thinkpad-xorg-i915-oom-gfp-dma32-normal-free-42404-min-42416-slab-reclaimable-184192-highmem-free-120916-quoted-printable", limitPrefixOnQPSource},
		{"gutter-tab 6783-lkml-2016-klaus-4.9.0-i386-3gb-thinkpad-xorg-i915-oom-gfp-dma32-normal-free-42404-min-42416-slab-reclaimable-184192-highmem-free-120916-quoted-printable", limitPrefixOnQPSource},
		{"zero-width 7070-linux-mm-2014-joonsoo-lkp-3.18-i386-320mb-trinity-oom-0x2840d0-normal-free-18184-free-cma-16228-slab-reclaimable-175184kb-no-swap", limitZeroWidthInQP},
		{"backslash-ends 7070-linux-mm-2014-joonsoo-lkp-3.18-i386-320mb-trinity-oom-0x2840d0-normal-free-18184-free-cma-16228-slab-reclaimable-175184kb-no-swap", limitLayoutOfQPSource},
		{"inline-code-indented 7070-linux-mm-2014-joonsoo-lkp-3.18-i386-320mb-trinity-oom-0x2840d0-normal-free-18184-free-cma-16228-slab-reclaimable-175184kb-no-swap", limitLayoutOfQPSource},
		{"gutter-bar 7070-linux-mm-2014-joonsoo-lkp-3.18-i386-320mb-trinity-oom-0x2840d0-normal-free-18184-free-cma-16228-slab-reclaimable-175184kb-no-swap", limitPrefixOnQPSource},
		{"gutter-zero-colon 7070-linux-mm-2014-joonsoo-lkp-3.18-i386-320mb-trinity-oom-0x2840d0-normal-free-18184-free-cma-16228-slab-reclaimable-175184kb-no-swap", limitPrefixOnQPSource},
		{"gutter-tab 7070-linux-mm-2014-joonsoo-lkp-3.18-i386-320mb-trinity-oom-0x2840d0-normal-free-18184-free-cma-16228-slab-reclaimable-175184kb-no-swap", limitPrefixOnQPSource},
		{"backslash-ends-tight 7067-netdev-stable-2026-kuniyu-reply-so-linger-0-leak-report-6.18.20-sockstat-tcp-mem-8300-after-close-repro-mem-3842-then-0-no-leak-healthy", limitLayoutOfQPSource},
		{"flattened 2583-artiflo-2008-fr-conntrack-howto-sysctl-count-4983-of-max-65536-message-quoted-generic-healthy", limitFlattenedBlock},
		{"flattened 6780-forum-2008-ubuntu-2.6.24-19-i386-4gb-xorg-nvidia-oom-gfp-2d0-normal-free-3732-min-3744-unreclaimable-highmem-free-113132-swap-untouched", limitFlattenedBlock},
		{"flattened 7074-linux-mm-netdev-2016-abeni-reply-brouer-netperf-udp-stream-rcvbuf-1280-nstat-1s-udprcvbuferrors-109056-of-885162-pps-dropped-3891090", limitFlattenedBlock},
		{"flattened 7133-github-zh-devops-cheatsheet-conntrack-count-3-of-max-31248-buckets-8192-generic-table-full-symptom-healthy", limitFlattenedBlock},
		{"flattened 7216-below-procfs-test-fixture-56gb-vm-meminfo-available-48.6g-vmstat-compact-stall-80260-fail-78220-97pct-since-boot", limitFlattenedBlock},
		{"bullets 7133-github-zh-devops-cheatsheet-conntrack-count-3-of-max-31248-buckets-8192-generic-table-full-symptom-healthy", limitQuotedSymptomCount},
		{"bullets 7124-github-lorenzo-stoakes-linux-vm-notes-scratch-2016-oom-mem-info-8gb-no-swap-slab-reclaimable-2.5g-dma32-normal-no-blocks-above-order2", limitDumpIntroduction},
		{"inline-code-lines 7124-github-lorenzo-stoakes-linux-vm-notes-scratch-2016-oom-mem-info-8gb-no-swap-slab-reclaimable-2.5g-dma32-normal-no-blocks-above-order2", limitDumpIntroduction},
		{"flattened 7181-linux-mips-2020-zhou-ingenic-x1830-128mb-5.8-docker-build-containerd-shim-order4-max-32kb-free-6484-and-kswapd0-atomic-stmmac-rx-free-1812-min-5472", limitFlattenedBlock},
		{"flattened 7186-ermaot-notes-zh-geektime-net-basics-azure-4.15-netstat-s-retrans-1580601-of-53228245-2.97pct-synretrans-1533916-failed-414521-pruned-227", limitFlattenedBlock},
		{"flattened 7189-cn-netstat-notes-hadoop-datanode-centos7-netstat-s-pruned-39253-collapsed-310496-backlogdrop-9219-listen-overflowed-16182-retrans-0.68pct", limitFlattenedBlock},
		{"flattened 7197-linux-mm-netdev-2011-dumazet-slub-vs-slab-tg3-udp-softirq-cpu0-perf-slab-alloc-13.13pct-drops-skbuff-head-cache-slub-stats-alloc-slab-2831313", limitFlattenedBlock},
	} {
		formsKnownLimits[p.key] = p.why
	}
}
