package main

// Rounds 27 and 28 (g122–g129): losses of their cases under a form that are limits of the form.

// limitTitleInCodeBlock: the case's out-of-memory is stated only by its title (an issue's
// "# ... and oom kill" over a Mem-Info tail cut above its header).
const limitTitleInCodeBlock = "the case's evidence is its title (an issue's '# ... OOM killer' over a Mem-Info dump cut above its header, which alone says neither OOM nor allocation failure): a form that puts the whole text in a code block (a fence, an indent, [code], {code}, a codebox, a quote) makes the title a line of output, and only a text's own title is read as one"

// limitTitleWrapped: the title's words that state the out-of-memory are wrapped onto a
// line of their own, which is prose, not the title.
const limitTitleWrapped = "the case's evidence is its title, and a hard wrap at 72 puts its last words ('... and OOM killer') on a line of their own: that line is prose, and a title is read from its own line only"

func init() {
	for _, form := range []string{"bbcode", "code-caption", "code-fence", "discourse-quote", "inline-code-indented", "jira-code", "phpbb3-codebox", "smf-code-select", "spoiler-caption"} {
		for _, c := range []string{
			"2754-bun-40980-2026-debian-13-kvm-dmesg-buddy-dma32-54488kb-normal-6256kb-oom-kill-cut",
			"2851-cosmic-epoch-3486-pop-os-cosmic-launcher-oom-mem-info-anon-7g-pages-file-348-free-114194-cut",
		} {
			formsKnownLimits[form+" "+c] = limitTitleInCodeBlock
		}
	}
	formsKnownLimits["prose-around 2754-bun-40980-2026-debian-13-kvm-dmesg-buddy-dma32-54488kb-normal-6256kb-oom-kill-cut"] = limitTitleOnly
	formsKnownLimits["chat-header 2851-cosmic-epoch-3486-pop-os-cosmic-launcher-oom-mem-info-anon-7g-pages-file-348-free-114194-cut"] = limitTitleOnly
	formsKnownLimits["details-summary 2754-bun-40980-2026-debian-13-kvm-dmesg-buddy-dma32-54488kb-normal-6256kb-oom-kill-cut"] = limitTitleInFold
	formsKnownLimits["details-summary 2851-cosmic-epoch-3486-pop-os-cosmic-launcher-oom-mem-info-anon-7g-pages-file-348-free-114194-cut"] = limitTitleInFold
	formsKnownLimits["wrap-prose-72 2851-cosmic-epoch-3486-pop-os-cosmic-launcher-oom-mem-info-anon-7g-pages-file-348-free-114194-cut"] = limitTitleWrapped
	// Blocks told apart only by their line breaks, joined onto one line: earlyoom's status
	// and kill lines (2845: read at a line's start, bare or after a stamp whose host and tag
	// the paste cut; mid-line once joined), nohang's PSI and kill records (2858). (Round
	// 49's fixes read dropwatch rows in a line (2761) and a syslog'd OOM report (2774).)
	for _, c := range []string{
		"2845-earlyoom-205-2020-950-mib-host-mem-avail-19-swap-free-153-sigterm-ipfs-vmrss-637-mib",
		"2858-nohang-31-2019-psi-avg-85.81-above-60-for-159s-memavail-90.6pct-swapfree-93.8pct-zram",
	} {
		formsKnownLimits["flattened "+c] = limitFlattenedBlock
	}
}
