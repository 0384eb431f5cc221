package diagnose

import (
	"strings"
	"testing"
)

// Pre-round 27 (h27c): flow collectors' and monitoring systems' forms that carry this host's
// kernel counters, written here from the programs' own format strings (telegraf's
// inputs/nstat and inputs/net, net-snmp's IF-MIB walk, pmacct's nfacctd_pipe_size line);
// none copied from a case. Each must reach its rule with the figure.

func h27cRun(t *testing.T, text string) Diagnosis {
	t.Helper()
	return Run(pasteTimeline(t, text), nil)
}

// h27cFinding returns the finding id's evidence joined, and whether it fired.
func h27cFinding(d Diagnosis, id string) (Severity, string, bool) {
	for _, f := range d.Findings {
		if f.ID == id {
			var b strings.Builder
			for _, e := range f.Evidence {
				b.WriteString(e.What + ": " + e.Value + "\n")
			}
			return f.Severity, b.String(), true
		}
	}
	return 0, "", false
}

func TestH27cCollectorsReachRules(t *testing.T) {
	for _, c := range []struct {
		name, text, id string
		sev            Severity
		figure         string
	}{
		{"telegraf inputs.nstat twice", "nstat,host=col,name=snmp UdpInDatagrams=48211234i,UdpInErrors=90321i,UdpRcvbufErrors=90321i,UdpSndbufErrors=0i 1606770000000000000\n" +
			"nstat,host=col,name=snmp UdpInDatagrams=48411234i,UdpInErrors=95321i,UdpRcvbufErrors=95321i,UdpSndbufErrors=0i 1606770060000000000\n",
			"udp-rcvbuf-errors", Critical, "+5000 over 60.0 s"},
		{"telegraf inputs.net per interface twice", "net,interface=eth1,host=col packets_recv=912345678i,err_in=0i,drop_in=2345678i 1606770000000000000\n" +
			"net,interface=eth1,host=col packets_recv=913345678i,err_in=0i,drop_in=2445678i 1606770060000000000\n",
			"rx-dropped-software", Warning, "+100000 over 60.0 s"},
		{"snmpwalk IF-MIB by name", "$ snmpwalk -v2c -c public localhost IF-MIB::ifInDiscards\nIF-MIB::ifInDiscards.1 = Counter32: 0\nIF-MIB::ifInDiscards.2 = Counter32: 2345678\n" +
			"$ snmpwalk -v2c -c public localhost IF-MIB::ifHCInUcastPkts\nIF-MIB::ifHCInUcastPkts.2 = Counter64: 912345678\n" +
			"$ snmpwalk -v2c -c public localhost IF-MIB::ifName\nIF-MIB::ifName.1 = STRING: lo\nIF-MIB::ifName.2 = STRING: eth0\n",
			"rx-dropped-software", Info, "2345678"},
		{"snmpwalk numeric without MIBs", "iso.3.6.1.2.1.2.2.1.2.2 = STRING: \"ens3\"\niso.3.6.1.2.1.2.2.1.11.2 = Counter32: 812345678\niso.3.6.1.2.1.2.2.1.13.2 = Counter32: 1345678\n",
			"rx-dropped-software", Info, "1345678"},
		{"pmacct pipe size capped, syslog", "Dec 01 10:00:01 flowcol nfacctd[1234]: INFO ( default/core ): nfacctd_pipe_size: obtained=425984 target=33554432.\n",
			"udp-rcvbuf-errors", Warning, "obtained 416 KiB"},
		{"pmacct sfacctd, compose", "sfacctd_1  | INFO ( default/core ): sfacctd_pipe_size: obtained=425984 target=67108864.\n",
			"udp-rcvbuf-errors", Warning, "requested 64 MiB"},
		{"telegraf's records under its journal tag", "Dec 01 10:00:01 col telegraf[99]: net,interface=eth0,host=col drop_in=5i,packets_recv=100i 1606770000000000000\n",
			"rx-dropped-software", Info, "5 dropped"},
		{"zabbix_get raw counters", "$ zabbix_get -s 127.0.0.1 -k 'net.if.in[eth0,dropped]'\n2345678\n$ zabbix_get -s 127.0.0.1 -k 'net.if.in[eth0,packets]'\n912345678\n",
			"rx-dropped-software", Info, "0.26%"},
		{"zabbix_agentd -t", "net.if.in[eth0,dropped]                       [u|2345678]\nnet.if.in[eth0,packets]                       [u|912345678]\n",
			"rx-dropped-software", Info, "2345678"},
	} {
		d := h27cRun(t, c.text)
		sev, ev, ok := h27cFinding(d, c.id)
		if !ok {
			t.Errorf("%s: no %s: %+v", c.name, c.id, d.Findings)
			continue
		}
		if sev != c.sev || !strings.Contains(ev, c.figure) {
			t.Errorf("%s: %s %v, want %v with %q:\n%s", c.name, c.id, sev, c.sev, c.figure, ev)
		}
	}
}

// Counter-cases: a router's walk, pmacct's buffer obtained at its target, its BGP daemon's
// TCP pipe and a healthy telegraf series reach no finding (sentences: artifact/h27c_forms_test.go).
func TestH27cCollectorsCounterCases(t *testing.T) {
	for _, c := range []struct{ name, text, id string }{
		{"a switch's walk", "IF-MIB::ifDescr.1 = STRING: GigabitEthernet0/1\nIF-MIB::ifInDiscards.1 = Counter32: 2345678\nIF-MIB::ifInUcastPkts.1 = Counter32: 12345678\n", "rx-dropped-software"},
		{"a walk without names", "IF-MIB::ifInDiscards.2 = Counter32: 2345678\nIF-MIB::ifInUcastPkts.2 = Counter32: 12345678\n", "rx-dropped-software"},
		{"pmacct obtained at target", "INFO ( default/core ): nfacctd_pipe_size: obtained=67108864 target=33554432.\n", "udp-rcvbuf-errors"},
		{"pmacct BGP daemon", "INFO ( default/core/BGP ): bgp_daemon_pipe_size: obtained=425984 target=33554432.\n", "udp-rcvbuf-errors"},
		{"healthy telegraf series", "nstat,host=col,name=snmp UdpInDatagrams=48211234i,UdpRcvbufErrors=0i 1606770000000000000\nnstat,host=col,name=snmp UdpInDatagrams=48411234i,UdpRcvbufErrors=0i 1606770060000000000\n", "udp-rcvbuf-errors"},
	} {
		d := h27cRun(t, c.text)
		if _, ev, ok := h27cFinding(d, c.id); ok {
			t.Errorf("%s: %s fired:\n%s", c.name, c.id, ev)
		}
	}
	// The healthy series is read: the rule is checked, not left unchecked.
	d := h27cRun(t, "nstat,host=col,name=snmp UdpInDatagrams=48211234i,UdpRcvbufErrors=0i 1606770000000000000\nnstat,host=col,name=snmp UdpInDatagrams=48411234i,UdpRcvbufErrors=0i 1606770060000000000\n")
	for _, c := range d.Checks {
		if c.ID == "udp-rcvbuf-errors" && c.Status != StatusOK {
			t.Errorf("healthy telegraf series: udp-rcvbuf-errors %v (%s)", c.Status, c.Why)
		}
	}
}
