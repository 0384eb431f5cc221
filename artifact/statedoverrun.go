package artifact

import "strings"

// A stated "RX overruns" is the NIC's only when the sentence speaks of a network device
// (fix27c, round 22's g104, corpus 2377). Software radios and capture programs print their
// own "RX Overruns" or "overflow" when the program reads its sample stream too slowly (an
// SDR library's buffer of N samples smaller than the read size): no frame was lost by a
// NIC, and no ifconfig, ip -s link or ethtool -S counter says so. Two forms are not the
// NIC's:
//   - the overruns disowned just before the words: 'fake "RX Overruns"', "spurious RX
//     overruns", "bogus ring overruns";
//   - a sentence that names a program's sample stream or buffer (samples, an SDR, a USB or
//     serial device, a buffer size, a stream) and no network device (NIC, interface,
//     Ethernet, eth0/enp3s0/wlan0, ifconfig, ethtool, a network).
// Counter-cases that still state an NIC overrun: "we see RX overruns on eth1 every
// night", "resulting in packet overruns", "fifo overrun errors", and an SDR thread whose
// sentence also names the NIC ("the NIC shows RX overruns while the SDR streams samples").

// notNICOverrun: before is up to a dozen bytes in front of the overrun words, sentence the
// sentence that holds them.
func notNICOverrun(before, sentence string) bool {
	b := strings.ToLower(before)
	for _, w := range []string{"fake", "spurious", "bogus", "phantom", "false"} {
		if strings.Contains(b, w) {
			return true
		}
	}
	l := strings.ToLower(sentence)
	if strings.Contains(l, "netlink") && !containsAnyWord(l, nicWords) {
		return true // a netlink socket's receive buffer overrun (netlinkenobufs.go), no NIC's
	}
	if !containsAnyWord(l, programStreamWords) {
		return false
	}
	return !containsAnyWord(l, nicWords) && !hasIfaceName(l)
}

var (
	programStreamWords = []string{"sample", "sdr", "soapy", "soapysdr", "usb", "uart", "serial", "tty", "buffer size", "stream", "audio", "alsa", "rx_samps"}
	nicWords           = []string{"nic", "network", "interface", "ethernet", "ifconfig", "ethtool", "ip -s", "netdev", "adapter"}
)

// containsAnyWord: one of ws occurs in l (lower case) bounded by non-letters; a word may be
// followed by a plural s ("samples", "NICs").
func containsAnyWord(l string, ws []string) bool {
	for _, w := range ws {
		for off := 0; ; {
			k := strings.Index(l[off:], w)
			if k < 0 {
				break
			}
			k += off
			if k == 0 || !isASCIILetter(l[k-1]) {
				e := k + len(w)
				if e == len(l) || !isASCIILetter(l[e]) || l[e] == 's' {
					return true
				}
			}
			off = k + 1
		}
	}
	return false
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// hasIfaceName: a Linux network interface's name (eth1, enp3s0, ens192, eno1, wlan0,
// wlp2s0, bond0) in l.
func hasIfaceName(l string) bool {
	for _, p := range []string{"eth", "enp", "ens", "eno", "wlan", "wlp", "bond"} {
		for off := 0; ; {
			k := strings.Index(l[off:], p)
			if k < 0 {
				break
			}
			k += off
			e := k + len(p)
			if (k == 0 || !isASCIILetter(l[k-1])) && e < len(l) && l[e] >= '0' && l[e] <= '9' {
				return true
			}
			off = k + 1
		}
	}
	return false
}
