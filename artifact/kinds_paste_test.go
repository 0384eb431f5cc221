package artifact

import (
	"testing"

	"headroom/model"
)

// The output kinds issue 16 added, each read from a small real-shaped paste into the
// numbers the rules use (the corpus holds the full pastes; these pin the mapping).
func TestPastedKindsGiveTheirNumbers(t *testing.T) {
	rate := func(tl *model.Timeline, key string) (float64, bool) {
		for i := len(tl.Samples) - 1; i >= 0; i-- {
			if v, ok := tl.Samples[i].Rates.Get(key); ok {
				return v, true
			}
		}
		return 0, false
	}
	for _, c := range []struct {
		name, text string
		key        string
		want       float64
	}{
		{"mpstat all row", "11:30:49 AM  CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest   %idle\n" +
			"11:30:51 AM  all    6.88    0.00    1.79    0.71    0.00    0.00    0.00    0.00   90.61\n" +
			"11:30:51 AM    0    8.04    0.00    3.52    0.00    0.00   31.00    0.00    0.00   88.44\n", model.RateCPUSystemPct, 1.79},
		{"sar -B with decimal commas", "06:01:01 PM  pgpgin/s pgpgout/s   fault/s  majflt/s  pgfree/s pgscank/s pgscand/s pgsteal/s    %vmeff\n" +
			"06:02:11 PM      0,00     95,00   6422,00      0,00   9790,00      0,00    141,00    274,00    194,33\n", model.RatePgscanDirectPerSec, 141},
		{"sar -W pages to KiB", "12:00:01 AM  pswpin/s pswpout/s\n12:10:01 AM      2.00     10.00\n", model.RateSwapOutKBPerSec, 40},
		{"sar -n DEV without lo", "Average:        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s\n" +
			"Average:           lo    500.00    500.00    100.00    100.00      0.00      0.00      0.00\n" +
			"Average:         eth0     46.50     27.00      4.00      3.00      0.00      0.00      0.00\n", model.RateRxBytesPerSec, 4096},
		{"pidstat kswapd", "03:04:05 PM   UID       PID    %usr %system  %guest    %CPU   CPU  Command\n" +
			"03:04:06 PM     0        84    0.00   99.00    0.00   99.00     1  kswapd0\n", model.RateKswapdCPUPct, 99},
		{"procps top row without header", "   38 root      20   0       0      0      0 S  18.8  0.0   3:17.73 kswapd0\n", model.RateKswapdCPUPct, 18.8},
		{"BusyBox top scaled to one CPU", "  PID  PPID USER     STAT   VSZ %VSZ CPU %CPU COMMAND\n" +
			"   55     2 root     RW       0  0.0   0 22.1 [kswapd0]\n" +
			"  703     1 root     S    1559m 84.3   3  1.2 /usr/lib/kodi/kodi.bin\n", model.RateKswapdCPUPct, 88.4},
		{"Android CPU usage lines", "80% 84/kswapd0\n55% 1444/system_server (29% kernel)\n", model.RateKswapdCPUPct, 80},
		{"stated in prose", "I ended up having 2 kswapd (it's a bi-socket numa node) process eating\n100% of cpu for ~ 14 Gbps of traffic (or ~1.5 Millions reclaims/s)\n", model.RateKswapdCPUPct, 200},
	} {
		tl := ParseString(c.text, c.name, Options{})
		got, ok := rate(tl, c.key)
		if !ok || got < c.want-0.01 || got > c.want+0.01 {
			t.Errorf("%s: %s = %v (present %v), want %v; artifacts %+v unparsed %+v", c.name, c.key, got, ok, c.want, tl.Artifacts, tl.Unparsed)
		}
	}

	// Counters and host facts.
	tl := ParseString("     30517772 K total memory\n      7094080 K free memory\n            0 pages swapped in\n            0 pages swapped out\n", "vmstat -s", Options{})
	if len(tl.Samples) != 1 || tl.Host.MemTotalKB != 30517772 {
		t.Errorf("vmstat -s: samples %d, MemTotal %d", len(tl.Samples), tl.Host.MemTotalKB)
	}
	tl = ParseString("----- Output from /proc/pressure/memory -----\nsome avg10=82.71 avg60=58.68 avg300=20.55\nfull avg10=51.17 avg60=34.93 avg300=12.29\n", "psi", Options{})
	if p := tl.Samples[0].Pressure("memory"); p == nil || p.Full == nil || p.Full.Avg10 != 51.17 {
		t.Errorf("psi: %+v", tl.Samples)
	}
	tl = ParseString("$ watch 'netstat -s | grep overflowed'\n160 times the listen queue of a socket overflowed\n", "grep", Options{})
	if v, ok := tl.Samples[0].NetStat.Get("TcpExt", "ListenOverflows"); !ok || v != 160 {
		t.Errorf("netstat -s | grep: %+v", tl.Samples)
	}
	tl = ParseString("FIN-WAIT-1 0      966799          127.0.0.1:46394          127.0.0.1:8080\n", "ss", Options{})
	if len(tl.Samples) != 1 || len(tl.Samples[0].SocketList) != 1 || tl.Samples[0].SocketList[0].SendQ != 966799 {
		t.Errorf("headerless ss: %+v", tl.Samples)
	}
	tl = ParseString("Active / Total Size (% used)       : 2888893.34K / 2904551.59K (99.5%)\n\n  OBJS ACTIVE  USE OBJ SIZE  SLABS OBJ/SLAB CACHE SIZE NAME\n2124486 2124486 100%    0.19K 101166       21    404664K kmalloc-192\n", "slabtop", Options{})
	if len(tl.Artifacts) != 1 || tl.Artifacts[0].Kind != KindSlabtop || len(tl.Unparsed) != 0 {
		t.Errorf("slabtop: %+v %+v", tl.Artifacts, tl.Unparsed)
	}
}
