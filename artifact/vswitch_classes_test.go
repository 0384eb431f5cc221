package artifact

import (
	"strings"
	"testing"
)

// Issue 29 item 4, virtual switching and capture (held-out batch g45): each snippet is a
// minimal one written from the tool's source (cited in unreadvswitch.go). Before, each exited
// 3 ("nothing ... is evidence"): no line was listed as unread.

func TestVSwitchToolFormsNamed(t *testing.T) {
	for _, c := range []struct{ name, want, text string }{
		{"ovs vlog", "Open vSwitch daemon's log", "2020-05-20T08:53:27.294Z|00872|timeval|WARN|Unreasonably long 1415ms poll interval (647ms user, 749ms system)\n" +
			"2020-05-20T08:53:27.312Z|00874|poll_loop|INFO|Dropped 4 log messages in last 4 seconds (most recently, 1 seconds ago) due to excessive rate\n"},
		{"ovs vlog, whole seconds, thread", "Open vSwitch daemon's log", "2023-08-18T22:44:30Z|00002|daemon_unix(monitor)|INFO|pid 70686 died, killed (signal 9), exiting\n"},
		{"ovs memory, prefix cut", "Open vSwitch daemon's memory report", "INFO|168264 kB peak resident set size after 10.1 seconds\n"},
		{"vpp show runtime", "VPP's `show runtime`", "Thread 1 vpp_wk_0 (lcore 2)\nTime 120.5, average vectors/node 12.50, last 128 main loops 0.00 per node 0.00\n  vector rates in 1.2000e6, out 1.2000e6, drop 0.0000e0, punt 0.0000e0\n" +
			"             Name                 State         Calls          Vectors        Suspends         Clocks       Vectors/Call\n" +
			"dpdk-input                       polling          9000000        108000000               0          6.91e1           12.00\n"},
		{"vpp show runtime, rows only", "VPP's `show runtime`", "ip4-lookup                       active              40844         7527197               0          1.68e3          184.29\n"},
		{"vpp show interface", "VPP's `show interface`", "vpp# show interface\n              Name               Idx    State  MTU (L3/IP4/IP6/MPLS)     Counter          Count\n" +
			"tap0                              3      up          1450/0/0/0     rx packets                 1200\n                                                                    rx bytes                  96000\n                                                                    drops                         4\n"},
		{"vpp show interface, no command", "VPP's `show interface`", "tap0                              3      up          1450/0/0/0     rx packets                 1200\n                                                                    drops                         4\n"},
		{"vpp show hardware-interfaces", "VPP's `show hardware-interfaces`", "              Name                Idx   Link  Hardware\nGigabitEthernet0/8/0               1     up   GigabitEthernet0/8/0\n    tx frames ok                                   5296639\n"},
		{"pfcount", "PF_RING pfcount", "=========================\nAbsolute Stats: [1'000 pkts total][250 pkts dropped][25.0% dropped]\n[750 pkts rcvd][96'000 bytes rcvd][12.50 pkt/sec][0.01 Mbit/sec]\n=========================\n"},
		{"tcpdump summary", "tcpdump's capture summary", "0 packets captured\n1317 packets received by filter\n1317 packets dropped by kernel\n"},
		{"go errno, lower case", "ENOBUFS", "error adding container to network: configure nic failed: failed to lookup pf ens5: no buffer space available\n"},
		{"go errno ENOMEM", "ENOMEM", "fork/exec /usr/bin/true: cannot allocate memory (pid 4242)\n"},
		{"assertion in memory code", "failed assertion in its memory", "agent: src/agent/ksync_memory.cc:107: void KSyncMemory::Mmap(bool): Assertion `0' failed.\n"},
	} {
		w := unreadWhy(c.text)
		if len(w) == 0 || !strings.Contains(w[0], c.want) {
			t.Errorf("%s: unread %q, want one naming %q", c.name, w, c.want)
		}
	}
}

// Counter-cases: sentences that mention the tools or their words, a Markdown table's row, a
// name written once, an assertion outside memory code, a kernel line keep their reading.
func TestVSwitchToolFormsCounterCases(t *testing.T) {
	for _, text := range []string{
		"we saw an Unreasonably long poll interval in the OVS log and 4 dropped messages\n",
		"| 2020 | 00872 | WARN | poll |\n",
		"the tap interface 3 went up and down 4 times\n",
		"Step 2 up here\n",
		"we saw 5 packets dropped by kernel yesterday\n",
		"there was no buffer space available on 2 hosts\n",
		"prog: main.c:12: main: Assertion `argc > 1' failed.\n",
	} {
		for _, w := range unreadWhy(text) {
			for _, tool := range []string{"Open vSwitch", "VPP", "PF_RING", "tcpdump", "ENOBUFS", "failed assertion"} {
				if strings.Contains(w, tool) {
					t.Errorf("%q named as %q", text, w)
				}
			}
		}
	}
	// A kernel log stamped in RFC 3339 still reads as syslog: the '|' test is vlog's alone.
	tl := ParseString("2020-05-20T08:53:27.294294+00:00 host kernel: eth0: page allocation failure: order:2, mode:0x4020\n", "p", Options{})
	if len(tl.Events) == 0 {
		t.Errorf("RFC 3339 kernel line not read: %+v", tl.Unparsed)
	}
}

// The OOM kill's figures re-typed from a screenshot (spaces for hyphens and colons, "KB")
// state a kill: the kernel prints total-vm beside anon-rss only for the process it kills.
func TestStatedKillFiguresRetyped(t *testing.T) {
	for _, text := range []string{
		"it looks like kube-ovn cost total-vm: 785284KB, anon rss 19656KB, file rss: 34184KB\n",
		"the victim: total-vm 785284 kB, anon-rss 19656 kB, file-rss 0 kB\n",
		"**total-vm:17600196KB,anon-rss:15291812KB**\n",
	} {
		if !statesOOM(text) {
			t.Errorf("no stated OOM in %q", text)
		}
	}
	for _, text := range []string{
		"the process has total-vm 785284KB but that is virtual\n", // total-vm alone: any ps line
		"anon rss 19656KB after start\n",
	} {
		if statesOOM(text) {
			t.Errorf("stated OOM in %q", text)
		}
	}
}

// The pre-4.19 kill line re-typed with runs of spaces (a reporter's copy, a re-flowed
// screenshot): before, "out of memory:  Kill process" was no kill at all (exit 3), and
// "Kill process  1234" lost its victim.
func TestOOMKillLineRetypedSpacing(t *testing.T) {
	for _, text := range []string{
		"Memory cgroup out of memory:  Kill process  1234 (java)  score 900 or sacrifice child\n",
		"Out of memory: Kill process  1234 (java) score 900 or sacrifice child\n",
		"Out of memory: Kill process 1234 (java) score 900 or sacrifice child\n", // the kernel's own
	} {
		tl := ParseString(text, "p", Options{})
		ok := false
		for _, e := range tl.Events {
			if e.OOMKill != nil && e.OOMKill.KilledPID == 1234 && e.OOMKill.KilledComm == "java" {
				ok = true
			}
		}
		if !ok {
			t.Errorf("no kill of 1234 (java) in %q", text)
		}
	}
	// Counter-case: a sentence with doubled spaces that names no kill line.
	tl := ParseString("we ran out of memory:  the process  1234 was slow\n", "p", Options{})
	for _, e := range tl.Events {
		if e.OOMKill != nil {
			t.Errorf("kill read from a sentence: %+v", e.OOMKill)
		}
	}
}
