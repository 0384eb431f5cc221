package main

// Rounds 52 and 53: losses of new cases under a form that are limits of the form, each
// with its reason (the constants below; limitFlattenedBlock is forms_test.go's).
func init() {
	for _, p := range []struct{ key, why string }{
		{"flattened 4726-poweredgware-netty-notes-zh-2020-4gb-vm-tcp-mem-max-1572864-pages-6gib-syn-recv-348-accept-queue-129-of-128-free-m-3771", limitFlattenedStatedRecvQ},
		{"flattened 4729-quick-infra-blog-ja-recv-q-piled-up-established-sockets-exhausted-somaxconn-1024-syn-backlog-2048-prose", limitFlattenedStatedRecvQ},
		{"flattened 4743-pastebin-mgcwcajj-ifconfig-docker-host-eno1-rx-dropped-2206-of-38177-5.8pct-br0-down-veth-cut", limitFlattenedBlock},
		{"flattened 4772-pastebin-btjn5j7y-ppc32-2.6-gianfar-ifconfig-order5-mode-0xd0-oom-killer-dma-free-2000kb-below-min-2048kb-slab-42808", limitFlattenedBlock},
		{"bbcode 4780-pastebin-8xy9hkva-2018-arch-linux-arm-oom-normal-free-138912kb-free-cma-106412kb-min-32768-all-unreclaimable", limitPastebinPageTitle},
		{"bullets 4780-pastebin-8xy9hkva-2018-arch-linux-arm-oom-normal-free-138912kb-free-cma-106412kb-min-32768-all-unreclaimable", limitPastebinPageTitle},
		{"bullets-star 4780-pastebin-8xy9hkva-2018-arch-linux-arm-oom-normal-free-138912kb-free-cma-106412kb-min-32768-all-unreclaimable", limitPastebinPageTitle},
		{"code-caption 4780-pastebin-8xy9hkva-2018-arch-linux-arm-oom-normal-free-138912kb-free-cma-106412kb-min-32768-all-unreclaimable", limitPastebinPageTitle},
		{"code-fence 4780-pastebin-8xy9hkva-2018-arch-linux-arm-oom-normal-free-138912kb-free-cma-106412kb-min-32768-all-unreclaimable", limitPastebinPageTitle},
		{"compose-logs 4780-pastebin-8xy9hkva-2018-arch-linux-arm-oom-normal-free-138912kb-free-cma-106412kb-min-32768-all-unreclaimable", limitPastebinPageTitle},
		{"cri-prefix 4780-pastebin-8xy9hkva-2018-arch-linux-arm-oom-normal-free-138912kb-free-cma-106412kb-min-32768-all-unreclaimable", limitPastebinPageTitle},
		{"double-spaced-quoted 4780-pastebin-8xy9hkva-2018-arch-linux-arm-oom-normal-free-138912kb-free-cma-106412kb-min-32768-all-unreclaimable", limitPastebinPageTitle},
		{"flattened 4780-pastebin-8xy9hkva-2018-arch-linux-arm-oom-normal-free-138912kb-free-cma-106412kb-min-32768-all-unreclaimable", limitPastebinPageTitle},
		{"html-br 4780-pastebin-8xy9hkva-2018-arch-linux-arm-oom-normal-free-138912kb-free-cma-106412kb-min-32768-all-unreclaimable", limitPastebinPageTitle},
		{"irc-log 4780-pastebin-8xy9hkva-2018-arch-linux-arm-oom-normal-free-138912kb-free-cma-106412kb-min-32768-all-unreclaimable", limitPastebinPageTitle},
		{"jira-code 4780-pastebin-8xy9hkva-2018-arch-linux-arm-oom-normal-free-138912kb-free-cma-106412kb-min-32768-all-unreclaimable", limitPastebinPageTitle},
		{"stern 4780-pastebin-8xy9hkva-2018-arch-linux-arm-oom-normal-free-138912kb-free-cma-106412kb-min-32768-all-unreclaimable", limitPastebinPageTitle},
		{"flattened 4783-pastebin-m93aq1c0-256mb-lowmem-only-meminfo-memfree-8600-swap-65532-free-23148-committed-as-1557668", limitFlattenedBlock},
		{"flattened 4788-pastebin-1radxysa-fc29-5.0.16-atop-vmcom-13.4g-vmlim-5.8g-swout-23834-vmstat-so-1390", limitFlattenedBlock},
		{"flattened 4796-lkml-2005-patrick-oom-killer-gfp-0xd0-0x1d2-rsync-silc-normal-3704-min-3756-wrapped-zone-lines", limitFlattenedBlock},
		{"double-spaced-quoted 4798-lkml-2000-kolev-2.4.0test10-celeron-192mb-ircd-520-conns-too-many-orphans-tcp-mem-raised-2-order-alloc-failed-prose", limitOwnSubject},
		{"flattened 4798-lkml-2000-kolev-2.4.0test10-celeron-192mb-ircd-520-conns-too-many-orphans-tcp-mem-raised-2-order-alloc-failed-prose", limitOwnSubject},
		{"quote-mail 4798-lkml-2000-kolev-2.4.0test10-celeron-192mb-ircd-520-conns-too-many-orphans-tcp-mem-raised-2-order-alloc-failed-prose", limitOwnSubject},
		{"quote-mail-2 4798-lkml-2000-kolev-2.4.0test10-celeron-192mb-ircd-520-conns-too-many-orphans-tcp-mem-raised-2-order-alloc-failed-prose", limitOwnSubject},
		{"quote-mail-trimmed 4798-lkml-2000-kolev-2.4.0test10-celeron-192mb-ircd-520-conns-too-many-orphans-tcp-mem-raised-2-order-alloc-failed-prose", limitOwnSubject},
		{"inline-code-indented 4801-lkml-2005-sanders-logwatch-sorted-1-times-oom-killer-gfp-0x1d2-256mb-noswap-normal-1000-min-476-active-186988", limitLogwatchCountBehindCode},
		{"flattened 4802-lkml-2001-poplawski-2.4-0-order-allocation-failed-gfp-0x1d2-vm-killing-sendmail-free-1788-cached-305596-quoted-free", limitFlattenedBlock},
		{"flattened 4812-linux-mm-2002-hartner-ibm-volanomark-loopback-8way-3gb-2.5.26-2.5.35-swapio-table-5532-order0-0x50-failures", limitFlattenedBlock},
		{"flattened 4859-pastebin-qymdsqls-kubectl-describe-node-warning-systemoom-x21-over-26m-memory-requests-86pct", limitFlattenedBlock},
		{"inline-code-indented 4859-pastebin-qymdsqls-kubectl-describe-node-warning-systemoom-x21-over-26m-memory-requests-86pct", limitMarkerInsideCode},
		{"flattened 4866-pastebin-hgp6mvqh-openvz-manius-beancounters-tcpsndbuf-failcnt-1038612755-oomguarpages-34-privvmpages-1", limitFlattenedBlock},
		{"flattened 4867-pastebin-gqmqf0np-openvz-km32238-beancounters-privvmpages-failcnt-58430-maxheld-53395-lockedpages-2", limitFlattenedBlock},
		{"cri-prefix 4868-pastebin-drxl8xqd-2011-openvz-beancounters-uid-100-privvmpages-failcnt-363565-maxheld-1045032-numiptent-421-numbered", limitGutterBehindOtherPrefix},
		{"flattened 4868-pastebin-drxl8xqd-2011-openvz-beancounters-uid-100-privvmpages-failcnt-363565-maxheld-1045032-numiptent-421-numbered", limitFlattenedBlock},
		{"gutter-bar 4868-pastebin-drxl8xqd-2011-openvz-beancounters-uid-100-privvmpages-failcnt-363565-maxheld-1045032-numiptent-421-numbered", limitGutterBehindOtherPrefix},
		{"inline-code-indented 4868-pastebin-drxl8xqd-2011-openvz-beancounters-uid-100-privvmpages-failcnt-363565-maxheld-1045032-numiptent-421-numbered", limitGutterBehindOtherPrefix},
		{"nbsp-runs 4868-pastebin-drxl8xqd-2011-openvz-beancounters-uid-100-privvmpages-failcnt-363565-maxheld-1045032-numiptent-421-numbered", limitGutterBehindOtherPrefix},
		{"stern 4868-pastebin-drxl8xqd-2011-openvz-beancounters-uid-100-privvmpages-failcnt-363565-maxheld-1045032-numiptent-421-numbered", limitGutterBehindOtherPrefix},
		{"quote-bar 4869-gist-ewingson-2022-openvz7-beancounters-uid-160267-physpages-failcnt-313-at-524288-oomguarpages-4", limitQuoteBarOnTableResidue},
		{"chat-bracket-nick 4873-pastebin-smey1fwz-2018-centos-openvz-beancounters-aligned-numbered-privvmpages-failcnt-1-maxheld-130907-of-131072-cut", limitGutterBehindOtherPrefix},
		{"compose-logs 4873-pastebin-smey1fwz-2018-centos-openvz-beancounters-aligned-numbered-privvmpages-failcnt-1-maxheld-130907-of-131072-cut", limitGutterBehindOtherPrefix},
		{"cri-prefix 4873-pastebin-smey1fwz-2018-centos-openvz-beancounters-aligned-numbered-privvmpages-failcnt-1-maxheld-130907-of-131072-cut", limitGutterBehindOtherPrefix},
		{"kubectl-prefix 4873-pastebin-smey1fwz-2018-centos-openvz-beancounters-aligned-numbered-privvmpages-failcnt-1-maxheld-130907-of-131072-cut", limitGutterBehindOtherPrefix},
		{"nbsp-runs 4873-pastebin-smey1fwz-2018-centos-openvz-beancounters-aligned-numbered-privvmpages-failcnt-1-maxheld-130907-of-131072-cut", limitGutterBehindOtherPrefix},
		{"spaces-to-tabs 4873-pastebin-smey1fwz-2018-centos-openvz-beancounters-aligned-numbered-privvmpages-failcnt-1-maxheld-130907-of-131072-cut", limitGutterBehindOtherPrefix},
	} {
		formsKnownLimits[p.key] = p.why
	}
}

