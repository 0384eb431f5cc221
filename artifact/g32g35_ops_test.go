package artifact

import (
	"slices"
	"strings"
	"testing"
)

// A title that says what a monitoring check reports ("check_conntrack says the conntrack
// table is full ...") is the check's verdict at its threshold, not the kernel's record
// (corpus 969). The same title without a check, or a check that only names the table in the
// body, keeps the title's reading.
func TestTitleOfACheckNotLogged(t *testing.T) {
	for _, text := range []string{
		"check_nf_table reports conntrack table is full while most entries are unreplied\n\nthe plugin counts every entry\n",
		"Zabbix alerts that conntrack table full on idle firewall\n\nsee graph\n",
	} {
		if tl := ParseString(text, "p", Options{}); tl.Log.Len() != 0 {
			t.Errorf("%q read as logged: %+v", text, tl.Log)
		}
	}
	// The same in a sentence of the body: what the check says, not a stated event.
	if tl := ParseString("Hello\n\nOur check_ct plugin reports that the conntrack table is full whenever unreplied entries pile up.\n", "p", Options{}); len(artifactsOf(tl, KindStated)) != 0 {
		t.Errorf("check's report stated: %+v", artifactsOf(tl, KindStated))
	}
	if tl := ParseString("Hello\n\nLast night the conntrack table was full and the plugin went red.\n", "p", Options{}); len(artifactsOf(tl, KindStated)) == 0 {
		t.Errorf("host's event not stated")
	}
	for _, text := range []string{
		"conntrack table is full on our edge router\n\nnew flows are dropped since Monday\n",
		"# nf_conntrack table full\n\nnagios caught it first\n",
	} {
		tl := ParseString(text, "p", Options{})
		if tl.Log.Len() != 1 || !strings.Contains(tl.Log.At(0).Message, "table full, dropping packet") {
			t.Errorf("%q: log %+v", text, tl.Log)
		}
	}
}

// The conntrack-full message in the short form people quote ("nf_conntrack: table full") in
// a sentence that says the author met it is the host's record (corpus 998). Unquoted, asked
// about, or said as a possibility, it is not.
func TestQuotedShortConntrackFullStated(t *testing.T) {
	for _, text := range []string{
		"Hi,\n\nWe encountered a 'nf_conntrack: table full' message on our NAT box after the upgrade.\n",
		"Hello\n\nI'm hitting \"ip_conntrack: table full\" on 5.10 under a port scan.\n",
	} {
		tl := ParseString(text, "p", Options{})
		if tl.Log.Len() != 1 || !strings.Contains(tl.Log.At(0).Message, "table full, dropping packet") {
			t.Errorf("%q: log %+v", text, tl.Log)
		}
	}
	for _, text := range []string{
		"Hi,\n\nWhy do I get \"nf_conntrack: table full\" on an idle box?\n",
		"Hi,\n\nIf you hit \"nf_conntrack: table full\", raise nf_conntrack_max.\n",
		"Hi,\n\nWe encountered the nf_conntrack: table full thing in the docs only.\n",
	} {
		if tl := ParseString(text, "p", Options{}); tl.Log.Len() != 0 {
			t.Errorf("%q read as logged: %+v", text, tl.Log)
		}
	}
}

