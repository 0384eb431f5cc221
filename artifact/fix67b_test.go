package artifact

import (
	"strings"
	"testing"
)

// g272 (bcc's softirqslower example): the slow softirqs are read, the longest of each
// softirq and stage kept, and "[...]" ends the run; a header of another tool is not taken.
func TestFix67bSoftirqSlower(t *testing.T) {
	text := "TIME     STAGE                SOFTIRQ  LAT(us)        CPU    COMM\n" +
		"14:41:43 irq(hard) to softirq net_rx   50223          0      cat\n" +
		"14:41:43 irq(hard) to softirq tasklet  50374          0      cat\n" +
		"14:41:43 softirq runtime      net_rx   12001          1      kworker/1:2\n" +
		"14:42:11 irq(hard) to softirq net_rx   95140          0      cat\n" +
		"[...]\n"
	tl, err := Parse(strings.NewReader(text), "t.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var tr *SoftirqSlowTrace
	for _, a := range tl.Artifacts {
		if v, ok := a.Data.(*SoftirqSlowTrace); ok {
			tr = v
		}
	}
	if tr == nil || tr.Events != 4 || len(tr.Longest) != 3 {
		t.Fatalf("trace: %+v", tr)
	}
	top := tr.Longest[0]
	if top.Softirq != "net_rx" || top.Stage != "irq(hard) to softirq" || top.LatUS != 95140 || top.Count != 2 || top.CPU != 0 {
		t.Errorf("longest: %+v", top)
	}
	if r := tr.Longest[2]; r.Stage != "softirq runtime" || r.Comm != "kworker/1:2" || r.CPU != 1 {
		t.Errorf("runtime row: %+v", r)
	}
	// softirqs' (bcc) summary table is another tool: not this one's header.
	if isSoftirqSlowerHeader("", "SOFTIRQ          TOTAL_usecs") {
		t.Error("softirqs' header taken")
	}
}

// g277 (lede 9881): a /proc/net/dev table whose last row the paste cut after six counts:
// the row is left out and named, the other rows are read; a table whose rows are all of
// another layout stays unread.
func TestFix67cNetDevCutRow(t *testing.T) {
	const head = "Inter-|   Receive                                                |  Transmit\n" +
		" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
	text := head +
		"  lan2: 1794093386 6992723    0 1045565    0     0          0         0 20392244561 21426245    0    0    0     0       0          0\n" +
		"   wan: 65646527334 62178933    0 5222    0     0          0         0 3245854992 11139907    0    0    0     0       0          0\n" +
		"  lan1: 1751257559 4872946    0    0    0     0\n"
	tl, err := Parse(strings.NewReader(text), "t.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, s := range tl.Samples {
		for _, nd := range s.NetDev {
			v, _ := nd.Counters.Get("rx_dropped")
			got[nd.Name] = v
		}
	}
	if len(got) != 2 || got["lan2"] != 1045565 || got["wan"] != 5222 {
		t.Errorf("rows read: %v", got)
	}
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].FirstLine != 5 || !strings.Contains(tl.Unparsed[0].Why, "lan1") {
		t.Errorf("unparsed: %+v", tl.Unparsed)
	}
	short := head + "  eth0: 1 2 3 4 5 6\n  eth1: 1 2 3 4 5 6\n  eth2: 1 2 3 4 5 6\n"
	tl, _ = Parse(strings.NewReader(short), "t.txt", Options{})
	for _, s := range tl.Samples {
		if len(s.NetDev) > 0 {
			t.Errorf("rows of another layout read: %+v", s.NetDev)
		}
	}
}

// g282 (docker for-linux 304): a log viewer's tab-separated export: time, host, tag, message.
// The kernel's records are read as the kernel's; a logger's tab-separated fields are not a
// syslog record.
func TestFix67dTabbedSyslog(t *testing.T) {
	ls := SplitLines("15.05.18 07:42\tSFullstacker\tkernel\t[78267.914089] dockerd invoked oom-killer: gfp_mask=0x14200ca, order=0\n" +
		"15.05.18 07:42\tSFullstacker\tdockerd[3570]\ttime=\"2018-05-15T07:41:12\" level=info msg=\"x\"\n" +
		"2026-11-30T10:00:01.123Z\terror\tx.go:77\tmsg\n")
	if l := ls[0]; !l.Kernel || l.Host != "SFullstacker" || l.Stamp != "15.05.18 07:42" || !strings.HasPrefix(l.Text, "dockerd invoked oom-killer") {
		t.Errorf("kernel record: %+v", l)
	}
	if l := ls[1]; l.Kernel || l.Tag != "dockerd" || !strings.HasPrefix(l.Text, "time=") {
		t.Errorf("program record: %+v", l)
	}
	if l := ls[2]; l.Syslog {
		t.Errorf("zap's console line read as syslog: %+v", l)
	}
}

