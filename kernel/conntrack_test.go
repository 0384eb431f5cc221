package kernel

import (
	"strings"
	"testing"
)

// The layout of ct_cpu_seq_show (net/netfilter/nf_conntrack_standalone.c), as this VM's
// 6.18 kernel prints it with two CPUs, with counters put in.
const conntrackStat618 = `entries  clashres found new invalid ignore delete chainlength insert insert_failed drop early_drop icmp_error  expect_new expect_create expect_delete search_restart
000001a2  00000000 00000000 00000000 00000f10 0000a63d 00000000 00000000 00000000 00000003 00000001 00000000 00000000  00000000 00000000 00000000 000b6368
000001a2  00000000 00000000 00000000 00000001 00000002 00000000 00000000 00000000 00000004 00000000 00000010 00000000  00000000 00000000 00000000 00000001
`

func TestParseConntrackStat(t *testing.T) {
	var c Counters
	if err := ParseConntrackStatInto(&c, []byte(conntrackStat618)); err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"entries": 0x1a2, "insert_failed": 7, "drop": 1, "early_drop": 0x10, "invalid": 0xf11, "search_restart": 0xb6369}
	for k, v := range want {
		if got, ok := c.Get(k); !ok || got != v {
			t.Errorf("%s = %d (%v), want %d", k, got, ok, v)
		}
	}
	if c.Len() != 17 || c.Names()[0] != "entries" {
		t.Errorf("names %v", c.Names())
	}
	// A second reading into the same Counters replaces the sums and allocates nothing.
	if n := testing.AllocsPerRun(20, func() { _ = ParseConntrackStatInto(&c, []byte(conntrackStat618)) }); n > 0 {
		t.Errorf("steady-state parse allocates %.0f times", n)
	}
	if v, _ := c.Get("insert_failed"); v != 7 {
		t.Errorf("insert_failed after re-reading = %d, want 7 (not summed across readings)", v)
	}
	// A header of other names (an older kernel's searched, delete_list) replaces the names.
	old := strings.NewReplacer("clashres", "searched", "chainlength", "delete_list").Replace(conntrackStat618)
	if err := ParseConntrackStatInto(&c, []byte(old)); err != nil || !c.Has("searched") || c.Has("clashres") {
		t.Errorf("renamed columns: %v %v", err, c.Names())
	}
	for name, bad := range map[string]string{
		"no header":   "000001a2 00000000\n",
		"no rows":     strings.SplitAfter(conntrackStat618, "\n")[0],
		"short row":   strings.SplitAfter(conntrackStat618, "\n")[0] + "000001a2 00000000\n",
		"not hex":     strings.Replace(conntrackStat618, "00000f10", "0000zz10", 1),
		"too long":    strings.Replace(conntrackStat618, "00000f10", "0000000000000000f10", 1),
		"empty input": "",
	} {
		if err := ParseConntrackStatInto(&c, []byte(bad)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
