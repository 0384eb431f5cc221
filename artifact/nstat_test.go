package artifact

import "testing"

// nstat prints only the counters named on its command line (iproute2 misc/nstat.c), so a
// single row under its command, in a fence and among prose, is its whole output. The same
// row with no command above it stays unread: one "Name value" pair may be anything.
func TestNstatSingleRowUnderItsCommand(t *testing.T) {
	text := "It's in `/proc/net/netstat` as `TCPReqQFullDrop`. (And I also find `ListenOverflows`there.)\n" +
		"```\n# nstat -za TcpExtTCPReqQFullDrop\nTcpExtTCPReqQFullDrop           7                  0.0\n```\n" +
		"The counter is increased in tcp_syn_flood_action().\n"
	tl := ParseString(text, "nstat row", Options{})
	if len(tl.Samples) != 1 {
		t.Fatalf("samples %+v unparsed %+v", tl.Samples, tl.Unparsed)
	}
	if v, ok := tl.Samples[0].NetStat.Get("TcpExt", "TCPReqQFullDrop"); !ok || v != 7 {
		t.Errorf("TCPReqQFullDrop = %v (%v)", v, ok)
	}
	if _, ok := tl.Samples[0].NetStat.Get("TcpExt", "ListenOverflows"); ok {
		t.Errorf("a counter named in prose was read as a value")
	}
	ns, ok := tl.Artifacts[0].Data.(*Nstat)
	if !ok || ns.Absolute == nil || !*ns.Absolute {
		t.Errorf("nstat -za should be read as absolute: %+v", tl.Artifacts[0].Data)
	}

	tl = ParseString("the counter:\nTcpExtTCPReqQFullDrop           7                  0.0\n", "no command", Options{})
	if len(tl.Samples) != 0 {
		t.Errorf("a lone row without its command was read: %+v", tl.Samples)
	}
}
