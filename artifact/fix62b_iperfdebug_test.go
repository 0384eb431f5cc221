package artifact

import (
	"strings"
	"testing"
)

// fix62b: iperf3 -d -f K: the rate in bytes per second, a TCP_INFO line before each row
// (kept as the flow's MSS), and a UDP client's table whose last column is no Retr.
func TestIperfDebugBytesPerSec(t *testing.T) {
	text := "SO_SNDBUF is 16384\n" +
		"[  4] local 10.80.2.2 port 36632 connected to 11.22.33.44 port 5201\n" +
		"tcpi_snd_cwnd 50 tcpi_snd_mss 1326 tcpi_rtt 93887\n" +
		"[ ID] Interval           Transfer     Bandwidth       Retr  Cwnd\n" +
		"[  4]   0.00-1.00   sec   684 KBytes   684 KBytes/sec    5   64.7 KBytes\n" +
		"tcpi_snd_cwnd 55 tcpi_snd_mss 1326 tcpi_rtt 103009\n" +
		"[  4]   1.00-2.00   sec   755 KBytes   755 KBytes/sec    1   71.2 KBytes\n"
	tl, err := Parse(strings.NewReader(text), "t.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	as := artifactsOf(tl, KindIperf)
	if len(as) != 1 {
		t.Fatalf("artifacts %+v", tl.Artifacts)
	}
	a := as[0].Data.(IperfData)
	if len(a.Intervals) != 2 || a.MSS != 1326 {
		t.Fatalf("table %+v", a)
	}
	r := a.Intervals[0]
	if r.BitsPerSec != 684*1024*8 || r.Retransmits == nil || *r.Retransmits != 5 || r.CwndBytes == nil {
		t.Errorf("row %+v", r)
	}
	// UDP: the header says Total Datagrams; 4900 is no retransmit count.
	udp := "[ ID] Interval           Transfer     Bitrate         Total Datagrams\n" +
		"[  5]   0.00-1.00   sec  6.77 MBytes  56.8 Mbits/sec  4900\n"
	tl, err = Parse(strings.NewReader(udp), "u.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	as = artifactsOf(tl, KindIperf)
	if len(as) != 1 || as[0].Data.(IperfData).Intervals[0].Retransmits != nil {
		t.Errorf("UDP datagrams read as retransmits: %+v", tl.Artifacts)
	}
}
