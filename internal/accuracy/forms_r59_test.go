package main

// Round 59: losses under a form that are limits of the form, each with its reason (15; the
// limit constants are forms_test.go's and the earlier rounds'; two are new).
func init() {
	for _, p := range []struct{ key, why string }{
		{"flattened 5822-peppelinux-unitools-it-servertuning-consigli-fin-timeout-60-port-range-470-socket-s-somaxconn-128-template-tcp-tw-recycle-1-sack-0", limitFlattenedBlock},
		{"flattened 5824-siddontang-blog-zh-2014-libtnet-comet-1m-conns-sockstat-tcp-inuse-1017147-mem-404824-tcp-mem-max-3145728-on-16g-tw-recycle", limitFlattenedBlock},
		{"wrap-log-72 5942-linux-btrfs-2023-fio-randwrite-btrfs-extent-map-slab-3688660k-unreclaimable-3207098kb-of-8gb-ip-order3-oom-5.15-6.6", limitWrappedLogWidth},
		{"flattened 5942-linux-btrfs-2023-fio-randwrite-btrfs-extent-map-slab-3688660k-unreclaimable-3207098kb-of-8gb-ip-order3-oom-5.15-6.6", limitFlattenedBlock},
		{"zero-width 5943-linux-btrfs-2023-bees-6.3.1-vmalloc-error-page-order-9-size-14680064-logical-to-ino-normal-free-605704-no-2m-blocks-wrapped-syslog", limitZeroWidthWrappedLog},
		{"syslog-dots 5953-io-uring-2023-syzkaller-5.10.179-io-uring-enter-poc-slab-unreclaimable-279862-pages-oom-kill-dhclient-panic-deadlocked", limitCallerIDRestamped},
		{"journal-short-precise 5953-io-uring-2023-syzkaller-5.10.179-io-uring-enter-poc-slab-unreclaimable-279862-pages-oom-kill-dhclient-panic-deadlocked", limitCallerIDRestamped},
		{"journal-short-delta 5953-io-uring-2023-syzkaller-5.10.179-io-uring-enter-poc-slab-unreclaimable-279862-pages-oom-kill-dhclient-panic-deadlocked", limitCallerIDRestamped},
		{"kernel-tag-bare-stamp 5953-io-uring-2023-syzkaller-5.10.179-io-uring-enter-poc-slab-unreclaimable-279862-pages-oom-kill-dhclient-panic-deadlocked", limitCallerIDRestamped},
		{"dmesg-ctime 5953-io-uring-2023-syzkaller-5.10.179-io-uring-enter-poc-slab-unreclaimable-279862-pages-oom-kill-dhclient-panic-deadlocked", limitCallerIDRestamped},
		{"kernel-tag 5953-io-uring-2023-syzkaller-5.10.179-io-uring-enter-poc-slab-unreclaimable-279862-pages-oom-kill-dhclient-panic-deadlocked", limitCallerIDRestamped},
		{"flattened 5954-cgroups-linux-mm-2019-priebe-4.19.52-16gb-apache-php-cache-drops-memavailable-5g-psi-vmstat-compact-fail-182420-of-205761-pgscan-direct-395327492-thp", limitFlattenedBlock},
		{"flattened 5982-openzfs-3155-2015-vpsfree-node10-slabtop-59.5g-dnode-t-16.4g-zio-buf-dentry-3.3g-size-8192-4.8g", limitFlattenedBlock},
		{"flattened 5997-slskd-1800-2026-listener-wedged-ss-ltn-listen-recv-q-4097-send-q-4096-accept-queue-pegged-at-somaxconn-syns-dropped", limitFlattenedBlock},
		{"flattened 5795-bpftrace-swapin-example-2019-desktop-chrome-10809-gnome-shell-12410-swapins-per-second-heavy-swap-in", limitFlattenedBlock},
	} {
		formsKnownLimits[p.key] = p.why
	}
}

const (
	limitZeroWidthWrappedLog = "a syslog a mail wrapped (its pieces rejoined by the kernel lines' width, unwrap.go): a zero-width space after every ':' and '=' changes each line's length, so the inferred width no longer fits and the wrapped buddy lists and failure header stay cut"
	limitCallerIDRestamped   = "dmesg stamps with printk's caller id ('[  244.980840][ T9068]'): the form replaces the first bracket and leaves '[ T9068]' at the message's start, where no syslog or journal record has it (/dev/kmsg carries no caller id), so the Mem-Info's continuation lines behind it are not read and the report's slab figure is lost"
)