// g281 (LKML, e1000e CRC errors): `grep . *` in an interface's statistics directory prints
// "name:value"; the list is that interface's sysfs counters.
func TestFix67eSysfsGrep(t *testing.T) {
	text := "/sys/class/net/eno1/statistics$ grep . *\n" +
		"collisions:0\nmulticast:95\nrx_bytes:1499851\nrx_crc_errors:1165\nrx_dropped:0\nrx_errors:2330\n" +
		"rx_missed_errors:0\nrx_packets:4789\ntx_bytes:864312\ntx_dropped:0\ntx_packets:7370\n"
	tl, err := Parse(strings.NewReader(text), "t.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var crc int64
	name := ""
	for _, s := range tl.Samples {
		for _, nd := range s.NetDev {
			crc, _ = nd.Counters.Get("rx_crc_errors")
			name = nd.Name
		}
	}
	if crc != 1165 || name != "eno1" {
		t.Errorf("eno1 rx_crc_errors: %q %d", name, crc)
	}
	if isSysfsGrepLine("foo:12", "") || isSysfsGrepLine("rx_bytes:", "") {
		t.Error("a key that is no sysfs statistic, or no value, taken")
	}
}

// g282 (lxcfs 115): a container's /proc/meminfo whose SwapFree went below zero and printed
// unsigned: the file is read without that line, which is named. Only a value of 2^63 or more
// is such a count.
func TestFix67fMemInfoUnderflow(t *testing.T) {
	text := "MemTotal:       20971520 kB\nMemFree:         8615216 kB\nMemAvailable:    8615216 kB\n" +
		"SwapTotal:             0 kB\nSwapFree:       18446744073709551488 kB\nCached:           123456 kB\n"
	tl, err := Parse(strings.NewReader(text), "t.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var mi int
	for _, s := range tl.Samples {
		if s.MemInfo != nil {
			mi++
			if v, _ := s.Mem("MemTotal"); v != 20971520 {
				t.Errorf("MemTotal %d", v)
			}
			if _, ok := s.Mem("SwapFree"); ok {
				t.Error("SwapFree kept")
			}
		}
	}
	if mi != 1 || len(tl.Unparsed) != 1 || tl.Unparsed[0].FirstLine != 5 {
		t.Errorf("meminfo samples %d, unparsed %+v", mi, tl.Unparsed)
	}
	if !unsignedUnderflow("9223372036854775808") || unsignedUnderflow("9223372036854775807") || unsignedUnderflow("123") {
		t.Error("unsignedUnderflow's bound")
	}
}

// g282 (nri-kubernetes' fixture, cut by the index it was copied from): a kubelet
// /stats/summary whose text ends inside the object is read up to the cut; an object closed
// later in the text is not taken as cut.
func TestFix67gKubeletSummaryCut(t *testing.T) {
	text := "{\n  \"node\": {\n    \"nodeName\": \"minikube\",\n    \"memory\": {\n" +
		"      \"availableBytes\": 791736320,\n      \"workingSetBytes\": 1305468928\n    },\n" +
		"    \"network\": {\n      \"rxBytes\": 1507694406,\n"
	tl, err := Parse(strings.NewReader(text), "t.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ks *KubeletSummary
	for _, a := range tl.Artifacts {
		if v, ok := a.Data.(KubeletSummary); ok {
			ks = &v
		}
	}
	if ks == nil || !ks.Cut || ks.Values["node.memory.availableBytes"] != 791736320 || ks.Values["node.network.rxBytes"] != 1507694406 {
		t.Fatalf("cut summary: %+v", ks)
	}
	tl, _ = Parse(strings.NewReader(text+"    }\n  }\n}\n"), "t.txt", Options{})
	for _, a := range tl.Artifacts {
		if v, ok := a.Data.(KubeletSummary); ok && v.Cut {
			t.Errorf("whole summary marked cut: %+v", v)
		}
	}
}
