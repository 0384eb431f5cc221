package artifact

import (
	"strings"
	"testing"

	"headroom/kernel"
)

// The classes held-out batch g8 found (corpus 459-483), each on a minimal snippet of the
// case that showed it. Every test failed before its change.

// Embedded gists in a blog page's text end each line with table-cell borders (corpus 478).
// Before, "sockets: used 48476 | |" was no sockstat and the tcp_mem values were unread.
func TestGistCellBordersStripped(t *testing.T) {
	text := `[root@host1 ~]# cat /proc/sys/net/ipv4/tcp_mem | |
3480768 4641024 6961536 |
[root@host1 ~]# cat /proc/net/sockstat | |
sockets: used 48476 | |
TCP: inuse 174950 orphan 126800 tw 153787 alloc 174954 mem 102910 | |
UDP: inuse 34 mem 3 | |
FRAG: inuse 3 memory 4968 |
`
	tl := ParseString(text, "p", Options{})
	if len(tl.Samples) == 0 {
		t.Fatal("no sample")
	}
	if v, ok := tl.Samples[len(tl.Samples)-1].SockStat.Get("TCP", "orphan"); !ok || v != 126800 {
		t.Errorf("sockstat orphan = %d, %v", v, ok)
	}
	if got := tl.Host.Sysctls["net.ipv4.tcp_mem"]; got != "3480768 4641024 6961536" {
		t.Errorf("tcp_mem = %q", got)
	}
	// A Markdown table row keeps its bars; a shell pipe is no border.
	for _, s := range []string{"| Name | value |", "ss | grep CLOSE | wc -l", "a||"} {
		if got := stripCellBorders(s); got != s {
			t.Errorf("stripCellBorders(%q) = %q", s, got)
		}
	}
}

// A dotted name after '=' is an attribute's value (corpus 467's hotsos output,
// "(origin=kernel.auto_scenario_check)"): before, sysctl-unknown-key warned that
// "kernel.auto_scenario_check" was no sysctl, and it was the case's root cause.
func TestDottedValueAfterEqualsIsNoSetting(t *testing.T) {
	text := "        signal_cache (574906.5k). See summary or /proc/buddyinfo for more info. (origin=kernel.auto_scenario_check)'\n"
	for _, s := range ParseSettings(text) {
		if strings.Contains(s.Key, "auto_scenario_check") {
			t.Errorf("setting from an attribute value: %+v", s)
		}
	}
	// The key before '=' is still a setting.
	if ss := ParseSettings("set vm.swappiness=10 on the box\n"); len(ss) == 0 || ss[0].Key != "vm.swappiness" {
		t.Errorf("settings %+v", ss)
	}
}

func buddyOf(t *testing.T, text string) []kernel.BuddyZone {
	t.Helper()
	tl := ParseString(text, "p", Options{})
	for _, s := range tl.Samples {
		if len(s.Buddy) > 0 {
			return s.Buddy
		}
	}
	t.Fatalf("no buddyinfo sample; artifacts %d, unparsed %+v", len(tl.Artifacts), tl.Unparsed)
	return nil
}

// drgn-tools corelens's buddyinfo table (corpus 468): "Node 0   Normal  15009 ...". Before,
// the rows were unread output.
func TestBuddyInfoCorelensTable(t *testing.T) {
	text := `Node ID  Zone     Order 0        1        2        3        4        5        6        7        8        9       10  
Node 0   DMA            0        0        0        0        0        0        0        0        1        1        2  
Node 0   DMA32          6        5        7        4        6        6        6        4        8        5      275  
Node 0   Normal     15009     3297     1623      524     1914     1305      518      264      102       83    95121  
Node 0   Movable        0
`
	zs := buddyOf(t, text)
	if len(zs) != 3 || zs[2].Zone != "Normal" || zs[2].Node != 0 || len(zs[2].Free) != 11 || zs[2].Free[0] != 15009 || zs[2].Free[10] != 95121 {
		t.Errorf("zones %+v", zs)
	}
}

