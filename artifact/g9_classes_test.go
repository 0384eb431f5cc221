package artifact

import (
	"testing"
)

// The classes held-out batch g9 found (corpus 484-495) after g8's fixes, each on a
// minimal snippet of its case; every test failed before its change.

// softnet_stat converted to decimal by awk and column -t, under its command (corpus 485).
// Before: "more numbers than a sentence states", softnet-backlog-drops not checked.
func TestSoftnetDecimalUnderItsCommand(t *testing.T) {
	text := `    # awk '{for (i=1; i<=NF; i++) printf strtonum("0x" $i) (i==NF?"\n":" ")}' /proc/net/softnet_stat | column -t
    221951548  0      0  0  0  0  0  0  0  0  0  0  0
    192058677  18862  0  0  0  0  0  0  0  0  0  0  1
    455324886  0      0  0  0  0  0  0  0  0  0  0  2
    ...
`
	tl := ParseString(text, "p", Options{})
	if len(tl.Samples) != 1 || len(tl.Samples[0].Softnet) != 3 {
		t.Fatalf("samples %+v unparsed %+v", tl.Samples, tl.Unparsed)
	}
	c := tl.Samples[0].Softnet[1]
	if c.CPU != 1 || c.Processed != 192058677 || c.Dropped != 18862 {
		t.Errorf("cpu 1: %+v", c)
	}
	// The same rows without a line naming softnet_stat are any tool's numbers.
	tl = ParseString("221951548  0  0  0  0  0  0  0  0  0  0  0  0\n192058677  18862  0  0  0  0  0  0  0  0  0  0  1\n", "p", Options{})
	for _, s := range tl.Samples {
		if len(s.Softnet) > 0 {
			t.Errorf("softnet from rows without their command: %+v", s.Softnet)
		}
	}
}

// A journal in another locale ("апр 04 21:53:13 PC earlyoom[1579]: ...", corpus 487) is a
// log, and earlyoom's start-up line gives the machine's memory. Before: exit 3.
func TestLocalisedMonthAndEarlyoomTotals(t *testing.T) {
	text := `апр 04 21:53:13 PC systemd[1]: Started Early OOM Daemon.
апр 04 21:53:13 PC earlyoom[1579]: mem total: 9790 MiB, swap total:    0 MiB
Mär 12 08:00:01 box kernel: [  12.345678] e1000e 0000:00:19.0 eth0: NIC Link is Up 1000 Mbps
`
	tl := ParseString(text, "p", Options{})
	if len(tl.Samples) != 1 {
		t.Fatalf("samples %+v", tl.Samples)
	}
	if v, ok := tl.Samples[0].Mem("MemTotal"); !ok || v != 9790*1024 {
		t.Errorf("MemTotal %d, %v", v, ok)
	}
	if tl.Log.Len() != 1 || tl.Log.At(0).Message != "e1000e 0000:00:19.0 eth0: NIC Link is Up 1000 Mbps" {
		t.Errorf("kernel log %+v", tl.Log)
	}
	// Prose is not a syslog line: no day and time after the word.
	if l := SplitLines("at 12 noon the box died\n"); len(l) != 1 || l[0].Syslog {
		t.Errorf("prose taken for syslog: %+v", l)
	}
}

// An application's table whose header names a TcpExt counter (corpus 493). Before: unread.
func TestCounterTableNamingListenOverflows(t *testing.T) {
	text := "min   405s   lag  infl  acc/s  acceptQ  established  ListenOverflows(==Drops)\n" +
		"14.0  9.26s   96    1    54.5    382       345        3378 ...\n" +
		"—     2.66s   —     0    —       512       507        3631\n" +
		"—    18.76s   —    24    —        69        95        5729\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Samples) != 1 {
		t.Fatalf("samples %+v unparsed %+v", tl.Samples, tl.Unparsed)
	}
	if v, ok := tl.Samples[0].NetStat.Get("TcpExt", "ListenOverflows"); !ok || v != 5729 {
		t.Errorf("ListenOverflows %d, %v", v, ok)
	}
	cols := one(t, tl, KindCounterTable).([]CounterColumn)
	if len(cols) != 1 || len(cols[0].Values) != 3 || cols[0].Values[0] != 3378 {
		t.Errorf("columns %+v", cols)
	}
}

// A sockstat line with the paster's arrow after its last value, and a grep command whose
// pattern is the message (corpus 492). Before: the sockstat was unread, and the command
// counted as a logged "TCP: out of memory".
func TestSockstatArrowAndGrepPattern(t *testing.T) {
	text := `# grep 'kernel: TCP: out of memory -- consider tuning tcp_mem' /var/log/messages|tail -2
Aug 18 08:33:14 jp58 kernel: TCP: out of memory -- consider tuning tcp_mem
cPs# cat /proc/net/sockstat
sockets: used 8061
TCP: inuse 4823 orphan 481 tw 2159 alloc 4844 mem 57350 <--
UDP: inu
`
	tl := ParseString(text, "p", Options{})
	if tl.Log.Len() != 1 {
		t.Errorf("log records %d, want 1 (the grep pattern is no event): %+v", tl.Log.Len(), tl.Log)
	}
	var mem int64 = -1
	for _, s := range tl.Samples {
		if v, ok := s.SockStat.Get("TCP", "mem"); ok {
			mem = v
		}
	}
	if mem != 57350 {
		t.Errorf("sockstat TCP mem %d", mem)
	}
}

// RX ring sizes given only in a sentence, the maximum after the change (corpus 495).
// Before: exit 3, nothing read.
func TestStatedRingSizes(t *testing.T) {
	text := "I was stuck at ~4-5Gbit/s.\n\nChanging buffer rings (from default 512) to maximum supported by card (4096) removes issue.\n"
	tl := ParseString(text, "p", Options{})
	var rx, rxMax int64
	for _, s := range tl.Samples {
		for _, st := range s.NICStats {
			if st.Ring != nil {
				rx, rxMax = st.Ring.Rx, st.Ring.RxMax
			}
		}
	}
	if rx != 512 || rxMax != 4096 {
		t.Errorf("ring %d of %d; samples %+v", rx, rxMax, tl.Samples)
	}
	// A ring without its maximum is no reading.
	tl = ParseString("We changed the ring from 512 to 1024 and it helped.\n", "p", Options{})
	for _, s := range tl.Samples {
		if len(s.NICStats) > 0 {
			t.Errorf("ring without a maximum: %+v", s.NICStats)
		}
	}
}
