package artifact

import "testing"

// fix63d: a sar header whose 12-hour time the paster cut leaves its AM or PM before the
// columns ("         AM  pgpgin/s ..."): the table is read with the rows' own times.
func TestFix63dSarHeaderCutToAMPM(t *testing.T) {
	text := "sar -B\n" +
		"         AM  pgpgin/s pgpgout/s   fault/s  majflt/s  pgfree/s pgscank/s pgscand/s pgsteal/s    %vmeff\n" +
		"10:33:01 AM      2.27   2490.55    403.91      0.05  15716.03      0.00      0.00      0.00      0.00\n" +
		"10:35:01 AM      0.80  22780.21   5033.77      0.03  22221.77   3186.27   6828.45   6035.93     60.27\n"
	tl := ParseString(text, "p", Options{})
	tb := lastArtifact[*SysstatTable](tl, KindSysstat)
	if tb == nil || len(tb.Rows) != 2 || len(tb.Columns) != 9 || tb.Columns[6] != "pgscand/s" {
		t.Fatalf("table %+v, unparsed %+v", tb, tl.Unparsed)
	}
	checkAccount(t, tl)
	// Counter-cases: "AM" before words or a row of another width is no header.
	for _, c := range []string{
		"AM  radio stations/s and FM/s %share\n10:33:01 AM 1 2\n",
		"         PM  pgpgin/s pgpgout/s\n10:33:01 PM      2.27   2490.55    403.91\n",
	} {
		if tb := lastArtifact[*SysstatTable](ParseString(c, "p", Options{}), KindSysstat); tb != nil {
			t.Errorf("%q read as sar: %+v", c, tb)
		}
	}
}
