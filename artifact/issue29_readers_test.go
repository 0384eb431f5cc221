package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// node_exporter's exposition pasted into an issue (statshouse#109, PromAnsible#3): the
// mapped counters are kept with their values, and feed the same sample fields /proc does.
func TestNodeExporterExposition(t *testing.T) {
	tl := parseFile(t, "testdata/node_exporter_exposition.txt", Options{})
	as := artifactsOf(tl, KindNodeExporter)
	if len(as) != 1 {
		t.Fatalf("artifacts %+v", tl.Artifacts)
	}
	d := as[0].Data.(NodeExporterData)
	want := map[string]int64{
		"meminfo Inactive(file)": 3395940352 / 1024, "meminfo KReclaimable": 1290182656 / 1024,
		"meminfo HugePages_Total": 0, "vmstat pgalloc_normal": 475217133, "vmstat pgfault": 180243946,
	}
	for k, v := range want {
		if got, ok := d.Values[k]; !ok || got != v {
			t.Errorf("%s = %d (%v), want %d", k, got, ok, v)
		}
	}
	if d.Samples != 5 || d.Mapped != 5 {
		t.Errorf("samples %d mapped %d", d.Samples, d.Mapped)
	}
	var s *model.Sample
	for i := range tl.Samples {
		if strings.Contains(tl.Samples[i].Source, "node_exporter") {
			s = &tl.Samples[i]
		}
	}
	if s == nil || s.VMStat == nil || s.MemInfo == nil {
		t.Fatalf("no sample of the counters: %+v", tl.Samples)
	}
	if v, _ := s.VMStat.Get("pgfault"); v != 180243946 {
		t.Errorf("vmstat pgfault %d", v)
	}
	if v, _ := s.Mem("Inactive(file)"); v != 3316348 {
		t.Errorf("meminfo Inactive(file) %d kB", v)
	}
	if len(tl.Unparsed) != 0 {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
}

// Labels name the device and the CPU: the network and softnet counters land per device and CPU.
func TestNodeExporterLabels(t *testing.T) {
	text := `# HELP node_network_receive_fifo_total Network device statistic receive_fifo.
# TYPE node_network_receive_fifo_total counter
node_network_receive_fifo_total{device="eth0"} 1.392055e+06
node_network_receive_drop_total{device="eth0"} 17
# HELP node_softnet_dropped_total Number of dropped packets
# TYPE node_softnet_dropped_total counter
node_softnet_dropped_total{cpu="1"} 42
node_softnet_times_squeezed_total{cpu="1"} 3
node_netstat_TcpExt_PruneCalled 12
node_load1 NaN
`
	tl, err := Parse(strings.NewReader(text), "t.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var s *model.Sample
	for i := range tl.Samples {
		s = &tl.Samples[i]
	}
	if s == nil || len(s.NetDev) != 1 || len(s.Softnet) != 1 {
		t.Fatalf("sample %+v", tl.Samples)
	}
	if v, _ := s.NetDev[0].Counters.Get("rx_fifo_errors"); s.NetDev[0].Name != "eth0" || v != 1392055 {
		t.Errorf("netdev %+v", s.NetDev)
	}
	if c := s.Softnet[0]; c.CPU != 1 || c.Dropped != 42 || c.TimeSqueeze != 3 {
		t.Errorf("softnet %+v", c)
	}
	if v, ok := s.NetStatValue("TcpExt", "PruneCalled"); !ok || v != 12 {
		t.Errorf("netstat %d %v", v, ok)
	}
}

// iperf3's table (esnet/iperf#1207, #306): throughput, retransmits and cwnd per interval, and
// the sender and receiver summaries.
func TestIperf3Table(t *testing.T) {
	tl := parseFile(t, "testdata/iperf3_retr_cwnd.txt", Options{})
	as := artifactsOf(tl, KindIperf)
	if len(as) != 2 {
		t.Fatalf("artifacts %+v", tl.Artifacts)
	}
	a := as[0].Data.(IperfData)
	if len(a.Intervals) != 2 {
		t.Fatalf("intervals %+v", a.Intervals)
	}
	r := a.Intervals[0]
	if r.Stream != "5" || r.End != 1 || r.Bytes != 123<<20 || r.BitsPerSec != 1.03e9 ||
		r.Retransmits == nil || *r.Retransmits != 13 || r.CwndBytes == nil || *r.CwndBytes != 603<<10 {
		t.Errorf("interval %+v", r)
	}
	b := as[1].Data.(IperfData)
	if b.Sender == nil || b.Sender.BitsPerSec != 8114e6 || b.Sender.Retransmits == nil || *b.Sender.Retransmits != 0 {
		t.Errorf("sender %+v", b.Sender)
	}
	if b.Receiver == nil || b.Receiver.BitsPerSec != 8103e6 || b.Receiver.Retransmits != nil {
		t.Errorf("receiver %+v", b.Receiver)
	}
}

// bwctl quotes iperf's table in mail (esnet/iperf#198): the quoting is removed and the rows read.
func TestIperfBwctlQuoted(t *testing.T) {
	text := `> bwctl: Using tool: iperf3
> [ ID] Interval           Transfer     Bandwidth       Retr  Cwnd
> [ 15]   0.00-1.00   sec  47.5 MBytes   398 Mbits/sec    0    822 KBytes
> [ 15]   1.00-2.00   sec  11.2 MBytes  94.4 Mbits/sec    0    822 KBytes
`
	tl, err := Parse(strings.NewReader(text), "t.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	as := artifactsOf(tl, KindIperf)
	if len(as) != 1 || len(as[0].Data.(IperfData).Intervals) != 2 || as[0].Data.(IperfData).Intervals[1].BitsPerSec != 94.4e6 {
		t.Errorf("artifacts %+v", tl.Artifacts)
	}
}

// FuzzExpositionAndIperf: the two readers on arbitrary lines never panic, and the streamed
// parse equals the whole one.
func FuzzExpositionAndIperf(f *testing.F) {
	f.Add("node_memory_MemFree_bytes 1.2e+06\n")
	f.Add("node_softnet_dropped_total{cpu=\"x\"} 1e400\n# TYPE node_x gauge\n")
	f.Add("[  5]   0.00-1.00   sec   123 MBytes  1.03 Gbits/sec   13    603 KBytes\n")
	f.Add("[SUM] 0.0-1.0 sec 9999999999999999999 TBytes 1 bits/sec 99999999999999999999 1 Bytes sender\n")
	f.Fuzz(func(t *testing.T, s string) {
		sameAsWhole(t, "fuzz", s)
	})
}
