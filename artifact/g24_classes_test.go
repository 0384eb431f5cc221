package artifact

import (
	"strings"
	"testing"
)

// The classes the held-out batch g24 found (corpus 769-787), each on a minimal snippet
// written for the class (not the case's words); every test failed before its change.

// A mail pasted still quoted-printable: soft breaks ("=" at the end of a line) cut a line of
// ifconfig in two, "=20" keeps trailing spaces, "=3D" is "=" (corpus 769, 773, 780, 781).
// Before, the block was read as two and the interface's counters were lost.
func TestQuotedPrintableMailDecoded(t *testing.T) {
	const text = "On Mon, Bob wrote:\n" +
		"> after a few pings the box shows this (link is up, count is 10=\n" +
		"0):\n" +
		">=20\n" +
		"> # ifconfig eth1\n" +
		"> eth1      Link encap:Ethernet  HWaddr 02:00:00:00:00:01\n" +
		">           inet addr:192.168.7.2  Bcast:192.168.7.255  Mask:255.255.25=\n" +
		"5.0\n" +
		">           UP BROADCAST RUNNING MULTICAST  MTU:1500  Metric:1\n" +
		">           RX packets:500 errors:0 dropped:120 overruns:0 frame:0\n" +
		">           TX packets:40 errors:0 dropped:0 overruns:0 carrier:0\n" +
		">           collisions:0 txqueuelen:1000\n" +
		">           RX bytes:32000 (31.2 KiB)  TX bytes:2400 (2.3 KiB)\n" +
		">=20\n" +
		"> the setting is rx_usecs=3D0 on both ends.\n"
	tl := ParseString(text, "p", Options{})
	var dropped int64 = -1
	for _, s := range tl.Samples {
		for _, nd := range s.NetDev {
			if v, ok := nd.Counters.Get("rx_dropped"); ok && nd.Name == "eth1" {
				dropped = v
			}
		}
	}
	if dropped != 120 {
		t.Errorf("eth1 rx_dropped = %d, want 120 (unparsed %+v)", dropped, tl.Unparsed)
	}
	dec := decodeQuotedPrintable(text)
	for _, want := range []string{"Mask:255.255.255.0\n", "count is 100):", "rx_usecs=0 on"} {
		if !strings.Contains(dec, want) {
			t.Errorf("decoded text lacks %q:\n%s", want, dec)
		}
	}
	// Latin-1 and UTF-8 non-breaking spaces become U+00A0, which the reader takes for a space.
	if got := qpDecode("a=A0b =C2=A0c =E2=80=99\n"); got != "a\u00a0b \u00a0c \u2019\n" {
		t.Errorf("qpDecode high bytes = %q", got)
	}
}

// Counter-cases: a text that is not quoted-printable is left as it is, though it has an "="
// at the end of a line (a warn_alloc header the log split after "nodemask="), one "=3D" in
// prose, or a sysctl set to 20.
func TestNotQuotedPrintableLeftAlone(t *testing.T) {
	for _, text := range []string{
		"[ 6204.384197] swapper/3: page allocation failure: order:2, mode:0x1080020(GFP_ATOMIC), nodemask=\n" +
			"[ 6204.384200] (null)\n[ 6204.400150] swapper/3 cpuset=\n[ 6204.400152] /  mems_allowed=0\n",
		"The URL has id=3D in it, and timeout=20\nnet.ipv4.tcp_fin_timeout=20\nkey=\nother=\n",
		"SRC=10.0.0.1 DST=10.0.0.2 LEN=60 TOS=0x00 PREC=0x00 TTL=64 ID=0 DF PROTO=TCP MAC=00:11:22:33:44:55 OUT=\n" +
			"SRC=10.0.0.1 DST=10.0.0.2 LEN=60 TOS=0x00 PREC=0x00 TTL=64 ID=0 DF PROTO=TCP MAC=00:11:22:33:44:55 OUT=\n",
	} {
		if got := decodeQuotedPrintable(text); got != text {
			t.Errorf("decoded a text that is not quoted-printable:\n%s\n→\n%s", text, got)
		}
	}
}

// A multipart mail: its header names the encoding of its own part only; the plain half
// (8bit) keeps its "=" at line ends, the HTML half is decoded.
func TestQuotedPrintablePartOnly(t *testing.T) {
	const text = "--b1\nContent-Type: text/plain; charset=UTF-8\n\nnodemask=\n(null) and a=3Db kept\n" +
		"--b1\nContent-Type: text/html; charset=UTF-8\nContent-Transfer-Encoding: quoted-printable\n\n<div>free:7 min:18=\n kB a=3Db</div>\n--b1--\n"
	got := decodeQuotedPrintable(text)
	if !strings.Contains(got, "nodemask=\n(null) and a=3Db kept\n") {
		t.Errorf("the plain half was decoded:\n%s", got)
	}
	if !strings.Contains(got, "<div>free:7 min:18 kB a=b</div>\n--b1--\n") {
		t.Errorf("the quoted-printable half was not decoded:\n%s", got)
	}
	// The header in any case; another encoding is none.
	if qpHeader("x\nCONTENT-TRANSFER-ENCODING:  Quoted-Printable\n") == nil || qpHeader("Content-Transfer-Encoding: 8bit\n") != nil {
		t.Errorf("qpHeader misread the header's case or value")
	}
}

