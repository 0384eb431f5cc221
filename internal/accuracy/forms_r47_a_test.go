package main

// Rounds 47 and 48 (forms52a): losses under a form that are limits of the form.
func init() {
	// The case's only evidence is ChromeOS crash_reporter's signature in a .meta file
	// ("sig=kernel-Out of memory and no killable processes.-40122954"), a key=value row of a
	// file the user cat'ed, not a kernel log line. The plain text is read only because the
	// fenced block's rows around it, crouton's "name: xenial", "release: xenial", "kernel:
	// Linux ...", make a run of prose lines half shaped like kernel messages, which
	// unstampedLog takes as a kernel log printed without timestamps, and the signature with
	// it.
	const c = "4318-crouton-3445-2017-chromebook-pixel-3.14-kernel-crash-out-of-memory-and-no-killable-processes"
	formsKnownLimits["bullets-star "+c] = limitCrashSigInUnstampedRun
	formsKnownLimits["inline-code-indented "+c] = limitCrashSigInUnstampedRun
	formsKnownLimits["flattened "+c] = limitFlattenedBlock
}

const limitCrashSigInUnstampedRun = "the case's OOM is named only in ChromeOS crash_reporter's .meta signature ('sig=kernel-Out of memory and no killable processes.-40122954'), read as a kernel record only as part of an unstamped kernel log (unstampedLog: five or more consecutive prose lines, half of them shaped 'word: value'), which crouton's edit-chroot rows around it make in the plain text; a form that makes the fence's lines list items or inline code breaks that run, and a lone key=value row in a shell session is no kernel log line (no reader takes a crash signature as one)"
