package kernel

import (
	"bytes"
	"testing"
	"testing/fstest"
)

func TestParseSockStat(t *testing.T) {
	g, err := ParseSockStat(bytes.NewReader(member(t, hostFixture, "proc/net/sockstat")))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ group, name string }{{"sockets", "used"}, {"TCP", "inuse"}, {"TCP", "orphan"},
		{"TCP", "tw"}, {"TCP", "alloc"}, {"TCP", "mem"}, {"UDP", "mem"}, {"FRAG", "memory"}} {
		if _, ok := g.Get(c.group, c.name); !ok {
			t.Errorf("sockstat lacks %s %s", c.group, c.name)
		}
	}
	if _, ok := g.Get("UDPLITE", "mem"); ok {
		t.Error("UDPLITE mem invented")
	}
}

func TestReadSockStat(t *testing.T) {
	g, err := ReadSockStat(TxtarRoot(loadArchive(t, hostFixture), hostFixture))
	if err != nil {
		t.Fatal(err)
	}
	if g.Group("TCP") == nil || g.Group("TCP6") == nil || g.Group("FRAG6") == nil {
		t.Errorf("groups %+v", g)
	}
	v4only, err := ReadSockStat(FSRoot(fstest.MapFS{"proc/net/sockstat": {Data: []byte("TCP: inuse 3\n")}}, "v4"))
	if err != nil || len(v4only) != 1 {
		t.Errorf("without sockstat6: %v %+v", err, v4only)
	}
}

func TestParseSockStatMalformed(t *testing.T) {
	checkMalformed(t, []malformed{
		{"empty", "", 0},
		{"odd tokens", "sockets: used 14\nTCP: inuse 1 orphan\n", 2},
		{"not a number", "TCP: inuse x\n", 1},
		{"no values", "sockets: used 1\nTCP:\n", 2},
		{"no colon", "TCP inuse 1\n", 1},
	}, func(b []byte) error { var g Groups; return ParseSockStatInto(&g, b) })
}

func TestParseSockStatInto(t *testing.T) {
	checkInto(t, ParseSockStatInto, member(t, hostFixture, "proc/net/sockstat"), member(t, hostFixture, "proc/net/sockstat6"))
}

func FuzzParseSockStat(f *testing.F) {
	other := seedFuzz(f, func(rel string) bool { return rel == "proc/net/sockstat" || rel == "proc/net/sockstat6" }, "A: b\n", "A: b 1 b 2\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInto(t, data, other, ParseSockStatInto) })
}

func BenchmarkParseSockStatInto(b *testing.B) {
	benchInto(b, member(b, hostFixture, "proc/net/sockstat"), ParseSockStatInto)
}
