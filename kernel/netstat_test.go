package kernel

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

func TestParseNetStat(t *testing.T) {
	ns, err := ParseNetStat(bytes.NewReader(member(t, hostFixture, "proc/net/netstat")))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []struct{ group, name string }{{"TcpExt", "PruneCalled"}, {"TcpExt", "TCPMemoryPressures"},
		{"TcpExt", "TCPAbortOnMemory"}, {"IpExt", "InOctets"}, {"MPTcpExt", "MPCapableSYNRX"}} {
		if _, ok := ns.Get(g.group, g.name); !ok {
			t.Errorf("netstat lacks %s %s", g.group, g.name)
		}
	}
	snmp, err := ParseNetStat(bytes.NewReader(member(t, hostFixture, "proc/net/snmp")))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := snmp.Get("Tcp", "MaxConn"); !ok || v != -1 {
		t.Errorf("Tcp MaxConn = %d, %v; the kernel prints -1", v, ok)
	}
	if _, ok := snmp.Get("Udp", "RcvbufErrors"); !ok {
		t.Error("snmp lacks Udp RcvbufErrors")
	}
	if g := snmp.Group("IcmpMsg"); g == nil || g.Counters.Len() == 0 {
		t.Error("IcmpMsg group missing")
	}
}

func TestParseSNMP6(t *testing.T) {
	g, err := ParseSNMP6(bytes.NewReader(member(t, hostFixture, "proc/net/snmp6")))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, gr := range g {
		names = append(names, gr.Name)
	}
	if strings.Join(names, " ") != "Ip6 Icmp6 Udp6 UdpLite6" {
		t.Errorf("groups %v", names)
	}
	for _, c := range []struct{ group, name string }{{"Ip6", "InReceives"}, {"Icmp6", "OutType135"}, {"Udp6", "RcvbufErrors"}, {"UdpLite6", "InErrors"}} {
		if _, ok := g.Get(c.group, c.name); !ok {
			t.Errorf("snmp6 lacks %s %s", c.group, c.name)
		}
	}
}

func TestReadNetStat(t *testing.T) {
	root := TxtarRoot(loadArchive(t, hostFixture), hostFixture)
	all, err := ReadNetStat(root)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range all {
		names = append(names, g.Name)
	}
	if got := strings.Join(names, " "); got != "TcpExt IpExt MPTcpExt Ip Icmp IcmpMsg Tcp Udp UdpLite Ip6 Icmp6 Udp6 UdpLite6" {
		t.Errorf("groups %q", got)
	}
	// Without IPv6 there is no snmp6, and nothing is missing but its groups.
	noV6 := FSRoot(fstest.MapFS{
		"proc/net/netstat": {Data: member(t, hostFixture, "proc/net/netstat")},
		"proc/net/snmp":    {Data: member(t, hostFixture, "proc/net/snmp")},
	}, "no-ipv6")
	g, err := ReadNetStat(noV6)
	if err != nil || g.Group("Ip6") != nil || g.Group("Tcp") == nil {
		t.Errorf("no-IPv6 read: %v, %v", err, g)
	}
	_, err = ReadNetStat(FSRoot(fstest.MapFS{}, "empty"))
	if !errors.Is(err, ErrNotSupported) {
		t.Errorf("empty root: %v, want ErrNotSupported", err)
	}
	bad := FSRoot(fstest.MapFS{"proc/net/netstat": {Data: []byte("TcpExt: A B\nTcpExt: 1\n")}}, "bad")
	_, err = ReadNetStat(bad)
	wantLineErrorIn(t, err, "/proc/net/netstat: line 2: ")
}

// wantLineErrorIn asserts that err mentions prefix (a path and a line).
func wantLineErrorIn(t *testing.T, err error, prefix string) {
	t.Helper()
	var le *LineError
	if err == nil || !errors.As(err, &le) || !strings.Contains(err.Error(), prefix) {
		t.Fatalf("error %v, want one containing %q", err, prefix)
	}
}

func TestParseNetStatMalformed(t *testing.T) {
	checkMalformed(t, []malformed{
		{"empty", "", 0},
		{"names without values", "TcpExt: A B\n", 1},
		{"fewer values", "TcpExt: A B\nTcpExt: 1\n", 2},
		{"more values", "TcpExt: A\nTcpExt: 1 2\n", 2},
		{"protocol mismatch", "TcpExt: A\nIpExt: 1\n", 2},
		{"not a number", "Ip: A B\nIp: 1 x\nTcp: C\nTcp: 3\n", 2},
		{"no colon", "Ip: A\nIp: 1\nTcp C\n", 3},
		{"empty protocol", ": A\n: 1\n", 1},
		{"truncated", "Ip: Forwarding DefaultTTL\nIp: 2", 2},
	}, func(b []byte) error { var g Groups; return ParseNetStatInto(&g, b) })
	checkMalformed(t, []malformed{
		{"empty", "", 0},
		{"no value", "Ip6InReceives 1\nIp6InHdrErrors\n", 2},
		{"no prefix", "Ip6InReceives 1\nifIndex 2\n", 2},
		{"prefix only", "Ip6 1\n", 1},
		{"not contiguous", "Ip6A 1\nUdp6B 2\nIp6C 3\n", 3},
		{"not a number", "Ip6A x\n", 1},
	}, func(b []byte) error { var g Groups; return ParseSNMP6Into(&g, b) })
}

func TestParseNetStatInto(t *testing.T) {
	checkInto(t, ParseNetStatInto, member(t, hostFixture, "proc/net/netstat"), member(t, hostFixture, "proc/net/snmp"))
	checkInto(t, ParseSNMP6Into, member(t, hostFixture, "proc/net/snmp6"), []byte("Udp6InDatagrams 5\n"))
}

func FuzzParseNetStat(f *testing.F) {
	other := seedFuzz(f, func(rel string) bool { return rel == "proc/net/netstat" || rel == "proc/net/snmp" },
		"A: x\nA: 1\n", "A: x y\nA: 1\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInto(t, data, other, ParseNetStatInto) })
}

func FuzzParseSNMP6(f *testing.F) {
	other := seedFuzz(f, exact("proc/net/snmp6"), "6 1\n", "a6 1\nb6 2\na6 3\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInto(t, data, other, ParseSNMP6Into) })
}

func BenchmarkParseNetStatInto(b *testing.B) {
	benchInto(b, member(b, hostFixture, "proc/net/netstat"), ParseNetStatInto)
}

func BenchmarkParseSNMPInto(b *testing.B) {
	benchInto(b, member(b, hostFixture, "proc/net/snmp"), ParseNetStatInto)
}

func BenchmarkParseSNMP6Into(b *testing.B) {
	benchInto(b, member(b, hostFixture, "proc/net/snmp6"), ParseSNMP6Into)
}