// hotsos's YAML summary lists a zone's free blocks one order a line, highest first, under
// the node's key (corpus 467). Before: unread; the numbers were lost.
func TestBuddyInfoHotsosYAML(t *testing.T) {
	text := `  memory:
    nodes:
      1:  
        zones:
          Normal:
            10: 0
            9: 0
            8: 0
            7: 0
            6: 0
            5: 0
            4: 1167
            3: 13656
            2: 42644
            1: 143208
            0: 426212
  potential-issues:
`
	zs := buddyOf(t, text)
	want := []int64{426212, 143208, 42644, 13656, 1167, 0, 0, 0, 0, 0, 0}
	if len(zs) != 1 || zs[0].Node != 1 || zs[0].Zone != "Normal" || len(zs[0].Free) != 11 {
		t.Fatalf("zones %+v", zs)
	}
	for o, n := range want {
		if zs[0].Free[o] != n {
			t.Errorf("order %d: %d, want %d", o, zs[0].Free[o], n)
		}
	}
	// Without the node's key the zone is not read: the node is not guessed.
	tl := ParseString("Normal:\n  2: 5\n  1: 6\n  0: 7\n", "p", Options{})
	for _, s := range tl.Samples {
		if len(s.Buddy) > 0 {
			t.Errorf("zone read without its node: %+v", s.Buddy)
		}
	}
}

// One /proc/meminfo line quoted in prose (corpus 470, "SUnreclaim:     42964948 kB"):
// before, the text exited 3 ("nothing is evidence"). A name the file does not print is
// still no meminfo.
func TestQuotedMemInfoLine(t *testing.T) {
	tl := ParseString("After 100 Days of uptime\nI have\nSUnreclaim:     42964948 kB\n\nthey suddenly started swapping.\n", "p", Options{})
	// (the last line is a stated sample of its own since fix19b: "started swapping")
	mems := 0
	for _, s := range tl.Samples {
		if s.MemInfo != nil {
			mems++
		}
	}
	if len(tl.Samples) == 0 || mems != 1 {
		t.Fatalf("samples %+v", tl.Samples)
	}
	if v, ok := tl.Samples[0].Mem("SUnreclaim"); !ok || v != 42964948 {
		t.Errorf("SUnreclaim = %d, %v", v, ok)
	}
	tl = ParseString("Our link:\nSpeed:     1000 kB\n", "p", Options{})
	for _, s := range tl.Samples {
		if s.MemInfo != nil {
			t.Errorf("meminfo from a non-meminfo line: %+v", s.MemInfo)
		}
	}
}

// Interface counters read from sysfs, each command with its number on the next line, and
// ifconfig's one RX line under its own command (corpus 471). Before, rx_missed_errors was
// unread and nic-rx-overruns missed the 7142467 frames.
func TestSysfsCountersAndOneIfconfigRow(t *testing.T) {
	text := `$ ifconfig eth2 | grep 'RX.*drop'
RX packets:2059646370 errors:0 dropped:7142467 overruns:0 frame:0
$ cat /sys/class/net/eth2/statistics/rx_dropped
0
$ cat /sys/class/net/eth2/statistics/rx_missed_errors
7142467
`
	tl := ParseString(text, "p", Options{})
	var missed, packets int64 = -1, -1
	for _, s := range tl.Samples {
		for _, d := range s.NetDev {
			if v, ok := d.Counters.Get("rx_missed_errors"); ok && d.Name == "eth2" {
				missed = v
			}
		}
	}
	for _, a := range tl.Artifacts {
		if ia, ok := a.Data.(ifaceArtifact); ok && a.Kind == KindIfconfig {
			for _, f := range ia.Interfaces {
				if v, ok := f.Counters.Get("rx_packets"); ok && f.Name == "eth2" {
					packets = v
				}
			}
		}
	}
	if missed != 7142467 || packets != 2059646370 {
		t.Errorf("rx_missed_errors %d, rx_packets %d; artifacts %+v", missed, packets, tl.Artifacts)
	}
}

// /proc/net/sockstat flattened onto one line (corpus 479). Before: unread output.
func TestFlattenedSockStat(t *testing.T) {
	text := "sockets: used 137 TCP: inuse 49 orphan 0 tw 3272 alloc 52 mem 46 UDP: inuse 1 mem 0 RAW: inuse 0 FRAG: inuse 0 memory 0\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Samples) != 1 {
		t.Fatalf("samples %+v unparsed %+v", tl.Samples, tl.Unparsed)
	}
	if v, ok := tl.Samples[0].SockStat.Get("TCP", "tw"); !ok || v != 3272 {
		t.Errorf("tw = %d, %v", v, ok)
	}
	if v, ok := tl.Samples[0].SockStat.Get("sockets", "used"); !ok || v != 137 {
		t.Errorf("sockets used = %d, %v", v, ok)
	}
}

