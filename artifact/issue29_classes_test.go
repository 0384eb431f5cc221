package artifact

import (
	"slices"
	"strings"
	"testing"

	"headroom/model"
)

// Classes of issue 29 found by the held-out batches g10-g13 and the list, each on a
// minimal snippet; every test failed before its change.

// A count of sockets per TCP state printed by awk or uniq -c (corpus 559: `netstat -n | awk
// '/^tcp/ {++S[$NF]} END {for(a in S) print a, S[a]}'`). Before: the rows were prose, no
// number read.
func TestTCPStateCounts(t *testing.T) {
	for name, text := range map[string]string{
		"netstat awk": "#netstat -n|awk '/^tcp/{++S[$NF]}END{for (key in S) print key,S[key]}'\nCLOSE_WAIT 183\nESTABLISHED 139\nFIN_WAIT1 2310\nTIME_WAIT 3979\n",
		"ss awk":      "$ ss -tan | awk 'NR>1 {++s[$1]} END {for (k in s) print k, s[k]}'\nCLOSE-WAIT 183\nESTAB 139\nFIN-WAIT-1 2310\nTIME-WAIT 3979\n",
		"uniq -c":     "$ netstat -ant | awk '{print $6}' | sort | uniq -c | sort -n\n      1 established)\n      1 Foreign\n    139 ESTABLISHED\n    183 CLOSE_WAIT\n   2310 FIN_WAIT1\n   3979 TIME_WAIT\n",
	} {
		tl := ParseString(text, "p", Options{})
		if len(tl.Samples) != 1 || tl.Samples[0].Sockets == nil {
			t.Errorf("%s: samples %+v, unparsed %+v", name, tl.Samples, tl.Unparsed)
			continue
		}
		s := tl.Samples[0].Sockets
		if !s.CountsOnly || s.Total != 183+139+2310+3979 || s.ByState["TIME_WAIT"].Count != 3979 || s.ByState["FIN_WAIT1"].Count != 2310 {
			t.Errorf("%s: summary %+v", name, s)
		}
		if tl.Lines.Unparsed != 0 || tl.Lines.Prose > 1 {
			t.Errorf("%s: lines %+v", name, tl.Lines)
		}
	}
	// A sentence that names a state is no count.
	tl := ParseString("TIME_WAIT sockets hold no buffers at all, 3979 of them.\n", "p", Options{})
	for _, a := range tl.Artifacts {
		if a.Kind == KindTCPStates {
			t.Errorf("prose read as a count: %+v", a)
		}
	}
}

// A kernel message a sentence says this host prints now is a record of its log; one a
// sentence says may come is not (corpus 537: `Linux kernel print keeps printing
// "TCP:Too many of orphaned sockets".`). Before: prose, orphan-send-queues not checked.
func TestMessageStatedAsLoggedNow(t *testing.T) {
	now := map[string]string{
		`It worked well at first.Linux kernel print keeps printing "TCP:Too many of orphaned sockets".But this never happens to others.`: "TCP:too many of orphaned sockets",
		"dmesg is full of too many orphaned sockets, what should I do?":                                                                  "too many orphaned sockets",
		`I keep getting "Out of socket memory" on our proxy.`:                                                                            "Out of socket memory",
		"服务器日志里一直出现 TCP: too many orphaned sockets":                                                                                      "TCP: too many orphaned sockets",
	}
	for text, want := range now {
		tl := ParseString(text+"\n", "p", Options{})
		if tl.Log.Len() != 1 || !strings.HasSuffix(tl.Log.At(0).Message, want) {
			t.Errorf("%q: log %+v, want the record %q", text, tl.Log, want)
		}
	}
	for _, text := range []string{
		`When orphans pile up the kernel will start throwing the "Out of socket memory" error.`,
		"You may see TCP: too many orphaned sockets in dmesg if tcp_max_orphans is low.",
		"If you keep getting too many orphaned sockets, raise tcp_max_orphans.",
		"What does \"too many orphaned sockets\" mean?",
	} {
		if tl := ParseString(text+"\n", "p", Options{}); tl.Log.Len() != 0 {
			t.Errorf("%q read as logged: %+v", text, tl.Log)
		}
	}
}

