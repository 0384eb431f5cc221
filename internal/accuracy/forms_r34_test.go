package main

// Rounds 34 and 35 (g150–g157): losses of their cases under a form that are limits of the form.

// limitFlattenedTitleOverDump: the case's OOM is its title over the kernel's Mem-Info tail
// (fix39a titleKilledByOS, "... get killed by OS"), which is read only over the dump.
const limitFlattenedTitleOverDump = "the case's OOM is its title ('... killed by OS') over the kernel's Mem-Info tail cut above its header (titleKilledByOS reads such a title only when the text also holds the dump): joined onto one line, the tail's syslog records are no dump and the title is no line of its own, so neither is read as the other's proof"

// limitFlattenedHedgedStory: an OOM kill told in a sentence of a post whose other sentences
// hedge ("could be minutes, could be hours"); joined onto one line they are one sentence.
const limitFlattenedHedgedStory = "the case's OOM is told in one sentence of a post ('I do see in dmesg that the process was killed because the server ran out of memory'): joined onto one line, the post's other sentences ('could be minutes, could be hours', a question) share its line, and a line that hedges or asks is not read as the host's stated kill (statesOOM)"

func init() {
	const c3318 = "3318-manticore-959-2022-mem-info-tail-free-swap-0kb-of-998396kb-buddy-dma32-472588kb-normal-73832kb"
	for _, form := range []string{"bbcode", "jira-noformat"} {
		formsKnownLimits[form+" "+c3318] = limitTitleInCodeBlock
	}
	formsKnownLimits["shell-prompt "+c3318] = limitTitleUnderPrompt
	formsKnownLimits["shell-prompt-root "+c3318] = limitTitleUnderPrompt
	formsKnownLimits["details-summary "+c3318] = limitTitleInFold
	formsKnownLimits["flattened "+c3318] = limitFlattenedTitleOverDump
	formsKnownLimits["flattened 3420-photoprism-497-2020-rpi4-4gb-indexing-freezes-host-dmesg-killed-out-of-memory-prose"] = limitFlattenedHedgedStory
}
