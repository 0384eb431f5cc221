package diagnose

import (
	"fmt"
	"testing"
)

// h13a: conntrack -S's drop also counts the loser of an insertion clash
// (nf_ct_resolve_clash's drop path, counted in insert_failed too): drops that insert_failed
// covers, with no early_drop, are no full table; the insert finding names them. Counter:
// more drops than failed inserts, or evictions, still say the table was full.
func TestH13aConntrackDropsAreClashes(t *testing.T) {
	line := func(cpu int, insertFailed, drop, early int) string {
		return fmt.Sprintf("cpu=%d   \tfound=770 invalid=3856 ignore=42570125 insert=0 insert_failed=%d drop=%d early_drop=%d error=0 search_restart=746284\n", cpu, insertFailed, drop, early)
	}
	tl := pasteTimeline(t, "$ conntrack -S\n"+line(0, 1204, 1204, 0)+line(1, 998, 998, 0))
	res := run(t, "conntrack-full", tl)
	if len(res.Findings) != 1 || !evidenceHas(res.Findings[0], "insert_failed", "2202 since the module loaded") {
		t.Fatalf("want only the insert finding: %+v", res.Findings)
	}
	for _, c := range []string{line(0, 10, 40, 0), line(0, 40, 40, 3)} {
		res := run(t, "conntrack-full", pasteTimeline(t, "$ conntrack -S\n"+c))
		if len(res.Findings) != 2 || !evidenceHas(res.Findings[0], "conntrack statistics drop", "40 since the module loaded") {
			t.Errorf("%q: want the full-table finding too: %+v", c, res.Findings)
		}
	}
}
