package main

// Rounds 54 and 55: losses under a form that are limits of the form, each with its reason
// (the constants below; limitFlattenedBlock is forms_test.go's, limitGutterBehindOtherPrefix
// forms_r52_test.go's).
func init() {
	for _, p := range []struct{ key, why string }{
		{"compose-logs 4983-pastebin-2ewqub7y-2017-aws-xen-hvm-4.10.0-27-java-memcg-oom-pagefault-out-of-memory-cut", limitGutterBehindOtherPrefix},
		{"compose-logs 5088-pastebin-uycwwmah-2016-free-h-7.7g-swap-1.0g-full-0b-before-freeze-available-1.2g", limitGutterBehindOtherPrefix},
		{"cut-last-line 530-qubes-1520-sys-net-free-m-261mb-4-free-136-available-swap-57-healthy", limitRefutingRowLost},
		{"flattened 4509-cilium-packer-ci-build-74-2018-pr-disable-swappiness-top-line-kswapd0-18.8pct-healthy", limitRefutingRowLost},
		{"flattened 4960-linux-mm-2010-kirby-2.6.36-4gb-bnx2-order3-atomic-skb-kswapd-wakeups-buddyinfo-series-pgscan-kswapd-normal-34.6g", limitFlattenedBlock},
		{"flattened 4981-syspanic-ena-traffic-shaping-pps-allowance-exceeded-14502-bw-in-8432-bw-out-1021-illustrative", limitFlattenedBlock},
		{"flattened 5059-install-docker-14-2026-dmesg-grep-oom-kill-global-oom-java-pid-7134-docker-scope", limitFlattenedBlock},
		{"flattened 5075-pastebin-syucvtz0-vmi249273-free-8gb-used-8012888-available-43472-swap-2097148-all-used", limitFlattenedBlock},
		{"flattened 5076-pastebin-fwbn3s3c-slabtop-bio-1-32.5m-objects-10397968k-of-10.7gb-slab-btrfs-cut", limitFlattenedBlock},
		{"flattened 5086-pastebin-ymghzmyv-top-512mb-free-5756k-cached-14408k-swap-942584-of-1048572-wa-24.5", limitFlattenedBlock},
		{"flattened 5088-pastebin-uycwwmah-2016-free-h-7.7g-swap-1.0g-full-0b-before-freeze-available-1.2g", limitFlattenedBlock},
		{"flattened 5090-pastebin-2v924x47-cpanel-125g-free-h-available-80g-swap-238m-swappiness-10-spam-cut-healthy", limitRefutingRowLost},
		{"gutter-bar 5088-pastebin-uycwwmah-2016-free-h-7.7g-swap-1.0g-full-0b-before-freeze-available-1.2g", limitGutterBehindOtherPrefix},
		{"gutter-tab 4983-pastebin-2ewqub7y-2017-aws-xen-hvm-4.10.0-27-java-memcg-oom-pagefault-out-of-memory-cut", limitGutterBehindOtherPrefix},
		{"gutter-tab 5088-pastebin-uycwwmah-2016-free-h-7.7g-swap-1.0g-full-0b-before-freeze-available-1.2g", limitGutterBehindOtherPrefix},
		{"gutter-zero-colon 4983-pastebin-2ewqub7y-2017-aws-xen-hvm-4.10.0-27-java-memcg-oom-pagefault-out-of-memory-cut", limitGutterBehindOtherPrefix},
		{"gutter-zero-colon 5088-pastebin-uycwwmah-2016-free-h-7.7g-swap-1.0g-full-0b-before-freeze-available-1.2g", limitGutterBehindOtherPrefix},
		{"heading-first 4936-pastebin-v0ub0hcx-el6-master-nf-conntrack-table-full-once-then-yum-updates", limitOnlyRecordMadeHeading},
		{"indent-4 5075-pastebin-syucvtz0-vmi249273-free-8gb-used-8012888-available-43472-swap-2097148-all-used", limitPasteListInsideIndent},
		{"indent-4 5086-pastebin-ymghzmyv-top-512mb-free-5756k-cached-14408k-swap-942584-of-1048572-wa-24.5", limitPasteListInsideIndent},
		{"indent-4 5087-pastebin-rgbt4sv2-hand-typed-top-6gb-free-37388k-cached-43652k-swap-6911328-used-wa-47.3", limitPasteListInsideIndent},
		{"inline-code-indented 5075-pastebin-syucvtz0-vmi249273-free-8gb-used-8012888-available-43472-swap-2097148-all-used", limitPasteListInsideIndent},
		{"inline-code-indented 5086-pastebin-ymghzmyv-top-512mb-free-5756k-cached-14408k-swap-942584-of-1048572-wa-24.5", limitPasteListInsideIndent},
		{"inline-code-indented 5087-pastebin-rgbt4sv2-hand-typed-top-6gb-free-37388k-cached-43652k-swap-6911328-used-wa-47.3", limitPasteListInsideIndent},
		{"inline-code-indented 5088-pastebin-uycwwmah-2016-free-h-7.7g-swap-1.0g-full-0b-before-freeze-available-1.2g", limitPasteListInsideIndent},
		{"kubectl-prefix 4983-pastebin-2ewqub7y-2017-aws-xen-hvm-4.10.0-27-java-memcg-oom-pagefault-out-of-memory-cut", limitGutterBehindOtherPrefix},
		{"kubectl-prefix 5088-pastebin-uycwwmah-2016-free-h-7.7g-swap-1.0g-full-0b-before-freeze-available-1.2g", limitGutterBehindOtherPrefix},
		{"stern 4983-pastebin-2ewqub7y-2017-aws-xen-hvm-4.10.0-27-java-memcg-oom-pagefault-out-of-memory-cut", limitGutterBehindOtherPrefix},
		{"wrap-prose-72 4952-datahub-5246-2023-berkeley-bump-ingress-nginx-hoping-to-fix-tcp-out-of-memory-one-line-prose", limitWrappedOwnedMessage},
		{"wrap-prose-80 4952-datahub-5246-2023-berkeley-bump-ingress-nginx-hoping-to-fix-tcp-out-of-memory-one-line-prose", limitWrappedOwnedMessage},
	} {
		formsKnownLimits[p.key] = p.why
	}
}

const (
	limitRefutingRowLost       = "the author says the host swaps, or that kswapd takes the CPU, and the paste's own snapshot refutes it (free's Swap row under half used with memory available, statedSwapRefuted, fix60b; top's kswapd0 row at 18.8%): flattened, or with its last row cut, the snapshot is not read whole and the statement stands alone; the finding is a 'may' or the case's own false reading, never a must"
	limitOnlyRecordMadeHeading = "the paste's one kernel record is its first line ('- May 15 ... kernel: ... nf_conntrack: table full' behind a paste site's list gutter): a form that makes the first line a heading turns that record into a title, which is not read as the log"
	limitWrappedOwnedMessage   = "a kernel message quoted after 'our' and before a problem word ('our `TCP: out of memory -- consider tuning tcp_mem` issue') is read within its line (messageOwned, fix59b): prose wrapped at 72 or 80 columns splits the quotation from its owner or its problem word"
	limitPasteListInsideIndent = "a paste site's copy whose rows carry its '- ' list gutter (or '  N. ' numbers), then indented as a code block: the gutter is taken at a line's start or behind quoting, never behind an indent that makes the lines code, so free's and top's headers stay behind their markers and the snapshot is not read"
)
