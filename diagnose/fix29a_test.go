package diagnose

import "testing"

// fix29a: tcpdump's "dropped by interface" printed from a wrapped u_int (corpus 2502:
// 4294965006 = 2^32 - 2290) raises nothing; the same summary with a real count still reaches
// nic-rx-overruns, and so does a count just below the wrap window.
func TestFix29aTcpdumpWrappedIfDrop(t *testing.T) {
	sum := func(n string) string {
		return "JAVAERP-vtestserver:~#   tcpdump -i eth0  -s 256000 -w smb.pcap port 445\n" +
			"tcpdump: listening on eth0, link-type EN10MB (Ethernet), capture size 256000 bytes\n" +
			"^C0 packets captured\n0 packets received by filter\n0 packets dropped by kernel\n" + n + " packets dropped by interface\n"
	}
	for _, c := range []struct {
		n    string
		want bool
	}{{"4294965006", false}, {"4294967295", false}, {"18234", true}, {"4278190079", true}} {
		d := Run(parseText19b(t, sum(c.n)), nil)
		if got := findingOf(d, "nic-rx-overruns") != nil; got != c.want {
			t.Errorf("%s packets dropped by interface: nic-rx-overruns %v, want %v", c.n, got, c.want)
		}
	}
}
