package artifact

import "testing"

// g259 (node_exporter 2716): netstat -s's lines quoted whole on lines of their own are read;
// quoted prose, a JSON array's elements and a quote inside a line are not.
func TestFix65dQuotedOutputLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`"48108 segments retransmitted"`, "48108 segments retransmitted"},
		{`"TCPLostRetransmit: 5164"`, "TCPLostRetransmit: 5164"},
		{`"Sep  7 20:09:20 host kernel: TCP: drop open request from 10.1.2.3/80"`, "Sep  7 20:09:20 host kernel: TCP: drop open request from 10.1.2.3/80"},
		{`"this is what I saw"`, `"this is what I saw"`},
		{`"48108 segments retransmitted",`, `"48108 segments retransmitted",`},
		{`"5 hosts were affected," he said "twice"`, `"5 hosts were affected," he said "twice"`},
		{`" 48108 segments retransmitted"`, `" 48108 segments retransmitted"`},
	} {
		if got := stripWholeQuote(c.in); got != c.want {
			t.Errorf("stripWholeQuote(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	text := "netstat -s reports:\n\"48108 segments retransmitted\"\nand\n\"TCPLostRetransmit: 5164\"\n"
	tl := ParseString(text, "p", Options{})
	var retrans, lost bool
	for _, s := range tl.Samples {
		if v, ok := s.NetStat.Get("Tcp", "RetransSegs"); ok && v == 48108 {
			retrans = true
		}
		if v, ok := s.NetStat.Get("TcpExt", "TCPLostRetransmit"); ok && v == 5164 {
			lost = true
		}
	}
	if !retrans || !lost {
		t.Errorf("quoted netstat -s lines not read: RetransSegs %v, TCPLostRetransmit %v", retrans, lost)
	}
}
