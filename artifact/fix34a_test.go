package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix34a (round 29, corpus 2886, 2893, 2899): a count of drops stated off /proc/net/udp, a
// filler typed for a sysctl's value, a send record with a WinSock error code.

// "/proc/net/udp6 reports N drops": a count or a range in place of the words. Before: only
// "reports many/increasing drops" was read.
func TestFix34aStatedProcNetUDPDropCount(t *testing.T) {
	wantStated(t, model.RateStatedUDPSocketDrops, []statedCase{
		{"and `/proc/net/udp6` reports several hundred to ~1800 `drops` on the client socket per 4 MiB loopback download on a debug build.\n", 1},
		{"On the collector /proc/net/udp shows 1,204 drops for port 514.\n", 1},
		{"Our receiver's socket: /proc/net/udp reports about 300 drops per minute.\n", 1},
		// counter-cases: zero, a possibility, a count of something else, none reported
		{"After the fix /proc/net/udp reports 0 drops on the client socket.\n", 0},
		{"If /proc/net/udp reports 500 drops, raise SO_RCVBUF.\n", 0},
		{"/proc/net/udp shows 12 sockets and no drops.\n", 0},
		{"The other listener's entries in `/proc/net/udp` report no drops at all.\n", 0},
	})
}

// "sysctl -w net.core.rmem_max=xxx": a filler where the value goes is no value anyone wrote
// (the key is named, with none); a real value, or a misspelt one, is still the author's.
func TestFix34aFillerSysctlValue(t *testing.T) {
	for _, c := range []struct {
		in, value string
	}{
		{"sysctl -w net.core.rmem_max=xxx\n", ""},
		{"sudo sysctl -w net.core.rmem_max=XXXX\n", ""},
		{"sysctl -w net.core.wmem_max=NNN\n", ""},
		{"sysctl -w net.core.rmem_max=...\n", ""},
		// counter-cases: a value, a word that is no filler, a misspelt number
		{"sysctl -w net.core.rmem_max=26214400\n", "26214400"},
		{"sysctl -w net.core.rmem_max=auto\n", "auto"},
		{"sysctl -w net.core.rmem_max=xyz\n", "xyz"},
		{"sysctl -w net.core.rmem_max=1O24\n", "1O24"},
	} {
		tl := ParseString(c.in, "t", Options{})
		var got []string
		for _, s := range tl.Settings {
			got = append(got, s.Key+"="+s.Value)
		}
		if len(tl.Settings) != 1 || tl.Settings[0].Value != c.value {
			t.Errorf("%q: settings %v, want one with value %q", c.in, got, c.value)
		}
	}
}

// quinn-udp's send record with a WinSock code names the text as Windows', its line unread;
// the same record with Linux's ENOBUFS, after a time and a level alone, is Udp SndbufErrors.
func TestFix34aWinsockSendRecord(t *testing.T) {
	win := "# 25-07-21 21:02:22.913 WARN sendmsg error: Os { code: 10040, kind: Uncategorized, message: \"message too long\" }, Transmit: { destination: [::1]:443, src_ip: N\n\nwindows client\n"
	tl := ParseString(win, "t", Options{})
	if !strings.HasPrefix(tl.Host.OtherOS, "Windows") || len(tl.Unparsed) != 1 || statedRate(t, win, model.RateStatedUDPSendENOBUFS) != 0 {
		t.Errorf("WinSock record: other OS %q, unread %d", tl.Host.OtherOS, len(tl.Unparsed))
	}
	linux := "25-07-21 21:02:22.913 WARN sendmsg error: Os { code: 105, kind: Uncategorized, message: \"No buffer space available\" }, Transmit: { destination: 10.0.0.2:443, src_ip: None, ecn: None, len: 1200, segment_size: None }\n"
	if got := statedRate(t, linux, model.RateStatedUDPSendENOBUFS); got != 1 {
		t.Errorf("Linux ENOBUFS after a time and a level: %v records, want 1", got)
	}
	if tl := ParseString(linux, "t", Options{}); tl.Host.OtherOS != "" {
		t.Errorf("Linux record named %q", tl.Host.OtherOS)
	}
	// counter-cases: a sentence that quotes the record with a level word, a Unix errno, a
	// Linux text beside the Windows record.
	for _, text := range []string{
		"the log says WARN sendmsg error: Os { code: 10040, kind: Uncategorized, message: \"x\" }\n",
		"21:02:22.913 WARN sendmsg error: Os { code: 90, kind: Uncategorized, message: \"Message too long\" }, Transmit: { destination: 10.0.0.2:443 }\n",
	} {
		if tl := ParseString(text, "t", Options{}); tl.Host.OtherOS != "" {
			t.Errorf("%q: named %q", text, tl.Host.OtherOS)
		}
	}
	mixed := win + "Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors\nUdp: 100 0 5 90 5 0\n"
	if tl := ParseString(mixed, "t", Options{}); tl.Host.OtherOS != "" {
		t.Errorf("a Linux counter beside the record: named %q", tl.Host.OtherOS)
	}
	// Sunshine's Windows build (WSASendMsg) names Windows; its Linux build's 105 does not.
	if tl := ParseString("[2024-05-01 12:00:00.123]: Warning: WSASendMsg() failed: 10055\n", "t", Options{}); !strings.HasPrefix(tl.Host.OtherOS, "Windows") {
		t.Errorf("Sunshine WSASendMsg: other OS %q", tl.Host.OtherOS)
	}
	if tl := ParseString("[2024-05-01 12:00:00.123]: Warning: sendmmsg() failed: 105\n", "t", Options{}); tl.Host.OtherOS != "" {
		t.Errorf("Sunshine sendmmsg 105: named %q", tl.Host.OtherOS)
	}
	for _, c := range []struct {
		n    int
		want bool
	}{{10040, true}, {10055, true}, {11031, true}, {105, false}, {55, false}, {12000, false}} {
		if winsockCode(c.n) != c.want {
			t.Errorf("winsockCode(%d) != %v", c.n, c.want)
		}
	}
}