// A buddyinfo row a mail client wrapped onto an indented second line (corpus 787: 14 orders,
// 7 a line). Before, the second lines were unread and each zone had 7 orders.
func TestBuddyInfoRowWrapped(t *testing.T) {
	const text = "> cat /proc/buddyinfo\n" +
		"> Node 0, zone      DMA      2      1      2      1      1      0      0\n" +
		">     1      1      2      2      0      0      0\n" +
		"> Node 0, zone   Normal      9      8      7      6      5      4      3\n" +
		">     2      1      0      1      2      0      0\n"
	zs := buddyOf(t, text)
	if len(zs) != 2 || len(zs[0].Free) != 14 || len(zs[1].Free) != 14 || zs[1].Free[7] != 2 || zs[0].Free[9] != 2 {
		t.Errorf("zones %+v, want DMA and Normal with 14 orders each", zs)
	}
	// Counter-cases: a full row (11 orders) is not continued by a row of numbers below it,
	// nor is a row by an unindented line of numbers.
	for _, text := range []string{
		"Node 0, zone   Normal   1113    351    138     65     38     31     25     10      4      2      1\n    5 6 7\n",
		"Node 0, zone   Normal      9      8      7      6      5      4      3\n2 1 0 1\n",
	} {
		zs := buddyOf(t, text)
		if n := len(zs[0].Free); n != 11 && n != 7 {
			t.Errorf("%q: %d orders, the numbers below were joined", text, n)
		}
	}
}

// The word size: prose about a device's width ("32-bit devices", "32-bit DMA") is not the
// kernel's, and a call trace's 16-digit addresses say 64-bit (corpus 781: a RISC-V 64 report
// read as a 32-bit kernel).
func TestWordSizeFromTraceNotDeviceWidth(t *testing.T) {
	const report = "[    0.191524] swapper/0: page allocation failure: order:7, mode:0xcc4(GFP_KERNEL|GFP_DMA32), nodemask=(null)\n" +
		"[    0.191546] CPU: 0 PID: 1 Comm: swapper/0 Not tainted 6.11.0 #2\n" +
		"[    0.191556] Call Trace:\n" +
		"[    0.191560] [<ffffffff800059bc>] dump_backtrace+0x1c/0x24\n" +
		"[    0.191589] [<ffffffff801a8eec>] warn_alloc+0xf4/0x180\n"
	for _, c := range []struct {
		text string
		want int
	}{
		{"32-bit devices would not work on such a platform.\n\n" + report, 64},
		{"Allocating 32-bit DMA memory fails.\n", 0},
		{"This is my 32-bit box.\n", 32},
	} {
		tl := ParseString(c.text, "p", Options{})
		if tl.Host.WordBits != c.want {
			t.Errorf("word bits %d, want %d:\n%s", tl.Host.WordBits, c.want, c.text)
		}
	}
}

// A subject or sentence naming the failures with their order in words is prose, not a header
// whose fields could not be read (corpus 773: "Subject: order 2 page allocation failures in
// iwlagn", readable once its quoted-printable was decoded).
func TestAllocFailureNamedInWordsIsProse(t *testing.T) {
	tl := ParseString("> Subject       : order 2 page allocation failures in iwlagn\n", "p", Options{})
	// Prose, not a header: at most the failure the prose states (g26's class, statedalloc.go:
	// the order as stated, no mode), never a report read from the line.
	if len(tl.Unparsed) > 0 || len(tl.Events) > 1 || len(tl.Events) == 1 && !strings.Contains(tl.Events[0].Source, StatedMark) {
		t.Errorf("unparsed %+v, events %+v", tl.Unparsed, tl.Events)
	}
	// Counter-cases: a header cut inside its fields is still listed as not read.
	for _, text := range []string{
		"[ 12.345678] swapper: page allocation failure: order:1, mode:\n",
		"Jan  3 10:00:01 db kernel: __alloc_pages: 0-order allocation failed (gfp=\n",
	} {
		tl = ParseString(text, "p", Options{})
		if len(tl.Unparsed) == 0 && len(tl.Events) == 0 {
			t.Errorf("a cut header neither read nor listed as not read: %q", text)
		}
	}
}
