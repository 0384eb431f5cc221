package diagnose

import (
	"strings"
	"testing"
)

// Pre-round 17 hardening (h17c), blind to round 17's batches: the interface counters of the
// Vyatta-derived router distributions, written from their own op-mode sources. VyOS's and
// EdgeOS's `show interfaces ethernet ethN` print `ip addr show` and, after a blank line,
// their own RX:/TX: table (vyos-1x op_mode/interfaces.py _format_show_data/_format_stats;
// vyatta-op vyatta-show-interfaces.pl run_show_intf); VyOS's `show interfaces counters` is a
// tabulate table (_format_show_counters). On main the blank line ended the interface (its
// counters were read as an unnamed second block, no rule checked) and the counters table
// was "more numbers than a sentence states".

const h17cVyOSIface = `vyos@vyos:~$ show interfaces ethernet eth0
eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP group default qlen 1000
    link/ether 00:50:56:bf:ef:aa brd ff:ff:ff:ff:ff:ff
    inet 192.0.2.1/24 brd 192.0.2.255 scope global eth0
       valid_lft forever preferred_lft forever
    Description: WAN

    RX:       bytes    packets     errors    dropped    overrun      mcast
        98765432100   88776655          0     412345      88123          0
    TX:       bytes    packets     errors    dropped    carrier collisions
        12345678900   23456789          0          0          0          0
`

// EdgeOS keeps vyatta-op's Perl: printf "%10s" labels ("RX:  bytes"), a blank line after
// the table too.
const h17cEdgeOSIface = `ubnt@ubnt:~$ show interfaces ethernet eth0
eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc pfifo_fast state UP group default qlen 1000
    link/ether 04:18:d6:00:00:01 brd ff:ff:ff:ff:ff:ff
    inet 203.0.113.2/24 brd 203.0.113.255 scope global eth0
       valid_lft forever preferred_lft forever
    Last clear: Sat Nov 28 09:00:00 UTC 2026
    Description: Internet

    RX:  bytes    packets     errors    dropped    overrun      mcast
    3456789012    9876543          0      61234          0          0
    TX:  bytes    packets     errors    dropped    carrier collisions
     987654321    5432109          0          0          0          0

`

const h17cVyOSCounters = `vyos@vyos:~$ show interfaces counters
Interface      Rx Packets    Rx Bytes    Tx Packets    Tx Bytes    Rx Dropped    Tx Dropped    Rx Errors    Tx Errors
-----------  ------------  ----------  ------------  ----------  ------------  ------------  -----------  -----------
eth0             88776655  9876543210      23456789  1234567890        412345             0            0            0
eth1             12345678  1234567890      11111111  2345678901             0             0            0            0
lo                   1234      123456          1234      123456             0             0            0            0
`

func TestH17cVyattaIfaceCountersReachRules(t *testing.T) {
	tl := pasteTimeline(t, h17cVyOSIface)
	f := mustFire(t, run(t, "nic-rx-overruns", tl), Warning)
	if !evidenceHas(f, "eth0 rx_over_errors", "88123") {
		t.Errorf("nic-rx-overruns evidence %+v, want eth0 rx_over_errors 88123", f.Evidence)
	}
	f = mustFire(t, run(t, "rx-dropped-software", tl), Info)
	if !evidenceHas(f, "eth0 rx_dropped", "412345") {
		t.Errorf("rx-dropped-software evidence %+v, want eth0 rx_dropped 412345", f.Evidence)
	}

	tl = pasteTimeline(t, h17cEdgeOSIface)
	f = mustFire(t, run(t, "rx-dropped-software", tl), Info)
	if !evidenceHas(f, "eth0 rx_dropped", "61234") {
		t.Errorf("EdgeOS rx-dropped-software evidence %+v, want eth0 rx_dropped 61234", f.Evidence)
	}
	mustBeHealthy(t, run(t, "nic-rx-overruns", tl))

	tl = pasteTimeline(t, h17cVyOSCounters)
	f = mustFire(t, run(t, "rx-dropped-software", tl), Info)
	if !evidenceHas(f, "eth0 rx_dropped", "412345") || !evidenceHas(f, "eth0 share", "88776655 received") {
		t.Errorf("counters rx-dropped-software evidence %+v, want eth0 rx_dropped 412345 of 88776655", f.Evidence)
	}
}

