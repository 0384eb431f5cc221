package kernel

import (
	"bytes"
	"testing"
)

func TestParseProtocols(t *testing.T) {
	ps, err := ParseProtocols(bytes.NewReader(member(t, hostFixture, "proc/net/protocols")))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Protocol{}
	for _, p := range ps {
		byName[p.Name] = p
	}
	tcp, ok := byName["TCP"]
	if !ok || tcp.Pressure != "no" || tcp.MemoryPages < 0 || !tcp.Slab || tcp.Module != "kernel" || tcp.MaxHeader == 0 {
		t.Errorf("TCP %+v", tcp)
	}
	if u := byName["UNIX-STREAM"]; u.MemoryPages != -1 || u.Pressure != "NI" {
		t.Errorf("UNIX-STREAM %+v", u)
	}
	if p := byName["PACKET"]; p.Slab {
		t.Errorf("PACKET %+v", p)
	}
}

func TestParseProtocolsMalformed(t *testing.T) {
	const hdr = "protocol  size sockets  memory press maxhdr  slab module     cl co di\n"
	checkMalformed(t, []malformed{
		{"empty", "", 0},
		{"header only", hdr, 0},
		{"short row", hdr + "TCP 2304 1 5 no 192 yes\n", 2},
		{"bad size", hdr + "TCP x 1 5 no 192 yes kernel y y y\n", 2},
		{"bad memory", hdr + "TCP 2304 1 -2 no 192 yes kernel y y y\n", 2},
		{"bad pressure", hdr + "TCP 2304 1 5 maybe 192 yes kernel y y y\n", 2},
		{"bad slab", hdr + "TCP 2304 1 5 no 192 perhaps kernel y y y\n", 2},
		{"bad method flag", hdr + "TCP 2304 1 5 no 192 yes kernel y q y\n", 2},
	}, func(b []byte) error { _, err := ParseProtocols(bytes.NewReader(b)); return err })
}

// Re-parsing into the same slice allocates nothing and gives what a fresh parse gives.
func TestParseProtocolsInto(t *testing.T) {
	const other = "protocol  size sockets  memory press maxhdr  slab module     cl co\n" +
		"SCTP      1000      1       5   no     192   yes  sctp        y  y\n"
	checkInto(t, ParseProtocolsInto, member(t, hostFixture, "proc/net/protocols"), []byte(other))
}

func FuzzParseProtocols(f *testing.F) {
	other := seedFuzz(f, exact("proc/net/protocols"), "X 1 1 -1 NI 0 no kernel\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInto(t, data, other, ParseProtocolsInto) })
}

func BenchmarkParseProtocolsInto(b *testing.B) {
	benchInto(b, member(b, hostFixture, "proc/net/protocols"), ParseProtocolsInto)
}

func BenchmarkParseProtocols(b *testing.B) {
	data := member(b, hostFixture, "proc/net/protocols")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseProtocols(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
