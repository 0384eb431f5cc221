package main

// Round 51 (fix56d): losses of new cases under a form that are limits of the form.
func init() {
	// 4639 is a commit message's 'netstat -u -s' flattened onto one line by the page it came
	// from; its RcvbufErrors figure is near the line's end, and cut-last-line keeps the
	// first 60% of the last non-empty line, which is the whole text here: nothing is left.
	formsKnownLimits["cut-last-line 4639-linux-commit-a3ce2b10-2020-udp-memerrors-netstat-u-s-rcvbuferrors-20930-memerrors-137759-flattened"] = limitCutLastLine
	// 4688's page allocation failure is an unstamped kernel report (no dmesg stamp, no
	// syslog prefix) among a mail's quoted prose; on one line its Mem-Info and the CMA
	// figures are no longer told apart from the sentences (limitFlattenedBlock names
	// unstamped kernel reports).
	formsKnownLimits["flattened 4688-linux-mm-2014-aneesh-powerkvm-3.10.23-ppc64-tg3-swapper-order0-0x20-dma-all-cma-3348992kb-buffers-49gb"] = limitFlattenedBlock
	// 4664, 4666, 4667: earlyoom's journal ('Jul 27 19:13:10 invar earlyoom[1012]: sending
	// SIGTERM to process 18581 uid 1000 "steamwebhelper": badness 302, VmRSS 10 MiB') in an
	// issue's post; the whole post joined onto one line.
	for _, c := range []string{
		"4664-earlyoom-214-2020-earlyoom-1.6.1-13923mib-mem-avail-380-2.73pct-swap-758-of-16383-sigterm-steamwebhelper",
		"4666-earlyoom-321-2024-v1.7-773635mib-server-mem-avail-7.30pct-swap-0-of-2047-sigterm-cellxgene-52562mib-core-dump",
		"4667-earlyoom-309-2024-31808mib-mem-avail-2430-7.64pct-swap-free-1419-of-15903-sigterm-cluster-23964mib-then-electron",
	} {
		formsKnownLimits["flattened "+c] = limitFlattenedDaemonSyslog
	}
	// 4683 (healthy): a 2005 LKML reply under two levels of quoting ("> > killing tasks left
	// and right", "> ... processes are killed by the oom-killer"). Joined onto one line, the
	// flattened mail is cut again at its runs of quote marks (fix54c_quotedmail.go); the
	// reply's own lines have no marks to cut at, so they run on inside the last quoted piece
	// and the reply and the report it quotes sit at the same depth: nothing tells the
	// reported kill from the author's words. Quoted whole (quote-mail-2,
	// double-spaced-quoted) the lines keep their own depths and the verdict holds
	// (baseQuote, fix56d).
	// 4672: systemd-oomd's journal lines in an issue's post, joined onto one line: the same
	// limit as earlyoom's (a daemon's kill is read at a record's start, and the flattened
	// path carries no daemon kill events back).
	formsKnownLimits["flattened 4672-systemd-22032-2022-test-55-oomd-user-workload-slice-pressure-74.23pct-over-20pct-killed-testbloat-testchill-no-such-device"] = limitFlattenedDaemonSyslog
	// 4615: FreeBSD's sonewconn record quoted three deep with a writer's initials
	// ("> A> > kernel: sonewconn: ...", fix56a) and wrapped by the mail; joined onto one line,
	// the initials' quote marks sit inside the line between the record's pieces and the
	// record is no longer one span a reader can take.
	formsKnownLimits["flattened 4615-freebsd-net-2013-07-036020-oppermann-quoted-sonewconn-listen-queue-overflow-193-repeated-2413-times"] = limitFlattenedSupercite
	// 4655: a KB page broke OpenVZ's kill line after "Out of memory in UB 1234: OOM " and
	// fix56b joins the halves over the text's wrap width only where the break left its
	// trailing space; a quote that trims trailing blanks or a backslash put at every line's
	// end hides that mark, and the width alone (the page's prose runs to 120 columns) says
	// the line ended there. Tried in this round: joining without the space kept the verdict
	// under these three forms, but a unit test on an excerpt of the page did not show the
	// joined kills counted as the page's, so the change was not kept; left as the form's
	// limit until a tested fix.
	for _, form := range []string{"quote-mail-trimmed", "backslash-ends", "backslash-ends-tight"} {
		formsKnownLimits[form+" 4655-plesk-kb-123671-2014-virtuozzo-4.7-oom-killer-in-rage-16-tasks-ub-1234-php-cgi-rss-17004kb"] = limitOpenKillLineMark
	}
	formsKnownLimits["flattened 4683-lkml-2005-tosatti-reply-oom-killer-gone-nuts-x86-64-normal-free-524648-of-1031360-buddy-to-order9-healthy"] = limitFlattenedReplyDepth
}

const limitFlattenedReplyDepth = "a mail reply quoting another's report, joined onto one line: the line is cut again at its runs of quote marks (fix54c), but the reply's own unquoted lines have none, so they run on inside the last quoted piece and the report's lines and the reply's sit at one depth; the report's 'processes are killed by the oom-killer' can no longer be told from the author's statement"

const limitFlattenedDaemonSyslog = "a daemon's own syslog records (earlyoom's 'host earlyoom[1012]: sending SIGTERM to process 18581 ...') and the post around them joined onto one line: earlyoom's kill line is read at a record's start, after its syslog prefix, because a sentence that names 'sending SIGTERM to process' is prose; the line holds no dmesg stamps for flattenedLog to split at, and the flattened-command path (flattened.go) carries back a sub-parse's artifacts and samples but not a daemon's kill events, so cutting the line at its syslog stamps alone (tried in fix56d) did not bring the kill back"

const limitFlattenedSupercite = "a kernel record quoted with a writer's initials ('> A> > ', several levels) and wrapped by the mail, joined onto one line: the quote marks stay inside the line between the record's pieces, so the record is not one span any reader takes"

const limitOpenKillLineMark = "a kill line a page broke after 'OOM ' is joined to its next line over the text's wrap width only by the trailing space the break left (fix56b openKillLine); a form that trims trailing blanks or puts a backslash at each line's end removes that mark, and the page's 120-column prose says by width that the line ended there"