// "$ uname -r" and its output name the host's kernel; a program's "version 2.1.0" does not
// (corpus 537 read "ss-redir ... to version 2.1.0" as kernel 2.1.0). Before: no kernel for
// the first, 2.1.0 for the second.
func TestUnameRAndProgramVersion(t *testing.T) {
	tl := ParseString("$ uname -r\n4.15.0-112-generic\n$ cat /proc/sys/vm/min_free_kbytes\n67584\n", "p", Options{})
	if tl.Host.Kernel != "4.15.0-112-generic" {
		t.Errorf("uname -r: kernel %q", tl.Host.Kernel)
	}
	tl = ParseString("[root@node1 ~]# uname -r\n3.10.0-957.el7.x86_64\nTCP: too many orphaned sockets\n", "p", Options{})
	if tl.Host.Kernel != "3.10.0-957.el7.x86_64" {
		t.Errorf("uname -r after a prompt: kernel %q", tl.Host.Kernel)
	}
	tl = ParseString("I have updated ss-redir to version 2.1.0 as you told me.\nTCP: too many orphaned sockets\n", "p", Options{})
	if tl.Host.Kernel != "" {
		t.Errorf("a program's version read as the kernel: %q", tl.Host.Kernel)
	}
	tl = ParseString("The box runs 2.4.13 and performance drops.\nTCP: too many orphaned sockets\n", "p", Options{})
	if tl.Host.Kernel != "2.4.13" {
		t.Errorf("a bare release in prose: %q", tl.Host.Kernel)
	}
}

// softnet_stat re-printed by a tool: Jay Vosburgh's softnet.awk ("000: proc N P% drop N
// tm_sq N rx_rps N fl_lim N" under "total packets N"), and majek's legend with "CPU" in
// capitals. Before: exit 3 for the first (ip link's "2:" rows claimed it), the second
// unparsed.
func TestSoftnetReprinted(t *testing.T) {
	for name, text := range map[string]string{
		"softnet.awk": "$ ./softnet.awk\ntotal packets 17838409\n000: proc 8714952 48.85% drop 1532 tm_sq 5712 rx_rps 0 fl_lim 0\n001: proc 9123457 51.15% drop    0 tm_sq  621 rx_rps 0 fl_lim 0\n",
		"CPU legend":  "CPU     total    dropped   squeezed  collision rps flow_limit\n0       8714952  1532      5712      0         0   0\n1       9123457  0         621       0         0   0\n",
	} {
		tl := ParseString(text, "p", Options{})
		if len(tl.Samples) != 1 || len(tl.Samples[0].Softnet) != 2 {
			t.Errorf("%s: samples %+v unparsed %+v", name, tl.Samples, tl.Unparsed)
			continue
		}
		c := tl.Samples[0].Softnet
		if c[0].Processed != 8714952 || c[0].Dropped != 1532 || c[0].TimeSqueeze != 5712 || c[1].CPU != 1 || c[1].TimeSqueeze != 621 {
			t.Errorf("%s: rows %+v", name, c)
		}
		if tl.Lines.Prose > 1 || tl.Lines.Unparsed > 0 {
			t.Errorf("%s: lines %+v", name, tl.Lines)
		}
	}
	// "total packets" alone is prose, and ip link's index rows stay ip link's.
	if tl := ParseString("total packets 12\n", "p", Options{}); len(tl.Samples) != 0 {
		t.Errorf("a lone total read: %+v", tl.Samples)
	}
}

