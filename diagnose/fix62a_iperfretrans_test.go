package diagnose

import (
	"strings"
	"testing"
)

// fix62a: an iperf3 run's Retr column is the test flow's retransmissions, judged by
// retransmit-rate against the segments its bytes make at a 1448-byte MSS when the host's own
// Tcp counters are not in the text.

const iperfHead = "[ ID] Interval           Transfer     Bitrate         Retr  Cwnd\n"

func iperfSummary(bytes, retr string) string {
	return "- - - - - - - - - - - - - - - - - - - - - - - - -\n" +
		"[ ID] Interval           Transfer     Bitrate         Retr\n" +
		"[  5]   0.00-10.00  sec  " + bytes + "   100 Mbits/sec  " + retr + "             sender\n" +
		"[  5]   0.00-10.04  sec  " + bytes + "   100 Mbits/sec                  receiver\n"
}

func TestFix62aIperfRetransmits(t *testing.T) {
	// 139 MBytes are about 100 657 segments of 1448 bytes: 12925 of them is 12.8%.
	bad := "$ iperf3 -c 10.1.1.2\n" + iperfHead +
		"[  5]   0.00-1.00   sec  14.0 MBytes   117 Mbits/sec  1290   24.0 KBytes\n" + iperfSummary("139 MBytes", "12925")
	res := fired(t, "retransmit-rate", bad)
	f := mustFire(t, res, Critical)
	if !evidenceHas(f, "iperf3 Retr", "12925 / 100657 = 13%") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	// A before and an after: the worst run is the problem the text is about.
	good := "after the revert:\n" + iperfHead + iperfSummary("1.00 GBytes", "450")
	f = mustFire(t, fired(t, "retransmit-rate", bad+"\n"+good), Critical)
	if !evidenceHas(f, "iperf3 Retr", "the worst of 2 iperf3 runs") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	// 450 of about 741 534 segments is 0.06%: healthy, and said so.
	res = fired(t, "retransmit-rate", good)
	mustBeHealthy(t, res)
	if !strings.Contains(res.Checked, "iperf3") {
		t.Errorf("healthy without naming the run: %q", res.Checked)
	}
	// With -P the [SUM] rows count, not the streams twice; a cut paste has no summary.
	cut := iperfHead
	for _, iv := range []string{"0.00-1.00", "1.00-2.00"} {
		for _, id := range []string{"  4", "  6"} {
			cut += "[" + id + "]   " + iv + "   sec  1.00 MBytes  8.39 Mbits/sec   30   10.0 KBytes\n"
		}
		cut += "[SUM]   " + iv + "   sec  2.00 MBytes  16.8 Mbits/sec   60\n"
	}
	f = mustFire(t, fired(t, "retransmit-rate", cut), Warning)
	if !evidenceHas(f, "iperf3 Retr", "120 / 2896 = 4.1%") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	// iperf3 -d -f K: rates in bytes, and each row after a TCP_INFO line whose MSS counts
	// the segments: 2000 KBytes at 1024-byte segments are 2000 segments, 60 of them 3.0%.
	debug := "[ ID] Interval           Transfer     Bandwidth       Retr  Cwnd\n" +
		"tcpi_snd_cwnd 50 tcpi_snd_mss 1024 tcpi_rtt 93887\n" +
		"[  4]   0.00-1.00   sec  1000 KBytes  1000 KBytes/sec   30   64.7 KBytes\n" +
		"tcpi_snd_cwnd 55 tcpi_snd_mss 1024 tcpi_rtt 103009\n" +
		"[  4]   1.00-2.00   sec  1000 KBytes  1000 KBytes/sec   30   71.2 KBytes\n"
	f = mustFire(t, fired(t, "retransmit-rate", debug), Warning)
	if !evidenceHas(f, "1024-byte MSS", "60 / 2000 = 3.0%") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	// Counter-cases: too few segments to judge a share (a slow tunnel's 580 kbit/s), and
	// iperf 2 or a receiver's table, which have no Retr column.
	for _, text := range []string{
		iperfHead + iperfSummary("708 KBytes", "178"),
		"[  3]  0.0-10.0 sec  1.09 GBytes   938 Mbits/sec\n",
		// A UDP client's table: the number after the bitrate is Total Datagrams.
		"[ ID] Interval           Transfer     Bitrate         Total Datagrams\n" +
			"[  5]   0.00-1.00   sec  6.77 MBytes  56.8 Mbits/sec  4900\n" +
			"[  5]   1.00-2.00   sec  4.27 MBytes  35.8 Mbits/sec  3089\n",
	} {
		mustNotCheck(t, fired(t, "retransmit-rate", text), "RetransSegs")
	}
	// The host's own counters, when read, decide: the test flow is one flow among its traffic.
	snmp := "Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts\n" +
		"Tcp: 1 200 120000 -1 100 100 0 0 10 2000000 3000000 300 0 10\n"
	mustBeHealthy(t, fired(t, "retransmit-rate", snmp+"\n"+bad))
}
