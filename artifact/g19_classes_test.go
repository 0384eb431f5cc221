package artifact

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

// The classes the held-out batch g19 found (corpus 673-692), each on a minimal snippet
// written for the class (not the case's words); every test failed before its change.

// /proc/net/netstat pasted with its value line cut short (corpus 674: 54 values under 81
// names). Before: the header line was prose and the value line "could not be read", so
// ListenOverflows was lost.
func TestProcNetStatValuesCut(t *testing.T) {
	const text = "$ cat /proc/net/netstat\n" +
		"TcpExt: SyncookiesSent SyncookiesRecv SyncookiesFailed EmbryonicRsts PruneCalled ListenOverflows ListenDrops TCPBacklogDrop TCPMemoryPressures\n" +
		"TcpExt: 0 0 12 3 1 4411 4411\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Samples) != 1 {
		t.Fatalf("samples %+v; unparsed %+v", tl.Samples, tl.Unparsed)
	}
	g := tl.Samples[0].NetStat
	if v, ok := g.Get("TcpExt", "ListenOverflows"); !ok || v != 4411 {
		t.Errorf("ListenOverflows %d %v", v, ok)
	}
	// The names after the cut are absent, not zero.
	for _, name := range []string{"TCPBacklogDrop", "TCPMemoryPressures"} {
		if v, ok := g.Get("TcpExt", name); ok {
			t.Errorf("%s read as %d from a cut line", name, v)
		}
	}
	if len(tl.Unparsed) != 1 || !strings.Contains(tl.Unparsed[0].Why, "TCPBacklogDrop onwards") {
		t.Errorf("the cut is not said: %+v", tl.Unparsed)
	}
	// Counter-cases: a value line of another group, and a value line wrapped onto the next
	// line (its values go on) are no cut line.
	for _, text := range []string{
		"TcpExt: SyncookiesSent SyncookiesRecv SyncookiesFailed ListenOverflows\nIpExt: 0 0 12\n",
		"TcpExt: SyncookiesSent SyncookiesRecv SyncookiesFailed ListenOverflows ListenDrops\nTcpExt: 0 0 12\n4411 4411\n",
	} {
		for _, s := range ParseString(text, "p", Options{}).Samples {
			if v, ok := s.NetStat.Get("TcpExt", "SyncookiesFailed"); ok {
				t.Errorf("%q: read SyncookiesFailed %d", text, v)
			}
		}
	}
}

// A paste of /sys/class/net/IF/statistics merged with a driver's ethtool -S counters, one
// "name: value" a line, no "NIC statistics:" line (corpus 681). Before: the names that are no
// NIC loss counter made the bare-ethtool reader refuse the list, whose lines then became an
// unstamped kernel log; rx_dropped was never an interface counter.
func TestSysfsStatisticsList(t *testing.T) {
	const text = "Counters of eth1 (/sys/class/net/eth1/statistics plus ethtool -S):\n" +
		"alloc_rx_buff_failed: 0\ncollisions: 0\nmulticast: 310\nrx_bytes: 8812004\nrx_crc_errors: 0\n" +
		"rx_dropped: 912\nrx_errors: 0\nrx_missed_errors: 0\nrx_no_buffer_count: 0\nrx_packets: 70215\n" +
		"tx_bytes: 51200\ntx_dropped: 0\ntx_packets: 402\n"
	tl := ParseString(text, "p", Options{})
	var dev, nic bool
	for _, s := range tl.Samples {
		for _, nd := range s.NetDev {
			v, ok := nd.Counters.Get("rx_dropped")
			dev = dev || (ok && v == 912 && nd.Name == "eth1")
			if nd.Counters.Has("alloc_rx_buff_failed") {
				t.Errorf("a driver counter among the interface's: %+v", nd)
			}
		}
		for _, n := range s.NICStats {
			if n.Stats != nil {
				v, ok := n.Stats.Get("rx_no_buffer_count")
				nic = nic || (ok && v == 0)
			}
		}
	}
	if !dev || !nic {
		t.Errorf("interface counters %v, NIC statistics %v: %+v", dev, nic, tl.Samples)
	}
	// Counter-case: a few such names in another program's key-value output are not the
	// interface's statistics directory.
	tl = ParseString("rx_packets: 70215\nrx_dropped: 912\nworkers: 4\nqueue: 12\n", "p", Options{})
	for _, s := range tl.Samples {
		if len(s.NetDev) > 0 {
			t.Errorf("read as interface counters: %+v", s.NetDev)
		}
	}
}

