package diagnose

import (
	"fmt"
	"testing"

	"headroom/model"
)

func TestConntrackFull(t *testing.T) {
	t.Run("near the maximum", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.Sysctls["net.netfilter.nf_conntrack_count"] = "250000"
		tl.Host.Sysctls["net.netfilter.nf_conntrack_max"] = "262144"
		f := mustFire(t, run(t, "conntrack-full", tl), Warning)
		if !evidenceHas(f, "conntrack entries", "250000 / 262144 = 95%") || len(f.Changes) != 1 || f.Changes[0].Recommended != "524288" {
			t.Errorf("%+v %+v", f.Evidence, f.Changes)
		}
	})
	t.Run("log line", func(t *testing.T) {
		tl := timeline(0)
		tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "nf_conntrack: nf_conntrack: table full, dropping packet"}.WithSource("line 3")})
		mustFire(t, run(t, "conntrack-full", tl), Critical)
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.Sysctls["net.netfilter.nf_conntrack_count"] = "0"
		tl.Host.Sysctls["net.netfilter.nf_conntrack_max"] = "262144"
		mustBeHealthy(t, run(t, "conntrack-full", tl))
	})
	t.Run("healthy log without counts", func(t *testing.T) {
		tl := timeline(0)
		tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "e1000e: eth0 NIC Link is Up"}.WithSource("line 1")})
		mustBeHealthy(t, run(t, "conntrack-full", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "conntrack-full", timeline(1)), "nf_conntrack")
	})
}

// A maximum of 0 (an unreadable or truncated value) gives no share to judge: "5 of 0 entries"
// must not be healthy.
func TestConntrackZeroMaxIsNotHealthy(t *testing.T) {
	tl := timeline(1)
	tl.Host.Sysctls["net.netfilter.nf_conntrack_count"] = "5"
	tl.Host.Sysctls["net.netfilter.nf_conntrack_max"] = "0"
	mustNotCheck(t, run(t, "conntrack-full", tl), "nf_conntrack_max")
}

// Corpus 266: conntrack -S per CPU (tabs after cpu=N), no drop, early_drop or insert_failed
// on any CPU: healthy, citing the counters; error=18 and invalid are not drops of this rule.
func TestConntrackStatsHealthy266(t *testing.T) {
	tl := pasteTimeline(t, "$ conntrack -S\n"+
		"cpu=0   \tfound=770 invalid=3856 ignore=42570125 insert=0 insert_failed=0 drop=0 early_drop=0 error=0 search_restart=746284\n"+
		"cpu=1   \tfound=784 invalid=3647 ignore=41988392 insert=0 insert_failed=0 drop=0 early_drop=0 error=0 search_restart=718963\n"+
		"cpu=2   \tfound=25588 invalid=71264 ignore=243330690 insert=0 insert_failed=0 drop=0 early_drop=0 error=0 search_restart=2319295\n"+
		"cpu=3   \tfound=25706 invalid=70168 ignore=242616824 insert=0 insert_failed=0 drop=0 early_drop=0 error=18 search_restart=2320376\n")
	mustBeHealthyNaming(t, run(t, "conntrack-full", tl), "insert_failed 0 since the module loaded")
}

// The same listing with drops: drop and early_drop say the table was full (a since-boot total
// only: warning), insert_failed is a finding of its own (the insertion race, not a full
// table). Two readings where drop grew are critical.
func TestConntrackStatsDrops(t *testing.T) {
	line := func(cpu int, insertFailed, drop, early int) string {
		return fmt.Sprintf("cpu=%d   \tfound=770 invalid=3856 ignore=42570125 insert=0 insert_failed=%d drop=%d early_drop=%d error=0 search_restart=746284\n", cpu, insertFailed, drop, early)
	}
	tl := pasteTimeline(t, "$ conntrack -S\n"+line(0, 12, 0, 0)+line(1, 3, 40, 900))
	res := run(t, "conntrack-full", tl)
	if len(res.Findings) != 2 {
		t.Fatalf("want the full-table and the insert findings: %+v", res)
	}
	full, ins := res.Findings[0], res.Findings[1]
	if full.Severity != Warning || !evidenceHas(full, "conntrack statistics drop", "40 since the module loaded") || !evidenceHas(full, "conntrack statistics early_drop", "900") {
		t.Errorf("full: %v %+v", full.Severity, full.Evidence)
	}
	if ins.Severity != Warning || !evidenceHas(ins, "insert_failed", "15 since the module loaded") || len(ins.Changes) != 1 {
		t.Errorf("insert: %v %+v", ins.Severity, ins.Evidence)
	}
	tl = pasteTimeline(t, "$ conntrack -S\n"+line(0, 0, 40, 900)+"\nan hour later:\n\n$ conntrack -S\n"+line(0, 0, 95, 900))
	f := mustFire(t, run(t, "conntrack-full", tl), Critical)
	if !evidenceHas(f, "conntrack statistics drop", "95 since the module loaded, +55 between the readings") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
}

// conntrack -S whose lines hold none of drop, early_drop and insert_failed (a cut paste)
// judges nothing: not checked, never healthy.
func TestConntrackStatsWithoutDropCounters(t *testing.T) {
	tl := pasteTimeline(t, "$ conntrack -S\ncpu=0   \tfound=770 invalid=3856 ignore=42570125 insert=0\n")
	mustNotCheck(t, run(t, "conntrack-full", tl), "conntrack -S")
}

// /proc/net/stat/nf_conntrack (no corpus case holds one; the layout of
// nf_conntrack_standalone.c ct_cpu_seq_show, 4.x names): the same counters in hex, one row a
// CPU. drop 0x1f + 0x01 = 32 packets dropped for want of an entry: the table was full.
func TestConntrackStatFile(t *testing.T) {
	tl := pasteTimeline(t, `$ cat /proc/net/stat/nf_conntrack
entries  searched found new invalid ignore delete delete_list insert insert_failed drop  early_drop icmp_error  expect_new expect_create expect_delete search_restart
0003fffe  00000000 00000000 00000000 00000f10 0000a63d 00000000 00000000 00000000 00000000 0000001f 000003e8 00000000  00000000 00000000 00000000 000b6368
0003fffe  00000000 00000000 00000000 00000e01 00009f12 00000000 00000000 00000000 00000000 00000001 00000010 00000000  00000000 00000000 00000000 000a1f00
`)
	f := mustFire(t, run(t, "conntrack-full", tl), Warning)
	if !evidenceHas(f, "conntrack statistics drop", "32 since the module loaded") || !evidenceHas(f, "conntrack statistics early_drop", "1016 since") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	if s := tl.LastWith(func(s *model.Sample) bool { return s.Conntrack != nil }); s == nil {
		t.Fatal("no sample")
	} else if v, _ := s.Conntrack.Get("entries"); v != 0x3fffe {
		t.Errorf("entries %d: the table's count is printed on every row, not summed", v)
	}
}
