package artifact

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Modern tools' output forms that carry this domain's numbers (forms9): the JSON forms of
// iproute2 and ethtool, the journal's multi-line output modes, and the container networking
// tools' outputs. Each snippet is built from the tool's source (cited at its reader); each
// test failed before its change.

// unreadWhy returns the reasons of the text's unread entries.
func unreadWhy(text string) (out []string) {
	for _, u := range ParseString(text, "p", Options{}).Unparsed {
		out = append(out, u.Why)
	}
	return out
}

// ip -j -s -s link (iproute2 ip/ipaddress.c print_link_stats64 under -j): one line, the
// rtnl_link_stats64 fields keyed by name. Before, the paste exited 3: nothing read.
func TestIPJSONLinkStats(t *testing.T) {
	text := `$ ip -j -s -s link show eth0
[{"ifindex":2,"ifname":"eth0","flags":["BROADCAST","MULTICAST","UP","LOWER_UP"],"mtu":1500,"qdisc":"mq","operstate":"UP","linkmode":"DEFAULT","group":"default","txqlen":1000,"link_type":"ether","address":"52:54:00:12:34:56","broadcast":"ff:ff:ff:ff:ff:ff","stats64":{"rx":{"bytes":98765432100,"packets":123456789,"errors":0,"dropped":48213,"over_errors":1200,"multicast":0,"length_errors":0,"crc_errors":0,"frame_errors":0,"fifo_errors":7,"missed_errors":48213},"tx":{"bytes":1234567890,"packets":9876543,"errors":0,"dropped":3,"carrier_errors":0,"collisions":0,"aborted_errors":0,"fifo_errors":0,"window_errors":0,"heartbeat_errors":0,"carrier_changes":1}}}]
`
	c := netdevOf(t, text, "eth0")
	if c["rx_packets"] != 123456789 || c["rx_dropped"] != 48213 || c["rx_missed_errors"] != 48213 || c["rx_fifo_errors"] != 7 || c["tx_packets"] != 9876543 {
		t.Errorf("counters %v", c)
	}
	tl := ParseString(text, "p", Options{})
	for _, s := range tl.Samples {
		for _, nd := range s.NetDev {
			if v, _ := nd.Counters.Get("rx_over_errors"); v != 1200 {
				t.Errorf("rx_over_errors %d, want 1200", v)
			}
		}
	}
	// Pretty-printed (ip -j -p -s link), the 32-bit "stats" of a kernel without IFLA_STATS64.
	pretty := `# ip -j -p -s link
[ {
        "ifindex": 2,
        "ifname": "ens5",
        "mtu": 9001,
        "link_type": "ether",
        "stats": {
            "rx": {
                "bytes": 998877665544,
                "packets": 887766554,
                "errors": 0,
                "dropped": 35120,
                "over_errors": 0,
                "multicast": 0
            },
            "tx": {
                "bytes": 123123123,
                "packets": 456456,
                "errors": 0,
                "dropped": 0,
                "carrier_errors": 0,
                "collisions": 0
            }
        }
    } ]
`
	if c := netdevOf(t, pretty, "ens5"); c["rx_dropped"] != 35120 || c["rx_packets"] != 887766554 {
		t.Errorf("pretty: counters %v", c)
	}
}