// A Nagios plugin's status line with performance data ("SERVICE STATE - text|label=value
// [UOM];warn;crit;min;max"): a conntrack check's count and maximum become the host's
// nf_conntrack_count and nf_conntrack_max, check_swap's free and total swap its SwapFree and
// SwapTotal. Before: prose (exit 3 when nothing else was read). The state word is not read;
// another plugin's perfdata is kept but not taken as a kernel reading; a sentence with a pipe
// is no status line.
func TestNagiosPerfdataRead(t *testing.T) {
	tl := ParseString("$ ./check_nf -w 75 -c 90\nNF OK - 12% of table (3900/32768)|entries=3900;24576;29491;0;32768\n", "p", Options{})
	if c, _, ok := tl.Sysctl("net.netfilter.nf_conntrack_count"); ok {
		t.Errorf("a table check that does not name conntrack read as conntrack: %q", c)
	}
	tl = ParseString("# check_conntrack -w 75 -c 90\nCT WARNING: 80% used (26214/32768)|count=26214;24576;29491;0;32768\n", "p", Options{})
	if c, _, _ := tl.Sysctl("net.netfilter.nf_conntrack_count"); c != "26214" {
		t.Errorf("count %q", c)
	}
	if m, _, _ := tl.Sysctl("net.netfilter.nf_conntrack_max"); m != "32768" {
		t.Errorf("max %q", m)
	}
	tl = ParseString("SWAP WARNING - 25% free (512 MB out of 2048 MB) |swap=512MB;1024;256;0;2048\n", "p", Options{})
	var total, free int64
	var got bool
	for _, s := range tl.Samples {
		if s.MemInfo != nil {
			total, _ = s.MemInfo.Get("SwapTotal")
			free, got = s.MemInfo.Get("SwapFree")
		}
	}
	if !got || total != 2048*1024 || free != 512*1024 {
		t.Errorf("swap total %d free %d (%v)", total, free, got)
	}
	if as := artifactsOf(tl, KindNagios); len(as) != 1 || !slices.Equal(as[0].Data.(NagiosData).TextNumbers, []float64{25, 512, 2048}) {
		t.Errorf("status text numbers: %+v", as)
	}
	tl = ParseString("DISK OK - free space: / 3326 MB (56%);| /=2643MB;5948;5958;0;5968\n", "p", Options{})
	if n := len(artifactsOf(tl, KindNagios)); n != 1 {
		t.Errorf("disk check: %d nagios artifacts", n)
	}
	for _, s := range tl.Samples {
		if s.MemInfo != nil {
			t.Errorf("disk check read as memory: %+v", s.MemInfo)
		}
	}
	if tl := ParseString("Hello\n\nThe OK button | the cancel=x one\n", "p", Options{}); len(artifactsOf(tl, KindNagios)) != 0 {
		t.Errorf("prose read as a status line")
	}
}

// Telegraf's InfluxDB line protocol: inputs.net's interface counters become /proc/net/dev's,
// its interface=all record /proc/net/snmp's (names lowered: "tcp_retranssegs"), inputs.mem's
// meminfo (bytes → kB); a record a page broke inside a field is joined, a field cut at the end
// dropped. Before: prose (exit 3). A comma list with "=" in prose and a record with no tag are
// not records.
func TestTelegrafLineProtocolRead(t *testing.T) {
	text := "from the agent log\n" +
		"net,host=gw,interface=wlan0 drop_in=7i,err_in=2i,bytes_recv=900i 1700000000000000000\n" +
		"net,host=gw,interface=all tcp_outsegs=5000i,tcp_retranssegs=40i,udp_rcvbuf\n" +
		"errors=3i,ip_outdiscards=1i,udp_\n" +
		"mem,host=gw total=1073741824i,available=536870912i,swap_free=0i 1700000000000000000\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Samples) != 1 {
		t.Fatalf("samples %d", len(tl.Samples))
	}
	s := tl.Samples[0]
	get := func(g, n string) int64 { v, _ := s.NetStat.Get(g, n); return v }
	if get("Tcp", "RetransSegs") != 40 || get("Tcp", "OutSegs") != 5000 || get("Ip", "OutDiscards") != 1 {
		t.Errorf("snmp %+v", s.NetStat)
	}
	if len(s.NetDev) != 1 || s.NetDev[0].Name != "wlan0" {
		t.Fatalf("netdev %+v", s.NetDev)
	}
	if v, _ := s.NetDev[0].Counters.Get("rx_dropped"); v != 7 {
		t.Errorf("rx_dropped %d", v)
	}
	if s.MemInfo == nil {
		t.Fatal("no meminfo")
	}
	if v, _ := s.MemInfo.Get("MemTotal"); v != 1048576 {
		t.Errorf("MemTotal %d kB", v)
	}
	notReadAs(t, KindTelegraf,
		"Hello\n\nwe tried a,b=1 c=2 and it failed\n",
		"net interface=eth0 drop_in=7i\n",
	)
}

