package artifact

import (
	"fmt"
	"strings"
	"testing"

	"headroom/kernel"
)

// Round 8 (g47–g52) fixed by class: boards' and appliance OSes' own outputs and log forms.
// Each snippet is written for its class from the tool's or the kernel's source (cited at the
// reader), not copied from a case.

// cma_alloc's failure line quoted without "cma: " or a stamp is the kernel's line
// (kernel.MsgCMAAllocFail); a sentence that only asks about it is not.
func TestFix13bCMAQuoted(t *testing.T) {
	tl := ParseString("cma_alloc: alloc failed, req-size: 4096 pages, ret: -12\n\nSeen on my board after an hour of video.\n", "t", Options{})
	if tl.Log.Len() != 1 {
		t.Fatalf("log records %d, want the quoted cma_alloc line", tl.Log.Len())
	}
	f, ok := kernel.ParseSubsysAllocFailure(tl.Log.At(0).Message)
	if !ok || f.Pool != kernel.PoolCMA {
		t.Errorf("record %q read as %+v %v, want a CMA pool failure", tl.Log.At(0).Message, f, ok)
	}
	var cma map[string]any
	for _, a := range tl.Artifacts {
		if m, ok := a.Data.(map[string]any); ok && m["cma_alloc_failures"] != nil {
			cma = m
		}
	}
	if cma == nil || cma["req_pages"] != int64(4096) || cma["req_bytes"] != int64(4096*4096) || cma["ret"] != -12 || cma["page_size"] == nil {
		t.Errorf("CMA artifact %+v, want 4096 pages, 16 MiB with the page size said assumed, ret -12", cma)
	}
	checkAccount(t, tl)
	for _, prose := range []string{
		"What does alloc failed, req-size: mean in the log?\n",
		"The driver prints its own alloc failed, req-size: line when the CMA area is too small.\n",
	} {
		if tl := ParseString(prose, "t", Options{}); tl.Log.Len() != 0 {
			t.Errorf("%q: read as %d log records, want prose", prose, tl.Log.Len())
		}
	}
}

// talosctl dmesg: machined's "%s: %7s: [%s]: %s" (facility, padded level, RFC 3339 stamp,
// message), with the node talosctl puts in front or without it.
func TestFix13bTalosDmesgPrefix(t *testing.T) {
	for _, c := range []struct{ in, node, text string }{
		{"192.168.9.4: kern: warning: [2023-03-05T08:01:02.123456789Z]: Node 0 Normal free:4020kB min:3300kB low:4124kB high:4948kB", "192.168.9.4", "Node 0 Normal free:4020kB min:3300kB low:4124kB high:4948kB"},
		{"kern:    info: [2023-03-05T08:01:02.5Z]: 0 pages in swap cache", "", "0 pages in swap cache"},
		{"worker-3: kern:  notice: [2023-03-05T08:01:02Z]: eth0: link up", "worker-3", "eth0: link up"},
		{"fd00:10::2: kern:     err: [2023-03-05T08:01:02.1Z]: Out of memory: Killed process 812 (java)", "fd00:10::2", "Out of memory: Killed process 812 (java)"},
	} {
		ls := SplitLines(c.in)
		if l := ls[0]; !l.Kernel || l.Host != c.node || l.Text != c.text || l.Stamp == "" || l.Priority < 0 {
			t.Errorf("%q: kernel=%v host=%q text=%q stamp=%q prio=%d, want a kernel line of %q", c.in, l.Kernel, l.Host, l.Text, l.Stamp, l.Priority, c.node)
		}
	}
	// Counter-cases: another facility is a program's line; no level or stamp, no prefix.
	if l := SplitLines("10.0.0.5: daemon: warning: [2023-03-05T08:01:02Z]: [talos] service[kubelet](Running)")[0]; l.Kernel || !l.Syslog || l.Tag != "daemon" {
		t.Errorf("daemon facility: kernel=%v syslog=%v tag=%q, want another program's line", l.Kernel, l.Syslog, l.Tag)
	}
	for _, in := range []string{
		"10.0.0.5: kern: something happened",
		"kern: warning: see the log at [2023-03-05]: later",
		"node1: kern: loud: [2023-03-05T08:01:02Z]: x",
		"note: kern: warning: [yesterday at noon]: x",
	} {
		if l := SplitLines(in)[0]; l.Kernel || l.Text != in {
			t.Errorf("%q: read as a Talos record (kernel=%v text=%q)", in, l.Kernel, l.Text)
		}
	}
	// A Mem-Info zone line through the prefix reaches the zone reader.
	text := "10.0.0.5: kern: warning: [2023-03-05T08:01:02.100Z]: Node 0 DMA32 free:6100kB min:5540kB low:7476kB high:9412kB reserved_highatomic:0KB active_anon:5504kB inactive_anon:1774092kB active_file:900kB inactive_file:1032kB unevictable:0kB writepending:0kB present:2080632kB managed:1994552kB mlocked:0kB bounce:0kB free_pcp:292kB local_pcp:0kB free_cma:0kB\n" +
		"10.0.0.5: kern: warning: [2023-03-05T08:01:02.101Z]: lowmem_reserve[]: 0 0 0 0\n"
	tl := ParseString(text, "t", Options{})
	found := false
	for _, a := range tl.Artifacts {
		found = found || a.Kind == KindShowMem && strings.Contains(fmt.Sprintf("%+v", a.Data), "Zone:DMA32 FreeKB:6100")
	}
	if !found {
		t.Errorf("no DMA32 zone read from the prefixed Mem-Info; artifacts %+v unparsed %+v", tl.Artifacts, tl.Unparsed)
	}
}