// Counter-cases: ip -j addr and ip -j link without -s hold no counter: named as unread (a
// paste of nothing else exited 3), no interface read; tc -s -j qdisc has no reader in either
// form: named.
func TestIPJSONWithoutCounters(t *testing.T) {
	addr := `$ ip -j addr
[{"ifindex":1,"ifname":"lo","flags":["LOOPBACK","UP","LOWER_UP"],"mtu":65536,"qdisc":"noqueue","operstate":"UNKNOWN","group":"default","txqlen":1000,"link_type":"loopback","address":"00:00:00:00:00:00","broadcast":"00:00:00:00:00:00","addr_info":[{"family":"inet","local":"127.0.0.1","prefixlen":8,"scope":"host","label":"lo","valid_life_time":4294967295,"preferred_life_time":4294967295}]}]
`
	tl := ParseString(addr, "p", Options{})
	if len(tl.Samples) != 0 {
		t.Errorf("ip -j addr gave samples: %+v", tl.Samples)
	}
	if w := unreadWhy(addr); len(w) != 1 || !strings.Contains(w[0], "ip -j link/addr") {
		t.Errorf("ip -j addr: unread %q", w)
	}
	tc := `$ tc -s -j qdisc show dev eth0
[{"kind":"fq_codel","handle":"0:","parent":":1","options":{"limit":10240,"flows":1024},"bytes":987654321,"packets":876543,"drops":51234,"overlimits":0,"requeues":12,"backlog":0,"qlen":0,"maxpacket":1514,"drop_overlimit":51200}]
`
	if w := unreadWhy(tc); len(w) != 1 || !strings.Contains(w[0], "tc -s -j qdisc") {
		t.Errorf("tc -j: unread %q", w)
	}
	// A JSON array of other objects is not this reader's.
	if tl := ParseString("[\n{\"name\": \"a\", \"port\": 80}\n]\n", "p", Options{}); len(tl.Samples) != 0 {
		t.Errorf("other JSON read: %+v", tl.Samples)
	}
}

// nstat --json (iproute2 misc/nstat.c dump_kern_db: the counters in an object named
// "kernel"). Before: exit 3.
func TestNstatJSON(t *testing.T) {
	text := `$ nstat -az --json
{"kernel":{"IpInReceives":123456789,"TcpExtTCPMemoryPressures":412,"TcpExtPruneCalled":8821,"TcpExtRcvPruned":1203,"TcpExtTCPRcvQDrop":5531}}
`
	tl := ParseString(text, "p", Options{})
	got := map[string]int64{}
	for _, s := range tl.Samples {
		for _, g := range s.NetStat {
			for _, n := range g.Counters.Names() {
				v, _ := g.Counters.Get(n)
				got[g.Name+n] = v
			}
		}
	}
	if got["TcpExtTCPMemoryPressures"] != 412 || got["TcpExtRcvPruned"] != 1203 || got["IpInReceives"] != 123456789 {
		t.Errorf("nstat json: %v", got)
	}
	// Counter-case: a "kernel" object of other keys is named, not read.
	if w := unreadWhy("{\"kernel\":{\"version\":\"6.1\",\"release\":5}}\n"); len(w) != 1 || !strings.Contains(w[0], "nstat --json") {
		t.Errorf("other kernel object: unread %q", w)
	}
}

// ethtool --json -S (ethtool 6.x: an array of objects, "ifname" and the driver's counters).
// Before: one "JSON object of statistics" unread entry, rx_missed_errors never reached the
// NIC rules.
func TestEthtoolJSONStats(t *testing.T) {
	text := `$ ethtool --json -S eth0
[ {
        "ifname": "eth0",
        "rx_packets": 887766554,
        "tx_packets": 456456,
        "rx_no_buffer_count": 51234,
        "rx_missed_errors": 51234,
        "rx_queue_0_alloc_failed": 812
    } ]
`
	tl := ParseString(text, "p", Options{})
	found := false
	for _, s := range tl.Samples {
		for _, n := range s.NICStats {
			if n.Name == "eth0" && n.Stats != nil {
				v, _ := n.Stats.Get("rx_missed_errors")
				a, _ := n.Stats.Get("rx_queue_0_alloc_failed")
				found = v == 51234 && a == 812
			}
		}
	}
	if !found || len(tl.Unparsed) != 0 {
		t.Errorf("ethtool json not read: samples %+v unparsed %+v", tl.Samples, tl.Unparsed)
	}
}

