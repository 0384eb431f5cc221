package artifact

import "testing"

// fix22d: an OOM task table's header cut after "uid tgid", its blank runs squashed to one
// (a page that collapses white space; corpus 1924 under the squashed-spaces form), is still
// dump_tasks' header; words that only begin the same way are not.
func TestFix22dTaskHeaderSquashed(t *testing.T) {
	for s, want := range map[string]bool{
		"[ pid ] uid tgid total":                 true,
		"[ pid ]\tuid\ttgid":                     true,
		"<6>[ 3117.587560] [ pid ] uid tgid tot": false, // the stamp is stripped before; raw, no
		"[ pid ] uid tgids are listed below":     false,
		"[ pid ] uidtgid":                        false,
		"[ pid ] uid of the owner, tgid":         false,
		"[ pid ] uid":                            false,
	} {
		if got := isOOMTaskHeader(s); got != want {
			t.Errorf("%q: %v, want %v", s, got, want)
		}
	}
}

// fix22d: a flattened console log whose records carry a printk level before the stamp
// ("<4>[ 3117.587337]", corpus 1924 joined onto one line) splits at each level; a '<N>'
// that is no level, or a stamp glued to a word, does not split.
func TestFix22dFlattenedLevelStamps(t *testing.T) {
	for s, want := range map[string]int{
		"<4>[ 3117.587337] free:3346 free_pcp:14 <4>[ 3117.587358] Node 0 all_unreclaimable? yes": 39,
		"free:3346 <6>[ 3117.587560] [ pid ] uid tgid total":                                      9,
		"a <8>[ 3117.587560] eight is no printk level":                                            -1,
		"a x<6>[ 3117.587560] glued to a word":                                                    -1,
		"see the <b>[12.345678]</b> tag":                                                          -1,
	} {
		if got := embeddedStamp(s); got != want {
			t.Errorf("embeddedStamp(%q) = %d, want %d", s, got, want)
		}
	}
	got := splitRecords([]string{"<4>[ 3117.587337] free:3346 <4>[ 3117.587358] Node 0 x <6>[ 3117.587560] [ pid ] uid tgid"})
	if len(got) != 3 || got[2] != "<6>[ 3117.587560] [ pid ] uid tgid" {
		t.Errorf("splitRecords: %q", got)
	}
}

// fix22d: a level-3+ Markdown heading alone ("### OOM 导致被杀", a guide's section on OOM
// kills, corpus 1943) names the section's topic and states no kill; the same words in the
// section's sentences, or a heading followed on its next line by the section's text, still do.
func TestFix22dSubsectionHeadingStatesNoOOM(t *testing.T) {
	const pre = "# 技巧\n\n一些常用的排查方法。\n\n## 内存泄露排查\n\n"
	for text, want := range map[string]bool{
		pre + "### OOM 导致被杀\n\n利用 `dmesg` 查看\n":                             false,
		pre + "#### mysqld killed by the OOM killer\n\nCheck dmesg.\n":      false,
		pre + "我们的服务昨天因为 OOM 导致被杀。\n\n利用 `dmesg` 查看\n":                      true,
		pre + "Last night mysqld was killed by the OOM killer.\n\nCheck.\n": true,
		pre + "### OOM 导致被杀\n昨天 mysqld 因为 OOM 导致被杀。\n":                      true,
	} {
		if got := statesOOM(text); got != want {
			t.Errorf("%q: stated OOM %v, want %v", text, got, want)
		}
	}
	if subsectionHeading("## OOM killed mysqld") || subsectionHeading("####### x") || !subsectionHeading("### x") || subsectionHeading("###x") {
		t.Error("subsectionHeading: levels 3 to 6 with a space only")
	}
}
