package main

// Round 38: a loss of a g166 case under a form that is a limit of the form.
func init() {
	// ECS's stopped reason "OutOfMemoryError: Container killed due to memory usage" is read
	// as the console's own line (a code block's line, or a line alone); joined onto one line
	// with the question around it, the notice sits inside prose ("at the task page, I get:
	// ... What can I change"), where the same words quote a notice rather than show one.
	formsKnownLimits["flattened 3609-copilot-cli-3470-2022-ecs-outofmemoryerror-exit-137-task-memory-512"] = limitFlattenedBlock
}