// An out-of-memory stated as an event in a post that is not English, or in English as a past
// cause, without the kernel's report (corpus 673 "最终导致程序 OOM Kill", 676 "그럼 왜 OOM이
// 발생한 것일까"). Before: oom-kill not checked.
func TestStatedOOMOccurred(t *testing.T) {
	oom := func(text string) float64 {
		t.Helper()
		v := 0.0
		for _, s := range ParseString(text, "p", Options{}).Samples {
			v = max(v, s.Rates[model.RateStatedOOM])
		}
		return v
	}
	for _, c := range []struct {
		text string
		want float64
	}{
		{"上线一周后，消息堆积越来越多，最后导致服务 OOM 被重新拉起。\n", 1},
		{"昨天夜里这台机器发生了OOM,数据库进程没了。\n", 1},
		{"스왑이 없는 보드에서 어제 OOM이 발생했다.\n", 1},
		{"テスト環境のサーバーでOOMが発生しました。\n", 1},
		{"The unbounded queue caused an OOM kill of the collector on our gateway.\n", 1},
		// Counter-cases: a possibility, a prevention, a negation, a conditional, and advice.
		{"队列无限增长可能导致 OOM。\n", 0},
		{"为了避免发生OOM,我们限制了队列长度。\n", 0},
		{"升级以后再也没有发生OOM。\n", 0},
		{"스왑이 없으면 OOM이 발생하면 프로세스가 죽는다.\n", 0},
		{"If the queue is unbounded, it could have caused an OOM kill.\n", 0},
	} {
		if got := oom(c.text); got != c.want {
			t.Errorf("%q: stated OOM %v, want %v", c.text, got, c.want)
		}
	}
}

