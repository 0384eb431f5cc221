package artifact

import (
	"strings"
	"testing"
)

// g287 (linux-input, 2024): a mail put a blank after a workqueue worker's colon,
// "kworker/1: 0: page allocation failure": the comm is "kworker/1:0" again. A worker printed
// whole, and a task whose name only looks like a prefix and a number, keep their comms.
func TestFix68bKworkerSplitByMail(t *testing.T) {
	for line, want := range map[string]string{
		"[71553.093623]kworker/1: 0: page allocation failure: order:4, mode:0x40dc0(GFP_KERNEL|__GFP_COMP|__GFP_ZERO), nodemask=(null)": "kworker/1:0",
		"Jan  3 10:00:01 host kernel: kworker/u8: 2: page allocation failure: order:2, mode:0x20":                                       "kworker/u8:2",
		"[ 12.5] kworker/0:1H: page allocation failure: order:0, mode:0x20":                                                             "kworker/0:1H",
		"Jan  3 10:00:01 host kernel: kworker/0: 1H: page allocation failure: order:0, mode:0x20":                                       "kworker/0:1H",
		"Jan  3 10:00:01 host kernel: nginx: 3: page allocation failure: order:0, mode:0x20":                                            "3",
		"Jan  3 10:00:01 host kernel: swapper/1: page allocation failure: order:1, mode:0x20":                                           "swapper/1",
	} {
		af, ok := parseAllocHeader(line)
		if !ok || af.Process != want {
			t.Errorf("%q: comm %q, want %q", line, af.Process, want)
		}
	}
}

// g260's 5436 (LKML 2024): "790040kB+253500kB ~= 1GiB of memory on pcp lists" is a sum
// worked out, not the machine's memory (it made a 1 TiB host's 1 GiB of slab 104% of
// "memory"). A size stated plainly still is the machine's.
func TestFix68hArithmeticResultIsNoHostMemory(t *testing.T) {
	for text, want := range map[string]int64{
		"Node 0/1 Normal free memory is below respective min watermarks, with\n790040kB+253500kB ~= 1GiB of memory on pcp lists.\n": 0,
		"The pcp lists hold 2 x 512MB = 1GB of memory here.\n":                                                                      0,
		"The box has 16 GB of memory and two NICs.\n":                                                                               16 << 20,
		"Memory: the server has 8 GB RAM.\n":                                                                                        8 << 20,
	} {
		tl := ParseString(text, "t", Options{})
		if tl.Host.MemTotalKB != want {
			t.Errorf("%q: host memory %d kB, want %d", text, tl.Host.MemTotalKB, want)
		}
	}
}

// g293's 6904: "sudo sysctl net.ipv4.tcp_mem="100000000 100000000 100000000"" writes the key
// as "sysctl -w" would (procps-ng writes any argument holding '='): its three values are
// read. A shell expansion as the value, and a key and value displayed with blanks around
// '=', are no such command.
func TestFix68jSysctlWithoutW(t *testing.T) {
	for text, want := range map[string]string{
		"sudo sysctl net.ipv4.tcp_mem=\"100000000 100000000 100000000\"\n": "100000000 100000000 100000000",
		"sysctl net.core.netdev_budget=3000\n":                             "3000",
		"sysctl net.core.rmem_max=$((100*1024*1024))\n":                    "",
	} {
		tl := ParseString(text, "t", Options{})
		got := ""
		for _, s := range tl.Settings {
			if s.Value != "" {
				got = s.Value
			}
		}
		if got != want {
			t.Errorf("%q: value %q, want %q", text, got, want)
		}
	}
}

// g293's 6912 (Snort's perf_monitor CSV): rows of comma-separated numbers are output no
// reader knows, listed as unread, not prose (the paste exited 3, "nothing is evidence").
// A sentence with commas, and a list of words, are not such rows.
func TestFix68kUnreadCSVRows(t *testing.T) {
	for line, want := range map[string]bool{
		"1624430232,18211875,14057686,489037,4154190,18446744073709551615,14708198265": true,
		"1624433232,15621453,11446369,7724,4175080,4,10342789639":                      true,
		"#timestamp,daq.received,daq.analyzed,daq.dropped,daq.filtered":                false,
		"We saw 3, then 4, then 5, then 6 drops.":                                      false,
		"eth0,eth1,eth2,eth3": false,
	} {
		if _, got := unreadEvidence(line); got != want {
			t.Errorf("%q: unread evidence %v, want %v", line, got, want)
		}
	}
}

// g290's 6780 (a 2008 forum post of /var/log/messages): the date and host of each line
// replaced with "...", "... kernel: [430837.196335] DMA free:3536kB ...": the kernel's line
// under its bare tag, so the OOM report's Mem-Info dump is read. An ellipsis before other
// words stays prose.
func TestFix68lElidedSyslogHead(t *testing.T) {
	text := "... kernel: [430837.196335] DMA free:3536kB min:68kB low:84kB high:100kB active:0kB inactive:0kB present:16256kB pages_scanned:0 all_unreclaimable? yes\n" +
		"... kernel: [430837.196340] lowmem_reserve[]: 0 873 4048 4048\n"
	for _, l := range SplitLines(text) {
		if !l.Kernel || l.UptimeUsec <= 0 || strings.HasPrefix(l.Text, "...") {
			t.Errorf("line %d: kernel %v stamp %d text %q", l.No, l.Kernel, l.UptimeUsec, l.Text)
		}
	}
	for _, l := range SplitLines("... kernel panics were seen twice.\n... and then kernel: nothing.\n") {
		if l.Kernel {
			t.Errorf("prose read as a kernel line: %q", l.Text)
		}
	}
}

// g296's 7021 (LKML 2004): a syslog line without the "kernel:" tag, "Nov 23 17:38:20 calculon
// swapper: page allocation failure. order:0, mode:0x20": the word taken for the syslog tag is
// the failing task's comm. With the kernel's tag the comm follows it, as before.
func TestFix68nCommAsSyslogTag(t *testing.T) {
	for text, want := range map[string]string{
		"Nov 23 17:38:20 calculon swapper: page allocation failure. order:0, mode:0x20\n":         "swapper",
		"Nov 23 17:38:20 calculon kernel: swapper: page allocation failure. order:0, mode:0x20\n": "swapper",
		"Nov 23 17:38:20 calculon kernel: page allocation failure. order:0, mode:0x20\n":          "",
	} {
		tl := ParseString(text, "t", Options{})
		got := "(none)"
		for _, e := range tl.Events {
			if e.AllocFailure != nil {
				got = e.AllocFailure.Process
			}
		}
		if got != want {
			t.Errorf("%q: process %q, want %q", text, got, want)
		}
	}
}
