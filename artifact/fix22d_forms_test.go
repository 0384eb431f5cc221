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
