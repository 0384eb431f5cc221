package artifact

import (
	"encoding/json"
	"strings"
	"testing"
)

// The counter and form classes held-out batches g40-g43 found (corpus 1081-1160), each on a
// minimal snippet written for the class. Every test failed before its change.

// ifconfig blocks flattened to column 0 (a tracker or form stripped the indentation), both
// net-tools layouts. Before, the block ended at its header line and the counters were lost.
func TestIfconfigFlattenedToColumnZero(t *testing.T) {
	old := `ath1 Link encap:Ethernet HWaddr 02:11:22:33:44:55
inet addr:10.9.8.7 Bcast:10.9.8.255 Mask:255.255.255.0
UP BROADCAST RUNNING MULTICAST MTU:1500 Metric:1
RX packets:7000 errors:0 dropped:9100 overruns:0 frame:0
TX packets:300 errors:0 dropped:0 overruns:0 carrier:0
collisions:0 txqueuelen:1000
RX bytes:900000 (878.9 KiB) TX bytes:40000 (39.0 KiB)
`
	for _, in := range []string{"", "    ", "\t"} { // flattened, and then indented as a whole
		var b strings.Builder
		for _, l := range strings.SplitAfter(old, "\n") {
			if l != "" {
				b.WriteString(in + l)
			}
		}
		c := netdevOf(t, b.String(), "ath1")
		if c["rx_packets"] != 7000 || c["rx_dropped"] != 9100 || c["tx_packets"] != 300 {
			t.Errorf("old layout indented %q: counters %v", in, c)
		}
	}
	modern := `enp9s0: flags=4163<UP,BROADCAST,RUNNING,MULTICAST> mtu 1500
inet 10.1.2.3 netmask 255.255.255.0 broadcast 10.1.2.255
ether 52:54:00:aa:bb:cc txqueuelen 1000 (Ethernet)
RX packets 7000 bytes 900000 (878.9 KiB)
RX errors 0 dropped 9100 overruns 4 frame 0
TX packets 300 bytes 40000 (39.0 KiB)
TX errors 0 dropped 0 overruns 0 carrier 0 collisions 0
`
	c := netdevOf(t, modern, "enp9s0")
	if c["rx_packets"] != 7000 || c["rx_dropped"] != 9100 || c["rx_fifo_errors"] != 4 || c["tx_packets"] != 300 {
		t.Errorf("new layout: counters %v", c)
	}
	// Counter-case: prose at column 0 after a header is not the block's: the header alone
	// carries no counters, and the prose's numbers are not read into the interface.
	tl := ParseString("eth3 Link encap:Ethernet HWaddr 02:11:22:33:44:66\nRX was slow, about 5000 packets dropped per hour\nUP to now nothing helped, MTU 9000 tried\n", "p", Options{})
	for _, s := range tl.Samples {
		for _, nd := range s.NetDev {
			if v, ok := nd.Counters.Get("rx_dropped"); ok {
				t.Errorf("prose read into %s: rx_dropped %d", nd.Name, v)
			}
		}
	}
}

