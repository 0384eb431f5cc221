package kernel

import (
	"bytes"
	"testing"
)

func TestParseVMStat(t *testing.T) {
	host, err := ParseVMStat(bytes.NewReader(member(t, hostFixture, "proc/vmstat")))
	if err != nil {
		t.Fatal(err)
	}
	// 4.8+ node-based reclaim: one pgscan_kswapd, allocstall per zone.
	for _, name := range []string{"nr_free_pages", "pgscan_kswapd", "pgscan_direct", "pgsteal_kswapd", "allocstall_normal", "compact_stall", "pswpin"} {
		if !host.Has(name) {
			t.Errorf("6.18 vmstat lacks %s", name)
		}
	}
	if host.Has("pgscan_kswapd_normal") || host.Has("allocstall") {
		t.Error("6.18 vmstat has a pre-4.8 name")
	}
	if host.Names()[0] != "nr_free_pages" {
		t.Errorf("first counter %q, want file order", host.Names()[0])
	}

	old, err := ParseVMStat(bytes.NewReader(member(t, "testdata/layouts/2.6.32-i686.txtar", "proc/vmstat")))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]int64{"pgscan_kswapd_normal": 30811207, "pgscan_kswapd_high": 120993301,
		"pgscan_direct_dma": 0, "allocstall": 28811, "kswapd_steal": 110020211, "pgalloc_high": 1288109321} {
		if v, ok := old.Get(name); !ok || v != want {
			t.Errorf("2.6.32 %s = %d, %v; want %d", name, v, ok, want)
		}
	}
	if old.Has("pgscan_kswapd") || old.Has("compact_stall") {
		t.Error("2.6.32 vmstat has a name it did not print")
	}
}

func TestParseVMStatMalformed(t *testing.T) {
	checkMalformed(t, []malformed{
		{"empty", "", 0},
		{"no value", "nr_free_pages 1\npgfault\n", 2},
		{"not a number", "nr_free_pages 1\npgfault 12a\n", 2},
		{"too many columns", "nr_free_pages 1 2\n", 1},
		{"beyond int64", "nr_free_pages 18446744073709551615\n", 1},
		{"truncated", "nr_free_pages 1\nnr_zone_inactive_anon", 2},
	}, func(b []byte) error { var c Counters; return ParseVMStatInto(&c, b) })
}

func TestParseVMStatInto(t *testing.T) {
	checkInto(t, ParseVMStatInto,
		member(t, hostFixture, "proc/vmstat"),
		member(t, "testdata/layouts/2.6.32-i686.txtar", "proc/vmstat"))
}

func FuzzParseVMStat(f *testing.F) {
	other := seedFuzz(f, exact("proc/vmstat"), "a 1\nb\n", "a -9223372036854775808\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInto(t, data, other, ParseVMStatInto) })
}

func BenchmarkParseVMStatInto(b *testing.B) {
	benchInto(b, member(b, hostFixture, "proc/vmstat"), ParseVMStatInto)
}