// journalSplat is a page allocation failure with its Mem-Info as the kernel logs it.
var journalSplat = []string{
	"kworker/0:1: page allocation failure: order:2, mode:0x104020(GFP_ATOMIC|__GFP_COMP), nodemask=(null),cpuset=/,mems_allowed=0",
	"CPU: 0 PID: 1234 Comm: kworker/0:1 Not tainted 5.15.0-91-generic #101-Ubuntu",
	"Call Trace:",
	" __alloc_pages+0x2e9/0x320",
	" ena_refill_rx_bufs+0x8d/0x2b0 [ena]",
	"Mem-Info:",
	"active_anon:1234 inactive_anon:5678 isolated_anon:0",
	" free:12345 free_pcp:100 free_cma:0",
	"Node 0 Normal free:49380kB min:45056kB low:56320kB high:67584kB",
	"Node 0 Normal: 5000*4kB (UME) 1200*8kB (UME) 0*16kB 0*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 29600kB",
}

// journalctl -o export, -o verbose and -o json-pretty put each record over many lines
// (systemd src/shared/logs-show.c output_export, output_verbose, output_json). Before, only
// the failure's header was read: no release, no zone, no buddy lists. -o json-sse, -o
// json-seq and -o short-delta put a prefix before the -o json record or the stamp
// ("data: ", an RS byte, " <delta>" inside the brackets): before, no release either.
func TestJournalMultiLineModes(t *testing.T) {
	var export, verbose, pretty strings.Builder
	for i, m := range journalSplat {
		fmt.Fprintf(&export, "__CURSOR=s=abc;i=%x\n__REALTIME_TIMESTAMP=%d\n__MONOTONIC_TIMESTAMP=%d\n_BOOT_ID=0f1e\n_TRANSPORT=kernel\nPRIORITY=4\nSYSLOG_FACILITY=0\nSYSLOG_IDENTIFIER=kernel\n_SOURCE_MONOTONIC_TIMESTAMP=%d\nMESSAGE=%s\n\n",
			i, 1764410000123456+i, 123456789+i, 123456789+i, m)
		fmt.Fprintf(&verbose, "Sun 2026-11-29 10:01:02.%06d UTC [s=abc;i=%x;b=0f1e;m=75bcd15;t=5f1;x=99]\n    _BOOT_ID=0f1e\n    _TRANSPORT=kernel\n    PRIORITY=4\n    SYSLOG_IDENTIFIER=kernel\n    _HOSTNAME=node1\n    MESSAGE=%s\n", 123456+i, i, m)
		msg, _ := json.Marshal(m)
		fmt.Fprintf(&pretty, "{\n\t\"__CURSOR\" : \"s=abc;i=%x\",\n\t\"__REALTIME_TIMESTAMP\" : \"%d\",\n\t\"_TRANSPORT\" : \"kernel\",\n\t\"PRIORITY\" : \"4\",\n\t\"SYSLOG_IDENTIFIER\" : \"kernel\",\n\t\"MESSAGE\" : %s\n}\n", i, 1764410000123456+i, msg)
	}
	var sse, seq, delta strings.Builder
	for i, m := range journalSplat {
		msg, _ := json.Marshal(m)
		rec := fmt.Sprintf(`{"__CURSOR":"s=abc;i=%x","_TRANSPORT":"kernel","PRIORITY":"4","MESSAGE":%s}`, i, msg)
		fmt.Fprintf(&sse, "data: %s\n\n", rec)
		fmt.Fprintf(&seq, "\x1e%s\n", rec)
		fmt.Fprintf(&delta, "[  123.%06d <    0.000001>] node1 kernel: %s\n", 456789+i, m)
	}
	plain := ParseString(strings.Join(journalSplat, "\n")+"\n", "p", Options{})
	for _, c := range []struct{ mode, text string }{{"export", export.String()}, {"verbose", verbose.String()}, {"json-pretty", pretty.String()},
		{"json-sse", sse.String()}, {"json-seq", seq.String()}, {"short-delta", delta.String()}} {
		tl := ParseString(c.text, "p", Options{})
		if tl.Host.Kernel != plain.Host.Kernel || tl.Host.Kernel == "" {
			t.Errorf("%s: kernel %q, plain dmesg %q", c.mode, tl.Host.Kernel, plain.Host.Kernel)
		}
		if len(tl.Events) != len(plain.Events) || len(tl.Samples) != len(plain.Samples) {
			t.Errorf("%s: %d events %d samples, plain dmesg %d and %d", c.mode, len(tl.Events), len(tl.Samples), len(plain.Events), len(plain.Samples))
		}
		got, _ := json.Marshal(tl.Events)
		want, _ := json.Marshal(plain.Events)
		if !strings.Contains(string(got), "49380") || tl.Log.Len() != plain.Log.Len() {
			t.Errorf("%s: zone or log lost: %d log records (plain %d)\n got %s\nwant %s", c.mode, tl.Log.Len(), plain.Log.Len(), got, want)
		}
	}
	// Counter-cases: NAME=value lines without a journal field (an environment, a config)
	// and a JSON object without MESSAGE stay as they were.
	for _, s := range []string{"MESSAGE=hello\nPATH=/usr/bin\nHOME=/root\n", "{\n\t\"name\" : \"x\"\n}\n", "no journal here\n"} {
		if got := flattenJournalRecords(s); got != s {
			t.Errorf("changed %q to %q", s, got)
		}
	}
}