const (
	limitPastebinPageTitle       = "the case's OOM is named by the title of a paste site's page copied whole (author, title, date, then 'text N KB | ...'; artifact/pastebinheader.go reads the title at the header's place): a form that fences, bullets, prefixes, quotes or flattens the page moves the header off the text's first lines or makes it output, and the title is no longer read as the page's"
	limitOwnSubject              = "2.4's '__alloc_pages: N-order allocation failed.' is named only in the mail's own Subject, which the body points back to ('This error ($subj) started appearing'; fix57c): quoted as a reply, or flattened, the Subject is the quoted mail's line or inside the body's one line, and the back-reference no longer finds the mail's own Subject"
	limitFlattenedStatedRecvQ    = "a listener's Recv-Q told full in a sentence is judged within its own line, so that a condition, a question or a guide's figures elsewhere in the post do not become the host's (statedListenRecvQ, fix57a): joined onto one line, the post's conditions and questions share the statement's line"
	limitLogwatchCountBehindCode = "logwatch's count ('1 Time(s): ...') is taken at a line's start (stripLogWrappers, fix57c); inline code behind an indent leaves the count inside the code span, so the sorted OOM report's lines stay counted prose"
	limitMarkerInsideCode        = "kubectl describe node pasted as a bulleted list, then each line made inline code behind an indent: the list marker sits inside the code span ('    `- Warning SystemOOM ...`'), where markers are not taken, so the Events table's rows are not read"
	limitGutterBehindOtherPrefix = "a paste site's page whose rows carry its line-number gutter ('  4. 100: kmemsize ...'): the gutter is taken at a line's start or behind quoting, a bar, a backtick or a list marker (stripPrefixedGutters); behind a container runtime's, a log multiplexer's or a chat's prefix, or with its blanks turned into tabs or U+00A0 runs, it is not told apart, and the numbers stay before the beancounters rows"
	limitQuoteBarOnTableResidue  = "a page's copy whose lines end in a Markdown table's residue (' | |'): a quote bar in front makes each line a table row, whose cells are not the beancounters rows"
)
