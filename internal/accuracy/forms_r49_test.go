package main

// Round 49: losses under a form that are limits of the form.
func init() {
	// The case's OOM is stated only by its title ("Case study of OOM kill MySQL caused by
	// insufficient swap space", a machine-translated article); the body says it only in
	// translated prose that no reader takes as the host's report. A sentence put above the
	// title makes it a heading inside the post; a CRI or compose prefix makes every line a
	// program's stdout; a <details> fold makes it a code block's first line.
	const c = "4550-alibabacloud-topic-mt-mysql-oom-kill-256gb-two-instances-bp-106g-res-119g-swap-7g-consumed-zombie-prose"
	formsKnownLimits["prose-around "+c] = limitTitleOnly
	formsKnownLimits["compose-logs "+c] = limitTitleInContainerLog
	formsKnownLimits["kubectl-prefix "+c] = limitTitleInContainerLog
	formsKnownLimits["details-summary "+c] = limitTitleInFold
	// 4451's zones sit behind a blog's line-number gutter rendered as a column ("1" … "11"
	// one per line, then "12[ 7952.524958] Normal free:…"), which artifact/gutter.go
	// (fix54a) tells by the bare numbers at the start of their lines, counting up to the
	// number glued to the first log line. A form that puts anything before every line
	// (a quote, an indent, a container's or a chat log's prefix, another gutter) or breaks
	// the glued line leaves no bare numbers to count, and a number glued to a log line is
	// otherwise part of it.
	for _, form := range []string{"quote-mail-trimmed", "indent-4", "cri-prefix", "wrap-log-72", "backslash-ends-tight", "irc-log", "compose-logs", "kubectl-prefix", "stern", "gutter-bar", "gutter-dot", "gutter-tab"} {
		formsKnownLimits[form+" 4451-iliuqi-android-stability-013-zh-order0-failures-427-suppressed-normal-free-16852-min-11584-low-41940"] = limitGutterColumnGlued
	}
}

const limitGutterColumnGlued = "the case's zones sit behind a code block's line-number gutter rendered as a column, its last number glued to the first log line ('12[ 7952.524958] Normal free:…'), told only by the bare numbers counting up at the start of their own lines (artifact/gutter.go, fix54a); a form that prefixes, indents or re-gutters every line, or breaks the glued line, leaves no bare column to count, and a number glued to a log line is otherwise the line's own"
