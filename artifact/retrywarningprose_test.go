package artifact

import "testing"

// fix33b: XFS's or SPL's retry warning quoted in a title or a sentence, with nothing else read,
// is listed as unread with its own account (corpus 2819); negated, or beside the logged warning
// itself, it is not.
func TestFix33bRetryWarningNamedUnread(t *testing.T) {
	for _, text := range []string{
		"runc · issue\n# docker-runc init failed on centos 7.6 xfs XFS: runc:[1:CHILD](3580) possible memory allocation deadlock in kmem_zone_alloc (mode:0x82d0)\n\nUpdate kernel, add cgroup.memory=nokmem to boot cmdline\n",
		"Hi\n\nWe keep getting Possible memory allocation deadlock warnings from ZFS every night.\n",
	} {
		tl := ParseString(text, "p", Options{})
		if len(tl.Unparsed) != 1 || tl.Unparsed[0].Why != retryNamedWhy {
			t.Errorf("%q: retry warning not listed: %+v", text, tl.Unparsed)
		}
		if len(artifactsOf(tl, KindAllocFailure)) != 0 {
			t.Errorf("%q: read as a report", text)
		}
	}
	for _, text := range []string{
		"Hi\n\nThere is no possible memory allocation deadlock in dmesg, the box is just slow.\n",
		"Hi\n\nXFS is a journaling filesystem; memory allocation is fine.\n",
	} {
		if tl := ParseString(text, "p", Options{}); len(tl.Unparsed) != 0 {
			t.Errorf("%q listed: %+v", text, tl.Unparsed)
		}
	}
	// The logged warning is read (h19b), and no line is listed for the sentence beside it.
	tl := ParseString("[ 1234.5] XFS: fs_mark(8414) possible memory allocation deadlock size 65768 in kmem_alloc (mode:0x2d40)\nWe see possible memory allocation deadlock every night.\n", "p", Options{})
	for _, u := range tl.Unparsed {
		if u.Why == retryNamedWhy {
			t.Errorf("listed beside the logged warning: %+v", u)
		}
	}
	if NothingRead(tl) {
		t.Errorf("logged warning not read")
	}
}

// fix33b: a header quoted bare in a sentence names its comm, not the sentence (corpus 2803);
// comms of up to 15 bytes, blanks and all, and prefixes the parser already strips, stay.
func TestFix33bCommOfHeaderInSentence(t *testing.T) {
	for _, c := range []struct{ line, comm string }{
		{"I have also been seeing some swapper/0: page allocation failure: order:5, mode:0x4020 messages in my logs", "swapper/0"},
		{"Web Content: page allocation failure: order:0, mode:0x20", "Web Content"},
		{"Jan  7 22:12:05 jayhawk kernel: arc_reclaim: page allocation failure: order:0, mode:0x4020", "arc_reclaim"},
		{"[ 12.345678] kworker/u16:2: page allocation failure: order:3, mode:0x40c0", "kworker/u16:2"},
		{"kernel: WebContainer : : page allocation failure: order:1, mode:0x20", "WebContainer : "},
	} {
		af, ok := parseAllocHeader(c.line)
		if !ok {
			t.Errorf("%q: not read", c.line)
			continue
		}
		if af.Process != c.comm {
			t.Errorf("%q: comm %q, want %q", c.line, af.Process, c.comm)
		}
	}
	tl := ParseString("Hi\n\nI have also been seeing some swapper/0: page allocation failure: order:5, mode:0x4020 messages in my logs which are quite unusual.\n", "p", Options{})
	as := artifactsOf(tl, KindAllocFailure)
	if len(as) != 1 || as[0].Data.(*allocArtifact).Process != "swapper/0" {
		t.Errorf("sentence's header: %+v", as)
	}
}
