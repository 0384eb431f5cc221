package artifact

import (
	"strings"
	"testing"
)

// Pre-round 14 (h14b): managed runtimes' own out-of-memory as the self-hosted media servers
// and photo libraries print it (unreadruntimeoom.go), and the firewall distributions'
// netfilter LOG lines. Snippets written from the format strings; none copied from a case.

// V8's and .NET's own out-of-memory is named as the runtime's, with no OOM stated or killed,
// bare, after a docker compose prefix and under a syslog tag.
func TestH14bRuntimeOwnOutOfMemory(t *testing.T) {
	for _, c := range []struct{ text, word string }{
		{"FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n", "--max-old-space-size"},
		{"immich_server  | FATAL ERROR: Ineffective mark-compacts near heap limit Allocation failed - JavaScript heap out of memory\n", "--max-old-space-size"},
		{"FATAL ERROR: Zone Allocation failed - process out of memory\n", "outside its JavaScript heap"},
		{"immich_server  | [7:0x5598a1b0]   123456 ms: Mark-Compact 2043.1 (2082.4) -> 2041.9 (2083.1) MB, 1650.2 / 0.0 ms  (average mu = 0.112, current mu = 0.011) allocation failure; scavenge might not succeed\n", "gc-tracer.cc"},
		{"System.OutOfMemoryException: Exception of type 'System.OutOfMemoryException' was thrown.\n   at System.Buffers.ArrayPool`1.Rent(Int32 minimumLength)\n", "an OutOfMemoryException"},
		{"[2026-11-30 01:02:03.456 +00:00] [ERR] [42] MediaBrowser.Controller.MediaEncoding.TranscodeManager: System.OutOfMemoryException: Insufficient memory to continue the execution of the program.\n", "an OutOfMemoryException"},
		{"Nov 30 01:02:03 nas node[4242]: FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n", "--max-old-space-size"},
	} {
		tl := ParseString(c.text, "t", Options{})
		if !f15Unread(tl, c.word) || statedOOM(tl) || len(f15Kills(tl)) != 0 || NothingRead(tl) && len(tl.Unparsed) == 0 {
			t.Errorf("%q: unparsed %+v stated %v kills %d: want named (%s), no OOM", c.text, tl.Unparsed, statedOOM(tl), len(f15Kills(tl)), c.word)
		}
		checkAccount(t, tl)
	}
	// Counters: a sentence with the words but not the runtime's message, a GC trace line
	// without V8's sizes, another exception type.
	for _, s := range []string{
		"the build fails with JavaScript heap out of memory since the upgrade",
		"Allocation failed on the second try, see below",
		"took 12 ms: Mark-Compact is slow here",
		"System.InvalidOperationException: Sequence contains no elements",
	} {
		if why, ok := runtimeOOMLine(s); ok {
			t.Errorf("%q named as a runtime's message: %s", s, why)
		}
	}
}

// A title saying the server ran out of memory over the runtime's own message states no OOM
// of the host; the kernel's kill of the same process beside it is still a kill.
func TestH14bTitleOverRuntimeOOM(t *testing.T) {
	body := "The server container restarts during the library scan:\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n"
	tl := ParseString("# immich server out of memory\n"+body, "t", Options{})
	if statedOOM(tl) || !f15Unread(tl, "--max-old-space-size") {
		t.Fatalf("stated %v unparsed %+v: want no stated OOM, V8's line named", statedOOM(tl), tl.Unparsed)
	}
	tl = ParseString(body+"[ 812.000000] Out of memory: Killed process 4242 (node) total-vm:9000000kB, anon-rss:3000000kB, file-rss:0kB, shmem-rss:0kB\n", "t", Options{})
	if len(f15Kills(tl)) != 1 {
		t.Fatalf("kills %+v, want the kernel's kill", f15Kills(tl))
	}
}