// Several commands' outputs a page ran onto one line: ss's table (header, rows), nstat rows
// with their rate column and conntrack -S CPU rows, between prose and prompts. Before, the
// line was unread ("name: value counters in a form headroom does not read").
func TestFlattenedSSNstatConntrackRows(t *testing.T) {
	text := "notes: $ ss -ltn State Recv-Q Send-Q Local Address:Port Peer Address:Port LISTEN 0 511 0.0.0.0:443 0.0.0.0:* LISTEN 65 64 [::]:8080 [::]:*  then $ nstat -az TcpExtListenOverflows 4400 0.0 TcpExtListenDrops 4500 0.0 IpExtInOctets 99 0.0 ... and $ conntrack -S cpu=0 found=1 invalid=2 ignore=3 insert=0 insert_failed=7 drop=7 early_drop=0 error=0 search_restart=5 cpu=1 found=1 invalid=2 ignore=3 insert=0 insert_failed=0 drop=0 early_drop=0 error=0 search_restart=5 end\n"
	tl := ParseString(text, "p", Options{})
	var socks []string
	var overflows, drops int64 = -1, -1
	conntrack := false
	var ctRows any
	for _, s := range tl.Samples {
		for _, k := range s.SocketList {
			socks = append(socks, k.State+" "+k.Local+" "+itoa(int(k.RecvQ))+"/"+itoa(int(k.SendQ)))
		}
		if v, ok := s.NetStatValue("TcpExt", "ListenOverflows"); ok {
			overflows = v
		}
		if v, ok := s.NetStatValue("TcpExt", "ListenDrops"); ok {
			drops = v
		}
		if s.Conntrack != nil {
			conntrack = true
		}
		for _, a := range tl.Artifacts {
			if a.Kind == KindConntrackS {
				ctRows = a.Data
			}
		}
	}
	if len(socks) != 2 || socks[1] != "LISTEN [::]:8080 65/64" {
		t.Errorf("ss rows %v", socks)
	}
	if overflows != 4400 || drops != 4500 {
		t.Errorf("nstat rows: ListenOverflows %d ListenDrops %d", overflows, drops)
	}
	if !conntrack {
		t.Errorf("conntrack -S rows unread; artifacts %d", len(tl.Artifacts))
	}
	if b, _ := json.Marshal(ctRows); strings.Count(string(b), "search_restart") != 2 {
		t.Errorf("conntrack -S: want both CPUs' rows, got %s", b)
	}
	// Counter-cases: prose naming counters without nstat's rate column, and a sentence with
	// Tcp and numbers, read nothing.
	for _, p := range []string{
		"We watched TcpExtListenOverflows 4400 times a day and TcpExtListenDrops 4500 times, restarting 2 pods and 3 nodes each hour, 7 times\n",
		"Tcp 5 and Udp 7 were our test names; Ip 3.4 was the version, the State was fine and 9 of 10 passed 11 times\n",
	} {
		tl := ParseString(p, "p", Options{})
		for _, s := range tl.Samples {
			if len(s.NetStat) > 0 || len(s.SocketList) > 0 {
				t.Errorf("%q read as counters: %+v", p, s)
			}
		}
	}
}

// ENA's allowance counters as exporters' metric series: node_exporter's ethtool collector
// (node_ethtool_*{device}), telegraf's ethtool input (ethtool_*{interface}) and the bare names
// with an eni label (AWS's network-flow-monitor agent). Before, only a node_ series started an
// exposition and none of these names mapped: the counters were unread.
func TestExporterENAAllowanceSeries(t *testing.T) {
	text := `# HELP node_ethtool_bw_in_allowance_exceeded Network interface bw_in_allowance_exceeded
# TYPE node_ethtool_bw_in_allowance_exceeded untyped
node_ethtool_bw_in_allowance_exceeded{device="ens5"} 12
node_ethtool_pps_allowance_exceeded{device="ens5"} 0
ethtool_conntrack_allowance_exceeded{driver="ena",host="a",interface="eth1"} 3
# TYPE linklocal_allowance_exceeded gauge
linklocal_allowance_exceeded{eni="eni-0abc",instance_id="i-0def"} 0
`
	tl := ParseString(text, "p", Options{})
	got := map[string]int64{}
	for _, s := range tl.Samples {
		for _, st := range s.NICStats {
			for k := 0; k < st.Stats.Len(); k++ {
				n, v := st.Stats.At(k)
				got[st.Name+" "+n] = v
			}
		}
	}
	want := map[string]int64{
		"ens5 bw_in_allowance_exceeded": 12, "ens5 pps_allowance_exceeded": 0,
		"eth1 conntrack_allowance_exceeded": 3, "eni-0abc linklocal_allowance_exceeded": 0,
	}
	if len(got) != len(want) {
		t.Errorf("read %v, want %v", got, want)
	}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("%s: got %d (read %v), want %d", k, g, ok, v)
		}
	}
	// Counter-cases: another exporter's series, and a name that only ends like one, read no
	// NIC counters and start no exposition.
	tl = ParseString("http_requests_total{code=\"200\"} 5\nbucket_allowance_exceeded{pool=\"a\"} 3\n", "p", Options{})
	for _, s := range tl.Samples {
		if len(s.NICStats) > 0 {
			t.Errorf("read as NIC counters: %+v", s.NICStats)
		}
	}
}

