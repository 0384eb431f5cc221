package diagnose

import "testing"

// h31a (round 31 hardening, a FORM): a kernel counter named by its identifier in a sentence
// with its value, its before/after pair or its rate: nstat's and /proc/net/netstat's names,
// /proc/vmstat's event counters, ethtool -S's loss counters, ifconfig's "RX dropped". The
// name is checked against the kernel vocabulary's home (kernel.IsTcpExtName, splitNstatName,
// kernel.IsVMStatEventName, kernel.ClassifyNICCounter) and the readings become the samples
// the table readers give, so each rule judges them as it judges two pasted outputs.

func TestH31aCounterReadingsStated(t *testing.T) {
	for _, c := range []struct {
		name, text, rule, what, value string
	}{
		{"nstat name, from/to", "Our nginx box drops connections under load. TcpExtListenOverflows went from 1200 to 45000 in an hour.\n",
			"listen-overflow", "ListenOverflows", "+43800 between first and last sample"},
		{"bullet, code span, separators", "Observations on the proxy:\n- `TcpExtListenOverflows` went from 1,200 to 45,000 in an hour\n- CPU is fine\n",
			"listen-overflow", "ListenOverflows", "+43800"},
		{"udp", "UdpRcvbufErrors went from 10000 to 250000 in 10 minutes\n",
			"udp-rcvbuf-errors", "RcvbufErrors", "+240000"},
		{"compose prefix", "collector-1  | UdpRcvbufErrors went from 10000 to 250000 in 10 minutes\n",
			"udp-rcvbuf-errors", "RcvbufErrors", "+240000"},
		{"two vmstat counters, second without its verb", "compact_fail went from 2000 to 80000 overnight, compact_stall from 3000 to 95000\n",
			"compaction-failing", "share of compaction stalls that failed", "78000 of 92000"},
		{"allocstall rate", "During the backup allocstall_normal increments by ~500/s and pgmajfault climbs.\n",
			"direct-reclaim-stalls", "allocation stalls", "500/s"},
		{"allocstall from/to", "allocstall_movable went from 100 to 90000 during the backup\n",
			"direct-reclaim-stalls", "allocstall", "+89900"},
		{"swap rates", "pswpout increases by 20000/s and pswpin by 15000/s while the job runs\n",
			"swap-under-load", "swap in + out", "80000 KiB/s"},
		{"prune pair", "PruneCalled went from 10 to 50000 and RcvPruned from 0 to 1200 today\n",
			"rcvq-pruning", "RcvPruned", "+1200"},
		{"memory pressure, lone reading", "TCPMemoryPressures went from 0 to 4500 in an hour, TCPAbortOnMemory is at 300\n",
			"tcp-memory-pressure", "TCPAbortOnMemory", "300 since boot"},
		{"oom_kill", "oom_kill went from 3 to 40 in /proc/vmstat since yesterday\n",
			"oom-kill", "oom_kill", "+37"},
		{"one reading, now", "rx_missed_errors keeps increasing (now 123456) on eth0.\n",
			"nic-rx-overruns", "rx_missed_errors", "123456 since boot"},
		{"one reading, scaled", "`UdpRcvbufErrors` is at 3.2M and climbing on the collector.\n",
			"udp-rcvbuf-errors", "RcvbufErrors", "3200000"},
		{"ifconfig field", "ifconfig shows RX dropped 45000 on eth0 and it keeps growing\n",
			"rx-dropped-software", "eth0 rx_dropped", "45000"},
		{"flattened", "Summary: collector loses data. UdpRcvbufErrors went from 10000 to 250000 in 10 minutes. rx_missed_errors keeps increasing (now 123456). Thanks\n",
			"udp-rcvbuf-errors", "RcvbufErrors", "+240000"},
		{"CRLF", "We see drops.\r\nTCPBacklogDrop went from 100 to 9000 in 5 minutes.\r\n",
			"rcvq-pruning", "TCPBacklogDrop", "+8900"},
	} {
		tl := pasteTimeline(t, c.text)
		res := run(t, c.rule, tl)
		if len(res.Findings) == 0 {
			t.Errorf("%s: %s did not fire", c.name, c.rule)
			continue
		}
		if !evidenceHas(res.Findings[0], c.what, c.value) {
			t.Errorf("%s: evidence %+v, want %q with %q", c.name, res.Findings[0].Evidence, c.what, c.value)
		}
	}
}

// The same names that state no reading of this host's counter.
func TestH31aCounterReadingsCounterCases(t *testing.T) {
	for _, c := range []struct{ name, text, rule string }{
		{"question", "Is UdpRcvbufErrors increasing? Mine shows 0.\n", "udp-rcvbuf-errors"},
		{"question, from/to", "Did ListenOverflows go from 0 to 45000 for you too?\n", "listen-overflow"},
		{"recommendation", "You should check ListenOverflows and watch if it goes from 0 to anything.\n", "listen-overflow"},
		{"hypothetical", "If ListenOverflows goes from 0 to 1000, increase net.core.somaxconn.\n", "listen-overflow"},
		{"watch a rate", "Please watch allocstall_normal; if it increments by 500/s we have a problem.\n", "direct-reclaim-stalls"},
		{"threshold", "Alert when rx_missed_errors > 1000 or MemAvailable drops below 200MB.\n", "nic-rx-overruns"},
		{"threshold now", "Page us when ListenOverflows is at 1000 or above.\n", "listen-overflow"},
		{"stays at 0", "ListenOverflows stays at 0 and UdpRcvbufErrors is at 0 too.\n", "listen-overflow"},
		{"zero reading", "ListenOverflows stays at 0 and UdpRcvbufErrors is at 0 too.\n", "udp-rcvbuf-errors"},
		{"negated", "ListenOverflows never went from 0 to anything.\n", "listen-overflow"},
		{"test box", "On my test box (not production) ListenOverflows went from 0 to 45000 during the benchmark.\n", "listen-overflow"},
		{"changelog", "Changelog v2.3: fixed a bug where ListenOverflows went from 0 to 45000 under synthetic load.\n", "listen-overflow"},
		{"fell", "ListenOverflows went from 45000 to 1200 after the reboot.\n", "listen-overflow"},
		{"no counter", "The statistic compact_fail went from being obscure to being well documented.\n", "compaction-failing"},
		{"not a kernel counter", "request_errors went from 10 to 5000 during the test.\n", "nic-rx-overruns"},
		{"sysctl recommended", "We recommend net.core.rmem_max = 26214400; compact_stall is a good counter to watch.\n", "compaction-failing"},
	} {
		tl := pasteTimeline(t, c.text)
		if res := run(t, c.rule, tl); len(res.Findings) > 0 {
			t.Errorf("%s: %s fired: %+v", c.name, c.rule, res.Findings)
		}
	}
}