// Kernel records inside the containers other tools write them in: dmesg -x, the CRI log
// format (kubectl logs, /var/log/pods), docker's json-file, journalctl -o json, RFC 5424,
// journalctl -o short-monotonic, kubectl logs --prefix. Before: the header was found by its
// words but the zone dump's buddy line was lost in each (and 1 of 2 lines read in most).
func TestKernelRecordWrappers(t *testing.T) {
	h := "swapper/0: page allocation failure: order:2, mode:0x4020"
	n := "Node 0 Normal: 9000*4kB 2000*8kB 10*16kB 0*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 52160kB"
	for name, lines := range map[string][2]string{
		"dmesg -x":           {"kern  :warn  : [12345.678901] " + h, "kern  :warn  : [12345.678950] " + n},
		"dmesg -x -T":        {"kern  :warn  : [Sun Nov 29 09:12:01 2026] " + h, "kern  :warn  : [Sun Nov 29 09:12:01 2026] " + n},
		"CRI":                {"2026-11-29T09:12:01.123456789Z stdout F [12345.678901] " + h, "2026-11-29T09:12:01.123500000Z stdout F [12345.678950] " + n},
		"docker json-file":   {`{"log":"[12345.678901] ` + h + `\n","stream":"stdout","time":"2026-11-29T09:12:01.123456789Z"}`, `{"log":"[12345.678950] ` + n + `\n","stream":"stdout","time":"2026-11-29T09:12:01.1235Z"}`},
		"journalctl -o json": {`{"__REALTIME_TIMESTAMP":"1700000000123456","_TRANSPORT":"kernel","PRIORITY":"4","_HOSTNAME":"web1","MESSAGE":"` + h + `","_SOURCE_MONOTONIC_TIMESTAMP":"12345678901"}`, `{"_TRANSPORT":"kernel","PRIORITY":"4","MESSAGE":"` + n + `","_SOURCE_MONOTONIC_TIMESTAMP":"12345678950"}`},
		"RFC 5424":           {"<4>1 2026-11-29T09:12:01.123456+00:00 web1 kernel - - - " + h, "<4>1 2026-11-29T09:12:01.123500+00:00 web1 kernel - - [meta seq=\"2\"] " + n},
		"short-monotonic":    {"[12345.678901] web1 kernel: " + h, "[12345.678950] web1 kernel: " + n},
		"kubectl --prefix":   {"[pod/dmesg-x2b/reader] [12345.678901] " + h, "[pod/dmesg-x2b/reader] [12345.678950] " + n},
		"RFC 3164 with PRI":  {"<4>Nov 29 09:12:01 web1 kernel: " + h, "<4>Nov 29 09:12:01 web1 kernel: " + n},
		"short-unix":         {"1700000000.123456 web1 kernel: " + h, "1700000000.123500 web1 kernel: " + n},
		"BusyBox syslogd":    {"Nov 29 09:12:01 router kern.warn kernel: [12345.678901] " + h, "Nov 29 09:12:01 router kern.warn kernel: [12345.678950] " + n},
		"date cut off":       {"web1 kernel: [12345.678901] " + h, "web1 kernel: [12345.678950] " + n},
	} {
		tl := ParseString(lines[0]+"\n"+lines[1]+"\n", "p", Options{})
		if tl.Lines.Read != 2 {
			t.Errorf("%s: lines %+v", name, tl.Lines)
		}
		var fails []model.AllocFailure
		for _, e := range tl.Events {
			if e.AllocFailure != nil {
				fails = append(fails, *e.AllocFailure)
			}
		}
		if len(fails) != 1 || fails[0].Order != 2 || len(fails[0].Zones) == 0 || len(fails[0].Zones[0].FreeBlocks) == 0 || fails[0].Zones[0].FreeBlocks[0] != 9000 {
			t.Errorf("%s: failures %+v", name, fails)
		}
	}
	l, _, _ := parseLine(1, `{"_TRANSPORT":"kernel","PRIORITY":"3","MESSAGE":"x","_SOURCE_MONOTONIC_TIMESTAMP":"5000000"}`)
	if !l.Kernel || l.Priority != 3 || l.UptimeUsec != 5000000 || l.Text != "x" {
		t.Errorf("journal record read as %+v", l)
	}
	// A user-space journal record and a JSON object of another kind are not kernel records.
	if l, _, _ := parseLine(1, `{"_TRANSPORT":"stdout","SYSLOG_IDENTIFIER":"nginx","MESSAGE":"page allocation failure"}`); l.Kernel {
		t.Errorf("user-space journal record read as the kernel's: %+v", l)
	}
	if l, _, _ := parseLine(1, `{"name":"eth0","mtu":1500}`); l.Text != `{"name":"eth0","mtu":1500}` {
		t.Errorf("JSON object rewritten: %+v", l)
	}
}

// The kubelet's eviction manager reclaiming memory and evicting pods, in journal lines (old
// and structured klog). Before: exit 3, nothing read.
func TestKubeletReclaimLines(t *testing.T) {
	text := `Nov 29 09:12:01 node-2 kubelet[18711]: W1129 09:12:01.659401   18711 eviction_manager.go:344] eviction manager: attempting to reclaim memory
Nov 29 09:12:01 node-2 kubelet[18711]: I1129 09:12:01.659500   18711 eviction_manager.go:357] eviction manager: must evict pod(s) to reclaim memory
Nov 29 09:12:02 node-2 kubelet[18711]: I1129 09:12:02.000000   18711 eviction_manager.go:393] "Eviction manager: pods evicted, waiting for pod to be cleaned up" pods=["default/web-5d9c7"]
Nov 29 09:14:02 node-2 kubelet[18711]: I1129 09:14:02.000000   18711 eviction_manager.go:366] "Eviction manager: attempting to reclaim" resourceName="ephemeral-storage"
`
	tl := ParseString(text, "p", Options{})
	as := artifactsOf(tl, KindKubeletEviction)
	if len(as) != 1 {
		t.Fatalf("artifacts %+v", tl.Artifacts)
	}
	ev := as[0].Data.(KubeletEvictionLog)
	if !slices.Equal(ev.Reclaiming, []string{"memory", "ephemeral-storage"}) || !slices.Equal(ev.Evicted, []string{"default/web-5d9c7"}) {
		t.Errorf("read %+v", ev)
	}
	if len(tl.NodeConditions) != 1 || tl.NodeConditions[0].Type != "MemoryPressure" {
		t.Errorf("conditions %+v", tl.NodeConditions)
	}
}

