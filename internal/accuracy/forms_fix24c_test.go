package main

// fix24c (round 19, g93): losses of its cases under a form that are limits of the form, not of
// the reading (kept apart from the table in forms_test.go so that its alignment does not move).

// limitCrumbTitle: 2150's OOM is named only by its title, "# oom during ...", under the
// tracker's breadcrumb on line 1 (crumbTitle); a form that indents, quotes, bullets, captions
// or flattens the text moves the breadcrumb or the heading off the first lines, or makes the
// heading a code line, and the title is not read (as limitTitleOnly).
const limitCrumbTitle = "the case's OOM is named only by its title under a tracker's breadcrumb (artifact crumbTitle, fix24c): a form that indents, quotes, bullets, captions or flattens the text takes the heading off the text's first lines or makes it code, and the title is no longer read as one"

func init() {
	const c2150 = "2150-piratebox-10-2016-lede-32mb-router-oom-normal-free-1024kb-at-min-1024kb-shmem-12232kb-no-swap"
	for _, form := range []string{"indent-4", "inline-code-indented", "flattened", "discourse-quote", "shell-prompt-root", "code-caption", "spoiler-caption", "bullets-star"} {
		formsKnownLimits[form+" "+c2150] = limitCrumbTitle
	}
}
