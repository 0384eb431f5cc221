package artifact

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/model"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

var seeds = map[string]string{
	"000": "000_f481d10e6cc28585.txt",
	"001": "001_5d94cdb1dc74f564.txt",
	"002": "002_64321cdc04cf5e81.txt",
	"003": "003_ae303db310cf8152.txt",
	"004": "004_acd4bf0469cc77db.txt",
}

func parseFile(t testing.TB, path string, opt Options) *model.Timeline {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tl, err := Parse(f, filepath.Base(path), opt)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func parseSeed(t *testing.T, id string) *model.Timeline {
	return parseFile(t, filepath.Join("..", "testdata", "seeds", seeds[id]), Options{})
}

// goldenView is the product a golden file pins: what the report shows of a text.
func goldenView(tl *model.Timeline) any {
	return map[string]any{
		"host":      tl.Host,
		"artifacts": tl.Artifacts,
		"settings":  tl.Settings,
		"profiles":  tl.Profiles,
		"segments":  tl.Segments,
		"unparsed":  tl.Unparsed,
	}
}

func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "golden", name+".json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./artifact -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; run with -update after checking the diff:\n%s", path, firstDiff(string(want), string(got)))
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + itoa(i+1) + ":\n- " + x + "\n+ " + y
		}
	}
	return ""
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestSeedsGolden(t *testing.T) {
	for id := range seeds {
		t.Run(id, func(t *testing.T) {
			checkGolden(t, "seed_"+id, goldenView(parseSeed(t, id)))
		})
	}
}

func artifactsOf(tl *model.Timeline, kind string) []model.Artifact {
	var out []model.Artifact
	for _, a := range tl.Artifacts {
		if a.Kind == kind {
			out = append(out, a)
		}
	}
	return out
}

func TestSeed000(t *testing.T) {
	tl := parseSeed(t, "000")
	if tl.Source.Kind != "text" {
		t.Errorf("source kind %q", tl.Source.Kind)
	}
	if tl.Host.Kernel != "2.6.30-1" {
		t.Errorf("kernel %q, want 2.6.30-1", tl.Host.Kernel)
	}
	if !strings.HasPrefix(tl.Host.Arch, "arm") || tl.Host.WordBits != 32 {
		t.Errorf("arch %q bits %d, want ARM 32-bit (Kirkwood SheevaPlug)", tl.Host.Arch, tl.Host.WordBits)
	}
	afs := artifactsOf(tl, KindAllocFailure)
	if len(afs) != 1 {
		t.Fatalf("%d alloc failures, want 1", len(afs))
	}
	af := afs[0].Data.(*allocArtifact).AllocFailure
	if af.Process != "afpd" || af.Order != 2 || af.ModeValue != 0x20 || af.Mode != "0x20" {
		t.Errorf("got %s order %d mode %s (%#x)", af.Process, af.Order, af.Mode, af.ModeValue)
	}
	if strings.Join(af.GFPFlags, "|") != "GFP_ATOMIC" || af.Kernel != "2.6.30-1" {
		t.Errorf("gfp %v for kernel %q, want GFP_ATOMIC for 2.6.30-1", af.GFPFlags, af.Kernel)
	}
	if af.Atomic == nil || !*af.Atomic {
		t.Errorf("atomic %v, want true", af.Atomic)
	}
	if len(tl.Events) != 1 || tl.Events[0].AllocFailure != af {
		t.Errorf("events %+v", tl.Events)
	}
	var found bool
	for _, a := range artifactsOf(tl, KindSetting) {
		sd := a.Data.(SettingData)
		if sd.Form == "sysctl-w" {
			found = true
			if sd.Key != "vm.min_kbytes_free" || sd.Value != "20248" || sd.Known || sd.Suggest != "vm.min_free_kbytes" {
				t.Errorf("sysctl -w setting %+v", sd)
			}
		}
	}
	if !found {
		t.Error("the sysctl -w line was not found")
	}
}

