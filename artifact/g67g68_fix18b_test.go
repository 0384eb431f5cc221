package artifact

import (
	"strings"
	"testing"
)

// Round 13's g67/g68 (load balancers, log servers), fix18b.

// A kernel message retyped without the space after its comma (and its prefix's colon) is
// the message: the record holds it as the kernel prints it.
func TestFix18bUnspacedMessage(t *testing.T) {
	for _, text := range []string{
		"The error message is \"nf_conntrack:table full,dropping packet.\"\n",
		"nf_conntrack: table full,dropping packet\n",
		"kern.log keeps printing nf_conntrack:table full,dropping packet\n",
	} {
		tl := ParseString(text, "p", Options{})
		if tl.Log.Len() != 1 || !strings.Contains(tl.Log.At(0).Message, "table full, dropping packet") {
			t.Errorf("%q: %d records, want the conntrack-full message", text, tl.Log.Len())
		}
	}
	// Counter-cases: a possibility, the words in a sentence with
	// other words after the quotation, other words with a comma.
	for _, text := range []string{
		"If the table fills you may see table full,dropping packet in dmesg\n",
		"The message \"nf_conntrack:table full,dropping packet\" means the table is at its max\n",
		"the table was full,dropping packets is what we expected from the test plan\n",
	} {
		if tl := ParseString(text, "p", Options{}); tl.Log.Len() != 0 {
			t.Errorf("%q: %d records, want none", text, tl.Log.Len())
		}
	}
}
