package main

// Rounds 36 and 37 (g158–g165): losses of their cases under a form that are limits of the form.

// limitTitleOverOutput: the kill is stated only in the title, above a container's
// log that says nothing of memory.
const limitTitleOverOutput = "the case's kill is stated only in its title ('... (OOM Killer Triggered)') above a container's own log lines, which say nothing of memory: a form that puts the whole text in a code block, inline code, a quote, a caption or under a shell prompt makes the title a line of output, and only a text's own title is read as the reporter's statement"

func init() {
	const c3556 = "3556-umami-3988-2026-oom-killer-triggered-title-client-scanner-log"
	for _, form := range []string{"code-fence", "inline-code-lines", "inline-code-indented", "discourse-quote", "shell-prompt", "shell-prompt-root", "code-caption", "smf-code-select", "spoiler-caption"} {
		formsKnownLimits[form+" "+c3556] = limitTitleOverOutput
	}
	// free -m's columns joined onto one line with the post: Swap's used/total no longer pair.
	formsKnownLimits["flattened 3581-sabnzbd-439-2019-free-m-swap-505-of-511-used-stress-malloc-1024m-failed"] = limitFlattenedBlock
}