// conntrack -C prints nf_conntrack_count alone (conntrack-tools src/conntrack.c, CT_COUNT).
// Before, the count was listed as unread output of conntrack, and conntrack-full had the
// maximum without the count.
func TestConntrackCountCommand(t *testing.T) {
	text := "# conntrack -C\n262144\n# sysctl net.netfilter.nf_conntrack_max\nnet.netfilter.nf_conntrack_max = 262144\n"
	tl := ParseString(text, "p", Options{})
	if v := tl.Host.Sysctls["net.netfilter.nf_conntrack_count"]; v != "262144" {
		t.Errorf("nf_conntrack_count %q; sysctls %v unparsed %+v", v, tl.Host.Sysctls, tl.Unparsed)
	}
	// Counter-cases: conntrack -L's entries and conntrack -S are not a count.
	for _, s := range []string{"# conntrack -L\ntcp      6 431999 ESTABLISHED src=10.0.0.1 dst=10.0.0.2 sport=1 dport=2\n", "# conntrack -C\nno count here\n"} {
		if v, ok := ParseString(s, "p", Options{}).Host.Sysctls["net.netfilter.nf_conntrack_count"]; ok {
			t.Errorf("%q read as a count: %q", s, v)
		}
	}
}

// The container networking tools' own outputs have no reader: named as unread under their
// command (a paste of nothing else exited 3), never read as prose: wg show (wireguard-tools
// src/show.c), ipvsadm -Ln --stats (ipvsadm.c print_service_entry), cilium status's BPF
// map table and cilium metrics list.
func TestContainerNetToolsNamed(t *testing.T) {
	for _, c := range []struct{ cmd, text string }{
		{"wg show", "# wg show\ninterface: wg0\n  listening port: 51820\n\npeer: xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\n  endpoint: 192.95.5.67:1234\n  latest handshake: 1 minute, 2 seconds ago\n  transfer: 3.21 GiB received, 1.33 GiB sent\n"},
		{"ipvsadm -Ln --stats", "# ipvsadm -Ln --stats\nIP Virtual Server version 1.2.1 (size=4096)\nProt LocalAddress:Port               Conns   InPkts  OutPkts  InBytes OutBytes\n  -> RemoteAddress:Port\nTCP  10.96.0.1:443                     1234   567890   456789   98765K   87654K\n  -> 192.168.1.10:6443                  617   283945   228394   49382K   43827K\n"},
		{"cilium status", "$ cilium status --verbose\nBPF Maps:   dynamic sizing: on (ratio: 0.002500)\n  Name                          Size\n  Non-TCP connection tracking   65536\n  TCP connection tracking       131072\n  NAT                           196608\n"},
		{"cilium metrics list", "$ cilium metrics list\nMetric                     Labels                          Value\ncilium_bpf_map_pressure    map_name=\"cilium_ct4_global\"   0.981000\n"},
	} {
		w := unreadWhy(c.text)
		if len(w) == 0 || !strings.Contains(w[0], c.cmd) {
			t.Errorf("%s: unread %q", c.cmd, w)
		}
	}
	// Counter-case: "wg" in a sentence opens nothing.
	if w := unreadWhy("we use wg for the tunnel and it carried 3 GiB\n"); len(w) != 0 {
		t.Errorf("prose listed: %q", w)
	}
}