// A text's title names the kernel event it is about, in the words a title shortens it to
// (corpus 527: "# nf_conntrack table full" over a masscan story). Before: prose, conntrack-full
// not checked. A title that asks, and the same words in the body, are not records.
func TestTitleNamesTheMessage(t *testing.T) {
	for _, text := range []string{
		"# nf_conntrack table full\n\nCaused by a masscan\n",
		"nf_conntrack: table full\n\nOur router drops new flows.\n",
		"\nTCP: too many orphaned sockets\n\nsince the upgrade\n",
	} {
		tl := ParseString(text, "p", Options{})
		if tl.Log.Len() != 1 || !(strings.Contains(tl.Log.At(0).Message, "table full, dropping packet") || strings.Contains(tl.Log.At(0).Message, "too many orphaned sockets")) {
			t.Errorf("%q: log %+v", text, tl.Log)
		}
	}
	for _, text := range []string{
		"# How to fix nf_conntrack table full?\n\nsteps below\n",
		"# 为什么会出现 nf_conntrack table full\n\n说明\n",
		"Some notes\n\nWhen the nf_conntrack table full condition hits, raise the limit.\n",
		"nf_conntrack table full\nis what the blog post below explains\n",
	} {
		if tl := ParseString(text, "p", Options{}); tl.Log.Len() != 0 {
			t.Errorf("%q read as logged: %+v", text, tl.Log)
		}
	}
}

// sosreport keeps command output in files named after the command: sysctl -a's in
// sos_commands/kernel/sysctl_-a, ethtool -S eth0's in sos_commands/networking/ethtool_-S_eth0.
// Before: the grep'd sysctl -a lines were a sysctl.conf (not the host's values: tcp_mem not
// compared with sockstat), and the counters had no interface.
func TestSosreportCommandFiles(t *testing.T) {
	text := `$ cat sos_commands/kernel/sysctl_-a | grep -E 'tcp_mem|min_free'
net.ipv4.tcp_mem = 188049	250733	376098
vm.min_free_kbytes = 45056
$ cat sos_commands/networking/ethtool_-S_eth0 | grep -E 'missed|no_buffer'
     rx_missed_errors: 1234567
     rx_no_buffer_count: 9876
`
	tl := ParseString(text, "p", Options{})
	if v, _, ok := tl.Sysctl("net.ipv4.tcp_mem"); !ok || v != "188049 250733 376098" {
		t.Errorf("tcp_mem %q %v", v, ok)
	}
	var names []string
	for _, s := range tl.Samples {
		for _, n := range s.NICStats {
			names = append(names, n.Name)
		}
	}
	if !slices.Equal(names, []string{"eth0"}) {
		t.Errorf("NICs %q", names)
	}
}

// iperf's UDP receiver columns (jitter, lost/total datagrams) and iperf 2's socket buffer
// line ("TCP window size: 85.0 KByte (default)"). Before: the row's bitrate only, the
// buffer line prose.
func TestIperfUDPAndWindow(t *testing.T) {
	text := "UDP buffer size:  208 KByte (default)\n[ ID] Interval       Transfer     Bandwidth        Jitter   Lost/Total Datagrams\n[  3]  0.0-10.0 sec   118 MBytes  99.1 Mbits/sec   0.052 ms 4812/89090 (5.4%)\n" +
		"[  5]   0.00-10.00  sec   118 MBytes  99.1 Mbits/sec  0.052 ms  4812/89090 (5.4%)  receiver\nTCP window size: 85.0 KByte (default)\n"
	tl := ParseString(text, "p", Options{})
	var win []int64
	var lost []int64
	for _, a := range artifactsOf(tl, KindIperf) {
		d := a.Data.(IperfData)
		if d.WindowBytes > 0 {
			win = append(win, d.WindowBytes)
		}
		for _, r := range append(d.Intervals, deref(d.Receiver)...) {
			if r.Lost != nil && r.Datagrams != nil && *r.Datagrams == 89090 {
				lost = append(lost, *r.Lost)
			}
		}
	}
	if !slices.Equal(win, []int64{212992, 87040}) || !slices.Equal(lost, []int64{4812, 4812}) {
		t.Errorf("windows %v lost %v (artifacts %+v)", win, lost, tl.Artifacts)
	}
	if tl.Lines.Prose != 0 {
		t.Errorf("lines %+v", tl.Lines)
	}
}

