package artifact

import "testing"

// /proc/net/stat/nf_conntrack with 5.x column names (clashres, chainlength): read by the
// header's names; a header whose rows are cut is reported, not read as zeros.
func TestConntrackStatFileColumns(t *testing.T) {
	head := "entries  clashres found new invalid ignore delete chainlength insert insert_failed drop  early_drop icmp_error  expect_new expect_create expect_delete search_restart\n"
	row := "00000010  00000002 00000000 00000000 00000001 00000000 00000000 00000000 00000000 00000003 00000000 00000000 00000000  00000000 00000000 00000000 00000004\n"
	tl := ParseString(head+row+row, "stat", Options{})
	cs := one(t, tl, KindConntrackS).(*ConntrackStats)
	if len(cs.CPUs) != 2 || cs.CPUs[1]["clashres"] != 2 || cs.CPUs[1]["cpu"] != 1 {
		t.Fatalf("cpus %+v", cs.CPUs)
	}
	sum := cs.Sum()
	if v, _ := sum.Get("insert_failed"); v != 6 {
		t.Errorf("insert_failed %d, want 6", v)
	}
	if v, _ := sum.Get("entries"); v != 16 {
		t.Errorf("entries %d, want 16 (not summed)", v)
	}
	tl = ParseString(head+"00000010  0000\n", "cut", Options{})
	if len(tl.Unparsed) != 1 || len(artifactsOf(tl, KindConntrackS)) != 0 {
		t.Errorf("cut: unparsed %+v", tl.Unparsed)
	}
}