// A tool's re-print of /proc/net/netstat and /proc/net/snmp, one counter a line, either
// "Group.Name:   value" in a column (xsos -N) or TcpExt's names bare ("TCPSynRetrans: 45"):
// TcpExt's and Tcp's counters, not meminfo's fields nor nstat's "TcpExt..." words cut at the
// dot. Before: the dotted lines read as nstat's Tcp group ("Ext.ListenDrops:"), the bare ones
// as meminfo. Other groups' dotted names and meminfo's own fields stay what they were.
func TestNetstatReprintOneCounterALine(t *testing.T) {
	tl := ParseString("NET STATS\n  Tcp.InErrs:                   12\n  TcpExt.ListenOverflows:      40\n  TcpExt.TCPTimeouts:        9\n  Udp.RcvbufErrors:  3\n  TcpExt.LockDroppedIcmps:\n", "p", Options{})
	var s0 = func(g, n string) (int64, bool) {
		for _, s := range tl.Samples {
			if v, ok := s.NetStat.Get(g, n); ok {
				return v, true
			}
		}
		return 0, false
	}
	for _, c := range []struct {
		g, n string
		v    int64
	}{{"Tcp", "InErrs", 12}, {"TcpExt", "ListenOverflows", 40}, {"TcpExt", "TCPTimeouts", 9}, {"Udp", "RcvbufErrors", 3}} {
		if v, ok := s0(c.g, c.n); !ok || v != c.v {
			t.Errorf("%s %s = %d %v, want %d", c.g, c.n, v, ok, c.v)
		}
	}
	tl = ParseString("$ xsos -N .\nTCPSynRetrans: 45\nDelayedACKLost: 260\nListenDrops: 677\nTCPLossFailures: 12\n", "p", Options{})
	for _, s := range tl.Samples {
		if s.MemInfo != nil {
			t.Errorf("TcpExt names read as meminfo: %+v", s.MemInfo)
		}
	}
	if v, ok := s0("TcpExt", "ListenDrops"); !ok || v != 677 {
		t.Errorf("ListenDrops %d %v", v, ok)
	}
	if v, ok := s0("TcpExt", "TCPSynRetrans"); !ok || v != 45 {
		t.Errorf("TCPSynRetrans %d %v", v, ok)
	}
	// Counter-cases: meminfo's fields, and a dotted name of no kernel group.
	tl = ParseString("MemTotal: 2048 kB\nMemFree: 1024 kB\nSlab: 100 kB\n", "p", Options{})
	if len(tl.Samples) != 1 || tl.Samples[0].MemInfo == nil {
		t.Errorf("meminfo not read: %+v", tl.Samples)
	}
	tl = ParseString("Config.Timeout:   30\nConfig.Retries:   5\n", "p", Options{})
	for _, s := range tl.Samples {
		if len(s.NetStat) != 0 {
			t.Errorf("a config's dotted keys read as counters: %+v", s.NetStat)
		}
	}
}

// /proc/slab_allocators' lines ("CACHE: COUNT CALLER+OFF/LEN [MODULE]", SLAB's leak debug
// file), quoted in mail: objects per caller, read as counts with the caller, never the code
// offsets as sizes. Before: prose, and a text of nothing else exited 3. A call-trace frame
// and a "name: N word" line are not rows.
func TestSlabAllocatorsRead(t *testing.T) {
	text := "On the box:\n\n> kmalloc-512: 4310 sk_alloc+0x31/0x120\n> kmalloc-512: 12 alloc_netdev_mqs+0x5e/0x3a0 [veth]\n\nthen nothing more\n"
	tl := ParseString(text, "p", Options{})
	as := artifactsOf(tl, KindSlabAllocators)
	if len(as) != 1 {
		t.Fatalf("artifacts %d", len(as))
	}
	rows := as[0].Data.(SlabAllocatorsData).Rows
	if len(rows) != 2 || rows[0].Objects != 4310 || rows[0].Caller != "sk_alloc" || rows[1].Module != "veth" {
		t.Errorf("rows %+v", rows)
	}
	notReadAs(t, KindSlabAllocators,
		"[  12.3] RIP: 0010:sk_alloc+0x31/0x120\n",
		"eth0: 12 packets dropped\n",
	)
}

