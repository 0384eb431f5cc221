package artifact

import "testing"

// fix63e: pidstat -l's Command column holds the whole command line, blanks and all; the
// words after the last number are that one cell.
func TestFix63ePidstatCommandLine(t *testing.T) {
	text := "02:48:32 PM       PID  minflt/s  majflt/s     VSZ    RSS   %MEM  Command\n" +
		"02:48:32 PM      2345      0.23      0.00  268896    240   0.02  /pg/pg15.3/bin/postgres -D /pg/1503data\n" +
		"02:48:32 PM      2399     12.50      3.10  268896  52240   5.10  postgres: checkpointer\n"
	tl := ParseString(text, "p", Options{})
	tb := lastArtifact[*SysstatTable](tl, KindSysstat)
	if tb == nil || len(tb.Rows) != 2 || tb.Rows[0][7] != "/pg/pg15.3/bin/postgres -D /pg/1503data" || tb.Values[1]["majflt/s"] != 3.1 {
		t.Fatalf("table %+v, unparsed %+v", tb, tl.Unparsed)
	}
	checkAccount(t, tl)
	// Counter-case: sar's rows are numbers to the end; an extra word is no cell of theirs.
	tl = ParseString("02:48:32 PM  pgpgin/s pgpgout/s   fault/s  majflt/s\n02:48:33 PM      1.00      2.00     30.00      0.00 extra words\n", "p", Options{})
	if tb := lastArtifact[*SysstatTable](tl, KindSysstat); tb != nil && len(tb.Rows) > 0 && len(tb.Rows[0]) > 5 {
		t.Errorf("sar row widened: %+v", tb.Rows)
	}
}
