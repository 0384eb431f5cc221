package main

// Round 64: losses under a form that are limits of the form, each with its reason (10; one
// new kind).
const (
	limitLiteralsUnderForm = "kernel records held as string literals in code (a Go test's []string of /dev/kmsg records) behind a second form that unquoteLiteralLines does not strip first: HTML escaping (&quot;), a container runtime's or kubectl's line prefix, a zero-padded gutter, an HTML <pre>; the literals are read under mail quoting, a bar, inline code and CRLF, and the records under these forms alone, but not a wrapping of a wrapping"
)

func init() {
	for _, p := range []struct{ key, why string }{
		{"html-escaped 7103-github-sapcc-kubernetes-oomkill-exporter-main-test-go-raw-kmsg-records-two-memcg-oom-kills-prometheus-conf-and-stress-in-burstable-pods", limitLiteralsUnderForm},
		{"cri-prefix 7103-github-sapcc-kubernetes-oomkill-exporter-main-test-go-raw-kmsg-records-two-memcg-oom-kills-prometheus-conf-and-stress-in-burstable-pods", limitLiteralsUnderForm},
		{"kubectl-prefix 7103-github-sapcc-kubernetes-oomkill-exporter-main-test-go-raw-kmsg-records-two-memcg-oom-kills-prometheus-conf-and-stress-in-burstable-pods", limitLiteralsUnderForm},
		{"gutter-zero-colon 7103-github-sapcc-kubernetes-oomkill-exporter-main-test-go-raw-kmsg-records-two-memcg-oom-kills-prometheus-conf-and-stress-in-burstable-pods", limitLiteralsUnderForm},
		{"html-pre 7103-github-sapcc-kubernetes-oomkill-exporter-main-test-go-raw-kmsg-records-two-memcg-oom-kills-prometheus-conf-and-stress-in-burstable-pods", limitLiteralsUnderForm},
		{"flattened 7137-github-hugo-blog-2023-haproxy-docker-conntrack-dmesg-T-table-full-59-and-66-suppressed-ubuntu-default-65536", limitFlattenedBlock},
		{"flattened 7156-freifunkbremen-ansible-33-2015-vpn-gateway-nf-conntrack-table-full-floods-default-about-32000-raised-65536-vpn02-died-prose", limitFlattenedBlock},
		{"flattened 7206-linuxppc-dev-2024-yuzhao-reply-powermac-g4-6.9.0-stress-ng-kswapd0-order0-gfp-kernel-zswap-writeback-dma-free-56-min-11208-highmem-1.25g", limitFlattenedBlock},
		{"flattened 7214-lkml-2001-jamal-fwd-olsson-uppsala-2.4.10-napi-router-softnet-stat-9col-squeeze-124m-drops-9090-9340-ksoftirqd-74pct-tulip-94.5mbit", limitFlattenedBlock},
		{"wrap-log-72 7141-github-zh-memory-debug-guide-bianbu-riscv-3.4gb-no-swap-sysrq-m-dma32-free-1134516-normal-32544-above-high-cma-393216-buddy-pagetypeinfo-healthy", limitWrappedLogWidth},
	} {
		formsKnownLimits[p.key] = p.why
	}
}
