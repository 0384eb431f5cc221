package artifact

import (
	"strings"
	"testing"
)

// forms52a (round 48's forms, corpus 4385, 4413): readers that must survive a paste form.

// dmesg --time-format iso's stamp indented as a Markdown code block (or inside inline code
// so indented) is the kernel's record as at column 0: the wrappers that take the stamp run
// before the indent goes, so the indent reader takes it too.
func TestForms52aIndentedDmesgISO(t *testing.T) {
	h := "Tasks state (memory values in pages):"
	for _, line := range []string{
		"    2021-10-16T11:17:37,027005-07:00 " + h,
		"\t2021-10-16T11:17:37,027005-07:00 " + h,
		"    `2021-10-16T11:17:37,027005-07:00 " + h + "`  ",
	} {
		l, _, _ := parseLine(1, line)
		if !l.Kernel || l.Text != h {
			t.Errorf("%q: read as %+v", line, l)
		}
	}
	// counter-cases: RFC 3339 ('.'), no offset, an indented date in prose: not the kernel's.
	for _, line := range []string{
		"    2021-10-16T11:17:37.027005-07:00 " + h,
		"    2021-10-16T11:17:37,027005 " + h,
		"    2021-10-16 11:17:37 the box froze again",
	} {
		if l, _, _ := parseLine(1, line); l.Kernel {
			t.Errorf("%q read as a kernel record: %+v", line, l)
		}
	}
}

// A patch mail's quoted WARN for an order above MAX_ORDER is the author's reproduction
// (allocOrderWarn, patchMail) under a paste form too: a list marker, a chat's nick, a
// compose prefix, inline code or zero-width spaces before the sign-off.
func TestForms52aPatchMailUnderForms(t *testing.T) {
	mail := "Subject: [PATCH net] gtp: use __GFP_NOWARN to avoid memalloc warning\n\nSplat looks like:\n" +
		"[ 2171.200049][ T1860] WARNING: CPU: 1 PID: 1860 at mm/page_alloc.c:4713 __alloc_pages_nodemask+0x2f3/0x740\n" +
		"[ 2171.299475][ T1860]  kmalloc_order+0x22/0x80\n\n" +
		"Signed-off-by: Taehee Yoo <ap420073@gmail.com>\n"
	warn := func(text string) bool { return logHolds(text, "mm/page_alloc.c:4713") }
	each := func(f func(string) string) string {
		var b strings.Builder
		for _, l := range strings.Split(strings.TrimSuffix(mail, "\n"), "\n") {
			if l != "" {
				l = f(l)
			}
			b.WriteString(l + "\n")
		}
		return b.String()
	}
	for name, f := range map[string]func(string) string{
		"plain":       func(l string) string { return l },
		"bullets":     func(l string) string { return "- " + l },
		"star":        func(l string) string { return " * " + l },
		"irc":         func(l string) string { return "12:03 <jdoe> " + l },
		"chat":        func(l string) string { return "[12:03] <jdoe> " + l },
		"compose":     func(l string) string { return "netmon-1  | " + l },
		"inline code": func(l string) string { return "    `" + l + "`  " },
		"zero-width":  func(l string) string { return "\u200b" + strings.ReplaceAll(l, ":", ":\u200b") },
	} {
		if warn(each(f)) {
			t.Errorf("%s: the patch's quoted WARN read as this host's", name)
		}
	}
	// counter-case: the same splat without the patch's lines is a host's log.
	if !warn("[ 2171.200049][ T1860] WARNING: CPU: 1 PID: 1860 at mm/page_alloc.c:4713 __alloc_pages_nodemask+0x2f3/0x740\n- a note: Signed off by me\n") {
		t.Error("a splat outside a patch not read")
	}
}
