package artifact

import (
	"strings"
	"testing"
)

// sar -n DEV as sysstat prints it (common.c print_gal_header, then the IFACE table of
// sa_common/rndr_stats.c), with the paste cut inside its last row.
func sarDEV(last string) string {
	return "Linux 4.17.11-1.el7.elrepo.x86_64 (master3) \t12/04/2023 \t_x86_64_\t(128 CPU)\n\n" +
		"11:40:03 AM     IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s\n" +
		"11:40:05 AM veth85f04f1d      3.50      4.50      0.61      1.00      0.00      0.00      0.00\n" +
		last + "\n"
}

func TestSysstatBannerCPUsAndCutRow(t *testing.T) {
	for _, tc := range []struct {
		last string
		keep int
		tx   float64
	}{
		{"11:40:05 AM veth3920cf6b    519.50    493.00     78.65    103.64      0.00      0.00", 7, 103.64},
		// Cut inside a number: "103.6" has fewer decimals than "78.65", so it is dropped.
		{"11:40:05 AM veth3920cf6b    519.50    493.00     78.65    103.6", 4, -1},
	} {
		tl, err := Parse(strings.NewReader(sarDEV(tc.last)), "paste", Options{})
		if err != nil {
			t.Fatal(err)
		}
		if tl.Host.CPUs != 128 {
			t.Errorf("host CPUs = %d, want 128 from the banner", tl.Host.CPUs)
		}
		if len(tl.Unparsed) != 0 {
			t.Errorf("unparsed: %+v", tl.Unparsed)
		}
		tb := one(t, tl, KindSysstat).(*SysstatTable)
		if tb.Banner == nil || tb.Banner.CPUs != 128 || tb.Banner.Host != "master3" || tb.Banner.Machine != "x86_64" {
			t.Fatalf("banner = %+v", tb.Banner)
		}
		if len(tb.Rows) != 2 || tb.CutAfter != tc.keep {
			t.Fatalf("%d rows, cut after %d, want 2 and %d", len(tb.Rows), tb.CutAfter, tc.keep)
		}
		v := tb.Values[1]
		if v["rxpck/s"] != 519.5 || v["rxkB/s"] != 78.65 {
			t.Errorf("cut row values %v", v)
		}
		if got, ok := v["txkB/s"]; tc.tx < 0 && ok || tc.tx >= 0 && got != tc.tx {
			t.Errorf("txkB/s = %v (%v), want %v", got, ok, tc.tx)
		}
	}
	// A short row that is not the paste's last line stays unread.
	tl, err := Parse(strings.NewReader(sarDEV("11:40:05 AM veth3920cf6b    519.50    493.00")+
		"11:40:05 AM    dummy0      0.00      0.00      0.00      0.00      0.00      0.00      0.00\n"), "paste", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Unparsed) != 1 {
		t.Errorf("a short row in the middle: unparsed %+v", tl.Unparsed)
	}
}

// Before sysstat 9.x the banner has no machine and no CPU count.
func TestSysstatBannerOld(t *testing.T) {
	b, ok := sysstatBanner("Linux 2.6.9-42.ELsmp (db1)\t01/02/2009")
	if !ok || b.Release != "2.6.9-42.ELsmp" || b.Host != "db1" || b.CPUs != 0 || b.Machine != "" {
		t.Fatalf("%+v %v", b, ok)
	}
	for _, prose := range []string{"Linux is great (really) today", "Linux 4.17 (master3) 12/04/2023 and more words (128 CPU)"} {
		if b, ok := sysstatBanner(prose); ok {
			t.Errorf("%q read as a banner: %+v", prose, b)
		}
	}
}

// A sar -B table whose header lost its time column (the paster cut "03:00:01 PM" and kept
// the names indented over 12-hour rows), as in corpus 2633; and lines that only carry the
// column names, which must read nothing as sar's.
func TestSysstatHeaderWithoutTime(t *testing.T) {
	const names = "             pgpgin/s pgpgout/s   fault/s  majflt/s  pgfree/s pgscank/s pgscand/s pgsteal/s    %vmeff\n"
	const rows = "03:10:01 AM  50112.99   5996.78  13619.54    156.13  17933.61 241684.43    116.79  12406.23      5.13\n" +
		"06:30:02 PM 141841.64   3544.53  10487.52    239.80  39111.93 438936.96   2272.81  35792.66      8.11\n"
	tl, err := Parse(strings.NewReader("```\n"+names+rows+"```\n"), "paste", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Unparsed) != 0 {
		t.Errorf("unparsed: %+v", tl.Unparsed)
	}
	tb := one(t, tl, KindSysstat).(*SysstatTable)
	if tb.Tool != "sar" || len(tb.Rows) != 2 || tb.Rows[1][0] != "06:30:02 PM" || tb.Values[1]["pgscank/s"] != 438936.96 || tb.Values[0]["%vmeff"] != 5.13 {
		t.Fatalf("table = %+v", tb)
	}
	for name, text := range map[string]string{
		// A sentence naming the columns above rows of another width.
		"sentence": "the pgscank/s and pgsteal/s columns are high\n" + rows,
		// The names with no time-stamped row under them (another tool's numbers).
		"no stamp": names + "  50112.99   5996.78  13619.54    156.13  17933.61 241684.43    116.79  12406.23      5.13\n",
		// The names alone.
		"alone": names + "\nthat is what sar printed\n",
		// A row with one cell fewer than the names.
		"short row": names + "03:10:01 AM  50112.99   5996.78  13619.54    156.13  17933.61 241684.43    116.79  12406.23\n",
	} {
		tl, err := Parse(strings.NewReader(text), "paste", Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range tl.Artifacts {
			if tb, ok := a.Data.(*SysstatTable); ok && containsStr(tb.Columns, "pgsteal/s") {
				t.Errorf("%s: read as sar: %+v", name, tb)
			}
		}
	}
}
