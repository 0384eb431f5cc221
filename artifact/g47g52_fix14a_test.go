package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// Round 9, fixed by class (fix14a): ifconfig in the mangled forms mail clients and forums
// leave (net-tools lib/interface.c ife_print_long for the 1.60 layout, ife_print for 2.x).
// Snippets written for each class, not copied from a case.

// ifaceCounter is counter name of interface dev in any sample of the text's timeline.
func ifaceCounter(text, dev, name string) (int64, bool) {
	tl := ParseString(text, "t", Options{})
	for _, s := range tl.Samples {
		for _, nd := range s.NetDev {
			if nd.Name == dev {
				if v, ok := nd.Counters.Get(name); ok {
					return v, true
				}
			}
		}
	}
	return 0, false
}

func TestIfconfigDoubleSpaced(t *testing.T) {
	old := "wlan3     Link encap:Ethernet  HWaddr 02:00:00:00:00:07\n\n" +
		"          inet addr:10.9.8.7  Bcast:10.9.8.255  Mask:255.255.255.0\n\n" +
		"          UP BROADCAST RUNNING MULTICAST  MTU:1500  Metric:1\n\n" +
		"          RX packets:5000 errors:0 dropped:321 overruns:7 frame:0\n\n" +
		"          TX packets:40 errors:0 dropped:0 overruns:0 carrier:0\n\n" +
		"          collisions:0 txqueuelen:1000\n\n" +
		"          Interrupt:30\n\n" +
		"wlan4     Link encap:Ethernet  HWaddr 02:00:00:00:00:08\n\n" +
		"          RX packets:10 errors:0 dropped:4 overruns:0 frame:0\n\n"
	for _, c := range []struct {
		name, text, dev, counter string
		want                     int64
	}{
		{"old layout", old, "wlan3", "rx_dropped", 321},
		{"old layout overruns", old, "wlan3", "rx_fifo_errors", 7},
		{"second block", old, "wlan4", "rx_dropped", 4},
		{"quoted with blank quote lines", "See:\n\n" + quoteAll(old), "wlan3", "rx_dropped", 321},
		{"new layout", "br7: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 1500\n\n" +
			"        inet 10.1.1.1  netmask 255.255.255.0  broadcast 10.1.1.255\n\n" +
			"        RX packets 900  bytes 1000 (1.0 KB)\n\n" +
			"        RX errors 0  dropped 55  overruns 0  frame 0\n\n", "br7", "rx_dropped", 55},
		{"inline code per line", "`br7: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 1500`\n\n" +
			"`        RX packets 900  bytes 1000 (1.0 KB)`\n\n" +
			"`        RX errors 0  dropped 56  overruns 0  frame 0`\n", "br7", "rx_dropped", 56},
		{"glued first words", "wlan5   Linkencap:Ethernet  HWaddr 02:00:00:00:00:09\n\n" +
			"         inetaddr:10.2.2.2  Mask:255.255.255.0\n\n" +
			"         UPBROADCAST RUNNING MULTICAST  MTU:1500  Metric:1\n\n" +
			"         RXpackets:800 errors:0 dropped:77 overruns:0 frame:0\n\n" +
			"        collisions:0 txqueuelen:1000\n\n", "wlan5", "rx_dropped", 77},
	} {
		v, ok := ifaceCounter(c.text, c.dev, c.counter)
		if !ok || v != c.want {
			t.Errorf("%s: %s %s = %d, %v; want %d", c.name, c.dev, c.counter, v, ok, c.want)
		}
	}
}

func quoteAll(s string) string {
	ls := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range ls {
		if l == "" {
			ls[i] = ">"
		} else {
			ls[i] = "> " + l
		}
	}
	return strings.Join(ls, "\n") + "\n"
}

// Counter-cases: a block that is not double-spaced ends at its first blank line, so counter
// lines after a blank (another loop's, another paste's) are not its; prose after a blank
// line is not a row; a glued word that is no ifconfig word stays as it is.
func TestIfconfigDoubleSpacedCounter(t *testing.T) {
	single := "wlan3     Link encap:Ethernet  HWaddr 02:00:00:00:00:07\n" +
		"          RX packets:5000 errors:0 dropped:0 overruns:0 frame:0\n" +
		"\n" +
		"          RX packets:6000 errors:0 dropped:99 overruns:0 frame:0\n"
	if v, ok := ifaceCounter(single, "wlan3", "rx_dropped"); !ok || v != 0 {
		t.Errorf("single-spaced block took a row after its blank line: rx_dropped = %d, %v; want 0", v, ok)
	}
	prose := "wlan3     Link encap:Ethernet  HWaddr 02:00:00:00:00:07\n\n" +
		"          RX packets:5000 errors:0 dropped:3 overruns:0 frame:0\n\n" +
		"          RX is what we care about, dropped:900 of them yesterday\n"
	if v, _ := ifaceCounter(prose, "wlan3", "rx_dropped"); v != 3 {
		t.Errorf("prose after a blank read as a row: rx_dropped = %d; want 3", v)
	}
	for _, s := range []string{"RXfoo:12 bar", "inetaddress here", "UPSTREAM RUNNING", "   RX packets:1"} {
		if got := unglueIfconfigRow(s); got != s {
			t.Errorf("unglueIfconfigRow(%q) = %q; want it unchanged", s, got)
		}
	}
	if got := unglueIfconfigRow("   RXbytes:10 (10 B)  TX bytes:2"); got != "   RX bytes:10 (10 B)  TX bytes:2" {
		t.Errorf("unglueIfconfigRow = %q", got)
	}
	// A sentence with a code span in it keeps its backticks; only a whole-line span is markup.
	for _, s := range []string{"run `ifconfig` now", "`a` and `b`", "``"} {
		if got := stripOpenCode(s); got != s {
			t.Errorf("stripOpenCode(%q) = %q; want it unchanged", s, got)
		}
	}
	if got := stripOpenCode("`  RX errors 0`  "); got != "  RX errors 0" {
		t.Errorf("stripOpenCode whole-line span = %q", got)
	}
	// "Linkencap:" after a word that is no interface name is no header.
	if isIfconfigHeader("The Linkencap: field") {
		t.Error("prose with Linkencap: read as a header")
	}
}