// sar under the Japanese locale (strftime %X: "00時10分01秒", "平均値:"), with blank lines
// between the rows and the middle rows elided with ':' (corpus 687). Before: no stamp was a
// time, so the header was prose and every row "could not be read".
func TestSysstatJapaneseLocale(t *testing.T) {
	const text = "$ sar -r\nLinux 2.6.32-431.el6.x86_64 (web01) 2014年03月02日\n\n" +
		"09時00分01秒 kbmemfree kbmemused  %memused kbbuffers  kbcached  kbcommit   %commit\n  \n" +
		"09時10分01秒     20480    1028096     98.05     10240    204800    812000     40.12\n  \n" +
		":\n  \n" +
		"11時30分01秒     40960    1007616     96.09     12288    225280    798000     39.43\n  \n" +
		"平均値:         30720    1017856     97.07     11264    215040    805000     39.77\n\n" +
		"kbmemfree は空きメモリです。\n"
	tl := ParseString(text, "p", Options{})
	tb := one(t, tl, KindSysstat).(*SysstatTable)
	if len(tb.Rows) != 3 || tb.Rows[0][0] != "09:10:01" || tb.Rows[1][0] != "11:30:01" || tb.Rows[2][0] != "平均値:" {
		t.Fatalf("rows %q; unparsed %+v", tb.Rows, tl.Unparsed)
	}
	if len(tl.Unparsed) != 0 {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
	// Counter-case: a blank line and then prose, or another table's header, ends the table.
	tl = ParseString("09時00分01秒 kbmemfree kbmemused  %memused kbbuffers  kbcached  kbcommit   %commit\n"+
		"09時10分01秒     20480    1028096     98.05     10240    204800    812000     40.12\n\n"+
		"09時00分01秒  pgpgin/s pgpgout/s   fault/s  majflt/s\n"+
		"09時10分01秒      1.00      2.00     30.00      0.00\n", "p", Options{})
	n := 0
	for _, a := range tl.Artifacts {
		if a.Kind == KindSysstat {
			n++
			if rows := a.Data.(*SysstatTable).Rows; len(rows) != 1 {
				t.Errorf("a table of %d rows: %q", len(rows), rows)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d sysstat tables, want 2", n)
	}
}

// /proc/pagetypeinfo run onto one line by a web page (corpus 682). Before: the line "could not
// be read".
func TestFlattenedPagetypeinfo(t *testing.T) {
	const text = "Our board after a week of uptime:\n" +
		"# cat /proc/pagetypeinfo Page block order: 10 Pages per block: 1024 Free pages count per migrate type at order 0 1 2 3 4 5 6 7 8 9 10 " +
		"Node 0, zone Normal, type Unmovable 12 7 3 0 0 0 0 0 0 0 0 Node 0, zone Normal, type Movable 400 210 33 2 1 0 0 0 0 0 0 " +
		"Node 0, zone Normal, type Reclaimable 9 4 0 0 0 0 0 0 0 0 0 " +
		"Number of blocks type Unmovable Movable Reclaimable Node 0, zone Normal 30 90 8\n"
	tl := ParseString(text, "p", Options{})
	pt := one(t, tl, KindPageTypeInfo).(*kernel.PageTypeInfo)
	if pt.PagesPerBlock != 1024 || len(pt.Free) != 3 || pt.Free[1].Type != "Movable" || pt.Free[1].Free[3] != 2 {
		t.Errorf("free %+v", pt)
	}
	if len(pt.Blocks) != 1 {
		t.Fatalf("blocks %+v", pt.Blocks)
	}
	if v, _ := pt.Blocks[0].Counts.Get("Movable"); v != 90 {
		t.Errorf("Movable blocks %d", v)
	}
}

// A vendor console stamp with the CPU before the uptime, "[2-3219.1870]" (corpus 677, an
// ARM TV SoC on 4.1). Before: no line was a kernel line, the invoker was "[2-3219.1870]
// vd-net-config", the kernel release of the task line unread and the register lines of the
// backtrace "could not be read".
func TestCPUPrefixedStamp(t *testing.T) {
	l := SplitLines("[1-812.0420] CPU: 1 PID: 90 Comm: netd Tainted: P O 3.10.30 #1\n")[0]
	if !l.Kernel || l.UptimeUsec != 812_042_000 || l.Text != "CPU: 1 PID: 90 Comm: netd Tainted: P O 3.10.30 #1" {
		t.Errorf("%+v", l)
	}
	// Counter-cases: a date and a CPU range in brackets are no stamps.
	for _, s := range []string{"[2-11] release notes", "[0-3] cpus online"} {
		if l := SplitLines(s + "\n")[0]; l.Kernel || l.UptimeUsec >= 0 {
			t.Errorf("%q read as a stamp: %+v", s, l)
		}
	}
}

// The kill line under vm.oom_kill_allocating_task, "Out of memory (oom_kill_allocating_task):
// Kill process N (x) score 0 or sacrifice child" (corpus 686, CentOS 7). Before: it ended the
// report its header began, and the "Killed process" line after it became a report of its
// own: two OOM kills for one, the first without a victim; the task chosen was not kept.
func TestOOMKillAllocatingTask(t *testing.T) {
	const text = "Mar 3 02:10:11 db2 kernel: java invoked oom-killer: gfp_mask=0x201da, order=0, oom_score_adj=0\n" +
		"Mar 3 02:10:11 db2 kernel: Out of memory (oom_kill_allocating_task): Kill process 4242 (java) score 0 or sacrifice child\n" +
		"Mar 3 02:10:11 db2 kernel: Killed process 4250 (java), UID 1001, total-vm:8123456kB, anon-rss:6012340kB, file-rss:0kB\n"
	tl := ParseString(text, "p", Options{})
	o := one(t, tl, KindOOMKill).(*oomArtifact)
	if o.KilledPID != 4250 || o.Invoker != "java" {
		t.Errorf("kill %+v", o.OOMKill)
	}
	if o.Selected == nil || o.Selected.PID != 4242 || o.Selected.Comm != "java" {
		t.Errorf("selected %+v", o.Selected)
	}
}

// The port of "Possible SYN flooding on port N" kept with the kernel log's numbers (corpus
// 685, 689, 690: the finding named the port, no artifact carried it).
func TestLogSynFloodPort(t *testing.T) {
	tl := ParseString("[ 812.004] TCP: request_sock_TCP: Possible SYN flooding on port 8443. Sending cookies.  Check SNMP counters.\n"+
		"Jun  2 10:01:02 lb1 kernel: possible SYN flooding on port 25. Sending cookies.\n", "p", Options{})
	k := one(t, tl, KindKernelLog).(KernelLogData)
	var ports []int64
	for _, n := range k.Numbers {
		if n.Message == "SYN flooding" {
			ports = append(ports, n.Values["port"])
		}
	}
	if len(ports) != 2 || ports[0] != 8443 || ports[1] != 25 {
		t.Errorf("ports %v (numbers %+v)", ports, k.Numbers)
	}
}

// A flood repeats its line: one record per port is kept (the first line of each), not one
// per line, so a log of a long flood keeps a bounded number of them.
func TestLogSynFloodPortOncePerPort(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		port := 443
		if i%1000 == 7 {
			port = 80
		}
		fmt.Fprintf(&b, "[%d.004] TCP: request_sock_TCP: Possible SYN flooding on port %d. Sending cookies.  Check SNMP counters.\n", 100+i, port)
	}
	k := one(t, ParseString(b.String(), "p", Options{}), KindKernelLog).(KernelLogData)
	var got []string
	for _, n := range k.Numbers {
		if n.Message == "SYN flooding" {
			got = append(got, fmt.Sprintf("%d@%d", n.Values["port"], n.Line))
		}
	}
	if want := []string{"443@1", "80@8"}; !slices.Equal(got, want) {
		t.Errorf("SYN flood numbers %v, want %v", got, want)
	}
}