// netfilter's LOG target (net/netfilter/xt_LOG.c, nf_log_syslog.c: the rule's prefix, then
// "IN=%s OUT=%s ... SRC=%pI4 DST=%pI4 ..."): IPFire's "DROP_INPUT", ufw's "[UFW BLOCK]",
// firewalld's "filter_IN_public_REJECT: " are firewall logging, read as kernel lines: the
// text is read (no exit 3) and nothing is named as a drop or a memory problem.
func TestH14bNetfilterLogLines(t *testing.T) {
	text := "Nov 30 02:11:03 ipfire kernel: DROP_INPUT IN=red0 OUT= MAC=00:0d:b9:41:12:34:00:1b:21:aa:bb:cc:08:00 SRC=185.220.101.4 DST=81.2.3.4 LEN=40 TOS=0x00 PREC=0x00 TTL=241 ID=54321 PROTO=TCP SPT=44344 DPT=23 WINDOW=1024 RES=0x00 SYN URGP=0\n" +
		"Nov 30 02:11:04 gw kernel: [12345.678901] [UFW BLOCK] IN=eth0 OUT= MAC=52:54:00:12:34:56:52:54:00:65:43:21:08:00 SRC=10.0.0.5 DST=10.0.0.1 LEN=60 TOS=0x00 PREC=0x00 TTL=64 ID=4321 DF PROTO=TCP SPT=51000 DPT=22 WINDOW=64240 RES=0x00 SYN URGP=0\n" +
		"Nov 30 02:11:05 gw kernel: filter_IN_public_REJECT: IN=eth0 OUT= MAC=52:54:00:12:34:56:52:54:00:65:43:21:08:00 SRC=10.0.0.6 DST=10.0.0.1 LEN=60 TOS=0x00 PREC=0x00 TTL=64 ID=4322 DF PROTO=TCP SPT=51001 DPT=8080 WINDOW=64240 RES=0x00 SYN URGP=0\n"
	tl := ParseString(text, "t", Options{})
	if NothingRead(tl) || len(tl.Unparsed) != 0 || statedOOM(tl) {
		t.Fatalf("nothing read %v unparsed %+v stated %v: want the kernel lines read, nothing named", NothingRead(tl), tl.Unparsed, statedOOM(tl))
	}
	for _, a := range tl.Artifacts {
		if a.Kind != "kernel_log" {
			t.Errorf("artifact %s from netfilter LOG lines", a.Kind)
		}
	}
	checkAccount(t, tl)
	// Counter: the table-full line among them is still the kernel's conntrack message.
	tl = ParseString(text+"Nov 30 02:11:06 ipfire kernel: nf_conntrack: nf_conntrack: table full, dropping packet\n", "t", Options{})
	found := false
	for _, r := range tl.Log.Records() {
		found = found || strings.Contains(r.Message, "table full, dropping packet")
	}
	if !found {
		t.Fatal("the conntrack table-full line is no longer in the kernel log")
	}
}

// systemd's notice of a unit's main process killed by a signal is named when nothing else
// is read (no exit 3), with no kill recorded from it; beside a kernel log it stays another
// program's line; systemd's OOM line is still read.
func TestH14bSystemdSignalNotices(t *testing.T) {
	for _, c := range []struct{ text, word string }{
		{"Nov 30 02:14:22 nas systemd[1]: plexmediaserver.service: Main process exited, code=killed, status=9/KILL\nNov 30 02:14:22 nas systemd[1]: plexmediaserver.service: Failed with result 'signal'.\n", "does not say who sent it"},
		{"Nov 30 02:14:22 nas systemd[1]: emby-server.service: Main process exited, code=killed, status=6/ABRT\n", "ended by a signal"},
	} {
		tl := ParseString(c.text, "t", Options{})
		if !f15Unread(tl, c.word) || len(f15Kills(tl)) != 0 || len(tl.RuntimeOOMs) != 0 {
			t.Errorf("%q: unparsed %+v kills %d runtime %d: want named (%s), no kill", c.text, tl.Unparsed, len(f15Kills(tl)), len(tl.RuntimeOOMs), c.word)
		}
		checkAccount(t, tl)
	}
	// Beside the kernel's kill it is not listed.
	tl := ParseString("Nov 30 02:14:21 nas kernel: Out of memory: Killed process 4242 (Plex Media Serv) total-vm:9000000kB, anon-rss:3000000kB, file-rss:0kB, shmem-rss:0kB\nNov 30 02:14:22 nas systemd[1]: plexmediaserver.service: Main process exited, code=killed, status=9/KILL\n", "t", Options{})
	if len(tl.Unparsed) != 0 || len(f15Kills(tl)) != 1 {
		t.Fatalf("unparsed %+v kills %d: want the kernel's kill, systemd's line not listed", tl.Unparsed, len(f15Kills(tl)))
	}
	// Counters: systemd's OOM line is still a kill systemd reported; a process exiting with
	// a status is no signal notice; a sentence quoting the words has no unit before them.
	tl = ParseString("Nov 30 02:14:22 nas systemd[1]: jellyfin.service: A process of this unit has been killed by the OOM killer.\n", "t", Options{})
	if len(tl.RuntimeOOMs) != 1 {
		t.Fatalf("runtime OOMs %+v: systemd's OOM line no longer read", tl.RuntimeOOMs)
	}
	for _, s := range []string{
		"jellyfin.service: Main process exited, code=exited, status=1/FAILURE",
		"the log says: Main process exited, code=killed, status=9/KILL",
	} {
		if why, ok := systemdKilledWhy(s); ok {
			t.Errorf("%q named: %s", s, why)
		}
	}
}

