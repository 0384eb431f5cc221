package main

// Round 56: losses under a form that are limits of the form, each with its reason
// (limitFlattenedBlock is forms_test.go's).
func init() {
	for _, p := range []struct{ key, why string }{
		{"flattened 5196-dubbo-5168-2019-zh-netty3-default-backlog-50-ss-lnt-listen-0-50-port-20880-netstat-s-listen-queue-overflowed-3220", limitFlattenedBlock},
		{"flattened 5199-openzfs-4925-2016-slabinfo-slab-allocator-zfs-caches-arc-buf-hdr-l2only-116m-objs-3.7m-slabs-dnode-znode-dmu-buf-tens-of-gb-cut", limitFlattenedBlock},
		{"flattened 5225-linux-mm-2009-zolnierkiewicz-2.6.31-rc6-i686-512mb-ipw2200-firmware-restart-order6-0x8020-dma-coherent-normal-one-256k-block-regression", limitFlattenedBlock},
		{"prose-around 5168-osm-fr-infrastructure-138-2019-fr-osm25-bzh202-tile-vm-oom-nearly-every-night-1h10-matomo-log-analysis-active-3gb-drop-after-reboot-prose", limitStoryInTitle},
		{"shell-prompt 5168-osm-fr-infrastructure-138-2019-fr-osm25-bzh202-tile-vm-oom-nearly-every-night-1h10-matomo-log-analysis-active-3gb-drop-after-reboot-prose", limitStoryInTitle},
		{"shell-prompt-root 5168-osm-fr-infrastructure-138-2019-fr-osm25-bzh202-tile-vm-oom-nearly-every-night-1h10-matomo-log-analysis-active-3gb-drop-after-reboot-prose", limitStoryInTitle},
		{"kubectl-prefix 5170-unisbadri-id-case-study-4gb-ram-php-fpm-20-children-memory-limit-2gb-little-swap-oom-killer-kills-php-at-3gb-prose", limitStoryInTitle},
		{"stern 5170-unisbadri-id-case-study-4gb-ram-php-fpm-20-children-memory-limit-2gb-little-swap-oom-killer-kills-php-at-3gb-prose", limitStoryInTitle},
		{"shell-prompt 5170-unisbadri-id-case-study-4gb-ram-php-fpm-20-children-memory-limit-2gb-little-swap-oom-killer-kills-php-at-3gb-prose", limitStoryInTitle},
		{"shell-prompt-root 5170-unisbadri-id-case-study-4gb-ram-php-fpm-20-children-memory-limit-2gb-little-swap-oom-killer-kills-php-at-3gb-prose", limitStoryInTitle},
	} {
		formsKnownLimits[p.key] = p.why
	}
}

const limitStoryInTitle = "a prose-only post whose one English statement of the OOM kill is its heading ('osm25/bzh202 : oom quasi toutes les nuits', 'Ketika OOM Killer Membunuh PHP'; the body says it in French or Indonesian, which is not read): a line put above the heading (prose around), or a program's prefix put before every line (a shell prompt's command, kubectl's or stern's pod name), makes it a line inside the text or a program's output, no longer the author's title"