func TestIfconfigWrappedParagraph(t *testing.T) {
	para := "> $ ifconfig br9:\n" +
		"> flags=4163<UP,BROADCAST,RUNNING,MULTICAST> mtu 1500 inet\n" +
		"> 10.3.3.3 netmask 255.255.255.0 broadcast 10.3.3.255 ether\n" +
		"> 02:00:00:00:00:01 txqueuelen 1000 (Ethernet) RX packets 4000 bytes\n" +
		"> 500000 (500.0 KB) RX errors 0 dropped 61 overruns 0 frame 0 TX\n" +
		"> packets 10 bytes 1000 (1.0 KB) TX errors 0 dropped 0 overruns\n" +
		"> 0 carrier 0 collisions 0 br10: flags=4163<UP,BROADCAST,RUNNING,MULTICAST> mtu\n" +
		"> 1500 inet 10.4.4.4 netmask 255.255.255.0 RX packets 30 bytes 3000 (3.0 KB)\n" +
		"> RX errors 0 dropped 2 overruns 0 frame 0\n" +
		">\n> Thanks\n"
	if v, ok := ifaceCounter(para, "br9", "rx_dropped"); !ok || v != 61 {
		t.Errorf("br9 rx_dropped = %d, %v; want 61", v, ok)
	}
	if v, ok := ifaceCounter(para, "br10", "rx_dropped"); !ok || v != 2 {
		t.Errorf("br10 rx_dropped = %d, %v; want 2", v, ok)
	}
	// Counter-case: prose that names flags= in a wrapped paragraph holds no interface.
	prose := "The flags=4163 value means UP and RUNNING, and the\nRX counters did not move at all\nduring the test.\n"
	tl := ParseString(prose, "t", Options{})
	if len(tl.Samples) != 0 || len(tl.Artifacts) != 0 {
		t.Errorf("prose read as ifconfig: %d samples, %d artifacts", len(tl.Samples), len(tl.Artifacts))
	}
}

// ss -m's skmem quoted in prose: the drop field of a UDP socket, with its rb.
func TestStatedSkmemDropsOfUDPSocket(t *testing.T) {
	text := "Our UDP receiver loses telemetry.\n\nOn the box, `ss -uam` showed `d912` with `rb425984` on the socket.\n"
	if v, ok := statedKey(ParseString(text, "t", Options{}), model.RateStatedUDPSkmemDrops); !ok || v != 912 {
		t.Errorf("skmem drops = %v, %v; want 912", v, ok)
	}
	for _, c := range []string{
		// a TCP socket's skmem: no UDP in the text
		"The TCP sender stalls.\n\n`ss -tm` shows `d912` with `rb425984`.\n",
		// no rb beside it: d5 is some other word
		"UDP test.\n\nss -m output: option d5 of the config.\n",
		// zero drops
		"UDP receiver.\n\n`ss -m` shows `d0` with `rb212992`.\n",
	} {
		if v, ok := statedKey(ParseString(c, "t", Options{}), model.RateStatedUDPSkmemDrops); ok {
			t.Errorf("%q: skmem drops %v read", c, v)
		}
	}
}

// libusb's LIBUSB_ERROR_NO_MEM as a program prints it is listed as unread (usbfs's own
// limit, not the kernel's memory); a sentence with no record shape is not.
func TestLibusbNoMemUnread(t *testing.T) {
	if why, ok := errnoLogLine(`rtlsdr: <LIBUSB_ERROR_NO_MEM (-11): Insufficient memory> "Could not read 33554432 bytes"`); !ok || !strings.Contains(why, "usbfs_memory_mb") {
		t.Errorf("libusb NO_MEM line: %q, %v", why, ok)
	}
	if why, ok := errnoLogLine("The box has insufficient memory for the build"); ok {
		t.Errorf("prose read as libusb's error: %q", why)
	}
}