// ip -s link's statistics rows without the interface line, named by the command above.
func TestFix13bIPStatsWithoutInterfaceLine(t *testing.T) {
	text := "Counters from `ip -s link show enp1s0`:\n\n    RX:  bytes packets errors dropped  missed   mcast\n      88213  1204      0      31       0      12\n    TX:  bytes packets errors dropped carrier collsns\n      4410    302      0       0       0       0\n"
	tl := ParseString(text, "t", Options{})
	var got []kernel.NetDev
	for _, s := range tl.Samples {
		got = append(got, s.NetDev...)
	}
	if len(got) != 1 || got[0].Name != "enp1s0" {
		t.Fatalf("interfaces %+v, want enp1s0", got)
	}
	for k, want := range map[string]int64{"rx_dropped": 31, "rx_packets": 1204, "rx_missed_errors": 0, "tx_packets": 302} {
		if v, ok := got[0].Counters.Get(k); !ok || v != want {
			t.Errorf("%s = %d %v, want %d", k, v, ok, want)
		}
	}
	checkAccount(t, tl)
	// No interface named: the counters are kept, but as no interface's reading.
	tl = ParseString("Here is what I see:\n\n    RX:  bytes packets errors dropped  missed   mcast\n      88213  1204      0      31       0      12\n", "t", Options{})
	if len(tl.Samples) != 0 || len(tl.Artifacts) != 1 {
		t.Errorf("unnamed block: %d samples, %d artifacts; want the artifact alone", len(tl.Samples), len(tl.Artifacts))
	}
	// A row that does not fit its columns is said, not read.
	tl = ParseString("ip -s link show eth1\n    RX:  bytes packets errors dropped  missed   mcast\n      88213  1204      0\n", "t", Options{})
	if len(tl.Samples) != 0 || len(tl.Unparsed) == 0 {
		t.Errorf("short row: %d samples, unparsed %+v; want it listed as unread", len(tl.Samples), tl.Unparsed)
	}
	// ethtool -g's "RX:" lines are no statistics header: nothing listed under ip's name.
	tl = ParseString("Ring parameters for eth0:\nPre-set maximums:\nRX:\t\t4096\nTX:\t\t4096\nCurrent hardware settings:\nRX:\t\t256\nTX:\t\t256\n\nRX:\t\t0\nTX:\t\t0\n", "t", Options{})
	for _, u := range tl.Unparsed {
		if strings.Contains(u.Why, "ip -s link") {
			t.Errorf("ethtool -g lines listed as ip -s link rows: %+v", u)
		}
	}
	for label, want := range map[string]string{
		"RX drops seen with `ip -s link show eth0`:": "eth0",
		"$ ip -s -s link ls dev wlan0":               "wlan0",
		"ip -s link | grep -A1 RX":                   "",
		"the link show was slow":                     "",
	} {
		if got := ipLinkCommandIface(label); got != want {
			t.Errorf("ipLinkCommandIface(%q) = %q, want %q", label, got, want)
		}
	}
}

