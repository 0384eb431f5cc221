package artifact

import "testing"

// Classes of the held-out batch g44 (corpus 1161-1180: kernel test bots' reports), each on a
// minimal snippet written for the class; every test failed before its change.

// A quoted-printable mail source quoted again as a whole ("> " or ">> " before every
// physical line, the soft-broken pieces too): the piece after a soft break opens with quote
// marks that the line it continues also opens with, and the encoder never wrote them there,
// so the join drops them. Before: "mode:0x=" / "> cc0(GFP_KERNEL)" decoded to
// "mode:0x> cc0(GFP_KERNEL)" and the mode was lost. Counter-cases: the encoder's own pieces
// (no marks after the break, the line itself quoted) and a piece whose line has no marks
// keep their text.
func TestQPSoftBreakUnderRequote(t *testing.T) {
	const hdr = "Content-Transfer-Encoding: quoted-printable\n\n"
	for in, want := range map[string]string{
		hdr + ">> > [ 1.5] x: page allocation failure: order:3, mode:0x=\n>> cc0(GFP_KERNEL), nodemask=3D(null)\n": hdr + ">> > [ 1.5] x: page allocation failure: order:3, mode:0xcc0(GFP_KERNEL), nodemask=(null)\n",
		hdr + "> Normal free:3040kB min:2940kB low:3672kB=\n>  high:4404kB\n":                                      hdr + "> Normal free:3040kB min:2940kB low:3672kB high:4404kB\n",
		// the encoder's pieces: none of them quoted
		hdr + "> [ 1.5] x: page allocation failure: order:3, mode:0x=\ncc0(GFP_KERNEL)\n": hdr + "> [ 1.5] x: page allocation failure: order:3, mode:0xcc0(GFP_KERNEL)\n",
		// a line without marks: the '>' after its break is text
		hdr + "if a=\n> b then\n": hdr + "if a> b then\n",
	} {
		if got := decodeQuotedPrintable(in); got != want {
			t.Errorf("decode(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

// 0-day's fail:runs table (per kernel, how many test runs printed each dmesg signature) is
// named as not read: the text is not evidence-free (no exit 3), and its run counts become no
// evidence. Before: the table was prose and the text "nothing headroom reads". Counter-cases:
// a sentence naming "fail:runs", and a row without its header, are not the table.
func TestLKPFailRunsTableNamedUnread(t *testing.T) {
	table := "Hi,\n\n" +
		"       fail:runs  %reproduction    fail:runs\n" +
		"           |             |             |\n" +
		"          4:50          -8%            :50    dmesg.invoked_oom-killer:gfp_mask=0x\n" +
		"          1:50           2%           2:50    dmesg.page_allocation_failure:order:#,mode:#(GFP_ATOMIC)\n" +
		"\nThanks\n"
	tl := ParseString(table, "p", Options{})
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].FirstLine != 3 || tl.Unparsed[0].LastLine != 6 {
		t.Fatalf("unparsed %+v, want lines 3-6", tl.Unparsed)
	}
	if len(tl.Events) != 0 || tl.Log.Len() != 0 || len(tl.Samples) != 0 {
		t.Errorf("the run counts became evidence: events %d, log %d, samples %d", len(tl.Events), tl.Log.Len(), len(tl.Samples))
	}
	for _, text := range []string{
		"The fail:runs columns of the robot's fail:runs table show %reproduction per kernel.\n",
		"          4:50          -8%            :50    dmesg.invoked_oom-killer:gfp_mask=0x\n",
	} {
		if tl := ParseString(text, "p", Options{}); len(tl.Unparsed) != 0 {
			t.Errorf("%q: unparsed %+v", text, tl.Unparsed)
		}
	}
}