func TestSeed001(t *testing.T) {
	tl := parseSeed(t, "001")
	if len(tl.Profiles) != 2 {
		t.Fatalf("%d profiles, want 2", len(tl.Profiles))
	}
	p0, p1 := tl.Profiles[0], tl.Profiles[1]
	if p0.Total != 36324 || len(p0.Rows) != 19 || p0.Rows[0].Symbol != "default_idle" || p0.Rows[0].Ticks != 28044 || p0.Rows[0].Share != 584.25 {
		t.Errorf("first profile: total %d, %d rows, first %+v", p0.Total, len(p0.Rows), p0.Rows[0])
	}
	if p0.Rows[5].Symbol != "kfree" || p0.Rows[5].Ticks != 638 || p0.Rows[5].Share != 3.9875 {
		t.Errorf("kfree row %+v", p0.Rows[5])
	}
	if p1.Total != 34880 || len(p1.Rows) != 19 || p1.Rows[5].Symbol != "alloc_skb_frame" || p1.Rows[5].Ticks != 335 {
		t.Errorf("second profile: total %d, %d rows, row 5 %+v", p1.Total, len(p1.Rows), p1.Rows[5])
	}
	tops := artifactsOf(tl, KindTop)
	if len(tops) != 2 {
		t.Fatalf("%d top summaries, want 2", len(tops))
	}
	for i, want := range []float64{32.8, 27.5} {
		ts := tops[i].Data.(*TopSummary)
		if ts.CPU["sy"] != want {
			t.Errorf("top %d: system %v%%, want %v", i, ts.CPU["sy"], want)
		}
	}
	var sys []float64
	for _, s := range tl.Samples {
		if v, ok := s.Rates[model.RateCPUSystemPct]; ok {
			sys = append(sys, v)
		}
	}
	if len(sys) != 2 || sys[0] != 32.8 || sys[1] != 27.5 {
		t.Errorf("samples' system share %v, want [32.8 27.5]", sys)
	}
	if tl.Host.MemTotalKB != 897904 {
		t.Errorf("mem total %d kB, want 897904 (top's Mem: av)", tl.Host.MemTotalKB)
	}
}

func TestSeed002(t *testing.T) {
	tl := parseSeed(t, "002")
	vs := artifactsOf(tl, KindVMStat)
	if len(vs) != 4 {
		t.Fatalf("%d vmstat tables, want 4", len(vs))
	}
	wantRows := []int{8, 18, 19, 11}
	total := 0
	for i, a := range vs {
		tb := a.Data.(*VMStatTable)
		if len(tb.Rows) != wantRows[i] {
			t.Errorf("table %d: %d rows, want %d", i, len(tb.Rows), wantRows[i])
		}
		total += len(tb.Rows)
		if tb.Procps != "2.x" || len(tb.Columns) != 16 {
			t.Errorf("table %d: procps %s columns %v", i, tb.Procps, tb.Columns)
		}
	}
	if len(tl.Samples) != total || len(tl.Segments) != 4 {
		t.Errorf("%d samples in %d segments, want %d in 4", len(tl.Samples), len(tl.Segments), total)
	}
	// first row of the third table: "23 0 1 0 482356 624 8524 0 0 0 0 1053 181 7 93 0"
	s := tl.Samples[tl.Segments[2].First]
	if s.Rates[model.RateRunnable] != 23 || s.Rates[model.RateIntrPerSec] != 1053 || s.Rates[model.RateCtxtPerSec] != 181 ||
		s.Rates[model.RateCPUUserPct] != 7 || s.Rates[model.RateCPUSystemPct] != 93 || s.Rates[model.RateCPUIdlePct] != 0 {
		t.Errorf("third table first row rates %v", s.Rates)
	}
	if v, _ := s.Mem("MemFree"); v != 482356 {
		t.Errorf("MemFree %d", v)
	}
	if tl.Segments[2].Label != "at the end of 4 runs / 5xab -n 5000 -c 200 (~40 connections/sec)" {
		t.Errorf("label %q", tl.Segments[2].Label)
	}
	last := tl.Samples[len(tl.Samples)-1]
	if last.Rates[model.RateCPUIdlePct] != 100 || last.Rates[model.RateIntrPerSec] != 103 {
		t.Errorf("last row %v", last.Rates)
	}
	if tl.Host.Kernel != "2.4.13" {
		t.Errorf("kernel %q", tl.Host.Kernel)
	}
}