// qmemman's figures are Xen's balloon accounting: unread, never the dom0 kernel's memory.
func TestFix13bQmemmanUnread(t *testing.T) {
	wantUnreadOnly(t, "qmemman", "Mar 03 09:10:11 dom0 qmemman.systemstate[2211]: Xen free = 104857600 too small for satisfy assignments! assigned_but_unused=209715200, domdict={'3': {'memory_maximum': 4194304000}}\n", "Xen memory balancer")
	wantUnreadOnly(t, "qmemman mem-set", "Mar 03 09:10:11 dom0 qmemman.daemon.algo[2211]: mem-set domain 3 to 1048576000\n", "balloon targets")
	// Its chatter without a figure is another program's line, not unread evidence.
	tl := ParseString("Mar 03 09:10:11 dom0 qmemman.daemon[2211]: started\n", "t", Options{})
	if len(tl.Unparsed) != 0 || len(tl.Samples) != 0 {
		t.Errorf("qmemman chatter: unparsed %+v, %d samples", tl.Unparsed, len(tl.Samples))
	}
}

// tegrastats' RAM and SWAP: the host's size and swap totals; the rest kept as printed.
func TestFix13bTegrastats(t *testing.T) {
	text := "RAM 1520/7772MB (lfb 12x2MB) SWAP 120/3886MB (cached 8MB) CPU [40%@1190,12%@1190,off,off] EMC_FREQ 9%@1600 GR3D_FREQ 0%@114 AO@36C GPU@35.5C\n" +
		"RAM 1524/7772MB (lfb 12x2MB) SWAP 120/3886MB (cached 8MB) CPU [33%@1190,10%@1190,off,off] EMC_FREQ 9%@1600 GR3D_FREQ 0%@114 AO@36C GPU@35.5C\n"
	tl := ParseString(text, "t", Options{})
	if tl.Host.MemTotalKB != 7772*1024 {
		t.Errorf("MemTotalKB %d, want %d", tl.Host.MemTotalKB, 7772*1024)
	}
	if len(tl.Samples) != 2 {
		t.Fatalf("%d samples, want one a line", len(tl.Samples))
	}
	if v, _ := tl.Samples[0].MemInfo.Get("SwapFree"); v != (3886-120)*1024 {
		t.Errorf("SwapFree %d", v)
	}
	if _, ok := tl.Samples[0].MemInfo.Get("MemFree"); ok {
		t.Error("MemFree set from tegrastats' used figure, which is its own sum")
	}
	checkAccount(t, tl)
	for _, in := range []string{
		"RAM 9000/7772MB SWAP 0/0MB\n",            // used above total: not tegrastats
		"RAM usage was 1520/7772MB at the time\n", // a sentence
	} {
		if tl := ParseString(in, "t", Options{}); tl.Host.MemTotalKB != 0 || len(tl.Samples) != 0 {
			t.Errorf("%q: read as tegrastats", in)
		}
	}
}

// Armbian's login banner: the memory total is the host's; the shares are the script's.
func TestFix13bArmbianMotd(t *testing.T) {
	for _, c := range []struct {
		in string
		kb int64
	}{
		{"Memory usage:  12 % of 1987MB \tZram usage:    3 % of 993Mb\n", 1987 * 1024},
		{"Memory usage:  41% of 1.9G      Zram usage:    8% of 973M      IP:            10.0.0.7\n", 1992294}, // 1.9 GiB in MB, truncated to kB,
	} {
		tl := ParseString(c.in, "t", Options{})
		if tl.Host.MemTotalKB != c.kb || len(tl.Artifacts) != 1 || len(tl.Samples) != 0 {
			t.Errorf("%q: MemTotalKB %d (want %d), %d artifacts, %d samples", c.in, tl.Host.MemTotalKB, c.kb, len(tl.Artifacts), len(tl.Samples))
		}
		checkAccount(t, tl)
	}
	for _, in := range []string{"Memory usage: high after the update\n", "Memory usage: 140 % of 2048MB\n"} {
		if tl := ParseString(in, "t", Options{}); tl.Host.MemTotalKB != 0 {
			t.Errorf("%q: read as the banner", in)
		}
	}
	if !strings.Contains(armbianNotReadWhy(), "script") {
		t.Error("the banner's shares must be said to be the script's")
	}
}

func armbianNotReadWhy() string {
	a, _ := parseArmbianMotd("Memory usage:  12 % of 1987MB")
	return a.NotRead
}
