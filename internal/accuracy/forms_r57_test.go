package main

// Round 57: losses under a form that are limits of the form, each with its reason
// (limitFlattenedBlock is forms_test.go's, limitStoryInTitle forms_r56_test.go's: 5235's and 5236's
// out-of-memory is stated only in their headings, '[mgLRU] Early OOM and double kill', 'OOM
// killer on RPiOS Trixie').
func init() {
	for _, p := range []struct{ key, why string }{
		{"flattened 5353-github-ma-xd-os-lite-ru-lab5-report-3924mib-vm-swap-1710-full-bash-global-oom-killed-x3-rewrapped-fields-kswapd0-94pct-top-comma-decimals", limitFlattenedBlock},
		{"flattened 5359-github-e1turin-itmo-os-ru-lab5-stress-ng-report-multipass-2gb-sar-r-kbcommit-table-pipeherd-8-478pct-commit-dccp-lo-mbit-table-perf-cycles", limitFlattenedBlock},
		{"flattened 5406-alibabacloud-kb-ecs-tcp-socket-buffer-overrun-netstat-s-grep-pruned-1617-tcp-rmem-4096-87380-4194304-example-output-cut", limitFlattenedBlock},
		{"flattened 5414-cnblogs-tiantao36-zh-buddyinfo-analysis-markdown-table-2-nodes-node0-normal-no-order3-plus-node1-normal-4.1gb-free-none-above-order4-dma32-ok", limitFlattenedBlock},
		{"chat-bracket-nick 5414-cnblogs-tiantao36-zh-buddyinfo-analysis-markdown-table-2-nodes-node0-normal-no-order3-plus-node1-normal-4.1gb-free-none-above-order4-dma32-ok", limitPrefixedMarkdownTable},
		{"irc-log 5414-cnblogs-tiantao36-zh-buddyinfo-analysis-markdown-table-2-nodes-node0-normal-no-order3-plus-node1-normal-4.1gb-free-none-above-order4-dma32-ok", limitPrefixedMarkdownTable},
		{"compose-logs 5414-cnblogs-tiantao36-zh-buddyinfo-analysis-markdown-table-2-nodes-node0-normal-no-order3-plus-node1-normal-4.1gb-free-none-above-order4-dma32-ok", limitPrefixedMarkdownTable},
		{"details-summary 5235-zen-kernel-225-2021-5.12.19-zen2-mglru-early-oom-double-kill-python3-firefox-esr-free-m-9782mb-swap-19565mb-zram0-432896-used-prose", limitStoryInTitle},
		{"details-summary 5236-rpi-7085-2025-rpios-trixie-arm64-numa-emulation-oom-zone-dump-node3-dma-free-35232kb-at-boosted-min-34704kb-nodes-4-5-free-770-900mb-cut", limitStoryInTitle},
		{"flattened 5236-rpi-7085-2025-rpios-trixie-arm64-numa-emulation-oom-zone-dump-node3-dma-free-35232kb-at-boosted-min-34704kb-nodes-4-5-free-770-900mb-cut", limitStoryInTitle},
		{"shell-prompt-root 5236-rpi-7085-2025-rpios-trixie-arm64-numa-emulation-oom-zone-dump-node3-dma-free-35232kb-at-boosted-min-34704kb-nodes-4-5-free-770-900mb-cut", limitStoryInTitle},
		{"flattened 5303-rocketmq-notes-zh-2019-broker-commitlog-warmup-mlock-1g-sar-b-pgscand-6828-vs-pgscank-3186-vmeff-60-direct-reclaim", limitFlattenedBlock},
	} {
		formsKnownLimits[p.key] = p.why
	}
}

const limitPrefixedMarkdownTable = "a Markdown table's rows (buddyinfo's, '| Node 0, Normal | 37822 | ... |') each behind a chat's, an IRC log's or a log multiplexer's prefix: those prefixes come off only before lines a reader knows by their start (a stamp, a kernel message, a tool's header), and a table's '|' border is none of them, so the rows stay the chat's words"