// netstat -tn[p] rows without the header (`netstat -np | grep :8080`), one wrapped after its
// foreign address so that "TIME_WAIT  -" sits alone on the next line (quoted mail). Before:
// no reader ("output of `netstat -np | ...`: no reader for it"). A sentence that starts with
// "tcp" and a row without ports are not rows.
func TestNetstatRowsWithoutHeader(t *testing.T) {
	text := "# netstat -np | grep :8080\n> tcp        0      0 10.0.0.5:8080           10.0.0.9:51022\n> CLOSE_WAIT  -\n> tcp        0   4120 10.0.0.5:8080           10.0.0.9:51030          ESTABLISHED 812/java\n"
	tl := ParseString(text, "p", Options{})
	as := artifactsOf(tl, KindSockets)
	if len(as) != 1 {
		t.Fatalf("socket tables %d (unparsed %+v)", len(as), tl.Unparsed)
	}
	socks := as[0].Data.(*SocketTable).Sockets
	if len(socks) != 2 || socks[0].State != "CLOSE_WAIT" || socks[1].State != "ESTABLISHED" || socks[1].SendQ != 4120 {
		t.Errorf("sockets %+v", socks)
	}
	notReadAs(t, KindSockets,
		"tcp 0 0 is what netstat showed for both ends\n",
		"tcp        0      0 localhost       remotehost\n",
	)
}

// /proc/net/nf_conntrack's entries wrapped over lines by a mail client, and conntrack -L's
// (no layer-3 columns): each entry with its protocol, timeout, state, flags and the original
// direction's ports; the states counted. Before: "no reader for it". A netstat row and a
// sentence with "src=" are not entries.
func TestConntrackEntriesRead(t *testing.T) {
	text := "$ cat /proc/net/nf_conntrack\n" +
		"ipv4     2 tcp      6 431999 ESTABLISHED src=10.1.1.1 dst=10.1.1.2\nsport=40000 dport=443 src=10.1.1.2 dst=10.1.1.1 sport=443\ndport=40000 [ASSURED] mark=0 zone=0 use=2\n" +
		"ipv4     2 udp      17 28 src=10.1.1.1 dst=10.1.1.3 sport=5353 dport=53 [UNREPLIED] src=10.1.1.3 dst=10.1.1.1 sport=53 dport=5353 mark=0 use=1\n" +
		"\n# conntrack -L\ntcp      6 118 SYN_SENT src=10.1.1.1 dst=10.1.1.4 sport=40100 dport=25 [UNREPLIED] src=10.1.1.4 dst=10.1.1.1 sport=25 dport=40100 mark=0 use=1\n"
	tl := ParseString(text, "p", Options{})
	as := artifactsOf(tl, KindConntrackEntries)
	if len(as) != 2 {
		t.Fatalf("blocks %d (unparsed %+v)", len(as), tl.Unparsed)
	}
	first := as[0].Data.(ConntrackEntries)
	if len(first.Entries) != 2 || first.Entries[0].State != "ESTABLISHED" || first.Entries[0].Dport != 443 || first.Entries[0].Timeout != 431999 ||
		!slices.Equal(first.Entries[0].Flags, []string{"ASSURED"}) || first.Entries[1].Proto != "udp" || first.Entries[1].State != "" {
		t.Errorf("entries %+v", first.Entries)
	}
	if second := as[1].Data.(ConntrackEntries); len(second.Entries) != 1 || second.States["SYN_SENT"] != 1 || second.Entries[0].L3 != "" {
		t.Errorf("conntrack -L %+v", second)
	}
	notReadAs(t, KindConntrackEntries,
		"tcp        0      0 10.0.0.5:8080           10.0.0.9:51022          ESTABLISHED\n",
		"Hello\n\nthe tcp 6 flows with src=10.0.0.1 were dropped\n",
	)
}

// notReadAs fails when any of texts yields an artifact of kind: the counter-cases of a form.
func notReadAs(t *testing.T, kind string, texts ...string) {
	t.Helper()
	for _, text := range texts {
		if tl := ParseString(text, "p", Options{}); len(artifactsOf(tl, kind)) != 0 {
			t.Errorf("%q read as %s: %+v", text, kind, artifactsOf(tl, kind))
		}
	}
}
