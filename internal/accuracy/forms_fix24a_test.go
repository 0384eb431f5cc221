package main

// fix24a: losses of its own cases under a form that are limits of the form.
func init() {
	// 2140 flattened onto one line: slurmstepd's line follows "with the message:" and prose
	// follows it; on one line it is a sentence that quotes the message, which the Slurm
	// reader (anchored at the line's start, so that advice naming the message stays prose)
	// leaves as prose.
	// 2122 flattened: the same limit; its slurmstepd and srun lines follow a numbered list
	// item and prose, and on one line they are a sentence that quotes them.
	formsKnownLimits["flattened 2122-hafs-101-2021-orion-3denvar-gdas-ensemble-srun-task-4-out-of-memory-step-cgroup-oom-kill-then-bus-error"] = limitFlattenedSlurmInProse
	formsKnownLimits["flattened 2140-pybnf-118-2018-lanl-darwin-slurm-kills-batch-after-first-submissions-2-oom-kill-events-step-batch-cgroup"] = limitFlattenedSlurmInProse
}

const limitFlattenedSlurmInProse = "one of slurmstepd's lines quoted in a post, and the whole post then joined onto one line: the Slurm reader takes the message only at a line's start (after slurmstepd's or a log's prefix), because a sentence that names it ('if you see Detected 1 oom-kill event(s) ...') is advice; on one line the quotation and such a sentence are the same"
