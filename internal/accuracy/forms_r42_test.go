package main

// Round 42: a loss of a g184 case under a form that is a limit of the form.
func init() {
	// kubectl's pod state ("Container 'flow' state: terminated", "Exit Code:: 137",
	// "Reason: OOMKilled") is read as a block of indented rows; joined onto one line with
	// the Portuguese prose after it, "Reason: OOMKilled" sits inside a sentence, where the
	// same words name a reason rather than show a container's state.
	formsKnownLimits["flattened 3963-basedosdados-pipelines-215-2022-prefect-k8s-job-container-flow-oomkilled-exit-137-portuguese"] = limitFlattenedBlock
}
