package main

// Round 63: losses under a form that are limits of the form, each with its reason (19, three
// new kinds; the pagetypeinfo-under-marks kind went in round 66, when fix71e read its case).
const (
	limitOOMDumpDetached       = "an OOM report whose lines lose their dmesg stamps under the form (journal records, 'kernel: ' with the stamp dropped): the stack's raw words ('0000000000000000 ffff88013114fb88 ...') end the report before its show_mem dump, which is then read as a dump of its own; the OOM kill keeps its verdict, but the dump's zones are no longer the report's, so fix68i (fragmentation at the OOM's own order) has nothing to judge"
	limitOOMHeaderNoCommInCode = "2.6.11's OOM header without a comm ('oom-killer: gfp_mask=0xd0') after its dump, every line in inline code: under the form the reports are read and the OOM kill keeps its verdict, but the lowmem-only request is not tied to the dump's zones (alloc-fail-lowmem lost); the step that loses it was not isolated this session"
)

func init() {
	for _, p := range []struct{ key, why string }{
		{"flattened 6514-cgroups-2020-premont-5.9.9-64gb-memory-low-thrashing-two-snapshots-psi-system-full-27-websrv-some-89-events-low-5399469-reclaimable-inode-slab-30g", limitFlattenedBlock},
		{"flattened 6781-lkml-2004-larroy-2.6.5-rc1-mm1-1gb-active-968528kb-mapped-18684-cached-88928-pswpin-5248766-pgscan-direct-leak-sysrq-m-normal-free-2552", limitFlattenedBlock},
		{"flattened 6872-linux-mm-2018-catovic-caching-useless-quoted-babka-pagetypeinfo-wrapped-reclaimable-blocks-15659-slab-ext4-inode-3107754-dentry-7328181", limitFlattenedBlock},
		{"flattened 6907-nano-node-966-2018-rai-node-1gb-vm-mem-info-dma32-free-44244-below-min-44300-anon-862968kb-no-normal-zone", limitFlattenedBlock},
		{"flattened 6940-github-zh-nfm-deepflow-notes-ena-ethtool-allowance-bw-in-481-pps-105", limitFlattenedBlock},
		{"flattened 6942-github-zh-notes-vmxnet3-ens192-ifconfig-rx-dropped-23234217-unknown-protocol-softnet-clean", limitFlattenedBlock},
		{"flattened 6943-alauda-kb-vmxnet3-ethtool-s-pkts-rx-oob-632-tx-ring-full-88209", limitFlattenedBlock},
		{"flattened 6995-linux-mm-2008-akpm-reply-kosaki-quicklist-meminfo-ia64-7.5gb-sunreclaim-1571968-of-7701504-quicklists-283776-hugepagesize-262144", limitFlattenedBlock},
		{"double-spaced 6756-linux-mm-2017-gavrilov-fc27-4.13.8-debug-31g-chrome-allocation-stall-11542ms-normal-free-62380-eq-min-swap-21g-quoted-printable", limitLayoutOfQPSource},
		{"double-spaced-quoted 6756-linux-mm-2017-gavrilov-fc27-4.13.8-debug-31g-chrome-allocation-stall-11542ms-normal-free-62380-eq-min-swap-21g-quoted-printable", limitLayoutOfQPSource},
		{"gutter-bar 6756-linux-mm-2017-gavrilov-fc27-4.13.8-debug-31g-chrome-allocation-stall-11542ms-normal-free-62380-eq-min-swap-21g-quoted-printable", limitPrefixOnQPSource},
		{"double-spaced 6865-netdev-2023-kumlien-rx-udp-gro-forwarding-bridge-router-qp-nstat-udp6rcvbuferrors-1248-of-6537-uptime-comma-load", limitLayoutOfQPSource},
		{"gutter-zero-colon 6865-netdev-2023-kumlien-rx-udp-gro-forwarding-bridge-router-qp-nstat-udp6rcvbuferrors-1248-of-6537-uptime-comma-load", limitPrefixOnQPSource},
		{"journal-json-sse 6832-linux-mm-2016-senozhatsky-4.5-rc6-next-oom-rework-coretemp-sensor-order2-dma32-normal-only-order0-1-free-swap-8g-unused-firefox-killed", limitOOMDumpDetached},
		{"journal-export 6832-linux-mm-2016-senozhatsky-4.5-rc6-next-oom-rework-coretemp-sensor-order2-dma32-normal-only-order0-1-free-swap-8g-unused-firefox-killed", limitOOMDumpDetached},
		{"kernel-tag 6832-linux-mm-2016-senozhatsky-4.5-rc6-next-oom-rework-coretemp-sensor-order2-dma32-normal-only-order0-1-free-swap-8g-unused-firefox-killed", limitOOMDumpDetached},
		{"journal-export 6833-linux-mm-2016-handa-4.5-rc2-next-vmware-2gb-no-swap-genxref-smbd-order2-oom-dma32-only-order0-1-slab-reclaimable-107536", limitOOMDumpDetached},
		{"inline-code-indented 6748-lkml-2005-2.6.11-rc4-i386-2g-nfs-server-slab-220221-pages-lowmem-normal-all-unreclaimable-oom-exim-terad-overcommit-2", limitOOMHeaderNoCommInCode},
	} {
		formsKnownLimits[p.key] = p.why
	}
}