// A kernel message named inside a sentence is prose about it, not the log (corpus 478's
// "- There are too many orphaned sockets on the system", 216's Chinese explanation): before,
// each counted as a logged event and fired orphan-send-queues or tcp-memory-pressure.
func TestMessageNamedInProseIsNoLogLine(t *testing.T) {
	text := `- The server is running out of TCP memory
- There are too many orphaned sockets on the system
the kernel will start throwing the "Out of socket memory" error in the logs.
`
	tl := ParseString(text, "p", Options{})
	if tl.Log.Len() != 0 {
		t.Errorf("log records from prose: %+v", tl.Log)
	}
	tl = ParseString("Out of socket memory\nkernel: TCP: too many of orphaned sockets\n", "p", Options{})
	if tl.Log.Len() != 2 {
		t.Errorf("quoted messages: %d log records, want 2", tl.Log.Len())
	}
}

// netstat -s run onto one line by a PDF's conversion (corpus 474): the group words and the
// sentences netstat prints are cut back into lines. Before: unread, 14 counters lost.
func TestFlattenedNetstatS(t *testing.T) {
	text := "Runtime Analyze of Linux Network Stack 4 | 56 Netstat I netstat -s IP: 3229907 total packets received [...] 108 dropped because of missing route Icmp: ICMP input histogram: destination unreachable: 57 Tcp: 117181 active connections openings 105765 passive connection openings 2775 segments retransmited TcpExt: 70382 delayed acks sent Quick ack mode was activated 772 times 450 packets collapsed in receive queue due to low socket buffer [...]\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Samples) != 1 {
		t.Fatalf("samples %+v unparsed %+v", tl.Samples, tl.Unparsed)
	}
	s := tl.Samples[0]
	for _, c := range []struct {
		group, name string
		want        int64
	}{{"Ip", "InReceives", 3229907}, {"Tcp", "RetransSegs", 2775}, {"TcpExt", "DelayedACKLost", 772}, {"TcpExt", "TCPRcvCollapsed", 450}} {
		if v, ok := s.NetStat.Get(c.group, c.name); !ok || v != c.want {
			t.Errorf("%s %s = %d, %v; want %d", c.group, c.name, v, ok, c.want)
		}
	}
}

// A driver's "NIC Link is Up N Mbps" gives the host's NIC and its speed; a device renamed
// after the first message is one NIC (corpus 472). Before: the speed was unread, and the
// plan had no link to size the reserve for.
func TestLinkUpGivesNICSpeed(t *testing.T) {
	text := `[    5.738367] vmxnet3 0000:0b:00.0 eth0: NIC Link is Up 10000 Mbps
[    8.186233] vmxnet3 0000:0b:00.0 eno16780032: intr type 3, mode 0, 5 vectors allocated
[    8.187854] vmxnet3 0000:0b:00.0 eno16780032: NIC Link is Up 10000 Mbps
[   12.100000] e1000e: eth1 NIC Link is Up 1000 Mbps Full Duplex, Flow Control: None
[   13.100000] ixgbe 0000:03:00.0 eth2: NIC Link is Up 10 Gbps, Flow Control: RX/TX
[   14.100000] e1000: eth3: e1000_watchdog: NIC Link is Up 100 Mbps Full Duplex
`
	tl := ParseString(text, "p", Options{})
	got := map[string]int64{}
	for _, n := range tl.Host.NICs {
		got[n.Name] = n.SpeedMbps
	}
	want := map[string]int64{"eno16780032": 10000, "eth1": 1000, "eth2": 10000, "eth3": 100}
	if len(got) != len(want) {
		t.Fatalf("NICs %+v", tl.Host.NICs)
	}
	for name, v := range want {
		if got[name] != v {
			t.Errorf("%s: %d Mbps, want %d", name, got[name], v)
		}
	}
}