// VyOS's `show interfaces ethernet ethX` (vyos/ifconfig/operational.py: iproute2's link
// lines, then the RX/TX label rows of _stat_names with "collisions" spelled out): read as ip
// -s link's statistics, the TX row too; iproute2's own "collsns" is unchanged.
func TestH14bVyOSInterfaceStatistics(t *testing.T) {
	text := "vyos@vyos:~$ show interfaces ethernet eth1\n" +
		"eth1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP group default qlen 1000\n" +
		"    link/ether 00:50:56:aa:bb:cd brd ff:ff:ff:ff:ff:ff\n" +
		"    RX:       bytes    packets    errors    dropped    overrun    mcast\n" +
		"             9123456789    8123456         0      41234          0     1234\n" +
		"    TX:       bytes    packets    errors    dropped    carrier    collisions\n" +
		"             1234567890    2345678         0          0          0             7\n"
	tl := ParseString(text, "t", Options{})
	if !artifactHas(t, tl, KindIPLink, `"rx_dropped":41234`) || !artifactHas(t, tl, KindIPLink, `"tx_packets":2345678`) || !artifactHas(t, tl, KindIPLink, `"collisions":7`) || len(tl.Unparsed) != 0 {
		t.Fatalf("unparsed %+v: want eth1's RX and TX rows read", tl.Unparsed)
	}
	checkAccount(t, tl)
	// Counter: iproute2's own spelling.
	tl = ParseString(strings.Replace(text, "collisions", "collsns", 1), "t", Options{})
	if !artifactHas(t, tl, KindIPLink, `"collisions":7`) {
		t.Fatal("iproute2's collsns no longer read")
	}
}

// VyOS's `show system memory` (src/op_mode/memory.py, bytes_to_human's "%.2f UNIT") is read
// as free's table: Total as MemTotal, Free as MemAvailable.
func TestH14bVyOSSystemMemory(t *testing.T) {
	tl := ParseString("vyos@vyos:~$ show system memory\nTotal: 1.94 GB\nFree:  81.25 MB\nUsed:  1.86 GB\n", "t", Options{})
	if !artifactHas(t, tl, KindFree, `"available"`) || !artifactHas(t, tl, KindFree, `"Mem":[2034237,1950351,83200]`) || len(tl.Unparsed) != 0 {
		t.Fatalf("artifacts %+v unparsed %+v: want VyOS's memory read as free's", tl.Artifacts, tl.Unparsed)
	}
	checkAccount(t, tl)
	// Counters: ss -s's "Total:" line is still ss's; the three lines without the command;
	// a Free above Total. (The older script's numbers without a unit, vyos-show-ram.sh's
	// MiB, are read since h17c: artifact/h17c_router_test.go.)
	tl = ParseString("$ ss -s\nTotal: 180 (kernel 0)\nTCP:   12 (estab 3, closed 2, orphaned 0, synrecv 0, timewait 2/0), ports 0\n", "t", Options{})
	for _, a := range tl.Artifacts {
		if a.Kind == KindFree {
			t.Fatal("ss -s read as VyOS's memory")
		}
	}
	for _, s := range []string{
		"Disk usage:\nTotal: 1.94 GB\nFree:  81.25 MB\nUsed:  1.86 GB\n",
		"vyos@vyos:~$ show system memory\nTotal: 1.94 GB\nFree:  3.10 GB\nUsed:  1.86 GB\n",
	} {
		tl = ParseString(s, "t", Options{})
		for _, a := range tl.Artifacts {
			if a.Kind == KindFree {
				t.Errorf("%q read as VyOS's memory", s)
			}
		}
	}
}
