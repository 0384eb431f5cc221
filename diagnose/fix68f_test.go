package diagnose

import "testing"

// g292's 6875 (linux-mm 2016): one /proc/vmstat since boot, compact_stall 327 of which
// compact_fail 236 (72%): most compaction stalls failed, named as info. Fewer stalls, or a
// share under half, say nothing.
func TestFix68fCompactionFailingSinceBoot(t *testing.T) {
	vm := func(stall, fail, succ string) string {
		return "vmstat_after:\npgmigrate_success 5123\npgmigrate_fail 4106\ncompact_migrate_scanned 62019\ncompact_free_scanned 44314328\ncompact_isolated 18572\n" +
			"compact_stall " + stall + "\ncompact_fail " + fail + "\ncompact_success " + succ + "\ncompact_daemon_wake 1162\n"
	}
	d, _ := rootOf(t, vm("327", "236", "91"))
	if f := findingOf(d, "compaction-failing"); f == nil || f.Severity != Info || !evidenceHas(*f, "share of compaction stalls that failed since boot", "72.2% (236 of 327)") {
		t.Errorf("327 stalls, 236 failed: %+v", f)
	}
	for name, text := range map[string]string{
		"few stalls":    vm("60", "50", "10"),
		"mostly worked": vm("327", "100", "227"),
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "compaction-failing"); f != nil {
			t.Errorf("%s: fired: %+v", name, f.Evidence)
		}
	}
}