// A proxy's own counters (HAProxy's runtime API, Envoy's admin /stats, a /metrics scrape)
// are the application's: listed as unread under their command, while the kernel numbers
// pasted with them are read. Before, HAProxy's "show info" was read as /proc/meminfo (no
// field of the file among its lines) and Envoy's stats were prose.
func TestProxyStatsNamedKernelNumbersKept(t *testing.T) {
	text := `$ echo "show info" | socat stdio /run/haproxy/admin.sock
Name: HAProxy
Version: 2.8.3
Uptime_sec: 864000
PoolAlloc_MB: 512
PoolFailed: 1234
CurrConns: 40000
MaxConn: 40000
$ curl -s localhost:9901/stats | grep overflow
cluster.backend.upstream_cx_overflow: 5531
cluster.backend.upstream_rq_pending_overflow: 812
$ netstat -s | grep -i -E 'overflow|pruned'
    1203 packets pruned from receive queue because of socket buffer overrun
    412 times the listen queue of a socket overflowed
`
	tl := ParseString(text, "p", Options{})
	for _, a := range tl.Artifacts {
		if a.Kind == KindMemInfo || a.Kind == KindKernelLog {
			t.Errorf("read as %s: lines %d-%d", a.Kind, a.FirstLine, a.LastLine)
		}
	}
	var whys []string
	for _, u := range tl.Unparsed {
		whys = append(whys, u.Why)
	}
	if len(whys) != 2 || !strings.Contains(whys[0], "socat") || !strings.Contains(whys[1], "9901/stats") {
		t.Errorf("unread %q", whys)
	}
	got := false
	for _, s := range tl.Samples {
		if v, ok := s.NetStat.Get("TcpExt", "ListenOverflows"); ok && v == 412 {
			got = true
		}
	}
	if !got {
		t.Errorf("netstat -s lost beside the proxy's counters")
	}
	// Counter-case: /proc/meminfo itself is still read.
	mi := "$ cat /proc/meminfo\nMemTotal:       16384000 kB\nMemFree:          512000 kB\nMemAvailable:    1024000 kB\n"
	if tl := ParseString(mi, "p", Options{}); len(tl.Samples) == 0 || tl.Samples[0].MemInfo == nil {
		t.Errorf("meminfo not read")
	}
}

// cat of the conntrack count and maximum through a shell's brace expansion prints the two
// files' values in the order written. Before, the command was prose naming a sysctl
// "net.netfilter.nf_conntrack_" (a false "no such sysctl" finding) and the numbers unread.
func TestCatProcSysBraceExpansion(t *testing.T) {
	tl := ParseString("$ cat /proc/sys/net/netfilter/nf_conntrack_{count,max}\n262100\n262144\n", "p", Options{})
	if c, m := tl.Host.Sysctls["net.netfilter.nf_conntrack_count"], tl.Host.Sysctls["net.netfilter.nf_conntrack_max"]; c != "262100" || m != "262144" {
		t.Errorf("count %q max %q; unparsed %+v settings %+v", c, m, tl.Unparsed, tl.Settings)
	}
	for _, s := range tl.Settings {
		if s.Key == "net.netfilter.nf_conntrack_" {
			t.Errorf("a cut key mentioned: %+v", s)
		}
	}
	// Counter-cases: one value for two files is not the output; an unbalanced brace names no file.
	for _, s := range []string{"$ cat /proc/sys/net/netfilter/nf_conntrack_{count,max}\n262100\nand then prose\n", "$ cat /proc/sys/net/netfilter/nf_conntrack_{count\n262100\n"} {
		if v, ok := ParseString(s, "p", Options{}).Host.Sysctls["net.netfilter.nf_conntrack_count"]; ok {
			t.Errorf("%q read a count %q", s, v)
		}
	}
	if got := braceExpand("/a/b_{x,y}_{1,2}"); strings.Join(got, " ") != "/a/b_x_1 /a/b_x_2 /a/b_y_1 /a/b_y_2" {
		t.Errorf("braceExpand: %q", got)
	}
}

