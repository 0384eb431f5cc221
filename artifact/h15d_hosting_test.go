package artifact

import (
	"testing"
)

// Pre-round 15 (h15d): hosting panels' own notices (unreadhosting.go), snippets written from
// the notices' forms in the ways users paste them (lfd's mail with its Subject, a quoted
// mail, chkservd under tailwatchd's syslog tag, LiteSpeed's stderr log); none from a case.
func TestH15dHostingNoticesNamed(t *testing.T) {
	checkOwnLinesNamed(t, []ownLineCase{
		{"Subject: lfd on server1.example.com: High 5 minute load average alert - 12.34\n\nTime:                    Mon Nov 30 03:12:45 2026 +0000\n1 Min Load Avg:          14.02\n", "LF_LOAD"},
		{"> Subject: lfd on vps.example.net: High 1 minute load average alert - 31.07\n", "load average passed lfd's own threshold"},
		{"Subject: lfd on server1.example.com: Excessive resource usage: someuser (12345 (Parent PID:12001))\n", "PT_USERMEM"},
		{"Resource:     Virtual Memory Size\nExceeded:     512 > 200 (MB)\nKilled:       No\n", "virtual size"},
		{"Nov 30 03:10:01 server1 tailwatchd[2101]: [chkservd] The service \"mysql\" appears to be down.\n", "chkservd"},
		{"Notification The service \"mysql\" appears to be down.\n", "restarts it"},
		{"2026-11-30 03:10:01.123 [NOTICE] [APVH_example.com] Reached max children process limit: 10, extra: 0, current: 10, busy: 10, please increase LSAPI_CHILDREN.\n", "LSAPI_CHILDREN"},
	})
}

// The figures: LSAPI's limit and its counts, lfd's size against its threshold.
func TestH15dHostingFigures(t *testing.T) {
	checkProgramFigures(t, []figureCase{
		{"Reached max children process limit: 10, extra: 2, current: 12, busy: 11, please increase LSAPI_CHILDREN.\n", "litespeed lsapi", "max_children", 10},
		{"Reached max children process limit: 10, extra: 2, current: 12, busy: 11, please increase LSAPI_CHILDREN.\n", "litespeed lsapi", "busy", 11},
		{"Exceeded:     512 > 200 (MB)\n", "lfd", "used", 512},
		{"Exceeded:     512 > 200 (MB)\n", "lfd", "threshold", 200},
	})
}

// Counter-cases: sentences sharing the words are not the notices.
func TestH15dHostingNotFromOthers(t *testing.T) {
	for _, s := range []string{
		"the site appears to be down since this morning",
		"The service was slow and then it appears to be down",
		"Exceeded: the quota",
		"Exceeded: yes > no",
		"raise LSAPI_CHILDREN when it reaches the max children limit",
		"what does a high load average alert mean",
	} {
		if why, _, ok := webAppOwnLine(s); ok {
			t.Errorf("%q named as a hosting panel's notice: %s", s, why)
		}
	}
}

// MySQL's/MariaDB's fatal-signal handler line is named (no kill, no OOM); a sentence with the
// words and another number form is not; Redis's maxclients line (another 'm' form) still is.
func TestH15dMysqldSignalLine(t *testing.T) {
	for _, s := range []string{
		"2026-11-30  3:10:01 0 [ERROR] mysqld got signal 9 ;\n",
		"Nov 30 03:10:01 server1 mysqld[1234]: 2026-11-30  3:10:01 0 [ERROR] mysqld got signal 9 ;\n",
	} {
		tl := ParseString(s, "t", Options{})
		if !f15Unread(tl, "SIGKILL names no sender") || statedOOM(tl) || len(f15Kills(tl)) != 0 {
			t.Errorf("%q: unparsed %+v", s, tl.Unparsed)
		}
	}
	// the server's own crash (SIGSEGV, SIGABRT) stays a sentence of its crash report.
	for _, s := range []string{"my mysqld got signal 9 from the oom killer", "mysqld got signal nine ;", "08:45:24 UTC - mysqld got signal 6 ;", "mysqld got signal 11 ;"} {
		if why, ok := dbOwnLine(s); ok {
			t.Errorf("%q named: %s", s, why)
		}
	}
	if _, ok := dbOwnLine("# WARNING: maxclients has been reduced to 4064 to accommodate the open files limit"); !ok {
		t.Errorf("Redis's maxclients line no longer named")
	}
}