// The same outputs of a healthy router stay healthy; a blank line followed by anything but
// an indented "RX:" label still ends the interface (its counters are not borrowed from a
// later block).
func TestH17cVyattaIfaceCountersHealthy(t *testing.T) {
	zeroDrops := strings.NewReplacer("412345", "0", "88123", "0", "61234", "0").Replace
	for name, text := range map[string]string{"vyos": h17cVyOSIface, "edgeos": h17cEdgeOSIface, "counters": h17cVyOSCounters} {
		tl := pasteTimeline(t, zeroDrops(text))
		mustBeHealthy(t, run(t, "rx-dropped-software", tl))
		if name != "counters" {
			mustBeHealthy(t, run(t, "nic-rx-overruns", tl))
		}
	}
	// No stats table after the blank line: the header's interface has no counters, and the
	// prose after it is not read as its table.
	tl := pasteTimeline(t, `vyos@vyos:~$ show interfaces ethernet eth0
eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP group default qlen 1000
    link/ether 00:50:56:bf:ef:aa brd ff:ff:ff:ff:ff:ff

the counters show 412345 dropped and 88123 overrun on the WAN side
`)
	if r := run(t, "rx-dropped-software", tl); len(r.Findings) > 0 {
		t.Errorf("a sentence after the block was read as its counters: %+v", r.Findings)
	}
}

// The conntrack table counted by its lines, as router guides have users do: "cat
// /proc/net/nf_conntrack | wc -l", "wc -l /proc/net/ip_conntrack" (2.6 kernels' DD-WRT and
// Tomato), an unfiltered "conntrack -L | wc -l" (its stderr summary printed before wc's
// count). On main the count was "no reader for it" and conntrack-full had only the maximum.
func TestH17cConntrackLineCounts(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"root@OpenWrt:~# cat /proc/net/nf_conntrack | wc -l\n16384\nroot@OpenWrt:~# sysctl net.netfilter.nf_conntrack_max\nnet.netfilter.nf_conntrack_max = 16384\n", "16384 / 16384"},
		{"root@DD-WRT:~# wc -l /proc/net/ip_conntrack\n4096 /proc/net/ip_conntrack\nroot@DD-WRT:~# cat /proc/sys/net/ipv4/netfilter/ip_conntrack_max\n4096\n", "4096 / 4096"},
		{"root@vyos:~# conntrack -L | wc -l\nconntrack v1.4.8 (conntrack-tools): 262144 flow entries have been shown.\n262144\nroot@vyos:~# sysctl net.netfilter.nf_conntrack_max\nnet.netfilter.nf_conntrack_max = 262144\n", "262144 / 262144"},
	} {
		f := mustFire(t, run(t, "conntrack-full", pasteTimeline(t, c.text)), Critical)
		if !evidenceHas(f, "conntrack entries / maximum", c.want) {
			t.Errorf("%q: evidence %+v, want %s", c.text, f.Evidence, c.want)
		}
	}
	// A healthy table of the same forms stays healthy.
	mustBeHealthy(t, run(t, "conntrack-full", pasteTimeline(t, "root@OpenWrt:~# conntrack -L | wc -l\nconntrack v1.4.8 (conntrack-tools): 412 flow entries have been shown.\n412\nroot@OpenWrt:~# sysctl net.netfilter.nf_conntrack_max\nnet.netfilter.nf_conntrack_max = 16384\n")))
	// A filtered count is a part of the table, not its count: not read as one.
	for _, text := range []string{
		"root@OpenWrt:~# grep ESTABLISHED /proc/net/nf_conntrack | wc -l\n16384\nroot@OpenWrt:~# sysctl net.netfilter.nf_conntrack_max\nnet.netfilter.nf_conntrack_max = 16384\n",
		"root@OpenWrt:~# conntrack -L -p tcp | wc -l\n16384\nroot@OpenWrt:~# sysctl net.netfilter.nf_conntrack_max\nnet.netfilter.nf_conntrack_max = 16384\n",
	} {
		if r := run(t, "conntrack-full", pasteTimeline(t, text)); len(r.Findings) > 0 {
			t.Errorf("%q: a filtered count read as the table's: %+v", text, r.Findings)
		}
	}
}
