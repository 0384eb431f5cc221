package artifact

import (
	"fmt"
	"strings"
	"testing"

	"headroom/kernel"
)

// Issue 29 item 4: a table no reader knows (as corpus 445's softnet table was before
// softnet_table.go) is listed as unread output, one entry for its rows, not counted as
// prose; the sentence around it stays prose.
func TestUnreadRowsListedNotProse(t *testing.T) {
	text := `Some numbers from our box:
port      hits     misses   evicted
  80  620315792          0         11
 443  692783857          0         22
thanks for any help, we have 2 boxes
`
	tl := ParseString(text, "p", Options{})
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].FirstLine != 3 || tl.Unparsed[0].LastLine != 4 {
		t.Fatalf("unparsed %+v, want one entry for lines 3-4", tl.Unparsed)
	}
	if !strings.Contains(tl.Unparsed[0].Why, "numbers") {
		t.Errorf("why: %q", tl.Unparsed[0].Why)
	}
	if tl.Lines == nil || tl.Lines.Unparsed != 2 {
		t.Errorf("lines: %+v", tl.Lines)
	}
}

// Counters flattened onto one line by a web page (corpus 452: '<pre> $ sudo ethtool -S eth0
// NIC statistics: rx_packets: 597028087 ...'): unread output, not prose.
func TestUnreadFlattenedPairs(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"RX packets:24224374 errors:21 dropped:0 overruns:0 frame:32", true},
		{"rx_packets: 597028087 tx_packets: 5924278060 rx_bytes: 112643393747", true},
		{"06:02:11 PM      0.00     95.00   6422.00      0.00   9790.00", true},
		{"I have a 1gb swap. It is not possible that it ended.", false},
		{"The values are 3093984 pages (11.8GB), and 4125312 pages (15.7GB).", false},
		{"Playing with 12 players on the server, and linux dmesg tell this", false},
	} {
		if _, got := unreadEvidence(tc.line); got != tc.want {
			t.Errorf("unreadEvidence(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

// A shell pattern in a command ("grep . /proc/sys/net/ipv4/tcp*mem", corpus 443) names no
// setting: before, Markdown unescaping dropped the '*' and sysctl-unknown-key warned about
// "net.ipv4.tcpmem". The output lines under it are the settings.
func TestGlobbedProcPathIsNoSetting(t *testing.T) {
	text := "$ grep . /proc/sys/net/ipv4/tcp*mem\n/proc/sys/net/ipv4/tcp_mem:140631   187510  281262\n"
	for _, s := range ParseSettings(text) {
		if s.Key == "net.ipv4.tcpmem" {
			t.Errorf("setting from the pattern: %+v", s)
		}
	}
	found := false
	for _, s := range ParseSettings(text) {
		found = found || s.Key == "net.ipv4.tcp_mem" && strings.Fields(s.Value)[2] == "281262"
	}
	if !found {
		t.Errorf("tcp_mem not read: %+v", ParseSettings(text))
	}
}

// The kubelet's eviction manager through journald (corpus 454: 'journalctl -u kubelet'):
// its klog lines behind a syslog prefix are read as the bare ones are, and a signal it has
// no observation of is kept as such. Before, they were other programs' lines and the paste
// exited 3.
func TestKubeletEvictionThroughSyslog(t *testing.T) {
	text := `# journalctl -f -u kubelet
-- Logs begin at Mon 2019-02-25 03:08:44 CST. --
Feb 25 13:29:49 node-2 kubelet[18711]: W0225 13:29:49.659401   18711 helpers.go:808] eviction manager: no observation found for eviction signal allocatableMemory.available
Feb 25 13:29:59 node-2 kubelet[18711]: W0225 13:29:59.672906   18711 helpers.go:808] eviction manager: no observation found for eviction signal allocatableMemory.available
`
	tl := ParseString(text, "p", Options{})
	ev := one(t, tl, KindKubeletEviction).(KubeletEvictionLog)
	if len(ev.Unobserved) != 1 || ev.Unobserved[0] != "allocatableMemory.available" {
		t.Errorf("unobserved: %+v", ev.Unobserved)
	}
}

// An 'ip -s link' session flattened onto one line by a web page (corpus 442): too many
// numbers for a sentence, listed as unread rather than refused.
func TestUnreadFlattenedIPLink(t *testing.T) {
	line := "kuznet@alisa:~ $ ip -s link ls eth0 3: eth0: <BROADCAST,MULTICAST,UP> mtu 1500 qdisc cbq qlen 100 link/ether 00:a0:cc:66:18:78 brd ff:ff:ff:ff:ff:ff RX: bytes packets errors dropped overrun mcast 2449949362 2786187 0 0 0 0 TX: bytes packets errors dropped carrier collsns 178558497 1783945 332 0 332 35172 kuznet@alisa:~ $"
	if _, ok := unreadEvidence(line); !ok {
		t.Error("flattened ip -s link not listed as unread")
	}
}

// softnet_stat re-printed as a decimal table with a legend (corpus 445, majek's
// softnet_stat.sh): read as the file's per-CPU readings; the row the paste cut is reported.
// Before, the rows were prose (then unread) and the softnet rules had no data.
func TestSoftnetDecimalTableWithLegend(t *testing.T) {
	text := `cpu      total    dropped   squeezed  collision        rps flow_limit
  0  620315792          0         11          0          0          0
  1  692783857          3         22          0          0          0
 15  720161
`
	tl := ParseString(text, "p", Options{})
	cpus := one(t, tl, KindSoftnet).([]kernel.SoftnetCPU)
	if len(cpus) != 2 || cpus[1].CPU != 1 || cpus[1].Processed != 692783857 || cpus[1].Dropped != 3 || cpus[1].TimeSqueeze != 22 {
		t.Fatalf("cpus: %+v", cpus)
	}
	if len(tl.Samples) != 1 || len(tl.Samples[0].Softnet) != 2 {
		t.Errorf("samples: %+v", tl.Samples)
	}
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].FirstLine != 4 {
		t.Errorf("unparsed: %+v", tl.Unparsed)
	}
	// /proc/stat's "cpu" line is not a softnet legend.
	if _, ok := softnetTableHeader("cpu  2255 34 2290 22625563 6290 127 456"); ok {
		t.Error("/proc/stat cpu line taken for a softnet legend")
	}
}

// sar rows with a note appended after the last column (corpus 451: '# Normal', '#
// Problematic'): the row is the cells before the note. Before: "sar row has 6 values for 4
// columns" and the table was lost.
func TestSarRowWithAppendedNote(t *testing.T) {
	text := `01:40:02 AM  pgpgin/s pgpgout/s   fault/s  majflt/s
01:40:02 AM     42.89    227.22   4319.88      0.02  # Normal
01:50:06 AM    214.46    441.33   4760.78      5.00  # Problematic
`
	tl := ParseString(text, "p", Options{})
	tb := one(t, tl, KindSysstat).(*SysstatTable)
	if len(tb.Rows) != 2 || tb.Values[1]["majflt/s"] != 5 || tb.Values[0]["fault/s"] != 4319.88 {
		t.Errorf("table: %+v", tb)
	}
	if len(tl.Unparsed) != 0 {
		t.Errorf("unparsed: %+v", tl.Unparsed)
	}
}

// A /proc/slabinfo row in Markdown bold (corpus 448: the leaking ndpi_ctinfo row between
// '**'): still a row. Before, the table stopped being read there and the row was unread.
func TestSlabinfoBoldRow(t *testing.T) {
	r, ok := slabinfoRow("**ndpi_ctinfo       4147038 4147038    176   23    1 : tunables    0    0    0 : slabdata 180306 180306      0**")
	if !ok || r.Name != "ndpi_ctinfo" || r.ActiveObjs != 4147038 || r.NumSlabs != 180306 {
		t.Errorf("row %+v ok=%v", r, ok)
	}
}

// Output a web page flattened onto one line is cut back into its lines and read by the
// format's reader (corpus 442, 452, 455). Before, each was unread (exit 3 at first).
func TestFlattenedOutputRead(t *testing.T) {
	ipl := "kuznet@alisa:~ $ ip -s link ls eth0 3: eth0: <BROADCAST,MULTICAST,UP> mtu 1500 qdisc cbq qlen 100 link/ether 00:a0:cc:66:18:78 brd ff:ff:ff:ff:ff:ff RX: bytes packets errors dropped overrun mcast 2449949362 2786187 0 0 0 0 TX: bytes packets errors dropped carrier collsns 178558497 1783945 332 0 332 35172 kuznet@alisa:~ $\n"
	eth := "<pre> $ sudo ethtool -S eth0 NIC statistics: rx_packets: 597028087 tx_packets: 5924278060 rx_bytes: 112643393747 .... </pre>\n"
	ifc := "[root@asia twilight]# ifconfig eth0 Link encap:Ethernet HWaddr 00:40:26:18:25:BE inet addr:192.168.2.20 Bcast:192.168.2.255 Mask:255.255.255.0 UP BROADCAST RUNNING MULTICAST MTU:1500 Metric:1 RX packets:24224374 errors:21 dropped:0 overruns:0 frame:32 TX packets:14314292 errors:0 dropped:0 overruns:0 carrier:0 collisions:0 txqueuelen:1000 RX bytes:2431925088 (2.2 GiB) TX bytes:3568469323 (3.3 GiB) Interrupt:9 Base address:0xd800lo Link encap:Local Loopback inet addr:127.0.0.1 Mask:255.0.0.0 UP LOOPBACK RUNNING MTU:16436 Metric:1 RX packets:201071 errors:0 dropped:0 overruns:0 frame:0 TX packets:201071 errors:0 dropped:0 overruns:0 carrier:0 collisions:0 txqueuelen:0 RX bytes:35411868 (33.7 MiB) TX bytes:35411868 (33.7 MiB)\n"
	for _, tc := range []struct{ text, want string }{{ipl, "eth0 2786187"}, {eth, "597028087"}, {ifc, "eth0 24224374"}} {
		tl := ParseString(tc.text, "p", Options{})
		if len(tl.Unparsed) != 0 || len(tl.Artifacts) == 0 {
			t.Errorf("%.40q: artifacts %d, unparsed %+v", tc.text, len(tl.Artifacts), tl.Unparsed)
			continue
		}
		var got []string
		for _, s := range tl.Samples {
			for _, d := range s.NetDev {
				v, _ := d.Counters.Get("rx_packets")
				got = append(got, fmt.Sprintf("%s %d", d.Name, v))
			}
		}
		if tc.text != eth && !strings.Contains(strings.Join(got, ","), tc.want) {
			t.Errorf("%.40q: interfaces %v, want %s", tc.text, got, tc.want)
		}
	}
}

// The kubelet's /stats/summary through jq (corpus 437): the node's memory numbers are read
// (availableBytes is the memory.available eviction signal). Before, the JSON lines were
// prose.
func TestKubeletSummaryJSON(t *testing.T) {
	text := `$ curl --silent http://<NODE_IP>:10255/stats/summary | jq '.node.memory'
{
  "time": "2017-05-05T15:09:18Z",
  "availableBytes": 4840476672,
  "usageBytes": 8018968576,
  "workingSetBytes": 4587937792,
  "majorPageFaults": 91
}
`
	ks := one(t, ParseString(text, "p", Options{}), KindKubeletSummary).(KubeletSummary)
	if ks.Values["availableBytes"] != 4840476672 || ks.Values["workingSetBytes"] != 4587937792 || ks.Time != "2017-05-05T15:09:18Z" {
		t.Errorf("%+v", ks)
	}
	// A JSON object without the kubelet's memory fields is not read as one.
	if tl := ParseString("{\n  \"name\": 1\n}\n", "p", Options{}); len(artifactsOf(tl, KindKubeletSummary)) != 0 {
		t.Error("any JSON taken for the kubelet summary")
	}
}
