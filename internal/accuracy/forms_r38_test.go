package main

// Round 38: a loss of a g166 case under a form that is a limit of the form.
func init() {
	// ECS's stopped reason "OutOfMemoryError: Container killed due to memory usage" is read
	// as the console's own line (a code block's line, or a line alone); joined onto one line
	// with the question around it, the notice sits inside prose ("at the task page, I get:
	// ... What can I change"), where the same words quote a notice rather than show one.
	formsKnownLimits["flattened 3609-copilot-cli-3470-2022-ecs-outofmemoryerror-exit-137-task-memory-512"] = limitFlattenedBlock
}

// Round 39: g172's Slurm cases whose only evidence is slurmstepd's line in a code block
// under the post's prose; joined onto one line, the line sits inside the prose.
func init() {
	for _, c := range []string{
		"3721-samtools-1271-2020-slurmstepd-1-oom-kill-event-step-batch-cgroup-sort-300gb-bam-128gb",
		"3722-bwa-mem2-91-2020-slurm-bigmem-300000-index-grch37-killed-1-oom-kill-event-batch-cgroup",
	} {
		formsKnownLimits["flattened "+c] = limitFlattenedSlurmInProse
	}
}

// Round 39: 3746's log lines are "> ISO-stamp<TAB>[uptime][caller] message", quoted newest
// first. With the tab turned to spaces (tabs-to-spaces, squashed-spaces) or the lines
// joined (flattened), the line reader no longer takes them for kernel log lines (an ISO
// stamp, spaces, then "[uptime][caller]", with no host and no "kernel:" tag: 13 of 18
// lines fall to other_log), so the SLUB lines below the failure are not read as a kernel
// report; only the allocation failure's own header, read wherever it stands, is.
const limitISOTabDmesgQuotedNewestFirst = "an ISO stamp, a tab and dmesg's stamp with a caller id before each kernel line, the log quoted newest first: without the tab the lines are not kernel log lines to the line reader, and the SLUB report (fix44b's headerlessSlub reads it only from kernel lines) is lost; the allocation failure's header is still read"

func init() {
	for _, form := range []string{"tabs-to-spaces", "squashed-spaces", "flattened"} {
		formsKnownLimits[form+" 3746-teamblackminer-112-2021-hiveos-5.4-kswapd0-page-allocation-failure-order0-nofs-slub-shmem-inode-cache-newest-first"] = limitISOTabDmesgQuotedNewestFirst
	}
}

// Round 41: two new cases whose verdict rests on a line told apart by its line break.
// 3864: kubelet's "System OOM encountered, victim process: git, pid: 3171" is read as an
// event row only when it ends its line (reKubeSystemOOMMessage is anchored, so a sentence
// quoting the message stays a quote); joined onto one line with the rest of the events
// table, no row ends where the message does.
// 3890: PHP's "Allowed memory size of N bytes exhausted" is read as the program's own
// limit where it opens a line, and the title's "crashing with out of memory" belongs to it;
// joined onto one line with the title and the prose, the fatal error sits inside prose and
// the title reads as the host running out (the same on main before round 41's fixes).
const limitFlattenedOwnLineTitle = "a program's own memory-limit line (PHP's 'Allowed memory size ... exhausted') that makes the title's 'crashing with out of memory' the program's is read where it opens a line; joined onto one line with the title and the prose, it no longer does, and the title reads as a stated out-of-memory of the host"

func init() {
	formsKnownLimits["flattened 3864-kind-1662-2020-describe-node-systemoom-victim-git-x4"] = limitFlattenedBlock
	formsKnownLimits["flattened 3890-wallabag-3672-2018-freebsd-pocket-import-php-allowed-memory-4294967296-exhausted-healthy"] = limitFlattenedOwnLineTitle
}