// netstat -s's IcmpMsg lines without their section header ("InType3: 6054246"): the
// /proc/net/snmp IcmpMsg counters by name. Before, /proc/meminfo's reader took them (it
// asked for no field of the file); now that it asks, they are read as what they are.
func TestIcmpMsgBareCounters(t *testing.T) {
	tl := ParseString("    InType0: 243755\n    InType3: 6054246\n    OutType3: 4097869\n", "p", Options{})
	got := false
	for _, s := range tl.Samples {
		if s.MemInfo != nil {
			t.Errorf("read as meminfo")
		}
		if v, ok := s.NetStat.Get("IcmpMsg", "InType3"); ok && v == 6054246 {
			got = true
		}
	}
	if !got {
		t.Errorf("IcmpMsg not read: %+v", tl.Samples)
	}
	if isIcmpMsgName("InTypeX") || isIcmpMsgName("InType") || !isIcmpMsgName("OutType255") {
		t.Errorf("isIcmpMsgName")
	}
}

// PF_RING's pfcount/nprobe statistics ("Duration:", "Bytes:", "Packets:", "Dropped:"): a
// capture ring's counters, kept as their own artifact. Before, /proc/meminfo's reader took
// them; the meminfo field test above would have left them unread.
func TestPFRingStatsBlock(t *testing.T) {
	tl := ParseString("Duration: 0:00:21:03:683\nBytes:    682078656560\nPackets:  647668124\nDropped:  161556589\n", "p", Options{})
	var got *PFRingStats
	for _, a := range tl.Artifacts {
		if a.Kind == KindMemInfo {
			t.Errorf("read as meminfo")
		}
		if p, ok := a.Data.(PFRingStats); ok {
			got = &p
		}
	}
	if got == nil || got.Dropped != 161556589 || got.Packets != 647668124 || len(tl.Samples) != 0 {
		t.Errorf("pf_ring stats %+v, samples %d", got, len(tl.Samples))
	}
	// Counter-case: a "Duration:" line of another tool alone is no block.
	if tl := ParseString("Duration: 3 hours\nThe run was fine.\n", "p", Options{}); len(tl.Artifacts) != 0 {
		t.Errorf("read %+v", tl.Artifacts)
	}
}

// Wireless links: iw's station dump (exit 3 before), iwconfig, and /proc/net/wireless (read
// before as /proc/net/dev, "unknown column \"tus\"") are named for what they are.
func TestWirelessOutputsNamed(t *testing.T) {
	iw := "# iw dev wlan0 station dump\nStation 12:34:56:78:9a:bc (on wlan0)\n\tinactive time:\t304 ms\n\trx packets:\t75\n\ttx failed:\t0\n\trx drop misc:\t2\n"
	if w := unreadWhy(iw); len(w) != 1 || !strings.Contains(w[0], "iw dev wlan0 station dump") {
		t.Errorf("iw: unread %q", w)
	}
	wl := "$ cat /proc/net/wireless\nInter-| sta-|   Quality        |   Discarded packets               | Missed | WE\n face | tus | link level noise |  nwid  crypt   frag  retry   misc | beacon | 22\n wlan0: 0000   70.  -29.  -256        0      0      0      0   1234        0\n"
	if w := unreadWhy(wl); len(w) != 1 || !strings.HasPrefix(w[0], "/proc/net/wireless") {
		t.Errorf("/proc/net/wireless: unread %q", w)
	}
	// Counter-case: /proc/net/dev is still read.
	nd := "Inter-|   Receive                                                |  Transmit\n face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n  eth0: 1000 10 0 5 0 0 0 0 2000 20 0 0 0 0 0 0\n"
	if c := netdevOf(t, nd, "eth0"); c["rx_packets"] != 10 {
		t.Errorf("/proc/net/dev: %v", c)
	}
}