func TestSeed003(t *testing.T) {
	tl := parseSeed(t, "003")
	if tl.Host.Kernel != "4.0.0" {
		t.Errorf("kernel %q, want 4.0.0", tl.Host.Kernel)
	}
	if len(tl.Unparsed) != 0 {
		t.Errorf("unparsed %v", tl.Unparsed)
	}
}

func TestSeed004(t *testing.T) {
	tl := parseSeed(t, "004")
	h := tl.Host
	if h.Kernel != "2.6.13-2smp" || h.WordBits != 32 || h.HighMem == nil || !*h.HighMem || h.MemTotalKB != 8310800 || h.PageSize != 4096 || h.Hostname != "cmsstor26" {
		t.Errorf("host %+v", h)
	}
	afs := artifactsOf(tl, KindAllocFailure)
	if len(afs) != 3 {
		t.Fatalf("%d alloc failure artifacts, want 3 (java ×3 with the dump, java, swapper ×2)", len(afs))
	}
	af := afs[0].Data.(*allocArtifact).AllocFailure
	if af.Process != "java" || af.Order != 0 || af.ModeValue != 0x20 || af.Count != 3 || strings.Join(af.GFPFlags, "|") != "GFP_ATOMIC" {
		t.Errorf("first failure %s order %d mode %#x count %d gfp %v", af.Process, af.Order, af.ModeValue, af.Count, af.GFPFlags)
	}
	type zone struct {
		name                          string
		free, min, low, high, present int64
		reserve                       string
		blocks                        string
	}
	want := []zone{
		{"DMA", 5276, 4680, 5848, 7020, 16384, "[0 880 8944]", "[1 1 1 0 0 1 0 0 1 0 1]"},
		{"Normal", 12248, 32768, 40960, 49152, 901120, "[0 0 64512]", "[0 1 1 0 1 1 1 3 2 2 1]"},
		{"HighMem", 744, 512, 640, 768, 8257536, "[0 0 0]", "[0 1 16 1 3 0 1 0 0 0 0]"},
	}
	if len(af.Zones) != len(want) {
		t.Fatalf("zones %+v", af.Zones)
	}
	for i, w := range want {
		z := af.Zones[i]
		got := zone{z.Zone, z.FreeKB, z.MinKB, z.LowKB, z.HighKB, z.PresentKB, fmtInts(z.LowmemReserve), fmtInts(z.FreeBlocks)}
		if got != w {
			t.Errorf("zone %d:\n got %+v\nwant %+v", i, got, w)
		}
	}
	if v, _ := af.MemInfo.Get("free"); v != 4567 {
		t.Errorf("global free %d pages", v)
	}
	if c := afs[2].Data.(*allocArtifact).AllocFailure; c.Process != "swapper" || c.Count != 2 {
		t.Errorf("third failure %s count %d", c.Process, c.Count)
	}

	socks := artifactsOf(tl, KindSockets)
	if len(socks) != 3 {
		t.Fatalf("%d socket tables, want 3", len(socks))
	}
	wantSock := []struct {
		rows        int
		state       string
		first       string
		recvQ, sndQ int64
	}{
		{14, "ESTABLISHED", "cmsstor26.fnal.gov:44803", 0, 82389},
		{14, "ESTABLISHED", "cmsstor26.fnal.gov:33776", 1897545, 0},
		{19, "FIN_WAIT1", "cmsstor26.fnal.gov:33302", 0, 370841},
	}
	for i, w := range wantSock {
		tb := socks[i].Data.(*SocketTable)
		s := tb.Sockets[0]
		if len(tb.Sockets) != w.rows || s.State != w.state || s.Local != w.first || s.RecvQ != w.recvQ || s.SendQ != w.sndQ || tb.Elided != 2 {
			t.Errorf("table %d: %d rows (elided %d), first %+v", i, len(tb.Sockets), tb.Elided, s)
		}
	}
	fin := socks[2].Data.(*SocketTable).Summary.ByState["FIN_WAIT1"]
	if fin.Count != 19 {
		t.Errorf("FIN_WAIT1 count %d", fin.Count)
	}

	ifs := artifactsOf(tl, KindIfconfig)
	if len(ifs) != 1 {
		t.Fatalf("%d ifconfig artifacts", len(ifs))
	}
	ia := ifs[0].Data.(ifaceArtifact)
	wantIf := map[string][2]int64{"bond0": {1491402, 2982804}, "eth0": {1392055, 2784110}, "eth1": {99347, 198694}}
	if len(ia.Interfaces) != 3 {
		t.Fatalf("interfaces %+v", ia.Interfaces)
	}
	for _, ifc := range ia.Interfaces {
		w := wantIf[ifc.Name]
		over, _ := ifc.Counters.Get("rx_fifo_errors")
		drop, _ := ifc.Counters.Get("rx_dropped")
		if over != w[0] || drop != w[1] {
			t.Errorf("%s: overruns %d dropped %d, want %v", ifc.Name, over, drop, w)
		}
	}

	vs := artifactsOf(tl, KindVMStat)
	if len(vs) != 3 {
		t.Fatalf("%d vmstat tables, want 3", len(vs))
	}
	for i, n := range []int{13, 15, 21} {
		if got := len(vs[i].Data.(*VMStatTable).Rows); got != n {
			t.Errorf("vmstat table %d: %d rows, want %d", i, got, n)
		}
	}
	tops := artifactsOf(tl, KindTop)
	if len(tops) != 2 {
		t.Fatalf("%d top summaries", len(tops))
	}
	t0 := tops[0].Data.(*TopSummary)
	if t0.CPU["wa"] != 75.9 || t0.CPU["si"] != 8.9 || t0.MemKB["total"] != 8310800 || t0.SwapKB["used"] != 479180 || len(t0.Load) != 3 || t0.Load[0] != 19.21 {
		t.Errorf("top %+v", t0)
	}
	bs := artifactsOf(tl, KindBuddyInfo)
	if len(bs) != 1 || len(bs[0].Data.(BuddySeries).Snapshots) != 4 {
		t.Fatalf("buddyinfo %+v", bs)
	}
	if got := bs[0].Data.(BuddySeries).Snapshots[3][0].Free; fmtInts(got) != "[0 501 5078 4247 871 73 2 11 2 0 1]" {
		t.Errorf("last buddy snapshot %v", got)
	}

	settings := map[string]map[string]bool{}
	for _, s := range tl.Settings {
		if settings[s.Key] == nil {
			settings[s.Key] = map[string]bool{}
		}
		settings[s.Key][s.Value] = true
	}
	for key, val := range map[string]string{
		"net.ipv4.tcp_wmem": "4096 32768 131072", "net.ipv4.tcp_rmem": "4096 87380 4194304",
		"net.ipv4.tcp_mem": "40960", "vm.overcommit_memory": "2", "vm.min_free_kbytes": "65536",
	} {
		if !settings[key][val] {
			t.Errorf("setting %s = %q not found in %v", key, val, settings[key])
		}
	}
	if !settings["net.ipv4.tcp_rmem"]["4096 87380 1048576"] {
		t.Error("tcp_rmem 1 MB maximum not found")
	}
	// The MRTG graph summary ("Max In: 1896.2 Mb/s (94.8%) Average In: ...", lines 333-334)
	// holds the link's throughput in a form no reader knows: listed as unread, nothing else.
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].FirstLine != 333 || tl.Unparsed[0].LastLine != 334 {
		t.Errorf("unparsed: %+v", tl.Unparsed)
	}
}

func fmtInts(v []int64) string {
	b, _ := json.Marshal(v)
	return "[" + strings.ReplaceAll(strings.Trim(string(b), "[]"), ",", " ") + "]"
}
