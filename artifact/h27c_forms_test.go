package artifact

import (
	"strings"
	"testing"
)

// Pre-round 27 (h27c): the forms' readers and what they must not take (diagnose/
// h27c_flowcollectors_test.go asserts the findings). Snippets written from telegraf's,
// net-snmp's and pmacct's format strings.

func TestH27cTelegrafNstatAndSeries(t *testing.T) {
	tl := ParseString("nstat,host=col,name=snmp UdpInDatagrams=100i,UdpRcvbufErrors=7i 1606770000000000000\n"+
		"nstat,host=col,name=netstat TcpExtListenOverflows=3i 1606770000000000000\n"+
		"nstat,host=col,name=snmp UdpInDatagrams=200i,UdpRcvbufErrors=9i 1606770060000000000\n"+
		"nstat,host=col,name=netstat TcpExtListenOverflows=5i 1606770060000000000\n", "p", Options{})
	if len(tl.Samples) != 2 {
		t.Fatalf("samples %d, want one per timestamp", len(tl.Samples))
	}
	if d := tl.Samples[1].Time.Sub(tl.Samples[0].Time).Seconds(); d != 60 {
		t.Errorf("window %v s", d)
	}
	for i, want := range [][2]int64{{7, 3}, {9, 5}} {
		s := tl.Samples[i]
		rb, _ := s.NetStat.Get("Udp", "RcvbufErrors")
		lo, _ := s.NetStat.Get("TcpExt", "ListenOverflows")
		if rb != want[0] || lo != want[1] {
			t.Errorf("sample %d: RcvbufErrors %d ListenOverflows %d", i, rb, lo)
		}
	}
	// One timestamp for several series stays one sample (telegraf --test, one gather).
	tl = ParseString("net,interface=eth0,host=a drop_in=1i 1606770000000000000\nnet,interface=eth1,host=a drop_in=2i 1606770000000000000\n", "p", Options{})
	if len(tl.Samples) != 1 || len(tl.Samples[0].NetDev) != 2 {
		t.Errorf("one gather: %d samples", len(tl.Samples))
	}
	notReadAs(t, KindTelegraf,
		"We alert when UdpRcvbufErrors=100 or more.\n",
		"nstat UdpRcvbufErrors=7i\n",
	)
}

func TestH27cSNMPIfWalk(t *testing.T) {
	tl := ParseString("IF-MIB::ifDescr.2 = STRING: eth0\nIF-MIB::ifInDiscards.2 = Counter32: 55\nIF-MIB::ifInErrors.2 = Counter32: 4\n"+
		"IF-MIB::ifInUcastPkts.2 = Counter32: 1000\nIF-MIB::ifInNUcastPkts.2 = Counter32: 10\n", "p", Options{})
	if len(tl.Samples) != 1 || len(tl.Samples[0].NetDev) != 1 {
		t.Fatalf("samples %+v", tl.Samples)
	}
	dev := tl.Samples[0].NetDev[0]
	get := func(n string) int64 { v, _ := dev.Counters.Get(n); return v }
	if dev.Name != "eth0" || get("rx_dropped") != 55 || get("rx_errors") != 4 || get("rx_packets") != 1010 {
		t.Errorf("netdev %+v", dev)
	}
	// A switch's names, a walk without names and another MIB's rows are not /proc/net/dev.
	for _, text := range []string{
		"IF-MIB::ifDescr.1 = STRING: GigabitEthernet0/1\nIF-MIB::ifInDiscards.1 = Counter32: 5\n",
		"IF-MIB::ifInDiscards.1 = Counter32: 5\n",
	} {
		if tl := ParseString(text, "p", Options{}); len(tl.Samples) != 0 || len(tl.Unparsed) == 0 {
			t.Errorf("%q: samples %d, unparsed %d", text, len(tl.Samples), len(tl.Unparsed))
		}
	}
	notReadAs(t, KindSNMPIf,
		"UCD-SNMP-MIB::memAvailReal.0 = INTEGER: 101232 kB\n",
		"HOST-RESOURCES-MIB::hrStorageUsed.1 = INTEGER: 123\n",
		"ifInDiscards rises on eth0 every poll\n",
	)
}

// A Zabbix trigger expression, the frontend's latest data (a change per second) and a key
// in a sentence are not the agent's raw value.
func TestH27cZabbixRawOnly(t *testing.T) {
	tl := ParseString("$ zabbix_get -s 10.0.0.5 -k net.if.out[ens3,errors]\n17\n", "p", Options{})
	if len(tl.Samples) != 1 || len(tl.Samples[0].NetDev) != 1 {
		t.Fatalf("samples %+v", tl.Samples)
	}
	if v, _ := tl.Samples[0].NetDev[0].Counters.Get("tx_errors"); v != 17 || tl.Samples[0].NetDev[0].Name != "ens3" {
		t.Errorf("netdev %+v", tl.Samples[0].NetDev)
	}
	notReadAs(t, KindZabbixIf,
		"{collector:net.if.in[eth0,dropped].last()}>100\n",
		"net.if.in[eth0,dropped]   2023-01-01 10:00:00   12.5\n",
		"We graph net.if.in[eth0,dropped] in zabbix_get tests\n17\n",
		"$ zabbix_get -s 127.0.0.1 -k 'net.if.in[eth0,overruns]'\n5\n",
	)
}

// nfcapd's per-file statistics and pmacct's sequence check are named as the collector's own
// gaps (not a kernel counter, no exit 3); another program's "Sequence Errors" is not theirs.
func TestH27cFlowSequenceGapsNamed(t *testing.T) {
	for _, text := range []string{
		"Dec  1 10:05:00 flowcol nfcapd[4321]: Ident: 'none' Flows: 1203123, Packets: 9812341, Bytes: 12331231231, Sequence Errors: 12312, Bad Packets: 0, Blocks: 2\n",
		"nfacctd_1  | INFO ( default/core ): expecting flow '120931' but received '121203' collector=0.0.0.0:2100 agent=10.0.0.1:0\n",
	} {
		tl := ParseString(text, "p", Options{})
		if len(tl.Unparsed) != 1 || !strings.Contains(tl.Unparsed[0].Why, "flow collector's own") || len(tl.Samples) != 0 {
			t.Errorf("%q: unparsed %+v samples %d", text, tl.Unparsed, len(tl.Samples))
		}
	}
	for _, text := range []string{
		"Sequence Errors: 5\n",
		"Packets Sent: 10, Sequence Errors: 3\n",
		"we were expecting flow data but received nothing\n",
	} {
		tl := ParseString(text, "p", Options{})
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "flow collector's own") {
				t.Errorf("%q named as a collector's gap", text)
			}
		}
	}
}
