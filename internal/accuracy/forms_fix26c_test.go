package main

// fix26c: losses of its own cases under a form that are limits of the form.
func init() {
	// 2290's OOM kill is named only by its title under a tracker's breadcrumb ("causes
	// OOM-killer to be invoked", artifact titleKillerAtWork): the same limit as 2150's.
	const c2290 = "2290-bazel-4616-2018-bazel-0.10-workers-32-cores-64gb-no-swap-oom-killer-kernel-4.4.0-1041-aws"
	for _, form := range []string{"indent-4", "flattened", "bbcode", "shell-prompt-root", "details-summary", "smf-code-select"} {
		formsKnownLimits[form+" "+c2290] = limitCrumbTitle
	}
}