func deref(r *IperfInterval) []IperfInterval {
	if r == nil {
		return nil
	}
	return []IperfInterval{*r}
}

// The machine's memory named before its size, in the languages of the held-out posts.
// Before: only "16 GB of RAM" (the size first, in English) was read. Limits, usage, a
// container's or a cgroup's size in a command are not the machine's.
func TestStatedMemoryWordFirst(t *testing.T) {
	for text, want := range map[string]int64{
		"服务器配置: 内存64G, CPU 16核.":                             64 << 20,
		"記憶體 128GB 的伺服器":                                     128 << 20,
		"メモリは8GB です":                                         8 << 20,
		"Сервер: ОЗУ 4 ГБ, Debian 10.":                       4 << 20,
		"RAM: 16GB, 8 cores":                                 16 << 20,
		"container memory limit: 512M":                       0,
		"内存使用 12G":                                           0,
		"The JVM heap memory is 8 GB":                        0,
		"cgexec -g memory:12G emerge -1 www-client/chromium": 0,
	} {
		tl := ParseString(text+"\nTCP: out of memory -- consider tuning tcp_mem\n", "p", Options{})
		if tl.Host.MemTotalKB != want {
			t.Errorf("%q: MemTotal %d kB, want %d", text, tl.Host.MemTotalKB, want)
		}
	}
}

// docker stats and kubectl top (node, pod -A) tables. Before: exit 3, nothing read.
func TestContainerMemoryTables(t *testing.T) {
	for text, want := range map[string][]int64{
		"CONTAINER ID   NAME      CPU %     MEM USAGE / LIMIT     MEM %     NET I/O           BLOCK I/O         PIDS\n3f2a1b9c8d7e   web       0.50%     1.95GiB / 2GiB        97.51%    1.2GB / 980MB     12.3MB / 0B       41\n": {2093796556, 2147483648},
		"NAME       CPU(cores)   CPU%   MEMORY(bytes)   MEMORY%\nnode-1     250m         12%    7123Mi          92%\n":                                                                                                             {7469006848, 0},
		"NAMESPACE   NAME    CPU(cores)   MEMORY(bytes)\ndefault     web-1   5m           120Mi\n":                                                                                                                                 {125829120, 0},
	} {
		tl := ParseString(text, "p", Options{})
		as := artifactsOf(tl, KindContainerMem)
		if len(as) != 1 {
			t.Errorf("%q: artifacts %+v", text, tl.Artifacts)
			continue
		}
		r := as[0].Data.(ContainerMemTable).Rows
		if len(r) != 1 || r[0].UsageBytes != want[0] || r[0].LimitBytes != want[1] {
			t.Errorf("%q: rows %+v", text, r)
		}
	}
	// kubectl get pods has a NAME header too: not this table.
	if as := artifactsOf(ParseString("NAME    READY   STATUS    RESTARTS   AGE\nweb-1   1/1     Running   0          2d\n", "p", Options{}), KindContainerMem); len(as) != 0 {
		t.Errorf("kubectl get pods read: %+v", as)
	}
}

// free in the language of the post: procps-ng's translated header and row names (zh_CN with
// a full-width colon, de, ru). Before: exit 3 or the rows unparsed.
func TestFreeLocalized(t *testing.T) {
	for name, text := range map[string]string{
		"zh_CN": "$ free -m\n              总计        已用        空闲      共享    缓冲/缓存    可用\n内存：        15950       15500         207          10         243         371\n交换：        2047        2047           0\n",
		"de":    "$ free -m\n              gesamt       benutzt     frei      gemeinsam  Zwischen    verfügbar\nSpeicher:      15950       15500         207          10         243         371\nAuslagerungsspeicher:    2047        2047           0\n",
		"ru":    "$ free -m\n              всего        занято        свободно      общая  буф./врем.   доступно\nПамять:        15950       15500         207          10         243         371\nПодкачка:       2047        2047           0\n",
	} {
		tl := ParseString(text, "p", Options{})
		if tl.Host.MemTotalKB != 15950*1024 {
			t.Errorf("%s: MemTotal %d, artifacts %+v unparsed %+v", name, tl.Host.MemTotalKB, tl.Artifacts, tl.Unparsed)
		}
		as := artifactsOf(tl, KindFree)
		if len(as) != 1 || len(as[0].Data.(*FreeTable).Rows["Swap"]) != 3 {
			t.Errorf("%s: %+v", name, as)
		}
	}
}