// iw's station dump without its command line (the fields' tabs turned to spaces, as a
// tracker renders them) is named as unread: before, the paste exited 3 ("nothing in it is
// evidence"). Counter-cases: a sentence starting with "Station" and a Station line without
// iw's fields stay prose; the dump under its command keeps the command's name.
func TestIwStationDumpNamedWithoutCommand(t *testing.T) {
	dump := "Station 02:aa:bb:cc:dd:ee (on wlp2s0)\n        inactive time:  120 ms\n        rx packets:     900\n        tx packets:     1000\n        tx retries:     77\n        tx failed:      1\n        beacon interval:100\n\nStation 02:aa:bb:cc:dd:ff (on wlp2s0)\n        tx retries:     3\n        tx fa\n"
	w := unreadWhy(dump)
	if len(w) != 1 || !strings.HasPrefix(w[0], "iw station dump:") {
		t.Errorf("unread %q", w)
	}
	tl := ParseString(dump, "p", Options{})
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].FirstLine != 1 || tl.Unparsed[0].LastLine != 11 {
		t.Errorf("span %+v", tl.Unparsed)
	}
	for _, s := range tl.Samples {
		if len(s.NetStat) > 0 || len(s.NetDev) > 0 {
			t.Errorf("station counters read as kernel counters: %+v", s)
		}
	}
	if w := unreadWhy("$ iw dev wlp2s0 station dump\n" + dump); len(w) != 1 || !strings.Contains(w[0], "`iw dev wlp2s0 station dump`") {
		t.Errorf("under its command: unread %q", w)
	}
	for _, p := range []string{
		"Station 02:aa:bb:cc:dd:ee (on wlp2s0) kept dropping off every hour.\n",
		"Station 02:aa:bb:cc:dd:ee (on wlp2s0)\n        some note of ours\n",
	} {
		for _, why := range unreadWhy(p) {
			if strings.Contains(why, "iw station dump") {
				t.Errorf("%q named as iw's: %q", p, why)
			}
		}
	}
}

// A number a poster made Markdown bold (or italic) inside a row of a table of numbers is the
// cell's number: sar -n EDEV, /proc/net/dev, vmstat. Before, "**7.50**" was no number and
// the row had a cell too few or a non-number, so it was unread. sar's rows elided with a run
// of dots ("......") keep the table going. Counter-case: emphasis in prose stays.
func TestMarkdownEmphasisInsideNumberTables(t *testing.T) {
	sar := `$ sar -n EDEV 1
10:00:01 PM     IFACE   rxerr/s   txerr/s    coll/s  rxdrop/s  txdrop/s  txcarr/s  rxfram/s  rxfifo/s  txfifo/s
10:00:01 PM      ens3      0.00      0.00      0.00  **7.50**      0.00      0.00      0.00      0.00      0.00
.........
10:00:01 PM      vxl0      0.00      0.00      0.00      0.00     *3.25*      0.00      0.00      0.00      0.00
`
	tl := ParseString(sar, "p", Options{})
	var tb *SysstatTable
	for _, a := range tl.Artifacts {
		if x, ok := a.Data.(*SysstatTable); ok {
			tb = x
		}
	}
	if tb == nil || len(tb.Rows) != 2 || tb.Rows[0][5] != "7.50" || tb.Rows[1][6] != "3.25" {
		t.Fatalf("sar rows %+v, unparsed %+v", tb, tl.Unparsed)
	}
	nd := "Inter-|   Receive                                                |  Transmit\n face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n  eth2: 1000 10 0 __5__ 0 0 0 0 2000 20 0 0 0 0 0 0\n"
	if c := netdevOf(t, nd, "eth2"); c["rx_dropped"] != 5 || c["rx_packets"] != 10 {
		t.Errorf("/proc/net/dev: %v", c)
	}
	for _, p := range []string{"we saw **512** drops on 3 hosts in 2 days", "a *bold* claim: 1 2 3"} {
		if got := stripCellEmphasis(p); got != p {
			t.Errorf("prose %q rewritten to %q", p, got)
		}
	}
}

// A /proc/net/dev row pasted without the file's header (grepped, or the header re-aligned by
// hand out of its shape): an interface's name, a colon and the 16 counts. Before, the row was
// "more numbers than a sentence states". Counter-cases: /proc/softirqs' NET_RX row of a
// 16-CPU host and a row with 15 counts are no interface.
func TestProcNetDevRowWithoutHeader(t *testing.T) {
	row := "vethab12: 5000 40 0 7 0 0 0 0 9000 60 0 2 0 0 0 0\n"
	c := netdevOf(t, "the pod's side:\n"+row, "vethab12")
	if c["rx_packets"] != 40 || c["rx_dropped"] != 7 || c["tx_packets"] != 60 {
		t.Errorf("counters %v", c)
	}
	noInterfaceRead(t,
		"    NET_RX: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n",
		"eth0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n",
	)
}
