package main

// Round 60: losses under a form that are limits of the form, each with its reason (14; the
// limit constants are the earlier rounds').
func init() {
	for _, p := range []struct{ key, why string }{
		{"code-fence 6181-parity-ethereum-8618-2018-parity-1.11.0-oom-mem-info-fragment-dma32-free-64804-min-64064-active-anon-3634712kb-shmem-40100-cut", limitTitleInCodeBlock},
		{"indent-4 6181-parity-ethereum-8618-2018-parity-1.11.0-oom-mem-info-fragment-dma32-free-64804-min-64064-active-anon-3634712kb-shmem-40100-cut", limitTitleInCodeBlock},
		{"prose-around 6181-parity-ethereum-8618-2018-parity-1.11.0-oom-mem-info-fragment-dma32-free-64804-min-64064-active-anon-3634712kb-shmem-40100-cut", limitTitleInCodeBlock},
		{"inline-code-indented 6181-parity-ethereum-8618-2018-parity-1.11.0-oom-mem-info-fragment-dma32-free-64804-min-64064-active-anon-3634712kb-shmem-40100-cut", limitTitleInCodeBlock},
		{"bbcode 6181-parity-ethereum-8618-2018-parity-1.11.0-oom-mem-info-fragment-dma32-free-64804-min-64064-active-anon-3634712kb-shmem-40100-cut", limitTitleInCodeBlock},
		{"jira-code 6181-parity-ethereum-8618-2018-parity-1.11.0-oom-mem-info-fragment-dma32-free-64804-min-64064-active-anon-3634712kb-shmem-40100-cut", limitTitleInCodeBlock},
		{"chat-header 6181-parity-ethereum-8618-2018-parity-1.11.0-oom-mem-info-fragment-dma32-free-64804-min-64064-active-anon-3634712kb-shmem-40100-cut", limitTitleInCodeBlock},
		{"shell-prompt-root 6181-parity-ethereum-8618-2018-parity-1.11.0-oom-mem-info-fragment-dma32-free-64804-min-64064-active-anon-3634712kb-shmem-40100-cut", limitTitleInCodeBlock},
		{"details-summary 6181-parity-ethereum-8618-2018-parity-1.11.0-oom-mem-info-fragment-dma32-free-64804-min-64064-active-anon-3634712kb-shmem-40100-cut", limitTitleInCodeBlock},
		{"smf-code-select 6181-parity-ethereum-8618-2018-parity-1.11.0-oom-mem-info-fragment-dma32-free-64804-min-64064-active-anon-3634712kb-shmem-40100-cut", limitTitleInCodeBlock},
		{"spoiler-caption 6181-parity-ethereum-8618-2018-parity-1.11.0-oom-mem-info-fragment-dma32-free-64804-min-64064-active-anon-3634712kb-shmem-40100-cut", limitTitleInCodeBlock},
		{"flattened 6229-plantegg-blog-zh-2018-network-drops-notes-netstat-sn-prune-17671-to-18671-in-30s-small-packets-rmem-no-effect", limitFlattenedBlock},
		{"wrap-log-72 6230-sn0rt-blog-zh-4g-vm-zoneinfo-pagetypeinfo-node-meminfo-sysrq-m-normal-free-20932-below-low-21008-dma32-2779228-free-healthy", limitWrappedLogWidth},
		{"wrap-log-80 6230-sn0rt-blog-zh-4g-vm-zoneinfo-pagetypeinfo-node-meminfo-sysrq-m-normal-free-20932-below-low-21008-dma32-2779228-free-healthy", limitWrappedLogWidth},
	} {
		formsKnownLimits[p.key] = p.why
	}
}
