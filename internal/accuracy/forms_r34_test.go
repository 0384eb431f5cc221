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
}

// limitBulletBeforeInlineCode: the kubelet's event message is pasted as inline code, and a
// bullet before the backtick leaves the code span inside a list item's text.
const limitBulletBeforeInlineCode = "the case's evidence is the kubelet's event message pasted as inline code ('`kubelet  System OOM encountered, victim process: php, pid: 27824`'): the message is read when it is the line (after a bullet too, fix39a), but a bullet before the backtick leaves the code span inside a list item, and inline code is unwrapped only at a line's start"

// limitCodeHidesTracker: a tracker title over replies only is the opener's host (fix40c),
// which needs the tracker's post lines ("NAME · comment · DATE") to be seen as such.
const limitCodeHidesTracker = "the case is healthy because its title ('MySQL uses too much memory, causing OOM') sits over replies only and is the opener's host, not the replier's (fix40c openerTitleLine, which reads the tracker's post lines): a form that puts the whole text in a code block, a quote or a fold hides the tracker's form, and the title's words then read as the text's own statement of an OOM"

// limitFlattenedRuntimeLine: the Go runtime's own out-of-memory line joined with the post.
const limitFlattenedRuntimeLine = "the case is healthy because its 'fatal error: runtime: out of memory' is the Go runtime's own line (its heap on a 32-bit address space), read as the program's own when it is a line of its own: joined onto one line with the author's sentences, the words 'out of memory' read as the author stating the host's memory ran out"

func init() {
	for _, form := range []string{"bullets", "bullets-star"} {
		formsKnownLimits[form+" 3283-swoole-src-5016-2023-eks-kubelet-system-oom-victim-php-pid-27824"] = limitBulletBeforeInlineCode
	}
	for _, form := range []string{"jira-noformat", "discourse-quote", "details-summary", "phpbb3-codebox", "code-caption", "spoiler-caption"} {
		formsKnownLimits[form+" 3425-nextcloud-snap-1836-2023-raspi3-free-h-swap-350mi-used-available-347mi-healthy"] = limitCodeHidesTracker
	}
	formsKnownLimits["flattened 1440-lnd-6135-2022-rpi4-armv7l-5.10.63-v7l-journal-go-runtime-out-of-memory-268435456-byte-block-32bit-healthy"] = limitFlattenedRuntimeLine
}
