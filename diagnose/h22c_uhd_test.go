package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
)

// h22c: Ettus UHD's own warnings that the kernel capped its UDP receive buffer
// (artifact/uhdbuf.go), from udp_common.hpp's format strings: UHD 4's "[WARNING] [UDP]"
// block, UHD 3's "UHD Warning:" block, UHD 4's "current recv_buff_size ... minimum
// recommended size" line. Each reaches udp-rcvbuf-errors with the target and the actual
// size; UHD's "Please run: sudo sysctl -w net.core.rmem_max=T" is never the host's setting.
func TestH22cUHDReceiveBufferCapped(t *testing.T) {
	const uhd4 = "[INFO] [X300] X300 initialization sequence...\n" +
		"[WARNING] [UDP] The recv buffer could not be resized sufficiently.\n" +
		"Target sock buff size: 24862605 bytes.\n" +
		"Actual sock buff size: 425984 bytes.\n" +
		"See the transport application notes on buffer resizing.\n" +
		"Please run: sudo sysctl -w net.core.rmem_max=24862605\n" +
		"[INFO] [X300] Radio 1x clock: 200 MHz\n"
	const uhd3 = "linux; GNU C++ version 4.8.4; Boost_105400; UHD_003.009.002-0-unknown\n\n" +
		"UHD Warning:\n" +
		"    The recv buffer could not be resized sufficiently.\n" +
		"    Target sock buff size: 50000000 bytes.\n" +
		"    Actual sock buff size: 1000000 bytes.\n" +
		"    See the transport application notes on buffer resizing.\n" +
		"    Please run: sudo sysctl -w net.core.rmem_max=50000000\n"
	const minLine = "[WARNING] [UDP] The current recv_buff_size of 212992 is less than the minimum recommended size of 816000 and may result in dropped packets on some NICs\n"
	const minWrapped = "[WARNING] [UDP] The current recv_buff_size of 212992 is less than the\nminimum recommended size of 816000 and may result in dropped packets on\nsome NICs\n"
	prefix := func(p, s string) string {
		var b strings.Builder
		for _, l := range strings.SplitAfter(s, "\n") {
			if l != "" {
				b.WriteString(p + l)
			}
		}
		return b.String()
	}
	for _, c := range []struct{ text, want string }{
		{uhd4, "requested 23.7 MiB, obtained 416 KiB"},
		{prefix("uhd-1  | ", uhd4), "obtained 416 KiB"},
		{uhd3, "requested 47.7 MiB, obtained 977 KiB"},
		{prefix("> ", uhd3), "obtained 977 KiB"},
		{minLine, "requested 797 KiB, obtained 208 KiB"},
		{minWrapped, "obtained 208 KiB"},
	} {
		d, _ := rootOf(t, c.text)
		f := findingOf(d, "udp-rcvbuf-errors")
		if f == nil {
			t.Errorf("%q: no udp-rcvbuf-errors", c.text)
			continue
		}
		if !evidenceHas(*f, "", c.want) {
			t.Errorf("%q: evidence %q lacks %q", c.text, evidenceValues(*f), c.want)
		}
		for _, e := range f.Evidence {
			if e.What == "net.core.rmem_max" { // the host's setting: UHD's advice must not be it
				t.Errorf("%q: UHD's advice read as the host's net.core.rmem_max = %s", c.text, e.Value)
			}
		}
	}
	// UHD's advice is no setting of the host: its rmem_max is not read from the block.
	tl, err := artifact.Parse(strings.NewReader(uhd4), "paste.txt", artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v, _, ok := tl.Sysctl("net.core.rmem_max"); ok {
		t.Errorf("UHD's \"Please run\" advice read as net.core.rmem_max = %s", v)
	}
	// Counter-cases without udp-rcvbuf-errors: the send buffer's twin, a healthy start-up,
	// the words in a sentence, stream marks alone, a sysctl the author ran.
	for _, text := range []string{
		"[WARNING] [UDP] The send buffer could not be resized sufficiently.\nTarget sock buff size: 2500000 bytes.\nActual sock buff size: 425984 bytes.\nSee the transport application notes on buffer resizing.\nPlease run: sudo sysctl -w net.core.wmem_max=2500000\n",
		"[WARNING] [UDP] The current send_buff_size of 212992 is less than the minimum recommended size of 307200 and may result in dropped packets on some NICs\n",
		"[INFO] [UHD] linux; GNU C++ version 11.4.0; Boost_107400; UHD_4.6.0.0-0-unknown\n[INFO] [X300] X300 initialization sequence...\n[INFO] [X300] Maximum frame size: 8000 bytes.\n[INFO] [X300] Radio 1x clock: 200 MHz\n",
		"UHD complained that the recv buffer could not be resized sufficiently, so I set net.core.rmem_max in sysctl.conf.\n",
		"If you see \"The recv buffer could not be resized sufficiently\", run sudo sysctl -w net.core.rmem_max=33554432\n",
		"OOOOOOOOOOOOOOO\n",
	} {
		if d, _ := rootOf(t, text); findingOf(d, "udp-rcvbuf-errors") != nil {
			t.Errorf("%q: udp-rcvbuf-errors fired", text)
		}
	}
}

// The resize warning's target and actual sizes stand over UHD's later "minimum recommended
// size" line in the same log.
func TestH22cUHDResizeOverMinimum(t *testing.T) {
	const text = "[WARNING] [UDP] The recv buffer could not be resized sufficiently.\n" +
		"Target sock buff size: 24266666 bytes.\n" +
		"Actual sock buff size: 212992 bytes.\n" +
		"See the transport application notes on buffer resizing.\n" +
		"Please run: sudo sysctl -w net.core.rmem_max=24266666\n" +
		"[WARNING] [UDP] The current recv_buff_size of 212992 is less than the minimum recommended size of 816000 and may result in dropped packets on some NICs\n"
	d, _ := rootOf(t, text)
	f := findingOf(d, "udp-rcvbuf-errors")
	if f == nil || len(f.Evidence) == 0 || !strings.Contains(f.Evidence[0].Value, "requested 23.1 MiB, obtained 208 KiB") {
		t.Fatalf("want the resize warning's figures, got %+v", f)
	}
}
