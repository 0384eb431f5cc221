package artifact

import "testing"

// `grep . /sys/class/net/*/statistics/*`: the paths name the interfaces and counters.
func TestSysfsPathGrep(t *testing.T) {
	text := "$ grep . /sys/class/net/*/statistics/*\n" +
		"/sys/class/net/eth0/statistics/rx_dropped:2\n" +
		"/sys/class/net/eth0/statistics/rx_packets:64232\n" +
		"/sys/class/net/wlan0/statistics/rx_missed_errors:17\n" +
		"/sys/class/net/wlan0/statistics/rx_fast_path:9\n"
	tl := ParseString(text, "grep", Options{})
	if len(tl.Samples) != 1 {
		t.Fatalf("%d samples, want 1", len(tl.Samples))
	}
	got := map[string]int64{}
	for _, nd := range tl.Samples[0].NetDev {
		for _, name := range nd.Counters.Names() {
			v, _ := nd.Counters.Get(name)
			got[nd.Name+"/"+name] = v
		}
	}
	if len(got) != 3 || got["eth0/rx_dropped"] != 2 || got["eth0/rx_packets"] != 64232 || got["wlan0/rx_missed_errors"] != 17 {
		t.Errorf("counters %v (a name sysfs does not have, rx_fast_path, ends the block)", got)
	}
}
