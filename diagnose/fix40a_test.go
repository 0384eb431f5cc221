package diagnose

import (
	"strings"
	"testing"
)

// fix40a: the three classes end to end, from a minimal snippet of each case to its finding.
func TestFix40aClassesFindings(t *testing.T) {
	// corpus 3364: cPanel SSP's digest of the kernel's kills: oom-kill, warning (host or
	// cgroup not said), naming the victims and the reporter.
	d, _ := rootOf(t, "[WARN] * Last 2 processes killed by Linux Out of memory killer (grep \"Out of memory\" /var/log/messages):\n"+
		"\t \\_ [Sep  3 02:14:27] [pid: 1750] [cmd: mysqld] [vm: 456120 kB] [rss: 410876 kB] [swap: 0 kB]\n"+
		"\t \\_ [Sep  3 02:14:23] [pid: 303] [cmd: mysqld] [vm: 3435600 kB] [rss: 481652 kB] [swap: 264 kB]\n")
	f := findingOf(d, "oom-kill")
	if f == nil || f.Severity != Warning || !strings.Contains(f.Title, "2×") {
		t.Fatalf("oom-kill %+v", f)
	}
	var ev string
	for _, e := range f.Evidence {
		ev += e.What + " " + e.Value + "\n"
	}
	if !strings.Contains(ev, "mysqld (pid 303)") || !strings.Contains(ev, "SSP") {
		t.Errorf("evidence %s", ev)
	}

	// corpus 3433: the nameless ifconfig block, 1074 dropped of 1613, overruns 0:
	// rx-dropped-software at info (one since-boot reading); nic-rx-overruns not.
	d, _ = rootOf(t, "I have noticed the following on ifconfig:\n\nRX packets: 1613 errors:0 dropped:1074 overruns:0 frame:0\nTX packets:146 errors:0 dropped:0 overruns:0 carrier:0\n")
	if f := findingOf(d, "rx-dropped-software"); f == nil || f.Severity != Info || !strings.Contains(f.Title, "1074") {
		t.Errorf("rx-dropped-software %+v", f)
	}
	if f := findingOf(d, "nic-rx-overruns"); f != nil && f.Severity > Info {
		t.Errorf("nic-rx-overruns %+v", f)
	}

	// corpus 3405: "filled the RAM and the Swap": swap-under-load, warning, no rate.
	d, _ = rootOf(t, "After a reboot i realized that the immich-microservices filled the RAM and the Swap.\n")
	if f := findingOf(d, "swap-under-load"); f == nil || f.Severity != Warning {
		t.Errorf("swap-under-load %+v", f)
	}
	d, _ = rootOf(t, "The service uses RAM and swap like any other program.\n")
	if f := findingOf(d, "swap-under-load"); f != nil {
		t.Errorf("a use stated swap-under-load %+v", f)
	}
}
