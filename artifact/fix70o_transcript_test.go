package artifact

import "testing"

// fix70o, fix70p (corpus 7068, a netdev patch's test transcript indented two spaces): the
// next command's line after an ss table is no detail of its last row, so nstat's counter
// under it is read; and "sysctl -q key=value" writes the value as "sysctl key=value" does.
func TestIndentedTranscriptAfterAnSSTable(t *testing.T) {
	const text = `  # sysctl -q net.ipv4.tcp_mem="1000 1000 1000"
  # ss -tn | head -n 3
  State Recv-Q Send-Q Local Address:Port  Peer Address:Port
  ESTAB 2000   0          127.0.0.1:34479    127.0.0.1:53188
  ESTAB 2000   0          127.0.0.1:34479    127.0.0.1:49972
  # nstat | grep Pressure || echo no pressure
  TcpExtTCPMemoryPressures        1                  0.0
`
	tl := ParseString(text, "t", Options{})
	found := false
	for _, s := range tl.Samples {
		if v, ok := s.NetStatValue("TcpExt", "TCPMemoryPressures"); ok && v == 1 {
			found = true
		}
	}
	if !found {
		t.Errorf("TCPMemoryPressures after the ss table not read")
	}
	set := false
	for _, m := range tl.Settings {
		if m.Key == "net.ipv4.tcp_mem" && m.Value == "1000 1000 1000" {
			set = true
		}
	}
	if !set {
		t.Errorf("sysctl -q's tcp_mem not read: %+v", tl.Settings)
	}
	// The counter-case: ss -i's detail line indented under its row stays the row's.
	tb, _, _ := ssTableAt(SplitLines("  State Recv-Q Send-Q Local Address:Port  Peer Address:Port\n  ESTAB 0 0 10.0.0.1:22 10.0.0.2:5000\n\t cubic wscale:7,7 rto:204 rtt:0.5/0.25 cwnd:10\n"), 0, false)
	if len(tb.Sockets) != 1 || tb.Sockets[0].Info == nil {
		t.Errorf("ss -i detail under an indented row: %+v", tb.Sockets)
	}
}
