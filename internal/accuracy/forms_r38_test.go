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
